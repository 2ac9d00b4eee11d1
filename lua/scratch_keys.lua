-- bulkbench.scratch_keys: the run-time half of lua/keys.lua for the scenarios `bulkbench new`
-- writes (lua/scratch.lua loads them): how many rows each table gets and how many it can
-- take (its own limit, t.max_rows, and what its keys made of references allow: each parent
-- key once, or each combination of several parents' keys once), so a --rows that cannot
-- work fails before any row is loaded; the keys of the rows a run has not loaded yet, for
-- references to the table itself or round a cycle; and those foreign keys, added once the
-- rows are in (as a dump loads data first and constraints after), which checks every row.
local core = require "bulkbench.core"
local instant = require "bulkbench.instant"
local M = {}

local function base(qname) return qname:match("^[^.]+%.(.+)$") or qname end

-- The keys of t drawn over the product of their parts, in order: { {parts}, ... }, a part a
-- foreign key drawn once per parent row (fk.unique; fk.key names the sets of a key of several)
-- or a set of the values a key column held (t.values' entries with a key).
local function product_keys(t)
  local keys, order = {}, {}
  local function add(id, part)
    if not keys[id] then keys[id] = {}; order[#order + 1] = id end
    table.insert(keys[id], part)
  end
  for _, fk in ipairs(t.foreign_keys or {}) do
    if fk.unique then add(fk.key and table.concat(fk.key, "\1") or fk.set, { fk = fk }) end
  end
  for _, v in ipairs(t.values or {}) do
    if v.key then add(table.concat(v.key, "\1"), { v = v }) end
  end
  local out = {}
  for i, id in ipairs(order) do out[i] = keys[id] end
  return out
end

-- The rows of the run's set name, or nil (none read; `new`, outside any run, has none).
local function set_rows(name)
  local ok, n = pcall(core.value_set_info, name)
  return ok and n or nil
end

-- How many rows t can take, and why, given size(fk) (its parent's keys, nil when unknown):
-- t.max_rows = { n, why } and the keys drawn over a product (product_keys): a key column's
-- values are those its set holds (read by this run), or as many as the original had.
function M.cap(t, size)
  local cap, why
  if t.max_rows then cap, why = t.max_rows[1], t.max_rows[2] end
  for _, parts in ipairs(product_keys(t)) do
    local n, cols, said, fks = 1, {}, {}, 0
    for _, p in ipairs(parts) do
      local s = p.fk and size(p.fk) or (p.v and (set_rows(p.v.set) or p.v.distinct))
      if not s then n = nil; break end
      n = n * s
      for _, c in ipairs(p.fk and p.fk.columns or p.v.columns) do cols[#cols + 1] = c end
      said[#said + 1] = p.fk and ("%s's %d"):format(base(p.fk.references), s) or ("%s's %d values"):format(p.v.columns[1], s)
      fks = fks + (p.fk and 1 or 0)
    end
    if n and (not cap or n < cap) then
      local parts_said = table.concat(said, " and ") .. (fks == #parts and " keys" or "") -- (references: their parents' keys)
      cap = n
      why = #parts > 1 and ("(%s) make its key: each combination of %s once"):format(table.concat(cols, ", "), parts_said)
        or ("%s make%s its key: each of %s once"):format(table.concat(cols, ", "), #cols > 1 and "" or "s", parts_said)
    end
  end
  return cap, why
end

-- Each table's share of `total` rows, by the rows the originals held (largest remainder,
-- at least one each), then within what each can take (M.cap; external(fk) the size of a
-- parent outside the list): what a table cannot take goes to those that can, the largest
-- first. Returns the shares, or nil and why --rows cannot work.
function M.shares(list, total, external)
  local sum, out, rem = 0, {}, {}
  for _, t in ipairs(list) do sum = sum + math.max(t.rows or 1, 1) end
  local left = total
  for i, t in ipairs(list) do
    local exact = total * math.max(t.rows or 1, 1) / sum
    out[i] = math.max(math.floor(exact), 1)
    rem[i] = exact - math.floor(exact)
    left = left - out[i]
  end
  local order = {}
  for i = 1, #list do order[i] = i end
  table.sort(order, function(a, b) return rem[a] > rem[b] end)
  for k = 1, #order do
    if left == 0 then break end
    local i = order[k]
    if left > 0 then out[i], left = out[i] + 1, left - 1
    elseif out[i] > 1 then out[i], left = out[i] - 1, left + 1 end
  end
  local index, caps, whys = {}, {}, {}
  for i, t in ipairs(list) do index[t.name] = i end
  for i, t in ipairs(list) do
    caps[i], whys[i] = M.cap(t, function(fk)
      local p = index[base(fk.references)]
      if p and p < i then return out[p] end
      if not p and external then return external(fk) end
    end)
    if caps[i] and out[i] > caps[i] then out[i], left = caps[i], left + out[i] - caps[i] end
  end
  while left > 0 do
    local best
    for i = 1, #list do
      local room = caps[i] == nil or out[i] < caps[i]
      if room and (not best or (caps[best] and not caps[i]) or ((caps[best] == nil) == (caps[i] == nil) and out[i] > out[best])) then
        best = i
      end
    end
    if not best then
      local said = {}
      for i, t in ipairs(list) do said[i] = ("%s at most %s rows (%s)"):format(t.name, caps[i], whys[i]) end
      return nil, ("--rows=%d is more than %s: %s"):format(total, #list == 1 and "the table can take" or "these tables can take",
        table.concat(said, "; "))
    end
    local give = caps[best] and math.min(left, caps[best] - out[best]) or left
    out[best], left = out[best] + give, left - give
  end
  return out
end

-- Whether fk of the i-th table of list points at rows loaded with or after it (itself, or
-- round a cycle): then it is added after the load, and it draws from the keys those rows get.
function M.later(list, i, fk)
  for j, t in ipairs(list) do
    if t.name == base(fk.references) then return j >= i, t end
  end
  return false
end

-- The first key and the step of the keys table p's rows get, when its key column ref
-- (one column) is a sequence or an identity (which counts from 1 in a scratch copy); nil else.
function M.key_seq(p, ref)
  for _, c in ipairs(p.columns) do
    if c.name == ref then
      if c.auto_increment then return 1, 1 end
      if c.gen and c.gen.kind == "seq" then return c.gen.start or c.gen[1] or 1, c.gen.step or c.gen[2] or 1 end
    end
  end
end

-- How fk's references weigh the rows its parent p gets in this run (n of them): the child's
-- references were counted among the original's keys (fk.key_range), so each is placed in
-- the new keys by its position in that range; without a sequence to place them in, only the
-- most common references count (a histogram over the original's keys would leave most new
-- keys out).
function M.run_weights(fk, p, n)
  if not fk.weights then return nil end
  local first, step = M.key_seq(p, #fk.ref_columns == 1 and fk.ref_columns[1] or nil)
  local kr = fk.key_range
  if not (first and kr and kr[2] >= kr[1]) then return { weights = fk.weights, rest = fk.rest } end
  local function place(v)
    local x = tonumber(v)
    if not x then return v end
    local f = math.min(math.max((x - kr[1]) / (kr[2] - kr[1] + 1), 0), 1 - 1e-12)
    return tostring(first + math.floor(f * n) * step)
  end
  local w, bounds = {}, nil
  for i, pr in ipairs(fk.weights) do w[i] = { place(pr[1]), pr[2] } end
  if fk.bounds then
    bounds = {}
    for i, b in ipairs(fk.bounds) do bounds[i] = place(b) end
  end
  return { weights = w, rest = fk.rest, bounds = bounds, bound_weights = fk.bound_weights }
end

-- The value set of fk (of table child), whose parent p gets n rows in this run and has not
-- loaded them yet: the keys its sequence or identity will give them.
function M.later_set(fk, child, p, n)
  local first, step = M.key_seq(p, #fk.ref_columns == 1 and fk.ref_columns[1] or nil)
  if not first then
    core.fail(("%s(%s) references %s(%s), whose rows this run makes after it: their keys must come from a sequence "
      .. "or an identity to be known before they are loaded"):format(child, table.concat(fk.columns, ", "), p.name,
      table.concat(fk.ref_columns, ", ")))
  end
  return core.value_set_range(fk.set, first, step, math.max(n, 0), M.run_weights(fk, p, n))
end

-- How many of its parent's rows (beyond those its most common references name) a reference
-- spreads over when the child gets rows rows: as many per row as the original's references
-- named (fk.distinct); nil when it did not keep them.
function M.rest_rows(fk, rows)
  if not (fk.distinct and rows and rows > 0) then return nil end
  return math.max(1, math.ceil(fk.distinct * rows))
end

-- ---- generators as a run compiles them ----

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


-- The rows table t gets in this run: its share of a multi-table run (lua/scratch.lua sets
-- t.run_rows), else --rows, else as many as the original held.
local function run_rows(t)
  local r = t.run_rows or core.run_info().rows
  return (r and r > 0) and r or t.rows
end

local function copy(g)
  local out = {}
  for k, v in pairs(g) do out[k] = v end
  return out
end

-- The pattern of a bb.unique generator split where its number starts: the literal text
-- before, the number's places (#), and whether they are the whole of the rest (no letters).
local function pattern_parts(g)
  local pat = type(g[1]) == "string" and g[1] or g.pattern
  if type(pat) ~= "string" then return nil end
  local lead, places = pat:match("^([^#@]*)(#+)$")
  return lead, places, pat
end

-- The SQL whose one value is where key column c of the table --into names (qualified) ends:
-- its largest value, or for text of a pattern the longest, then largest, value of that shape.
function M.into_max_sql(db, c, qualified)
  local g, q = c.gen, db:quote(c.name)
  if not (c.key and type(g) == "table") then return nil end
  if g.kind == "seq" or g.kind == "permutation" or (g.kind == "timestamp" and g.start) then
    return ("SELECT max(%s) FROM %s"):format(q, qualified)
  end
  if g.kind ~= "unique" then return nil end
  local lead = pattern_parts(g)
  if not lead then return nil end
  local function like(s) return (s:gsub("[!%%_']", function(ch) return ch == "'" and "''" or "!" .. ch end)) end
  return ("SELECT %s FROM %s WHERE %s LIKE '%s%%%s' ESCAPE '!' ORDER BY length(%s) DESC, %s DESC LIMIT 1")
    :format(q, qualified, q, like(lead), like(g.suffix or ""), q, q)
end

-- Key column c's generator continued after what the table --into names holds (its largest
-- value there, read by prepare into the set into_max:<column>): a sequence from the next
-- value, a shuffle moved past it, a pattern's number counting on from it (in order, more
-- places when it needs them). nil when nothing is there.
local function continued(t, c, g, rows)
  local ok, max = pcall(core.value_set_get, "into_max:" .. c.name, 1, 1)
  if not ok or max == nil then return g end
  local out = copy(g)
  if g.kind == "seq" or g.kind == "permutation" then
    local x = tonumber(max)
    if not x then return g end
    if g.kind == "seq" then
      local start, step = g.start or g[1] or 1, g.step or g[2] or 1
      if step > 0 and start <= x then out.start, out[1] = x + step, nil end
    else
      local lo, hi = g.min or g[1], g.max or g[2]
      if lo and hi and lo <= x then out[1], out[2], out.min, out.max = x + 1, x + 1 + (hi - lo), nil, nil end
    end
    return out
  elseif g.kind == "timestamp" then
    local x = instant.value("timestamp", max)
    if x then out.start = instant.text("timestamp", x + (g.step or 1)) end
    return out
  end
  local lead, places = pattern_parts(g)
  local digits = max:sub(#lead + 1, #max - #(g.suffix or ""))
  if not digits:match("^%d+$") then return g end
  out.order, out.start = "seq", tonumber(digits) + 1
  local len = tonumber((c.type or ""):match("%((%d+)%)"))
  while 10 ^ #places < out.start + rows and #places < 18 and (not len or #lead + #places + #(g.suffix or "") < len) do
    places = places .. "#"
  end
  out[1], out.pattern = lead .. places, nil
  return out
end

-- Column c of table t's generator as this run compiles it (bulkbench.lua's Table:native): a
-- key widened to the rows asked, continued after the table --into names holds,
-- and a pool given as a share of the rows (empirical's or uuid's distinct < 0) made a count of this run's.
function M.run_gen(t, c)
  local g = c.gen
  if type(g) ~= "table" then return g end
  local rows = run_rows(t)
  if t.like and c.key then g = M.widen(c, rows) end
  if t.into and c.key then g = continued(t, c, g, rows or 0) end
  if (g.kind == "empirical" or g.kind == "uuid") and type(g.distinct) == "number" and g.distinct < 0 then
    g = copy(g)
    g.distinct = math.max(1, math.ceil(-c.gen.distinct * (rows or 1)))
  end
  return g
end

-- The statement that adds fk to scratch table name, pointing at target.
function M.add_fk_sql(db, name, fk, target)
  local function cols(list)
    local out = {}
    for i, c in ipairs(list) do out[i] = db:quote(c) end
    return table.concat(out, ", ")
  end
  return ("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s)"):format(db:quote(name), cols(fk.columns),
    db:quote(target), cols(fk.ref_columns))
end

return M
