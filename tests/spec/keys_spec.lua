-- The parts of lua/keys.lua (and the key half of lua/new/law.lua) that need no server: which
-- defaults the server fills, range CHECKs on dates and timestamps, a key's unique values in
-- their observed range and shape, a composite key of foreign keys, keys widened for --rows.
local util = require "bulkbench.new.catalog_util"
local law = require "bulkbench.new.law"
local keys = require "bulkbench.keys"

local model = dofile("tests/spec/new_model.lua")

describe("defaults", function()
  it("a literal is learned from the data; what the server evaluates is left to it", function()
    for _, d in ipairs { "'G'::mpaa_rating", "0", "false", "'x'::text", "('{}'::integer[])", "-1.5", "b'0'", "'G'", "NULL",
                         "'it''s'::character varying" } do
      assert.is_false(keys.server_default { default = d }, d)
    end
    for _, d in ipairs { "now()", "nextval('t_id_seq'::regclass)", "CURRENT_TIMESTAMP", "current_timestamp()", "uuid()",
                         "('now'::text)::date", "gen_random_uuid()" } do
      assert.is_true(keys.server_default { default = d }, d)
    end
  end)

  it("a column with a literal default gets a generator from its statistics", function()
    local m = model { { name = "rating", kind = "text", default = "'G'::text", not_null = true } }
    m.stats.rating = { source = "s", null_frac = 0, mcv = { { "G", 0.2 }, { "PG", 0.8 } }, bounds = {} }
    local g = law.column(m, m.columns[1], {}, "")
    assert.are.equal('bb.choice { { "G", 0.2 }, { "PG", 0.8 } }', g.gen)
  end)
end)

describe("range CHECKs on dates and timestamps", function()
  it("hold without statistics (the type's range otherwise)", function()
    local m = model({ { name = "d", kind = "date" }, { name = "ts", kind = "timestamp" } },
      { "(((d >= '2020-01-01'::date) AND (d < '2021-01-01'::date)))",
        "(((ts >= '2019-01-01 00:00:00'::timestamp without time zone) AND (ts < '2019-02-01 00:00:00'::timestamp without time zone)))" })
    util.read_checks(m)
    assert.are.equal('bb.date { "2020-01-01", "2020-12-31" }', law.column(m, m.columns[1], {}, "").gen)
    assert.are.equal('bb.timestamp { from = "2019-01-01 00:00:00", to = "2019-01-31 23:59:59" }', law.column(m, m.columns[2], {}, "").gen)
  end)

  it("clip a histogram as instants, not as text (an offset, a strict bound)", function()
    local m = model({ { name = "ts", kind = "timestamp" } }, { "ts < '2024-01-02 00:00:00+00'" })
    util.read_checks(m)
    m.stats.ts = { source = "s", null_frac = 0, mcv = {}, bounds = { "2024-01-01 00:00:00+00", "2024-01-01 12:00:00+00", "2024-01-03 00:00:00+02" } }
    local g = law.column(m, m.columns[1], {}, "")
    assert.truthy(g.gen:find('bounds = { "2024-01-01 00:00:00+00", "2024-01-01 12:00:00+00", "2024-01-01 23:59:59" }', 1, true), g.gen)
  end)
end)

describe("a key's unique values", function()
  it("keep the observed range and spacing: a shuffle of an int's range, a timestamp's step, text's width", function()
    local m = model({ { name = "k", kind = "int", range = { -2147483648, 2147483647 } }, { name = "at", kind = "timestamp" },
                      { name = "code", kind = "text", length = 12 }, { name = "mc", kind = "text" } }, nil, 5000)
    m.stats.k = { source = "s", null_frac = 0, n_distinct = -1, correlation = 0.01, mcv = {}, bounds = { "0", "2500", "4999" } }
    m.stats.at = { source = "s", null_frac = 0, n_distinct = -1, correlation = 0.02, mcv = {},
                   bounds = { "2024-01-01 00:00:00", "2024-04-01 00:00:00", "2024-07-27 07:00:00" } }
    m.stats.code = { source = "s", null_frac = 0, n_distinct = -1, correlation = 1, mcv = {}, bounds = { "C-000001", "C-005000" } }
    m.stats.mc = { source = "s", null_frac = 0, n_distinct = -1, correlation = 0.1, mcv = {}, bounds = { "MC-1", "MC-2345", "MC-999" } }
    local gen = {}
    for _, c in ipairs(m.columns) do gen[c.name] = law.column(m, c, { unique = true }, "").gen end
    assert.are.equal("bb.permutation { 0, 4999 }", gen.k) -- not a shuffle of 0..10,000,000
    assert.are.equal('bb.timestamp { start = "2024-01-01 00:00:00", step = 3600 }', gen.at) -- an hour apart, not a second
    assert.are.equal('bb.unique { "C-######", order = "seq", start = 1 }', gen.code)
    assert.are.equal('bb.unique { "MC-####", order = "random", pad = false }', gen.mc) -- MC-1, not MC-0000000001
  end)

  it("widen only when --rows asks for more than their range holds, within the column's length", function()
    local perm = { name = "k", type = "integer", gen = { kind = "permutation", 0, 49 } }
    assert.are.equal(perm.gen, require("bulkbench.scratch_keys").widen(perm, 50))
    assert.are.same({ kind = "permutation", 0, 999 }, require("bulkbench.scratch_keys").widen(perm, 1000))
    local text = { name = "c", type = "varchar(8)", gen = { kind = "unique", "C-####", order = "seq" } }
    assert.are.equal(text.gen, require("bulkbench.scratch_keys").widen(text, 10000))
    assert.are.same({ kind = "unique", "C-######", order = "seq" }, require("bulkbench.scratch_keys").widen(text, 200000))
    assert.are.same({ kind = "unique", "C-######", order = "seq" }, require("bulkbench.scratch_keys").widen(text, 1e9)) -- 8 characters at most
  end)

  it("in a composite key, the column made unique is the one whose values were distinct", function()
    local m = model({ { name = "at", kind = "timestamp" }, { name = "who", kind = "int" } }, nil, 5000)
    m.uniques = { { "at", "who" } }
    m.stats.at = { source = "s", null_frac = 0, n_distinct = -1, mcv = {}, bounds = {} }
    m.stats.who = { source = "s", null_frac = 0, n_distinct = 50, mcv = {}, bounds = {} }
    local r = require("bulkbench.new.keyplan").plan(m)
    assert.is_true(r.at.unique)
    assert.is_nil(r.who.unique) -- 0..49 keeps its law
  end)
end)

describe("a key made of foreign keys", function()
  it("draws each combination once, the most skewed reference leading and the only one the file calls weighted", function()
    local m = model({ { name = "film_id", kind = "int" }, { name = "actor_id", kind = "int" } }, nil, 400)
    m.pk = { "film_id", "actor_id" }
    m.fks = { { columns = { "film_id" }, references = "public.film", ref_columns = { "id" } },
              { columns = { "actor_id" }, references = "public.actor", ref_columns = { "id" } } }
    m.stats.film_id = { source = "s", null_frac = 0, n_distinct = -0.5, mcv = { { "7", 0.01 } }, bounds = {} }
    m.stats.actor_id = { source = "s", null_frac = 0, n_distinct = -0.125, mcv = { { "1", 0.15 }, { "2", 0.1 } }, bounds = {} }
    local r = require("bulkbench.new.keyplan").plan(m)
    local film = law.column(m, m.columns[1], r.film_id, "")
    local actor = law.column(m, m.columns[2], r.actor_id, "")
    assert.are.equal('bb.pick { set = "t.fk2", col = 1, unique = true, key = { "t.fk2", "t.fk1" }, min = 1, max = 2 }', actor.gen)
    assert.truthy(actor.comment:find("each combination of the key's parents once, this one's rows weighted by its 2 most common references", 1, true))
    assert.are.equal('bb.pick { set = "t.fk1", col = 1, unique = true, key = { "t.fk2", "t.fk1" }, min = 7, max = 7 }', film.gen)
    assert.falsy(film.comment:find("weighted", 1, true), film.comment)
    assert.is_nil(m.fks[1].weights) -- the file weighs only what it draws by weight
  end)

  it("a one-column reference weighs its parent rows by the histogram of the rest too, spread when nothing was common", function()
    local m = model({ { name = "p", kind = "int" } }, nil, 3000)
    m.fks = { { columns = { "p" }, references = "public.parent", ref_columns = { "id" } } }
    m.stats.p = { source = "s", null_frac = 0, n_distinct = -0.33, mcv = {}, bounds = { "1", "500", "1000" } }
    local r = require("bulkbench.new.keyplan").plan(m)
    local g = law.column(m, m.columns[1], r.p, "")
    assert.are.same({ "1", "500", "1000" }, m.fks[1].bounds)
    assert.truthy(g.gen:find("spread = true", 1, true), g.gen)
    assert.truthy(g.comment:find("each in turn without replacement", 1, true), g.comment)
  end)
end)
