-- bulkbench.report.waits: the report's view of each run's sampled waits (docs/diagnosis.md): one
-- stacked bar per point, each wait event's share of the server sessions' time, and the
-- bottleneck named with its evidence. Plain HTML bars (no chart to scale): shares add to 100%.
local chart = require "bulkbench.report.chart"
local points = require "bulkbench.report.points"
local M = {}

local esc = chart.esc
M.BARS_MAX = 40 -- points drawn; the rest are counted
-- the two shares every engine has, in the same colours on every page
local FIXED = { cpu = "#2ca02c", client = "#bbbbbb" }

-- The results that carry waits, in their order.
function M.of(rs)
  local out = {}
  for _, r in ipairs(rs) do
    if type(r.waits) == "table" and next(r.waits) then out[#out + 1] = r end
  end
  return out
end

-- A colour per event: cpu and client fixed, the others from the palette in order of first use.
local function colours(rs)
  local col, items, k = {}, {}, 0
  for _, r in ipairs(rs) do
    local evs = {}
    for ev in pairs(r.waits) do evs[#evs + 1] = ev end
    table.sort(evs)
    for _, ev in ipairs(evs) do
      if not col[ev] then
        if FIXED[ev] then col[ev] = FIXED[ev]
        else
          k = k + 1
          col[ev] = chart.PALETTE[(k - 1) % #chart.PALETTE + 1]
        end
        items[#items + 1] = { name = ev, color = col[ev] }
      end
    end
  end
  return col, items
end

-- The section's HTML parts (html: bulkbench.report.html for its legend and paragraphs); nil when no
-- result has waits.
function M.parts(rs, html)
  local ws = M.of(rs)
  if #ws == 0 then return nil end
  local col, items = colours(ws)
  local out = { '<div class="waits">' }
  for i, r in ipairs(ws) do
    if i > M.BARS_MAX then break end
    local evs = {}
    for ev, share in pairs(r.waits) do evs[#evs + 1] = { ev, tonumber(share) or 0 } end
    table.sort(evs, function(a, b) return a[2] > b[2] end)
    local b = type(r.bottleneck) == "table" and r.bottleneck or {}
    out[#out + 1] = ('<p class="what">%s: <b>%s</b> %s</p><div style="display:flex;height:14px;max-width:640px;'
      .. 'background:#eee" data-waits="%d">'):format(esc(points.describe(r)), esc(b.kind or "?"),
      esc(b.evidence and ("(" .. b.evidence .. ")") or ""), i)
    for _, e in ipairs(evs) do
      out[#out + 1] = ('<span style="width:%.2f%%;background:%s" title="%s %.0f%%"></span>')
        :format(100 * e[2], col[e[1]], esc(e[1]), 100 * e[2])
    end
    out[#out + 1] = "</div>"
  end
  out[#out + 1] = "</div>"
  if #ws > M.BARS_MAX then
    out[#out + 1] = html.p(("The first %d of %d runs are drawn."):format(M.BARS_MAX, #ws), "note")
  end
  out[#out + 1] = html.legend(items)
  out[#out + 1] = html.p("Each bar: the share of the run's server-session time in each wait event, sampled 20 times a "
    .. "second (cpu: active on no wait; client: waiting for the client); the bound is named by the rules of "
    .. "docs/diagnosis.md.", "note")
  return out
end

return M
