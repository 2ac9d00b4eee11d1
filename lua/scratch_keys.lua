-- bulkbench.scratch_keys: the run-time half of lua/keys.lua for the scenarios `bulkbench new`
-- writes (lua/scratch.lua loads them): how many rows each table gets and how many it can
-- take (its own limit, t.max_rows, and what its keys made of references allow: each parent
-- key once, or each combination of several parents' keys once), so a --rows that cannot
-- work fails before any row is loaded; the keys of the rows a run has not loaded yet, for
-- references to the table itself or round a cycle; and those foreign keys, added once the
-- rows are in (as a dump loads data first and constraints after), which checks every row.
local core = require "bulkbench.core"
local M = {}

local function base(qname) return qname:match("^[^.]+%.(.+)$") or qname end

-- How many rows t can take, and why, given size(fk) (its parent's keys, nil when unknown):
-- t.max_rows = { n, why } and the keys its foreign keys make (fk.unique; fk.key names the
-- sets of a key made of several).
function M.cap(t, size)
  local cap, why
  if t.max_rows then cap, why = t.max_rows[1], t.max_rows[2] end
  local keys, order = {}, {}
  for _, fk in ipairs(t.foreign_keys or {}) do
    if fk.unique then
      local id = fk.key and table.concat(fk.key, "\1") or fk.set
      if not keys[id] then keys[id] = {}; order[#order + 1] = id end
      table.insert(keys[id], fk)
    end
  end
  for _, id in ipairs(order) do
    local n, cols, parts = 1, {}, {}
    for _, fk in ipairs(keys[id]) do
      local s = size(fk)
      if not s then n = nil; break end
      n = n * s
      for _, c in ipairs(fk.columns) do cols[#cols + 1] = c end
      parts[#parts + 1] = ("%s's %d"):format(base(fk.references), s)
    end
    if n and (not cap or n < cap) then
      cap = n
      why = #keys[id] > 1
        and ("(%s) make its key: each combination of %s keys once"):format(table.concat(cols, ", "), table.concat(parts, " and "))
        or ("%s make%s its key: each of %s keys once"):format(table.concat(cols, ", "), #cols > 1 and "" or "s", parts[1])
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
