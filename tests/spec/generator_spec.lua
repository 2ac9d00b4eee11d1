-- The native generator seen from Lua: determinism, shapes, ranges, distributions.
local bb = require "bulkbench"

local function native(cols)
  local spec = {}
  for i, c in ipairs(cols) do spec[i] = c end
  return bb.table("t" .. tostring(math.random(1e9)))(spec):native()
end

describe("generator", function()
  it("gives row n the same values every time", function()
    local g = native { { "a", "int", bb.int { 1, 1000000 } }, { "s", "text", bb.string { min = 5, max = 30 } } }
    local r1, r2 = g:row(12345), g:row(12345)
    assert.are.same(r1, r2)
    assert.are_not.same(g:row(1), g:row(2))
  end)

  it("keeps a table's rows under ever new seeds flat in memory, and a seed's rows the same after", function()
    local t = bb.table "seeds_t" { { "id", "integer", bb.seq() }, { "v", "text", bb.string { len = 20 } } }
    local first, g1 = t:row(7, 1)[2], t:native(1)
    local function rss_kb()
      for line in io.lines("/proc/self/status") do
        local kb = line:match("^VmRSS:%s+(%d+)")
        if kb then return tonumber(kb) end
      end
    end
    for s = 2, 500 do t:row(7, s) end
    collectgarbage()
    local before = rss_kb()
    for s = 501, 5500 do t:row(7, s) end -- each compiled generator holds ~50 KB: 250 MB if all were kept
    collectgarbage()
    if not os.getenv("ASAN_OPTIONS") then -- AddressSanitizer holds freed memory in quarantine
      assert.is_true(rss_kb() - before < 20000, ("RSS grew by %d KB"):format(rss_kb() - before))
    end
    assert.are.equal(first, t:row(7, 1)[2]) -- compiled anew, the same value
    assert.are_not.equal(first, t:row(7, 2)[2])
    local ok, msg = pcall(g1.row, g1, 7) -- the first seed's generator, released long ago
    assert.is_false(ok)
    assert.is_truthy(tostring(msg):find("released", 1, true))
  end)

  it("numbers sequences from start by step, row by row", function()
    local g = native { { "id", "bigint", bb.seq { start = 10, step = 5 } } }
    assert.are.equal(10, g:row(0)[1])
    assert.are.equal(15, g:row(1)[1])
    assert.are.equal(10 + 5 * 999999, g:row(999999)[1])
  end)

  it("keeps uniform ints inside [min, max] and reaches both ends", function()
    local g = native { { "k", "int", bb.int { 3, 7 } } }
    local seen = {}
    for n = 0, 999 do
      local v = g:row(n)[1]
      assert.is_true(v >= 3 and v <= 7, "value " .. v)
      seen[v] = true
    end
    for v = 3, 7 do assert.is_true(seen[v], "never saw " .. v) end
  end)

  it("fills templates: # digits, @ letters, the rest literal", function()
    local g = native { { "ip", "varchar(15)", bb.template "###.###.###.###" }, { "c", "text", bb.template "AB-@@" } }
    for n = 0, 99 do
      local r = g:row(n)
      assert.is_truthy(r[1]:match("^%d%d%d%.%d%d%d%.%d%d%d%.%d%d%d$"), r[1])
      assert.is_truthy(r[2]:match("^AB%-%l%l$"), r[2])
    end
  end)

  it("makes strings of the asked lengths from the asked characters", function()
    local g = native { { "s", "text", bb.string { min = 4, max = 9, charset = "xyz" } } }
    for n = 0, 199 do
      local s = g:row(n)[1]
      assert.is_true(#s >= 4 and #s <= 9)
      assert.is_nil(s:find("[^xyz]"))
    end
  end)

  it("formats decimals with the column's scale", function()
    local g = native { { "d", "decimal(6,2)", bb.decimal { 0, 9999 } } }
    for n = 0, 99 do assert.is_truthy(g:row(n)[1]:match("^%d+%.%d%d$")) end
  end)

  it("takes two instants given in order as a timestamp's range, as date does; one as the instant", function()
    local g = native { { "t", "timestamp", bb.timestamp { "2020-01-01", "2020-12-31 23:59:59" } } }
    local seen = {}
    for n = 0, 199 do
      local t = g:row(n)[1]
      assert.is_true(t >= "2020-01-01 00:00:00" and t <= "2020-12-31 23:59:59", t)
      seen[t] = true
    end
    assert.is_true(next(seen, next(seen)) ~= nil, "every row the same instant")
    local one = native { { "t", "timestamp", bb.timestamp { "2020-01-01 12:00:00" } } }
    assert.are.equal("2020-01-01 12:00:00", one:row(5)[1])
  end)

  it("keeps timestamps in their range, formatted for SQL", function()
    local g = native { { "t", "timestamp", bb.timestamp { from = "2024-02-28", to = "2024-03-01 23:59:59" } } }
    for n = 0, 199 do
      local t = g:row(n)[1]
      assert.is_truthy(t:match("^2024%-0[23]%-%d%d %d%d:%d%d:%d%d$"), t)
      assert.is_true(t >= "2024-02-28 00:00:00" and t <= "2024-03-01 23:59:59", t)
    end
  end)

  it("makes NULLs at the asked ratio", function()
    local g = native { { "a", "int", bb.int { 1, 2 }, null = 0.25 } }
    local nulls, N = 0, 20000
    for n = 0, N - 1 do if g:row(n)[1] == nil then nulls = nulls + 1 end end
    assert.is_true(math.abs(nulls / N - 0.25) < 0.02, "ratio " .. nulls / N)
  end)

  it("picks from a weighted list in proportion", function()
    local g = native { { "m", "text", bb.choice { { "GET", 3 }, { "POST", 1 } } } }
    local get, N = 0, 20000
    for n = 0, N - 1 do if g:row(n)[1] == "GET" then get = get + 1 end end
    assert.is_true(math.abs(get / N - 0.75) < 0.02, "GET share " .. get / N)
  end)

  it("makes version-4 and version-7 UUIDs", function()
    local g = native { { "u", "uuid", bb.uuid() }, { "v", "uuid", bb.uuid7() } }
    local r = g:row(7)
    assert.is_truthy(r[1]:match("^%x+%-%x+%-4%x%x%x%-[89ab]%x%x%x%-%x+$"), r[1])
    assert.is_truthy(r[2]:match("^%x+%-%x+%-7%x%x%x%-[89ab]%x%x%x%-%x+$"), r[2])
  end)

  it("permutes a range without repeats", function()
    local g = native { { "p", "int", bb.permutation { 1, 1000 } } }
    local seen = {}
    for n = 0, 999 do
      local v = g:row(n)[1]
      assert.is_true(v >= 1 and v <= 1000)
      assert.is_nil(seen[v], "repeat " .. v)
      seen[v] = true
    end
  end)

  it("rejects a generator that does not exist", function()
    assert.has_error(function() native { { "a", "int", { kind = "nosuch" } } } end)
  end)

  it("says what is wrong with a generator's arguments, naming the column", function()
    local function why(gen, null)
      local ok, err = pcall(native, { { "a", "int", gen, null = null } })
      assert.is_false(ok)
      return type(err) == "table" and err.bb_usage or tostring(err)
    end
    local cases = {
      { { kind = "nosuch" }, "column a: unknown generator 'nosuch'" },
      { bb.int { 5, 1 }, "column a: int max < min" },
      { bb.permutation { 5, 1 }, "column a: permutation max < min" },
      { bb.decimal { scale = 19 }, "column a: decimal scale must be 0..18" },
      { bb.decimal { min = 0, max = 1e300 }, "column a: decimal range too wide for its scale" },
      { bb.decimal { 5, 1 }, "column a: decimal max < min" },
      { bb.string { min = 5, max = 3 }, "column a: string lengths need 0 <= min <= max" },
      { bb.blob { bytes = -1 }, "column a: string lengths need 0 <= min <= max" },
      { bb.template(), "column a: template needs a pattern" },
      { bb.const(), "column a: const needs a value" },
      { bb.timestamp { from = "nope", to = "2020-01-01" },
        "timestamp 'nope' is not 'YYYY-MM-DD[ HH:MM:SS]' or epoch seconds" },
      { bb.timestamp { from = "2021-01-01", to = "2020-01-01" }, "column a: timestamp to < from" },
      { bb.date { "2021-01-01", "2020-01-01" }, "column a: date to < from" },
      { bb.bool { p = 1.5 }, "column a: bool p must be in [0, 1]" },
      { bb.choice {}, "column a: choice needs a non-empty list of values" },
      { bb.zipf { s = 0 }, "column a: zipf needs min <= max and s > 0" },
      { bb.zipf { min = 0, max = 2 ^ 53 }, "column a: zipf ranges hold at most 2^53 values" },
      { bb.pareto { shape = -1 }, "column a: pareto needs scale > 0 and shape > 0" },
      { bb.string { lenn = 5 }, "column a: string has no argument 'lenn'; did you mean 'len'?" },
      { bb.int { 0, 9, foo = 1 }, "column a: int has no argument 'foo' (it reads min, max)" },
      { bb.int { 0, 9, 5 }, "column a: int takes at most 2 arguments in order, not 3" },
      { bb.timestamp { form = "2020-01-01", to = "2021-01-01" },
        "column a: timestamp has no argument 'form'; did you mean 'from'?" },
    }
    for _, c in ipairs(cases) do
      local msg = why(c[1])
      assert.is_truthy(msg:find(c[2], 1, true), msg)
    end
    assert.is_truthy(why(bb.int(), 1):find("column a: null ratio must be in [0, 1)", 1, true))
  end)
end)

-- The usage error a call raises (what the command line would print).
local function usage(f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  return type(err) == "table" and err.bb_usage or tostring(err)
end

-- What a column's generator slot holds besides a bb.* generator: a function called per row,
-- a literal, bb.const of any value; anything else an error naming the column, at bb.table.
describe("generator slot", function()

  it("calls a function per row with n as bb.seq() writes it and the row's own generator", function()
    local t = bb.table "slot_fn" {
      { "id", "bigint", bb.seq() },
      { "v", "bigint", function(n) return n * 2 end },
      { "r", "int", function(_, rng) return rng(1, 6) end },
      { "u", "double", function(_, rng) return rng() end },
      { "s", "text", function(n) if n % 3 ~= 0 then return "it's\t" .. n end end }, -- nil: NULL
      { "b", "boolean", function(n) return n % 2 == 0 end },
      { "w", "text", function(n) return n % 2 == 0 end },
      { "j", "json", function(n) return { n = n, tags = { "a", "b" } } end },
    }
    local seen = {}
    for n = 0, 599 do
      local r = t:row(n)
      assert.are.equal(n + 1, r[1])
      assert.are.equal(2 * (n + 1), r[2])
      assert.is_true(r[3] >= 1 and r[3] <= 6 and r[3] == math.floor(r[3]))
      seen[r[3]] = true
      assert.is_true(r[4] >= 0 and r[4] < 1)
      if (n + 1) % 3 == 0 then assert.is_nil(r[5]) else assert.are.equal("it's\t" .. (n + 1), r[5]) end
      assert.are.equal((n + 1) % 2 == 0 and 1 or 0, r[6])
      assert.are.equal((n + 1) % 2 == 0 and "true" or "false", r[7])
      assert.are.equal(('{"n":%d,"tags":["a","b"]}'):format(n + 1), r[8])
    end
    for k = 1, 6 do assert.is_true(seen[k], "rng(1, 6) never gave " .. k) end
    -- the row's generator is the row's: the same row, the same draws, whichever order rows come in
    assert.are.same(t:row(17), t:row(17))
    assert.are.equal(t:row(17, 5)[3], t:row(17, 5)[3])
    local differ = 0
    for n = 0, 99 do if t:row(n, 1)[4] ~= t:row(n, 2)[4] then differ = differ + 1 end end
    assert.are.equal(100, differ) -- another --seed, other draws
  end)

  it("writes a function's values into every text format, the same as its rows", function()
    local t = bb.table "slot_enc" { { "id", "int", bb.seq() }, { "s", "text", function(n) return ("a,\"b\"\t%d"):format(n) end } }
    assert.are.equal('1,"a,""b""\t1"\n2,"a,""b""\t2"\n', t:encode(0, 2, "csv"))
    assert.are.equal('1\ta,"b"\\t1\n2\ta,"b"\\t2\n', t:encode(0, 2, "copy"))
    assert.are.equal(t:encode(0, 300, "copy", true), t:encode(0, 300, "copy"))
  end)

  it("takes a literal as that constant, and bb.const any value", function()
    local t = bb.table "slot_lit" {
      { "w", "int", 5 }, { "s", "varchar(10)", "hello" }, { "z", "int", bb.const(0) }, { "f", "double", bb.const(1.5) },
      { "b", "boolean", bb.const(false) }, { "t", "boolean", true }, { "x", "text", bb.const(false) },
      { "y", "text", bb.const "y" }, { "c", "boolean", bb.choice { true, false } }, { "e", "text", bb.choice { true, 7, "s" } },
    }
    local r = t:row(3)
    assert.are.same({ 5, "hello", 0, 1.5, 0, 1, "false", "y" }, { r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8] })
    local seen = {}
    for n = 0, 199 do seen[t:row(n)[9]] = true; seen[t:row(n)[10]] = true end
    assert.is_true(seen[0] and seen[1], "choice { true, false } in a boolean column gives 1 and 0")
    assert.is_true(seen["true"] and seen["7"] and seen.s, "choice in a text column gives the words")
    assert.is_truthy(t:encode(0, 1, "csv"):find("^5,hello,0,1%.5,0,1,false,y,"), t:encode(0, 1, "csv"))
    assert.are.equal(t:encode(0, 50, "copy", true), t:encode(0, 50, "copy"))
    assert.are.equal(bb.float, bb.double)
  end)

  it("refuses anything else, naming the table, the column and what it got, before anything runs", function()
    assert.is_truthy(usage(function() bb.table "slot_bad" { { "id", "int", bb.seq() }, { "bad_col", "int", {} } } end)
      :find("table slot_bad, column bad_col: its generator is an empty table {}", 1, true))
    assert.is_truthy(usage(function() bb.table "slot_bad" { { "k", "int", bb.int } } end)
      :find("column k: bb.int is written without its arguments; write bb.int { ... } or bb.int()", 1, true))
    assert.is_truthy(usage(function() bb.table "slot_bad" { { "k", "int", { min = 1 } } } end)
      :find("column k: its generator is a table that is no bb.* generator", 1, true))
    assert.is_truthy(usage(function() bb.table "slot_bad" { { "k", "int", io.stdout } } end)
      :find("column k: its generator is a userdata", 1, true))
    assert.is_truthy(usage(function() bb.table "slot_bad" { { "k", "int", bb.const { {} } } }:native() end)
      :find("column k: const takes a number, a string or a boolean", 1, true))
  end)

  it("says which column, row and line of the script a function failed at, with the script's frames only", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write('local bb = require "bulkbench"\nlocal function half(n)\n  if n == 7 then error("seven") end\n  return n / 2\nend\n'
      .. 'SLOT_ERR = bb.table "slot_err" { { "h", "double", function(n) local x = half(n); return x end },\n'
      .. '  { "f", "int", function(n) if n == 3 then return print end end } }\n')
    f:close()
    dofile(path)
    os.remove(path)
    local ok, err = pcall(SLOT_ERR.row, SLOT_ERR, 6)
    assert.is_false(ok)
    local msg = type(err) == "table" and err.bb_error or tostring(err)
    assert.is_truthy(msg:find("column h, row 7: " .. path .. ":3: seven", 1, true), msg)
    assert.is_truthy(msg:find("stack traceback:\n\t" .. path .. ":3: in function 'half'", 1, true), msg)
    assert.is_truthy(msg:find(path .. ":6: in function <" .. path .. ":6>", 1, true), msg)
    assert.is_falsy(msg:find("\tlua/[%w_/]+%.lua:%d"), msg) -- no frame of the library
    ok, err = pcall(SLOT_ERR.row, SLOT_ERR, 2)
    msg = type(err) == "table" and err.bb_error or tostring(err)
    assert.is_truthy(msg:find("column f, row 3: the function returned a function", 1, true), msg)
  end)
end)

-- bb.json: a document per row, its shape fixed, its values drawn; escapes by jansson.
describe("bb.json", function()
  local core = require "bulkbench.core"

  it("writes objects with sorted keys, nested tables, literals, lists and arrays of a drawn length", function()
    local t = bb.table "json_shape" { { "j", "json", bb.json {
      id = bb.seq(), name = bb.choice { 'q"uote', "tab\tx", "back\\slash", "ñ漢字", "nl\nx" }, ok = bb.bool(),
      price = bb.decimal { 0, 9 }, t = bb.double { 0, 1 }, fixed = "it's", n = 7, yes = true, pair = { bb.int { 0, 9 }, "x" },
      tags = bb.array { bb.choice { "a", "b" }, min = 1, max = 3 }, empty = {}, nested = { deep = { v = bb.int { 5, 5 } } },
      maybe = bb.int { 1, 2, null = 0.5 }, lit = bb.choice { 1.5, true, "s" },
    } } }
    local lens, nulls = {}, 0
    for n = 0, 999 do
      local text = t:row(n)[1]
      local doc = core.json_decode(text)
      assert.are.equal(n + 1, doc.id)
      assert.is_truthy(text:find('^{"empty":{},"fixed":"it\'s","id":'), text)
      assert.are.equal("it's", doc.fixed)
      assert.are.equal(7, doc.n)
      assert.are.equal(true, doc.yes)
      assert.are.equal(5, doc.nested.deep.v)
      assert.is_true(doc.ok == true or doc.ok == false)
      assert.are.equal("number", type(doc.price))
      assert.is_true(doc.pair[1] >= 0 and doc.pair[1] <= 9 and doc.pair[2] == "x")
      assert.is_true(doc.lit == 1.5 or doc.lit == true or doc.lit == "s", text)
      lens[#doc.tags] = true
      assert.is_true(#doc.tags >= 1 and #doc.tags <= 3)
      if doc.maybe == nil then nulls = nulls + 1 end
      assert.is_truthy(({ ['q"uote'] = 1, ["tab\tx"] = 1, ["back\\slash"] = 1, ["ñ漢字"] = 1, ["nl\nx"] = 1 })[doc.name], text)
    end
    assert.is_true(lens[1] and lens[2] and lens[3], "every drawn length from 1 to 3")
    assert.is_true(nulls > 400 and nulls < 600, "null = 0.5 inside bb.json: " .. nulls)
    assert.are.same(t:row(42), t:row(42))
    assert.are.equal(t:encode(0, 200, "csv", true), t:encode(0, 200, "csv"))
    assert.are.equal(t:encode(0, 200, "copy", true), t:encode(0, 200, "copy"))
  end)

  it("makes a column of bb.array alone, and a bb.json inside another", function()
    local t = bb.table "json_arr" { { "a", "json", bb.array { bb.int { 1, 3 }, len = 2 } },
      { "b", "json", bb.json { inner = bb.json { k = bb.const "v" } } } }
    local r = t:row(0)
    assert.is_truthy(r[1]:match("^%[[1-3],[1-3]%]$"), r[1])
    assert.are.equal('{"inner":{"k":"v"}}', r[2])
  end)

  it("says what is wrong in its shape, naming where", function()
    assert.is_truthy(usage(function() bb.json { a = { b = function() end } } end)
      :find("bb.json: a.b is a function (make the whole column a function that returns a table)", 1, true))
    assert.is_truthy(usage(function() bb.json { a = bb.int } end):find("bb.json: a is bb.int without its arguments", 1, true))
    assert.is_truthy(usage(function() bb.json "x" end):find("bb.json takes a table", 1, true))
    assert.is_truthy(usage(function() bb.table "json_bad" { { "j", "json", bb.json { a = bb.int { minn = 1 } } } }:native() end)
      :find("int has no argument 'minn'; did you mean 'min'?", 1, true))
    assert.is_truthy(usage(function() bb.table "json_bad" { { "j", "json", bb.array { bb.int {}, min = 3, max = 1 } } }:native() end)
      :find("bb.array needs 0 <= min <= max", 1, true))
  end)
end)

describe("bb.uuid", function()
  it("draws version 4 from the seed, and version 7 ordered by the row with version = 7 (uuid7)", function()
    local t = bb.table "uuids" { { "a", "uuid", bb.uuid() }, { "b", "uuid", bb.uuid { version = 7 } }, { "c", "uuid", bb.uuid7() } }
    local prev
    for n = 0, 199 do
      local r = t:row(n)
      assert.is_truthy(r[1]:match("^%x%x%x%x%x%x%x%x%-%x%x%x%x%-4%x%x%x%-[89ab]%x%x%x%-%x+$"), r[1])
      assert.is_truthy(r[2]:match("^%x+%-%x+%-7%x%x%x%-[89ab]"), r[2])
      assert.are.equal(r[2]:sub(1, 13), r[3]:sub(1, 13)) -- the same instant
      if prev then assert.is_true(r[2] > prev, "v7 sorts as its rows") end
      prev = r[2]
    end
    local ok, err = pcall(function() bb.table "uuid_bad" { { "a", "uuid", bb.uuid { version = 5 } } }:native() end)
    assert.is_false(ok)
    assert.is_truthy(tostring(err.bb_usage or err):find("uuid version is 4 (random) or 7 (time-ordered)", 1, true))
  end)
end)
