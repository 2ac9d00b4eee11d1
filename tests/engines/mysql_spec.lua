-- The MySQL engine against a real MariaDB (contrib/dbctl start mysql): every method loads
-- exact rows with exact content on InnoDB and MyISAM; LOCAL INFILE serves nothing else.
local TMP = os.getenv("BB_TEST_TMP") or "/tmp" -- scratch files: one directory per test lane
local bb = require "bulkbench"
local lib = require "engine_lib"
local DSN = assert(os.getenv("BULKBENCH_MYSQL_DSN"), "BULKBENCH_MYSQL_DSN is not set (contrib/dbctl start mysql)")

local _, methods = bb.methods "mysql" -- every method the engine lists (method.c)
local N = 1500

describe("mysql engine", function()
  for _, storage in ipairs { "InnoDB", "MyISAM" } do
    local digests = {}
    for _, m in ipairs(methods) do
      it(m .. " on " .. storage .. " loads exactly the generator's rows", function()
        local ok, out = lib.run("mysql", DSN,
          ("--method=%s --rows=%d --batch=200 --threads=2 --seed=11 --storage=%s"):format(m, N, storage))
        assert.is_true(ok, out)
        assert.is_truthy(out:find(" ok\n", 1, true), out)
        local db = bb.connect("mysql", DSN)
        assert.is_nil(lib.compare(db, "mysql", N, 11))
        assert.are.equal(storage, db:query("SELECT engine FROM information_schema.tables WHERE table_schema = "
          .. "DATABASE() AND table_name = 'alltypes'")[1][1])
        digests[m] = db:query("SELECT md5(group_concat(concat_ws('|', id, i, b, s, v, d, f, ts, dt, ok, u, n) "
          .. "ORDER BY id SEPARATOR '#')) FROM alltypes")[1][1]
        db:close()
      end)
    end
    it("loads identical " .. storage .. " tables by every method", function()
      for _, m in ipairs(methods) do assert.are.equal(digests.load, digests[m], m) end
    end)
  end

  -- one scenario on every engine: json, enum('a',...) as MariaDB's own, uuid as char(36),
  -- boolean as tinyint(1), timestamptz as UTC in datetime(6), bytes as longblob
  it("loads the portable scenario by every method, every value as the generator made it", function()
    assert.is_nil(lib.portable("mysql", DSN, methods, "SELECT id, uid, u7, status, payload, doc, active, at, raw, v, w "
      .. "FROM portable ORDER BY id", { at = function(v) return v .. ".000000" end }))
    local db = bb.connect("mysql", DSN)
    assert.are.equal("600", db:query("SELECT count(*) FROM portable WHERE json_valid(payload) AND "
      .. "json_extract(payload, '$.device') BETWEEN 1 AND 100 AND json_length(payload, '$.tags') <= 3")[1][1])
    assert.are.equal("enum('ok','warn','it''s')", db:query("SELECT column_type FROM information_schema.columns WHERE "
      .. "table_schema = DATABASE() AND table_name = 'portable' AND column_name = 'status'")[1][1])
    db:close()
  end)

  it("load without --batch streams one LOAD DATA per worker", function()
    local ok, out = lib.run("mysql", DSN, "--method=load --rows=30000 --threads=2 --format=json")
    assert.is_true(ok, out)
    assert.is_truthy(out:find('"events":2,', 1, true), out)
    assert.is_truthy(out:find('"verified_rows":30000', 1, true), out)
  end)

  it("reports binlog and redo bytes, table size and the server's costs", function()
    local ok, out = lib.run("mysql", DSN, "--method=load --rows=20000 --format=json")
    assert.is_true(ok, out)
    local log = tonumber(out:match('"log_bytes":(%d+)'))
    local redo = tonumber(out:match('"redo_bytes":(%d+)'))
    local tb = tonumber(out:match('"table_bytes":(%d+)'))
    assert.is_true(log and log > 20000 * 50, "log_bytes " .. tostring(log))
    assert.is_true(redo and redo > 20000 * 20, "redo_bytes " .. tostring(redo))
    assert.is_true(tb and tb > 20000 * 50, "table_bytes " .. tostring(tb))
    assert.is_truthy(out:find('"cpu_s":[%d.]+', 1), out)
    assert.is_truthy(out:find('"innodb_flush_log_at_trx_commit":"%d"'), out)
    assert.is_truthy(out:find('"version":"MariaDB 10.11', 1, true), out)
  end)

  it("refuses LOAD DATA LOCAL of a real file through db:query, reading nothing", function()
    local db = bb.connect("mysql", DSN)
    db:exec("DROP TABLE IF EXISTS bb_pw")
    db:exec("CREATE TABLE bb_pw (l text)")
    local ok, e = pcall(function() db:query("LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE bb_pw") end)
    assert.is_false(ok)
    assert.is_truthy(tostring(e):find("only to its own streams", 1, true), tostring(e))
    assert.are.equal(0, db:count("bb_pw"))
    db:close()
  end)

  it("fails LOAD DATA's own accounting when rows are skipped or warned about", function()
    local f = io.open(TMP .. "/bb_my_warn.lua", "w")
    f:write([[
local bb = require "bulkbench"
local t = bb.table "warned" { { "id", "int", bb.seq() }, { "s", "varchar(3)", bb.string { len = 10 } } }
bb.load(t)
function prepare(db) db:recreate(t); db:exec("SET SESSION sql_mode = ''") end
function on_connect(db) db:exec("SET SESSION sql_mode = ''") end -- truncation becomes a warning
]])
    f:close()
    local rc = os.execute(("./bulkbench run " .. TMP .. "/bb_my_warn.lua --engine=mysql --dsn='%s' --method=load --rows=50 >" .. TMP .. "/bb_w.out 2>&1"):format(DSN))
    local out = io.open(TMP .. "/bb_w.out"):read("*a")
    assert.are.equal(3 * 256, rc, out) -- exit 3: verification failed
    assert.is_truthy(out:find("Warnings: 50", 1, true), out)
    assert.is_truthy(out:find("Data truncated", 1, true), out)
  end)

  -- pipeline is MariaDB's array binding: a batch is one statement, so one transaction
  local function script(path, body)
    local f = io.open(path, "w")
    f:write("local bb = require 'bulkbench'\n" .. body)
    f:close()
  end
  local function run(path, args, env)
    local rc = os.execute(("%s ./bulkbench run %s --engine=mysql --dsn='%s' %s >" .. TMP .. "/bb_bulk.out 2>&1")
      :format(env or "", path, DSN, args))
    return rc, io.open(TMP .. "/bb_bulk.out"):read("*a")
  end

  it("pipeline sends each batch as one statement: a refused row takes its whole batch back", function()
    script(TMP .. "/bb_bulk_dup.lua", [[
local t = bb.table "bb_bulk" { { "id", "int primary key", bb.seq() }, { "s", "varchar(8)", bb.string { len = 8 } } }
bb.load(t)
function prepare(db) db:recreate(t); db:exec("INSERT INTO bb_bulk VALUES (150, 'taken')") end
]])
    local rc, out = run(TMP .. "/bb_bulk_dup.lua", "--method=pipeline --batch=100 --rows=300")
    assert.are_not.equal(0, rc, out)
    assert.is_truthy(out:find("Duplicate entry '150'", 1, true), out)
    assert.is_truthy(out:find("100 rows were committed", 1, true), out) -- the first batch, not the 50 before 150
    local db = bb.connect("mysql", DSN)
    assert.are.equal(101, db:count("bb_bulk"))
    assert.are.equal(0, tonumber(db:query("SELECT count(*) FROM bb_bulk WHERE id BETWEEN 101 AND 149")[1][1]))
    db:close()
  end)

  it("pipeline splits a batch larger than max_allowed_packet, still in one transaction", function()
    local admin = bb.connect("mysql", DSN)
    local old = admin:query("SELECT @@global.max_allowed_packet")[1][1]
    admin:exec("SET GLOBAL max_allowed_packet = 1048576") -- for the sessions the runs open
    local ok, err = pcall(function()
      script(TMP .. "/bb_bulk_big.lua", [[
local t = bb.table "bb_bulk" { { "id", "int primary key", bb.seq() }, { "s", "mediumtext", bb.string { len = 20000 } } }
bb.load(t)
function prepare(db) db:recreate(t); if os.getenv("BB_TAKEN") then db:exec("INSERT INTO bb_bulk VALUES (90, 'x')") end end
]])
      -- 100 rows of 20 KB are 2 MB: one request would be refused
      local rc, out = run(TMP .. "/bb_bulk_big.lua", "--method=pipeline --batch=100 --rows=250")
      assert.are.equal(0, rc, out)
      assert.is_truthy(out:find(" ok\n", 1, true), out)
      -- the row taken at id 90 is in the batch's second piece: the first piece goes back too
      rc, out = run(TMP .. "/bb_bulk_big.lua", "--method=pipeline --batch=100 --rows=100", "BB_TAKEN=1")
      assert.are_not.equal(0, rc, out)
      assert.is_truthy(out:find("Duplicate entry '90'", 1, true), out)
      local db = bb.connect("mysql", DSN)
      assert.are.equal(1, db:count("bb_bulk"))
      db:close()
    end)
    admin:exec("SET GLOBAL max_allowed_packet = " .. old)
    admin:close()
    assert(ok, err)
  end)

  it("pipeline sends a column whose rows mix numbers and text as text", function()
    script(TMP .. "/bb_bulk_mix.lua", [[
local t = bb.table "bb_bulk" { { "id", "int", bb.seq() }, { "v", "varchar(30)", bb.choice { { 7, 1 }, { "seven", 1 }, { 0.5, 1 } } } }
bb.load(t)
]])
    local sums = {}
    for _, m in ipairs { "multirow", "pipeline" } do
      local rc, out = run(TMP .. "/bb_bulk_mix.lua", "--method=" .. m .. " --batch=50 --rows=500 --seed=3")
      assert.are.equal(0, rc, out)
      local db = bb.connect("mysql", DSN)
      sums[m] = db:query("SELECT md5(group_concat(concat(id, '=', v) ORDER BY id)), count(DISTINCT v) FROM bb_bulk")[1]
      db:close()
    end
    assert.are.equal(sums.multirow[1], sums.pipeline[1])
    assert.are.equal("3", tostring(sums.pipeline[2]))
  end)
end)
