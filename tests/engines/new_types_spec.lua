-- `bulkbench new` on types it has no law for, or whose shape a law loses (issue 30, "every
-- type, its values with their shape kept"; tests/fixtures/new_types.lua): the scenario runs as
-- written and into a copy of the original, each column's values keep their type, range,
-- precision, scale, lengths (in characters where a limit counts characters) and distinct
-- ratio, CHECKs it cannot read hold, and what it cannot make is refused before any row with
-- one line naming the column.
local bb = require "bulkbench"
local lib = require "new_lib"
dofile("tests/fixtures/new_types.lua")

local PG = os.getenv("BULKBENCH_PG_DSN")
local MY = os.getenv("BULKBENCH_MYSQL_DSN")

local function slurp(path)
  local f = assert(io.open(path))
  local text = f:read("*a")
  f:close()
  return text
end

-- new on table -> the script's path and text
local function scaffold(engine, dsn, tbl)
  local script = os.tmpname() .. ".lua"
  local ok, out = lib.sh(("./bulkbench new --engine=%s --dsn='%s' --table=%s -o %s"):format(engine, dsn, tbl, script))
  assert.is_true(ok, out)
  assert.is_falsy(out:find("traceback", 1, true), out)
  return script, slurp(script)
end

local function one(db, sql) return db:query(sql)[1][1] end

-- The distinct ratio and null fraction of expr in table t.
local function shape(db, t, expr)
  local r = db:query(("SELECT count(DISTINCT %s), count(%s), count(*) FROM %s"):format(expr, expr, t))[1]
  return tonumber(r[1]) / math.max(tonumber(r[2]), 1), 1 - tonumber(r[2]) / tonumber(r[3])
end

describe("bulkbench new on pg: every type, its values with their shape kept", function()
  local db, script, text
  setup(function()
    db = bb.connect("pg", PG)
    NTY_CREATE(db)
    script, text = scaffold("pg", PG, "nty_pg")
    db:exec("CREATE TABLE nty_pg_copy (LIKE nty_pg INCLUDING ALL)")
    local ok, out = lib.sh(("./bulkbench run %s --engine=pg --dsn='%s' --rows=%d --into=nty_pg_copy"):format(script, PG, NTY_ROWS))
    assert.is_true(ok, out)
  end)
  teardown(function()
    NTY_DROP(db)
    db:close()
    os.remove(script)
  end)

  it("runs as written: every column's type, CHECK, domain and index in the scratch copy", function()
    local ok, out = lib.sh(("./bulkbench run %s --engine=pg --dsn='%s' --threads=2"):format(script, PG))
    assert.is_true(ok, out)
    assert.truthy(out:find(" ok\n", 1, true), out)
    assert.are.equal(0, lib.scratch_left(db))
    assert.are.equal(NTY_ROWS, db:count("nty_pg_copy"))
  end)

  it("timestamp(3), timestamptz(0) and time(2) scaffold (a traceback before) and keep their law", function()
    assert.truthy(text:find('{ "at3", "timestamp(3)"', 1, true), text)
    assert.truthy(text:find('{ "at0", "timestamptz(0)"', 1, true), text)
    local bad, said = lib.compare(db, "nty_pg", "nty_pg_copy", { { "at3", "ks", expr = "extract(epoch from at3)" },
      { "at0", "ks", expr = "extract(epoch from at0)" }, { "t2", "ks", expr = "extract(epoch from t2)" } })
    assert.are.equal("", bad, said)
  end)

  it("a numeric without precision keeps its values' scale and range (3.561..9000.999 came out 589,130..854,114)", function()
    local bad, said = lib.compare(db, "nty_pg", "nty_pg_copy", { { "amount", "ks" } })
    assert.are.equal("", bad, said)
    assert.is_true(tonumber(one(db, "SELECT max(amount) FROM nty_pg_copy")) <= tonumber(one(db, "SELECT max(amount) FROM nty_pg")))
    assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_pg_copy WHERE scale(amount) > 3")))
  end)

  it("types without a generator are drawn from the table's own values: valid, their distinct ratio kept", function()
    -- interval's ratio was 0.025 (its most common values only); a column of all-distinct values failed the run
    for _, c in ipairs { "j", "js", "ia", "ip", "net", "mac", "iv", "tsv", "m", "bt", "vb", "r", "tr", "pt", "x", "t2" } do
      local expr = c .. "::text"
      local d0, n0 = shape(db, "nty_pg", expr)
      local d1, n1 = shape(db, "nty_pg_copy", expr)
      assert.is_true(math.abs(d0 - d1) <= 0.05, ("%s: distinct ratio %.3f, the original's %.3f"):format(c, d1, d0))
      assert.is_true(math.abs(n0 - n1) <= 0.03, ("%s: null fraction %.3f, the original's %.3f"):format(c, n1, n0))
    end
    assert.truthy(text:find('set = "nty_pg/iv"', 1, true), text)
  end)

  it("CHECKs it cannot read, the table's and a domain's, draw from the column's own values", function()
    -- the copy enforces both: the run verifying is the proof; the values are the original's
    assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_pg_copy c WHERE NOT EXISTS (SELECT 1 FROM nty_pg o WHERE o.code = c.code)")))
    assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_pg_copy c WHERE NOT EXISTS (SELECT 1 FROM nty_pg o WHERE o.zip = c.zip)")))
    local d0 = shape(db, "nty_pg", "code")
    local d1 = shape(db, "nty_pg_copy", "code")
    assert.is_true(math.abs(d0 - d1) <= 0.05, ("code: distinct ratio %.3f, the original's %.3f"):format(d1, d0))
  end)

  it("multibyte text keeps within varchar(30): lengths in characters, not bytes", function()
    assert.is_true(tonumber(one(db, "SELECT max(char_length(mb)) FROM nty_pg_copy")) <= 30)
    local m0, m1 = tonumber(one(db, "SELECT avg(char_length(mb)) FROM nty_pg")), tonumber(one(db, "SELECT avg(char_length(mb)) FROM nty_pg_copy"))
    assert.is_true(math.abs(m1 - m0) / m0 < 0.1, ("mean length %.1f, the original's %.1f"):format(m1, m0))
  end)

  it("text as long as the values, not as pg_stats' compressed avg_width (a 2,400-character body became 104-208)", function()
    local m0, m1 = tonumber(one(db, "SELECT avg(length(body)) FROM nty_pg")), tonumber(one(db, "SELECT avg(length(body)) FROM nty_pg_copy"))
    assert.is_true(math.abs(m1 - m0) / m0 < 0.1, ("body: mean length %.0f, the original's %.0f"):format(m1, m0))
    local x0, x1 = tonumber(one(db, "SELECT max(length(body)) FROM nty_pg")), tonumber(one(db, "SELECT max(length(body)) FROM nty_pg_copy"))
    assert.is_true(x1 <= x0 and x1 > 0.9 * x0, ("body: longest %d, the original's %d"):format(x1, x0))
  end)

  it("an empty table with a CHECK it cannot read: refused before any row, one line naming the CHECK", function()
    local s, t = scaffold("pg", PG, "nty_empty")
    assert.truthy(t:find("WARNING: nty_empty.code (text): CHECK ((code ~ '^[A-Z]{3}$'::text))", 1, true), t)
    local ok, out = lib.sh(("./bulkbench run %s --engine=pg --dsn='%s' --rows=100"):format(s, PG))
    assert.is_false(ok)
    assert.truthy(out:find("\nbulkbench: nty_empty.code (text): CHECK ((code ~ '^[A-Z]{3}$'::text)), and the table holds no values to draw from: give the column a generator\n", 1, true), out)
    assert.is_falsy(out:find("traceback", 1, true), out)
    assert.are.equal(0, lib.scratch_left(db))
    assert.are.equal(0, db:count("nty_empty"))
    os.remove(s)
  end)
end)

-- Whether s is UTF-8.
local function utf8(s)
  local i = 1
  while i <= #s do
    local b = s:byte(i)
    local n = b < 128 and 0 or b >= 194 and b <= 223 and 1 or b >= 224 and b <= 239 and 2 or b >= 240 and b <= 244 and 3 or -1
    if n < 0 then return false end
    for k = 1, n do
      local c = s:byte(i + k)
      if not c or c < 128 or c > 191 then return false end
    end
    i = i + n + 1
  end
  return true
end

for _, hist in ipairs { "JSON_HB", "DOUBLE_PREC_HB" } do
  describe("bulkbench new on MariaDB (" .. hist .. " histograms): every type, its values with their shape kept", function()
    local db, script, text
    setup(function()
      db = bb.connect("mysql", MY)
      NTY_CREATE(db)
      db:exec("SET SESSION histogram_type = '" .. hist .. "'")
      db:query("ANALYZE TABLE nty_my PERSISTENT FOR ALL")
      script, text = scaffold("mysql", MY, "nty_my")
      db:exec("CREATE TABLE nty_my_copy LIKE nty_my")
      local ok, out = lib.sh(("./bulkbench run %s --engine=mysql --dsn='%s' --rows=%d --into=nty_my_copy"):format(script, MY, NTY_ROWS))
      assert.is_true(ok, out)
    end)
    teardown(function()
      NTY_DROP(db)
      db:close()
      os.remove(script)
    end)

    it("runs as written, and the file is UTF-8 though BIT(8) values are bytes", function()
      assert.is_true(utf8(text))
      local ok, out = lib.sh(("./bulkbench run %s --engine=mysql --dsn='%s' --threads=2"):format(script, MY))
      assert.is_true(ok, out)
      assert.truthy(out:find(" ok\n", 1, true), out)
      assert.are.equal(0, lib.scratch_left(db))
      local b0, b1 = one(db, "SELECT count(DISTINCT b8) FROM nty_my"), one(db, "SELECT count(DISTINCT b8) FROM nty_my_copy")
      assert.are.equal(tostring(b0), tostring(b1))
    end)

    it("BIGINT UNSIGNED keeps its range above 2^63 (every row was 9223372036854775807)", function()
      local r = db:query("SELECT (SELECT min(u) FROM nty_my) <= min(u) AND max(u) <= (SELECT max(u) FROM nty_my), count(DISTINCT u) FROM nty_my_copy")[1]
      assert.are.equal("1", tostring(r[1]))
      assert.is_true(tonumber(r[2]) > 500, r[2])
    end)

    it("SET columns get the combinations the rows hold (only single labels before)", function()
      local function share(t) return tonumber(one(db, ("SELECT avg(s LIKE '%%,%%') FROM %s WHERE s IS NOT NULL"):format(t))) end
      assert.is_true(math.abs(share("nty_my") - share("nty_my_copy")) < 0.05, share("nty_my_copy"))
    end)

    it("BINARY(16) and VARBINARY(32) keep their byte lengths (64 random bytes were cut)", function()
      assert.are.equal("16 16", one(db, "SELECT concat(min(length(b16)), ' ', max(length(b16))) FROM nty_my_copy"))
      local m0, m1 = tonumber(one(db, "SELECT avg(length(vb)) FROM nty_my")), tonumber(one(db, "SELECT avg(length(vb)) FROM nty_my_copy"))
      assert.is_true(math.abs(m1 - m0) / m0 < 0.1, ("vb: mean length %.1f, the original's %.1f"):format(m1, m0))
      assert.is_true(tonumber(one(db, "SELECT max(length(vb)) FROM nty_my_copy")) <= 16)
    end)

    it("DECIMAL(65,30) keeps its digits (a histogram bound error before); one of cents keeps its own scale", function()
      assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_my_copy c WHERE NOT EXISTS (SELECT 1 FROM nty_my o WHERE o.d65 = c.d65)")))
      local bad, said = lib.compare(db, "nty_my", "nty_my_copy", { { "cents", "ks" } })
      assert.are.equal("", bad, said)
      assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_my_copy WHERE cents * 100 <> floor(cents * 100)")))
    end)

    it("timestamps in clusters keep their law (a DOUBLE_PREC_HB histogram piled them on its coarse positions)", function()
      local bad, said = lib.compare(db, "nty_my", "nty_my_copy", { { "dt", "ks", expr = "to_seconds(dt) + microsecond(dt) / 1e6" } })
      assert.are.equal("", bad, said)
      local d0, d1 = shape(db, "nty_my", "dt"), shape(db, "nty_my_copy", "dt")
      assert.is_true(d1 > 0.9 * d0, ("dt: distinct ratio %.3f, the original's %.3f"):format(d1, d0))
    end)
  end)
end
