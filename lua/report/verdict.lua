-- bulkbench.report.verdict: the answer first, as hyperfine ends: which configuration of a scenario
-- was fastest, its rows/s with the interval of its median, how many times as fast it was as
-- the next and the slowest (each ratio with its interval and the level it really has), and
-- which cannot be told apart from it. The same lines head the text report and the page.
local stats = require "bulkbench.report.stats"
local points = require "bulkbench.report.points"
local tables = require "bulkbench.report.tables"
local M = {}

local th = tables.thousands

-- "447,298 rows/s (range of 3 runs (75%): 375,364 to 578,866)": a point's figure and interval
function M.figure(p)
  if not p.median then return "no successful run" end
  local name = stats.interval_name(p.n, p.level)
  if p.n <= 1 then return ("%s rows/s (%s)"):format(th(p.median), name) end
  return ("%s rows/s (%s: %s to %s)"):format(th(p.median), name, th(p.lo), th(p.hi))
end

-- "1.13 times as fast as the next, multirow (0.97 to 1.54, 90%)"
local function ratio_line(ci, who)
  return ("  %.2f times as fast as %s"):format(ci.ratio, who)
    .. (ci.m * ci.n > 1 and (" (%.2f to %.2f, %s)"):format(ci.lo, ci.hi, stats.percent(ci.level)) or " (one run each)")
end

-- Up to 12 names of points, then how many more.
local function names_of(list, name)
  local names = {}
  for i, p in ipairs(list) do
    if i > 12 then names[#names + 1] = ("and %d more"):format(#list - 12); break end
    names[#names + 1] = name(p)
  end
  return table.concat(names, "; ")
end

-- What the others are against the best: told apart (an interval of LEVEL or more clear of 1),
-- ties (an interval of LEVEL or more that holds 1), or unsure (too few runs for LEVEL). Each
-- is one of the three, never two: a ratio whose interval is short of LEVEL names no tie.
local function standing(v, ok, best)
  v.unsure = {}
  for i = 2, #ok do
    local p = ok[i]
    local ci = stats.ratio_ci(p.rates, best.rates)
    v.ratio[p] = ci
    if ci.level < stats.LEVEL - 1e-12 then v.unsure[#v.unsure + 1] = p
    elseif not stats.told_apart(ci) then v.ties[#v.ties + 1] = p end
  end
end

-- The verdict on points (one scenario's, any order): { best, ties (the points that cannot be
-- told apart from it), unsure (those too few runs cannot tell), ratio[p] (its ratio_ci
-- against the best), lines }.
function M.of(pts)
  local ok = {}
  for _, p in ipairs(pts) do if p.median then ok[#ok + 1] = p end end
  local v = { ties = {}, unsure = {}, ratio = {}, lines = {} }
  if #ok == 0 then
    v.lines[1] = "no configuration ran successfully"
    return v
  end
  points.sort(ok)
  local varying = points.split_dims(points.results_of(pts))
  local function name(p) return points.label(p.r, varying) or points.describe(p.r) end
  local best = ok[1]
  v.best = best
  if #ok == 1 then
    v.lines[1] = ("%s: %s at %s"):format(#pts == 1 and "one configuration" or "the only one that ran", name(best),
      M.figure(best))
    return v
  end
  v.lines[1] = ("fastest: %s at %s"):format(name(best), M.figure(best))
  standing(v, ok, best)
  v.lines[#v.lines + 1] = ratio_line(v.ratio[ok[2]], "the next, " .. name(ok[2]))
  if #ok > 2 then v.lines[#v.lines + 1] = ratio_line(v.ratio[ok[#ok]], "the slowest, " .. name(ok[#ok])) end
  local single = true -- one run a point: nothing can be told apart, whatever the figures
  for _, p in ipairs(ok) do single = single and p.n <= 1 end
  if single then
    v.lines[#v.lines + 1] = "  with one run a point nothing can be told apart: --repeat=4 or more tells a clear difference"
  elseif #v.unsure == #ok - 1 then
    v.lines[#v.lines + 1] = "  too few runs to tell any of the others apart from it: 4 or more of each tell a clear difference"
  else
    if #v.ties > 0 then v.lines[#v.lines + 1] = "  cannot be told apart from it: " .. names_of(v.ties, name) end
    if #v.unsure > 0 then
      v.lines[#v.lines + 1] = ("  too few runs to tell from it (4 or more of each tell a clear difference): %s")
        :format(names_of(v.unsure, name))
    end
    if #v.ties == 0 and #v.unsure == 0 then v.lines[#v.lines + 1] = "  every other configuration is told apart from it" end
  end
  return v
end

return M
