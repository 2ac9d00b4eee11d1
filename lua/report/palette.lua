-- bulkbench.report.palette: the looks the report's charts tell names apart by. Hues are Okabe and
-- Ito's eight, which people with the common colour-vision deficiencies can tell apart; past
-- eight, a look is a hue with a line style (lines) or a pattern (bars), so no two names in one
-- chart share a look up to 32 of them. A wait event keeps its look on every page: the common
-- ones have looks of their own (WAIT), any other takes one from its name (a hash), the next
-- free one when two would meet on one page. Requires nothing.
local M = {}

-- Okabe-Ito, in the order lines take them (yellow, faint on white, last)
M.HUES = { "#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000", "#F0E442" }
-- a line's style by its round of hues: SVG dash pattern ("double": a line with a white core)
-- and the CSS border style its legend key draws
M.DASHES = { "", "6 3", "2 3", "double" }
M.BORDER = { [""] = "solid", ["6 3"] = "dashed", ["2 3"] = "dotted", double = "double" }
M.GREY = "#B0B0B0" -- time that is not the server's (a wait event "client"): no hue

-- The colour and dash of the i-th line of a chart: the hues, then each again in the next style.
function M.line(i)
  local n = #M.HUES
  return M.HUES[(i - 1) % n + 1], M.DASHES[math.floor((i - 1) / n) % #M.DASHES + 1]
end

-- The looks given on the page being made (name -> { colour, dash }); nil outside one.
local page

-- A page begins (bulkbench.report.html): from here to its end a line's look is its name's
-- (the same in every chart of the page, no two names one look up to 32 of them).
function M.page_begin() page = { by = {}, n = 0 } end
function M.page_end() page = nil end

-- The look of line `name`, the i-th of its chart: on a page, its name's; else the i-th.
function M.line_for(name, i)
  if not page then return M.line(i) end
  local l = page.by[name]
  if not l then
    page.n = page.n + 1
    l = { M.line(page.n) }
    page.by[name] = l
  end
  return l[1], l[2]
end

-- hex mixed with white: f = 0 the hue, 1 white
function M.tint(hex, f)
  local out = {}
  for i, at in ipairs { 2, 4, 6 } do
    local v = tonumber(hex:sub(at, at + 1), 16)
    out[i] = ("%02X"):format(math.floor(v + (255 - v) * f + 0.5))
  end
  return "#" .. table.concat(out)
end

-- The fills of bars: { bg (the background colour), image (a CSS pattern over it, or nil),
-- hue }; the hues plain, then light with the hue's stripes, then lighter with its dots.
M.FILLS = {}
for round, pattern in ipairs { false, "stripes", "dots" } do
  for _, hue in ipairs(M.HUES) do
    local f = { hue = hue, bg = hue }
    if pattern == "stripes" then
      f.bg = M.tint(hue, 0.6)
      f.image = ("repeating-linear-gradient(45deg,%s 0 2px,transparent 2px 5px)"):format(hue)
    elseif pattern == "dots" then
      f.bg = M.tint(hue, 0.8)
      f.image = ("radial-gradient(%s 30%%,transparent 34%%)"):format(hue)
      f.size = "5px 5px"
    end
    f.n = #M.FILLS + 1
    M.FILLS[f.n] = f
  end
  if round == 3 then break end
end

-- The CSS of a fill (background and pattern).
function M.css(f)
  local s = "background-color:" .. f.bg
  if f.image then s = s .. ";background-image:" .. f.image .. (f.size and (";background-size:" .. f.size) or "") end
  return s
end

-- The wait events every page draws alike: pg's and MariaDB's common ones. The fill's number
-- in FILLS (1-8 the hues plain, 9-16 striped, 17-24 dotted), or a fill of its own.
M.WAIT = {
  cpu = 3, client = { bg = M.GREY, hue = M.GREY, n = 0 }, other = 7,
  WALSync = 1, WALWrite = 6, WALInsert = 8, Commit = 4, BufferContent = 2, DataFileExtend = 5,
  ProcArrayGroupUpdate = 9, BufferMapping = 10, XactGroupUpdate = 14, WALBufMapping = 16, DataFileWrite = 13,
  DataFileRead = 11, DataFileSync = 12, relation = 18, transactionid = 20, tuple = 21, extend = 22,
  ["waiting for handler commit"] = 17, Update = 19, ["query end"] = 23,
}

local function hash(s)
  local h = 5381
  for i = 1, #s do h = (h * 33 + s:byte(i)) % 2147483647 end
  return h
end

-- A fill for each of names (wait events), as a table name -> fill: WAIT's where it has one,
-- else the one the name's hash picks among those WAIT leaves, the next free one when taken on
-- this page; once every fill is taken, the hash's.
function M.wait_fills(names)
  local out, taken, reserved, free = {}, {}, {}, {}
  for _, v in pairs(M.WAIT) do if type(v) == "number" then reserved[v] = true end end
  for i = 1, #M.FILLS do if not reserved[i] then free[#free + 1] = i end end
  local rest = {}
  for _, name in ipairs(names) do
    local w = M.WAIT[name]
    if w and not out[name] then
      out[name] = type(w) == "table" and w or M.FILLS[w]
      taken[out[name]] = true
    elseif not w then rest[#rest + 1] = name end
  end
  table.sort(rest) -- which of two names meeting on a page moves does not hang on their order
  local all = {}
  for i = 1, #M.FILLS do all[i] = i end
  local function untaken(list, start) -- the first fill of list from start not taken on this page
    for k = 0, #list - 1 do
      local f = M.FILLS[list[(start + k) % #list + 1]]
      if not taken[f] then return f end
    end
  end
  for _, name in ipairs(rest) do
    if out[name] then goto next end
    local h = hash(name)
    local pick = untaken(free, h % #free) or untaken(all, h % #all) or M.FILLS[free[h % #free + 1]]
    out[name] = pick
    taken[pick] = true
    ::next::
  end
  return out
end

return M
