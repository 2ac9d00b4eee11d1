-- bulkbench.growth: the rate against the table's size (docs/scale.md): for each run with a
-- `growth` series, rows/s against the rows in the table, a line per run, and where the table's
-- indexes outgrew the server's memory marked on it (its cgroup's limit, or its own cache when
-- its data files bypass the OS cache); with a table of each run's first and last tenth.
local chart = require "bulkbench.report.chart"
local points = require "bulkbench.report.points"
local M = {}

local esc = chart.esc
M.RUNS_MAX = 12 -- runs drawn in one chart
M.WINDOW = 0.02 -- a point of a line: samples merged until they hold this share of the run's rows

local function num(v) return type(v) == "number" and v or nil end

-- The memory the indexes' pages may be cached in, and what it is, for result r; nil when unknown.
function M.memory(r)
  local s = type(r.server) == "table" and r.server or {}
  local cache, limit = num(s.cache_bytes), num(s.memory_limit_bytes)
  if s.cache_direct == true and cache then return cache, "its own cache (O_DIRECT)" end
  if limit then return limit, "its cgroup's limit" end
  if cache then return cache, "its own cache" end
end

-- The rows at which the indexes reached bytes (the first sample past them), or nil.
local function rows_at(g, bytes)
  for _, x in ipairs(g) do
    if num(x.index_bytes) and x.index_bytes >= bytes then return num(x.table_rows) end
  end
end

-- A run's line: rows/s over windows of M.WINDOW of its rows (one sample is a claim of rows
-- arriving or not), at the window's middle.
function M.line(g)
  local pts, last = {}, g[#g].table_rows or 0
  local a = 1
  for b = 2, #g do
    local dn, dt = (g[b].table_rows or 0) - (g[a].table_rows or 0), (g[b].t or 0) - (g[a].t or 0)
    if dn >= M.WINDOW * last and dt > 0 or (b == #g and dn > 0 and dt > 0) then
      pts[#pts + 1] = { x = (g[a].table_rows + g[b].table_rows) / 2, y = dn / dt }
      a = b
    end
  end
  return pts
end

-- Each run with growth: { label, result, growth, line, memory, what, knee, first, last }.
function M.runs(rs)
  local label_of, out = points.labeller(rs), {}
  for _, r in ipairs(rs) do
    local g = type(r.growth) == "table" and r.growth or nil
    if g and #g >= 2 then
      local run = { label = label_of(r), result = r, growth = g, line = M.line(g) }
      run.memory, run.what = M.memory(r)
      run.knee = run.memory and rows_at(g, run.memory)
      local k = math.max(1, math.floor(#run.line / 10))
      local function mean(from, to)
        local s, n = 0, 0
        for i = from, to do if run.line[i] then s, n = s + run.line[i].y, n + 1 end end
        return n > 0 and s / n or nil
      end
      run.first, run.last = mean(1, k), mean(#run.line - k + 1, #run.line)
      if #run.line > 0 then out[#out + 1] = run end
    end
  end
  return out
end

local function mb(v) return v and ("%.0f MB"):format(v / 1048576) or "-" end

M.COLS = {
  { "run", function(x) return x.label end },
  { "rows", function(x) return chart.short(x.growth[#x.growth].table_rows) end },
  { "server memory", function(x) return x.memory and (mb(x.memory) .. ", " .. x.what) or "not known" end },
  { "indexes outgrew it at", function(x) return x.knee and (chart.short(x.knee) .. " rows") or "-" end },
  { "rows/s, first tenth", function(x) return x.first and chart.short(x.first) or "-" end },
  { "rows/s, last tenth", function(x) return x.last and chart.short(x.last) or "-" end },
  { "last / first", function(x) return x.first and x.last and ("%.2f"):format(x.last / x.first) or "-" end },
}

-- The chart in one size: its SVG, legend items and text alternative; file = true draws the
-- legend into the SVG (a page gives it in HTML).
function M.svg(runs, size, class, file)
  local shown, body = {}, {}
  for i = 1, math.min(#runs, M.RUNS_MAX) do shown[i] = runs[i] end
  local xmax, ymax, series = 0, 0, {}
  for _, run in ipairs(shown) do
    for _, q in ipairs(run.line) do xmax, ymax = math.max(xmax, q.x), math.max(ymax, q.y) end
    series[#series + 1] = { name = run.label, points = run.line }
  end
  local p = { x0 = 0, y0 = 0, size = size, title = "rows/s against the rows in the table", series = series,
              empty = "no run has growth" }
  if ymax > 0 then
    p.x = chart.nice_axis(0, xmax * 1.02, size == chart.NARROW and 4 or 8)
    p.x.label = "rows in the table"
    p.y = chart.nice_axis(0, ymax * 1.05, 4)
    p.y.label = "rows/s"
  end
  local fx, fy = chart.panel(body, p)
  local marks, parts = {}, {}
  for i, run in ipairs(shown) do
    if fx and run.knee then
      local x, color = fx(run.knee), p.series[i] and p.series[i].color_used or chart.style(i) -- its line's
      marks[#marks + 1] = ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="6 4" '
        .. 'data-memory="%d"><title>%s: the indexes reach %s (%s) at %s rows</title></line>'):format(x, fy(0), x,
        fy(p.y.hi or ymax), color, run.memory, esc(run.label), mb(run.memory), esc(run.what), chart.short(run.knee))
      marks[#marks + 1] = ('<text x="%.1f" y="%.1f" font-size="%d" fill="%s">%s</text>'):format(x + 4,
        fy(p.y.hi or ymax) + size.tick + 2 + (i - 1) * (size.tick + 2), size.tick, color, esc(mb(run.memory)))
    end
    parts[#parts + 1] = ("%s: %s rows/s in its first tenth, %s in its last%s."):format(run.label,
      run.first and chart.short(run.first) or "-", run.last and chart.short(run.last) or "-",
      run.knee and (", its indexes past the server's memory (" .. mb(run.memory) .. ") at " .. chart.short(run.knee)
        .. " rows") or "")
  end
  chart.clipped(body, p, marks)
  local desc, items, h = table.concat(parts, " "), chart.legend_items(p), size.H
  if file then h = h + chart.legend(body, items, 0, h, size.W, size) end
  return chart.document(size.W, h, body, { title = "rows/s against the rows in the table", desc = desc }, class),
    items, desc
end

-- The section's HTML parts (html: bulkbench.html); nil when no result has growth.
function M.parts(rs, html)
  local runs = M.runs(rs)
  if #runs == 0 then return nil end
  local wide, items = M.svg(runs, chart.WIDE, "wide")
  local narrow = M.svg(runs, chart.NARROW, "narrow")
  return {
    html.figure(wide, narrow, items, esc("Each line: a run's rows/s as its table grew (its growth samples, merged "
      .. "into windows of 2% of its rows); a dashed line where the table's indexes reached the server's memory — "
      .. "past it each row reads index pages from storage (docs/scale.md)."
      .. (#runs > M.RUNS_MAX and (" The first %d of %d runs are drawn."):format(M.RUNS_MAX, #runs) or ""))),
    html.table(M.COLS, runs, { attrs = ' data-growth="runs"', what = "runs" }),
  }
end

return M
