-- bulkbench.report.sweep: one scenario's points as a table (fastest first, the deciding column first)
-- and a chart: rows/s against the dimension that draws the longest lines (batch or threads),
-- a line per combination of the others, each point's interval a whisker; a dot chart when no
-- such dimension varies (a comparison of methods). Batch 0, a whole stream, sits past the
-- largest batch behind a break in the axis, not joined to the line. Also the warnings the
-- command line printed for the runs (their spread, an outlier) and every failure's error.
local stats = require "bulkbench.report.stats"
local points = require "bulkbench.report.points"
local chart = require "bulkbench.report.chart"
local tables = require "bulkbench.report.tables"
local verdict = require "bulkbench.report.verdict"
local waits = require "bulkbench.report.waits"
local M = {}

M.SERIES_MAX = 30 -- lines drawn in one chart; the rest are counted in the caption
M.DOTS_MAX = 40 -- rows of a dot chart: the fastest
M.POINTS_MAX = 400 -- points a line draws; of more, evenly spaced ones and its best

local function num(v, fmt)
  if type(v) ~= "number" then return "null" end
  return (fmt or "%.0f"):format(v)
end

local function mb(v) return type(v) == "number" and v / 1e6 or nil end

local function metric_names(rs)
  local names, seen = {}, {}
  for _, r in ipairs(rs) do
    for k in pairs(type(r.metrics) == "table" and r.metrics or {}) do
      if not seen[k] then seen[k] = true; names[#names + 1] = k end
    end
  end
  table.sort(names)
  return names
end

local function any_bottleneck(pts)
  for _, p in ipairs(pts) do if waits.bottleneck(p) then return true end end
  return false
end

local function any_runs(pts)
  for _, p in ipairs(pts) do if (p.n or 0) > 1 then return true end end
  return false
end

-- "375364-578866 (75%)": a point's interval with its level
function M.interval_cell(p)
  if not p.median or p.n < 2 then return "-" end
  return ("%.0f-%.0f (%s)"):format(p.lo, p.hi, stats.percent(p.level))
end

-- the columns of one scenario's table of points: { header, function(point) -> text }
function M.columns(pts)
  local rs = points.results_of(pts)
  local varying = points.split_dims(rs)
  local best = 0
  for _, p in ipairs(pts) do best = math.max(best, p.median or 0) end
  local cols = {}
  local function add(h, f) cols[#cols + 1] = { h, f } end
  add("vs best", function(p) -- the deciding column, first
    if not p.median then return "FAILED" end
    return best > 0 and ("%.2f"):format(p.median / best) or "null"
  end)
  for _, d in ipairs(varying) do
    add(points.dim_label(d), function(p) return tostring(points.dim_value(p.r, d) or "-") end)
  end
  add("rows/s", function(p) return num(p.median) end)
  if any_runs(pts) then -- the interval of the median, how many runs, how far they spread
    add("interval", M.interval_cell)
    add("runs", function(p) return tostring(p.n) .. (#p.failed > 0 and ("+" .. #p.failed .. " failed") or "") end)
    add("cv %", function(p) return num(p.cv and p.cv * 100, "%.1f") end)
  end
  if any_bottleneck(pts) then -- what bounds each point (docs/diagnosis.md): the kind its runs named most
    add("bottleneck", function(p) local b = waits.bottleneck(p); return b and b.kind or "-" end)
  end
  local function field(h, get, fmt) add(h, function(p) return num(points.field(p, get), fmt) end) end
  field("rows", function(r) return r.rows end)
  field("seconds", function(r) return r.seconds end, "%.3f")
  field("MB/s", function(r) return r.mb_per_s end, "%.2f")
  field("p95 ms", function(r) return type(r.latency_ms) == "table" and r.latency_ms.p95 end, "%.3f")
  field("client cpu s", function(r) return r.client_cpu_s end, "%.2f")
  field("server cpu s", function(r) return type(r.server) == "table" and r.server.cpu_s end, "%.2f")
  field("log MB", function(r) return type(r.server) == "table" and mb(r.server.log_bytes) end, "%.1f")
  field("table MB", function(r) return type(r.server) == "table" and mb(r.server.table_bytes) end, "%.1f")
  for _, m in ipairs(metric_names(rs)) do
    field(m, function(r) return type(r.metrics) == "table" and r.metrics[m] end, "%.3f")
  end
  return cols
end

-- A name for each point among pts: what varies between them.
function M.namer(pts)
  local varying = points.split_dims(points.results_of(pts))
  return function(p) return points.label(p.r, varying) or (tostring(p.r.engine) .. ", " .. tostring(p.r.method or "event")) end
end

-- The command line's warnings about pts' runs: a CV above 10%, an outlier Dixon's Q can show.
function M.warnings(pts)
  local name, out = M.namer(pts), {}
  for _, p in ipairs(pts) do
    if p.cv and p.cv > 0.10 then
      out[#out + 1] = ("%s: rows/s varies by %.1f%% across its %d runs (coefficient of variation above 10%%)")
        :format(name(p), p.cv * 100, p.n)
    end
    if p.outlier then
      out[#out + 1] = ("%s: run %d of %d is an outlier: %s rows/s against a median of %s (Dixon's Q %.3f above %.3f, "
        .. "its critical value for %d runs)"):format(name(p), p.outlier.run, p.n, tables.thousands(p.outlier.rate),
        tables.thousands(p.median), p.outlier.q, p.outlier.crit, p.n)
    end
  end
  return out
end

-- Each failed run of pts with its error: "txn, batch=10: FAILED: CHECK constraint failed: v < 0".
function M.failures(pts)
  local name, out = M.namer(pts), {}
  for _, p in ipairs(pts) do
    for _, r in ipairs(p.failed) do
      out[#out + 1] = ("%s: FAILED: %s"):format(name(p), tostring(r.error))
    end
  end
  return out
end

-- ---- the chart ----

-- the numeric dimension (threads or batch) that draws the longest lines, or nil
local function x_dimension(pts, varying)
  local xdim, best = nil, 0
  for _, d in ipairs(varying) do
    if d == "threads" or d == "batch" then
      local lines = {}
      for _, p in ipairs(pts) do
        if p.median and tonumber(points.dim_value(p.r, d)) then
          local k = points.label(p.r, varying, d) or ""
          lines[k] = (lines[k] or 0) + 1
        end
      end
      local score = 0
      for _, n in pairs(lines) do if n > 1 then score = score + n end end
      if score > best then xdim, best = d, score end
    end
  end
  return xdim
end

local X_UNITS = { batch = "rows" } -- threads count themselves

-- "batch (rows, log scale)": an axis's name, its unit and scale
function M.axis_label(name, unit, log)
  local notes = {}
  if unit then notes[#notes + 1] = unit end
  if log then notes[#notes + 1] = "log scale" end
  return #notes > 0 and (name .. " (" .. table.concat(notes, ", ") .. ")") or name
end

local function tip(name, q)
  return ("%s: %s rows/s%s"):format(name, chart.short(q.y),
    q.lo and (" (%s %s to %s)"):format(q.iv, chart.short(q.lo), chart.short(q.hi)) or "")
end

-- The x axis of xs (the values of xdim): log spacing when they span a factor of 8; a 0 batch
-- (a whole stream) placed past the largest behind a break. Returns the axis and x -> position.
local function x_axis(xdim, xs)
  local real, zero = {}, false
  for _, x in ipairs(xs) do
    if x > 0 then real[#real + 1] = x else zero = true end
  end
  table.sort(real)
  if #real == 0 then real = { 1 } end
  local lo, hi = real[1], real[#real]
  local log = hi / lo >= 8
  local ticks = {}
  for i, x in ipairs(real) do ticks[i] = x end
  local axis = { lo = lo, hi = hi, ticks = ticks, log = log, label = M.axis_label(xdim, X_UNITS[xdim], log) }
  local whole
  if zero and xdim == "batch" then
    whole = log and hi * (hi / lo) ^ 0.15 or (hi > lo and hi + (hi - lo) * 0.15 or hi * 1.5)
    axis.hi, axis.gap_at = whole, log and math.sqrt(hi * whole) or (hi + whole) / 2
    ticks[#ticks + 1] = whole
    axis.label = axis.label .. "; whole: one stream (batch 0)"
  end
  axis.fmt = function(x) return x == whole and "whole" or chart.short(x) end
  return axis, function(v) return (v == 0 and whole) or v end
end

-- the series of pts along xdim: a line per combination of the other varying dimensions,
-- fastest first; returns them and how many were left out
local function line_series(pts, varying, xdim, place)
  local by, order = {}, {}
  for _, p in ipairs(pts) do
    local x = tonumber(points.dim_value(p.r, xdim))
    if p.median and x then
      local k = points.label(p.r, varying, xdim) or (tostring(p.r.engine) .. ", " .. tostring(p.r.method or "event"))
      if not by[k] then by[k] = { name = k, points = {}, top = 0 }; order[#order + 1] = by[k] end
      local s = by[k]
      s.points[#s.points + 1] = { x = place(x), y = p.median, lo = p.n > 1 and p.lo or nil, hi = p.n > 1 and p.hi or nil,
                                  iv = stats.interval_name(p.n, p.level), gap = x == 0 }
      s.top = math.max(s.top, p.median)
    end
  end
  table.sort(order, function(a, b) return a.top > b.top end)
  local thinned = 0
  for _, s in ipairs(order) do
    table.sort(s.points, function(a, b) return a.x < b.x end)
    if #s.points > M.POINTS_MAX then -- more than the width can show: evenly spaced ones, and the best
      local kept, step, best = {}, #s.points / M.POINTS_MAX, false
      for i, q in ipairs(s.points) do
        local top = not best and q.y == s.top
        best = best or top
        if top or math.floor((i - 1) / step) ~= math.floor((i - 2) / step) then kept[#kept + 1] = q end
      end
      thinned = thinned + #s.points - #kept
      s.points = kept
    end
  end
  local dropped = math.max(0, #order - M.SERIES_MAX)
  for i = #order, M.SERIES_MAX + 1, -1 do order[i] = nil end
  return order, dropped, thinned
end

-- One scenario's chart in one size: { svg, desc, legend (items), kind, dropped }.
local function draw(title, pts, opts, size, with_legend, class)
  local varying = points.split_dims(points.results_of(pts))
  local xdim = x_dimension(pts, varying)
  local body, out = {}, { dropped = 0 }
  if not xdim then -- a dot chart of the configurations, fastest first
    local ok, name = {}, M.namer(pts)
    for _, p in ipairs(pts) do if p.median then ok[#ok + 1] = p end end
    points.sort(ok)
    local rows = {}
    for i, p in ipairs(ok) do
      if i > M.DOTS_MAX then out.dropped = #ok - M.DOTS_MAX; break end
      rows[i] = { name = name(p), y = p.median, lo = p.n > 1 and p.lo or nil, hi = p.n > 1 and p.hi or nil,
                  tip = ("%s: %s"):format(name(p), verdict.figure(p)) }
    end
    local p = { x0 = 0, y0 = 0, size = size, title = title, rows = rows, label = "rows/s (median of its runs)" }
    local h
    if #rows == 0 then
      h = size.T + 40
      chart.text(body, 8, size.T + 20, "no successful runs to draw", ('font-size="%d"'):format(size.label))
    else
      h = chart.dots(body, p)
    end
    local desc = {}
    for _, r in ipairs(rows) do desc[#desc + 1] = ("%s: %s"):format(r.name, chart.short(r.y)) end
    out.kind, out.legend = "dots", {}
    out.desc = title .. ": " .. (#desc > 0 and table.concat(desc, "; ") or "no successful runs") .. "."
    out.svg = chart.document(size.W, h, body, { title = title, desc = out.desc }, class and (class .. " dots"))
    return out
  end
  local xs, seen = {}, {}
  for _, p in ipairs(pts) do
    local x = tonumber(points.dim_value(p.r, xdim))
    if p.median and x and not seen[x] then seen[x] = true; xs[#xs + 1] = x end
  end
  local axis, place = x_axis(xdim, xs)
  local series, dropped, thinned = line_series(pts, varying, xdim, place)
  local p = { x0 = 0, y0 = 0, size = size, title = title, series = series, tip = tip, dodge = 5,
              empty = "no successful runs to draw", end_labels = size == chart.WIDE }
  local ymax, ymin = 0, math.huge
  for _, s in ipairs(series) do
    for _, q in ipairs(s.points) do
      ymax, ymin = math.max(ymax, q.hi or q.y), math.min(ymin, q.lo and q.lo > 0 and q.lo or q.y)
    end
  end
  if ymax > 0 then
    p.x = axis
    p.y = opts.log and chart.decade_axis(ymin, ymax) or chart.nice_axis(0, ymax * 1.05, size == chart.NARROW and 4 or 5)
    p.y.label = "rows/s" .. (opts.log and " (log scale)" or "")
  end
  chart.panel(body, p)
  local h = size.H
  out.legend = chart.legend_items(p)
  if with_legend then h = h + chart.legend(body, out.legend, 0, h, size.W, size) end
  out.kind, out.dropped, out.desc, out.whole = "lines", dropped, chart.summary(p), p.x and p.x.gap_at ~= nil
  out.thinned = thinned
  for _, ser in ipairs(series) do out.band = out.band or #ser.points > chart.WHISKERS_MAX end
  out.svg = chart.document(size.W, h, body, { title = title, desc = out.desc }, class)
  return out
end

-- One scenario's chart for a page: { wide, narrow (SVGs), legend (items), desc, kind, dropped }.
function M.chart(scenario, pts, opts)
  local title = "rows/s: " .. scenario
  local wide = draw(title, pts, opts, chart.WIDE, false, "wide")
  local narrow = draw(title, pts, opts, chart.NARROW, false, "narrow")
  wide.wide, wide.narrow = wide.svg, narrow.svg
  return wide
end

-- Every scenario's chart in one SVG file (--svg), each with its legend under it.
function M.svg(results, opts)
  local order, groups = points.by_scenario(results)
  local parts, H, descs = {}, 0, {}
  for i, s in ipairs(order) do
    local c = draw("rows/s: " .. s, points.merge(groups[s]), opts, chart.WIDE, true)
    local h = tonumber(c.svg:match('height="(%d+)"'))
    parts[#parts + 1] = ('<g transform="translate(0 %d)">%s</g>'):format(H, c.svg:match("<rect[^>]*/>\n(.*)</svg>"))
    H = H + h
    descs[i] = c.desc
  end
  return chart.document(chart.WIDE.W, H, parts, { title = "rows/s by scenario", desc = table.concat(descs, " ") })
end

-- What the chart's marks mean, in words true of pts' runs (the level of their intervals).
function M.caption(pts, c)
  local lowest, n
  for _, p in ipairs(pts) do
    if p.median and p.n > 1 and (not lowest or p.level < lowest) then lowest, n = p.level, p.n end
  end
  local what = c.kind == "dots" and "Each configuration's median rows/s over its runs, fastest first"
    or "The median rows/s of each point over its runs"
  local whisker, mark = nil, c.band and "shaded band" or "whisker"
  if not lowest then whisker = "; each point is one run, so there is no interval."
  elseif lowest >= stats.LEVEL then
    whisker = ("; the %s is the interval of the median, %s or more sure to hold it."):format(mark, stats.percent(lowest))
  else
    whisker = ("; the %s is the range of its runs, which holds the median %s of the time with %d runs."):format(mark,
      stats.percent(lowest), n)
  end
  local more = c.dropped > 0 and (" %d more %s not drawn."):format(c.dropped, c.kind == "dots" and "rows" or "lines") or ""
  if (c.thinned or 0) > 0 then
    more = more .. (" %d points are not drawn: a line keeps %d, evenly spaced, and its best."):format(c.thinned,
      M.POINTS_MAX)
  end
  return what .. whisker .. (c.whole and " Batch 0 (a whole stream) stands apart at the right, past a break in the axis." or "")
    .. more
end

return M
