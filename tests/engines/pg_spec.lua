-- The PostgreSQL engine against a real server (contrib/dbctl start pg): every method loads
-- exact rows with exact content; all methods load identical tables.
local bb = require "bulkbench"
local lib = require "engine_lib"
local DSN = assert(os.getenv("BULKBENCH_PG_DSN"), "BULKBENCH_PG_DSN is not set (contrib/dbctl start pg)")

local methods = { "insert", "insert-simple", "txn", "multirow", "pipeline", "copy", "copy-csv", "copy-binary" }
local N = 1500
local digests = {}

describe("pg engine", function()
  for _, m in ipairs(methods) do
    it(m .. " loads exactly the generator's rows", function()
      local ok, out = lib.run("pg", DSN, ("--method=%s --rows=%d --batch=200 --threads=2 --seed=11"):format(m, N))
      assert.is_true(ok, out)
      assert.is_truthy(out:find(" ok\n", 1, true), out)
      local db = bb.connect("pg", DSN)
      assert.is_nil(lib.compare(db, "pg", N, 11))
      digests[m] = db:query("SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM alltypes t")[1][1]
      db:close()
    end)
  end

  it("loads identical tables by every method", function()
    for _, m in ipairs(methods) do assert.are.equal(digests.copy, digests[m], m) end
  end)

  it("copy without --batch streams one COPY per worker", function()
    local ok, out = lib.run("pg", DSN, "--method=copy --rows=30000 --threads=2 --format=json")
    assert.is_true(ok, out)
    assert.is_truthy(out:find('"events":2,', 1, true), out) -- one event per worker stream
    assert.is_truthy(out:find('"verified_rows":30000', 1, true), out)
  end)

  it("reports WAL bytes, table size and the server's costs", function()
    local ok, out = lib.run("pg", DSN, "--method=copy --rows=20000 --format=json")
    assert.is_true(ok, out)
    local log = tonumber(out:match('"log_bytes":(%d+)'))
    local tb = tonumber(out:match('"table_bytes":(%d+)'))
    assert.is_true(log and log > 20000 * 50, "log_bytes " .. tostring(log))
    assert.is_true(tb and tb > 20000 * 50, "table_bytes " .. tostring(tb))
    assert.is_truthy(out:find('"cpu_s":[%d.]+', 1), out)          -- the server runs here
    assert.is_truthy(out:find('"synchronous_commit":"on"', 1, true), out)
    assert.is_truthy(out:find('"version":"PostgreSQL 15', 1, true), out)
  end)

  it("runs read queries and records their latency", function()
    local f = io.open("/tmp/bb_pg_query.lua", "w")
    f:write([[
function event(ctx)
  local rows = ctx.db:query("SELECT count(*) FROM alltypes WHERE n = $1", 5)
  assert(tonumber(rows[1][1]) >= 0)
end
]])
    f:close()
    local rc = os.execute(("./bulkbench run /tmp/bb_pg_query.lua --engine=pg --dsn='%s' --events=200 --format=json >/tmp/bb_q.out 2>&1"):format(DSN))
    local out = io.open("/tmp/bb_q.out"):read("*a")
    assert.are.equal(0, rc, out)
    assert.is_truthy(out:find('"events":200', 1, true), out)
    assert.is_truthy(out:find('"p95":[%d.]+', 1), out)
  end)

  it("sets session settings swept with --set", function()
    local ok, out = lib.run("pg", DSN, "--method=copy --rows=100 --set=synchronous_commit=off,on --format=json")
    assert.is_true(ok, out)
    assert.is_truthy(out:find('"synchronous_commit":"off"', 1, true), out)
    assert.is_truthy(out:find('"set":{"synchronous_commit":"on"}', 1, true), out)
  end)
end)
