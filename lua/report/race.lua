-- bulkbench.report.race: the race of `bulkbench advise` for the page: the recommendation first (the
-- winner, its rows/s with its interval, its ratio to the baseline, the command), then each
-- candidate's rows/s by round and a table of their standings, from the runs its --out writes,
-- each a result with
--   advise = { round = N, candidate = "method:batch:threads[:set...]", fate = "kept" | "dropped"
--              | "failed" | "winner", out_round = N | null, baseline = bool, rows_asked = N, ... }
-- (fate is the candidate's at the end of the race, on every one of its runs), and advise's own
-- record when the file holds one (its --format=json object: recommendation, baseline...), whose
-- figures and order are then the page's (one figure per candidate, as the command printed
-- it, and its standings' one order). Without it the standings are worked out as the race did
-- (runtime/core/run/race.c): a candidate's standing is the median of its successful runs at
-- the largest scale (rows_asked) every candidate still in the race had run at by the end of the
-- last round it ran in.
local chart = require "bulkbench.report.chart"
local stats = require "bulkbench.report.stats"
local tables = require "bulkbench.report.tables"
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

-- The results that are no run of a race (those the reports show as sweeps).
function M.others(results)
  local out = {}
  for _, r in ipairs(results) do
    if not entry(r) then out[#out + 1] = r end
  end
  return out
end

-- A candidate's name: the advise entry's, else method:batch:threads of the run.
local function name_of(r, a)
  if type(a.candidate) == "string" and a.candidate ~= "" then return a.candidate end
  return ("%s:%s:%s"):format(r.method or "event", tostring(r.batch or "-"), tostring(r.threads or "-"))
end

-- whether c was still in the race at the end of round: a dropped one until the end of the round
-- it was dropped in, a failed one until the round before it failed
local function in_race(c, round)
  if not c.out then return true end
  return c.fate == "failed" and c.out > round or c.fate ~= "failed" and c.out >= round
end

-- rows/s of c's successful runs at a scale, up to a round
local function rates_at(c, rows, round)
  local v = {}
  for _, s in ipairs(c.samples) do
    if s.rows == rows and s.round <= round then v[#v + 1] = s.rows_per_s end
  end
  return v
end

-- the largest scale every candidate in the race at the end of round had run at
local function common_rows(cands, round)
  local best
  for _, c in ipairs(cands) do
    for _, s in ipairs(c.samples) do
      if s.round <= round and (not best or s.rows > best) then
        local all = true
        for _, o in ipairs(cands) do
          if all and in_race(o, round) and #rates_at(o, s.rows, round) == 0 then
            all = false
          end
        end
        if all then best = s.rows end
      end
    end
  end
  return best
end

-- advise's own record's standings over those worked out from the runs: its figure, interval,
-- scale and fate for each candidate, in its order (those it does not name after).
local function from_record(order, rec)
  if type(rec) ~= "table" or type(rec.candidates) ~= "table" then return order end
  local by, out = {}, {}
  for _, c in ipairs(order) do by[c.name] = c end
  for _, rc in ipairs(rec.candidates) do
    local c = type(rc) == "table" and by[rc.candidate]
    if c then
      local ci, last = type(rc.ci95) == "table" and rc.ci95 or {}, type(rc.rounds) == "table" and rc.rounds[#rc.rounds]
      c.median, c.lo, c.hi, c.level = tonumber(rc.rows_per_s), tonumber(ci[1]), tonumber(ci[2]), tonumber(rc.ci_level)
      c.n = type(last) == "table" and tonumber(last.n) or c.n
      c.at = tonumber(rc.at_rows) or (type(last) == "table" and tonumber(last.rows)) or c.at
      c.fate, c.out = type(rc.fate) == "string" and rc.fate or c.fate, tonumber(rc.out_round) or c.out
      out[#out + 1] = c
      by[rc.candidate] = nil
    end
  end
  for _, c in ipairs(order) do if by[c.name] then out[#out + 1] = c end end
  return out
end

-- The candidates, best standing first: { name, rounds = { {round, rows_per_s (the median of its
-- successful runs in the round), runs} }, runs, samples, fate, out (the round it left the race),
-- baseline, last (the last round it ran in), rates (its standing's runs), n (how many), at
-- (their scale), median, lo, hi, level }; with advise's record (advice's last), its standings.
function M.candidates(results, advice)
  local by, order, last_round = {}, {}, 0
  for _, r in ipairs(results) do
    local a = entry(r)
    if a then
      local name = name_of(r, a)
      local c = by[name]
      if not c then
        c = { name = name, by_round = {}, samples = {}, fate = "kept", runs = 0, result = r }
        by[name] = c; order[#order + 1] = c
      end
      c.runs = c.runs + 1
      if type(r.rows_per_s) == "number" and not r.error then
        c.by_round[a.round] = c.by_round[a.round] or {}
        table.insert(c.by_round[a.round], r.rows_per_s)
        c.samples[#c.samples + 1] = { round = a.round, rows = a.rows_asked or r.rows, rows_per_s = r.rows_per_s }
      end
      if r.error then c.error = r.error end
      if type(a.fate) == "string" then c.fate = a.fate end
      if type(a.out_round) == "number" then c.out = a.out_round end
      if a.baseline == true then c.baseline = true end
      c.last = math.max(c.last or 0, a.round)
      last_round = math.max(last_round, a.round)
    end
  end
  for _, c in ipairs(order) do
    c.rounds = {}
    for round, rates in pairs(c.by_round) do
      c.rounds[#c.rounds + 1] = { round = round, rows_per_s = stats.median(rates), runs = #rates }
    end
    table.sort(c.rounds, function(x, y) return x.round < y.round end)
    if not c.out and (c.fate == "dropped" or c.fate == "failed") then c.out = c.last end
  end
  for _, c in ipairs(order) do
    -- its standing is from the end of the last round it contested (a baseline contests them all)
    local upto = c.fate == "failed" and (c.out or c.last) - 1 or ((c.out and not c.baseline) and c.out or last_round)
    c.at = common_rows(order, upto)
    c.rates = c.at and rates_at(c, c.at, upto) or {}
    c.n = #c.rates
    if #c.rates > 0 then
      c.median = stats.median(c.rates)
      c.lo, c.hi, c.level = stats.median_interval(c.rates)
    end
  end
  local place = {}
  for i, c in ipairs(order) do place[c] = i end
  table.sort(order, function(x, y)
    if (x.fate == "winner") ~= (y.fate == "winner") then return x.fate == "winner" end
    if (x.median ~= nil) ~= (y.median ~= nil) then return x.median ~= nil end
    if x.median and x.median ~= y.median then return x.median > y.median end
    return place[x] < place[y]
  end)
  return from_record(order, advice and advice[#advice])
end

local function fate_text(c)
  local text = c.fate
  if c.fate == "dropped" or c.fate == "failed" then text = c.fate .. " in round " .. tostring(c.out) end
  return c.baseline and (text .. ", baseline") or text
end

-- "197,747 rows/s (range of 3 runs (75%): 190,000 to 201,000)"
local function figure(n, median, lo, hi, level)
  if n <= 1 then return ("%s rows/s (one run)"):format(tables.thousands(median)) end
  return ("%s rows/s (%s: %s to %s)"):format(tables.thousands(median), stats.interval_name(n, level),
    tables.thousands(lo), tables.thousands(hi))
end

-- The line comparing the pick with the baseline, from advise's record: the baseline's figure
-- (its standing's, as in the standings), the paired ratio with its interval, the verdict.
local function baseline_line(b)
  if type(b) ~= "table" or type(b.ratio) ~= "number" then return nil end
  local rci = type(b.ratio_ci95) == "table" and b.ratio_ci95
  return ("  %.2f times the baseline %s%s%s%s"):format(b.ratio, tostring(b.candidate),
    type(b.rows_per_s) == "number" and (" (%s rows/s)"):format(tables.thousands(b.rows_per_s)) or "",
    rci and (" (%s interval %.2f to %.2f, %s paired runs)"):format(stats.percent(tonumber(b.ratio_ci_level) or 0.95),
      rci[1], rci[2], tostring(b.pairs or "?")) or "",
    (b.verdict_text or b.verdict) and (": " .. tostring(b.verdict_text or b.verdict)) or "")
end

-- The recommendation as lines of text: from advise's own record when there is one (its
-- figures are those the command printed), else worked out from the runs; nil without a winner.
function M.recommendation(cands, advice)
  local rec = advice and advice[#advice]
  local lines = {}
  if rec and rec.stopped == "interrupted" and type(rec.recommendation) ~= "table" then
    return { "no recommendation: the race was interrupted before it decided (its standings are below)" }
  end
  if rec and type(rec.recommendation) == "table" then
    local w = rec.recommendation
    local ci = type(w.ci95) == "table" and w.ci95 or {}
    local n = tonumber(w.runs) or 0
    local level = tonumber(w.ci_level) or select(2, stats.median_rank(n))
    local fig = "no rows/s recorded"
    if type(w.rows_per_s) == "number" and w.ci_kind == "re-run" then
      fig = ("%s rows/s (a re-run: %s within %s)"):format(tables.thousands(w.rows_per_s), stats.percent(level),
        ci[1] and (tables.thousands(ci[1]) .. " to " .. tables.thousands(ci[2])) or "unknown")
    elseif type(w.rows_per_s) == "number" then -- a record from before advise stated a re-run's interval
      fig = figure(n, w.rows_per_s, ci[1] or w.rows_per_s, ci[2] or w.rows_per_s, level)
    end
    lines[1] = ("recommendation: %s: %s%s"):format(tostring(w.candidate or w.method), fig,
      w.at_rows and (", %d runs at %s rows"):format(n, tables.thousands(w.at_rows)) or "")
    lines[#lines + 1] = baseline_line(rec.baseline)
    lines[#lines + 1] = "  " .. (type(w.command) == "string" and w.command or "(advise recorded no command)")
    local d = rec.drops
    if type(d) == "table" and tonumber(d.dropped) and d.dropped > 0 then
      lines[#lines + 1] = ("  %d dropped: %s."):format(d.dropped, tostring(d.rule))
      if type(d.risk) == "number" then
        lines[#lines + 1] = ("  The chance that one of them is faster than the winner by more than %.0f%%: at most %.1f%% (the"
          .. " most, %s: %.1f%%), from this race's spread of %.0f%% a run."):format(100 * (tonumber(d.tie) or 0.05),
          100 * d.risk, tostring(d.risk_max_candidate), 100 * (tonumber(d.risk_max) or 0),
          100 * (math.exp(tonumber(d.spread) or 0) - 1))
      end
    end
    return lines
  end
  local win
  for _, c in ipairs(cands) do if c.fate == "winner" then win = c end end
  if not win or not win.median then return nil end
  lines[1] = ("recommendation: %s: %s, %d runs at %s rows"):format(win.name,
    figure(#win.rates, win.median, win.lo, win.hi, win.level), #win.rates, tables.thousands(win.at))
  for _, c in ipairs(cands) do
    if c.baseline and c ~= win then
      local base = rates_at(c, win.at, math.huge)
      local ci = #base > 0 and stats.ratio_ci(base, win.rates)
      if ci then
        local sure = ci.level >= stats.LEVEL - 1e-12
        lines[#lines + 1] = ("  %.2f times the baseline %s (%s rows/s): %.2f to %.2f (%s)%s"):format(ci.ratio, c.name,
          tables.thousands(stats.median(base)), ci.lo, ci.hi, stats.percent(ci.level),
          sure and (stats.told_apart(ci) and (ci.lo > 1 and ": faster" or ": slower") or ": no difference")
            or ": too few runs to be sure")
      end
    end
  end
  lines[#lines + 1] = "  the command that reproduces it is in advise's own output: this file holds only its runs"
  return lines
end

-- the standings table: fate first (the deciding column), then each candidate's figures
M.COLS = {
  { "fate", function(c) return fate_text(c) end },
  { "candidate", function(c) return c.name end },
  { "rows/s", function(c) return c.median and ("%.0f"):format(c.median) or "null" end },
  { "interval", function(c)
      return (c.median and c.lo and (c.n or 0) > 1) and ("%.0f-%.0f (%s)"):format(c.lo, c.hi, stats.percent(c.level or 0))
        or "-"
    end },
  { "runs at rows", function(c) return c.at and ("%d at %.0f"):format(c.n or #c.rates, c.at) or "-" end },
  { "rounds", function(c) return tostring(#c.rounds) end },
  { "all runs", function(c) return tostring(c.runs) end },
}

M.SERIES_MAX = 30

-- rows/s of each candidate by round (the median of its runs in the round), a line each; an ×
-- at the round one was dropped in (or failed), a ring round the winner's last point; in one
-- size. Returns the SVG, its legend items and its text alternative.
function M.svg(cands, size, class)
  size = size or chart.WIDE
  local body = {}
  local p = { x0 = 0, y0 = 0, size = size, title = "advise: rows/s of each candidate by round", series = {},
              empty = "no candidate finished a round",
              tip = function(name, q)
                return ("%s, round %d: %s rows/s (median of %d run%s)"):format(name, q.x, chart.short(q.y), q.runs,
                  q.runs == 1 and "" or "s")
              end }
  local rmax, ymax = 0, 0
  for i, c in ipairs(cands) do
    if i > M.SERIES_MAX then break end
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
    p.y = chart.nice_axis(0, ymax * 1.05, 4)
    p.y.label = "rows/s"
  end
  local fx, fy = chart.panel(body, p)
  local marks = {}
  for i, s in ipairs(p.series) do
    local c, at = s.cand, s.points[#s.points]
    if c.out then -- the × at the round it left, where it ran in that round
      for _, q in ipairs(s.points) do if q.x == c.out then at = q end end
    end
    if fx and at then
      local color = s.color_used or chart.style(i)
      local x, y = fx(at.x), fy(at.y)
      if c.fate == "dropped" or c.fate == "failed" then
        marks[#marks + 1] = ('<path d="M%.1f %.1fl12 12m0 -12l-12 12" stroke="%s" stroke-width="3"><title>%s</title></path>')
          :format(x - 6, y - 6, color, chart.esc(s.name))
      elseif c.fate == "winner" then
        marks[#marks + 1] = ('<circle cx="%.1f" cy="%.1f" r="9" fill="none" stroke="%s" stroke-width="3"><title>%s</title></circle>')
          :format(x, y, color, chart.esc(s.name))
      end
    end
  end
  chart.clipped(body, p, marks)
  local more = #cands > M.SERIES_MAX and (" The first %d of %d candidates are drawn."):format(M.SERIES_MAX, #cands) or ""
  local desc = chart.summary(p) .. " An × marks the round a candidate was dropped in, a ring the winner." .. more
  return chart.document(size.W, size.H, body, { title = p.title, desc = desc }, class), chart.legend_items(p), desc
end

return M
