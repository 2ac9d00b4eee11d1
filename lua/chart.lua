-- bulkbench.chart: the SVG drawing every report chart shares: axes with ticks (linear or
-- log), a line per series with its legend entry, text, and the document around panels.
local M = {}

M.PALETTE = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
              "#7f7f7f", "#bcbd22" }

function M.esc(s)
  return (tostring(s):gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;"))
end
local esc = M.esc

function M.nice_ticks(lo, hi, n)
  if hi <= lo then hi = lo + 1 end
  local raw = (hi - lo) / n
  local mag = 10 ^ math.floor(math.log10(raw))
  local step = mag
  for _, m in ipairs { 1, 2, 5, 10 } do
    if m * mag >= raw then step = m * mag; break end
  end
  local ticks, t = {}, math.floor(lo / step) * step
  repeat -- up to the first tick at or above hi, so nothing is drawn off the axis
    ticks[#ticks + 1] = t
    t = t + step
  until ticks[#ticks] >= hi - step * 1e-9
  return ticks
end

function M.short(v)
  if v >= 1e6 then return ("%gM"):format(tonumber(("%.3g"):format(v / 1e6))) end
  if v >= 1e3 then return ("%gk"):format(tonumber(("%.3g"):format(v / 1e3))) end
  return ("%g"):format(tonumber(("%.3g"):format(v)))
end

-- Axes: { lo, hi, ticks, log } (plus label and fmt, set by the caller).
function M.nice_axis(lo, hi, n)
  local ticks = M.nice_ticks(lo, hi, n or 5)
  return { lo = ticks[1], hi = ticks[#ticks], ticks = ticks }
end

-- whole powers of ten around [lo, hi], both > 0
function M.decade_axis(lo, hi)
  local a = { lo = 10 ^ math.floor(math.log10(lo)), hi = 10 ^ math.ceil(math.log10(hi)), ticks = {}, log = true }
  if a.hi <= a.lo then a.hi = a.lo * 10 end
  local t = a.lo
  while t <= a.hi * 1.0001 do a.ticks[#a.ticks + 1] = t; t = t * 10 end
  return a
end

-- v on the axis as a pixel between a (at lo) and b (at hi); the middle when lo = hi
local function place(axis, v, a, b)
  if axis.hi == axis.lo then return (a + b) / 2 end
  local f = axis.log and (math.log(v) - math.log(axis.lo)) / (math.log(axis.hi) - math.log(axis.lo))
    or (v - axis.lo) / (axis.hi - axis.lo)
  return a + (b - a) * f
end

M.MARGIN = { L = 80, R = 300, T = 40, B = 50 } -- the legend sits in the right margin

local function draw_axes(out, p, fx, fy)
  local x0, y0, L, T, pw, ph = p.x0, p.y0, M.MARGIN.L, M.MARGIN.T, p.pw, p.ph
  out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'):format(x0 + L, y0 + T + ph, x0 + L + pw, y0 + T + ph)
  out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'):format(x0 + L, y0 + T, x0 + L, y0 + T + ph)
  for _, t in ipairs(p.y.ticks) do
    local y = fy(t)
    out[#out + 1] = ('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'):format(x0 + L, y, x0 + L + pw, y)
    out[#out + 1] = ('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>'):format(x0 + L - 6, y + 4,
      (p.y.fmt or M.short)(t))
  end
  for _, t in ipairs(p.x.ticks) do
    local x, label = fx(t), esc((p.x.fmt or M.short)(t))
    out[#out + 1] = ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333"/>'):format(x, y0 + T + ph, x, y0 + T + ph + 5)
    if p.x.slant then -- long tick labels, slanted to pass each other
      out[#out + 1] = ('<text x="%.1f" y="%d" font-size="11" text-anchor="end" transform="rotate(-30 %.1f %d)">%s</text>')
        :format(x + 4, y0 + T + ph + 16, x + 4, y0 + T + ph + 16, label)
    else
      out[#out + 1] = ('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>'):format(x, y0 + T + ph + 18,
        label)
    end
  end
  out[#out + 1] = ('<text x="%d" y="%d" font-size="12" text-anchor="middle">%s</text>'):format(x0 + L + pw / 2, y0 + p.H - 10,
    esc(p.x.label))
  out[#out + 1] = ('<text x="%d" y="%d" font-size="12" text-anchor="middle" transform="rotate(-90 %d %d)">%s</text>')
    :format(x0 + 18, y0 + T + ph / 2, x0 + 18, y0 + T + ph / 2, esc(p.y.label))
end

-- the colour and dash of the i-th series: colours first, then dashes once they repeat
function M.style(i)
  local color = M.PALETTE[(i - 1) % #M.PALETTE + 1]
  local dash = ({ "", ' stroke-dasharray="6 3"', ' stroke-dasharray="2 3"' })[math.floor((i - 1) / #M.PALETTE) % 3 + 1]
  return color, dash
end

-- a point's interval (q.lo to q.hi) as a vertical whisker with caps
local function draw_whisker(out, q, color, fx, fy)
  local x, a, b = fx(q.x), fy(q.lo), fy(q.hi)
  out[#out + 1] = ('<path class="whisker" d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f" stroke="%s" stroke-width="1.5" fill="none"/>')
    :format(x, a, b, x - 4, a, x + 4, x - 4, b, x + 4, color)
end

local function draw_series(out, p, i, s, fx0, fy)
  local color, dash = M.style(i)
  -- p.dodge: series side by side by a few pixels, so whiskers at one x do not hide each other
  local shift = p.dodge and (i - (#p.series + 1) / 2) * p.dodge or 0
  local function fx(v) return fx0(v) + shift end
  color = s.color or color
  local pts = {}
  for _, q in ipairs(s.points) do pts[#pts + 1] = ("%.1f,%.1f"):format(fx(q.x), fy(q.y)) end
  out[#out + 1] = ('<g class="series" data-name="%s">'):format(esc(s.name))
  if s.line ~= false then
    out[#out + 1] = ('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'):format(color, dash,
      table.concat(pts, " "))
  end
  for _, q in ipairs(s.points) do
    if q.lo and q.hi then draw_whisker(out, q, color, fx, fy) end
  end
  if p.tip or #s.points == 1 then -- a marker per point, its value on hover (a line of one point shows none)
    for _, q in ipairs(s.points) do
      out[#out + 1] = ('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s</title></circle>')
        :format(fx(q.x), fy(q.y), color, esc(p.tip and p.tip(s.name, q) or s.name))
    end
  end
  out[#out + 1] = "</g>"
  if p.legend == false then return end
  local x, ly = p.x0 + p.W - M.MARGIN.R, p.y0 + M.MARGIN.T + 8 + (i - 1) * 18
  if s.line ~= false then
    out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"%s/>'):format(x + 14, ly - 2,
      x + 32, ly - 2, color, dash)
  else -- markers only: a marker is the key
    out[#out + 1] = ('<circle cx="%d" cy="%d" r="4.5" fill="%s"/>'):format(x + 23, ly - 2, color)
  end
  local label = #s.name > 42 and (s.name:sub(1, 40) .. "…") or s.name
  out[#out + 1] = ('<text class="legend" data-name="%s" x="%d" y="%d" font-size="12">%s<title>%s</title></text>')
    :format(esc(s.name), x + 36, ly + 2, esc(label), esc(s.name))
end

-- One panel at (x0, y0) of W x H: p = { x0, y0, W, H, title, x = axis, y = axis, series =
-- { { name, points = { {x, y, lo, hi}... }, color, line = false (markers only) }... }, tip =
-- function(name, point) (markers with their value), legend = false (none), dodge = pixels
-- between series, empty = text when there is nothing to draw }. A point's lo and hi draw its
-- interval as a whisker; x.slant = pixels more below the axis for slanted tick labels.
-- Returns the functions placing a value on each axis, for marks drawn over the panel.
function M.panel(out, p)
  p.pw, p.ph = p.W - M.MARGIN.L - M.MARGIN.R, p.H - M.MARGIN.T - M.MARGIN.B - (p.x and p.x.slant or 0)
  out[#out + 1] = ('<text x="%d" y="%d" font-size="15" font-weight="bold">%s</text>'):format(p.x0 + M.MARGIN.L, p.y0 + 24,
    esc(p.title))
  if not p.x then
    out[#out + 1] = ('<text x="%d" y="%d">%s</text>'):format(p.x0 + M.MARGIN.L, p.y0 + M.MARGIN.T + 20,
      esc(p.empty or "nothing to draw"))
    return
  end
  local left, bottom = p.x0 + M.MARGIN.L, p.y0 + M.MARGIN.T + p.ph
  local function fx(v) return place(p.x, v, left, left + p.pw) end
  local function fy(v) return place(p.y, v, bottom, bottom - p.ph) end
  draw_axes(out, p, fx, fy)
  for i, s in ipairs(p.series) do draw_series(out, p, i, s, fx, fy) end
  return fx, fy
end

function M.text(out, x, y, s, attrs)
  out[#out + 1] = ('<text x="%d" y="%d"%s>%s</text>'):format(x, y, attrs and (" " .. attrs) or "", esc(s))
end

-- What a panel shows, as text for those who cannot see it: each series and its points
-- (x: y, with the interval when there is one).
function M.summary(p)
  if not p.x then return p.title .. ": " .. (p.empty or "nothing to draw") end
  local fx, fy = p.x.fmt or M.short, p.y.fmt or M.short
  local parts = { ("%s; x: %s, y: %s."):format(p.title, p.x.label, p.y.label) }
  for _, s in ipairs(p.series) do
    local pts = {}
    for _, q in ipairs(s.points) do
      pts[#pts + 1] = fx(q.x) .. ": " .. fy(q.y) .. (q.lo and (" (" .. fy(q.lo) .. " to " .. fy(q.hi) .. ")") or "")
    end
    parts[#parts + 1] = s.name .. ": " .. (#pts > 0 and table.concat(pts, ", ") or "no points") .. "."
  end
  return table.concat(parts, " ")
end

-- The SVG document around what the panels wrote into body; alt = { title, desc }, the
-- chart's text alternative (its name and what it shows), when given.
function M.document(W, H, body, alt)
  local out = {
    ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif"%s>')
      :format(W, H, W, H, alt and (' role="img" aria-label="%s"'):format(esc(alt.title)) or ""),
  }
  if alt then
    out[#out + 1] = "<title>" .. esc(alt.title) .. "</title>"
    if alt.desc then out[#out + 1] = "<desc>" .. esc(alt.desc) .. "</desc>" end
  end
  out[#out + 1] = ('<rect width="%d" height="%d" fill="white"/>'):format(W, H)
  for _, line in ipairs(body) do out[#out + 1] = line end
  out[#out + 1] = "</svg>\n"
  return table.concat(out, "\n")
end

-- Writes text to path; a file that cannot be written is a usage error naming it (the path
-- is the user's), as the reject file of a load is.
function M.write(path, text)
  local f, why = io.open(path, "w")
  if not f then require("bulkbench.core").usage_error("cannot write " .. tostring(why)) end
  f:write(text)
  f:close()
end

return M
