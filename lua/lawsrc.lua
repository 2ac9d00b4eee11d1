-- bulkbench.lawsrc: what the laws of `new` (lua/new/law.lua) and its keys (lua/keys.lua) share
-- without needing each other: values written as Lua source, and the range a column's type and
-- CHECKs leave its values.
local instant = require "bulkbench.instant"
local M = {}

-- Whether s is UTF-8 text without control characters (tab and newline aside): %q writes it
-- as it is, and a Lua file can hold it.
function M.plain_text(s)
  if s:find("[%z\1-\8\11-\31\127]") then return false end
  local i = 1
  while i <= #s do
    local b = s:byte(i)
    local n = b < 128 and 0 or b >= 194 and b <= 223 and 1 or b >= 224 and b <= 239 and 2 or b >= 240 and b <= 244 and 3 or -1
    if n < 0 then return false end
    for k = 1, n do
      local cb = s:byte(i + k)
      if not cb or cb < 128 or cb > 191 then return false end
    end
    i = i + n + 1
  end
  return true
end

-- A value as a Lua string literal; bytes that are not UTF-8 text (a BIT or BINARY value)
-- as \ddd escapes, so the file stays UTF-8.
local function q(v)
  v = tostring(v)
  if M.plain_text(v) then return ("%q"):format(v) end
  return '"' .. v:gsub('[%c"\\\128-\255]', function(ch)
    if ch == '"' or ch == "\\" then return "\\" .. ch end
    return ("\\%03d"):format(ch:byte())
  end) .. '"'
end

local function num(x)
  if x == math.floor(x) and math.abs(x) < 1e15 then return ("%d"):format(x) end
  return ("%.6g"):format(x)
end

-- {{value, weight}, ...} as Lua source, several to a line
local function pairs_src(list, indent)
  local parts, line, out = {}, "", {}
  for _, p in ipairs(list) do parts[#parts + 1] = ("{ %s, %s }"):format(q(p[1]), num(p[2])) end
  for _, p in ipairs(parts) do
    if #line + #p > 96 then out[#out + 1] = line:gsub(" $", ""); line = "" end
    line = line .. p .. ", "
  end
  if line ~= "" then out[#out + 1] = line end
  if #out <= 1 then return "{ " .. (out[1] or ""):gsub(", $", "") .. " }" end
  return "{\n" .. indent .. "  " .. table.concat(out, "\n" .. indent .. "  "):gsub(", $", "") .. "\n" .. indent .. "}"
end

local function list_src(list, indent)
  local line, out = "", {}
  for _, v in ipairs(list) do
    local p = q(v) .. ", "
    if #line + #p > 100 then out[#out + 1] = line:gsub(" $", ""); line = "" end
    line = line .. p
  end
  if line ~= "" then out[#out + 1] = line end
  if #out <= 1 then return "{ " .. (out[1] or ""):gsub(", $", "") .. " }" end
  return "{\n" .. indent .. "  " .. table.concat(out, "\n" .. indent .. "  "):gsub(", $", "") .. "\n" .. indent .. "}"
end

local function pct(x) return ("%.1f%%"):format(100 * x) end

-- ---- bounds from CHECK constraints ----

local function numeric_value(c, v)
  if c.kind == "int" or c.kind == "numeric" or c.kind == "double" then return tonumber(v) end
  if c.kind == "date" or c.kind == "timestamp" then return instant.value(c.kind, v) or v end -- as instants
  return v
end

-- A bound numeric_value made, as the column's values are written.
local function bound_text(c, x)
  if type(x) ~= "number" then return x end
  if c.kind == "date" or c.kind == "timestamp" then return instant.text(c.kind, x) end
  return num(x)
end

local function less(c, a, b)
  local x, y = numeric_value(c, a), numeric_value(c, b)
  if type(x) == type(y) and x ~= nil then return x < y end
  return tostring(a) < tostring(b)
end

-- The smallest step of a column's values: 1 for integers and dates (a day), 10^-scale for
-- decimals, a second for timestamps.
local function step(c)
  if c.kind == "int" or c.kind == "date" or c.kind == "timestamp" then return 1 end
  if c.kind == "numeric" then return 10 ^ -(c.scale or 0) end
  return 0
end

-- [lo, hi] a column's values must keep to, from its CHECKs and type (nil: no bound).
local function limits(c)
  local lo, hi = c.range and c.range[1], c.range and c.range[2]
  if c.check_min then
    local v = numeric_value(c, c.check_min[1])
    if type(v) == "number" and not c.check_min[2] then v = v + (step(c) > 0 and step(c) or math.max(math.abs(v) * 1e-9, 1e-9)) end
    if lo == nil or (type(v) == "number" and v > lo) then lo = v end
  end
  if c.check_max then
    local v = numeric_value(c, c.check_max[1])
    if type(v) == "number" and not c.check_max[2] then v = v - (step(c) > 0 and step(c) or math.max(math.abs(v) * 1e-9, 1e-9)) end
    if hi == nil or (type(v) == "number" and v < hi) then hi = v end
  end
  return lo, hi
end

local function within(c, v, lo, hi)
  local x = numeric_value(c, v)
  if lo ~= nil and type(x) == type(lo) and x < lo then return false end
  if hi ~= nil and type(x) == type(hi) and x > hi then return false end
  return true
end

-- The observed values' lengths (histogram bounds, most common values): [min, max].
local function lengths(st)
  local lo, hi
  for _, v in ipairs(st and st.bounds or {}) do lo, hi = math.min(lo or #v, #v), math.max(hi or #v, #v) end
  for _, p in ipairs(st and st.mcv or {}) do lo, hi = math.min(lo or #p[1], #p[1]), math.max(hi or #p[1], #p[1]) end
  return lo, hi
end

-- A pattern whose numbers make every row's value different: the observed values' common
-- prefix, then digits up to their usual length (within the column's).
local function unique_pattern(c, st)
  local seen = {}
  for _, v in ipairs(st and st.bounds or {}) do seen[#seen + 1] = v end
  for _, p in ipairs(st and st.mcv or {}) do seen[#seen + 1] = p[1] end
  local prefix = seen[1] or ""
  for _, v in ipairs(seen) do
    local k = 0
    while k < #prefix and k < #v and prefix:byte(k + 1) == v:byte(k + 1) do k = k + 1 end
    prefix = prefix:sub(1, k)
  end
  prefix = prefix:gsub("[#@]", ""):gsub("%d+$", "")
  local _, hi = lengths(st)
  local want = math.max(hi or 12, #prefix + 10) -- ten digits at least: 10^10 rows
  if c.length then want = math.min(want, c.length) end
  local digits = want - #prefix
  if digits < 10 and c.length then -- too short for a prefix: letters hold more
    prefix = prefix:sub(1, math.max(0, c.length - 10))
    digits = c.length - #prefix
  end
  if digits <= 0 then return nil end
  local pat = prefix .. ("#"):rep(math.min(digits, 18))
  if digits > 18 then pat = ("@"):rep(digits - 18) .. pat end
  local cap = 10 ^ math.min(digits, 18) * 26 ^ math.max(0, digits - 18)
  if cap > 4e18 then pat = prefix .. ("#"):rep(18) end
  return pat
end

M.q, M.num, M.pairs_src, M.list_src, M.pct = q, num, pairs_src, list_src, pct
M.numeric_value, M.bound_text, M.less, M.step, M.limits, M.within = numeric_value, bound_text, less, step, limits, within
M.lengths, M.unique_pattern = lengths, unique_pattern
return M
