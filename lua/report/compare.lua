-- bulkbench.report.compare: is a candidate faster than a base? Points of the two files paired
-- (points.point_key, leaving out what differs between the files as a whole: bulkbench.report.differs,
-- which the text names above each scenario's table), each point's median rows/s on both sides, the ratio candidate / base with
-- its distribution-free interval and the level that interval really has (stats.ratio_ci),
-- and a verdict: faster or slower only when an interval of 95% or more is clear of 1; with
-- fewer runs than that needs, "too few runs to tell".
-- Points it cannot pair make it fail (exit 4): a typo in a before/after must not pass in CI.
--   bulkbench report --compare BASE.jsonl CANDIDATE.jsonl [--fail-if-slower=PCT] [--format=...]
local core = require "bulkbench.core"
local results = require "bulkbench.report.results"
local points = require "bulkbench.report.points"
local tables = require "bulkbench.report.tables"
local stats = require "bulkbench.report.stats"
local chart = require "bulkbench.report.chart"
local differs = require "bulkbench.report.differs"
local M = {}

M.run_rates = points.run_rates

-- point key -> { result = its first result, rates = every run's rows/s }, and the keys in
-- file order; results of one point (a file appended to run after run) pool their runs; the
-- key leaves out the dimensions skip names (those the two files differ in as a whole)
local function pool(rs, skip)
  local by, order = {}, {}
  for _, r in ipairs(rs) do
    local k = points.point_key(r, skip)
    if not by[k] then by[k] = { result = r, rates = {} }; order[#order + 1] = k end
    if not r.error then -- a failed run's rate is no measure of the build
      for _, v in ipairs(points.run_rates(r)) do table.insert(by[k].rates, v) end
    end
  end
  return by, order
end

-- the verdict on one matched point: its ratio's interval against 1, when it is sure enough
function M.verdict(c)
  if #c.base == 0 or #c.cand == 0 then
    return ("n/a (no successful run in %s)"):format(#c.base == 0 and "base" or "candidate")
  end
  if #c.base == 1 and #c.cand == 1 then return "too few runs to tell (one run each: use --repeat)" end
  if not c.level or c.level < stats.LEVEL - 1e-12 then
    return ("too few runs to tell (%d and %d: %s sure at most; 4 a side reach %s)"):format(#c.base, #c.cand,
      stats.percent(c.level or 0), stats.percent(stats.LEVEL))
  end
  if c.lo > 1 then return "faster" end
  if c.hi < 1 then return "slower" end
  return "no difference"
end

-- the rows of one scenario's points (or of any results), paired on all but skip's dimensions
local function pair(base, cand, skip, rows, unmatched)
  local bp, border = pool(base, skip)
  local cp, corder = pool(cand, skip)
  for _, k in ipairs(border) do
    local row = { r = bp[k].result, base = bp[k].rates, cand = cp[k] and cp[k].rates }
    if not cp[k] then
      row.verdict = "unmatched: only in base"
      unmatched[#unmatched + 1] = row
    else
      local ci = stats.ratio_ci(row.base, row.cand)
      if ci then row.ratio, row.lo, row.hi, row.level = ci.ratio, ci.lo, ci.hi, ci.level end
      row.verdict = M.verdict(row)
      rows[#rows + 1] = row
    end
  end
  for _, k in ipairs(corder) do
    if not bp[k] then
      unmatched[#unmatched + 1] = { r = cp[k].result, cand = cp[k].rates, verdict = "unmatched: only in candidate" }
    end
  end
end

-- One row per point of either side, the surest regressions first (by the top of their
-- interval), then the rest by ratio, then the unmatched; r is the point's result for labels.
-- Each scenario's points pair across what differs between its results on the two sides as a
-- whole; the second value: scenario -> that difference (differs.between); the third: the
-- scenarios in the order met, base's first.
function M.match(base, cand)
  local rows, unmatched, diff, scenarios = {}, {}, {}, {}
  local border, bg = points.by_scenario(base)
  local corder, cg = points.by_scenario(cand)
  for _, order in ipairs { border, corder } do
    for _, s in ipairs(order) do
      if not diff[s] then
        scenarios[#scenarios + 1] = s
        diff[s] = differs.between(bg[s] or {}, cg[s] or {})
        pair(bg[s] or {}, cg[s] or {}, diff[s].skip, rows, unmatched)
      end
    end
  end
  local place = {}
  for i, row in ipairs(rows) do place[row] = i end
  table.sort(rows, function(a, b)
    if (a.ratio ~= nil) ~= (b.ratio ~= nil) then return a.ratio ~= nil end
    if a.ratio and a.ratio ~= b.ratio then return a.ratio < b.ratio end
    return place[a] < place[b]
  end)
  for _, row in ipairs(unmatched) do rows[#rows + 1] = row end
  return rows, diff, scenarios
end

-- The points that found no partner, as the failure that names them, or nil when all paired.
function M.unpaired(rows)
  local only = { base = {}, candidate = {} }
  for _, row in ipairs(rows) do
    local side = row.verdict:match("^unmatched: only in (%a+)")
    if side then table.insert(only[side], points.describe(row.r)) end
  end
  local n = #only.base + #only.candidate
  if n == 0 then return nil end
  local parts = {}
  for _, side in ipairs { "base", "candidate" } do
    if #only[side] > 0 then parts[#parts + 1] = ("only in %s: %s"):format(side, table.concat(only[side], "; ")) end
  end
  return ("%d point%s could not be paired (%s): a comparison pairs the points that differ only in what differs "
    .. "between the two files as a whole (a --set, a script option, a strategy, versions, server settings)")
    :format(n, n == 1 and "" or "s", table.concat(parts, "; "))
end

local function result_of(row) return row.r end

local function fixed(v, fmt) return v and (fmt or "%.3f"):format(v) or "-" end

local function median_of(rates) return rates and #rates > 0 and ("%.0f"):format(stats.median(rates)) or "-" end

-- CSV: every point's scenario and dimensions, for whoever reads it next
local function all_dims(rows)
  local dims, seen = { "scenario" }, {}
  for _, row in ipairs(rows) do
    for _, d in ipairs(points.point_dims(row.r)) do
      if not seen[d] then seen[d] = true; dims[#dims + 1] = d end
    end
  end
  return dims
end

local function results_of(rows)
  local rs = {}
  for i, row in ipairs(rows) do rs[i] = row.r end
  return rs
end

-- the verdict first, the point's dimensions (in a text table those that vary between a
-- scenario's points), then the figures
function M.columns(rows, fmt)
  local cols = {}
  local function add(h, f) cols[#cols + 1] = { h, f } end
  if fmt ~= "csv" then add("verdict", function(row) return row.verdict end) end
  local dims = fmt == "csv" and all_dims(rows) or points.split_dims(results_of(rows))
  for _, d in ipairs(dims) do
    add(points.dim_label(d), function(row) return tostring(points.dim_value(row.r, d) or "") end)
  end
  add("base rows/s", function(row) return median_of(row.base) end)
  add("base runs", function(row) return row.base and tostring(#row.base) or "-" end)
  add("cand rows/s", function(row) return median_of(row.cand) end)
  add("cand runs", function(row) return row.cand and tostring(#row.cand) or "-" end)
  add("ratio", function(row) return fixed(row.ratio) end)
  if fmt == "csv" then
    add("ci_lo", function(row) return fixed(row.lo) end)
    add("ci_hi", function(row) return fixed(row.hi) end)
    add("ci_level", function(row) return fixed(row.level, "%.4f") end)
    add("verdict", function(row) return row.verdict end)
  else
    add("interval", function(row)
      return (row.lo and #row.base * #row.cand > 1) and ("[%.3f, %.3f] (%s)"):format(row.lo, row.hi,
        stats.percent(row.level)) or "-"
    end)
  end
  return cols
end

-- the points slower by more than pct percent beyond doubt: their interval (at 95% or more)
-- tops out below 1 - pct/100
function M.too_slow(rows, pct)
  local limit, bad = 1 - pct / 100, {}
  for _, row in ipairs(rows) do
    if row.hi and row.level >= stats.LEVEL - 1e-12 and row.hi < limit then
      bad[#bad + 1] = ("%s is %.1f%% slower (ratio %.3f, %s interval [%.3f, %.3f])"):format(points.describe(row.r),
        (1 - row.ratio) * 100, row.ratio, stats.percent(row.level), row.lo, row.hi)
    end
  end
  if #bad == 0 then return nil end
  return ("--fail-if-slower=%g: %s"):format(pct, table.concat(bad, "; "))
end

M.RULE = "ratio = candidate / base median rows/s; its interval from the ratios of every base run to every "
  .. "candidate run (Mann-Whitney), with the level it holds; faster or slower only when an interval of "
  .. stats.percent(stats.LEVEL) .. " or more is clear of 1"

-- "what differs: synchronous_commit: on → off", and a warning when the scripts of the name differ
function M.differs_lines(d, s, base, cand)
  if #base == 0 or #cand == 0 then return ("what differs: the scenario is only in the %s"):format(#base == 0 and "candidate" or "base") end
  local out = { "what differs: " .. (#d.lines > 0 and table.concat(d.lines, "; ")
    or "nothing the results record (settings, script options, strategy, versions)") }
  local w = differs.script_warning(s, base, cand)
  if w then out[#out + 1] = "WARNING: " .. w end
  return table.concat(out, "\n")
end

-- the comparison as text: a table per scenario under lines saying what was compared and what
-- differs, or one CSV table with every point's dimensions
local function render(rows, diff, sides, paths, fmt)
  if fmt == "csv" then return tables.render(M.columns(rows, fmt), rows, fmt) .. "\n" end
  local out = { ("base %s, candidate %s: %s\n"):format(paths[1], paths[2], M.RULE) }
  local order, groups = points.by_scenario(rows, result_of)
  local _, bg = points.by_scenario(sides[1])
  local _, cg = points.by_scenario(sides[2])
  for _, s in ipairs(order) do
    out[#out + 1] = tables.heading(s .. ": " .. tables.group_title(results_of(groups[s]), "point", nil, diff[s].skip), fmt)
    out[#out + 1] = M.differs_lines(diff[s], s, bg[s] or {}, cg[s] or {}) .. (fmt == "markdown" and "\n" or "")
    out[#out + 1] = tables.render(M.columns(groups[s], fmt), groups[s], fmt)
    out[#out + 1] = ""
  end
  return table.concat(out, "\n")
end

-- ---- chart (the HTML report's) ----

M.VERDICT_COLOR = { faster = "#2ca02c", slower = "#d62728", ["no difference"] = "#1f77b4" }
M.OTHER_COLOR = "#ff7f0e" -- too few runs, n/a and unmatched

-- "faster", "slower", "no difference" or "n/a" (no verdict: too few runs, unmatched...)
function M.verdict_class(v) return M.VERDICT_COLOR[v] and v or "n/a" end

-- Each matched point's ratio (a marker, numbered as its row) with its interval (a whisker),
-- coloured by verdict, over a dashed line at 1 (no change), in one size. Returns the SVG
-- and its text alternative.
function M.svg(rows, size, class)
  local body = {}
  local by, order, lo, hi, n = {}, {}, math.huge, 0, 0
  for i, row in ipairs(rows) do
    if row.ratio then
      local v = M.verdict_class(row.verdict)
      if not by[v] then by[v] = {}; order[#order + 1] = v end
      table.insert(by[v], { x = i, y = row.ratio, lo = row.lo, hi = row.hi, row = row })
      lo, hi, n = math.min(lo, row.lo or row.ratio, 1), math.max(hi, row.hi or row.ratio, 1), n + 1
    end
  end
  local p = { x0 = 0, y0 = 0, size = size or chart.WIDE, title = "candidate / base rows/s by point", series = {},
              empty = "no point ran on both sides",
              tip = function(name, q)
                return ("#%d %s: ratio %.3f%s, %s"):format(q.x, points.describe(q.row.r), q.y,
                  q.lo and (" [%.3f, %.3f] (%s)"):format(q.lo, q.hi, stats.percent(q.row.level)) or "", q.row.verdict)
              end }
  for _, v in ipairs(order) do
    p.series[#p.series + 1] = { name = v, points = by[v], line = false, color = M.VERDICT_COLOR[v] or M.OTHER_COLOR }
  end
  if n > 0 then
    local log = hi / lo >= 4
    p.x = { lo = 1, hi = math.max(#rows, 2), ticks = {}, label = "point (numbered as in the table)",
            fmt = function(x) return ("#%d"):format(x) end }
    for i = 1, #rows do p.x.ticks[i] = i end
    p.y = log and chart.decade_axis(lo, hi) or chart.nice_axis(math.max(0, lo - 0.05), hi + 0.05)
    p.y.fmt = function(v) return ("%g×"):format(tonumber(("%.3g"):format(v))) end
    p.y.label = "candidate / base" .. (log and " (log scale)" or "")
  end
  local fx, fy = chart.panel(body, p)
  if fx then
    chart.clipped(body, p, { ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333" stroke-dasharray="4 4"/>')
      :format(fx(p.x.lo) - 20, fy(1), fx(p.x.hi) + 20, fy(1)) })
  end
  local desc = chart.summary(p)
  return chart.document(p.size.W, p.size.H, body, { title = p.title, desc = desc }, class), desc, p
end

function M.main(paths, opts)
  if #paths ~= 2 then
    core.usage_error(("--compare takes two results files, BASE then CANDIDATE; got %d"):format(#paths))
  end
  if opts.svg then core.usage_error("--compare draws no chart: --svg goes with the tables, --timeline or --cdf") end
  local usage = "bulkbench report --compare BASE.jsonl CANDIDATE.jsonl"
  local sides = { results.read({ paths[1] }, usage), results.read({ paths[2] }, usage) }
  local rows, diff = M.match(sides[1], sides[2])
  local text = render(rows, diff, sides, paths, opts.format or "text")
  local why = M.unpaired(rows) or (opts.fail_if_slower and M.too_slow(rows, opts.fail_if_slower))
  if why then return text, 4, why end -- BB_EXIT_THRESHOLD
  return text, 0
end

return M
