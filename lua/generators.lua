-- generators: what goes in a column's generator slot. The constructors, one per native kind
-- (core.gen_kinds() is the only list), bb.json's and bb.array's shapes walked into programs for
-- runtime/core/gen/gen_json.c, bb.const for any literal, and M.slot: what a slot holds as the
-- compiler takes it. lua/bulkbench.lua hands them to scripts as bb.int, bb.json, ...
local core = require "bulkbench.core"

local M = {}

-- Generator constructors: one per native kind; core.gen_kinds() is the only list.
-- bb.int{1, 100}, bb.string{min=8, max=40}, bb.seq(), bb.choice{{"GET", 8}, {"POST", 2}}
M.gen = {}
local constructor_of = {} -- a constructor written without its call (bb.int, not bb.int{...}): its name
for _, kind in ipairs(core.gen_kinds()) do
  local make = function(args)
    local g = {}
    if type(args) == "table" then
      for k, v in pairs(args) do g[k] = v end
    elseif args ~= nil then
      g[1] = args
    end
    g.kind = kind
    return g
  end
  M.gen[kind] = make
  constructor_of[make] = kind
end

-- what a value a script gave where a generator goes is, for its error
local function describe_value(v)
  if type(v) == "table" then
    return next(v) == nil and "an empty table {}" or "a table that is no bb.* generator (it has no kind)"
  end
  return ("a %s (%s)"):format(type(v), tostring(v))
end


-- bb.json { key = generator, nested = { ... }, list = { g1, g2 }, tags = bb.array { g, min = 0, max = 4 },
-- fixed = "text" or 1.5 or true }: a JSON document per row. Its shape is walked here into a
-- program of tokens (keys sorted, so the text is the same in every state) and the generators
-- it holds, in order; runtime/core/gen/gen_json.c writes it, jansson escaping its text.
local function json_node(node, prog, leaves, where)
  local t = type(node)
  local function bad(what)
    core.usage_error(("bb.json: %s is %s; a member takes a bb.* generator, a nested table or a literal"):format(where, what))
  end
  if t == "table" and node.kind == "json" then -- a bb.json or bb.array inside: its program in place
    for _, tok in ipairs(node.program) do prog[#prog + 1] = tok end
    for _, g in ipairs(node.leaves) do leaves[#leaves + 1] = g end
  elseif t == "table" and type(node.kind) == "string" then
    prog[#prog + 1], leaves[#leaves + 1] = "g", node
  elseif t == "table" then
    local keys = {}
    for k in pairs(node) do keys[#keys + 1] = k end
    if #node > 0 and #keys == #node then -- a list: an array of these members
      prog[#prog + 1] = "["
      for i = 1, #node do json_node(node[i], prog, leaves, ("%s[%d]"):format(where, i)) end
      prog[#prog + 1] = "]"
      return
    end
    for _, k in ipairs(keys) do
      if type(k) ~= "string" then bad("a table mixing keys and a list") end
    end
    table.sort(keys)
    prog[#prog + 1] = "{"
    for _, k in ipairs(keys) do
      prog[#prog + 1] = "k:" .. k
      json_node(node[k], prog, leaves, where == "" and k or (where .. "." .. k))
    end
    prog[#prog + 1] = "}"
  elseif t == "string" then prog[#prog + 1] = "s:" .. node
  elseif t == "number" and node == node and math.abs(node) ~= math.huge then
    prog[#prog + 1] = "n:" .. (node == math.floor(node) and math.abs(node) < 2 ^ 53 and ("%d"):format(node) or ("%.17g"):format(node))
  elseif t == "boolean" then prog[#prog + 1] = "b:" .. tostring(node)
  elseif t == "function" and constructor_of[node] then
    bad(("bb.%s without its arguments (bb.%s { ... })"):format(constructor_of[node], constructor_of[node]))
  else bad(t == "function" and "a function (make the whole column a function that returns a table)" or describe_value(node))
  end
end

function M.json(spec)
  if type(spec) ~= "table" or spec.kind then core.usage_error("bb.json takes a table: bb.json { key = generator, ... }") end
  local prog, leaves = {}, {}
  json_node(spec, prog, leaves, "")
  return { kind = "json", program = prog, leaves = leaves }
end

-- bb.array { generator or table, min = 0, max = 4 } (or len = 3): a JSON array of a drawn length,
-- in bb.json or a column of its own
function M.array(spec)
  local el = type(spec) == "table" and spec[1]
  if el == nil then core.usage_error("bb.array takes its element first: bb.array { bb.int { 1, 9 }, min = 0, max = 4 }") end
  local min = spec.min or spec.len or 0
  local max = spec.max or spec.len or math.max(min, 4)
  local prog, leaves = { ("A:%d:%d"):format(min, max) }, {}
  json_node(el, prog, leaves, "the array's element")
  prog[#prog + 1] = "/A"
  return { kind = "json", program = prog, leaves = leaves }
end
M.gen.json, M.gen.array = M.json, M.array
constructor_of[M.json], constructor_of[M.array] = "json", "array"
-- bb.const(v): any Lua value a column takes (a number, a string, a boolean); bb.const{value = v} too
function M.const(v)
  if type(v) == "table" and v.kind == nil then return M.gen.const(v) end
  return { kind = "const", v }
end

-- What a column's generator slot holds, as the compiler takes it: a bb.* generator as it is,
-- a function as {fn = f} (called per row as f(n, rng)), a literal as bb.const; anything else
-- is the script's mistake, said before anything is written (nil: no generator, the server's
-- default or auto-increment fills the column).
function M.slot(tname, col, g)
  local t = type(g)
  if g == nil or (t == "table" and type(g.kind) == "string") then return g end
  if t == "function" and constructor_of[g] then
    core.usage_error(("table %s, column %s: bb.%s is written without its arguments; write bb.%s { ... } or bb.%s()")
      :format(tname, col, constructor_of[g], constructor_of[g], constructor_of[g]))
  end
  if t == "function" then return { kind = "function", fn = g } end
  if t == "number" or t == "string" or t == "boolean" then return M.const(g) end
  core.usage_error(("table %s, column %s: its generator is %s; a column takes a bb.* generator, a function(n, rng) "
    .. "or a literal (number, string, boolean)"):format(tname, col, describe_value(g)))
end

return M
