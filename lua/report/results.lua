-- bulkbench.report.results: results files (JSON lines) read for the reports. A line that is no
-- result is said by file:line with why, and skipped; so is a result with a field of the wrong
-- type (the field named); a cut-short last line (what a killed run leaves) is skipped with a
-- warning that says so. Only a file with no result at all is refused (exit 2). The warnings
-- go to standard error and onto the page. Requires only the core.
local core = require "bulkbench.core"
local M = {}

-- each result's file: results[i][M.SOURCE] (a key no JSON field can be)
M.SOURCE = setmetatable({}, { __tostring = function() return "source" end })

-- The fields the reports read and the type each must have when present (null = absent).
local FIELDS = {
  scenario = "string", engine = "string", method = "string", target = "string", error = "string",
  command = "string", started_at = "string", driver = "string", scenario_sha256 = "string", strategy = "string",
  threads = "number", batch = "number", rows = "number", seconds = "number", rows_per_s = "number",
  mb_per_s = "number", client_cpu_s = "number", repeats = "number",
  latency_ms = "table", server = "table", host = "table", set = "table", options = "table", metrics = "table",
  runs = "table", stats = "table", intervals = "table", advise = "table", latency_hist = "table",
}
local RUN_FIELDS = { rows_per_s = "number", seconds = "number", rows = "number", intervals = "table",
                     latency_hist = "table" }
local HIST_FIELDS = { unit = "string", buckets = "table" }
local INTERVAL_FIELDS = { t = "number", rows = "number", rows_per_s = "number", p99_ms = "number" }
local NESTED = { latency_ms = { p50 = "number", p95 = "number", p99 = "number", max = "number" },
                 server = { cpu_s = "number", log_bytes = "number", table_bytes = "number", version = "string" },
                 advise = { round = "number", candidate = "string", fate = "string", out_round = "number",
                            rows_asked = "number" } }

local function kind(v)
  local t = type(v)
  if t == "table" then return next(v) == nil and "empty" or (v[1] ~= nil and "array" or "object") end
  return t
end

local function check_fields(obj, fields, where)
  for k, want in pairs(fields) do
    local v = obj[k]
    if v ~= nil and type(v) ~= want and not (want == "table" and kind(v) == "empty") then
      local shown = type(v) == "string" and (" (%q)"):format(#v > 30 and v:sub(1, 30) .. "..." or v) or ""
      return ("field %s%s is a %s%s, not a %s"):format(where, k, kind(v), shown, want == "table" and "list or object" or want)
    end
  end
end

local function check_list(list, fields, where)
  if type(list) ~= "table" then return nil end
  for i, item in ipairs(list) do
    if type(item) ~= "table" then return ("field %s[%d] is a %s, not an object"):format(where, i, kind(item)) end
    local why = check_fields(item, fields, ("%s[%d]."):format(where, i))
    if why then return why end
  end
end

-- Why r cannot be read as a result (a field of the wrong type), or nil.
function M.invalid(r)
  local why = check_fields(r, FIELDS, "")
  for name, fields in pairs(NESTED) do
    why = why or (type(r[name]) == "table" and check_fields(r[name], fields, name .. "."))
  end
  why = why or check_list(r.runs, RUN_FIELDS, "runs") or check_list(r.intervals, INTERVAL_FIELDS, "intervals")
  why = why or (type(r.latency_hist) == "table" and check_fields(r.latency_hist, HIST_FIELDS, "latency_hist."))
  for i, run in ipairs(type(r.runs) == "table" and r.runs or {}) do
    why = why or check_list(run.intervals, INTERVAL_FIELDS, ("runs[%d].intervals"):format(i))
      or (type(run.latency_hist) == "table" and check_fields(run.latency_hist, HIST_FIELDS,
        ("runs[%d].latency_hist."):format(i)))
  end
  if not why and r.rows_per_s ~= nil and not (r.rows_per_s >= 0) then why = "field rows_per_s is negative" end
  return why or nil
end

-- A record of `bulkbench advise`'s own (its --format=json object), not a run.
local function is_advise_summary(r) return r.candidates ~= nil and r.rounds ~= nil and r.rows_per_s == nil end

-- path -> { results, warnings, advice }: a file is read once, as a pipe (<(...)) can only be,
-- though both the text report and the --html page use it
local loaded = {}

local function read_file(path)
  local f, why = io.open(path, "rb")
  if not f then core.usage_error("cannot read results file " .. path .. ": " .. tostring(why)) end
  local text = f:read("*a")
  f:close()
  local out = { results = {}, warnings = {}, advice = {} }
  local function warn(n, msg) out.warnings[#out.warnings + 1] = ("%s:%d: %s"):format(path, n, msg) end
  local n, pos, len = 0, 1, #text
  while pos <= len do
    local nl = text:find("\n", pos, true)
    local line = text:sub(pos, (nl or len + 1) - 1)
    pos = (nl or len) + 1
    n = n + 1
    if n == 1 then line = line:gsub("^\239\187\191", "") end -- a byte-order mark some editors add
    line = line:gsub("\r$", "")
    if line:match("%S") then
      local r, err = core.json_decode(line)
      if type(r) ~= "table" or (r[1] ~= nil) then
        if not nl and type(r) ~= "table" then
          warn(n, "the last line is cut short (a run killed while writing it?): skipped")
        else
          warn(n, ("not a result (%s): skipped"):format(err and ("bad JSON at " .. err:gsub("^line 1 ", ""))
            or ("a JSON " .. kind(r))))
        end
      elseif is_advise_summary(r) then
        out.advice[#out.advice + 1] = r
      elseif r.scenario == nil and r.engine == nil and r.rows_per_s == nil then
        warn(n, "not a result (no scenario, engine or rows_per_s): skipped")
      else
        local bad = M.invalid(r)
        if bad then warn(n, bad .. ": skipped")
        else
          r[M.SOURCE] = path
          out.results[#out.results + 1] = r
        end
      end
    end
  end
  return out
end

local function file(path)
  if not loaded[path] then loaded[path] = read_file(path) end
  return loaded[path]
end

-- The results of paths in order, the warnings of reading them and advise's own records.
function M.load(paths)
  local results, warnings, advice = {}, {}, {}
  for _, path in ipairs(paths) do
    local f = file(path)
    for _, r in ipairs(f.results) do results[#results + 1] = r end
    for _, w in ipairs(f.warnings) do warnings[#warnings + 1] = w end
    for _, a in ipairs(f.advice) do advice[#advice + 1] = a end
  end
  return results, warnings, advice
end

-- Says each warning on standard error, once per process.
local said = {}
function M.say(warnings)
  for _, w in ipairs(warnings) do
    if not said[w] then
      said[w] = true
      io.stderr:write("bulkbench: warning: ", w, "\n")
    end
  end
end

-- The results of paths, at least one: else a usage error that shows how ("usage"). The
-- warnings of reading them are said on standard error. Returns the results, the warnings,
-- advise's records.
function M.read(paths, usage)
  if #paths == 0 then core.usage_error("report needs a results file: " .. usage) end
  local results, warnings, advice = M.load(paths)
  M.say(warnings)
  if #results == 0 then
    core.usage_error("no results in " .. table.concat(paths, ", ")
      .. (#warnings > 0 and (": " .. table.concat(warnings, "; ")) or ""))
  end
  return results, warnings, advice
end

-- Results given as JSON texts (`run --html`): the results and warnings, as M.read gives them.
function M.from_json(texts)
  local results, warnings = {}, {}
  for i, text in ipairs(texts) do
    local r, err = core.json_decode(text)
    local bad = type(r) ~= "table" and ("not a result (" .. tostring(err) .. ")") or M.invalid(r)
    if bad then warnings[#warnings + 1] = ("result %d: %s: skipped"):format(i, bad)
    else
      r[M.SOURCE] = "this run"
      results[#results + 1] = r
    end
  end
  return results, warnings, {}
end

return M
