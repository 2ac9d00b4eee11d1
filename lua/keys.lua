-- bulkbench.keys: keys and references as the data has them, for `bulkbench new` (lua/new/new.lua
-- asks, lua/new/law.lua writes the generators): which defaults the server fills; which column a
-- key makes unique and how (its values in their observed range and shape); how a foreign
-- key draws its parent's rows (weighted by the child's references, histogram included;
-- without replacement when the references were spread evenly; each parent row, or each
-- combination of the parents' rows, once when they make the key); which foreign keys point
-- at rows not loaded yet (to itself, or round a cycle) and so are added after the load; and
-- how many rows a table can take (auto-increment types, unique columns, unique references,
-- key products).
local instant = require "bulkbench.instant"
local M = {}

local src = require "bulkbench.lawsrc"

local function num(x)
  if x == math.floor(x) and math.abs(x) < 1e15 then return ("%d"):format(x) end
  return ("%.6g"):format(x)
end

-- ---- defaults ----

-- The words of a default that the server evaluates when the row is written, though quoted.
local evaluated = { now = true, today = true, tomorrow = true, yesterday = true }

-- Whether column c's default is filled by the server when a row is written (now(), a
-- sequence, uuid(), CURRENT_TIMESTAMP ...), not a literal ('G', 0, false, 'x'::text, b'0').
function M.server_default(c)
  local d = c.default
  if not d then return false end
  d = d:match("^%s*(.-)%s*$")
  for _ = 1, 8 do -- pg's casts and parentheses, outermost first: ('now'::text)::date
    local inner = d:match("^%((.*)%)$") or d:match("^(.-)::[%w_ .\"]+[%[%]]*$")
    if not inner then break end
    d = inner:match("^%s*(.-)%s*$")
  end
  local quoted = d:match("^[EeNn]?'(.*)'$")
  if quoted then return evaluated[quoted:lower()] == true end
  if d:match("^[BbXx]'[^']*'$") or d:match("^[+-]?%d*%.?%d+[Ee]?[+-]?%d*$") then return false end
  local w = d:lower()
  return not (w == "true" or w == "false" or w == "null")
end

-- Whether the server fills column c when a row leaves it out (so no generator is written).
function M.server_fills(c) return c.identity or c.generated or M.server_default(c) end

-- How many rows an identity / auto-increment column of c's type numbers (from 1), and why.
function M.identity_limit(c)
  local hi = c.range and c.range[2]
  if not hi then return nil end
  return hi, ("%s %s: an auto-increment column counts to %s"):format(c.name, c.declared or c.type, num(hi))
end

-- The rows table m can take (its columns' limits: law.column's out.limit) and why, or nil.
function M.table_limit(gens)
  local cap, why
  for _, g in ipairs(gens) do -- (a billion rows and more: no run will ask)
    if g.limit and g.limit < 1e9 and (not cap or g.limit < cap) then cap, why = g.limit, g.limit_why end
  end
  return cap, why
end

-- The rows a scenario of models can take, the parents outside them holding fk.parent_rows
-- keys: total when they can take it, else the most they can (nil: no limit known).
function M.fit_rows(models, total)
  local list = {}
  for i, m in ipairs(models) do
    list[i] = { name = m.name, rows = m.rows, max_rows = m.max_rows, foreign_keys = m.fks }
  end
  local sk = require "bulkbench.scratch_keys"
  local function fits(n) return sk.shares(list, n, function(fk) return fk.parent_rows end) ~= nil end
  if fits(total) then return total end
  local lo, hi = #list, total -- the most rows that still fit
  if not fits(lo) then return lo end
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if fits(mid) then lo = mid else hi = mid - 1 end
  end
  return lo
end

-- The keys each parent outside models holds (fk.parent_rows: a key made of references can
-- take no more rows than they make): the catalog's estimate, counted when it is small.
function M.parent_rows(db, cat, models)
  local inset = {}
  for _, m in ipairs(models) do inset[m.name] = true end
  for _, m in ipairs(models) do
    for _, fk in ipairs(m.fks) do
      local pname = fk.references:match("^[^.]+%.(.+)$") or fk.references
      if not inset[pname] then
        local ok, found = pcall(cat.resolve, db, fk.references)
        local t = ok and found[1]
        local est = t and (t.reltuples or t.rows)
        if est and est < 1e6 then -- a small table, or one never analyzed (-1): counted
          local okc, rows = pcall(db.query, db, "SELECT count(*) FROM " .. require("bulkbench.scratch").qualified(db, fk.references))
          if okc and rows[1] then est = tonumber(rows[1][1]) end
        end
        fk.parent_rows = est and est >= 0 and est or nil
      end
    end
  end
end

-- ---- what the statistics say of a column ----

-- The share of a column's non-NULL values that are distinct, or nil when unknown.
function M.distinct_ratio(m, c)
  local st = m.stats[c.name]
  local nd = st and st.n_distinct
  if not nd then return nil end
  local nn = 1 - (st.null_frac or 0)
  if nd < 0 then return math.min(1, -nd / math.max(nn, 1e-9)) end
  local rows = st.sampled or m.rows
  if not rows or rows <= 0 then return nil end
  return math.min(1, nd / math.max(rows * nn, 1))
end

-- The observed values of st as numbers of column c's kind (instants for dates and times).
local function as_number(c, v)
  if c.kind == "date" or c.kind == "timestamp" then return instant.value(c.kind, v) end
  return tonumber(v)
end

-- The smallest and largest value st has seen, as numbers, or nil.
function M.observed(c, st)
  local lo, hi
  local function see(v)
    local x = as_number(c, v)
    if x then lo, hi = math.min(lo or x, x), math.max(hi or x, x) end
  end
  for _, v in ipairs(st and st.bounds or {}) do see(v) end
  for _, p in ipairs(st and st.mcv or {}) do see(p[1]) end
  return lo, hi
end

-- ---- roles: what each column's generator must do ----

local function key_lists(m)
  local keys = {}
  if #m.pk > 0 then keys[1] = m.pk end
  for _, u in ipairs(m.uniques) do keys[#keys + 1] = u end
  return keys
end

-- The child's references weigh a one-column foreign key's parent rows: its most common ones
-- by their frequency, the rest by the histogram of the others (integer keys), and when no
-- reference was notably more common than the others, or nearly all were distinct, the
-- parent rows are drawn in turn (spread), not with replacement.
local function fk_weights(m, fk)
  if #fk.columns ~= 1 then return end
  local c
  for _, col in ipairs(m.columns) do if col.name == fk.columns[1] then c = col end end
  local st = m.stats[fk.columns[1]]
  if not (c and st) then return end
  local listed = 0
  for _, p in ipairs(st.mcv or {}) do listed = listed + p[2] end
  local ints = c.kind == "int" and #(st.bounds or {}) >= 2
  for _, b in ipairs(st.bounds or {}) do if not b:match("^%-?%d+$") then ints = false end end
  if #(st.mcv or {}) == 0 and not ints then return end
  fk.weights = st.mcv or {}
  fk.rest = math.max(0, 1 - (st.null_frac or 0) - listed)
  if fk.rest < 1e-6 then fk.rest = 0 end -- the frequencies' rounding, not a share
  if ints and fk.rest > 0 then
    fk.bounds = st.bounds
    if st.bound_weights then -- bucket k ends at bound k + 1
      fk.bound_weights = {}
      for k = 2, #st.bounds do fk.bound_weights[k - 1] = st.bound_weights[k] or 0 end
    end
  end
  local ratio = M.distinct_ratio(m, c)
  fk.spread = (#(st.mcv or {}) == 0 and ints) or (ratio ~= nil and ratio >= 0.9) or nil
end

-- How many times more common than the average the child's commonest reference through fk
-- was (1: no skew known).
local function fk_skew(m, fk)
  local top = 0
  for _, p in ipairs(fk.weights or {}) do top = math.max(top, p[2]) end
  local c
  for _, col in ipairs(m.columns) do if col.name == fk.columns[1] then c = col end end
  local ratio, st = c and M.distinct_ratio(m, c), m.stats[fk.columns[1]]
  local d = ratio and m.rows and ratio * m.rows * (1 - (st and st.null_frac or 0)) or #(fk.weights or {})
  return top > 0 and math.max(1, top * d) or 1
end

-- The free column of a key that is made unique: the one whose values were the most nearly
-- distinct (its shape then survives being made unique), an integer among equals.
local function unique_pick(m, free)
  local best, best_r
  for _, c in ipairs(free) do
    local r = M.distinct_ratio(m, c) or 0
    if c.kind == "int" then r = r + 1e-9 end
    if not best or r > best_r then best, best_r = c, r end
  end
  return best
end

-- Prepares model m's foreign keys (set names, weights, how they draw) and returns each
-- column's role: { fk, fk_pos, fk_unique, unique }. A key made only of one foreign key's
-- columns takes each parent row once; of several foreign keys, each combination of their
-- rows once, the one with weights leading (fk.key lists the sets, the leader first).
function M.plan(m)
  local r, bycol = {}, {}
  for _, c in ipairs(m.columns) do
    r[c.name] = { unique = c.key_hint }
    bycol[c.name] = c
  end
  for i, fk in ipairs(m.fks) do
    fk.set = fk.set or (m.name .. ".fk" .. i)
    for pos, col in ipairs(fk.columns) do
      if r[col] and not r[col].fk then r[col].fk, r[col].fk_pos = fk, pos end
    end
    fk.index = i
    fk_weights(m, fk)
  end
  for _, key in ipairs(key_lists(m)) do
    local server, free, fks, seen = false, {}, {}, {}
    for _, col in ipairs(key) do
      local c = bycol[col]
      if c and M.server_fills(c) then server = true end
      if c and not r[col].fk and not M.server_fills(c) then free[#free + 1] = c end
      local fk = r[col] and r[col].fk
      if fk and not seen[fk] then seen[fk], fks[#fks + 1] = true, fk end
    end
    -- a key of foreign keys and times (a rental: its date, the item, the customer): the
    -- combinations of the parents' rows, when there are ten times more of them than rows,
    -- make the key, and the times keep their law (made unique, they could only be spread evenly)
    local timed = #free > 0 and #fks > 0
    for _, c in ipairs(free) do if c.kind ~= "timestamp" and c.kind ~= "date" then timed = false end end
    if timed then
      local space = 1
      for _, fk in ipairs(fks) do space = space * (fk.parent_rows or 0) end
      timed = space >= 10 * math.max(m.rows or 0, 1)
    end
    if not server and (#free == 0 or timed) and #fks > 0 then
      local skew = {}
      for _, fk in ipairs(fks) do skew[fk] = fk_skew(m, fk) end
      table.sort(fks, function(a, b) -- the leader: the one whose references were the most skewed
        if skew[a] ~= skew[b] then return skew[a] > skew[b] end
        return a.index < b.index
      end)
      for j, fk in ipairs(fks) do
        -- each parent row once: the weights only order them, and every row must stay eligible
        fk.unique, fk.spread, fk.bounds, fk.bound_weights = true, nil, nil, nil
        if fk.weights and fk.rest < 0.001 then fk.rest = 0.001 end
        if #fks > 1 then
          fk.key = {}
          for k, other in ipairs(fks) do fk.key[k] = other.set end
          if j > 1 then fk.weights, fk.rest, fk.bounds, fk.bound_weights = nil, nil, nil, nil end
        end
      end
    elseif not server and #free > 0 then
      local done = false
      for _, c in ipairs(free) do if r[c.name].unique then done = true end end
      if not done then r[unique_pick(m, free).name].unique = true end
    end
  end
  for _, fk in ipairs(m.fks) do
    for _, col in ipairs(fk.columns) do if r[col].fk == fk then r[col].fk_unique = fk.unique end end
  end
  return r
end

-- ---- a foreign key column's generator ----

-- The generator of column c, drawn from the parent rows its role's foreign key reads, and
-- what the file says of it.
function M.fk_column(m, c, role)
  local fk, st = role.fk, m.stats[c.name]
  local stand_in = ""
  local lo, hi = M.observed(c, st)
  if c.kind == "int" and lo then stand_in = (", min = %s, max = %s"):format(num(lo), num(hi)) end
  local args = { ("set = %q, col = %d"):format(fk.set, role.fk_pos) }
  if fk.unique then args[#args + 1] = "unique = true" end
  if fk.key then
    local names = {}
    for i, s in ipairs(fk.key) do names[i] = ("%q"):format(s) end
    args[#args + 1] = "key = { " .. table.concat(names, ", ") .. " }"
  end
  if fk.spread then args[#args + 1] = "spread = true" end
  local gen = ("bb.pick { %s%s }"):format(table.concat(args, ", "), stand_in)
  local how
  local weighed = fk.weights and (#fk.weights > 0 or fk.bounds)
  local by = weighed and (#fk.weights > 0 and fk.bounds and ("its %d most common references and a histogram of the rest"):format(#fk.weights)
    or #fk.weights > 0 and ("its %d most common references"):format(#fk.weights)
    or "a histogram of its references") or nil
  if fk.key then
    local lead = fk.key[1] == fk.set
    how = lead and (", each combination of the key's parents once, this one's rows %s"):format(by and ("weighted by " .. by) or "evenly")
      or ", each combination of the key's parents once: this one's rows in a shuffled order for each row of the first"
  elseif fk.unique then
    how = by and (", each once (they make the key), heavier first by " .. by) or ", each once (they make the key)"
  elseif fk.spread then
    how = ", each in turn without replacement (its references were spread evenly or nearly all distinct)" .. (by and (", weighted by " .. by) or "")
  else
    how = by and (", weighted by " .. by) or ""
  end
  local comment = ("references %s(%s): drawn from the parent's keys%s"):format(fk.references, table.concat(fk.ref_columns, ", "), how)
  return gen, comment
end

-- What a foreign key's entry in the file says beyond its columns: unique, the weights of
-- its parent rows (most common references, rest, the histogram of the rest), and for one
-- drawn from rows the run has not loaded yet the range its parent's keys had.
function M.fk_fields(fk, indent)
  local L = src
  local out = ""
  if fk.unique then out = out .. ", unique = true" end
  if fk.key then
    local names = {}
    for i, n in ipairs(fk.key) do names[i] = L.q(n) end
    out = out .. ", key = { " .. table.concat(names, ", ") .. " }"
  end
  if fk.key_range then out = out .. (", key_range = { %s, %s }"):format(num(fk.key_range[1]), num(fk.key_range[2])) end
  if fk.weights then
    out = out .. (",\n%sweights = %s, rest = %s"):format(indent, #fk.weights > 0 and L.pairs_src(fk.weights, indent) or "{}", num(fk.rest))
    if fk.bounds then
      out = out .. (",\n%sbounds = %s"):format(indent, L.list_src(fk.bounds, indent))
      if fk.bound_weights then
        local w = {}
        for i, v in ipairs(fk.bound_weights) do w[i] = num(v) end
        out = out .. (", bound_weights = { %s }"):format(table.concat(w, ", "))
      end
    end
  end
  return out
end

-- Links the foreign keys of models that reference one another: each learns whether its
-- parent is itself or one loaded after it (fk.later: its keys are then those the run will
-- give the parent's rows), and the range the parent's key had (fk.key_range), to place the
-- references among the keys the run gives the parent.
function M.link(models)
  local at = {}
  for i, m in ipairs(models) do at[m.name] = i end
  for i, m in ipairs(models) do
    for _, fk in ipairs(m.fks) do
      local pname = fk.references:match("^[^.]+%.(.+)$") or fk.references
      local j = at[pname]
      fk.later = j ~= nil and j >= i or nil
      if j and #fk.ref_columns == 1 then
        local p = models[j]
        for _, c in ipairs(p.columns) do
          if c.name == fk.ref_columns[1] and c.kind == "int" then
            local lo, hi = M.observed(c, p.stats[c.name])
            if lo then fk.key_range = { lo, hi } end
          end
        end
      end
    end
  end
end

-- A key column's generator made wide enough for `rows` distinct values when its observed
-- range holds fewer: a shuffle of min..max reaches min + rows - 1, a text pattern gets more
-- digits (as many as the column's length allows). The same generator when it is wide enough.
function M.widen(c, rows)
  local g = c.gen
  if not (rows and rows > 0 and g) then return g end
  local out = {}
  for k, v in pairs(g) do out[k] = v end
  if g.kind == "permutation" then
    local lo, hi = g.min or g[1], g.max or g[2]
    if not (lo and hi) or hi - lo + 1 >= rows then return g end
    out[2], out.max = nil, nil
    out[1], out[2] = lo, lo + rows - 1
    return out
  elseif g.kind == "unique" then
    local pat = g[1] or g.pattern
    if type(pat) ~= "string" then return g end
    local cap = 1
    for ch in pat:gmatch("[#@]") do cap = cap * (ch == "#" and 10 or 26) end
    local len = tonumber((c.type or ""):match("%((%d+)%)"))
    local first = pat:find("#", 1, true)
    if cap >= rows or not first then return g end
    while cap < rows and (not len or #pat < len) and cap < 1e17 do
      pat = pat:sub(1, first - 1) .. "#" .. pat:sub(first)
      cap = cap * 10
    end
    out[1], out.pattern = pat, nil
    return out
  end
  return g
end

-- ---- a key's unique values, in their observed range and shape ----

local function ordered(st) return not st or st.correlation == nil or math.abs(st.correlation) >= 0.5 end

-- How many distinct values the original held (an estimate), or nil.
local function distinct_count(m, c)
  local ratio, st = M.distinct_ratio(m, c), m.stats[c.name]
  if not (ratio and m.rows and m.rows > 0) then return nil end
  return math.max(1, math.floor(ratio * m.rows * (1 - (st.null_frac or 0)) + 0.5))
end

-- The observed text values' numbers after a common prefix: prefix, digits (the most a value
-- has), padded (every value as wide), the smallest number; nil when they are not of that form.
local function numbered(st)
  local seen = {}
  for _, v in ipairs(st and st.bounds or {}) do seen[#seen + 1] = v end
  for _, p in ipairs(st and st.mcv or {}) do seen[#seen + 1] = p[1] end
  if #seen == 0 then return nil end
  local prefix = seen[1]:match("^(.-)%d*$")
  for _, v in ipairs(seen) do
    local k = 0
    while k < #prefix and k < #v and prefix:byte(k + 1) == v:byte(k + 1) do k = k + 1 end
    prefix = prefix:sub(1, k)
  end
  local digits, width, low = 0, nil, nil
  for _, v in ipairs(seen) do
    local tail = v:sub(#prefix + 1)
    if not tail:match("^%d+$") or #tail > 18 then return nil end
    digits = math.max(digits, #tail)
    width = (width == nil or width == #tail) and #tail or false
    low = math.min(low or tonumber(tail), tonumber(tail))
  end
  if prefix:find("[#@]") then return nil end
  return prefix, digits, width ~= false, low
end

-- The unique generator for key column c: source, the comment, and how many rows it holds
-- (nil: more than any run will ask).
function M.unique(c, st, m)
  local tlo, thi = src.limits(c)
  if c.kind == "int" or c.kind == "numeric" or c.kind == "double" then
    local lo, hi = M.observed(c, st)
    local start = lo and math.floor(lo) or 1
    if type(tlo) == "number" and start < tlo then start = math.ceil(tlo) end
    local top = type(thi) == "number" and math.floor(thi) or nil
    if not ordered(st) and c.kind == "int" then
      local last = math.max(hi and math.floor(hi) or start, start + math.max((m.rows or 1) - 1, 0))
      if top and last > top then last = top end
      return ("bb.permutation { %s, %s }"):format(num(start), num(last)),
        ("a key, in no order (correlation %.2f): a shuffle of %s..%s as the table's were (wider when --rows asks for more)")
          :format(st.correlation, num(start), num(last)),
        top and (top - start + 1) or nil
    end
    local d, step = distinct_count(m, c), 1
    if d and d > 1 and lo and hi and c.kind == "int" then step = math.max(1, math.floor((hi - lo) / (d - 1) + 0.5)) end
    local gen = step > 1 and ("bb.seq { start = %s, step = %d }"):format(num(start), step) or ("bb.seq { start = %s }"):format(num(start))
    return gen, ("a key: a sequence from %s%s, as the table's were"):format(num(start), step > 1 and (" in steps of " .. step) or ""),
      top and math.floor((top - start) / step) + 1 or nil
  elseif c.kind == "text" then
    local prefix, digits, padded, low = numbered(st)
    local room = c.length and (c.length - (prefix and #prefix or 0)) or 18
    if prefix and digits <= room then
      local ord = ordered(st) and "seq" or "random"
      local pat = prefix .. ("#"):rep(digits)
      local args = { src.q(pat), ("order = %q"):format(ord) }
      if ord == "seq" and low > 0 then args[#args + 1] = "start = " .. num(low) end
      if not padded then args[#args + 1] = "pad = false" end
      return ("bb.unique { %s }"):format(table.concat(args, ", ")),
        ("a key: %s and a different number each row (%s), %s, as the table's were (more digits when --rows asks for more)")
          :format(prefix, padded and (digits .. " digits") or ("up to " .. digits .. " digits, unpadded"),
            ord == "seq" and "in order" or "shuffled"),
        10 ^ math.min(room, 18)
    end
    local pat = src.unique_pattern(c, st)
    if pat then
      local ord = ordered(st) and "seq" or "random"
      return ("bb.unique { %s, order = %q }"):format(src.q(pat), ord),
        ("a key: %s with a different number each row, %s"):format(pat, ord == "seq" and "in order" or "shuffled")
    end
  elseif c.kind == "uuid" then
    return "bb.uuid()", "a key: random UUIDs (distinct with overwhelming probability)"
  elseif c.kind == "timestamp" or c.kind == "date" then
    local lo, hi = M.observed(c, st)
    local unit = c.kind == "date" and 86400 or 1
    local d, step = distinct_count(m, c), unit
    if lo and hi and d and d > 1 then
      local span = (hi - lo) * (c.kind == "date" and 86400 or 1)
      step = math.max(unit, math.floor(span / (d - 1) / unit + 0.5) * unit)
      for _, whole in ipairs { 86400, 3600, 60 } do -- the count may be an estimate: a spacing near a whole unit is it
        local k = math.floor(step / whole + 0.5)
        if k >= 1 and math.abs(k * whole - step) <= 0.05 * step then step = k * whole; break end
      end
    end
    local start = lo and instant.text(c.kind == "date" and "date" or "timestamp", c.kind == "date" and lo or math.floor(lo))
      or "2024-01-01 00:00:00"
    if c.kind == "date" then start = start .. " 00:00:00" end
    local every = step % 86400 == 0 and (math.floor(step / 86400) .. " day" .. (step == 86400 and "" or "s"))
      or step % 3600 == 0 and (math.floor(step / 3600) .. " hour" .. (step == 3600 and "" or "s"))
      or (step .. " second" .. (step == 1 and "" or "s"))
    return ("bb.timestamp { start = %q, step = %d }"):format(start, step),
      ("a key: one every %s from %s, as the table's were spread"):format(every, start)
  elseif c.kind == "bytes" then
    return "bb.blob { bytes = 16 }", "a key: 16 random bytes (distinct with overwhelming probability)"
  end
  return nil
end

return M
