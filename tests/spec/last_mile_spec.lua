-- `bulkbench new`'s last mile (issue 45) without a server: repeated values from a pool of the
-- observed size, keys of plain columns over their values' product, one-to-one references,
-- the columns a trigger writes, e-mail keys and their continuation, a reference's distinct
-- parents kept (tests/cli/new2.t has the same on real tables).
local bb = require "bulkbench"
local core = require "bulkbench.core"
local util = require "bulkbench.new.catalog_util"
local law = require "bulkbench.new.law"
local keyplan = require "bulkbench.new.keyplan"
local keys = require "bulkbench.keys"

local new_model = dofile("tests/spec/new_model.lua")
local function model(cols, rows) return new_model(cols, nil, rows) end

-- rows 0..n-1 of one column as Lua values (nil: NULL)
local function values(gen, sqltype, n, null)
  local t = bb.table "lm" { { "x", sqltype, gen, null = null } }
  local out = {}
  for i = 0, n - 1 do out[i + 1] = t:row(i)[1] end
  return out
end

local function distinct(list, n)
  local seen, d, nulls = {}, 0, 0
  for i = 1, n do
    local v = list[i]
    if v == nil then nulls = nulls + 1
    elseif not seen[v] then seen[v], d = true, d + 1 end
  end
  return d, nulls
end

describe("a pool of the observed size (empirical's distinct)", function()
  it("takes as many distinct values as it is told, each once a pass, the NULLs a share of each pass", function()
    local xs = values(bb.empirical { rest = 1, bounds = { "0", "1000", "2000" }, distinct = 30 }, "double precision", 4000, 0.25)
    local d, nulls = distinct(xs, 4000)
    assert.are.equal(30, d)
    assert.are.equal(1000, nulls) -- a quarter of each pass of 40 rows
    local first, first_nulls = distinct(xs, 40) -- one pass: every member once
    assert.are.equal(30, first)
    assert.are.equal(10, first_nulls)
  end)

  it("keeps the most common values' frequencies beside it; without it every row draws afresh", function()
    local xs = values(bb.empirical { mcv = { { "7", 0.5 } }, rest = 0.5, bounds = { "0", "100000" }, distinct = 10 }, "integer", 2000)
    local sevens, d = 0, distinct(xs, 2000)
    for _, v in ipairs(xs) do if v == 7 then sevens = sevens + 1 end end
    assert.are.equal(1000, sevens)
    assert.are.equal(11, d)
    assert.is_true(distinct(values(bb.empirical { rest = 1, bounds = { "0", "100000" } }, "integer", 2000), 2000) > 1900)
  end)

  it("is written by new from n_distinct, as a share of the rows when they were many, and not over a few values", function()
    local m = model({ { name = "f", kind = "double" }, { name = "h", kind = "timestamp" }, { name = "s", kind = "int" } }, 5000)
    m.stats.f = { source = "pg_stats", null_frac = 0, n_distinct = -0.2, mcv = {}, bounds = { "0", "50", "142" } }
    m.stats.h = { source = "pg_stats", null_frac = 0, n_distinct = 200, mcv = { { "2024-01-01 00:00:00", 0.01 } },
                  bounds = { "2024-01-01 01:00:00", "2024-01-09 07:00:00" } }
    m.stats.s = { source = "pg_stats", null_frac = 0, n_distinct = 106, mcv = { { "1", 0.5 } }, bounds = { "95", "98", "100" } }
    assert.truthy(law.column(m, m.columns[1], {}, "").gen:find("distinct = -0.2 }", 1, true))
    assert.truthy(law.column(m, m.columns[2], {}, "").gen:find("distinct = 199 }", 1, true))
    assert.falsy(law.column(m, m.columns[3], {}, "").gen:find("distinct", 1, true)) -- 95..100: six values
  end)

  it("a sample's distinct count is the table's estimate (Duj1), not the sample's scaled", function()
    local counts = {}
    for i = 1, 100 do counts["v" .. i] = 300 end -- 100 values, each seen 300 times in 30,000 of 1,000,000 rows
    assert.are.equal(100, util.n_distinct(counts, 100, 30000, 30000, 1000000))
    assert.are.equal(-1, util.n_distinct({}, 30000, 30000, 30000, 1000000))
  end)
end)

describe("keys as the data has them", function()
  it("a key of plain columns takes each combination of their values once, the most skewed leading by its weights", function()
    local m = model({ { name = "a", kind = "int" }, { name = "b", kind = "text" } }, 500)
    m.pk = { "a", "b" }
    m.stats.a = { source = "s", null_frac = 0, n_distinct = 50, mcv = {}, bounds = { "0", "49" } }
    m.stats.b = { source = "s", null_frac = 0, n_distinct = 10, mcv = { { "k0", 0.3 }, { "k1", 0.07 } }, bounds = {} }
    local r = keyplan.plan(m)
    assert.is_nil(r.a.unique)
    local a, b = law.column(m, m.columns[1], r.a, ""), law.column(m, m.columns[2], r.b, "")
    assert.truthy(b.gen:find('bb.pick { set = "t/b", unique = true, key = { "t/b", "t/a" }', 1, true), b.gen)
    assert.truthy(a.gen:find('key = { "t/b", "t/a" }', 1, true), a.gen)
    assert.are.equal(2, #m.value_sets)
    assert.are.equal(10, m.value_sets[1].distinct)
    assert.truthy(m.value_sets[1].weights) -- the leader's frequencies
    assert.is_nil(m.value_sets[2].weights)
    local cap, why = require("bulkbench.scratch_keys").cap({ values = m.value_sets, foreign_keys = {} }, function() end)
    assert.are.equal(500, cap)
    assert.are.equal("(b, a) make its key: each combination of b's 10 values and a's 50 values once", why)
  end)

  it("a reference that was one-to-one makes its key alone: each parent once, the other drawn by its law", function()
    local m = model({ { name = "film_id", kind = "int" }, { name = "cat_id", kind = "int" } }, 1000)
    m.pk = { "film_id", "cat_id" }
    m.fks = { { columns = { "film_id" }, references = "public.film", ref_columns = { "id" } },
              { columns = { "cat_id" }, references = "public.cat", ref_columns = { "id" } } }
    m.stats.film_id = { source = "s", null_frac = 0, n_distinct = -1, mcv = {}, bounds = { "1", "1000" } }
    m.stats.cat_id = { source = "s", null_frac = 0, n_distinct = 16, mcv = { { "1", 0.0625 } }, bounds = {} }
    keyplan.plan(m)
    assert.is_true(m.fks[1].unique)
    assert.is_nil(m.fks[1].key)
    assert.is_nil(m.fks[2].unique)
  end)

  it("a column a trigger writes alike for a statement leaves the rest of the key unique alone, and says so", function()
    local m = model({ { name = "t", kind = "timestamp", not_null = true }, { name = "p1", kind = "int" }, { name = "p2", kind = "int" } }, 600)
    m.uniques = { { "t", "p1", "p2" } }
    m.fks = { { columns = { "p1" }, references = "p1", ref_columns = { "id" }, parent_rows = 30 },
              { columns = { "p2" }, references = "p2", ref_columns = { "id" }, parent_rows = 30 } }
    util.trigger_writes(m, { { "tr_now", "SET NEW.t = NOW()" } })
    assert.are.equal("trigger tr_now", m.columns[1].trigger_written)
    assert.is_true(keys.server_fills(m.columns[1]))
    local r = keyplan.plan(m)
    assert.is_true(m.fks[1].unique and m.fks[2].unique)
    assert.are.same({ "t.fk1", "t.fk2" }, m.fks[1].key)
    local p1 = law.column(m, m.columns[2], r.p1, "")
    assert.truthy(p1.comment:find("the server fills t (written by its trigger tr_now) of the key (t, p1, p2) alike", 1, true), p1.comment)
    assert.truthy(law.column(m, m.columns[1], r.t, "").comment:find("^written by its trigger tr_now %(NEW.t = NOW%(%)%)"))
  end)

  it("reads what a trigger's code assigns, not what it compares", function()
    local function cols(body)
      local out = {}
      for _, a in ipairs(util.assignments(body)) do out[#out + 1] = a[1] .. "=" .. a[2] end
      return table.concat(out, " ")
    end
    assert.are.equal("t=now()", cols("set new.t = now()"))
    assert.are.equal("a=5 c=upper(NEW.d)", cols("BEGIN NEW.a := 5; IF NEW.b = 3 THEN NEW.c = upper(NEW.d); END IF; RETURN NEW; END"))
    assert.are.equal("x=1 y y=NEW.x + 1", cols("SET NEW.x = 1, NEW.`y y` = NEW.x + 1"))
  end)

  it("e-mail addresses keep their shape: the local part's letters, a number, the domain", function()
    local m = model({ { name = "email", kind = "text" } }, 1000)
    m.stats.email = { source = "s", null_frac = 0, n_distinct = -1, correlation = 1, mcv = {},
                      bounds = { "c1000@example.com", "c108@example.com", "c9@example.com" } }
    local g = law.column(m, m.columns[1], { unique = true }, "").gen
    assert.are.equal('bb.unique { "c####", order = "seq", start = 9, pad = false, suffix = "@example.com" }', g)
    local xs = values(bb.unique { "c####", order = "seq", start = 998, pad = false, suffix = "@example.com" }, "text", 3)
    assert.are.same({ "c998@example.com", "c999@example.com", "c1000@example.com" }, xs)
    m.stats.email.bounds = { "ann.lee@mail.org", "bo@mail.org", "zed@corp.net" }
    g = law.column(m, m.columns[1], { unique = true }, "").gen
    assert.are.equal('bb.unique { "user##########", order = "random", pad = false, suffix = "@mail.org" }', g)
  end)
end)

describe("a reference's distinct parents", function()
  it("are kept: the rest of its references spread over as many parent rows as it named", function()
    local m = model({ { name = "p", kind = "int" } }, 2000)
    m.fks = { { columns = { "p" }, references = "public.parent", ref_columns = { "id" } } }
    m.stats.p = { source = "s", null_frac = 0, n_distinct = -0.85, mcv = { { "1", 0.002 } }, bounds = { "1", "3000" } }
    keyplan.plan(m)
    assert.is_true(m.fks[1].spread)
    assert.are.equal(0.8495, m.fks[1].distinct)
    local rows = {}
    for i = 1, 3000 do rows[i] = tostring(i) end
    core.value_set("lm.parent", rows, { weights = { { "1", 0.002 } }, rest = 0.998, rest_rows = 1699 })
    local xs = values(bb.pick { set = "lm.parent", spread = true }, "int", 2000)
    local d = distinct(xs, 2000)
    assert.is_true(math.abs(d / 2000 - 0.85) <= 0.01, "distinct share " .. d / 2000)
  end)
end)

describe("UUIDs that repeat", function()
  it("come from a pool of as many as the column held", function()
    local xs = values(bb.uuid { distinct = 25 }, "uuid", 1000)
    assert.are.equal(25, distinct(xs, 1000))
    assert.are.equal(25, distinct(xs, 25)) -- each once a pass
    assert.truthy(xs[1]:match("^%x+%-%x+%-4%x+%-[89ab]%x+%-%x+$"), xs[1])
    local m = model({ { name = "u", kind = "uuid" } }, 1000)
    m.stats.u = { source = "pg_stats", null_frac = 0, n_distinct = 25, mcv = {}, bounds = {} }
    assert.are.equal("bb.uuid { distinct = 25 }", law.column(m, m.columns[1], {}, "").gen)
    m.stats.u.n_distinct = -1
    assert.are.equal("bb.uuid()", law.column(m, m.columns[1], {}, "").gen)
  end)
end)
