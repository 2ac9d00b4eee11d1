-- bulkbench.report.html: the report as one self-contained HTML page (--html=FILE). The answer first:
-- the verdict of each scenario (and advise's recommendation) above everything, then a section
-- per report: each scenario's verdict, the warnings its runs raised, its failures with their
-- errors, its chart and its table (fastest first, the deciding column first and pinned); the
-- comparison, the advise race, the timelines, the latency CDFs and the environment. No
-- network: the style, the charts and the little script (sorting, legend toggles) are inline,
-- and a Content-Security-Policy forbids anything else, so the page opens from disk for years.
-- Large results are summarised (capped tables, legends, lines and stalls), saying so.
--   bulkbench report RESULTS.jsonl... --html=FILE        bulkbench run ... --html=FILE
--   bulkbench report --compare BASE.jsonl CANDIDATE.jsonl --html=FILE
local core = require "bulkbench.core"
local results = require "bulkbench.report.results"
local points = require "bulkbench.report.points"
local tables = require "bulkbench.report.tables"
local chart = require "bulkbench.report.chart"
local sweep = require "bulkbench.report.sweep"
local verdict = require "bulkbench.report.verdict"
local compare = require "bulkbench.report.compare"
local timeline = require "bulkbench.report.timeline"
local cdf = require "bulkbench.report.cdf"
local race = require "bulkbench.report.race"
local environment = require "bulkbench.report.environment"
local waits = require "bulkbench.report.waits"
local growth = require "bulkbench.report.growth"
local page_parts = require "bulkbench.report.htmlpage"
local palette = require "bulkbench.report.palette"
local M = {}

local esc = chart.esc

M.TABLE_MAX = 200 -- rows a table shows; the rest are counted
M.LEGEND_MAX = 40 -- legend entries shown

-- ---- elements ----

-- A table of rows with columns { { header, function(row) -> text, function(row) -> HTML (a
-- cell drawn, not written; optional) } }, in a wrapper that scrolls sideways on a narrow
-- screen (its first columns pinned). A cell is one line as wide as its text. opts: attrs (of <table>),
-- class_of(header, text) (a cell's class), what (the rows' noun, for the count of those not
-- shown), max. The script only reorders the rows.
function M.table(cols, rows, opts)
  opts = opts or {}
  local max = opts.max or M.TABLE_MAX
  local out = { ('<div class="scroll"><table class="sortable"%s><thead><tr>'):format(opts.attrs or "") }
  for _, c in ipairs(cols) do out[#out + 1] = ('<th scope="col">%s</th>'):format(esc(c[1])) end
  out[#out + 1] = "</tr></thead><tbody>"
  for i, r in ipairs(rows) do
    if i > max then break end
    out[#out + 1] = "<tr>"
    for _, c in ipairs(cols) do
      local v = c[2](r)
      local class = opts.class_of and opts.class_of(c[1], v) or (tonumber(v) and "num")
      out[#out + 1] = ("<td%s>%s</td>"):format(class and (' class="' .. class .. '"') or "", c[3] and c[3](r) or esc(v))
    end
    out[#out + 1] = "</tr>"
  end
  out[#out + 1] = "</tbody></table></div>"
  if #rows > max then
    out[#out + 1] = M.p(("The first %d of %d %s are shown; bulkbench report --format=csv lists them all.")
      :format(max, #rows, opts.what or "rows"), "note")
  end
  return table.concat(out)
end

-- The style of a legend entry's key: a line's colour and style (its border), a bar's fill,
-- or a dot's colour.
local function key_style(it)
  if it.line then
    return ("border-top:%dpx %s %s"):format(it.dash == "double" and 5 or 3, palette.BORDER[it.dash or ""] or "solid",
      it.color)
  end
  if it.fill then return palette.css(it.fill) .. ";height:11px;width:18px" end
  return ("background:%s;border-radius:50%%;height:9px;width:9px"):format(it.color)
end

-- A legend in HTML, wrapping with the page: a button per series (a click hides its line).
function M.legend(items)
  if #items == 0 then return "" end
  local out = { '<ul class="legend">' }
  for i, it in ipairs(items) do
    if i > M.LEGEND_MAX then
      out[#out + 1] = ("<li>and %d more</li>"):format(#items - M.LEGEND_MAX)
      break
    end
    out[#out + 1] = ('<li><button type="button" data-name="%s"><span class="key" style="%s"></span>%s</button></li>')
      :format(esc(it.name), key_style(it), esc(it.name))
  end
  out[#out + 1] = "</ul>"
  return table.concat(out)
end

-- A chart in its two sizes (the page shows the one that fits), its legend and its caption
-- (HTML: the caller escapes what it puts in).
function M.figure(wide, narrow, items, caption_html)
  return ('<figure>%s%s%s<figcaption>%s</figcaption></figure>'):format(wide, narrow or "", M.legend(items or {}),
    caption_html)
end

function M.p(text, class) return ("<p%s>%s</p>"):format(class and (' class="' .. class .. '"') or "", esc(text)) end

M.LIST_SHOWN = 8 -- items of a list shown; the rest behind a "more" that opens without script

-- a list of lines (the first LIST_SHOWN, the rest folded), or "" for none
function M.list(lines, class, lead)
  if #lines == 0 then return "" end
  local function items(from, to)
    local out = {}
    for i = from, math.min(to, #lines) do out[#out + 1] = "<li>" .. esc(lines[i]) .. "</li>" end
    return table.concat(out)
  end
  local out = { ('<div class="%s">'):format(class), lead and M.p(lead) or "", "<ul>", items(1, M.LIST_SHOWN), "</ul>" }
  if #lines > M.LIST_SHOWN then
    local last = math.min(#lines, M.TABLE_MAX)
    out[#out + 1] = ("<details><summary>%d more</summary><ul>%s</ul>%s</details>"):format(#lines - M.LIST_SHOWN,
      items(M.LIST_SHOWN + 1, last), #lines > last and M.p(("and %d more not shown"):format(#lines - last)) or "")
  end
  out[#out + 1] = "</div>"
  return table.concat(out)
end

-- verdict lines as a paragraph: the first strong, the rest under it
function M.verdict_html(lines, title)
  local out = {}
  for i, l in ipairs(lines) do
    l = esc((l:gsub("^%s+", "")))
    out[i] = i == 1 and ("<strong>" .. l .. "</strong>") or l
  end
  return ('<p class="verdict">%s%s</p>'):format(title and (esc(title) .. ": ") or "", table.concat(out, "<br>"))
end

-- ---- sections: each returns nil when the results hold nothing for it ----

-- One scenario's verdict, warnings, failures, chart and table.
local function scenario_parts(s, pts, opts)
  local runs = 0
  for _, p in ipairs(pts) do runs = runs + p.n + #p.failed end
  local c = sweep.chart(s, pts, opts)
  return {
    M.verdict_html(verdict.of(pts).lines),
    M.p(tables.group_title(points.results_of(pts), "point", runs), "what"),
    M.list(sweep.warnings(pts), "warn", "Warnings the command line gave about these runs:"),
    M.list(sweep.failures(pts), "fail", "Failed runs, with their errors:"),
    M.figure(c.wide, c.narrow, c.legend, esc(sweep.caption(pts, c) ..
      " Hover a point for its figures; click a legend entry to hide its line.")),
    M.table(sweep.columns(pts), pts, { attrs = (' data-scenario="%s"'):format(esc(s)), what = "points" }),
  }
end

-- each scenario's points, fastest first: { { name, points } }
local function scenario_points(rs)
  local order, groups = points.by_scenario(rs)
  local out = {}
  for i, s in ipairs(order) do out[i] = { name = s, points = points.sort(points.merge(groups[s])) } end
  return out
end

local function verdict_class(header, v)
  if header == "verdict" then return "v v-" .. compare.verdict_class(v):gsub("[^%w]+", "-") end
  return tonumber(v) and "num" or nil
end

-- the comparison's verdicts counted: "3 faster, 1 slower, 2 too few runs to tell"
local function tally(rows)
  local n, order = {}, {}
  for _, row in ipairs(rows) do
    local v = row.verdict:match("^too few runs") and "too few runs to tell" or row.verdict:match("^unmatched") and
      "unmatched" or row.verdict
    if not n[v] then n[v] = 0; order[#order + 1] = v end
    n[v] = n[v] + 1
  end
  local parts = {}
  for _, v in ipairs(order) do parts[#parts + 1] = n[v] .. " " .. v end
  return table.concat(parts, ", ")
end

-- What differs between the sides, a paragraph per scenario (the text report's lines): what the
-- points were paired across, a --set or a script option, and a warning when the scripts differ.
local function differences(sets, diff, scenarios)
  local _, bg = points.by_scenario(sets[1].results)
  local _, cg = points.by_scenario(sets[2].results)
  local out = {}
  for _, s in ipairs(scenarios) do
    local text = compare.differs_lines(diff[s], s, bg[s] or {}, cg[s] or {})
    if #scenarios > 1 then text = s .. ": " .. text end
    for line in text:gmatch("[^\n]+") do out[#out + 1] = M.p(line) end
  end
  return table.concat(out)
end

local function comparison(page, sets)
  local rows, diff, scenarios = compare.match(sets[1].results, sets[2].results)
  local cols = { { "#", function(row) return tostring(row.n) end } }
  for i, row in ipairs(rows) do row.n = i end
  for _, c in ipairs(compare.columns(rows, "text")) do cols[#cols + 1] = c end
  if #points.by_scenario(rows, function(row) return row.r end) > 1 then
    table.insert(cols, 3, { "scenario", function(row) return row.r.scenario or "?" end })
  end
  local wide, _, p = compare.svg(rows, chart.WIDE, "wide")
  local narrow = compare.svg(rows, chart.NARROW, "narrow")
  local summary = "candidate against base: " .. tally(rows)
  page:section("comparison", {
    M.verdict_html({ summary }),
    M.p(("base %s, candidate %s: %s."):format(sets[1].path, sets[2].path, compare.RULE)),
    differences(sets, diff, scenarios),
    M.figure(wide, narrow, chart.legend_items(p), esc("Each point's ratio (numbered as in the table) with its interval,"
      .. " coloured by verdict; the dashed line is 1, no change.")),
    M.table(cols, rows, { attrs = ' data-compare="1"', class_of = verdict_class, what = "points" }),
  })
  return summary
end

local function advise_race(page, rs, advice)
  if not race.any(rs) then return end
  local cands = race.candidates(rs, advice)
  local rec = race.recommendation(cands, advice)
  local wide, items = race.svg(cands, chart.WIDE, "wide")
  local narrow = race.svg(cands, chart.NARROW, "narrow")
  page:section("advise race", {
    rec and M.verdict_html(rec) or M.p("No recommendation: no candidate won the race.", "verdict"),
    M.figure(wide, narrow, items, "rows/s of each candidate in each round of <code>bulkbench advise</code> (the median "
      .. "of its runs in the round); an × marks the round a candidate was dropped in, a ring the winner. The table "
      .. "gives each candidate's standing: the median of its runs at the scale the race compared them at."),
    M.table(race.COLS, cands, { what = "candidates" }),
  })
  return rec
end

-- A timeline table's columns: its first ("run", a label naming everything) replaced by a
-- column per thing that varies between the runs and the run's number among its point's.
local function named(items, run_of, cols)
  local out = tables.label_columns(items, function(it) return run_of(it).result end)
  local nth = false
  for _, it in ipairs(items) do nth = nth or run_of(it).nth ~= nil end
  if nth or #out == 0 then
    out[#out + 1] = { "run", function(it) return run_of(it).nth or run_of(it).label end }
  end
  for i = 2, #cols do out[#out + 1] = cols[i] end
  return out
end

local function timelines(page, rs, opts)
  local runs, stalls = timeline.analyse(rs)
  if #runs == 0 then return end
  local wide, items = timeline.svg(runs, stalls, {}, opts, chart.WIDE, "wide", false)
  local narrow = timeline.svg(runs, stalls, {}, opts, chart.NARROW, "narrow", false)
  local parts = {
    M.figure(wide, narrow, items, esc(("rows/s (top) and p99 latency (bottom) in each interval of each run; a red ring "
      .. "marks a stall: %s."):format(timeline.RULE) .. (#runs > timeline.RUNS_MAX and
      (" The %d runs with the most stalls of %d are drawn."):format(timeline.RUNS_MAX, #runs) or ""))),
    M.table(named(runs, function(run) return run end, timeline.RUN_COLS), runs,
      { attrs = ' data-timeline="runs"', what = "runs" }),
  }
  if #stalls > 0 then
    parts[#parts + 1] = "<h3>stalls</h3>"
    parts[#parts + 1] = M.table(named(stalls, function(st) return st.run end, timeline.STALL_COLS), stalls,
      { attrs = ' data-timeline="stalls"', what = "stalls", max = timeline.STALLS_MAX })
  else
    parts[#parts + 1] = M.p("No stalls: no run had " .. timeline.RULE .. ".")
  end
  page:section("timelines", parts)
end

-- the CDF table's columns: its first (a label naming everything) a column per thing that varies
local function cdf_columns(pts)
  local out = tables.label_columns(pts, function(p) return p.result end, cdf.COLS[1])
  for i = 2, #cdf.COLS do out[#out + 1] = cdf.COLS[i] end
  return out
end

local function latency(page, rs)
  local pts = cdf.points(rs)
  if #pts == 0 then return end
  local wide, items = cdf.svg(pts, {}, chart.WIDE, "wide", false)
  local narrow = cdf.svg(pts, {}, chart.NARROW, "narrow", false)
  page:section("latency CDF", {
    M.figure(wide, narrow, items, esc("The fraction of events (batches or statements) that took at most each latency, "
      .. "from the histograms of --latency-hist; the histograms of one point's runs are merged.")),
    M.table(cdf_columns(pts), pts, { attrs = ' data-cdf="1"', what = "points" }),
  })
end

-- ---- the page ----

-- The page of sets = { { path, results, label } } (two with opts.compare: base, candidate),
-- the warnings of reading them and advise's records.
function M.page(sets, opts, warnings, advice)
  local all, paths = {}, {}
  for _, set in ipairs(sets) do
    paths[#paths + 1] = set.path
    for _, r in ipairs(set.results) do all[#all + 1] = r end
  end
  palette.page_begin() -- a line's look is its name's, in every chart of the page
  local page, top, scenarios = page_parts.new(), {}, {}
  if opts.compare then top[#top + 1] = M.verdict_html({ comparison(page, sets) }, "comparison") end
  for _, set in ipairs(sets) do
    for _, sc in ipairs(scenario_points(race.others(set.results))) do
      local title = (set.label and (set.label .. ": ") or "") .. sc.name
      scenarios[#scenarios + 1] = { name = title, points = sc.points }
      local parts = scenario_parts(sc.name, sc.points, opts)
      if not opts.compare then top[#top + 1] = M.verdict_html(verdict.of(sc.points).lines, title) end
      page:section(title, parts)
    end
  end
  local rec = advise_race(page, all, advice)
  if rec then top[#top + 1] = M.verdict_html(rec, "advise") end
  timelines(page, all, opts)
  latency(page, all)
  local wp = waits.parts(scenarios, M)
  if wp then page:section("waits", wp) end
  local gp = growth.parts(all, M) -- the rate against the table's size (docs/scale.md)
  if gp then page:section("growth", gp) end
  page:section("environment", environment.parts(all, M))
  if #warnings > 0 then
    top[#top + 1] = M.list(warnings, "warn", "Reading the results gave these warnings:")
  end
  local names = points.by_scenario(all)
  palette.page_end()
  return page:render({
    title = "bulkbench report: " .. table.concat(names, ", "),
    lead = ("%d result%s from %s, made by bulkbench %s."):format(#all, #all == 1 and "" or "s",
      table.concat(paths, ", "), core.version()),
    top = top,
  })
end

-- `bulkbench report ... --html=FILE`: the page of the results files (BASE and CANDIDATE
-- with --compare) written to opts.html.
function M.main(paths, opts)
  local sets, warnings, advice = {}, {}, {}
  local usage = "bulkbench report RESULTS.jsonl... --html=FILE"
  local function add(list, more) for _, x in ipairs(more) do list[#list + 1] = x end end
  if opts.compare then
    sets = { { path = paths[1], label = "base" }, { path = paths[2], label = "candidate" } }
    for _, set in ipairs(sets) do
      local w, a
      set.results, w, a = results.read({ set.path }, usage)
      add(warnings, w)
      add(advice, a)
    end
  else
    local rs, w, a = results.read(paths, usage)
    sets[1] = { path = table.concat(paths, ", "), results = rs }
    warnings, advice = w, a
  end
  chart.write(opts.html, M.page(sets, opts, warnings, advice))
end

-- `bulkbench run ... --html=FILE`: the page of this run's results, given as JSON texts.
function M.from_json(texts, opts)
  local rs, warnings = results.from_json(texts)
  chart.write(opts.html, M.page({ { path = "this run", results = rs } }, opts, warnings, {}))
end

return M
