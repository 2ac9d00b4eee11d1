-- The odbc engine through three real drivers: psqlODBC and MariaDB Connector/ODBC against the
-- contrib/dbctl servers, SQLite ODBC on a file. Every method loads exactly the generator's
-- rows, and the table is identical (checksum) to the one the native engine loads for the same
-- seed; a refused row is named; results name the driver. tests/run.sh registers the drivers
-- in a scratch odbcinst.ini (drivers/odbc/test_setup.sh); without it the drivers are named by path.
local TMP = os.getenv("BB_TEST_TMP") or "/tmp" -- scratch files: one directory per test lane
local bb = require "bulkbench"
local lib = require "engine_lib"
local PG = assert(os.getenv("BULKBENCH_PG_DSN"), "BULKBENCH_PG_DSN is not set (contrib/dbctl start pg)")
local MY = assert(os.getenv("BULKBENCH_MYSQL_DSN"), "BULKBENCH_MYSQL_DSN is not set (contrib/dbctl start mysql)")
local LIBDIR = os.getenv("ODBC_LIBDIR") or "/usr/lib/x86_64-linux-gnu/odbc"

local function url(u) -- scheme://user[:pass]@host:port/db
  local user, pass, host, port, db = u:match("^%a+://([^:@]*):?([^@]*)@([^:/]+):(%d+)/([^?]+)")
  return { user = user, pass = pass, host = host, port = port, db = db }
end
local function by_path(so, u)
  return ("Driver=%s/%s;Server=%s;Port=%s;Database=%s;UID=%s;PWD=%s"):format(LIBDIR, so, u.host, u.port, u.db, u.user, u.pass)
end

local SQLITE_FILE = (function() local p = os.tmpname(); os.remove(p); return p .. ".db" end)()
local flavors = {
  { name = "psqlODBC", native = "pg", ndsn = PG, dsn = os.getenv("BULKBENCH_ODBC_PG") or by_path("psqlodbcw.so", url(PG)),
    ref = "copy",
    digest = function(db) return db:query("SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM alltypes t")[1][1] end },
  { name = "MariaDB Connector/ODBC", native = "mysql", ndsn = MY, dsn = os.getenv("BULKBENCH_ODBC_MYSQL") or by_path("libmaodbc.so", url(MY)),
    ref = "load",
    digest = function(db)
      return db:query("SELECT md5(group_concat(concat_ws('|', id, i, b, s, v, d, f, ts, dt, ok, u, n) ORDER BY id SEPARATOR '#')) FROM alltypes")[1][1]
    end },
  { name = "SQLite ODBC", native = "sqlite", ndsn = SQLITE_FILE,
    dsn = os.getenv("BULKBENCH_ODBC_SQLITE") or ("Driver=%s/libsqlite3odbc.so;Database=%s"):format(LIBDIR, SQLITE_FILE),
    ref = "txn",
    digest = function(db) -- quote() keeps each value's storage class: 1 and '1' differ
      local rows = db:query("SELECT quote(id)||quote(i)||quote(b)||quote(s)||quote(v)||quote(d)||quote(f)||quote(ts)||"
        .. "quote(dt)||quote(ok)||quote(u)||quote(n) FROM alltypes ORDER BY id")
      local out = {}
      for i, r in ipairs(rows) do out[i] = r[1] end
      return table.concat(out, "\n")
    end },
}
-- the native engine must see the file the ODBC string names
for _, f in ipairs(flavors) do
  if f.native == "sqlite" then f.ndsn = f.dsn:match("Database=([^;]+)") end
end

local _, methods = bb.methods "odbc" -- every method the engine lists (method.c)
local N = 1500

local function run(script, dsn, args, env)
  local cmd = ("%s ./bulkbench run %s --engine=odbc --dsn='%s' %s >" .. TMP .. "/bb_odbc_spec.out 2>&1"):format(env or "", script, dsn, args)
  local rc = os.execute(cmd)
  local f = io.open(TMP .. "/bb_odbc_spec.out")
  local out = f:read("*a")
  f:close()
  return rc, out
end

local function script(path, body)
  local f = io.open(path, "w")
  f:write("local bb = require 'bulkbench'\n" .. body)
  f:close()
end

describe("odbc engine", function()
  for _, fl in ipairs(flavors) do
    local want
    it(fl.name .. ": the native " .. fl.native .. " engine's table, for reference", function()
      local ok, out = lib.run(fl.native, fl.ndsn, ("--method=%s --rows=%d --batch=200 --threads=2 --seed=11"):format(fl.ref, N))
      assert.is_true(ok, out)
      local db = bb.connect(fl.native, fl.ndsn)
      want = fl.digest(db)
      db:close()
    end)
    for _, m in ipairs(methods) do
      it(fl.name .. ": " .. m .. " loads exactly the generator's rows, the table the native engine loads", function()
        local ok, out = lib.run("odbc", fl.dsn, ("--method=%s --rows=%d --batch=200 --threads=2 --seed=11"):format(m, N))
        assert.is_true(ok, out)
        assert.is_truthy(out:find(" ok\n", 1, true), out)
        local db = bb.connect(fl.native, fl.ndsn)
        -- value by value as the engine prints them (engine_lib knows pg's and mysql's spellings;
        -- SQLite's table is held to the native engine's by the digest alone)
        if fl.native ~= "sqlite" then assert.is_nil(lib.compare(db, fl.native, N, 11)) end
        assert.are.equal(want, fl.digest(db), m)
        db:close()
      end)
    end

    it(fl.name .. ": pipeline names the row the server refused; its whole batch goes back", function()
      script(TMP .. "/bb_odbc_dup.lua", [[
local t = bb.table "bb_odbc_dup" { { "id", "int primary key", bb.seq() }, { "s", "varchar(8)", bb.string { len = 8 } } }
bb.load(t)
function prepare(db) db:recreate(t); db:exec("INSERT INTO bb_odbc_dup VALUES (150, 'taken')") end
]])
      local rc, out = run(TMP .. "/bb_odbc_dup.lua", fl.dsn, "--method=pipeline --batch=100 --rows=300")
      assert.are_not.equal(0, rc, out)
      assert.is_truthy(out:find("row 50 of 100 in the batch (first value 150) refused", 1, true), out)
      assert.is_truthy(out:find("100 rows were committed", 1, true), out)
      local db = bb.connect("odbc", fl.dsn)
      assert.are.equal(101, db:count("bb_odbc_dup"))
      db:close()
    end)

    it(fl.name .. ": the DBMS's dialect, learned from the driver", function()
      local db = bb.connect("odbc", fl.dsn)
      assert.are.equal(fl.native, db.dialect.name)
      assert.are.equal(fl.native == "mysql" and "`" or '"', db.dialect.ident_quote)
      db:close()
    end)
  end

  it("MariaDB Connector/ODBC: pipeline cuts a batch under max_allowed_packet, still one transaction", function()
    local admin = bb.connect("mysql", MY)
    local old = admin:query("SELECT @@global.max_allowed_packet")[1][1]
    admin:exec("SET GLOBAL max_allowed_packet = 1048576") -- for the sessions the runs open
    local ok, err = pcall(function()
      script(TMP .. "/bb_odbc_big.lua", [[
local t = bb.table "bb_odbc_big" { { "id", "int primary key", bb.seq() }, { "s", "mediumtext", bb.string { len = 20000 } } }
bb.load(t)
function prepare(db) db:recreate(t); if os.getenv("BB_TAKEN") then db:exec("INSERT INTO bb_odbc_big VALUES (90, 'x')") end end
]])
      local rc, out = run(TMP .. "/bb_odbc_big.lua", flavors[2].dsn, "--method=pipeline --batch=100 --rows=250")
      assert.are.equal(0, rc, out) -- 100 rows of 20 KB are 2 MB: one array would be refused
      assert.is_truthy(out:find(" ok\n", 1, true), out)
      rc, out = run(TMP .. "/bb_odbc_big.lua", flavors[2].dsn, "--method=pipeline --batch=100 --rows=100", "BB_TAKEN=1")
      assert.are_not.equal(0, rc, out)
      assert.is_truthy(out:find("row 90 of 100 in the batch (first value 90) refused", 1, true), out)
      local db = bb.connect("mysql", MY)
      assert.are.equal(1, db:count("bb_odbc_big")) -- the first piece went back too
      db:close()
    end)
    admin:exec("SET GLOBAL max_allowed_packet = " .. old)
    admin:close()
    assert(ok, err)
  end)

  it("results name the driver and, for a local server, its costs", function()
    local rc, out = run("workloads/batch_insert.lua", flavors[1].dsn, "--method=pipeline --rows=5000 --format=json")
    assert.are.equal(0, rc, out)
    assert.is_truthy(out:find('"driver":"psqlodbcw.so 13', 1, true), out)
    assert.is_truthy(out:find('"version":"PostgreSQL 15', 1, true), out)
    assert.is_truthy(out:find('"cpu_s":[%d.]+', 1), out)            -- the server runs here: measured
    assert.is_truthy(out:find('"log_bytes":%d+', 1), out)
    rc, out = run("workloads/batch_insert.lua", flavors[3].dsn, "--method=pipeline --rows=500 --format=json")
    assert.are.equal(0, rc, out)
    assert.is_truthy(out:find('"driver":"sqlite3odbc.so', 1, true), out)
    assert.is_truthy(out:find('"cpu_s":null', 1, true), out)          -- nobody can tell
  end)

  it("--set=odbc.NAME sweeps a connection-string attribute; other names are the DBMS's settings", function()
    local rc, out = run("workloads/batch_insert.lua", flavors[1].dsn,
      "--method=pipeline --rows=3000 --set=synchronous_commit=off --set=odbc.BatchSize=10,1000 --format=json")
    assert.are.equal(0, rc, out)
    assert.is_truthy(out:find('"set":{"synchronous_commit":"off","odbc.BatchSize":"10"}', 1, true), out)
    assert.is_truthy(out:find('"set":{"synchronous_commit":"off","odbc.BatchSize":"1000"}', 1, true), out)
    -- the setting given before the attribute survives the session's reopening for it
    local _, offs = out:gsub('"synchronous_commit":"off","wal_compression"', "")
    assert.are.equal(2, offs, out)
  end)

  it("never prints a password, and a server that does not answer fails in seconds", function()
    local t0 = os.time()
    local rc, out = run("workloads/batch_insert.lua",
      ("Driver=%s/libmaodbc.so;Server=127.0.0.1;Port=1;Database=x;UID=u;PWD={se;kr3t}"):format(LIBDIR), "--rows=10")
    assert.are_not.equal(0, rc, out)
    assert.is_nil(out:find("se;kr3t", 1, true), out)
    assert.is_truthy(out:find("cannot connect to 127.0.0.1:1", 1, true), out)
    assert.is_true(os.time() - t0 < 8)
  end)
end)
