-- bulkbench.report.cdf: the latency CDF of each point whose results carry latency_hist
-- (--latency-hist), the histograms of one point's runs merged exactly by adding counts.
--   bulkbench report --cdf RESULTS.jsonl [--svg=FILE] [--format=...]
local results = require "bulkbench.report.results"
local points = require "bulkbench.report.points"
local tables = require "bulkbench.report.tables"
local chart = require "bulkbench.report.chart"
local M = {}

local TO_MS = { ns = 1e-6, us = 1e-3, ms = 1, s = 1e3 }

-- A result's histograms: its runs' when they carry one, else its own; nil and why when none.
local function hists_of(r)
  local hs = {}
  for _, run in ipairs(type(r.runs) == "table" and r.runs or {}) do
    if type(run.latency_hist) == "table" then hs[#hs + 1] = run.latency_hist end
  end
  if #hs == 0 and type(r.latency_hist) == "table" then hs[1] = r.latency_hist end
  if #hs == 0 then return nil, "no latency_hist (run it with --latency-hist)" end
  for _, h in ipairs(hs) do
    if type(h.buckets) ~= "table" then return nil, "latency_hist has no list of buckets" end
    if not TO_MS[h.unit] then return nil, ("latency_hist in unknown unit %q"):format(tostring(h.unit)) end
    for _, b in ipairs(type(h.buckets) == "table" and h.buckets or {}) do
      if type(b) ~= "table" or type(b[1]) ~= "number" or type(b[2]) ~= "number" or type(b[3]) ~= "number" then
        return nil, "latency_hist has a bucket that is not [low, high, count]"
      end
    end
  end
  return hs
end

-- Adds histogram h into acc (bucket key -> { low_ms, high_ms, count }): same bounds, one bucket.
function M.merge(acc, h)
  local k = TO_MS[h.unit]
  for _, b in ipairs(h.buckets or {}) do
    local key = b[1] .. ":" .. b[2] .. h.unit
    local into = acc[key]
    if not into then into = { b[1] * k, b[2] * k, 0 }; acc[key] = into end
    into[3] = into[3] + b[3]
  end
  return acc
end

-- The merged buckets in order, their total and cumulative counts: { low, high, count, cum }.
function M.sorted(acc)
  local bs, total = {}, 0
  for _, b in pairs(acc) do
    if b[3] > 0 then bs[#bs + 1] = b end
  end
  table.sort(bs, function(a, b) return a[1] < b[1] end)
  for _, b in ipairs(bs) do total = total + b[3]; b[4] = total end
  return bs, total
end

-- The q-quantile in ms: the middle of the bucket holding the rank-th event, as the runtime
-- reports its percentiles.
function M.quantile(bs, total, q)
  local rank = math.max(1, math.ceil(q * total - 1e-9))
  for _, b in ipairs(bs) do
    if b[4] >= rank then return (b[1] + b[2]) / 2 end
  end
end

-- The points with histograms, merged: { label, result, n (histograms), buckets, total }, and
-- the results skipped with why.
function M.points(rs)
  local with = {} -- named by what varies between the results with histograms, not all of them
  for _, r in ipairs(rs) do if hists_of(r) then with[#with + 1] = r end end
  local label_of = points.labeller(#with > 0 and with or rs)
  local by, order, skipped = {}, {}, {}
  for _, r in ipairs(rs) do
    local hs, why = hists_of(r)
    if not hs then skipped[#skipped + 1] = { result = r, why = why }
    else
      local key = points.point_key(r)
      local p = by[key]
      if not p then
        p = { result = r, acc = {}, n = 0, label = label_of(r) }
        by[key] = p; order[#order + 1] = p
      end
      for _, h in ipairs(hs) do M.merge(p.acc, h); p.n = p.n + 1 end
    end
  end
  for _, p in ipairs(order) do p.buckets, p.total = M.sorted(p.acc) end
  return order, skipped
end

local function ms(v) return v and ("%.3f"):format(v) or "null" end

M.COLS = {
  { "point", function(p) return p.label end },
  { "histograms", function(p) return tostring(p.n) end },
  { "events", function(p) return ("%.0f"):format(p.total) end },
}
for _, q in ipairs { { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p99.9", 0.999 } } do
  M.COLS[#M.COLS + 1] = { q[1] .. " ms", function(p) return ms(M.quantile(p.buckets, p.total, q[2])) end }
end

function M.skipped_line(s) return points.describe(s.result) .. ": " .. s.why end

function M.text(pts, skipped, fmt)
  local out = {}
  tables.section(out, ("latency CDF: %d point%s with a histogram"):format(#pts, #pts == 1 and "" or "s"), M.COLS,
    pts, fmt)
  tables.skipped(out, skipped, M.skipped_line, fmt)
  return table.concat(out, "\n")
end

-- a line per point: the fraction of events at or under each bucket's top, from its first bottom
local function series(pts)
  local out, lo, hi = {}, math.huge, 0
  for _, p in ipairs(pts) do
    local pts = {}
    for i, b in ipairs(p.buckets) do
      if i == 1 and b[1] > 0 then pts[1] = { x = b[1], y = 0 }; lo = math.min(lo, b[1]) end
      pts[#pts + 1] = { x = b[2], y = b[4] / p.total }
      lo, hi = math.min(lo, b[2]), math.max(hi, b[2])
    end
    out[#out + 1] = { name = p.label .. (p.n > 1 and (" (%d merged)"):format(p.n) or ""), points = pts }
  end
  return out, lo, hi
end

-- The chart in one size; file = true draws the legend and the skipped results into the SVG
-- (a page gives them in HTML). Returns the SVG, its legend items and its text alternative.
function M.svg(pts, skipped, size, class, file)
  size = size or chart.WIDE
  if file == nil then file = true end
  local H, body = size.H + 40, {}
  local s, lo, hi = series(pts)
  local p = { x0 = 0, y0 = 0, H = H, size = size, title = "latency CDF", series = s,
              empty = "no result has a latency_hist" }
  if hi > 0 then
    p.x = chart.decade_axis(lo, hi)
    p.x.label = "latency ms (log scale)"
    p.y = { lo = 0, hi = 1, ticks = { 0, 0.25, 0.5, 0.75, 1 }, label = "fraction of events at or under" }
  end
  chart.panel(body, p)
  local items, h = chart.legend_items(p), H
  if file then
    h = h + chart.legend(body, items, 0, h, size.W, size)
    for i, sk in ipairs(skipped) do
      chart.text(body, 8, h + 18 * i, chart.fit("skipped " .. M.skipped_line(sk), size.W - 16, size.tick),
        ('font-size="%d"'):format(size.tick))
    end
    h = h + 18 * #skipped + 12
  end
  local desc = M.describe(pts)
  return chart.document(size.W, h, body, { title = "latency CDF", desc = desc }, class), items, desc
end

-- the chart as text: each point's events and percentiles
function M.describe(pts)
  local parts = { ("%d point%s with a latency histogram."):format(#pts, #pts == 1 and "" or "s") }
  for _, p in ipairs(pts) do
    local qs = {}
    for i = 4, #M.COLS do qs[#qs + 1] = M.COLS[i][1] .. " " .. M.COLS[i][2](p) end
    parts[#parts + 1] = ("%s: %.0f events, %s."):format(p.label, p.total, table.concat(qs, ", "))
  end
  return table.concat(parts, " ")
end

function M.main(paths, opts)
  local rs = results.read(paths, "bulkbench report --cdf RESULTS.jsonl [--svg=FILE]")
  local pts, skipped = M.points(rs)
  if opts.svg then chart.write(opts.svg, (M.svg(pts, skipped))) end
  return M.text(pts, skipped, opts.format or "text"), 0
end

return M
