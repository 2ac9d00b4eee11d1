-- The parts of `bulkbench new` that need no server: CHECK constraints read into bounds and
-- lists, a sample's statistics, the generator each column gets, and --rows shared among the
-- tables of a multi-table scenario.
local util = require "bulkbench.new.catalog_util"
local law = require "bulkbench.new.law"
local scratch = require "bulkbench.scratch"

local model = dofile("tests/spec/new_model.lua")

describe("CHECK constraints of range and IN-list form", function()
  it("reads pg's, MariaDB's and SQLite's spellings", function()
    local m = model({ { name = "status", kind = "text" }, { name = "amount", kind = "numeric" }, { name = "small", kind = "int" },
                      { name = "score", kind = "double" }, { name = "x", kind = "int" } }, {
      "((status = ANY (ARRAY['a'::bpchar, 'b''c'::bpchar])))", "((amount >= (0)::numeric))",
      "`small` between -5 and 100", "(score > 0 AND score < 1000)", "(x % 2 = 0 OR x IS NULL)" })
    util.read_checks(m)
    local c = {}
    for _, col in ipairs(m.columns) do c[col.name] = col end
    assert.are.same({ "a", "b'c" }, c.status.check_in)
    assert.are.same({ "0", true }, c.amount.check_min)
    assert.are.same({ { "-5", true }, { "100", true } }, { c.small.check_min, c.small.check_max })
    assert.are.same({ { "0", false }, { "1000", false } }, { c.score.check_min, c.score.check_max })
    assert.are.same({ "(x % 2 = 0 OR x IS NULL)" }, m.checks_other) -- not understood, said so
  end)

  it("keeps drawn values within a range: a histogram is clipped, values outside dropped", function()
    local m = model({ { name = "n", kind = "int", not_null = true } }, { "n > 10" })
    util.read_checks(m)
    m.stats.n = { source = "test", null_frac = 0, mcv = { { "5", 0.5 }, { "20", 0.25 } }, bounds = { "0", "50", "100" } }
    local g = law.column(m, m.columns[1], {}, "")
    assert.truthy(g.gen:find('{ "20", 0.25 }', 1, true), g.gen)
    assert.falsy(g.gen:find('"5"', 1, true), g.gen)
    assert.truthy(g.gen:find('bounds = { "11", "50", "100" }', 1, true), g.gen)
    assert.truthy(g.comment:find("1 values outside the CHECK left out", 1, true), g.comment)
  end)
end)

describe("a sample's statistics", function()
  it("null fraction, all values common when few, else the commonest and a histogram of the rest", function()
    local m = model({ { name = "a", kind = "text" }, { name = "b", kind = "int" } })
    local rows = {}
    for i = 1, 1000 do
      rows[i] = { nil, tostring(i <= 100 and 7 or i) }
      if i % 4 ~= 0 then rows[i][1] = "v" .. i % 3 end
    end
    util.sample_stats(m, { "a", "b" }, rows, "s")
    assert.are.equal(0.25, m.stats.a.null_frac)
    assert.are.equal(3, #m.stats.a.mcv)
    assert.are.same({ "7", 0.1 }, m.stats.b.mcv[1])
    assert.are.equal(1, #m.stats.b.mcv)
    assert.are.equal(101, #m.stats.b.bounds)
    assert.are.equal("101", m.stats.b.bounds[1])
    assert.are.equal("1000", m.stats.b.bounds[101])
  end)
end)

describe("the generator a column gets", function()
  it("server-filled columns get none; a key gets unique values; a foreign key picks the parent's keys", function()
    local m = model { { name = "id", kind = "int", identity = true }, { name = "at", kind = "timestamp", default = "now()" },
                      { name = "code", kind = "text", length = 12 }, { name = "p", kind = "int" } }
    m.rows = 1000
    m.stats.code = { source = "s", correlation = 1, bounds = { "C00000001", "C00000500", "C00001000" }, mcv = {} }
    assert.is_nil(law.column(m, m.columns[1], {}, "").gen)
    assert.truthy(law.column(m, m.columns[2], {}, "").comment:find("default now%(%): left to the server"))
    local g = law.column(m, m.columns[3], { unique = true }, "")
    assert.are.equal('bb.unique { "C########", order = "seq", start = 1 }', g.gen) -- the values' own width and start
    local fk = { set = "t.fk1", references = "public.p", ref_columns = { "id" } }
    g = law.column(m, m.columns[4], { fk = fk, fk_pos = 1 }, "")
    assert.are.equal('bb.pick { set = "t.fk1", col = 1 }', g.gen)
  end)

  it("a type bulkbench cannot make: drawn from the table's own values, each run's sample, some written down", function()
    local m = model { { name = "ip", kind = "other", declared = "inet" }, { name = "g", kind = "other", declared = "point", not_null = true } }
    m.stats.ip = { source = "s", null_frac = 0.25, mcv = { { "10.0.0.1", 0.5 } }, bounds = {} }
    -- what lua/new/observed.lua read of it: the run's set and two values written into the file
    local entry = { set = "t/ip", columns = { "ip" }, rows = 100000, sampled = 3, distinct = 2, sql = "SELECT ..." }
    m.columns[1].values = { entry = entry, col = 1, why = "type inet: bulkbench has no generator for it", null_frac = 0.2,
                            standin = { { "10.0.0.1", 2 }, { "10.0.0.2", 1 } } }
    local g = law.column(m, m.columns[1], {}, "")
    assert.are.equal('bb.pick { set = "t/ip", unique = true, pass_nulls = true, values = { { "10.0.0.1", 2 }, { "10.0.0.2", 1 } } }', g.gen)
    assert.are.equal("text", g.as)
    assert.are.equal(0.25, g.null) -- the statistics' null fraction
    assert.is_nil(g.warning)
    -- no values read of it: left to the server, said so
    g = law.column(m, m.columns[2], {}, "")
    assert.is_nil(g.gen)
    assert.truthy(g.warning:find("type point is left to the server", 1, true))
  end)
end)

describe("--rows shared among a multi-table scenario's tables", function()
  it("by the rows each original held, at least one each, summing to --rows exactly", function()
    local list = { { name = "w", rows = 1 }, { name = "i", rows = 1000 }, { name = "d", rows = 10 }, { name = "ol", rows = 3000 } }
    for _, total in ipairs { 4, 17, 1000, 99999 } do
      local out, sum = scratch.shares(list, total), 0
      for _, n in ipairs(out) do
        assert.is_true(n >= 1)
        sum = sum + n
      end
      assert.are.equal(total, sum)
    end
  end)

  it("a table whose key is its parents' keys holds no more rows than they make: each once, or each combination once", function()
    local key = { "s.fk1", "s.fk2" }
    local list = { { name = "w", rows = 1 }, { name = "i", rows = 1000 },
                   { name = "s", rows = 1000, foreign_keys = {
                       { columns = { "s_i" }, references = "i", set = "s.fk1", unique = true, key = key },
                       { columns = { "s_w" }, references = "w", set = "s.fk2", unique = true, key = key } } },
                   { name = "no", rows = 5000, foreign_keys = { { columns = { "o" }, references = "s", set = "no.fk1", unique = true } } },
                   { name = "ol", rows = 3000 } }
    local out = scratch.shares(list, 100000)
    assert.is_true(out[3] <= out[1] * out[2])
    assert.is_true(out[4] <= out[3])
    assert.are.equal(100000, out[1] + out[2] + out[3] + out[4] + out[5])
    -- the junction of 4 and 6 rows outside the scenario: 24 rows, and not one more
    local j = { { name = "j", rows = 12, foreign_keys = {
      { columns = { "a" }, references = "public.p4", set = "j.fk1", unique = true, key = { "j.fk1", "j.fk2" } },
      { columns = { "b" }, references = "public.p6", set = "j.fk2", unique = true, key = { "j.fk1", "j.fk2" } } } } }
    local sizes = function(fk) return fk.set == "j.fk1" and 4 or 6 end
    assert.are.same({ 24 }, require("bulkbench.scratch_keys").shares(j, 24, sizes))
    local none, why = require("bulkbench.scratch_keys").shares(j, 25, sizes)
    assert.is_nil(none)
    assert.truthy(why:find("--rows=25 is more than the table can take: j at most 24 rows ((a, b) make its key: "
      .. "each combination of p4's 4 and p6's 6 keys once)", 1, true), why)
  end)
end)
