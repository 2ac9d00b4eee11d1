-- `bulkbench new` keeps keys and references as the data has them, on pg and MariaDB
-- (tests/fixtures/keys_schema.lua): a key of two foreign keys over the product of its
-- parents, a junction's skew, self-references and cycles loaded as written (whole schemas,
-- views left alone), --rows within what keys and auto-increment types allow, literal
-- defaults learned, unique columns in their observed range and shape, date and timestamp
-- range CHECKs without statistics, nearly-unique references without replacement.
local bb = require "bulkbench"
local lib = require "new_lib"
dofile("tests/fixtures/keys_schema.lua")

local DSN = { pg = os.getenv("BULKBENCH_PG_DSN"), mysql = os.getenv("BULKBENCH_MYSQL_DSN") }
local ENGINES = { "pg", "mysql" }
local NAME = { pg = "pg", mysql = "MariaDB" }

local dbs = {}
local function db_of(e)
  if not dbs[e] then
    dbs[e] = bb.connect(e, DSN[e])
    KEYS_CREATE(dbs[e])
  end
  return dbs[e]
end

local function read(path)
  local f = assert(io.open(path))
  local text = f:read("*a")
  f:close()
  return text
end

-- new on table(s) of engine e: the scenario's path, what new printed, the scenario's text
local function new(e, tbl)
  db_of(e)
  local script = lib.tmp(".lua")
  local ok, out = lib.sh(("./bulkbench new --engine=%s --dsn='%s' --table='%s' -o %s"):format(e, DSN[e], tbl, script))
  assert.is_true(ok, out)
  return script, out, read(script)
end

local function run(e, script, args)
  return lib.sh(("./bulkbench run %s --engine=%s --dsn='%s' %s"):format(script, e, DSN[e], args or ""))
end

-- an empty copy of table t to load --into (its foreign keys left out: the values are compared),
-- named kc_: not one of the nk_ tables a pattern takes
local function copy(e, t, name)
  local db = db_of(e)
  db:exec("DROP TABLE IF EXISTS " .. name)
  db:exec(e == "pg" and ("CREATE TABLE %s (LIKE %s INCLUDING ALL)"):format(name, t) or ("CREATE TABLE %s LIKE %s"):format(name, t))
end

local function one(db, sql) return tonumber(db:query(sql)[1][1]) end

describe("bulkbench new: keys and references as the data has them", function()
  for _, e in ipairs(ENGINES) do
    it(NAME[e] .. ": a key of two foreign keys takes each combination of its parents' rows once (4 x 6: 24 rows, not 12)", function()
      local script, out = new(e, "nk_j")
      assert.truthy(out:find("--rows=24", 1, true), out) -- run it: within the pairs there are
      local ok, ran = run(e, script)
      assert.is_true(ok, ran)
      assert.truthy(ran:find(" 24 .* ok\n"), ran)
      ok, ran = run(e, script, "--rows=25")
      assert.is_false(ok)
      assert.truthy(ran:find("at most 24 rows ((a, b) make its key: each combination of nk_p4's 4 and nk_p6's 6 keys once)", 1, true), ran)
      assert.falsy(ran:find("rows were committed", 1, true), ran) -- refused before loading
      assert.are.equal(0, lib.scratch_left(db_of(e)))
    end)

    it(NAME[e] .. ": a junction's weighted foreign key keeps the child's skew, and the file says which one is weighted", function()
      local script, _, text = new(e, "nk_cast")
      assert.truthy(text:find("actor_id integer NOT NULL: references [%w_.]*nk_actor%(id%): drawn from the parent's keys, each combination "
        .. "of the key's parents once, this one's rows weighted by") or text:find("actor_id int%(11%) NOT NULL: references [%w_.]*nk_actor%(id%): "
        .. "drawn from the parent's keys, each combination of the key's parents once, this one's rows weighted by"), text)
      assert.truthy(text:find("film_id [%w()]+ NOT NULL: references [%w_.]*nk_film%(id%): drawn from the parent's keys, each combination of "
        .. "the key's parents once: this one's rows in a shuffled order"), text)
      copy(e, "nk_cast", "kc_cast")
      local ok, ran = run(e, script, "--rows=407 --into=kc_cast")
      assert.is_true(ok, ran)
      local db = db_of(e)
      assert.are.equal(407, one(db, "SELECT count(*) FROM (SELECT DISTINCT actor_id, film_id FROM kc_cast) x"))
      local bad, said = lib.compare(db, "nk_cast", "kc_cast", { { "actor_id", "chi2" } })
      assert.are.equal("", bad, said)
      -- actor 1 in 60 films of 407: as often in the copy, within a few
      assert.is_true(math.abs(one(db, "SELECT count(*) FROM kc_cast WHERE actor_id = 1") - 60) <= 6)
      db:exec("DROP TABLE kc_cast")
    end)

    it(NAME[e] .. ": a table that references itself loads as written on two threads, its references among those the original's were", function()
      local script = new(e, "nk_tree")
      local ok, ran = run(e, script, "--threads=2 --rows=30000")
      assert.is_true(ok, ran)
      assert.truthy(ran:find(" 30000 .* ok\n"), ran)
      assert.are.equal(0, lib.scratch_left(db_of(e)))
      copy(e, "nk_tree", "kc_tree")
      ok, ran = run(e, script, "--rows=3000 --into=kc_tree")
      assert.is_true(ok, ran)
      local db = db_of(e)
      assert.is_true(one(db, "SELECT max(parent_id) FROM kc_tree") <= 1000) -- not spread over every id
      local bad, said = lib.compare(db, "nk_tree", "kc_tree", { { "parent_id", "ks" } })
      assert.are.equal("", bad, said)
      db:exec("DROP TABLE kc_tree")
    end)

    it(NAME[e] .. ": a whole schema with a cycle, a self-reference and a view runs as written; the view is not taken", function()
      local script, out, text = new(e, "nk_%")
      assert.falsy(text:find('bb.table "nk_v"', 1, true), "the view was taken for a table")
      assert.truthy(out:find("16 tables", 1, true), out)
      local ok, ran = run(e, script, "--threads=2 --rows=20000")
      assert.is_true(ok, ran)
      assert.truthy(ran:find(" 20000 .* ok\n"), ran)
      assert.are.equal(0, lib.scratch_left(db_of(e)))
      ok, ran = lib.sh(("./bulkbench new --engine=%s --dsn='%s' --table=nk_v"):format(e, DSN[e]))
      assert.is_false(ok)
      assert.truthy(ran:find("nk_v is a view: new scaffolds tables", 1, true), ran)
      assert.falsy(ran:find("traceback", 1, true), ran)
    end)

    it(NAME[e] .. ": --rows within what keys allow: a key that references a parent of 2 rows takes 2", function()
      local script, out = new(e, "nk_one")
      assert.truthy(out:find("--rows=2\n", 1, true), out)
      local ok, ran = run(e, script, "--rows=3")
      assert.is_false(ok)
      assert.truthy(ran:find("nk_one at most 2 rows (id makes its key: each of nk_p2's 2 keys once)", 1, true), ran)
    end)

    it(NAME[e] .. ": a column with a literal default is learned from the data; now() is still the server's", function()
      local script, _, text = new(e, "nk_tiny")
      assert.truthy(text:find('{ "rating", "varchar(5)", bb.choice', 1, true), text)
      assert.truthy(text:find("at [%w ]+ NOT NULL: default [%w_()]+: left to the server"), text)
      copy(e, "nk_tiny", "kc_tiny")
      local ok, ran = run(e, script, "--rows=200 --into=kc_tiny")
      assert.is_true(ok, ran)
      local db = db_of(e)
      local bad, said = lib.compare(db, "nk_tiny", "kc_tiny", { { "rating", "chi2" } })
      assert.are.equal("", bad, said)
      db:exec("DROP TABLE kc_tiny")
    end)

    it(NAME[e] .. ": unique columns keep their observed range and shape", function()
      local script, _, text = new(e, "nk_uk")
      assert.truthy(text:find('bb.unique { "MC-####", order = "' .. (e == "pg" and 'random"' or 'seq", start = 1') .. ', pad = false }', 1, true), text)
      assert.truthy(text:find('bb.timestamp { start = "2024-01-01 00:00:00", step = 3600 }', 1, true), text)
      -- an int key in its observed 0..4999: shuffled where pg saw no order, in order where MariaDB says none
      assert.truthy(text:find(e == "pg" and "bb.permutation { 0, 4999 }" or "bb.seq { start = 0 }", 1, true), text)
      copy(e, "nk_uk", "kc_uk")
      local ok, ran = run(e, script, "--rows=5000 --into=kc_uk")
      assert.is_true(ok, ran)
      local db = db_of(e)
      local secs = e == "pg" and "extract(epoch from at)" or "unix_timestamp(at)"
      -- (who keeps its law, not a key's: MariaDB's binary histograms draw it less closely than pg's common values)
      local want = { { "k", "ks" }, { "at", "ks", expr = secs } }
      if e == "pg" then want[#want + 1] = { "who", "chi2" } end
      local bad, said = lib.compare(db, "nk_uk", "kc_uk", want)
      assert.are.equal("", bad, said)
      assert.are.equal(0, one(db, "SELECT count(*) FROM kc_uk WHERE who < 0 OR who > 49"))
      assert.are.equal(0, one(db, "SELECT count(*) FROM kc_uk WHERE code NOT LIKE 'MC-%' OR length(code) > 7 OR code LIKE 'MC-0_%'"))
      db:exec("DROP TABLE kc_uk")
    end)

    it(NAME[e] .. ": date and timestamp range CHECKs hold on an empty table", function()
      local script = new(e, "nk_empty")
      local ok, ran = run(e, script, "--rows=5000")
      assert.is_true(ok, ran)
      assert.truthy(ran:find(" 5000 .* ok\n"), ran)
    end)

    it(NAME[e] .. ": nearly-unique references are drawn without replacement", function()
      local script, _, text = new(e, "nk_ship")
      assert.truthy(text:find("spread = true", 1, true), text)
      copy(e, "nk_ship", "kc_ship")
      local ok, ran = run(e, script, "--rows=3000 --into=kc_ship")
      assert.is_true(ok, ran)
      local db = db_of(e)
      assert.is_true(one(db, "SELECT count(DISTINCT order_id) FROM kc_ship") >= 2950) -- of 3,000; with replacement about 1,900
      db:exec("DROP TABLE kc_ship")
    end)
  end

  it("MariaDB: a TINYINT UNSIGNED auto-increment table takes 255 rows; --rows=256 fails before loading, naming the column", function()
    local script, out = new("mysql", "nk_tiny")
    assert.truthy(out:find("--rows=255\n", 1, true), out)
    local ok, ran = run("mysql", script)
    assert.is_true(ok, ran)
    ok, ran = run("mysql", script, "--rows=256")
    assert.is_false(ok)
    assert.truthy(ran:find("nk_tiny at most 255 rows (id tinyint(3) unsigned: an auto-increment column counts to 255)", 1, true), ran)
    for _, e in ipairs(ENGINES) do
      KEYS_DROP(db_of(e))
      db_of(e):close()
    end
  end)
end)
