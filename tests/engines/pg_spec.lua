-- The PostgreSQL engine against a real server (contrib/dbctl start pg): every method loads
-- exact rows with exact content; all methods load identical tables.
local TMP = os.getenv("BB_TEST_TMP") or "/tmp" -- scratch files: one directory per test lane
local bb = require "bulkbench"
local lib = require "engine_lib"
local DSN = assert(os.getenv("BULKBENCH_PG_DSN"), "BULKBENCH_PG_DSN is not set (contrib/dbctl start pg)")
-- how results name the server: the stock PostgreSQL 15 here, a fork or cluster in tests/systems.sh
local VERSION = os.getenv("BB_SPEC_PG_VERSION") or "PostgreSQL 15"

local _, methods = bb.methods "pg" -- every method the engine lists (method.c)
local N = 1500
local digests = {}

dofile("tests/fixtures/wide.lua") -- defines WIDE: 15 columns, 4,369 rows to a 65,535-parameter statement

-- How pg prints column c of a generator's row; nil for NULL.
-- Writes a scenario into TMP and runs it here too (its tables become globals the test reads).
local function scenario(name, text)
  local path = TMP .. "/" .. name
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  dofile(path)
  return path
end

local function wide_expect(c, v)
  if v == nil then return nil end
  local name = WIDE.columns[c].name
  if name == "ok" then return v == 1 and "t" or "f" end
  if name == "tz" then return v .. "+00" end -- sessions run in UTC
  if type(v) == "number" and name ~= "f" then return ("%d"):format(v) end
  return v
end

-- Compares rows 0..n-1 of the generator with table `wide`; returns the first difference, or nil.
local function compare_wide(db, n, seed)
  local rows = db:query("SELECT id, i, sm, b, s, v, d, f, ts, tz, dt, ok, u, encode(bl, 'escape'), n FROM wide ORDER BY id")
  if #rows ~= n then return ("table has %d rows, want %d"):format(#rows, n) end
  for r = 1, n do
    local want = WIDE:row(r - 1, seed)
    for c = 1, #WIDE.columns do
      local got, exp = rows[r][c], wide_expect(c, want[c])
      local same = got == exp
      if WIDE.columns[c].name == "f" and got and exp then same = tonumber(got) == exp end -- the shortest exact form
      if not same then
        return ("row %d column %s: table has %q, generator made %q"):format(r - 1, WIDE.columns[c].name, tostring(got), tostring(exp))
      end
    end
  end
  return nil
end

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

  -- the binary plan writes integers, decimals, instants and days straight from the
  -- generator and text where its bytes go; any other pair goes through the type's encoder
  it("copy-binary loads every kind of generator as copy does, into matching columns and others", function()
    local digest = {}
    for _, m in ipairs { "copy", "copy-binary" } do
      local ok, out = lib.run("pg", DSN, ("--method=%s --rows=20000 --threads=2 --seed=3 --now=1700000000"):format(m),
                              "tests/fixtures/kinds.lua")
      assert.is_true(ok, out)
      assert.is_truthy(out:find(" ok\n", 1, true), out)
      local db = bb.connect("pg", DSN)
      digest[m] = db:query("SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM kinds t")[1][1]
      db:close()
    end
    assert.are.equal(digest.copy, digest["copy-binary"])
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
    assert.is_truthy(out:find('"version":"' .. VERSION, 1, true), out)
  end)

  it("runs read queries and records their latency", function()
    local f = io.open(TMP .. "/bb_pg_query.lua", "w")
    f:write([[
function event(ctx)
  local rows = ctx.db:query("SELECT count(*) FROM alltypes WHERE n = $1", 5)
  assert(tonumber(rows[1][1]) >= 0)
end
]])
    f:close()
    local rc = os.execute(("./bulkbench run " .. TMP .. "/bb_pg_query.lua --engine=pg --dsn='%s' --events=200 --format=json >" .. TMP .. "/bb_q.out 2>&1"):format(DSN))
    local out = io.open(TMP .. "/bb_q.out"):read("*a")
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
  -- 15 columns x 4,369 rows = 65,535 parameters, PostgreSQL's most; the last statement, 400
  -- rows (6,000 parameters), is small enough for old libpq to read the server's Describe
  it("multirow binds 65,535 parameters per statement, every value exact", function()
    local n = 4369 * 2 + 400
    local ok, out = lib.run("pg", DSN, ("--method=multirow --rows=%d --batch=4369 --seed=5"):format(n), "tests/fixtures/wide.lua")
    assert.is_true(ok, out)
    assert.is_truthy(out:find(" ok\n", 1, true), out)
    local db = bb.connect("pg", DSN)
    assert.is_nil(compare_wide(db, n, 5))
    db:close()
  end)

  -- a script's statement: the server infers every type (jsonb too), reported by Describe
  -- when the answer fits old libpq (1,000 parameters), else the values go as text (10,000)
  for _, rows in ipairs { 100, 1000 } do
    it(("runs a script's db:prepare of %d parameters, every value exact"):format(rows * 10), function()
      local db = bb.connect("pg", DSN)
      db:exec("DROP TABLE IF EXISTS bb_script_params")
      db:exec("CREATE TABLE bb_script_params (id int PRIMARY KEY, n bigint, x double precision, d numeric(10,2), " ..
              "s text, ts timestamptz, ok boolean, u uuid, dt date, j jsonb)")
      local tuples, vals, want = {}, {}, {}
      for r = 0, rows - 1 do
        local p = {}
        for c = 1, 10 do p[c] = "$" .. (r * 10 + c) end
        tuples[r + 1] = "(" .. table.concat(p, ",") .. ")"
        local v = { r, r * 1000000007, r / 3, ("%d.%02d"):format(r, r % 100), r % 7 ~= 0 and ("it's\t%d\\"):format(r) or nil,
                    ("2024-%02d-%02d %02d:%02d:%02d"):format(r % 12 + 1, r % 28 + 1, r % 24, r % 60, r % 59), r % 2 == 0,
                    ("%08x-0000-4000-8000-%012x"):format(r, r * 7), ("20%02d-01-%02d"):format(r % 100, r % 28 + 1),
                    ('{"k": %d}'):format(r) }
        for c = 1, 10 do vals[r * 10 + c] = v[c] end
        want[r + 1] = { ("%d"):format(r), ("%d"):format(r * 1000000007), r / 3, v[4], v[5], v[6] .. "+00",
                        r % 2 == 0 and "t" or "f", v[8], v[9], v[10] }
      end
      local st = db:prepare("INSERT INTO bb_script_params VALUES " .. table.concat(tuples, ","))
      assert.are.equal(rows, st:execute(vals))
      st:close()
      local got = db:query("SELECT id, n, x, d, s, ts, ok, u, dt, j FROM bb_script_params ORDER BY id")
      assert.are.equal(rows, #got)
      for r = 1, rows do
        for c = 1, 10 do
          local g = c == 3 and tonumber(got[r][c]) or got[r][c]
          assert.are.equal(want[r][c], g, ("row %d column %d"):format(r - 1, c))
        end
      end
      db:exec("DROP TABLE bb_script_params")
      db:close()
    end)
  end

  -- daterange looks like "date" to the storage class: the declared date is refused, and the
  -- server infers the types instead, also inside the transaction of a batch split in two
  it("falls back to inferred types when a declared one does not fit the column", function()
    local path = scenario("bb_pg_ranges.lua", [[
local bb = require "bulkbench"
RANGES = bb.table "ranges" {
  { "id", "bigint", bb.seq() },
  { "r", "daterange", bb.choice { "[2024-01-01,2024-02-01)", "[2020-05-05,2020-05-06)", "empty" } },
  { "dt", "date", bb.date { "1970-01-01", "2099-12-31" }, null = 0.1 },
}
bb.load(RANGES)
]])
    for _, args in ipairs { "--method=insert --rows=50", "--method=multirow --rows=30000 --batch=30000" } do
      local n = tonumber(args:match("rows=(%d+)"))
      local ok, out = lib.run("pg", DSN, args .. " --seed=9", path)
      assert.is_true(ok, out)
      local db = bb.connect("pg", DSN)
      local rows = db:query("SELECT r, dt FROM ranges ORDER BY id")
      assert.are.equal(n, #rows, args)
      for i = 1, n do
        local want = RANGES:row(i - 1, 9)
        assert.are.equal(want[2], rows[i][1], args)
        assert.are.equal(want[3], rows[i][2], args)
      end
      db:close()
    end
  end)
  -- one scenario on every engine: json as jsonb, enum('a',...) as a type made for the table
  -- (and dropped with it), uuid, boolean, timestamptz, bytes as bytea, a function's column
  it("loads the portable scenario by every method, every value as the generator made it", function()
    local function jsonb(v, db) return db:query("SELECT $1::jsonb::text", v)[1][1] end
    assert.is_nil(lib.portable("pg", DSN, methods, "SELECT id, uid, u7, status, payload::text, doc::text, active, at, "
      .. "encode(raw, 'escape'), v, w FROM portable ORDER BY id", { payload = jsonb, doc = jsonb,
      active = function(v) return v == 1 and "t" or "f" end, at = function(v) return v .. "+00" end })) -- UTC sessions
    local db = bb.connect("pg", DSN)
    local types = db:query([[SELECT a.attname, format_type(a.atttypid, a.atttypmod), t.typtype FROM pg_attribute a
      JOIN pg_type t ON t.oid = a.atttypid WHERE a.attrelid = 'portable'::regclass AND a.attnum > 0 ORDER BY a.attnum]])
    local got = {}
    for _, r in ipairs(types) do got[#got + 1] = r[1] .. " " .. r[2] .. (r[3] == "e" and " (enum)" or "") end
    assert.are.equal("id bigint, uid uuid, u7 uuid, status portable_status (enum), payload jsonb, doc jsonb, active boolean, "
      .. "at timestamp with time zone, raw bytea, v bigint, w integer", table.concat(got, ", "))
    -- v4 and v7: v7's first 48 bits are the run's now plus the row, so it sorts as the rows do
    assert.are.equal("0", db:query([[SELECT count(*) FROM portable WHERE substr(uid::text, 15, 1) <> '4'
      OR substr(u7::text, 15, 1) <> '7']])[1][1])
    assert.are.equal("0", db:query("SELECT count(*) FROM (SELECT id, row_number() OVER (ORDER BY u7) AS k FROM portable) x "
      .. "WHERE id <> k")[1][1])
    db:drop(PORTABLE) -- the enum's type goes with its table (unless another table uses it: a copy made LIKE it)
    assert.are.equal("0", db:query([[SELECT count(*) FROM pg_type t WHERE t.typname = 'portable_status'
      AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.atttypid = t.oid AND a.attnum > 0)]])[1][1])
    db:close()
  end)

  -- json and jsonb in binary: json's bytes are its text, jsonb's a version byte (1) before it
  it("loads json and jsonb columns by copy-binary and pipeline, every value exact", function()
    local path = scenario("bb_pg_json.lua", [[
local bb = require "bulkbench"
DOCS = bb.table "docs" {
  { "id", "bigint", bb.seq() },
  { "j", "json", bb.choice { '{"a": [1, 2]}', '"x\\ty"', "null", "[]" } },
  { "jb", "jsonb", bb.choice { '{"k": "v", "n": 1.5}', '[true, false]', '"é"', "{}" }, null = 0.2 },
}
bb.load(DOCS)
]])
    for _, m in ipairs { "copy-binary", "pipeline" } do
      local ok, out = lib.run("pg", DSN, "--method=" .. m .. " --rows=300 --batch=100 --seed=4", path)
      assert.is_true(ok, out)
      local db = bb.connect("pg", DSN)
      local rows = db:query("SELECT j::text, jb::text FROM docs ORDER BY id")
      assert.are.equal(300, #rows, m)
      for i = 1, 300 do
        local want = DOCS:row(i - 1, 4)
        assert.are.equal(want[2], rows[i][1], m)
        if want[3] == nil then assert.is_nil(rows[i][2], m)
        else
          local canon = db:query("SELECT $1::jsonb::text", want[3])[1][1]
          assert.are.equal(canon, rows[i][2], m)
        end
      end
      db:close()
    end
  end)
end)
