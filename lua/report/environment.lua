-- bulkbench.report.environment: where and how results were measured, for the HTML report: the
-- command lines, the bulkbench versions, the client hosts, each server's version, driver and
-- write-path settings, and when the runs started. Each distinct value once, in file order.
local chart = require "bulkbench.report.chart"
local M = {}

local esc = chart.esc

-- the distinct values key(r) gives (nil skipped), in order of first appearance
local function distinct(results, key)
  local seen, out = {}, {}
  for _, r in ipairs(results) do
    local k, v = key(r)
    if k ~= nil and not seen[k] then seen[k] = true; out[#out + 1] = v == nil and k or v end
  end
  return out
end

local function str(v) return v == nil and "null" or tostring(v) end

local function host_of(r)
  local h = type(r.host) == "table" and r.host or nil
  if not h then return nil end
  local mem = type(h.memory_bytes) == "number" and ("%.1f GB"):format(h.memory_bytes / 1e9) or "null"
  -- a VM that hands freed memory to its host: the reason system CPU varies run to run
  local fpr = h.free_page_reporting
  local row = { cpu = str(h.cpu), cores = str(h.cores), memory = mem, kernel = str(h.kernel),
                reporting = fpr == true and "yes" or fpr == false and "no" or "null" }
  return table.concat({ row.cpu, row.cores, row.memory, row.kernel, row.reporting }, "|"), row
end

local HOST_COLS = {
  { "cpu", function(h) return h.cpu end },
  { "cores", function(h) return h.cores end },
  { "memory", function(h) return h.memory end },
  { "kernel", function(h) return h.kernel end },
  { "free page reporting", function(h) return h.reporting end },
}

-- a server: engine (and target), version, driver and its settings, sorted by name
local function server_of(r)
  local s = type(r.server) == "table" and r.server or {}
  local settings = {}
  for k, v in pairs(type(s.settings) == "table" and s.settings or {}) do settings[#settings + 1] = { k, str(v) } end
  table.sort(settings, function(a, b) return a[1] < b[1] end)
  local flat = {}
  for i, kv in ipairs(settings) do flat[i] = kv[1] .. "=" .. kv[2] end
  local who = tostring(r.engine or "?") .. (r.target and (" (" .. r.target .. ")") or "")
  local row = { who = who, version = str(s.version), driver = str(r.driver), settings = settings }
  -- held to a memory size (contrib/dbctl --memory, docs/scale.md): its cgroup's limit
  if type(s.memory_limit_bytes) == "number" then
    row.version = row.version .. (", held to %.0f MB of memory"):format(s.memory_limit_bytes / 1048576)
  end
  return table.concat({ who, row.version, row.driver, table.concat(flat, ",") }, "|"), row
end

local SETTING_COLS = {
  { "setting", function(kv) return kv[1] end },
  { "value", function(kv) return kv[2] end },
}

-- The environment section's parts; html gives the elements (table, p).
function M.parts(results, html)
  local out = {}
  local commands = distinct(results, function(r) return type(r.command) == "string" and r.command or nil end)
  out[#out + 1] = "<h3>command line" .. (#commands == 1 and "" or "s") .. "</h3>"
  if #commands == 0 then
    local raced = false
    for _, r in ipairs(results) do raced = raced or type(r.advise) == "table" end
    out[#out + 1] = html.p("The results do not record the command line that made them"
      .. (raced and " (bulkbench advise gives its command in its own output, not with each run)." or "."))
  end
  for _, c in ipairs(commands) do out[#out + 1] = "<pre><code>" .. esc(c) .. "</code></pre>" end
  local versions = distinct(results, function(r) return r.version and tostring(r.version) end)
  out[#out + 1] = html.p("bulkbench " .. (#versions > 0 and table.concat(versions, ", ") or "version not recorded")
    .. "; runs started " .. M.span(results) .. ".")
  out[#out + 1] = "<h3>client host</h3>"
  out[#out + 1] = html.table(HOST_COLS, distinct(results, host_of))
  for _, s in ipairs(distinct(results, server_of)) do
    out[#out + 1] = ("<h3>server: %s</h3>"):format(esc(s.who))
    out[#out + 1] = html.p(("%s, through %s"):format(s.version, s.driver))
    if #s.settings > 0 then
      out[#out + 1] = html.table(SETTING_COLS, s.settings)
    else
      out[#out + 1] = html.p("No settings recorded.")
    end
  end
  return out
end

-- "from A to B" (or "at A") over the results' started_at, which sort as text (ISO 8601 UTC)
function M.span(results)
  local lo, hi
  for _, r in ipairs(results) do
    local t = type(r.started_at) == "string" and r.started_at or nil
    if t then lo, hi = (lo and lo < t) and lo or t, (hi and hi > t) and hi or t end
  end
  if not lo then return "at an unrecorded time" end
  return lo == hi and ("at " .. lo) or ("from " .. lo .. " to " .. hi)
end

return M
