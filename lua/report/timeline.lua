-- bulkbench.report.timeline: rows/s and p99 over time, a line per run (a result's intervals, or
-- each of its runs' under --repeat), and the stalls: intervals that loaded under half what
-- the run's median rate gives their length, beyond what its batch cadence explains (a batch
-- per thread may commit just after an interval ends), its first interval (start-up) aside.
--   bulkbench report --timeline RESULTS.jsonl [--svg=FILE] [--log] [--format=...]
local results = require "bulkbench.report.results"
local points = require "bulkbench.report.points"
local tables = require "bulkbench.report.tables"
local chart = require "bulkbench.report.chart"
local stats = require "bulkbench.report.stats"
local M = {}

M.STALL = 0.5 -- an interval below this fraction of its run's median rate is a stall
M.RUNS_MAX = 20 -- runs drawn in one chart (those with stalls first)
M.POINTS_MAX = 400 -- points a run's line keeps: longer runs are drawn in merged intervals
M.STALLS_MAX = 100 -- stalls ringed on a chart and listed on a page

local function has_intervals(t) return type(t) == "table" and #t > 0 end

-- The runs with intervals: { label, result, intervals }, and the results without any.
function M.runs(rs)
  local timed = {} -- named by what varies between the results with intervals, not all of them
  for _, r in ipairs(rs) do
    local any = has_intervals(r.intervals)
    for _, run in ipairs(type(r.runs) == "table" and r.runs or {}) do any = any or has_intervals(run.intervals) end
    if any then timed[#timed + 1] = r end
  end
  local label_of = points.labeller(#timed > 0 and timed or rs)
  local runs, skipped = {}, {}
  for _, r in ipairs(rs) do
    local label = label_of(r)
    local found = false
    for i, run in ipairs(type(r.runs) == "table" and r.runs or {}) do
      if has_intervals(run.intervals) then
        runs[#runs + 1] = { label = ("%s run %d/%d"):format(label, i, #r.runs), result = r, intervals = run.intervals,
                            nth = ("%d/%d"):format(i, #r.runs) }
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

-- The rows one commit adds across the run's threads: an interval may miss that many rows that
-- land in the next one. 0 for a whole stream (batch 0) or an unknown batch.
function M.lump(r)
  local b, t = tonumber(r.batch), tonumber(r.threads) or 1
  return (b and b > 0) and b * math.max(1, t) or 0
end

-- A run's median interval rate and its stalls: { run, t, rows_per_s, median }.
function M.stalls(run)
  local rates = {}
  for _, iv in ipairs(run.intervals) do rates[#rates + 1] = rate(iv) end
  run.median = stats.median(rates)
  local found, lump, prev = {}, M.lump(run.result or {}), 0
  for i, iv in ipairs(run.intervals) do
    local t = type(iv.t) == "number" and iv.t or nil
    if t and rate(iv) and i > 1 and run.median then
      local dt = t - prev
      local rows = type(iv.rows) == "number" and iv.rows or rate(iv) * dt
      if rate(iv) < M.STALL * run.median and rows < M.STALL * run.median * dt - lump then
        found[#found + 1] = { run = run, t = t, rows_per_s = iv.rows_per_s, median = run.median }
      end
    end
    prev = t or prev
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
  { "stalls", function(run) return tostring(#run.stalls) end },
  { "intervals", function(run) return tostring(#run.intervals) end },
  { "seconds", function(run) return num(run.intervals[#run.intervals].t, "%.2f") end },
  { "median rows/s", function(run) return num(run.median) end },
  { "min rows/s", function(run) return num(extreme(run.intervals, "rows_per_s", math.min)) end },
  { "max p99 ms", function(run) return num(extreme(run.intervals, "p99_ms", math.max), "%.3f") end },
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

M.RULE = ("an interval under %g of its run's median rows/s, beyond one batch per thread, after the first"):format(M.STALL)

function M.skipped_line(r) return points.describe(r) .. ": no intervals" end

function M.text(runs, stalls, skipped, fmt)
  local out = {}
  tables.section(out, ("timeline: %d run%s with intervals"):format(#runs, #runs == 1 and "" or "s"), M.RUN_COLS, runs, fmt)
  tables.section(out, ("stalls (%s): %d"):format(M.RULE, #stalls), M.STALL_COLS, stalls, fmt)
  tables.skipped(out, skipped, M.skipped_line, fmt)
  return table.concat(out, "\n")
end

-- a run's points of field over time, at most POINTS_MAX: consecutive intervals merged (rows/s
-- over their time, the highest p99) when there are more
local function run_points(run, field, positive)
  local ivs, pts = run.intervals, {}
  local k = math.ceil(#ivs / M.POINTS_MAX)
  for i = 1, #ivs, k do
    local rows, dt, top, t, prev = 0, 0, nil, nil, i > 1 and ivs[i - 1].t or 0
    for j = i, math.min(#ivs, i + k - 1) do
      local iv = ivs[j]
      if type(iv.t) == "number" then
        local d = iv.t - (type(prev) == "number" and prev or 0)
        if type(iv.rows_per_s) == "number" then rows, dt = rows + iv.rows_per_s * d, dt + d end
        if type(iv[field]) == "number" then top = top and math.max(top, iv[field]) or iv[field] end
        t, prev = iv.t, iv.t
      end
    end
    local v = field == "rows_per_s" and (k == 1 and ivs[i].rows_per_s or (dt > 0 and rows / dt or nil)) or top
    if t and type(v) == "number" and (v > 0 or not positive) then pts[#pts + 1] = { x = t, y = v } end
  end
  return pts
end

-- the runs a chart draws: those with stalls first, RUNS_MAX at most
local function drawn(runs)
  local order = {}
  for i, run in ipairs(runs) do order[i] = run end
  table.sort(order, function(a, b)
    if #a.stalls ~= #b.stalls then return #a.stalls > #b.stalls end
    return a.index < b.index
  end)
  for i = #order, M.RUNS_MAX + 1, -1 do order[i] = nil end
  return order
end

-- the series of one field over time, a line per run
local function series(runs, field, positive)
  local out, lo, hi, tmax = {}, math.huge, 0, 0
  for _, run in ipairs(runs) do
    local pts = run_points(run, field, positive)
    for _, q in ipairs(pts) do lo, hi, tmax = math.min(lo, q.y), math.max(hi, q.y), math.max(tmax, q.x) end
    out[#out + 1] = { name = run.label, points = pts }
  end
  return out, lo, hi, tmax
end

-- a panel of field over time; log: a log-scaled y axis when the values allow it
local function time_panel(body, runs, field, p, log)
  local s, lo, hi, tmax = series(runs, field, log)
  p.series = s
  if hi > 0 then
    p.x = chart.nice_axis(0, tmax, p.size == chart.NARROW and 4 or 8)
    p.x.label = "seconds since the measured start"
    p.y = log and chart.decade_axis(lo, hi) or chart.nice_axis(0, hi * 1.05, 4)
    p.y.label = p.ylabel .. (log and " (log scale)" or "")
  end
  local fx, fy = chart.panel(body, p)
  return fx, fy, p
end

-- The chart in one size: rows/s over the p99 panel, stalls ringed; file = true draws the
-- legend and the stall lines into the SVG (a page gives them in HTML). Returns the SVG, its
-- legend items and its text alternative.
function M.svg(runs, stalls, skipped, opts, size, class, file)
  size = size or chart.WIDE
  if file == nil then file = true end
  for i, run in ipairs(runs) do run.index = i end
  local shown = drawn(runs)
  local H, body = size.H, {}
  local fx, fy, p = time_panel(body, shown, "rows_per_s", { x0 = 0, y0 = 0, size = size, title = "rows/s over time",
    ylabel = "rows/s", empty = "no result has intervals" }, opts.log)
  local rings, on = {}, {}
  for _, run in ipairs(shown) do on[run] = true end
  for _, s in ipairs(stalls) do -- a ring round each stall of a drawn run
    if fx and on[s.run] and #rings < M.STALLS_MAX and (not opts.log or s.rows_per_s > 0) then
      rings[#rings + 1] = ('<circle cx="%.1f" cy="%.1f" r="7" fill="none" stroke="#d62728" stroke-width="2">'
        .. '<title>stall: %s</title></circle>'):format(fx(s.t), fy(s.rows_per_s), chart.esc(stall_line(s)))
    end
  end
  chart.clipped(body, p, rings)
  local _, lo, hi = series(shown, "p99_ms", true)
  time_panel(body, shown, "p99_ms", { x0 = 0, y0 = H, size = size, title = "p99 latency over time", ylabel = "p99 ms",
    empty = "no interval has a p99" }, hi > 0 and hi / lo >= 50)
  local items, h = chart.legend_items(p), 2 * H
  local lines = { ("stalls (%s): %s"):format(M.RULE, #stalls == 0 and "none" or tostring(#stalls)) }
  for i, s in ipairs(stalls) do
    if i > 30 then lines[#lines + 1] = ("  and %d more"):format(#stalls - 30); break end
    lines[#lines + 1] = "  " .. stall_line(s)
  end
  for _, r in ipairs(skipped) do lines[#lines + 1] = "skipped " .. M.skipped_line(r) end
  if file then
    h = h + chart.legend(body, items, 0, h, size.W, size)
    for i, line in ipairs(lines) do
      local style = ('font-size="%d"%s'):format(size.tick, i == 1 and ' font-weight="bold"' or "")
      chart.text(body, 8, h + 18 * i, chart.fit(line, size.W - 16, size.tick), style)
    end
    h = h + 18 * #lines + 12
  end
  local more = #runs > #shown and (" %d of %d runs drawn, those with stalls first."):format(#shown, #runs) or ""
  local desc = M.describe(shown, lines) .. more
  return chart.document(size.W, h, body, { title = "rows/s and p99 latency over time", desc = desc }, class), items, desc
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
function M.analyse(rs)
  local runs, skipped = M.runs(rs)
  local found = {}
  for _, run in ipairs(runs) do
    run.stalls = M.stalls(run)
    for _, s in ipairs(run.stalls) do found[#found + 1] = s end
  end
  return runs, found, skipped
end

function M.main(paths, opts)
  local rs = results.read(paths, "bulkbench report --timeline RESULTS.jsonl [--svg=FILE]")
  local runs, found, skipped = M.analyse(rs)
  if opts.svg then chart.write(opts.svg, (M.svg(runs, found, skipped, opts))) end
  return M.text(runs, found, skipped, opts.format or "text"), 0
end

return M
