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
  local script = lib.tmp(".lua")
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

-- new on tbl; the scenario runs as written (a scratch copy, two threads) and into tbl_copy,
-- made like tbl, with as many rows as tbl holds: the scenario's text
local function round_trip(db, engine, dsn, tbl)
  local script, text = scaffold(engine, dsn, tbl)
  local ok, out = lib.sh(("./bulkbench run %s --engine=%s --dsn='%s' --threads=2"):format(script, engine, dsn))
  assert.is_true(ok, out)
  assert.truthy(out:find(" ok\n", 1, true), out)
  assert.are.equal(0, lib.scratch_left(db))
  db:exec(engine == "pg" and ("CREATE TABLE %s_copy (LIKE %s INCLUDING ALL)"):format(tbl, tbl)
    or ("CREATE TABLE %s_copy LIKE %s"):format(tbl, tbl))
  ok, out = lib.sh(("./bulkbench run %s --engine=%s --dsn='%s' --rows=%d --into=%s_copy"):format(script, engine, dsn, NTY_ROWS, tbl))
  assert.is_true(ok, out)
  assert.are.equal(NTY_ROWS, db:count(tbl .. "_copy"))
  os.remove(script)
  return text
end

describe("bulkbench new on pg: every type, its values with their shape kept", function()
  local db
  setup(function()
    db = bb.connect("pg", PG)
    NTY_CREATE(db)
  end)
  teardown(function()
    NTY_DROP(db)
    db:close()
  end)

  it("timestamp(3), timestamptz(0) and time(2) scaffold (a traceback before) and keep their law", function()
    local text = round_trip(db, "pg", PG, "nty_prec")
    assert.truthy(text:find('{ "at3", "timestamp(3)"', 1, true), text)
    assert.truthy(text:find('{ "at0", "timestamptz(0)"', 1, true), text)
    local bad, said = lib.compare(db, "nty_prec", "nty_prec_copy", { { "at3", "ks", expr = "extract(epoch from at3)" },
      { "at0", "ks", expr = "extract(epoch from at0)" }, { "t2", "ks", expr = "extract(epoch from t2)" } })
    assert.are.equal("", bad, said)
  end)

  it("a numeric without precision keeps its values' scale and range (3.561..9000.999 came out 589,130..854,114)", function()
    round_trip(db, "pg", PG, "nty_num")
    local bad, said = lib.compare(db, "nty_num", "nty_num_copy", { { "amount", "ks" } })
    assert.are.equal("", bad, said)
    assert.is_true(tonumber(one(db, "SELECT max(amount) FROM nty_num_copy")) <= tonumber(one(db, "SELECT max(amount) FROM nty_num")))
    assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_num_copy WHERE scale(amount) > 3")))
  end)

  it("types without a generator are drawn from the table's own values: valid, their distinct ratio kept", function()
    -- interval's ratio was 0.025 (its most common values only); a column of all-distinct values failed the run
    local text = round_trip(db, "pg", PG, "nty_zoo")
    for _, c in ipairs { "j", "js", "ia", "ip", "net", "mac", "iv", "tsv", "m", "bt", "vb", "r", "tr", "pt", "x", "t" } do
      local expr = c .. "::text"
      local d0, n0 = shape(db, "nty_zoo", expr)
      local d1, n1 = shape(db, "nty_zoo_copy", expr)
      assert.is_true(math.abs(d0 - d1) <= 0.05, ("%s: distinct ratio %.3f, the original's %.3f"):format(c, d1, d0))
      assert.is_true(math.abs(n0 - n1) <= 0.03, ("%s: null fraction %.3f, the original's %.3f"):format(c, n1, n0))
    end
    assert.truthy(text:find('set = "nty_zoo/iv"', 1, true), text)
    round_trip(db, "pg", PG, "nty_zoo2") -- and the rest of pg's own
    for _, c in ipairs { "bx", "ci", "pg", "ls", "nr", "dr", "mr", "q", "jp", "m8", "ttz", "lsn", "o", "ch", "va", "bp" } do
      local d0, d1 = shape(db, "nty_zoo2", c .. "::text"), shape(db, "nty_zoo2_copy", c .. "::text")
      assert.is_true(math.abs(d0 - d1) <= 0.05, ("%s: distinct ratio %.3f, the original's %.3f"):format(c, d1, d0))
    end
  end)

  it("CHECKs it cannot read, the table's and a domain's, draw from the column's own values", function()
    round_trip(db, "pg", PG, "nty_check") -- the copies enforce both: the runs verifying is the proof
    for _, c in ipairs { "code", "zip" } do
      assert.are.equal("0", tostring(one(db, ("SELECT count(*) FROM nty_check_copy c WHERE NOT EXISTS (SELECT 1 FROM nty_check o WHERE o.%s = c.%s)"):format(c, c))))
      local d0, d1 = shape(db, "nty_check", c), shape(db, "nty_check_copy", c)
      assert.is_true(math.abs(d0 - d1) <= 0.05, ("%s: distinct ratio %.3f, the original's %.3f"):format(c, d1, d0))
    end
  end)

  it("multibyte text keeps within varchar(30): lengths in characters, not bytes", function()
    round_trip(db, "pg", PG, "nty_mb")
    assert.is_true(tonumber(one(db, "SELECT max(char_length(mb)) FROM nty_mb_copy")) <= 30)
    local m0, m1 = tonumber(one(db, "SELECT avg(char_length(mb)) FROM nty_mb")), tonumber(one(db, "SELECT avg(char_length(mb)) FROM nty_mb_copy"))
    assert.is_true(math.abs(m1 - m0) / m0 < 0.1, ("mean length %.1f, the original's %.1f"):format(m1, m0))
  end)

  it("text as long as the values, not as pg_stats' compressed avg_width (a 2,400-character body became 104-208)", function()
    round_trip(db, "pg", PG, "nty_body")
    local m0, m1 = tonumber(one(db, "SELECT avg(length(body)) FROM nty_body")), tonumber(one(db, "SELECT avg(length(body)) FROM nty_body_copy"))
    assert.is_true(math.abs(m1 - m0) / m0 < 0.1, ("body: mean length %.0f, the original's %.0f"):format(m1, m0))
    local x0, x1 = tonumber(one(db, "SELECT max(length(body)) FROM nty_body")), tonumber(one(db, "SELECT max(length(body)) FROM nty_body_copy"))
    assert.is_true(x1 <= x0 and x1 > 0.9 * x0, ("body: longest %d, the original's %d"):format(x1, x0))
  end)

  it("an empty table with a CHECK it cannot read: refused before any row, one line naming the CHECK", function()
    local s, t = scaffold("pg", PG, "nty_empty")
    assert.truthy(t:find("WARNING: nty_empty.code (text): CHECK ((code ~ '^[A-Z]{3}$'::text))", 1, true), t)
    local ok, out = lib.sh(("./bulkbench run %s --engine=pg --dsn='%s' --rows=100"):format(s, PG))
    assert.is_false(ok)
    assert.truthy(out:find("nty_empty.code (text): CHECK ((code ~ '^[A-Z]{3}$'::text)), and the table holds no values to draw from: give the column a generator\n", 1, true), out)
    assert.is_falsy(out:find("traceback", 1, true), out)
    assert.are.equal(0, lib.scratch_left(db))
    assert.are.equal(0, db:count("nty_empty"))
    os.remove(s)
  end)
end)

local utf8 = require("bulkbench.lawsrc").plain_text -- whether a file is text a Lua file can hold

for _, hist in ipairs { "JSON_HB", "DOUBLE_PREC_HB" } do
  describe("bulkbench new on MariaDB (" .. hist .. " histograms): every type, its values with their shape kept", function()
    local db
    setup(function()
      db = bb.connect("mysql", MY)
      NTY_CREATE(db)
      db:exec("SET SESSION histogram_type = '" .. hist .. "'")
      db:query("ANALYZE TABLE nty_mzoo, nty_ubig, nty_set, nty_bin, nty_dec, nty_bit, nty_dt PERSISTENT FOR ALL")
    end)
    teardown(function()
      NTY_DROP(db)
      db:close()
    end)

    it("TIME, YEAR, INET6, POINT, GEOMETRY, BIT are drawn from the table's own values, their distinct ratio kept", function()
      round_trip(db, "mysql", MY, "nty_mzoo")
      for _, c in ipairs { "t3", "y", "i6", "st_astext(p)", "st_astext(g)", "b3" } do
        local d0, d1 = shape(db, "nty_mzoo", c), shape(db, "nty_mzoo_copy", c)
        assert.is_true(math.abs(d0 - d1) <= 0.05, ("%s: distinct ratio %.3f, the original's %.3f"):format(c, d1, d0))
      end
    end)

    it("BIGINT UNSIGNED keeps its range above 2^63 (every row was 9223372036854775807)", function()
      round_trip(db, "mysql", MY, "nty_ubig")
      local r = db:query("SELECT (SELECT min(u) FROM nty_ubig) <= min(u) AND max(u) <= (SELECT max(u) FROM nty_ubig), count(DISTINCT u) FROM nty_ubig_copy")[1]
      assert.are.equal("1", tostring(r[1]))
      assert.is_true(tonumber(r[2]) > 500, r[2])
    end)

    it("SET columns get the combinations the rows hold (only single labels before)", function()
      round_trip(db, "mysql", MY, "nty_set")
      local function share(t) return tonumber(one(db, ("SELECT avg(s LIKE '%%,%%') FROM %s WHERE s IS NOT NULL"):format(t))) end
      assert.is_true(math.abs(share("nty_set") - share("nty_set_copy")) < 0.05, share("nty_set_copy"))
    end)

    it("BINARY(16) and VARBINARY(32) keep their byte lengths (64 random bytes were cut)", function()
      round_trip(db, "mysql", MY, "nty_bin")
      assert.are.equal("16 16", one(db, "SELECT concat(min(length(b16)), ' ', max(length(b16))) FROM nty_bin_copy"))
      local m0, m1 = tonumber(one(db, "SELECT avg(length(vb)) FROM nty_bin")), tonumber(one(db, "SELECT avg(length(vb)) FROM nty_bin_copy"))
      assert.is_true(math.abs(m1 - m0) / m0 < 0.1, ("vb: mean length %.1f, the original's %.1f"):format(m1, m0))
      assert.is_true(tonumber(one(db, "SELECT max(length(vb)) FROM nty_bin_copy")) <= 16)
    end)

    it("DECIMAL(65,30) keeps its digits (a histogram bound error before); one of cents keeps its own scale", function()
      round_trip(db, "mysql", MY, "nty_dec")
      assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_dec_copy c WHERE NOT EXISTS (SELECT 1 FROM nty_dec o WHERE o.d65 = c.d65)")))
      local bad, said = lib.compare(db, "nty_dec", "nty_dec_copy", { { "cents", "ks" } })
      assert.are.equal("", bad, said)
      assert.are.equal("0", tostring(one(db, "SELECT count(*) FROM nty_dec_copy WHERE cents * 100 <> floor(cents * 100)")))
    end)

    it("BIT(8) values, bytes, are written into a file that stays UTF-8, and load", function()
      local text = round_trip(db, "mysql", MY, "nty_bit")
      assert.is_true(utf8(text))
      assert.are.equal(tostring(one(db, "SELECT count(DISTINCT b8) FROM nty_bit")), tostring(one(db, "SELECT count(DISTINCT b8) FROM nty_bit_copy")))
    end)

    it("timestamps in clusters keep their law (a DOUBLE_PREC_HB histogram piled them on its coarse positions)", function()
      round_trip(db, "mysql", MY, "nty_dt")
      local bad, said = lib.compare(db, "nty_dt", "nty_dt_copy", { { "dt", "ks", expr = "to_seconds(dt) + microsecond(dt) / 1e6" } })
      assert.are.equal("", bad, said)
      local d0, d1 = shape(db, "nty_dt", "dt"), shape(db, "nty_dt_copy", "dt")
      assert.is_true(d1 > 0.9 * d0, ("dt: distinct ratio %.3f, the original's %.3f"):format(d1, d0))
    end)
  end)
end
