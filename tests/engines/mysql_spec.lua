-- The MySQL engine against a real MariaDB (contrib/dbctl start mysql): every method loads
-- exact rows with exact content on InnoDB and MyISAM; LOCAL INFILE serves nothing else.
local bb = require "bulkbench"
local lib = require "engine_lib"
local DSN = assert(os.getenv("BULKBENCH_MYSQL_DSN"), "BULKBENCH_MYSQL_DSN is not set (contrib/dbctl start mysql)")

local methods = { "insert", "insert-simple", "txn", "multirow", "load" }
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
    assert.is_truthy(out:find('"innodb_flush_log_at_trx_commit":"1"', 1, true), out)
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
    local f = io.open("/tmp/bb_my_warn.lua", "w")
    f:write([[
local bb = require "bulkbench"
local t = bb.table "warned" { { "id", "int", bb.seq() }, { "s", "varchar(3)", bb.string { len = 10 } } }
bb.load(t)
function prepare(db) db:recreate(t); db:exec("SET SESSION sql_mode = ''") end
function on_connect(db) db:exec("SET SESSION sql_mode = ''") end -- truncation becomes a warning
]])
    f:close()
    local rc = os.execute(("./bulkbench run /tmp/bb_my_warn.lua --engine=mysql --dsn='%s' --method=load --rows=50 >/tmp/bb_w.out 2>&1"):format(DSN))
    local out = io.open("/tmp/bb_w.out"):read("*a")
    assert.are.equal(3 * 256, rc, out) -- exit 3: verification failed
    assert.is_truthy(out:find("Warnings: 50", 1, true), out)
    assert.is_truthy(out:find("Data truncated", 1, true), out)
  end)
end)
