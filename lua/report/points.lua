-- bulkbench.report.points: what a result is a run of. A point is a scenario and the dimensions that
-- made it (engine, method, threads, batch, target, strategy, --set values, script options); the results
-- of one point in one file (a --repeat result's runs, and runs appended by invocation after
-- invocation) are merged into one, its rows/s the median of all their runs with the interval
-- of that median (bulkbench.report.stats). Labels name a point among others by what varies.
local stats = require "bulkbench.report.stats"
local dialects = require "bulkbench.dialects"
local SOURCE = require("bulkbench.report.results").SOURCE
local M = {}

M.DIMS = { "engine", "method", "threads", "batch", "target", "strategy", "source" }

local function basename(path) return (tostring(path):match("([^/]+)$")) or tostring(path) end

function M.dim_value(r, d)
  if d == "source" then return r[SOURCE] and basename(r[SOURCE]) end
  -- results before strategies had none: the same point as "none"
  if d == "strategy" then return type(r.strategy) == "string" and r.strategy ~= "" and r.strategy or "none" end
  if d:sub(1, 4) == "set." then return type(r.set) == "table" and r.set[d:sub(5)] or nil end
  -- one engine, many servers: odbc runs are told apart by the DBMS its driver reached
  if d == "engine" and dialects.engine(r.engine).many_servers and type(r.server) == "table"
    and type(r.server.version) == "string" then
    return r.engine .. " (" .. r.server.version:match("^%S+") .. ")"
  end
  if d:sub(1, 4) == "opt." then return type(r.options) == "table" and r.options[d:sub(5)] or nil end
  return r[d]
end

local dim_value = M.dim_value

function M.dim_label(d) return (d:gsub("^set%.", ""):gsub("^opt%.", "--")) end

-- the --set and script-option dimensions of r, sorted by name
local function extra_dims(r, out, seen)
  for _, kind in ipairs { "set", "options" } do
    local names = {}
    for k in pairs(type(r[kind]) == "table" and r[kind] or {}) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do
      local d = (kind == "set" and "set." or "opt.") .. k
      if not (seen and seen[d]) then
        if seen then seen[d] = true end
        out[#out + 1] = d
      end
    end
  end
  return out
end

-- The dimensions that make a result's point, as dim_value names them (its file is not one:
-- --compare matches points across files).
function M.point_dims(r)
  local dims = { "engine", "method", "threads", "batch", "target" }
  if dim_value(r, "strategy") ~= "none" then dims[#dims + 1] = "strategy" end -- keys of results without one hold
  return extra_dims(r, dims)
end

-- The identity of a result's point, its scenario and point_dims: runs of one point share it;
-- skip: { dim = true } left out (--compare pairs points across what two files change).
function M.point_key(r, skip)
  local parts = { tostring(r.scenario) }
  for _, d in ipairs(M.point_dims(r)) do
    if not (skip and skip[d]) then parts[#parts + 1] = d .. "=" .. tostring(dim_value(r, d)) end
  end
  return table.concat(parts, "; ")
end

-- scenario name -> list of its items (results, or what result_of gives a result of), in file order
function M.by_scenario(items, result_of)
  local order, groups = {}, {}
  for _, r in ipairs(items) do
    local s = (result_of and result_of(r) or r).scenario or "?"
    if not groups[s] then groups[s] = {}; order[#order + 1] = s end
    table.insert(groups[s], r)
  end
  return order, groups
end

-- The dimensions whose value differs between results, and those that do not.
function M.split_dims(rs)
  local dims, seen = {}, {}
  for _, d in ipairs(M.DIMS) do dims[#dims + 1] = d end
  for _, r in ipairs(rs) do extra_dims(r, dims, seen) end
  local varying, fixed = {}, {}
  for _, d in ipairs(dims) do
    local vals, n = {}, 0
    for _, r in ipairs(rs) do
      local v = tostring(dim_value(r, d))
      if not vals[v] then vals[v] = true; n = n + 1 end
    end
    if n > 1 then varying[#varying + 1] = d
    elseif d ~= "source" and dim_value(rs[1], d) ~= nil and dim_value(rs[1], d) ~= ""
      and not (d == "strategy" and dim_value(rs[1], d) == "none") then
      fixed[#fixed + 1] = d -- "--x=" says nothing, nor does strategy=none
    end
  end
  return varying, fixed
end

-- The label of a result among others: the values of the varying dimensions but skip
-- (engine and method bare, the others name=value), or nil when none is set.
function M.label(r, varying, skip)
  local key = {}
  for _, d in ipairs(varying) do
    local raw = dim_value(r, d)
    if d ~= skip and raw ~= nil and raw ~= "" then -- a setting this run did not have is left out
      local v = tostring(raw)
      key[#key + 1] = (d == "engine" or d == "method") and v or (M.dim_label(d) .. "=" .. v)
    end
  end
  return #key > 0 and table.concat(key, ", ") or nil
end

-- A point for a sentence: "scenario (engine, method, threads=1, batch=1000)".
function M.describe(r) return ("%s (%s)"):format(r.scenario or "?", M.label(r, M.point_dims(r)) or "") end

-- A function naming each of results among the others: what varies between them, after the
-- scenario when there are several (or when nothing varies).
function M.labeller(results)
  local varying = M.split_dims(results)
  local scenarios = {}
  for _, r in ipairs(results) do scenarios[r.scenario or "?"] = true end
  local many = next(scenarios, next(scenarios)) ~= nil
  return function(r)
    local label = M.label(r, varying)
    if many or not label then label = (r.scenario or "?") .. (label and (" " .. label) or "") end
    return label
  end
end

-- rows/s of each run a result holds: its runs (--repeat), else itself as one run
function M.run_rates(r)
  local rates = {}
  for _, run in ipairs(type(r.runs) == "table" and r.runs or {}) do
    if type(run) == "table" and type(run.rows_per_s) == "number" then rates[#rates + 1] = run.rows_per_s end
  end
  if #rates == 0 and type(r.rows_per_s) == "number" then rates[1] = r.rows_per_s end
  return rates
end

-- What a point's runs say: its median rows/s, the interval of that median and its level,
-- their CV, and the outlier among them if they can show one (stats.dixon).
function M.summarise(p)
  p.n = #p.rates
  if p.n > 0 then
    p.median = stats.median(p.rates)
    p.lo, p.hi, p.level = stats.median_interval(p.rates)
    p.cv = stats.cv(p.rates)
    local at, q, crit = stats.dixon(p.rates)
    if at then p.outlier = { rate = p.rates[at], run = at, q = q, crit = crit } end
  end
  return p
end

-- The points of results, in order of first appearance: the results of one point in one
-- file merged. A point: { r (its first result, for its dimensions), key, results, rates
-- (every successful run's rows/s), failed (its results that failed), median, lo, hi, level,
-- n, cv, outlier }.
function M.merge(results)
  local by, order = {}, {}
  for _, r in ipairs(results) do
    local k = tostring(r[SOURCE]) .. "|" .. M.point_key(r)
    local p = by[k]
    if not p then
      p = { r = r, key = k, results = {}, rates = {}, failed = {} }
      by[k] = p; order[#order + 1] = p
    end
    p.results[#p.results + 1] = r
    if r.error then p.failed[#p.failed + 1] = r -- a failed run's rate is no measure of the point
    else
      for _, v in ipairs(M.run_rates(r)) do p.rates[#p.rates + 1] = v end
    end
  end
  for _, p in ipairs(order) do M.summarise(p) end
  return order
end

-- The median over a point's successful results of get(result) (numbers only), or nil.
function M.field(p, get)
  local vs = {}
  for _, r in ipairs(p.results) do
    if not r.error then
      local v = get(r)
      if type(v) == "number" then vs[#vs + 1] = v end
    end
  end
  return stats.median(vs)
end

-- Points fastest first; those without a successful run last, in their order.
function M.sort(points)
  local idx = {}
  for i, p in ipairs(points) do idx[p] = i end
  table.sort(points, function(a, b)
    if (a.median ~= nil) ~= (b.median ~= nil) then return a.median ~= nil end
    if a.median and a.median ~= b.median then return a.median > b.median end
    return idx[a] < idx[b]
  end)
  return points
end

function M.results_of(points)
  local rs = {}
  for i, p in ipairs(points) do rs[i] = p.r end
  return rs
end

return M
