-- bulkbench.timeline: rows/s and p99 over time, a line per run (a result's intervals, or
-- each of its runs' under --repeat), and the stalls: intervals under half their run's
-- median interval rate.
--   bulkbench report --timeline RESULTS.jsonl [--svg=FILE] [--log] [--format=...]
local report = require "bulkbench.report"
local chart = require "bulkbench.chart"
local stats = require "bulkbench.stats"
local M = {}

M.STALL = 0.5 -- an interval below this fraction of its run's median rate is a stall

local function has_intervals(t) return type(t) == "table" and #t > 0 end

-- The runs with intervals: { label, result, intervals }, and the results without any.
function M.runs(results)
  local label_of = report.labeller(results)
  local runs, skipped = {}, {}
  for _, r in ipairs(results) do
    local label = label_of(r)
    local found = false
    for i, run in ipairs(type(r.runs) == "table" and r.runs or {}) do
      if has_intervals(run.intervals) then
        runs[#runs + 1] = { label = ("%s run %d/%d"):format(label, i, #r.runs), result = r, intervals = run.intervals }
        found = true
      end
    end
    if not found and has_intervals(r.intervals) then
      runs[#runs + 1] = { label = label, result = r, intervals = r.intervals }
      found = true
    end
    if not found then skipped[#skipped + 1] = r end
  end
  return runs, skipped
end

local function rate(iv) return type(iv.rows_per_s) == "number" and iv.rows_per_s or nil end

-- A run's median interval rate and its stalls: { run, t, rows_per_s, median }.
function M.stalls(run)
  local rates = {}
  for _, iv in ipairs(run.intervals) do rates[#rates + 1] = rate(iv) end
  run.median = stats.median(rates)
  local found = {}
  for _, iv in ipairs(run.intervals) do
    if rate(iv) and type(iv.t) == "number" and rate(iv) < M.STALL * run.median then
      found[#found + 1] = { run = run, t = iv.t, rows_per_s = iv.rows_per_s, median = run.median }
    end
  end
  return found
end

local function num(v, fmt) return type(v) == "number" and (fmt or "%.0f"):format(v) or "null" end

local function extreme(intervals, field, pick)
  local best
  for _, iv in ipairs(intervals) do
    if type(iv[field]) == "number" then best = best and pick(best, iv[field]) or iv[field] end
  end
  return best
end

M.RUN_COLS = {
  { "run", function(run) return run.label end },
  { "intervals", function(run) return tostring(#run.intervals) end },
  { "seconds", function(run) return num(run.intervals[#run.intervals].t, "%.2f") end },
  { "median rows/s", function(run) return num(run.median) end },
  { "min rows/s", function(run) return num(extreme(run.intervals, "rows_per_s", math.min)) end },
  { "max p99 ms", function(run) return num(extreme(run.intervals, "p99_ms", math.max), "%.3f") end },
  { "stalls", function(run) return tostring(#run.stalls) end },
}

M.STALL_COLS = {
  { "run", function(s) return s.run.label end },
  { "at s", function(s) return num(s.t, "%.2f") end },
  { "rows/s", function(s) return num(s.rows_per_s) end },
  { "run median", function(s) return num(s.median) end },
  { "fraction", function(s) return ("%.2f"):format(s.rows_per_s / s.median) end },
}

-- one line per stall, for the text under the chart
local function stall_line(s)
  return ("%s: at %.2f s, %.0f rows/s (%.2f of its median %.0f)"):format(s.run.label, s.t, s.rows_per_s,
    s.rows_per_s / s.median, s.median)
end

function M.skipped_line(r) return report.describe(r) .. ": no intervals" end

function M.text(runs, stalls, skipped, fmt)
  local out = {}
  report.section(out, ("timeline: %d run%s with intervals"):format(#runs, #runs == 1 and "" or "s"), M.RUN_COLS, runs, fmt)
  report.section(out, ("stalls (an interval under %g of its run's median rows/s): %d"):format(M.STALL, #stalls),
    M.STALL_COLS, stalls, fmt)
  report.skipped(out, skipped, M.skipped_line, fmt)
  return table.concat(out, "\n")
end

-- the series of one field over time, a line per run
local function series(runs, field, positive)
  local out, lo, hi, tmax = {}, math.huge, 0, 0
  for _, run in ipairs(runs) do
    local pts = {}
    for _, iv in ipairs(run.intervals) do
      local v = iv[field]
      if type(iv.t) == "number" and type(v) == "number" and (v > 0 or not positive) then
        pts[#pts + 1] = { x = iv.t, y = v }
        lo, hi, tmax = math.min(lo, v), math.max(hi, v), math.max(tmax, iv.t)
      end
    end
    out[#out + 1] = { name = run.label, points = pts }
  end
  return out, lo, hi, tmax
end

-- a panel of field over time; log: a log-scaled y axis when the values allow it
local function time_panel(body, runs, field, p, log)
  local s, lo, hi, tmax = series(runs, field, log)
  p.series = s
  if hi > 0 then
    p.x = chart.nice_axis(0, tmax, 8)
    p.x.label = "seconds since the measured start"
    p.y = log and chart.decade_axis(lo, hi) or chart.nice_axis(0, hi * 1.05)
    p.y.label = p.ylabel .. (log and " (log scale)" or "")
  end
  return chart.panel(body, p)
end

function M.svg(runs, stalls, skipped, opts)
  local W, H, body = 1000, 340, {}
  local fx, fy = time_panel(body, runs, "rows_per_s", { x0 = 0, y0 = 0, W = W, H = H, title = "rows/s over time",
    ylabel = "rows/s", empty = "no result has intervals" }, opts.log)
  for _, s in ipairs(stalls) do -- a ring round each stall
    if fx and (not opts.log or s.rows_per_s > 0) then
      body[#body + 1] = ('<circle cx="%.1f" cy="%.1f" r="7" fill="none" stroke="#d62728" stroke-width="2">'
        .. '<title>stall: %s</title></circle>'):format(fx(s.t), fy(s.rows_per_s), chart.esc(stall_line(s)))
    end
  end
  local _, lo, hi = series(runs, "p99_ms", true)
  time_panel(body, runs, "p99_ms", { x0 = 0, y0 = H, W = W, H = H, title = "p99 latency over time", ylabel = "p99 ms",
    legend = false, empty = "no interval has a p99" }, hi > 0 and hi / lo >= 50)
  local lines = { ("stalls (an interval under %g of its run's median rows/s): %s"):format(M.STALL,
    #stalls == 0 and "none" or tostring(#stalls)) }
  for _, s in ipairs(stalls) do lines[#lines + 1] = "  " .. stall_line(s) end
  for _, r in ipairs(skipped) do lines[#lines + 1] = "skipped " .. M.skipped_line(r) end
  for i, line in ipairs(lines) do
    local style = i == 1 and 'font-size="13" font-weight="bold"' or 'font-size="12"'
    chart.text(body, chart.MARGIN.L, 2 * H + 4 + 18 * i, line, style)
  end
  return chart.document(W, 2 * H + 18 * #lines + 24, body, { title = "rows/s and p99 latency over time",
    desc = M.describe(runs, lines) })
end

-- the chart as text: each run's median and lowest interval rate, then the stall lines
function M.describe(runs, lines)
  local parts = { ("%d run%s with intervals."):format(#runs, #runs == 1 and "" or "s") }
  for _, run in ipairs(runs) do
    parts[#parts + 1] = ("%s: %d intervals over %s s, median %s rows/s, lowest %s rows/s."):format(run.label,
      #run.intervals, num(run.intervals[#run.intervals].t, "%.1f"), num(run.median),
      num(extreme(run.intervals, "rows_per_s", math.min)))
  end
  for _, line in ipairs(lines) do parts[#parts + 1] = (line:gsub("^%s+", "")) end
  return table.concat(parts, " ")
end

-- The runs with intervals, each with its stalls; every stall; the results without intervals.
function M.analyse(results)
  local runs, skipped = M.runs(results)
  local stalls = {}
  for _, run in ipairs(runs) do
    run.stalls = M.stalls(run)
    for _, s in ipairs(run.stalls) do stalls[#stalls + 1] = s end
  end
  return runs, stalls, skipped
end

function M.main(paths, opts)
  local results = report.results(paths, "bulkbench report --timeline RESULTS.jsonl [--svg=FILE]")
  local runs, stalls, skipped = M.analyse(results)
  if opts.svg then chart.write(opts.svg, M.svg(runs, stalls, skipped, opts)) end
  return M.text(runs, stalls, skipped, opts.format or "text"), 0
end

return M
