-- bulkbench.compare: is a candidate faster than a base? Points of the two files matched
-- (report.point_key), each point's median rows/s on both sides, the ratio candidate / base
-- with its 95% bootstrap interval over the runs, and a verdict.
--   bulkbench report --compare BASE.jsonl CANDIDATE.jsonl [--fail-if-slower=PCT] [--format=...]
local core = require "bulkbench.core"
local report = require "bulkbench.report"
local stats = require "bulkbench.stats"
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
local function match(base, cand)
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
local function columns(rows, fmt)
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
  if fmt == "csv" then return report.render(columns(rows, fmt), rows, fmt) .. "\n" end
  return ("base %s, candidate %s: ratio = candidate / base median rows/s, 95%% bootstrap interval (%d resamples)\n\n")
    :format(paths[1], paths[2], stats.RESAMPLES)
    .. report.by_scenario_tables(rows, fmt, "point", function(rs) return columns(rs, fmt), rs, fmt end, result_of)
end

function M.main(paths, opts)
  if #paths ~= 2 then
    core.usage_error(("--compare takes two results files, BASE then CANDIDATE; got %d"):format(#paths))
  end
  if opts.svg then core.usage_error("--compare draws no chart: --svg goes with the tables, --timeline or --cdf") end
  local usage = "bulkbench report --compare BASE.jsonl CANDIDATE.jsonl"
  local rows = match(report.results({ paths[1] }, usage), report.results({ paths[2] }, usage))
  local text = render(rows, paths, opts.format or "text")
  local why = opts.fail_if_slower and M.too_slow(rows, opts.fail_if_slower)
  if why then return text, 4, why end -- BB_EXIT_THRESHOLD
  return text, 0
end

return M
