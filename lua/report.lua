-- bulkbench.report: results files (JSON lines) into comparison tables and an SVG chart.
--   bulkbench report RESULTS.jsonl [more.jsonl] [--format=text|markdown|csv] [--svg=FILE] [--log]
local core = require "bulkbench.core"
local M = {}

-- ---- reading ----

function M.load(paths)
  local results = {}
  for _, path in ipairs(paths) do
    local f, why = io.open(path)
    if not f then core.usage_error("cannot read results file " .. path .. ": " .. tostring(why)) end
    local n = 0
    for line in f:lines() do
      n = n + 1
      if line:match("%S") then
        local r, err = core.json_decode(line)
        if type(r) ~= "table" then error(("%s:%d: not a result (%s)"):format(path, n, err or "not an object"), 0) end
        results[#results + 1] = r
      end
    end
    f:close()
  end
  return results
end

-- ---- what varies ----

local DIMS = { "engine", "method", "threads", "batch", "target" }

local function dim_value(r, d)
  if d:sub(1, 4) == "set." then return r.set and r.set[d:sub(5)] end
  -- one engine, many servers: odbc runs are told apart by the DBMS its driver reached
  if d == "engine" and r.engine == "odbc" and type(r.server) == "table" and type(r.server.version) == "string" then
    return "odbc (" .. r.server.version:match("^%S+") .. ")"
  end
  if d:sub(1, 4) == "opt." then return r.options and r.options[d:sub(5)] end
  return r[d]
end

local function dim_label(d) return (d:gsub("^set%.", ""):gsub("^opt%.", "--")) end

-- scenario name -> list of its results, in file order
local function by_scenario(results)
  local order, groups = {}, {}
  for _, r in ipairs(results) do
    local s = r.scenario or "?"
    if not groups[s] then groups[s] = {}; order[#order + 1] = s end
    table.insert(groups[s], r)
  end
  return order, groups
end

-- the dimensions whose value differs between runs of a group, and those that do not
local function split_dims(rs)
  local dims = {}
  for _, d in ipairs(DIMS) do dims[#dims + 1] = d end
  local seen = {}
  for _, r in ipairs(rs) do
    for _, kind in ipairs { "set", "options" } do
      local names = {}
      for k in pairs(r[kind] or {}) do names[#names + 1] = k end
      table.sort(names)
      for _, k in ipairs(names) do
        local d = (kind == "set" and "set." or "opt.") .. k
        if not seen[d] then seen[d] = true; dims[#dims + 1] = d end
      end
    end
  end
  local varying, fixed = {}, {}
  for _, d in ipairs(dims) do
    local vals, n = {}, 0
    for _, r in ipairs(rs) do
      local v = tostring(dim_value(r, d))
      if not vals[v] then vals[v] = true; n = n + 1 end
    end
    if n > 1 then varying[#varying + 1] = d
    elseif dim_value(rs[1], d) ~= nil then fixed[#fixed + 1] = d end
  end
  return varying, fixed
end

local function metric_names(rs)
  local names, seen = {}, {}
  for _, r in ipairs(rs) do
    for k in pairs(r.metrics or {}) do
      if not seen[k] then seen[k] = true; names[#names + 1] = k end
    end
  end
  table.sort(names)
  return names
end

-- ---- tables ----

local function num(v, fmt)
  if v == nil then return "null" end
  return (fmt or "%.0f"):format(v)
end

local function mb(v) return v and v / 1e6 end

-- the columns of one scenario's table: header and a cell function
local function columns(rs)
  local varying = split_dims(rs)
  local best = 0
  for _, r in ipairs(rs) do best = math.max(best, r.rows_per_s or 0) end
  local cols = {}
  for _, d in ipairs(varying) do
    cols[#cols + 1] = { dim_label(d), function(r) return tostring(dim_value(r, d) or "-") end }
  end
  local function add(h, f) cols[#cols + 1] = { h, f } end
  add("rows", function(r) return num(r.rows) end)
  add("seconds", function(r) return num(r.seconds, "%.3f") end)
  add("rows/s", function(r) return num(r.rows_per_s) end)
  add("MB/s", function(r) return num(r.mb_per_s, "%.2f") end)
  add("p95 ms", function(r) return num(r.latency_ms and r.latency_ms.p95, "%.3f") end)
  add("client cpu s", function(r) return num(r.client_cpu_s, "%.2f") end)
  add("server cpu s", function(r) return num(r.server and r.server.cpu_s, "%.2f") end)
  add("log MB", function(r) return num(mb(r.server and r.server.log_bytes), "%.1f") end)
  add("table MB", function(r) return num(mb(r.server and r.server.table_bytes), "%.1f") end)
  for _, m in ipairs(metric_names(rs)) do
    add(m, function(r) return num(r.metrics and r.metrics[m], "%.3f") end)
  end
  add("vs best", function(r)
    if r.error then return "FAILED" end
    return (best > 0 and r.rows_per_s) and ("%.2f"):format(r.rows_per_s / best) or "null"
  end)
  return cols
end

local function render(cols, rs, fmt)
  local grid = { {} }
  for i, c in ipairs(cols) do grid[1][i] = c[1] end
  for _, r in ipairs(rs) do
    local row = {}
    for i, c in ipairs(cols) do row[i] = c[2](r) end
    grid[#grid + 1] = row
  end
  local out = {}
  if fmt == "markdown" then
    for n, row in ipairs(grid) do
      out[#out + 1] = "| " .. table.concat(row, " | ") .. " |"
      if n == 1 then
        local sep = {}
        for i = 1, #row do sep[i] = i <= 1 and "---" or "---:" end
        out[#out + 1] = "|" .. table.concat(sep, "|") .. "|"
      end
    end
  elseif fmt == "csv" then
    for _, row in ipairs(grid) do
      local cells = {}
      for i, v in ipairs(row) do cells[i] = v:find('[,"\n]') and ('"' .. v:gsub('"', '""') .. '"') or v end
      out[#out + 1] = table.concat(cells, ",")
    end
  else
    local w = {}
    for _, row in ipairs(grid) do
      for i, v in ipairs(row) do w[i] = math.max(w[i] or 0, #v) end
    end
    for _, row in ipairs(grid) do
      local cells = {}
      for i, v in ipairs(row) do cells[i] = (i == 1 and "%-" or "%") .. w[i] .. "s" end
      out[#out + 1] = table.concat(cells, "  "):format(unpack(row))
    end
  end
  return table.concat(out, "\n")
end

function M.tables(results, fmt)
  local order, groups = by_scenario(results)
  local out = {}
  for _, s in ipairs(order) do
    local rs = groups[s]
    local _, fixed = split_dims(rs)
    local same = {}
    for _, d in ipairs(fixed) do same[#same + 1] = dim_label(d) .. "=" .. tostring(dim_value(rs[1], d)) end
    local title = ("%s: %d run%s%s"):format(s, #rs, #rs == 1 and "" or "s",
      #same > 0 and (" (" .. table.concat(same, ", ") .. ")") or "")
    if fmt == "markdown" then title = "### " .. title .. "\n" end
    if fmt ~= "csv" then out[#out + 1] = title end
    out[#out + 1] = render(columns(rs), rs, fmt)
    out[#out + 1] = ""
  end
  return table.concat(out, "\n")
end

-- ---- SVG ----

local PALETTE = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                  "#7f7f7f", "#bcbd22" }

local function esc(s)
  return (tostring(s):gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;"))
end

local function nice_ticks(lo, hi, n)
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

local function short(v)
  if v >= 1e6 then return ("%gM"):format(tonumber(("%.3g"):format(v / 1e6))) end
  if v >= 1e3 then return ("%gk"):format(tonumber(("%.3g"):format(v / 1e3))) end
  return ("%g"):format(tonumber(("%.3g"):format(v)))
end

-- one panel: rows/s against the varying numeric dimension (threads or batch), a line per
-- series (engine × method × the other varying dimensions)
-- the series of a group with xdim as the x axis: key -> points, and their order
local function make_series(rs, varying, xdim)
  local series, order = {}, {}
  for i, r in ipairs(rs) do
    if r.rows_per_s and r.rows_per_s > 0 and not r.error then
      local key = {}
      for _, d in ipairs(varying) do
        local raw = dim_value(r, d)
        if d ~= xdim and raw ~= nil then -- a setting this run did not have is left out
          local v = tostring(raw)
          key[#key + 1] = (d == "engine" or d == "method") and v or (dim_label(d) .. "=" .. v)
        end
      end
      local k = #key > 0 and table.concat(key, ", ") or (r.engine .. ", " .. (r.method or "event"))
      if not series[k] then series[k] = {}; order[#order + 1] = k end
      table.insert(series[k], { x = xdim and tonumber(dim_value(r, xdim)) or i, y = r.rows_per_s })
    end
  end
  return series, order
end

local function panel(out, scenario, rs, x0, y0, W, H, logy)
  local varying = split_dims(rs)
  -- x axis: the numeric dimension that draws the longest lines
  local xdim, best = nil, 0
  for _, d in ipairs(varying) do
    if d == "threads" or d == "batch" then
      local ss = make_series(rs, varying, d)
      local score = 0
      for _, pts in pairs(ss) do if #pts > 1 then score = score + #pts end end
      if score > best then xdim, best = d, score end
    end
  end
  local series, order = make_series(rs, varying, xdim)
  local xs, ymax, ymin = {}, 0, math.huge
  for _, k in ipairs(order) do
    table.sort(series[k], function(a, b) return a.x < b.x end)
    for _, p in ipairs(series[k]) do xs[#xs + 1] = p.x; ymax = math.max(ymax, p.y); ymin = math.min(ymin, p.y) end
  end
  local L, R, T, B = 80, 300, 40, 50 -- margins; the legend sits on the right
  local pw, ph = W - L - R, H - T - B
  out[#out + 1] = ('<text x="%d" y="%d" font-size="15" font-weight="bold">%s</text>'):format(x0 + L, y0 + 24, esc(scenario))
  if #xs == 0 then
    out[#out + 1] = ('<text x="%d" y="%d">no successful runs to draw</text>'):format(x0 + L, y0 + T + 20)
    return
  end
  local xmin, xmax = math.min(unpack(xs)), math.max(unpack(xs))
  local logx = xdim and xmax / math.max(xmin, 1) >= 8 -- threads 1..16, batch 1..10000: log2/log10 spacing
  local function fx(x)
    if xmax == xmin then return x0 + L + pw / 2 end
    if logx then return x0 + L + pw * (math.log(x) - math.log(xmin)) / (math.log(xmax) - math.log(xmin)) end
    return x0 + L + pw * (x - xmin) / (xmax - xmin)
  end
  local ylo, yhi, ticks
  if logy then
    ylo, yhi = 10 ^ math.floor(math.log10(ymin)), 10 ^ math.ceil(math.log10(ymax))
    ticks = {}
    local t = ylo
    while t <= yhi * 1.0001 do ticks[#ticks + 1] = t; t = t * 10 end
  else
    ticks = nice_ticks(0, ymax * 1.05, 5)
    ylo, yhi = 0, ticks[#ticks]
  end
  local function fy(y)
    if logy then return y0 + T + ph - ph * (math.log10(y) - math.log10(ylo)) / (math.log10(yhi) - math.log10(ylo)) end
    return y0 + T + ph - ph * (y - ylo) / (yhi - ylo)
  end
  -- axes, grid, ticks, labels
  out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'):format(x0 + L, y0 + T + ph, x0 + L + pw, y0 + T + ph)
  out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'):format(x0 + L, y0 + T, x0 + L, y0 + T + ph)
  for _, t in ipairs(ticks) do
    local y = fy(t)
    out[#out + 1] = ('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'):format(x0 + L, y, x0 + L + pw, y)
    out[#out + 1] = ('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>'):format(x0 + L - 6, y + 4, short(t))
  end
  local xt, seenx = {}, {}
  for _, x in ipairs(xs) do if not seenx[x] then seenx[x] = true; xt[#xt + 1] = x end end
  table.sort(xt)
  for _, x in ipairs(xt) do
    out[#out + 1] = ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333"/>'):format(fx(x), y0 + T + ph, fx(x), y0 + T + ph + 5)
    out[#out + 1] = ('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>'):format(fx(x), y0 + T + ph + 18,
      xdim and short(x) or ("#" .. x))
  end
  out[#out + 1] = ('<text x="%d" y="%d" font-size="12" text-anchor="middle">%s</text>'):format(x0 + L + pw / 2, y0 + H - 10,
    esc(xdim and (xdim .. (logx and " (log scale)" or "")) or "run"))
  out[#out + 1] = ('<text x="%d" y="%d" font-size="12" text-anchor="middle" transform="rotate(-90 %d %d)">%s</text>')
    :format(x0 + 18, y0 + T + ph / 2, x0 + 18, y0 + T + ph / 2, "rows/s" .. (logy and " (log scale)" or ""))
  -- a line and markers per series, and its legend entry
  for i, k in ipairs(order) do
    local color = PALETTE[(i - 1) % #PALETTE + 1]
    local dash = ({ "", ' stroke-dasharray="6 3"', ' stroke-dasharray="2 3"' })[math.floor((i - 1) / #PALETTE) % 3 + 1]
    local pts = {}
    for _, p in ipairs(series[k]) do pts[#pts + 1] = ("%.1f,%.1f"):format(fx(p.x), fy(p.y)) end
    out[#out + 1] = ('<g class="series" data-name="%s">'):format(esc(k))
    out[#out + 1] = ('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'):format(color, dash,
      table.concat(pts, " "))
    for _, p in ipairs(series[k]) do
      out[#out + 1] = ('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s: %s rows/s</title></circle>')
        :format(fx(p.x), fy(p.y), color, esc(k), short(p.y))
    end
    out[#out + 1] = "</g>"
    local ly = y0 + T + 8 + (i - 1) * 18
    out[#out + 1] = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"%s/>'):format(x0 + W - R + 14,
      ly - 2, x0 + W - R + 32, ly - 2, color, dash)
    local label = #k > 42 and (k:sub(1, 40) .. "…") or k
    out[#out + 1] = ('<text x="%d" y="%d" font-size="12">%s<title>%s</title></text>'):format(x0 + W - R + 36, ly + 2,
      esc(label), esc(k))
  end
end

function M.svg(results, opts)
  local order, groups = by_scenario(results)
  local W, H = 1000, 380
  local out = {
    ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">')
      :format(W, H * #order, W, H * #order),
    ('<rect width="%d" height="%d" fill="white"/>'):format(W, H * #order),
  }
  for i, s in ipairs(order) do panel(out, s, groups[s], 0, (i - 1) * H, W, H, opts.log) end
  out[#out + 1] = "</svg>\n"
  return table.concat(out, "\n")
end

-- the `bulkbench report` command
function M.main(paths, opts)
  if #paths == 0 then core.usage_error("report needs a results file: bulkbench report RESULTS.jsonl [--svg=FILE]") end
  local fmt = opts.format or "text"
  if fmt ~= "text" and fmt ~= "markdown" and fmt ~= "csv" then
    core.usage_error("--format=" .. fmt .. ": a report is text, markdown or csv")
  end
  local results = M.load(paths)
  if #results == 0 then core.usage_error("no results in " .. table.concat(paths, ", ")) end
  if opts.svg then
    local f, why = io.open(opts.svg, "w")
    if not f then error("cannot write " .. opts.svg .. ": " .. tostring(why), 0) end
    f:write(M.svg(results, opts))
    f:close()
  end
  return M.tables(results, fmt)
end

return M
