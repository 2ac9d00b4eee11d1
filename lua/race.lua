-- bulkbench.race: the race of `bulkbench advise` as a chart and a table, from the runs its
-- --out writes, each a result with
--   advise = { round = N, candidate = "method:batch:threads[:set...]",
--              fate = "kept" | "dropped" | "failed" | "winner", out_round = N | null, baseline = bool, ... }
-- where fate is the candidate's at the end of the race (on every one of its runs) and
-- out_round the round it was dropped in. A round may run a candidate several times. Results
-- without an advise object are not part of a race.
local chart = require "bulkbench.chart"
local stats = require "bulkbench.stats"
local M = {}

local function entry(r)
  local a = r.advise
  if type(a) ~= "table" or type(a.round) ~= "number" then return nil end
  return a
end

-- whether any of results is a round of a race
function M.any(results)
  for _, r in ipairs(results) do
    if entry(r) then return true end
  end
  return false
end

-- A candidate's name: the advise entry's, else method:batch:threads of the run.
local function name_of(r, a)
  if type(a.candidate) == "string" and a.candidate ~= "" then return a.candidate end
  return ("%s:%s:%s"):format(r.method or "event", tostring(r.batch or "-"), tostring(r.threads or "-"))
end

-- The candidates in order of first appearance: { name, rounds = { {round, rows_per_s (the
-- median of its successful runs in the round), runs} }, runs, fate (the last one given),
-- out (the round it left the race), baseline, best, last }.
function M.candidates(results)
  local by, order = {}, {}
  for _, r in ipairs(results) do
    local a = entry(r)
    if a then
      local name = name_of(r, a)
      local c = by[name]
      if not c then
        c = { name = name, by_round = {}, fate = "kept", runs = 0 }
        by[name] = c; order[#order + 1] = c
      end
      c.runs = c.runs + 1
      if type(r.rows_per_s) == "number" and not r.error then
        c.by_round[a.round] = c.by_round[a.round] or {}
        table.insert(c.by_round[a.round], r.rows_per_s)
      end
      if type(a.fate) == "string" then c.fate = a.fate end
      if type(a.out_round) == "number" then c.out = a.out_round end
      if a.baseline == true then c.baseline = true end
      c.max_round = math.max(c.max_round or 0, a.round)
    end
  end
  for _, c in ipairs(order) do
    c.rounds = {}
    for round, rates in pairs(c.by_round) do
      c.rounds[#c.rounds + 1] = { round = round, rows_per_s = stats.median(rates), runs = #rates }
    end
    table.sort(c.rounds, function(x, y) return x.round < y.round end)
    for _, q in ipairs(c.rounds) do c.best = math.max(c.best or 0, q.rows_per_s) end
    c.last = c.rounds[#c.rounds] and c.rounds[#c.rounds].rows_per_s
    if not c.out and (c.fate == "dropped" or c.fate == "failed") then c.out = c.max_round end
  end
  return order
end

local function fate_text(c)
  local text = c.fate
  if c.fate == "dropped" or c.fate == "failed" then text = c.fate .. " in round " .. tostring(c.out) end
  return c.baseline and (text .. ", baseline") or text
end

M.COLS = {
  { "candidate", function(c) return c.name end },
  { "rounds", function(c) return tostring(#c.rounds) end },
  { "runs", function(c) return tostring(c.runs) end },
  { "best rows/s", function(c) return c.best and ("%.0f"):format(c.best) or "null" end },
  { "last rows/s", function(c) return c.last and ("%.0f"):format(c.last) or "null" end },
  { "fate", function(c) return fate_text(c) end },
}

-- rows/s of each candidate by round (the median of its runs in the round), a line each; an ×
-- where one was dropped (or failed), a ring round the winner's last point. Returns the SVG
-- and its text alternative.
function M.svg(cands)
  local W, H, body = 1000, 380, {}
  local p = { x0 = 0, y0 = 0, W = W, H = H, title = "advise: rows/s of each candidate by round", series = {},
              empty = "no candidate finished a round",
              tip = function(name, q)
                return ("%s, round %d: %s rows/s (median of %d run%s)"):format(name, q.x, chart.short(q.y), q.runs,
                  q.runs == 1 and "" or "s")
              end }
  local rmax, ymax = 0, 0
  for _, c in ipairs(cands) do
    local pts = {}
    for _, q in ipairs(c.rounds) do
      pts[#pts + 1] = { x = q.round, y = q.rows_per_s, runs = q.runs }
      rmax, ymax = math.max(rmax, q.round), math.max(ymax, q.rows_per_s)
    end
    p.series[#p.series + 1] = { name = c.name .. " (" .. fate_text(c) .. ")", points = pts, cand = c }
  end
  if ymax > 0 then
    p.x = { lo = 1, hi = math.max(rmax, 2), ticks = {}, label = "round", fmt = function(x) return ("%d"):format(x) end }
    for i = 1, math.max(rmax, 2) do p.x.ticks[i] = i end
    p.y = chart.nice_axis(0, ymax * 1.05)
    p.y.label = "rows/s"
  end
  local fx, fy = chart.panel(body, p)
  for i, s in ipairs(p.series) do
    local last = s.points[#s.points]
    if fx and last then
      local color = chart.style(i)
      local x, y = fx(last.x), fy(last.y)
      if s.cand.fate == "dropped" or s.cand.fate == "failed" then
        body[#body + 1] = ('<path d="M%.1f %.1fl12 12m0 -12l-12 12" stroke="%s" stroke-width="3"><title>%s</title></path>')
          :format(x - 6, y - 6, color, chart.esc(s.name))
      elseif s.cand.fate == "winner" then
        body[#body + 1] = ('<circle cx="%.1f" cy="%.1f" r="9" fill="none" stroke="%s" stroke-width="3"><title>%s</title></circle>')
          :format(x, y, color, chart.esc(s.name))
      end
    end
  end
  local desc = chart.summary(p) .. " An × marks where a candidate was dropped, a ring the winner."
  return chart.document(W, H, body, { title = p.title, desc = desc }), desc
end

return M
