-- bulkbench.report.chart: the SVG drawing every report chart shares: panels with axes (linear or
-- log) whose tick labels are thinned until none touches another, a line per series clipped
-- to its plot area, a dot chart of named rows, and the document around them. Two sizes: WIDE
-- for screens and files, NARROW for a phone (its text still >= 10 px at 360 px). Legends are
-- the caller's: HTML beside the chart on a page (legend_items), or wrapped rows under the
-- plot in a file (legend); a wide panel names each line where it ends, too. Colours and line
-- styles are bulkbench.report.palette's.
local palette = require "bulkbench.report.palette"
local M = {}

M.PALETTE = palette.HUES

-- the two sizes: width, height of one panel, font sizes (ticks, labels, title), margins
M.WIDE = { W = 960, H = 380, tick = 13, label = 13, title = 15, L = 84, R = 40, T = 40, B = 58, pad = 14, row = 22 }
M.NARROW = { W = 400, H = 330, tick = 12, label = 12, title = 13, L = 60, R = 22, T = 34, B = 54, pad = 10, row = 24 }

M.LEGEND_MAX = 24 -- legend entries drawn in a file; the rest are counted
M.DESC_POINTS = 40 -- points per series the text alternative lists
M.WHISKERS_MAX = 40 -- points of a series drawn with whiskers; more draw their intervals as a band

function M.esc(s)
  return (tostring(s):gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;"))
end
local esc = M.esc

-- the width text takes at a font size (an estimate a little wide of sans-serif's)
function M.text_width(s, font) return #tostring(s):gsub("[\128-\191]", "") * font * 0.6 end

-- s cut with "…" to fit px at font
function M.fit(s, px, font)
  s = tostring(s)
  if M.text_width(s, font) <= px then return s end
  local keep = math.max(1, math.floor(px / (font * 0.6)) - 1)
  return s:sub(1, keep):gsub("[\192-\255][\128-\191]*$", "") .. "…"
end

local ids = 0
function M.id(prefix) ids = ids + 1; return ("%s%d"):format(prefix or "c", ids) end

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
function M.place(axis, v, a, b)
  if axis.hi == axis.lo then return (a + b) / 2 end
  local f = axis.log and (math.log(v) - math.log(axis.lo)) / (math.log(axis.hi) - math.log(axis.lo))
    or (v - axis.lo) / (axis.hi - axis.lo)
  return a + (b - a) * f
end

-- the colour and dash of the i-th series: colours first, then dashes once they repeat
M.style = palette.line

local function dash_attr(dash)
  return dash ~= "" and dash ~= "double" and (' stroke-dasharray="%s"'):format(dash) or ""
end

-- A line of points ("x,y x,y ..." or x1 y1 x2 y2 of a segment) in a colour and dash: "double"
-- is a wide line with a white core, told apart from the plain one at a glance.
local function stroke(out, color, dash, width, pts)
  local shape = type(pts) == "string" and ('<polyline fill="none" points="%s"'):format(pts)
    or ('<line x1="%d" y1="%d" x2="%d" y2="%d"'):format(pts[1], pts[2], pts[3], pts[4])
  if dash == "double" then
    out[#out + 1] = ('%s stroke="%s" stroke-width="%.1f"/>'):format(shape, color, width + 2)
    out[#out + 1] = ('%s stroke="white" stroke-width="%.1f"/>'):format(shape, width / 2)
  else
    out[#out + 1] = ('%s stroke="%s" stroke-width="%s"%s/>'):format(shape, color, width, dash_attr(dash))
  end
end

-- Tick labels that fit: from the first, each kept only when it clears the last kept one by
-- a gap and lies inside [a, b]; size(t) -> its extent along the axis.
local function thin(ticks, pos, size, a, b, gap)
  local kept, last = {}, -math.huge
  for _, t in ipairs(ticks) do
    local c, half = pos(t), size(t) / 2
    if c - half >= last + gap and c - half >= a and c + half <= b then
      kept[#kept + 1] = t
      last = c + half
    end
  end
  return kept
end

local function draw_axes(out, p, fx, fy)
  local s, x0, y0 = p.size, p.x0, p.y0
  local left, top, bottom = x0 + s.L, y0 + s.T, y0 + s.T + p.ph
  local right = left + p.pw
  out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'):format(left, bottom, right, bottom)
  out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'):format(left, top, left, bottom)
  local yfmt = p.y.fmt or M.short
  local yt = thin(p.y.ticks, function(t) return -fy(t) end, function() return s.tick end, -bottom - s.tick, -top + s.tick, 4)
  for _, t in ipairs(p.y.ticks) do
    out[#out + 1] = ('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'):format(left, fy(t), right, fy(t))
  end
  for _, t in ipairs(yt) do
    out[#out + 1] = ('<text x="%d" y="%.1f" font-size="%d" text-anchor="end">%s</text>'):format(left - 6,
      fy(t) + s.tick * 0.35, s.tick, esc(M.fit(yfmt(t), s.L - 26, s.tick)))
  end
  local xfmt = p.x.fmt or M.short
  local xt = thin(p.x.ticks, fx, function(t) return M.text_width(xfmt(t), s.tick) end, x0 + 2, x0 + p.W - 2, 8)
  for _, t in ipairs(xt) do
    local x = fx(t)
    out[#out + 1] = ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333"/>'):format(x, bottom, x, bottom + 5)
    out[#out + 1] = ('<text x="%.1f" y="%d" font-size="%d" text-anchor="middle">%s</text>'):format(x,
      bottom + 6 + s.tick, s.tick, esc(xfmt(t)))
  end
  if p.x.gap_at then -- a break in the axis before a position off its scale (batch 0: a whole stream)
    local g = fx(p.x.gap_at)
    out[#out + 1] = ('<path d="M%.1f %dl-4 8M%.1f %dl-4 8" stroke="#333" fill="none"/>'):format(g - 2, bottom - 4,
      g + 3, bottom - 4)
  end
  out[#out + 1] = ('<text x="%d" y="%d" font-size="%d" text-anchor="middle">%s</text>'):format((left + right) / 2,
    y0 + p.H - 10, s.label, esc(M.fit(p.x.label, right - left, s.label)))
  local mid = (top + bottom) / 2
  out[#out + 1] = ('<text x="%d" y="%d" font-size="%d" text-anchor="middle" transform="rotate(-90 %d %d)">%s</text>')
    :format(x0 + s.label + 2, mid, s.label, x0 + s.label + 2, mid, esc(M.fit(p.y.label, p.ph, s.label)))
end

-- a point's interval (q.lo to q.hi) as a whisker with caps, vertical (or along x: across)
local function draw_whisker(out, a, b, at, color, across)
  if across then
    out[#out + 1] = ('<path class="whisker" d="M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f" stroke="%s" stroke-width="1.5" fill="none"/>')
      :format(a, at, b, a, at - 4, at + 4, b, at - 4, at + 4, color)
  else
    out[#out + 1] = ('<path class="whisker" d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f" stroke="%s" stroke-width="1.5" fill="none"/>')
      :format(at, a, b, at - 4, a, at + 4, at - 4, b, at + 4, color)
  end
end

local function draw_series(out, p, i, s, fx0, fy)
  local color, dash = palette.line_for(s.name, i)
  color = s.color or color
  s.color_used, s.dash_used = color, dash
  -- p.dodge: series side by side by a few pixels, so whiskers at one x do not hide each other
  local shift = p.dodge and (i - (#p.series + 1) / 2) * p.dodge or 0
  if p.dodge then shift = math.max(-p.size.pad + 4, math.min(p.size.pad - 4, shift)) end
  local function fx(v) return fx0(v) + shift end
  out[#out + 1] = ('<g class="series" data-name="%s">'):format(esc(s.name))
  if s.line ~= false then -- a polyline per run of joined points: a point with gap starts anew
    local pts = {}
    local function flush()
      if #pts > 1 then stroke(out, color, dash, 2, table.concat(pts, " ")) end
      pts = {}
    end
    for _, q in ipairs(s.points) do
      if q.gap then flush() end
      pts[#pts + 1] = ("%.1f,%.1f"):format(fx(q.x), fy(q.y))
    end
    flush()
  end
  local dense = #s.points > M.WHISKERS_MAX
  if dense then -- whiskers this close would be a hedge: the intervals as a band
    local up, down = {}, {}
    for _, q in ipairs(s.points) do
      if q.lo and q.hi then
        up[#up + 1] = ("%.1f,%.1f"):format(fx(q.x), fy(q.hi))
        table.insert(down, 1, ("%.1f,%.1f"):format(fx(q.x), fy(q.lo)))
      end
    end
    if #up > 1 then
      out[#out + 1] = ('<polygon class="band" points="%s %s" fill="%s" fill-opacity="0.15" stroke="none"/>'):format(
        table.concat(up, " "), table.concat(down, " "), color)
    end
  else
    for _, q in ipairs(s.points) do
      if q.lo and q.hi then draw_whisker(out, fy(q.lo), fy(q.hi), fx(q.x), color) end
    end
  end
  if p.tip or #s.points == 1 or s.line == false then -- a marker per point, its value on hover
    for _, q in ipairs(s.points) do
      out[#out + 1] = ('<circle cx="%.1f" cy="%.1f" r="%s" fill="%s"><title>%s</title></circle>')
        :format(fx(q.x), fy(q.y), dense and "2" or "3.5", color, esc(p.tip and p.tip(s.name, q) or s.name))
    end
  end
  out[#out + 1] = "</g>"
end

-- the clip path of a plot area (a few pixels wider, so markers on its edge are whole)
local function clip(out, left, top, w, h)
  local id = M.id("clip")
  out[#out + 1] = ('<clipPath id="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/></clipPath>'):format(id,
    left - 5, top - 5, w + 10, h + 10)
  return id
end

-- One panel at (x0, y0): p = { x0, y0, W, H (default: the size's), size = WIDE or NARROW,
-- title, x = axis, y = axis, series = { { name, points = { {x, y, lo, hi, gap}... }, color,
-- line = false (markers only) }... }, tip = function(name, point) (markers with their value),
-- dodge = pixels between series, empty = text when there is nothing to draw }. A point's lo
-- and hi draw its interval as a whisker; gap: its line does not join it to the one before.
-- x.gap_at: a break mark on the x axis there. end_labels: each line's name where it ends,
-- right of the plot (when they all fit). Returns the functions placing a value on each
-- axis, for marks drawn over the panel (they are clipped too when drawn with M.clipped).
function M.panel(out, p)
  p.size = p.size or M.WIDE
  local s = p.size
  p.W, p.H = p.W or s.W, p.H or s.H
  p.ph = p.H - s.T - s.B
  p.label_w = p.end_labels and p.x and M.end_label_width(p) or 0
  p.pw = p.W - s.L - math.max(s.R, p.label_w)
  out[#out + 1] = ('<text x="%d" y="%d" font-size="%d" font-weight="bold">%s</text>'):format(p.x0 + 8,
    p.y0 + s.title + 6, s.title, esc(M.fit(p.title, p.W - 16, s.title)))
  if not p.x then
    out[#out + 1] = ('<text x="%d" y="%d" font-size="%d">%s</text>'):format(p.x0 + 8, p.y0 + s.T + 20, s.label,
      esc(M.fit(p.empty or "nothing to draw", p.W - 16, s.label)))
    return
  end
  local left, bottom = p.x0 + s.L, p.y0 + s.T + p.ph
  local function fx(v) return M.place(p.x, v, left + s.pad, left + p.pw - s.pad) end
  local function fy(v) return M.place(p.y, v, bottom, bottom - p.ph) end
  draw_axes(out, p, fx, fy)
  p.clip = clip(out, left, bottom - p.ph, p.pw, p.ph)
  out[#out + 1] = ('<g clip-path="url(#%s)">'):format(p.clip)
  for i, ser in ipairs(p.series) do draw_series(out, p, i, ser, fx, fy) end
  out[#out + 1] = "</g>"
  if p.label_w > 0 then M.end_labels(out, p, fx, fy) end
  return fx, fy
end

-- The room the names at the lines' ends take (0: none, when they could not all stand one
-- above the other beside the plot): the longest name, at most 28% of the panel.
function M.end_label_width(p)
  local s, w, n = p.size, 0, 0
  for _, ser in ipairs(p.series or {}) do
    if #ser.points > 0 and ser.line ~= false then n = n + 1; w = math.max(w, M.text_width(ser.name, s.tick)) end
  end
  if n == 0 or n * (s.tick + 3) > p.ph then return 0 end
  return math.floor(math.min(w + 22, p.W * 0.28))
end

-- Each line's name beside the plot at the height its line ends (those that end at its right
-- edge), pushed apart so none touches another, joined to its line's end by a stroke in the
-- line's colour and dash. A
-- name is in a g.endlabel of its series' name: a click on its legend entry hides it too.
function M.end_labels(out, p, fx, fy)
  local s, items = p.size, {}
  local right = p.x0 + s.L + p.pw - s.pad
  for _, ser in ipairs(p.series) do -- a line that ends short of the plot's right edge is named by its legend only
    local q = ser.points[#ser.points]
    if q and ser.line ~= false and fx(q.x) >= right - 12 then items[#items + 1] = { ser = ser, x = fx(q.x), y = fy(q.y) } end
  end
  table.sort(items, function(a, b) return a.y < b.y end)
  local gap, top, bottom = s.tick + 3, p.y0 + s.T + s.tick / 2, p.y0 + s.T + p.ph - s.tick / 2
  for i, it in ipairs(items) do it.at = math.max(it.y, top, i > 1 and items[i - 1].at + gap or top) end
  for i = #items, 1, -1 do
    local it = items[i]
    it.at = math.min(it.at, i < #items and items[i + 1].at - gap or bottom)
  end
  local lx = p.x0 + s.L + p.pw + 4
  for _, it in ipairs(items) do
    local ser = it.ser
    out[#out + 1] = ('<g class="endlabel" data-name="%s">'):format(esc(ser.name))
    stroke(out, ser.color_used, ser.dash_used, 1.5, { math.floor(it.x + 6), math.floor(it.y), lx + 10, math.floor(it.at) })
    out[#out + 1] = ('<text x="%d" y="%.1f" font-size="%d" fill="#222">%s</text>'):format(lx + 13,
      it.at + s.tick * 0.35, s.tick, esc(M.fit(ser.name, p.label_w - 18, s.tick)))
    out[#out + 1] = "</g>"
  end
end

-- Marks drawn over a panel (body lines), inside its clip.
function M.clipped(out, p, marks)
  if not p.clip or #marks == 0 then return end
  out[#out + 1] = ('<g clip-path="url(#%s)">'):format(p.clip)
  for _, m in ipairs(marks) do out[#out + 1] = m end
  out[#out + 1] = "</g>"
end

-- A dot chart of named rows (what a comparison of methods alone is): each row's value a dot
-- with its interval, on a rows/s axis from 0. p = { x0, y0, W, size, title, rows = { { name,
-- y, lo, hi, tip, color } }, label (of the value axis) }; the panel's height follows the rows.
-- Returns the height.
function M.dots(out, p)
  p.size = p.size or M.WIDE
  local s = p.size
  p.W = p.W or s.W
  local namew = 48
  for _, r in ipairs(p.rows) do namew = math.max(namew, math.min(p.W * 0.42, M.text_width(r.name, s.tick) + 12)) end
  local top, plotw = p.y0 + s.T, p.W - namew - s.R - 8
  p.H = s.T + #p.rows * s.row + s.B
  out[#out + 1] = ('<text x="%d" y="%d" font-size="%d" font-weight="bold">%s</text>'):format(p.x0 + 8,
    p.y0 + s.title + 6, s.title, esc(M.fit(p.title, p.W - 16, s.title)))
  local hi = 0
  for _, r in ipairs(p.rows) do hi = math.max(hi, r.hi or r.y) end
  local axis = M.nice_axis(0, hi * 1.05, p.W < 600 and 3 or 6)
  local left, bottom = p.x0 + namew + 8, top + #p.rows * s.row
  local function fx(v) return M.place(axis, v, left, left + plotw) end
  for _, t in ipairs(axis.ticks) do
    out[#out + 1] = ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>'):format(fx(t), top, fx(t), bottom)
  end
  local kept = thin(axis.ticks, fx, function(t) return M.text_width(M.short(t), s.tick) end, p.x0 + 2, p.x0 + p.W - 2, 8)
  for _, t in ipairs(kept) do
    out[#out + 1] = ('<text x="%.1f" y="%d" font-size="%d" text-anchor="middle">%s</text>'):format(fx(t),
      bottom + 6 + s.tick, s.tick, M.short(t))
  end
  out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'):format(left, bottom, left + plotw, bottom)
  out[#out + 1] = ('<text x="%d" y="%d" font-size="%d" text-anchor="middle">%s</text>'):format(left + plotw / 2,
    p.y0 + p.H - 10, s.label, esc(M.fit(p.label or "rows/s", plotw, s.label)))
  for i, r in ipairs(p.rows) do
    local y = top + (i - 0.5) * s.row
    local color = r.color or M.PALETTE[1]
    out[#out + 1] = ('<g class="series" data-name="%s">'):format(esc(r.name))
    out[#out + 1] = ('<text x="%d" y="%.1f" font-size="%d" text-anchor="end">%s</text>'):format(left - 8,
      y + s.tick * 0.35, s.tick, esc(M.fit(r.name, namew - 4, s.tick)))
    if r.lo and r.hi then draw_whisker(out, fx(r.lo), fx(r.hi), y, color, true) end
    out[#out + 1] = ('<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s"><title>%s</title></circle></g>'):format(fx(r.y),
      y, color, esc(r.tip or r.name))
  end
  return p.H
end

-- The legend entries of a panel's series, for HTML: { name, color, dash, line }.
function M.legend_items(p)
  local items = {}
  for i, s in ipairs(p.series or {}) do
    local color, dash = palette.line_for(s.name, i)
    items[#items + 1] = { name = s.name, color = s.color or color, dash = dash, line = s.line ~= false }
  end
  return items
end

-- A legend drawn into a file's SVG under its panel: entries in as many columns as fit the
-- width, at most LEGEND_MAX, the rest counted. Returns the height it took.
function M.legend(out, items, x0, y0, W, size)
  size = size or M.WIDE
  if #items == 0 then return 0 end
  local font, colw = size.tick, 0
  for _, it in ipairs(items) do colw = math.max(colw, M.text_width(it.name, font) + 40) end
  colw = math.min(colw, W - 16)
  local cols = math.max(1, math.floor((W - 16) / colw))
  local shown = math.min(#items, M.LEGEND_MAX)
  for i = 1, shown do
    local it = items[i]
    local x, y = x0 + 8 + ((i - 1) % cols) * colw, y0 + 14 + math.floor((i - 1) / cols) * (font + 8)
    if it.line then
      stroke(out, it.color, it.dash, 3, { x, y - 4, x + 22, y - 4 })
    else
      out[#out + 1] = ('<circle cx="%d" cy="%d" r="4.5" fill="%s"/>'):format(x + 11, y - 4, it.color)
    end
    out[#out + 1] = ('<text class="legend" data-name="%s" x="%d" y="%d" font-size="%d">%s</text>'):format(esc(it.name),
      x + 28, y, font, esc(M.fit(it.name, colw - 36, font)))
  end
  local rows = math.ceil(shown / cols)
  local h = 14 + rows * (font + 8)
  if #items > shown then
    out[#out + 1] = ('<text x="%d" y="%d" font-size="%d">… and %d more</text>'):format(x0 + 8, y0 + h, font,
      #items - shown)
    h = h + font + 8
  end
  return h
end

function M.text(out, x, y, s, attrs)
  out[#out + 1] = ('<text x="%d" y="%d"%s>%s</text>'):format(x, y, attrs and (" " .. attrs) or "", esc(s))
end

-- What a panel shows, as text for those who cannot see it: each series and its points
-- (x: y, with the interval when there is one), DESC_POINTS of each at most.
function M.summary(p)
  if not p.x then return p.title .. ": " .. (p.empty or "nothing to draw") end
  local fx, fy = p.x.fmt or M.short, p.y.fmt or M.short
  local parts = { ("%s; x: %s, y: %s."):format(p.title, p.x.label, p.y.label) }
  for _, s in ipairs(p.series) do
    local pts = {}
    for i, q in ipairs(s.points) do
      if i > M.DESC_POINTS then pts[#pts + 1] = ("and %d more"):format(#s.points - M.DESC_POINTS); break end
      pts[#pts + 1] = fx(q.x) .. ": " .. fy(q.y) .. (q.lo and (" (" .. fy(q.lo) .. " to " .. fy(q.hi) .. ")") or "")
    end
    parts[#parts + 1] = s.name .. ": " .. (#pts > 0 and table.concat(pts, ", ") or "no points") .. "."
  end
  return table.concat(parts, " ")
end

-- The SVG document around what the panels wrote into body; alt = { title, desc }, the
-- chart's text alternative (its name and what it shows), when given; class: of the svg.
function M.document(W, H, body, alt, class)
  local out = {
    ('<svg xmlns="http://www.w3.org/2000/svg"%s width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif"%s>')
      :format(class and (' class="' .. class .. '"') or "", W, H, W, H,
        alt and (' role="img" aria-label="%s"'):format(esc(alt.title)) or ""),
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
