-- bulkbench.compare: is a candidate faster than a base? Points of the two files matched
-- (report.point_key), each point's median rows/s on both sides, the ratio candidate / base
-- with its 95% bootstrap interval over the runs, and a verdict.
--   bulkbench report --compare BASE.jsonl CANDIDATE.jsonl [--fail-if-slower=PCT] [--format=...]
local core = require "bulkbench.core"
local report = require "bulkbench.report"
local stats = require "bulkbench.stats"
local chart = require "bulkbench.chart"
local M = {}

-- rows/s of each run a result holds: its runs (--repeat), else itself as one run
function M.run_rates(r)
  local rates = {}
  for _, run in ipairs(type(r.runs) == "table" and r.runs or {}) do
    if type(run.rows_per_s) == "number" then rates[#rates + 1] = run.rows_per_s end
  end
  if #rates == 0 and type(r.rows_per_s) == "number" then rates[1] = r.rows_per_s end
  return rates
end

-- point key -> { result = its first result, rates = every run's rows/s }, and the keys in
-- file order; results of one point (a file appended to run after run) pool their runs
local function points(results)
  local by, order = {}, {}
  for _, r in ipairs(results) do
    local k = report.point_key(r)
    if not by[k] then by[k] = { result = r, rates = {} }; order[#order + 1] = k end
    if not r.error then -- a failed run's rate is no measure of the build
      for _, v in ipairs(M.run_rates(r)) do table.insert(by[k].rates, v) end
    end
  end
  return by, order
end

-- the verdict on one matched point: its ratio's interval against 1
function M.verdict(c)
  if #c.base == 0 or #c.cand == 0 then
    return ("n/a (no successful run in %s)"):format(#c.base == 0 and "base" or "candidate")
  end
  if not c.lo then return "n/a (one run each: use --repeat)" end
  if c.lo > 1 then return "faster" end
  if c.hi < 1 then return "slower" end
  return "no difference"
end

-- one row per point of either side, base order first; r is the point's result for labels
function M.match(base, cand)
  local bp, border = points(base)
  local cp, corder = points(cand)
  local rows = {}
  for _, k in ipairs(border) do
    local row = { r = bp[k].result, base = bp[k].rates, cand = cp[k] and cp[k].rates }
    if not cp[k] then row.verdict = "unmatched: only in base"
    elseif #row.base > 0 and #row.cand > 0 then
      row.ratio, row.lo, row.hi = stats.ratio_interval(row.base, row.cand)
    end
    row.verdict = row.verdict or M.verdict(row)
    rows[#rows + 1] = row
  end
  for _, k in ipairs(corder) do
    if not bp[k] then
      rows[#rows + 1] = { r = cp[k].result, cand = cp[k].rates, verdict = "unmatched: only in candidate" }
    end
  end
  return rows
end

local function result_of(row) return row.r end

local function fixed(v, fmt) return v and (fmt or "%.3f"):format(v) or "-" end

local function median_of(rates) return rates and #rates > 0 and ("%.0f"):format(stats.median(rates)) or "-" end

-- CSV: every point's scenario and dimensions, for whoever reads it next
local function all_dims(rows)
  local dims, seen = { "scenario" }, {}
  for _, row in ipairs(rows) do
    for _, d in ipairs(report.point_dims(row.r)) do
      if not seen[d] then seen[d] = true; dims[#dims + 1] = d end
    end
  end
  return dims
end

-- the point's dimensions (in a text table those that vary between a scenario's points),
-- then the comparison
function M.columns(rows, fmt)
  local cols = {}
  local dims = fmt == "csv" and all_dims(rows) or report.split_dims(report.results_of(rows, result_of))
  for _, d in ipairs(dims) do
    cols[#cols + 1] = { report.dim_label(d), function(row) return tostring(report.dim_value(row.r, d) or "") end }
  end
  local function add(h, f) cols[#cols + 1] = { h, f } end
  add("base rows/s", function(row) return median_of(row.base) end)
  add("base runs", function(row) return row.base and tostring(#row.base) or "-" end)
  add("cand rows/s", function(row) return median_of(row.cand) end)
  add("cand runs", function(row) return row.cand and tostring(#row.cand) or "-" end)
  add("ratio", function(row) return fixed(row.ratio) end)
  if fmt == "csv" then
    add("ci95_lo", function(row) return fixed(row.lo) end)
    add("ci95_hi", function(row) return fixed(row.hi) end)
  else
    add("95% interval", function(row) return row.lo and ("[%.3f, %.3f]"):format(row.lo, row.hi) or "-" end)
  end
  add("verdict", function(row) return row.verdict end)
  return cols
end

-- the points slower by more than pct percent beyond doubt: their interval's top below 1 - pct/100
function M.too_slow(rows, pct)
  local limit, bad = 1 - pct / 100, {}
  for _, row in ipairs(rows) do
    if row.hi and row.hi < limit then
      bad[#bad + 1] = ("%s is %.1f%% slower (ratio %.3f, 95%% interval [%.3f, %.3f])"):format(report.describe(row.r),
        (1 - row.ratio) * 100, row.ratio, row.lo, row.hi)
    end
  end
  if #bad == 0 then return nil end
  return ("--fail-if-slower=%g: %s"):format(pct, table.concat(bad, "; "))
end

-- the comparison as text: a table per scenario under a line saying what was compared, or
-- one CSV table with every point's dimensions
local function render(rows, paths, fmt)
  if fmt == "csv" then return report.render(M.columns(rows, fmt), rows, fmt) .. "\n" end
  return ("base %s, candidate %s: ratio = candidate / base median rows/s, 95%% bootstrap interval (%d resamples)\n\n")
    :format(paths[1], paths[2], stats.RESAMPLES)
    .. report.by_scenario_tables(rows, fmt, "point", function(rs) return M.columns(rs, fmt), rs, fmt end, result_of)
end

-- ---- chart (the HTML report's) ----

M.VERDICT_COLOR = { faster = "#2ca02c", slower = "#d62728", ["no difference"] = "#1f77b4" }
M.OTHER_COLOR = "#ff7f0e" -- n/a and unmatched

-- "faster", "slower", "no difference" or "n/a" (no verdict: one run each, unmatched...)
function M.verdict_class(v) return M.VERDICT_COLOR[v] and v or "n/a" end

-- Each matched point's ratio (a marker, numbered as its row) with its 95% interval (a
-- whisker), coloured by verdict, over a dashed line at 1 (no change). Returns the SVG and
-- its text alternative.
function M.svg(rows)
  local W, H, body = 1000, 380, {}
  local by, order, lo, hi, n = {}, {}, math.huge, 0, 0
  for i, row in ipairs(rows) do
    if row.ratio then
      local v = M.verdict_class(row.verdict)
      if not by[v] then by[v] = {}; order[#order + 1] = v end
      table.insert(by[v], { x = i, y = row.ratio, lo = row.lo, hi = row.hi, row = row })
      lo, hi, n = math.min(lo, row.lo or row.ratio, 1), math.max(hi, row.hi or row.ratio, 1), n + 1
    end
  end
  local p = { x0 = 0, y0 = 0, W = W, H = H, title = "candidate / base rows/s by point", series = {},
              empty = "no point ran on both sides",
              tip = function(name, q)
                return ("#%d %s: ratio %.3f%s, %s"):format(q.x, report.describe(q.row.r), q.y,
                  q.lo and (" [%.3f, %.3f]"):format(q.lo, q.hi) or "", name)
              end }
  for _, v in ipairs(order) do
    p.series[#p.series + 1] = { name = v, points = by[v], line = false, color = M.VERDICT_COLOR[v] or M.OTHER_COLOR }
  end
  if n > 0 then
    local log = hi / lo >= 4
    local varying = report.split_dims(report.results_of(rows, result_of))
    p.x = { lo = 0.5, hi = #rows + 0.5, ticks = {}, label = "point", slant = 80,
            fmt = function(x) return ("#%d %s"):format(x, report.label(rows[x].r, varying) or "") end }
    for i = 1, #rows do p.x.ticks[i] = i end
    p.y = log and chart.decade_axis(lo, hi) or chart.nice_axis(math.max(0, lo - 0.05), hi + 0.05)
    p.y.fmt = function(v) return ("%g×"):format(tonumber(("%.3g"):format(v))) end
    p.y.label = "candidate / base (ratio of medians" .. (log and ", log scale)" or ")")
  end
  local fx, fy = chart.panel(body, p)
  if fx then
    body[#body + 1] = ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333" stroke-dasharray="4 4"/>')
      :format(fx(p.x.lo), fy(1), fx(p.x.hi), fy(1))
  end
  local desc = chart.summary(p)
  return chart.document(W, H, body, { title = p.title, desc = desc }), desc
end

function M.main(paths, opts)
  if #paths ~= 2 then
    core.usage_error(("--compare takes two results files, BASE then CANDIDATE; got %d"):format(#paths))
  end
  if opts.svg then core.usage_error("--compare draws no chart: --svg goes with the tables, --timeline or --cdf") end
  local usage = "bulkbench report --compare BASE.jsonl CANDIDATE.jsonl"
  local rows = M.match(report.results({ paths[1] }, usage), report.results({ paths[2] }, usage))
  local text = render(rows, paths, opts.format or "text")
  local why = opts.fail_if_slower and M.too_slow(rows, opts.fail_if_slower)
  if why then return text, 4, why end -- BB_EXIT_THRESHOLD
  return text, 0
end

return M
