-- bulkbench.html: the report as one self-contained HTML page (--html=FILE): the comparison,
-- each scenario's chart and table, the advise race, the timelines, the latency CDFs and the
-- environment, from the same data and with the same SVG charts as the other reports. No
-- network: the style, the charts and the little script (sorting, legend toggles) are inline,
-- and a Content-Security-Policy forbids anything else, so the page opens from disk for years.
--   bulkbench report RESULTS.jsonl... --html=FILE        bulkbench run ... --html=FILE
--   bulkbench report --compare BASE.jsonl CANDIDATE.jsonl --html=FILE
local core = require "bulkbench.core"
local report = require "bulkbench.report"
local chart = require "bulkbench.chart"
local compare = require "bulkbench.compare"
local timeline = require "bulkbench.timeline"
local cdf = require "bulkbench.cdf"
local race = require "bulkbench.race"
local environment = require "bulkbench.environment"
local page_parts = require "bulkbench.htmlpage"
local M = {}

local esc = chart.esc

-- ---- elements ----

-- A table of rows with columns { { header, function(row) -> text } }, in a wrapper that
-- scrolls sideways on a narrow screen. opts: attrs (of <table>), class_of(header, text)
-- (a cell's class). Every row is in the HTML: the script only reorders them.
function M.table(cols, rows, opts)
  opts = opts or {}
  local out = { ('<div class="scroll"><table class="sortable"%s><thead><tr>'):format(opts.attrs or "") }
  for _, c in ipairs(cols) do out[#out + 1] = ('<th scope="col">%s</th>'):format(esc(c[1])) end
  out[#out + 1] = "</tr></thead><tbody>"
  for _, r in ipairs(rows) do
    out[#out + 1] = "<tr>"
    for _, c in ipairs(cols) do
      local v = c[2](r)
      local class = opts.class_of and opts.class_of(c[1], v) or (tonumber(v) and "num")
      out[#out + 1] = ("<td%s>%s</td>"):format(class and (' class="' .. class .. '"') or "", esc(v))
    end
    out[#out + 1] = "</tr>"
  end
  out[#out + 1] = "</tbody></table></div>"
  return table.concat(out)
end

-- A chart (an SVG document carrying its own title and desc) with its caption.
function M.figure(svg, caption)
  return ('<figure>%s<figcaption>%s</figcaption></figure>'):format(svg, esc(caption))
end

function M.p(text, class) return ("<p%s>%s</p>"):format(class and (' class="' .. class .. '"') or "", esc(text)) end

-- ---- sections: each returns nil when the results hold nothing for it ----

-- One scenario's chart and table; label tells result sets apart ("base", "candidate").
local function scenario_parts(s, rs, opts)
  local repeats = report.has_repeats(rs)
  local svg = report.scenario_svg(s, rs, opts)
  local caption = repeats
      and "The median rows/s of each point over its runs; the whisker is its 95% confidence interval. "
        .. "Hover a point for its figures, click a legend entry to hide its line."
    or "rows/s of each run. Hover a point for its figures, click a legend entry to hide its line."
  return { M.p(report.group_title(rs, "run"), "what"), M.figure(svg, caption),
           M.table(report.columns(rs), rs, { attrs = (' data-scenario="%s"'):format(esc(s)) }) }
end

local function scenarios(page, results, opts, label)
  local order, groups = report.by_scenario(results)
  for _, s in ipairs(order) do
    page:section((label and (label .. ": ") or "") .. s, scenario_parts(s, groups[s], opts))
  end
end

local function verdict_class(header, v)
  if header == "verdict" then return "v v-" .. compare.verdict_class(v):gsub("[^%w]+", "-") end
  return tonumber(v) and "num" or nil
end

local function comparison(page, sets)
  local rows = compare.match(sets[1].results, sets[2].results)
  local cols = { { "#", function(row) return tostring(row.n) end } }
  if #report.by_scenario(report.results_of(rows, function(row) return row.r end)) > 1 then
    cols[2] = { "scenario", function(row) return row.r.scenario or "?" end }
  end
  for i, row in ipairs(rows) do row.n = i end
  for _, c in ipairs(compare.columns(rows, "text")) do cols[#cols + 1] = c end
  local svg = compare.svg(rows)
  page:section("comparison", {
    M.p(("base %s, candidate %s: ratio = candidate / base median rows/s, with its 95%% bootstrap interval "
      .. "(%d resamples); faster or slower only when the interval is clear of 1."):format(sets[1].path, sets[2].path,
      require("bulkbench.stats").RESAMPLES)),
    M.figure(svg, "Each point's ratio (numbered as in the table) with its 95% interval, coloured by verdict; "
      .. "the dashed line is 1, no change."),
    M.table(cols, rows, { attrs = ' data-compare="1"', class_of = verdict_class }),
  })
end

local function advise_race(page, results)
  if not race.any(results) then return end
  local cands = race.candidates(results)
  page:section("advise race", {
    M.figure(race.svg(cands), "rows/s of each candidate in each round of `bulkbench advise`; "
      .. "an × marks the round a candidate was dropped, a ring the winner."),
    M.table(race.COLS, cands),
  })
end

local function timelines(page, results, opts)
  local runs, stalls = timeline.analyse(results)
  if #runs == 0 then return end
  local parts = {
    M.figure(timeline.svg(runs, stalls, {}, opts), ("rows/s (top) and p99 latency (bottom) in each interval of "
      .. "each run; a red ring marks a stall, an interval under %g of its run's median rows/s."):format(timeline.STALL)),
    M.table(timeline.RUN_COLS, runs, { attrs = ' data-timeline="runs"' }),
  }
  if #stalls > 0 then
    parts[#parts + 1] = "<h3>stalls</h3>"
    parts[#parts + 1] = M.table(timeline.STALL_COLS, stalls, { attrs = ' data-timeline="stalls"' })
  else
    parts[#parts + 1] = M.p("No stalls: no interval under " .. timeline.STALL .. " of its run's median rows/s.")
  end
  page:section("timelines", parts)
end

local function latency(page, results)
  local points = cdf.points(results)
  if #points == 0 then return end
  page:section("latency CDF", {
    M.figure(cdf.svg(points, {}), "The fraction of events (batches or statements) that took at most each latency, "
      .. "from the histograms of --latency-hist; the histograms of one point's runs are merged."),
    M.table(cdf.COLS, points, { attrs = ' data-cdf="1"' }),
  })
end

-- ---- the page ----

-- The page of sets = { { path, results, label } }: two with opts.compare (base, candidate).
function M.page(sets, opts)
  local all, paths = {}, {}
  for _, set in ipairs(sets) do
    paths[#paths + 1] = set.path
    for _, r in ipairs(set.results) do all[#all + 1] = r end
  end
  local page = page_parts.new()
  if opts.compare then comparison(page, sets) end
  for _, set in ipairs(sets) do scenarios(page, set.results, opts, set.label) end
  advise_race(page, all)
  timelines(page, all, opts)
  latency(page, all)
  page:section("environment", environment.parts(all, M))
  local names = report.by_scenario(all)
  return page:render({
    title = "bulkbench report: " .. table.concat(names, ", "),
    lead = ("%d result%s from %s, made by bulkbench %s."):format(#all, #all == 1 and "" or "s",
      table.concat(paths, ", "), core.version()),
  })
end

-- `bulkbench report ... --html=FILE`: the page of the results files (BASE and CANDIDATE
-- with --compare) written to opts.html.
function M.main(paths, opts)
  local sets = {}
  local usage = "bulkbench report RESULTS.jsonl... --html=FILE"
  if opts.compare then
    sets = { { path = paths[1], label = "base" }, { path = paths[2], label = "candidate" } }
    for _, set in ipairs(sets) do set.results = report.results({ set.path }, usage) end
  else
    sets[1] = { path = table.concat(paths, ", "), results = report.results(paths, usage) }
  end
  chart.write(opts.html, M.page(sets, opts))
end

-- `bulkbench run ... --html=FILE`: the page of this run's results, given as JSON texts.
function M.from_json(texts, opts)
  local results = {}
  for i, text in ipairs(texts) do
    local r, err = core.json_decode(text)
    if type(r) ~= "table" then error(("result %d is not an object (%s)"):format(i, err or "?"), 0) end
    results[i] = r
  end
  chart.write(opts.html, M.page({ { path = "this run", results = results } }, opts))
end

return M
