-- bulkbench.report.waits: the report's view of the sampled waits (docs/diagnosis.md). Each scenario's
-- points with waits as one chart: a row per point in the order of the scenario's table
-- (fastest first), named by what varies between them, its bottleneck, and a bar of each wait
-- event's share of the server sessions' time (hover a segment: "WALSync 47%"); every chart of
-- the page shares one legend, a wait event its look on every page (bulkbench.report.palette).
local chart = require "bulkbench.report.chart"
local points = require "bulkbench.report.points"
local palette = require "bulkbench.report.palette"
local tables = require "bulkbench.report.tables"
local M = {}

local esc = chart.esc
M.ROWS_MAX = 60 -- points drawn a chart; the rest are counted

-- A point's waits: each event's mean share over its results that sampled waits, largest
-- first ({ {event, share}... }), or nil when none did.
function M.of_point(p)
  local sum, n = {}, 0
  for _, r in ipairs(p.results) do
    if type(r.waits) == "table" and next(r.waits) and not r.error then
      n = n + 1
      for ev, share in pairs(r.waits) do sum[ev] = (sum[ev] or 0) + (tonumber(share) or 0) end
    end
  end
  if n == 0 then return nil end
  local evs = {}
  for ev, s in pairs(sum) do evs[#evs + 1] = { ev, s / n } end
  table.sort(evs, function(a, b) return a[2] > b[2] or (a[2] == b[2] and a[1] < b[1]) end)
  return evs
end

-- A point's bottleneck: the kind most of its results named (the first of equals) and that
-- result's evidence, or nil.
function M.bottleneck(p)
  local count, best, first = {}, nil, {}
  for _, r in ipairs(p.results) do
    local b = not r.error and type(r.bottleneck) == "table" and r.bottleneck
    if b and type(b.kind) == "string" then
      count[b.kind] = (count[b.kind] or 0) + 1
      first[b.kind] = first[b.kind] or b
      if not best or count[b.kind] > count[best] then best = b.kind end
    end
  end
  return best and first[best]
end

local function share_text(s) return s >= 0.01 and ("%.0f%%"):format(100 * s) or ("%.1f%%"):format(100 * s) end

-- the bar of a point's waits: a segment per event, its width its share, the events in the
-- page's order (one place in every bar)
local function bar(evs, fills, order)
  local share, out = {}, { '<div class="wbar">' }
  for _, e in ipairs(evs) do share[e[1]] = e[2] end
  for _, ev in ipairs(order) do
    if share[ev] then
      out[#out + 1] = ('<span class="seg" data-name="%s" style="width:%.2f%%;%s" title="%s %s"></span>')
        :format(esc(ev), 100 * share[ev], palette.css(fills[ev]), esc(ev), share_text(share[ev]))
    end
  end
  out[#out + 1] = "</div>"
  return table.concat(out)
end

-- The scenarios' points that carry waits: { { name, rows = { {p, evs}... } } },
-- and every event's name: cpu first, client last, the rest by their whole share on the page.
local function with_waits(scenarios)
  local out, total, names = {}, {}, {}
  for _, sc in ipairs(scenarios) do
    local rows = {}
    for _, p in ipairs(sc.points) do
      local evs = M.of_point(p)
      if evs then
        rows[#rows + 1] = { p = p, evs = evs }
        for _, e in ipairs(evs) do
          if not total[e[1]] then total[e[1]] = 0; names[#names + 1] = e[1] end
          total[e[1]] = total[e[1]] + e[2]
        end
      end
    end
    if #rows > 0 then out[#out + 1] = { name = sc.name, rows = rows } end
  end
  local rank = { cpu = -1, client = 1 }
  table.sort(names, function(a, b)
    local ra, rb = rank[a] or 0, rank[b] or 0
    if ra ~= rb then return ra < rb end
    if total[a] ~= total[b] then return total[a] > total[b] end
    return a < b
  end)
  return out, names
end

-- One scenario's chart: a table whose columns are what varies, the bottleneck, the bar and
-- the bottleneck's evidence.
local function chart_of(sc, fills, order, html)
  local cols = tables.label_columns(sc.rows, function(row) return row.p.r end,
    { "point", function(row) return points.describe(row.p.r) end })
  local function bound(row) return M.bottleneck(row.p) or {} end
  cols[#cols + 1] = { "bottleneck", function(row) return bound(row).kind or "-" end }
  cols[#cols + 1] = { "waits: share of the server sessions' time", function() return "" end,
                      function(row) return bar(row.evs, fills, order) end }
  cols[#cols + 1] = { "evidence", function(row) return bound(row).evidence or "-" end }
  return html.table(cols, sc.rows, { attrs = (' data-waits="%s"'):format(esc(sc.name)), what = "points",
                                     max = M.ROWS_MAX })
end

-- The section's HTML parts (html: bulkbench.report.html, for its tables, legend and paragraphs) for
-- scenarios = { { name, points (sorted as their table) } }; nil when no point has waits.
function M.parts(scenarios, html)
  local charts, names = with_waits(scenarios)
  if #charts == 0 then return nil end
  local fills = palette.wait_fills(names)
  local out, items = { '<figure class="waits">' }, {}
  for _, sc in ipairs(charts) do
    if #charts > 1 then out[#out + 1] = "<h3>" .. esc(sc.name) .. "</h3>" end
    out[#out + 1] = chart_of(sc, fills, names, html)
  end
  for _, name in ipairs(names) do items[#items + 1] = { name = name, fill = fills[name] } end
  out[#out + 1] = html.legend(items)
  out[#out + 1] = "<figcaption>" .. esc("Each bar: the share of the point's server-session time in each wait "
    .. "event, sampled through each run (cpu: active on no wait; client: waiting for the client), the mean "
    .. "of its runs; rows in the order of the scenario's table, fastest first, and the events in one order in every bar. The bottleneck is named by the rules "
    .. "of docs/diagnosis.md. Hover a segment for its share.") .. "</figcaption>"
  out[#out + 1] = "</figure>"
  return out
end

return M
