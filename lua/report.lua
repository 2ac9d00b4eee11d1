-- bulkbench.report: results files (JSON lines) into comparison tables and an SVG chart.
--   bulkbench report RESULTS.jsonl [more.jsonl] [--format=text|markdown|csv] [--svg=FILE] [--log]
-- and the other reports of the same files, each in a module of its own:
--   --compare BASE CANDIDATE (bulkbench.compare), --timeline (bulkbench.timeline), --cdf (bulkbench.cdf),
--   --html=FILE: all of them in one page (bulkbench.html)
local core = require "bulkbench.core"
local chart = require "bulkbench.chart"
local M = {}

-- ---- reading ----

-- path -> its results: a file is read once, as a pipe (<(...)) can only be, though both the
-- text report and the --html page use it
local loaded = {}

local function load_file(path)
  if loaded[path] then return loaded[path] end
  local f, why = io.open(path)
  if not f then core.usage_error("cannot read results file " .. path .. ": " .. tostring(why)) end
  local results, n = {}, 0
  for line in f:lines() do
    n = n + 1
    if line:match("%S") then
      local r, err = core.json_decode(line)
      if type(r) ~= "table" then error(("%s:%d: not a result (%s)"):format(path, n, err or "not an object"), 0) end
      results[#results + 1] = r
    end
  end
  f:close()
  loaded[path] = results
  return results
end

function M.load(paths)
  local results = {}
  for _, path in ipairs(paths) do
    for _, r in ipairs(load_file(path)) do results[#results + 1] = r end
  end
  return results
end

-- The results of paths, at least one: else a usage error that shows how ("usage").
function M.results(paths, usage)
  if #paths == 0 then core.usage_error("report needs a results file: " .. usage) end
  local results = M.load(paths)
  if #results == 0 then core.usage_error("no results in " .. table.concat(paths, ", ")) end
  return results
end

-- ---- what varies ----

local DIMS = { "engine", "method", "threads", "batch", "target" }

function M.dim_value(r, d)
  if d:sub(1, 4) == "set." then return r.set and r.set[d:sub(5)] end
  -- one engine, many servers: odbc runs are told apart by the DBMS its driver reached
  if d == "engine" and r.engine == "odbc" and type(r.server) == "table" and type(r.server.version) == "string" then
    return "odbc (" .. r.server.version:match("^%S+") .. ")"
  end
  if d:sub(1, 4) == "opt." then return r.options and r.options[d:sub(5)] end
  return r[d]
end

local dim_value = M.dim_value

function M.dim_label(d) return (d:gsub("^set%.", ""):gsub("^opt%.", "--")) end
local dim_label = M.dim_label

-- The dimensions that make a result's point: what ran (engine, method, threads, batch,
-- target) and how (its --set values and script options), as dim_value names them.
function M.point_dims(r)
  local dims = { "engine", "method", "threads", "batch", "target" }
  for _, kind in ipairs { "set", "options" } do
    local names = {}
    for k in pairs(type(r[kind]) == "table" and r[kind] or {}) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do dims[#dims + 1] = (kind == "set" and "set." or "opt.") .. k end
  end
  return dims
end

-- The identity of a result's point, its scenario and point_dims: runs of one point share it.
function M.point_key(r)
  local parts = { tostring(r.scenario) }
  for _, d in ipairs(M.point_dims(r)) do parts[#parts + 1] = d .. "=" .. tostring(dim_value(r, d)) end
  return table.concat(parts, "; ")
end

-- A point for a sentence: "scenario (engine, method, threads=1, batch=1000)".
function M.describe(r)
  return ("%s (%s)"):format(r.scenario or "?", M.label(r, M.point_dims(r)) or "")
end

-- scenario name -> list of its items (results, or what result_of gives a result of), in file order
function M.by_scenario(items, result_of)
  local order, groups = {}, {}
  for _, r in ipairs(items) do
    local s = (result_of and result_of(r) or r).scenario or "?"
    if not groups[s] then groups[s] = {}; order[#order + 1] = s end
    table.insert(groups[s], r)
  end
  return order, groups
end

-- the dimensions whose value differs between runs of a group, and those that do not
function M.split_dims(rs)
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

local split_dims = M.split_dims

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

function M.has_repeats(rs)
  for _, r in ipairs(rs) do
    if r.repeats then return true end
  end
  return false
end

-- the columns of one scenario's table: header and a cell function
function M.columns(rs)
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
  if M.has_repeats(rs) then -- --repeat: rows/s is the median; its interval, how many runs, how far they spread
    add("rows/s 95%", function(r)
      local lo, hi = M.ci95(r)
      return lo and ("%.0f-%.0f"):format(lo, hi) or "-"
    end)
    add("runs", function(r) return num(r.repeats or 1) end)
    add("cv %", function(r)
      local cv = type(r.stats) == "table" and type(r.stats.rows_per_s) == "table" and r.stats.rows_per_s.cv
      return num(type(cv) == "number" and cv * 100 or nil, "%.1f")
    end)
  end
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

-- rows as a table in fmt (text, markdown or csv): cols = { { header, function(row) -> text } }
function M.render(cols, rs, fmt)
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

-- A table's title line in fmt (CSV has none: its callers leave it out).
function M.heading(title, fmt) return fmt == "markdown" and ("### " .. title .. "\n") or title end

-- Appends to out a titled table (CSV: the table alone, even empty) and a blank line.
function M.section(out, head, cols, rows, fmt)
  if fmt ~= "csv" then out[#out + 1] = M.heading(head, fmt) end
  if #rows > 0 or fmt == "csv" then out[#out + 1] = M.render(cols, rows, fmt) end
  out[#out + 1] = ""
end

-- Appends "skipped WHY" lines for the items a report could not use (none in CSV).
function M.skipped(out, items, line_of, fmt)
  if fmt == "csv" or #items == 0 then return end
  for _, it in ipairs(items) do out[#out + 1] = "skipped " .. line_of(it) end
  out[#out + 1] = ""
end

-- The results items are or hold (result_of), in order.
function M.results_of(items, result_of)
  if not result_of then return items end
  local rs = {}
  for i, item in ipairs(items) do rs[i] = result_of(item) end
  return rs
end

-- What a scenario's results are and share: "4 points, 12 runs (engine=sqlite, threads=1)"
-- (noun: what one result is, "run" or "point").
function M.group_title(rs, noun)
  local _, fixed = split_dims(rs)
  local same = {}
  for _, d in ipairs(fixed) do same[#same + 1] = dim_label(d) .. "=" .. tostring(dim_value(rs[1], d)) end
  local count = ("%d %s%s"):format(#rs, noun, #rs == 1 and "" or "s")
  if noun == "run" and M.has_repeats(rs) then -- --repeat: a result is a point, the median of its runs
    local runs = 0
    for _, r in ipairs(rs) do runs = runs + (r.repeats or 1) end
    count = ("%d point%s, %d runs"):format(#rs, #rs == 1 and "" or "s", runs)
  end
  return count .. (#same > 0 and (" (" .. table.concat(same, ", ") .. ")") or "")
end

-- A table per scenario of its items, titled with what their results share (noun: "run"):
-- table_of(items) gives the table's columns, rows and format; result_of(item) the result
-- an item stands for (the item itself when nil).
function M.by_scenario_tables(items, fmt, noun, table_of, result_of)
  local order, groups = M.by_scenario(items, result_of)
  local out = {}
  for _, s in ipairs(order) do
    local title = s .. ": " .. M.group_title(M.results_of(groups[s], result_of), noun)
    if fmt ~= "csv" then out[#out + 1] = M.heading(title, fmt) end
    out[#out + 1] = M.render(table_of(groups[s]))
    out[#out + 1] = ""
  end
  return table.concat(out, "\n")
end

function M.tables(results, fmt)
  return M.by_scenario_tables(results, fmt, "run", function(rs) return M.columns(rs), rs, fmt end)
end

-- ---- SVG ----

-- The label of a result among others: the values of the varying dimensions but skip
-- (engine and method bare, the others name=value), or nil when none is set.
function M.label(r, varying, skip)
  local key = {}
  for _, d in ipairs(varying) do
    local raw = dim_value(r, d)
    if d ~= skip and raw ~= nil then -- a setting this run did not have is left out
      local v = tostring(raw)
      key[#key + 1] = (d == "engine" or d == "method") and v or (dim_label(d) .. "=" .. v)
    end
  end
  return #key > 0 and table.concat(key, ", ") or nil
end

-- A function naming each of results among the others for a legend: what varies between
-- them, after the scenario when there are several (or when nothing varies).
function M.labeller(results)
  local varying = split_dims(results)
  local scenarios = {}
  for _, r in ipairs(results) do scenarios[r.scenario or "?"] = true end
  local many = next(scenarios, next(scenarios)) ~= nil
  return function(r)
    local label = M.label(r, varying)
    if many or not label then label = (r.scenario or "?") .. (label and (" " .. label) or "") end
    return label
  end
end

-- The 95% interval of a --repeat result's median rows/s: lo, hi (nil without one).
function M.ci95(r)
  local ci = type(r.stats) == "table" and type(r.stats.rows_per_s) == "table" and r.stats.rows_per_s.ci95
  if type(ci) == "table" and type(ci[1]) == "number" and type(ci[2]) == "number" then return ci[1], ci[2] end
end

-- the series of a group with xdim as the x axis (engine × method × the other varying
-- dimensions): key -> points (with their interval, lo and hi, under --repeat), and their order
local function make_series(rs, varying, xdim)
  local series, order = {}, {}
  for i, r in ipairs(rs) do
    if r.rows_per_s and r.rows_per_s > 0 and not r.error then
      local k = M.label(r, varying, xdim) or (r.engine .. ", " .. (r.method or "event"))
      if not series[k] then series[k] = {}; order[#order + 1] = k end
      local lo, hi = M.ci95(r)
      table.insert(series[k], { x = xdim and tonumber(dim_value(r, xdim)) or i, y = r.rows_per_s, lo = lo, hi = hi })
    end
  end
  return series, order
end

-- the numeric dimension (threads or batch) that draws the longest lines, or nil
local function x_dimension(rs, varying)
  local xdim, best = nil, 0
  for _, d in ipairs(varying) do
    if d == "threads" or d == "batch" then
      local ss = make_series(rs, varying, d)
      local score = 0
      for _, pts in pairs(ss) do if #pts > 1 then score = score + #pts end end
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
    q.lo and (" (95%% interval %s to %s)"):format(chart.short(q.lo), chart.short(q.hi)) or "")
end

-- one scenario's panel: rows/s against its x dimension, a line per series, each point's
-- 95% interval (--repeat) a whisker; returns the panel
local function panel(out, scenario, rs, x0, y0, W, H, logy)
  local varying = split_dims(rs)
  local xdim = x_dimension(rs, varying)
  local series, order = make_series(rs, varying, xdim)
  local p = { x0 = x0, y0 = y0, W = W, H = H, title = scenario, series = {}, empty = "no successful runs to draw",
              tip = tip, dodge = 5 }
  local xs, ymax, ymin, seen = {}, 0, math.huge, {}
  for _, k in ipairs(order) do
    table.sort(series[k], function(a, b) return a.x < b.x end)
    p.series[#p.series + 1] = { name = k, points = series[k] }
    for _, q in ipairs(series[k]) do
      if not seen[q.x] then seen[q.x] = true; xs[#xs + 1] = q.x end
      ymax, ymin = math.max(ymax, q.hi or q.y), math.min(ymin, q.lo and q.lo > 0 and q.lo or q.y)
    end
  end
  if #xs > 0 then
    table.sort(xs)
    local logx = xdim and xs[#xs] / math.max(xs[1], 1) >= 8 -- threads 1..16, batch 1..10000: log spacing
    p.x = { lo = xs[1], hi = xs[#xs], ticks = xs, log = logx,
            label = xdim and M.axis_label(xdim, X_UNITS[xdim], logx) or "run",
            fmt = function(x) return xdim and chart.short(x) or ("#" .. x) end }
    p.y = logy and chart.decade_axis(ymin, ymax) or chart.nice_axis(0, ymax * 1.05)
    p.y.label = "rows/s" .. (logy and " (log scale)" or "")
  end
  chart.panel(out, p)
  return p
end

M.SWEEP_W, M.SWEEP_H = 1000, 380

function M.svg(results, opts)
  local order, groups = M.by_scenario(results)
  local W, H, body, descs = M.SWEEP_W, M.SWEEP_H, {}, {}
  for i, s in ipairs(order) do
    descs[i] = chart.summary(panel(body, s, groups[s], 0, (i - 1) * H, W, H, opts.log))
  end
  return chart.document(W, H * #order, body, { title = "rows/s by scenario", desc = table.concat(descs, " ") })
end

-- One scenario's chart alone (the HTML report draws one per scenario), and its text alternative.
function M.scenario_svg(scenario, rs, opts)
  local body = {}
  local p = panel(body, "rows/s: " .. scenario, rs, 0, 0, M.SWEEP_W, M.SWEEP_H, opts.log)
  local desc = chart.summary(p)
  return chart.document(M.SWEEP_W, M.SWEEP_H, body, { title = p.title, desc = desc }), desc, p
end

-- which report the options ask for: "compare", "timeline", "cdf" or nil (tables and chart)
local function mode_of(opts)
  local modes = {}
  for _, m in ipairs { "compare", "timeline", "cdf" } do
    if opts[m] then modes[#modes + 1] = m end
  end
  if #modes > 1 then core.usage_error("--" .. table.concat(modes, " and --") .. ": one report at a time") end
  if opts.fail_if_slower and modes[1] ~= "compare" then
    core.usage_error("--fail-if-slower judges a comparison: "
      .. "bulkbench report --compare BASE.jsonl CANDIDATE.jsonl --fail-if-slower=PCT")
  end
  return modes[1]
end

-- the `bulkbench report` command: its text, the exit code it asks for and why (a failed
-- --fail-if-slower), which the command shows after the text
function M.main(paths, opts)
  local fmt = opts.format or "text"
  if fmt ~= "text" and fmt ~= "markdown" and fmt ~= "csv" then
    core.usage_error("--format=" .. fmt .. ": a report is text, markdown or csv")
  end
  local mode = mode_of(opts)
  local text, code, why
  if mode then
    text, code, why = require("bulkbench." .. mode).main(paths, opts)
  else
    local results = M.results(paths, "bulkbench report RESULTS.jsonl [--svg=FILE] [--html=FILE]")
    if opts.svg then chart.write(opts.svg, M.svg(results, opts)) end
    text, code = M.tables(results, fmt), 0
  end
  -- the page holds every report of the files whichever one the text is
  if opts.html then require("bulkbench.html").main(paths, opts) end
  return text, code, why
end

return M
