-- bulkbench.new.keyplan: what each column's generator must do for the table's keys and
-- references to hold as the data has them (lua/new/law.lua writes the generators, lua/keys.lua
-- holds what they share with the run):
--   - a one-column reference weighs its parent rows by the child's references (most common
--     ones, a histogram of the rest), is drawn in turn when they were spread evenly, and keeps
--     as many distinct parents as it had (fk.distinct: the rest drawn in turn from a share of
--     the parents as large as they were many);
--   - a key holds when a column the server fills makes it unique (an identity, a sequence, a
--     UUID); a column the server fills the same for the rows of one statement (now(), a
--     trigger's SET NEW.t = NOW()) leaves the rest of the key to be unique alone, and says so;
--   - a column or a reference that was (nearly) distinct makes its key alone (one-to-one stays
--     so: each parent row once, one shuffle);
--   - otherwise a key of several columns takes each combination of its columns' values once,
--     references drawn from their parents' keys and plain columns from the values they held
--     (lua/scratch.lua reads them), so each keeps its range and per-value counts; the most
--     skewed one leads, by its weights;
--   - a key of references and times whose parents make ten times more combinations than rows
--     keeps the times' law; where the combinations cannot hold the rows, the column whose values
--     were the most nearly distinct is made unique in its observed range and shape.
local keys = require "bulkbench.keys"
local M = {}

M.ALONE = 0.95 -- a column whose non-NULL values were at least this share distinct makes its key alone

local function key_lists(m)
  local out = {}
  if #m.pk > 0 then out[1] = m.pk end
  for _, u in ipairs(m.uniques) do out[#out + 1] = u end
  return out
end

local function column(m, name)
  for _, c in ipairs(m.columns) do if c.name == name then return c end end
end

-- The child's references weigh a one-column foreign key's parent rows: its most common ones
-- by their frequency, the rest by the histogram of the others (integer keys). When no
-- reference was notably more common than the others, or nearly all were distinct, the parent
-- rows are drawn in turn (spread), not with replacement; and as many distinct parent rows as
-- the references named are kept (fk.distinct: those outside the most common, per row).
local function fk_weights(m, fk)
  if #fk.columns ~= 1 then return end
  local c, st = column(m, fk.columns[1]), m.stats[fk.columns[1]]
  if not (c and st) then return end
  local listed = 0
  for _, p in ipairs(st.mcv or {}) do listed = listed + p[2] end
  local ints = c.kind == "int" and #(st.bounds or {}) >= 2
  for _, b in ipairs(st.bounds or {}) do if not b:match("^%-?%d+$") then ints = false end end
  local ratio = keys.distinct_ratio(m, c)
  if #(st.mcv or {}) == 0 and not ints and not ratio then return end
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
  fk.spread = (#(st.mcv or {}) == 0 and ints) or (ratio ~= nil and ratio >= 0.9) or nil
  if ratio and (m.rows or 0) > 0 and fk.rest > 0 then
    local rest_distinct = ratio * m.rows * (1 - (st.null_frac or 0)) - #(st.mcv or {})
    if rest_distinct >= 1 then fk.distinct, fk.spread = math.floor(rest_distinct / m.rows * 1e6 + 0.5) / 1e6, true end
  end
end

-- How many times more common than the average a column's commonest value was (1: no skew known).
local function skew_of(m, c, mcv)
  local top = 0
  for _, p in ipairs(mcv or {}) do top = math.max(top, p[2]) end
  local ratio, st = c and keys.distinct_ratio(m, c), c and m.stats[c.name]
  local d = ratio and m.rows and ratio * m.rows * (1 - (st and st.null_frac or 0)) or #(mcv or {})
  return top > 0 and math.max(1, top * d) or 1
end

-- The free column of a key that is made unique: the one whose values were the most nearly
-- distinct (its shape then survives being made unique), an integer among equals.
local function unique_pick(m, free)
  local best, best_r
  for _, c in ipairs(free) do
    local r = keys.distinct_ratio(m, c) or 0
    if c.kind == "int" then r = r + 1e-9 end
    if c.key_hint then r = r + 2 end
    if not best or r > best_r then best, best_r = c, r end
  end
  return best, best_r
end

-- How a column the server fills bears on a key: "unique" (an identity, a sequence, a UUID: the
-- key holds whatever the rest does), "same" (now(), a trigger's NOW(), a computed column: rows
-- may share it), nil when the server does not fill it.
local function server_part(c)
  if c.identity or c.trigger_unique then return "unique" end
  if c.trigger_written or c.generated then return "same" end
  if keys.server_default(c) then
    local d = c.default:lower()
    if d:find("nextval", 1, true) or d:find("uuid", 1, true) or d:find("newid", 1, true) then return "unique" end
    return "same"
  end
end

-- Whether the key already holds: a column of it unique alone, a reference drawn once per
-- parent row, or a key made unique before whose columns are all in it.
local function holds(r, key, free, fks, made)
  for _, c in ipairs(free) do if r[c.name].unique then return true end end
  for _, fk in ipairs(fks) do if fk.unique and not fk.key then return true end end
  local mine = {}
  for _, col in ipairs(key) do mine[col] = true end
  for _, other in ipairs(made) do
    local inside = true
    for _, col in ipairs(other) do inside = inside and mine[col] == true end
    if inside then return true end
  end
  return false
end

-- A one-column reference of fks whose values were (nearly) all distinct, or nil.
local function distinct_fk(m, fks)
  for _, fk in ipairs(fks) do
    local c = #fk.columns == 1 and column(m, fk.columns[1])
    local ratio = c and keys.distinct_ratio(m, c)
    if ratio and ratio >= M.ALONE then return fk end
  end
end

-- A key of references and times (a rental: its date, the item, the customer): the parents'
-- combinations, when there are ten times more of them than rows, make the key and the times
-- keep their law (made unique, they could only be spread evenly).
local function timed(m, free, fks)
  if #free == 0 or #fks == 0 then return false end
  for _, c in ipairs(free) do if c.kind ~= "timestamp" and c.kind ~= "date" then return false end end
  local space = 1
  for _, fk in ipairs(fks) do space = space * (fk.parent_rows or 0) end
  return space >= 10 * math.max(m.rows or 0, 1)
end

-- Whether the combinations of the key's parts can hold the table's rows (parents whose rows are
-- loaded by the same run count as enough: the run checks), each reference wholly in the key (one
-- with a column outside it, two parent rows can give the key the same values).
local function product_fits(m, key, free, fks)
  local inkey = {}
  for _, col in ipairs(key) do inkey[col] = true end
  for _, fk in ipairs(fks) do
    for _, col in ipairs(fk.columns) do if not inkey[col] then return false end end
  end
  local n = 1
  for _, fk in ipairs(fks) do n = n * (fk.parent_rows or math.huge) end
  for _, c in ipairs(free) do n = n * (keys.distinct_count(m, c) or 0) end
  return n >= math.max(m.rows or 0, 1)
end

-- A reference drawn once per parent row: weights only order the rows, every row stays eligible
-- (those no reference named last: a parent none of the rows referenced comes in only once
-- the others' combinations are spent, not as a few rows of its own).
local function once(fk)
  fk.unique, fk.spread, fk.bounds, fk.bound_weights, fk.distinct = true, nil, nil, nil, nil
  if fk.weights and fk.rest < 1e-9 then fk.rest = 1e-9 end
end

-- The stand-in values of a key column's set (those the statistics name, for a run without the
-- original), its weights when it leads (most common values, the rest shared), and its distinct count.
local function key_set(m, c, sets, lead)
  local st, seen, standin = m.stats[c.name] or {}, {}, {}
  local listed = 0
  for _, p in ipairs(st.mcv or {}) do
    if not seen[p[1]] and #standin < 100 then seen[p[1]] = true; standin[#standin + 1] = { p[1], p[2] } end
    listed = listed + p[2]
  end
  for _, b in ipairs(st.bounds or {}) do
    if not seen[b] and #standin < 100 then seen[b] = true; standin[#standin + 1] = { b, 1 / math.max(#st.bounds, 1) } end
  end
  local e = { set = m.name .. "/" .. c.name, columns = { c.name }, key = sets, distinct = keys.distinct_count(m, c) }
  if lead and #(st.mcv or {}) > 0 then e.weights, e.rest = st.mcv, math.max(0, 1 - (st.null_frac or 0) - listed) end
  return e, standin
end

-- The key's references and columns over the product of their values, each combination once:
-- the most skewed one leads by its weights, the others' rows in a shuffled order for each of its rows.
local function product(m, r, free, fks)
  local parts = {}
  for _, fk in ipairs(fks) do parts[#parts + 1] = { fk = fk, skew = skew_of(m, column(m, fk.columns[1]), fk.weights), order = fk.index } end
  for i, c in ipairs(free) do parts[#parts + 1] = { c = c, skew = skew_of(m, c, (m.stats[c.name] or {}).mcv), order = 1000 + i } end
  table.sort(parts, function(a, b)
    if a.skew ~= b.skew then return a.skew > b.skew end
    return a.order < b.order
  end)
  local sets = {}
  for j, p in ipairs(parts) do sets[j] = p.fk and p.fk.set or (m.name .. "/" .. p.c.name) end
  for j, p in ipairs(parts) do
    if p.fk then
      once(p.fk)
      if #parts > 1 then
        p.fk.key = sets
        if j > 1 then p.fk.weights, p.fk.rest = nil, nil end
      end
    else
      local e, standin = key_set(m, p.c, sets, j == 1)
      m.value_sets = m.value_sets or {}
      m.value_sets[#m.value_sets + 1] = e
      r[p.c.name].key_set = { entry = e, standin = standin, lead = j == 1 }
    end
  end
end

-- Plans one key (its column names): which of its columns are drawn how.
local function plan_key(m, r, key, made)
  local free, fks, seen, same = {}, {}, {}, {}
  for _, col in ipairs(key) do
    local c = column(m, col)
    if not c then return end -- (an index on an expression)
    local part = server_part(c)
    if part == "unique" then return end
    if part == "same" then same[#same + 1] = c
    elseif r[col].fk then
      local fk = r[col].fk
      if not seen[fk] then seen[fk], fks[#fks + 1] = true, fk end
    else free[#free + 1] = c end
  end
  if #free + #fks == 0 or holds(r, key, free, fks, made) then return end
  made[#made + 1] = key
  local note
  if #same > 0 then
    local what = {}
    for i, c in ipairs(same) do
      what[i] = c.trigger_written and ("%s (written by its %s)"):format(c.name, c.trigger_written) or c.name
    end
    note = ("the server fills %s of the key (%s) alike for the rows of one statement: the rest of it is drawn unique alone")
      :format(table.concat(what, ", "), table.concat(key, ", "))
  end
  local function noted(name) if note then r[name].key_note = note end end
  local alone = distinct_fk(m, fks)
  local best, ratio = unique_pick(m, free)
  if alone then -- one-to-one stays so
    once(alone)
    for _, col in ipairs(alone.columns) do noted(col) end
  elseif #free == 0 or timed(m, free, fks) then
    product(m, r, {}, fks)
    for _, fk in ipairs(fks) do for _, col in ipairs(fk.columns) do noted(col) end end
  elseif #free + #fks == 1 or ratio >= M.ALONE or not product_fits(m, key, free, fks) then
    r[best.name].unique = true
    noted(best.name)
  else
    product(m, r, free, fks)
    for _, c in ipairs(free) do noted(c.name) end
    for _, fk in ipairs(fks) do for _, col in ipairs(fk.columns) do noted(col) end end
  end
end

-- Prepares model m's foreign keys (set names, weights, how they draw) and returns each
-- column's role: { fk, fk_pos, fk_unique, unique, key_set, key_note }.
function M.plan(m)
  local r = {}
  for _, c in ipairs(m.columns) do r[c.name] = { unique = c.key_hint } end
  for i, fk in ipairs(m.fks) do
    fk.set = fk.set or (m.name .. ".fk" .. i)
    for pos, col in ipairs(fk.columns) do
      if r[col] and not r[col].fk then r[col].fk, r[col].fk_pos = fk, pos end
    end
    fk.index = i
    fk_weights(m, fk)
  end
  local made = {}
  for _, key in ipairs(key_lists(m)) do plan_key(m, r, key, made) end
  for _, fk in ipairs(m.fks) do
    for _, col in ipairs(fk.columns) do if r[col].fk == fk then r[col].fk_unique = fk.unique end end
  end
  return r
end

return M
