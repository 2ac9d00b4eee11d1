-- The generator kinds `bulkbench new` writes for values it takes from a table (issue 30's
-- "every type, its values with their shape kept"), without a server: decimals past their
-- scale, integers past 64 bits, text lengths in characters, lengths of the values
-- themselves, the values a pick writes down for a run without its table, and binary values
-- in the scenario's source.
local bb = require "bulkbench"
local law = require "bulkbench.new.law"

local function native(cols)
  local spec = {}
  for i, c in ipairs(cols) do spec[i] = c end
  return bb.table("o" .. tostring(math.random(1e9)))(spec):native()
end

-- The message of the error compiling cols gives.
local function refused(cols)
  local ok, err = pcall(native, cols)
  assert.is_false(ok)
  return type(err) == "table" and err.bb_usage or tostring(err)
end

local function utf8_chars(s)
  local _, n = s:gsub("[^\128-\191]", "")
  return n
end

describe("values taken from a table", function()
  it("a decimal with more fractional digits than its scale is rounded at the scale, not shifted", function()
    -- a numeric without precision holds 3.5612; at scale 2 that is 3.56 (it was 35.62)
    local g = native { { "a", "numeric(10,2)", bb.empirical { mcv = { { "3.5612", 1 }, { "8998.98549", 1 } }, scale = 2 } },
                       { "b", "numeric(10,2)", bb.empirical { rest = 1, bounds = { "3.5612", "8998.98549" }, scale = 2 } } }
    for n = 0, 999 do
      local r = g:row(n)
      assert.is_true(r[1] == "3.56" or r[1] == "8998.99", r[1])
      local b = tonumber(r[2])
      assert.is_true(b >= 3.56 and b <= 8998.99, r[2])
      assert.is_truthy(r[2]:match("^%d+%.%d%d$"), r[2])
    end
  end)

  it("an integer past 64 bits is refused by the generator, not clamped to 9223372036854775807", function()
    local err = refused { { "u", "bigint", bb.empirical { mcv = { { "18446744073709551000", 1 } } } } }
    assert.is_truthy(err:find("18446744073709551000", 1, true), err)
  end)

  it("random text is as long as a bound in characters, not in bytes (a varchar's limit counts characters)", function()
    local g = native { { "t", "varchar(8)", bb.empirical { rest = 1, bounds = { "量化核心", "量化核心业务量化" } } } }
    for n = 0, 999 do
      local v = g:row(n)[1]
      assert.is_true(utf8_chars(v) == 4 or utf8_chars(v) == 8, v)
    end
  end)

  it("lengths: the rest of a text column is random text of the values' own lengths", function()
    local g = native { { "t", "text", bb.empirical { mcv = { { "N/A", 0.5 } }, rest = 0.5, lengths = { 700, 1400 } } } }
    local seen = {}
    for n = 0, 1999 do
      local v = g:row(n)[1]
      if v ~= "N/A" then seen[#v] = (seen[#v] or 0) + 1 end
    end
    assert.is_true((seen[700] or 0) > 400 and (seen[1400] or 0) > 400)
    for len in pairs(seen) do assert.is_true(len == 700 or len == 1400, len) end
    local err = refused { { "i", "int", bb.empirical { rest = 1, lengths = { 3 } } } }
    assert.is_truthy(err:find("lengths are for text columns", 1, true), err)
  end)

  it("a pick whose set no run read draws from the values it writes down, by their weights", function()
    local g = native { { "j", "jsonb", bb.pick { set = "t/j", unique = true, values = { { '{"a": 1}', 1 }, { '{"a": 2}', 3 } } } } }
    local count = {}
    for n = 0, 3999 do
      local v = g:row(n)[1]
      count[v] = (count[v] or 0) + 1
    end
    assert.is_true(count['{"a": 1}'] > 800 and count['{"a": 1}'] < 1200, tostring(count['{"a": 1}']))
    assert.are.equal(4000, count['{"a": 1}'] + count['{"a": 2}'])
    -- without values or a range, it still says which set it wanted
    local err = refused { { "j", "jsonb", bb.pick { set = "t/j", unique = true } } }
    assert.is_truthy(err:find("t/j", 1, true), err)
  end)

  it("binary values are written into the scenario as escapes: the file stays UTF-8 and reads back the same bytes", function()
    for _, v in ipairs { "\0", "\1", "\255", "\128\0\7x", 'a"b\\c\n', "\0012", "€ ok" } do
      local src = law.q(v)
      assert.is_falsy(src:find("[\128-\255]") and not src:find("€", 1, true), src)
      assert.is_falsy(src:find("[%z\1-\8\11-\31\127]"), src)
      assert.are.equal(v, assert(loadstring("return " .. src))())
    end
  end)
end)
