-- bulkbench.report.report: `bulkbench report RESULTS.jsonl...`: for each scenario the verdict (which
-- configuration was fastest, by how much, what cannot be told apart), then its table, fastest
-- first, then the warnings about its runs and every failure's error;
--   [--format=text|markdown|csv] [--svg=FILE] [--log]
-- and the other reports of the same files, each a module of its own:
--   --compare BASE CANDIDATE (bulkbench.report.compare), --timeline (bulkbench.report.timeline), --cdf
--   (bulkbench.report.cdf), --html=FILE: all of them in one page (bulkbench.report.html).
-- Nothing requires this module: it only puts the others to work.
local core = require "bulkbench.core"
local results = require "bulkbench.report.results"
local points = require "bulkbench.report.points"
local tables = require "bulkbench.report.tables"
local sweep = require "bulkbench.report.sweep"
local verdict = require "bulkbench.report.verdict"
local differs = require "bulkbench.report.differs"
local chart = require "bulkbench.report.chart"
local race = require "bulkbench.report.race"
local M = {}

-- One scenario's report in fmt: title, verdict, table, warnings, failures.
local function scenario_text(out, s, rs, fmt)
  local pts = points.sort(points.merge(rs))
  local runs = 0
  for _, p in ipairs(pts) do runs = runs + p.n + #p.failed end
  if fmt == "csv" then
    out[#out + 1] = tables.render(sweep.columns(pts), pts, fmt)
    out[#out + 1] = ""
    return
  end
  out[#out + 1] = tables.heading(s .. ": " .. tables.group_title(points.results_of(pts), "point", runs), fmt)
  local lines = verdict.of(pts).lines
  if fmt == "markdown" then
    for i, l in ipairs(lines) do lines[i] = (l:gsub("^%s+", "- ")) end
    out[#out + 1] = table.concat(lines, "\n") .. "\n"
  else
    out[#out + 1] = table.concat(lines, "\n")
  end
  out[#out + 1] = tables.render(sweep.columns(pts), pts, fmt)
  local notes = {}
  local scripts = differs.script_warning(s, rs)
  if scripts then notes[#notes + 1] = "WARNING: " .. scripts end
  for _, w in ipairs(sweep.warnings(pts)) do notes[#notes + 1] = "WARNING: " .. w end
  for _, f in ipairs(sweep.failures(pts)) do notes[#notes + 1] = f end
  if #notes > 0 then out[#out + 1] = (fmt == "markdown" and "\n" or "") .. table.concat(notes, "\n") end
  out[#out + 1] = ""
end

-- advise's race: the recommendation, then the standings (runs of a race are no sweep)
local function race_text(out, rs, advice, fmt)
  if not race.any(rs) then return end
  local cands = race.candidates(rs, advice)
  if fmt ~= "csv" then
    out[#out + 1] = tables.heading(("advise race: %d candidates"):format(#cands), fmt)
    local lines = race.recommendation(cands, advice) or { "no recommendation: no candidate won the race" }
    out[#out + 1] = table.concat(lines, "\n")
  end
  out[#out + 1] = tables.render(race.COLS, cands, fmt)
  out[#out + 1] = ""
end

function M.tables(rs, fmt, advice)
  local order, groups = points.by_scenario(race.others(rs))
  local out = {}
  for _, s in ipairs(order) do scenario_text(out, s, groups[s], fmt) end
  race_text(out, rs, advice or {}, fmt)
  return table.concat(out, "\n")
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
    text, code, why = require("bulkbench.report." .. mode).main(paths, opts)
  else
    local rs, _, advice = results.read(paths, "bulkbench report RESULTS.jsonl [--svg=FILE] [--html=FILE]")
    if opts.svg then chart.write(opts.svg, sweep.svg(race.others(rs), opts)) end
    text, code = M.tables(rs, fmt, advice), 0
  end
  -- the page holds every report of the files whichever one the text is
  if opts.html then require("bulkbench.report.html").main(paths, opts) end
  return text, code, why
end

return M
