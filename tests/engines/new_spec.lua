-- `bulkbench new` round trips against real servers (and SQLite): a table of every type it
-- generates, with keys, a foreign key, an enum, CHECKs and skewed values (tests/fixtures/
-- new_schema.lua) -> new -> run loads 50,000 rows without a constraint error, each column's
-- law matches the original's (chi-square over the common values, KS over ordered ones, p >=
-- 0.001), and no scratch table outlives a run; the BenchmarkSQL schema scaffolds and loads
-- parents before children; a CSV scaffolds a table that `bulkbench load` then fills exactly.
local bb = require "bulkbench"
local lib = require "new_lib"
dofile("tests/fixtures/new_schema.lua")
dofile("tests/fixtures/bmsql_schema.lua")

local PG = os.getenv("BULKBENCH_PG_DSN")
local MY = os.getenv("BULKBENCH_MYSQL_DSN")
local SQLITE = lib.tmp(".db")
local N = os.getenv("BB_IN_SANITIZE") and 20000 or 50000 -- the sanitized pass: the same paths, fewer rows

-- a date or time column as seconds, by the server (KS needs numbers; any increasing map will do)
local function seconds(engine, col)
  local expr = engine == "pg" and "extract(epoch from %s)"
    or engine == "mysql" and "to_seconds(%s) + microsecond(%s) / 1e6"
    or "(julianday(%s) - 2440587.5) * 86400"
  return { col, "ks", expr = expr:gsub("%%s", col) }
end

-- the columns whose law is compared, by how
local function checks(engine)
  return {
    { "parent_id", "chi2" }, { "status", "chi2" }, { "flag", "chi2" }, { "label", "chi2" }, { "mood", "chi2" },
    { "body", "chi2" }, { "small", "chi2" },
    { "amount", "ks" }, { "score", "ks" }, { "ratio", "ks" }, { "big", "ks" },
    seconds(engine, "day"), seconds(engine, "at"), seconds(engine, "at_tz"),
  }
end

-- hist: MariaDB's histogram type to analyze with instead (then only the --into half, on
-- the histogram's columns)
local function round_trip(engine, dsn, hist)
  local db = bb.connect(engine, dsn)
  NEW_CREATE(db)
  if hist then
    db:exec("SET SESSION histogram_type = '" .. hist .. "'")
    db:query("ANALYZE TABLE nt_child PERSISTENT FOR ALL")
  end
  local script = lib.tmp(".lua")
  local ok, out = lib.sh(("./bulkbench new --engine=%s --dsn='%s' --table=nt_child -o %s"):format(engine, dsn, script))
  assert.is_true(ok, out)
  local f = io.open(script)
  local text = f:read("*a")
  f:close()
  if engine ~= "sqlite" then -- JSON: drawn from the table's own values (lua/new/observed.lua)
    assert.truthy(text:find("extra json[b]?: type json[b]?: bulkbench has no generator for it: drawn from the table's own values"), text)
  end
  if hist then
    assert.truthy(text:find("amount decimal(10,2) NOT NULL: mysql.column_stats (" .. hist .. ")", 1, true), text)
  else
    -- into a scratch copy: every constraint of the original, the foreign key to a copy of the parent's keys
    ok, out = lib.sh(("./bulkbench run %s --engine=%s --dsn='%s' --rows=%d --threads=2"):format(script, engine, dsn, N))
    assert.is_true(ok, out)
    assert.truthy(out:find(" ok\n", 1, true), out)
    assert.are.equal(0, lib.scratch_left(db))
    assert.are.equal(20000, db:count("nt_child")) -- the user's table is not touched
  end

  -- into a copy of the user's own, to compare the values' laws
  NEW_COPY(db, "nt_copy")
  ok, out = lib.sh(("./bulkbench run %s --engine=%s --dsn='%s' --rows=%d --into=nt_copy"):format(script, engine, dsn, N))
  assert.is_true(ok, out)
  assert.are.equal(N, db:count("nt_copy"))
  local orphans = db:query("SELECT count(*) FROM nt_copy c LEFT JOIN nt_parent p ON p.pid = c.parent_id WHERE p.pid IS NULL")
  assert.are.equal("0", tostring(orphans[1][1]))
  local want = checks(engine)
  if hist then want = { { "amount", "ks" }, { "score", "ks" }, seconds(engine, "day"), seconds(engine, "at") } end
  local bad, said = lib.compare(db, "nt_child", "nt_copy", want)
  if os.getenv("BB_STAT_VERBOSE") then io.stderr:write("# " .. engine .. ": " .. said .. "\n") end
  assert.are.equal("", bad)
  NEW_DROP(db)
  db:close()
  os.remove(script)
end

describe("bulkbench new, round trip", function()
  it("pg: every type, keys, FK, enum, CHECKs, skew -> 50,000 rows with the original's laws", function()
    round_trip("pg", PG)
  end)
  it("MariaDB: the same, from JSON_HB histograms and a sample", function()
    round_trip("mysql", MY)
  end)
  it("MariaDB: DOUBLE_PREC_HB histograms (numbers, dates, timestamps) give the same laws", function()
    round_trip("mysql", MY, "DOUBLE_PREC_HB")
  end)
  it("SQLite: the same, from a sample", function()
    round_trip("sqlite", SQLITE)
    os.remove(SQLITE)
  end)
end)

local function bmsql(engine, dsn)
  local db = bb.connect(engine, dsn)
  BMSQL_CREATE(db)
  local script = lib.tmp(".lua")
  local ok, out = lib.sh(("./bulkbench new --engine=%s --dsn='%s' --table='bmsql_%%' -o %s"):format(engine, dsn, script))
  assert.is_true(ok, out)
  local f = io.open(script)
  local text = f:read("*a")
  f:close()
  -- each table is declared after every table it references, and loaded in that order
  local seen = {}
  for name, body in text:gmatch('bb%.table "(bmsql_[%w_]+)" (%b{})') do
    for parent in body:gmatch('references = "(bmsql_[%w_]+)"') do
      assert.is_true(seen[parent] or parent == name, name .. " is declared before its parent " .. parent)
    end
    seen[name] = true
  end
  local n = 0
  for _ in pairs(seen) do n = n + 1 end
  assert.are.equal(10, n)
  assert.truthy(text:find("bb.load_all { bmsql_config, bmsql_warehouse,", 1, true), text:match("bb%.load_all[^\n]*"))
  -- the scratch copies keep every foreign key: a child loaded before its parent would be refused
  ok, out = lib.sh(("./bulkbench run %s --engine=%s --dsn='%s' --rows=20000 --threads=2"):format(script, engine, dsn))
  assert.is_true(ok, out)
  assert.truthy(out:find(" ok\n", 1, true), out)
  assert.are.equal(0, lib.scratch_left(db))
  BMSQL_DROP(db)
  db:close()
  os.remove(script)
end

describe("bulkbench new, the BenchmarkSQL schema", function()
  it("pg: ten tables, parents before children, one run", function() bmsql("pg", PG) end)
  it("MariaDB: ten tables, parents before children, one run", function() bmsql("mysql", MY) end)
end)

describe("bulkbench new FILE.csv", function()
  for _, engine in ipairs { "pg", "mysql" } do
    it(engine .. ": the CREATE TABLE it prints runs, and `bulkbench load` loads the file exactly", function()
      local dsn = engine == "pg" and PG or MY
      local db = bb.connect(engine, dsn)
      db:exec("DROP TABLE IF EXISTS new_mixed")
      local ddl, script = lib.tmp(""), lib.tmp(".lua")
      local ok, out = lib.sh(("./bulkbench new tests/fixtures/new_mixed.csv --header --engine=%s -o %s >%s"):format(engine, script, ddl))
      assert.is_true(ok, out)
      local f = io.open(ddl)
      for stmt in f:read("*a"):gmatch("([^;]+);") do if stmt:find("%S") then db:exec(stmt) end end
      f:close()
      ok, out = lib.sh(("./bulkbench load tests/fixtures/new_mixed.csv --engine=%s --dsn='%s' --table=new_mixed --header"):format(engine, dsn))
      assert.is_true(ok, out)
      assert.are.equal(300, db:count("new_mixed"))
      local r = db:query("SELECT id, price, day, label, note FROM new_mixed WHERE id = 4")[1]
      local want = {}
      for line in io.lines("tests/fixtures/new_mixed.csv") do if line:match("^4,") then want = line end end
      assert.truthy(want:find("," .. r[2] .. ",", 1, true), r[2])
      assert.are.equal('item 4, size "' .. want:match('size ""(%a)""') .. '"', r[4])
      assert.is_nil(r[5]) -- an empty field is NULL
      -- and the scenario generates rows like the file's into a scratch copy of the table
      ok, out = lib.sh(("./bulkbench run %s --engine=%s --dsn='%s' --rows=5000"):format(script, engine, dsn))
      assert.is_true(ok, out)
      assert.are.equal(300, db:count("new_mixed"))
      db:exec("DROP TABLE new_mixed")
      db:close()
      os.remove(ddl)
      os.remove(script)
    end)
  end
end)

describe("bulkbench new through ODBC's catalog functions", function()
  for _, v in ipairs { { "psqlODBC", "pg", PG, "BULKBENCH_ODBC_PG" }, { "MariaDB Connector/ODBC", "mysql", MY, "BULKBENCH_ODBC_MYSQL" } } do
    it(v[1] .. ": columns, keys and the foreign key from SQLColumns, SQLPrimaryKeys, SQLForeignKeys; the scenario runs", function()
      local odbc = assert(os.getenv(v[4]), v[4] .. " is not set (drivers/odbc/test_setup.sh)")
      local db = bb.connect(v[2], v[3])
      NEW_CREATE(db)
      local script = lib.tmp(".lua")
      local ok, out = lib.sh(("./bulkbench new --engine=odbc --dsn='%s' --table=nt_child -o %s"):format(odbc, script))
      assert.is_true(ok, out)
      local f = io.open(script)
      local text = f:read("*a")
      f:close()
      assert.truthy(text:find('references = "nt_parent", ref_columns = { "pid" }', 1, true))
      assert.truthy(text:find('primary_key = { "id" }', 1, true))
      assert.truthy(text:find('unique = { { "code" } }', 1, true))
      assert.truthy(text:find('{ "ref", "uuid", bb.uuid() }', 1, true))
      ok, out = lib.sh(("./bulkbench run %s --engine=odbc --dsn='%s' --rows=5000"):format(script, odbc))
      assert.is_true(ok, out)
      assert.truthy(out:find(" ok\n", 1, true), out)
      assert.are.equal(0, lib.scratch_left(db))
      NEW_DROP(db)
      db:close()
      os.remove(script)
    end)
  end
end)
