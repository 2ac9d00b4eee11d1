-- bulkbench.report.differs: what differs between two sets of results as a whole, so that
-- `report --compare` pairs the points that differ only in that (a before/after of one
-- --set is one point on each side, not two unmatched ones) and says what it is
-- ("synchronous_commit: on → off"). A dimension of a point (a --set, a script option, the
-- strategy) differs as a whole when each side holds one value of it and the two are not the
-- same; the environment (bulkbench's version, the server's version and its settings) is told
-- the same way, never paired on. Also: which scripts a scenario's name covers (its sha256).
local points = require "bulkbench.report.points"
local M = {}

local NONE = "(not set)"

local function str(v) return v == nil and NONE or tostring(v) end

-- the values get(r) takes over rs: { [text] = true }, and how many
local function values(rs, get)
  local seen, n, one = {}, 0, nil
  for _, r in ipairs(rs) do
    local v = str(get(r))
    if not seen[v] then seen[v] = true; n = n + 1; one = v end
  end
  return n, one
end

-- the point dimensions a whole file may change: each --set and script option either side holds, and the strategy
local function key_dims(base, cand)
  local dims, seen = { "strategy" }, { strategy = true }
  for _, rs in ipairs { base, cand } do
    for _, r in ipairs(rs) do
      for _, d in ipairs(points.point_dims(r)) do
        if (d:sub(1, 4) == "set." or d:sub(1, 4) == "opt.") and not seen[d] then seen[d] = true; dims[#dims + 1] = d end
      end
    end
  end
  return dims
end

local function setting(name) return function(r) return type(r.server) == "table" and type(r.server.settings) == "table" and r.server.settings[name] or nil end end

-- the environment's fields: bulkbench's version, the server's, each server setting either side recorded
local function env_fields(base, cand)
  local out = {
    { "bulkbench version", function(r) return r.version end },
    { "server version", function(r) return type(r.server) == "table" and r.server.version or nil end },
    { "the script (sha256)", function(r) return type(r.scenario_sha256) == "string" and r.scenario_sha256:sub(1, 12) or nil end },
  }
  local names, seen = {}, {}
  for _, rs in ipairs { base, cand } do
    for _, r in ipairs(rs) do
      local s = type(r.server) == "table" and type(r.server.settings) == "table" and r.server.settings or {}
      for k in pairs(s) do if not seen[k] then seen[k] = true; names[#names + 1] = k end end
    end
  end
  table.sort(names)
  for _, k in ipairs(names) do out[#out + 1] = { k, setting(k), setting = true } end
  return out
end

-- One change: { name, from, to } when get takes one value on each side and they differ.
local function change(name, get, base, cand)
  local nb, b = values(base, get)
  local nc, c = values(cand, get)
  if nb == 1 and nc == 1 and b ~= c then return { name = name, from = b, to = c } end
end

-- What differs between base and cand (one scenario's results each, or whole files):
-- { skip = { dim = true } (the point dimensions to pair without), changes = { {name, from, to} },
-- lines = { "synchronous_commit: on → off" } }.
function M.between(base, cand)
  local out = { skip = {}, changes = {} }
  local named = {}
  for _, d in ipairs(key_dims(base, cand)) do
    local c = change(points.dim_label(d), function(r) return points.dim_value(r, d) end, base, cand)
    if c then out.skip[d] = true; named[c.name] = true; out.changes[#out.changes + 1] = c end
  end
  for _, f in ipairs(env_fields(base, cand)) do
    local c = not named[f[1]] and change(f[1], f[2], base, cand) -- a --set shows in the settings too: once
    if c then out.changes[#out.changes + 1] = c end
  end
  out.lines = {}
  for i, c in ipairs(out.changes) do out.lines[i] = ("%s: %s → %s"):format(c.name, c.from, c.to) end
  return out
end

local function short(sha) return sha and sha:sub(1, 12) or NONE end

-- The scripts a scenario name covers in rs: its distinct scenario_sha256 values, in order.
function M.scripts(rs)
  local seen, out = {}, {}
  for _, r in ipairs(rs) do
    local h = type(r.scenario_sha256) == "string" and r.scenario_sha256 or nil
    if h and not seen[h] then seen[h] = true; out[#out + 1] = h end
  end
  return out
end

-- A warning when one scenario name covers different scripts: within rs (one set of results),
-- or between base and cand when given both.
function M.script_warning(name, rs, cand)
  local a = M.scripts(rs)
  if not cand then
    if #a < 2 then return nil end
    local hs = {}
    for i, h in ipairs(a) do hs[i] = short(h) end
    return ("%s: one scenario name covers %d different scripts (sha256 %s): its points may not measure the same load")
      :format(name, #a, table.concat(hs, ", "))
  end
  local b = M.scripts(cand)
  if #a == 0 or #b == 0 then return nil end
  local same = #a == #b
  for i = 1, #a do same = same and a[i] == b[i] end
  if same then return nil end
  local function list(xs) local o = {}; for i, h in ipairs(xs) do o[i] = short(h) end; return table.concat(o, ", ") end
  return ("%s: the two files ran different scripts of that name (sha256 %s in base, %s in candidate): the points are "
    .. "paired by name, but they may not measure the same load"):format(name, list(a), list(b))
end

return M
