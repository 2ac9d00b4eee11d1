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

-- Whether the server fills column c: when a row leaves it out (so no generator is written), or
-- whatever the row says (a BEFORE INSERT trigger's NEW.c := ...: lua/new/catalog_util.lua).
function M.server_fills(c) return c.identity or c.generated or M.server_default(c) or c.trigger_written ~= nil end

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
    list[i] = { name = m.name, rows = m.rows, max_rows = m.max_rows, foreign_keys = m.fks, values = m.value_sets }
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
  if not nd or nd == 0 then return nil end -- (pg's 0: not known)
  local nn = 1 - (st.null_frac or 0)
  if nd < 0 then return math.min(1, -nd / math.max(nn, 1e-9)) end
  local rows = m.rows
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
  elseif fk.spread and fk.distinct then
    how = (", each in turn without replacement, the rest among a share of the parents as large as its references were "
      .. "many (%s distinct per row, beyond the most common)"):format(num(fk.distinct)) .. (by and (", weighted by " .. by) or "")
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
  if fk.distinct then out = out .. (", distinct = %s"):format(num(fk.distinct)) end
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

-- ---- a key's unique values, in their observed range and shape ----

local function ordered(st) return not st or st.correlation == nil or math.abs(st.correlation) >= 0.5 end

-- How many distinct values the original held (an estimate), or nil.
function M.distinct_count(m, c)
  local ratio, st = M.distinct_ratio(m, c), m.stats[c.name]
  if not (ratio and m.rows and m.rows > 0) then return nil end
  return math.max(1, math.floor(ratio * m.rows * (1 - (st.null_frac or 0)) + 0.5))
end

-- The observed text values' numbers after a common prefix: prefix, digits (the most a value
-- The observed text values' numbers between a common prefix and a common suffix that starts
-- with no digit (an e-mail's @domain): prefix, digits (the most a value has), padded (every
-- value as wide), the smallest number, suffix; nil when they are not of that form.
local function numbered(st)
  local seen = {}
  for _, v in ipairs(st and st.bounds or {}) do seen[#seen + 1] = v end
  for _, p in ipairs(st and st.mcv or {}) do seen[#seen + 1] = p[1] end
  if #seen == 0 then return nil end
  local prefix, suffix = seen[1]:match("^(%D*)"), seen[1]
  for _, v in ipairs(seen) do
    local k = 0
    while k < #prefix and k < #v and prefix:byte(k + 1) == v:byte(k + 1) do k = k + 1 end
    prefix = prefix:sub(1, k)
    k = 0
    while k < #suffix and k < #v - #prefix and suffix:byte(#suffix - k) == v:byte(#v - k) do k = k + 1 end
    suffix = suffix:sub(#suffix - k + 1)
  end
  suffix = suffix:gsub("^%d+", "")
  local digits, width, low = 0, nil, nil
  for _, v in ipairs(seen) do
    local tail = v:sub(#prefix + 1, #v - #suffix)
    if not tail:match("^%d+$") or #tail > 18 then return nil end
    digits = math.max(digits, #tail)
    width = (width == nil or width == #tail) and #tail or false
    low = math.min(low or tonumber(tail), tonumber(tail))
  end
  if prefix:find("[#@]") then return nil end
  return prefix, digits, width ~= false, low, suffix
end

-- Text values that are e-mail addresses: the common start of their local parts (digits
-- aside) and their commonest domain, or nil.
local function mailbox(st)
  local seen, domains, best = {}, {}, nil
  for _, v in ipairs(st and st.bounds or {}) do seen[#seen + 1] = v end
  for _, p in ipairs(st and st.mcv or {}) do seen[#seen + 1] = p[1] end
  if #seen == 0 then return nil end
  local start
  for _, v in ipairs(seen) do
    local user, domain = v:match("^([^@%s]+)@([^@%s]+)$")
    if not user then return nil end
    user = user:match("^(.-)%d*$")
    start = start or user
    local k = 0
    while k < #start and k < #user and start:byte(k + 1) == user:byte(k + 1) do k = k + 1 end
    start = start:sub(1, k)
    domains[domain] = (domains[domain] or 0) + 1
    if not best or domains[domain] > domains[best] then best = domain end
  end
  start = start:gsub("[#@]", "")
  return start ~= "" and start or "user", "@" .. best
end

-- A numeric key: a shuffle of the range seen when the values were in no order, else a
-- sequence from the smallest at their spacing.
local function unique_number(c, st, m)
  local tlo, thi = src.limits(c)
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
  local d, step = M.distinct_count(m, c), 1
  if d and d > 1 and lo and hi and c.kind == "int" then step = math.max(1, math.floor((hi - lo) / (d - 1) + 0.5)) end
  local gen = step > 1 and ("bb.seq { start = %s, step = %d }"):format(num(start), step) or ("bb.seq { start = %s }"):format(num(start))
  return gen, ("a key: a sequence from %s%s, as the table's were"):format(num(start), step > 1 and (" in steps of " .. step) or ""),
    top and math.floor((top - start) / step) + 1 or nil
end

-- A text key: a number between the values' prefix and suffix, an e-mail address's shape, or a
-- pattern of the values' common prefix.
local function unique_text(c, st)
  local prefix, digits, padded, low, suffix = numbered(st)
  local room = c.length and (c.length - (prefix and #prefix + #suffix or 0)) or 18
  if prefix and digits <= room then
    local ord = ordered(st) and "seq" or "random"
    local args = { src.q(prefix .. ("#"):rep(digits)), ("order = %q"):format(ord) }
    if ord == "seq" and low > 0 then args[#args + 1] = "start = " .. num(low) end
    if not padded then args[#args + 1] = "pad = false" end
    if suffix ~= "" then args[#args + 1] = "suffix = " .. src.q(suffix) end
    return ("bb.unique { %s }"):format(table.concat(args, ", ")),
      ("a key: %s and a different number each row (%s)%s, %s, as the table's were (more digits when --rows asks for more)")
        :format(prefix, padded and (digits .. " digits") or ("up to " .. digits .. " digits, unpadded"),
          suffix ~= "" and (", then " .. suffix) or "", ord == "seq" and "in order" or "shuffled"),
      10 ^ math.min(room, 18)
  end
  local user, domain = mailbox(st)
  room = c.length and (c.length - (user and #user + #domain or 0)) or 10
  if user and room >= 4 then
    return ("bb.unique { %s, order = \"random\", pad = false, suffix = %s }"):format(src.q(user .. ("#"):rep(math.min(room, 10))),
      src.q(domain)), ("a key of e-mail addresses: %s, a different number each row, %s (the commonest domain)"):format(user, domain),
      10 ^ math.min(room, 10)
  end
  local pat = src.unique_pattern(c, st)
  if not pat then return nil end
  local ord = ordered(st) and "seq" or "random"
  return ("bb.unique { %s, order = %q }"):format(src.q(pat), ord),
    ("a key: %s with a different number each row, %s"):format(pat, ord == "seq" and "in order" or "shuffled")
end

-- A date or timestamp key: a sequence from the smallest at the spacing the values had.
local function unique_time(c, st, m)
  local lo, hi = M.observed(c, st)
  local unit = c.kind == "date" and 86400 or 1
  local d, step = M.distinct_count(m, c), unit
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
end

-- The unique generator for key column c: source, the comment, and how many rows it holds
-- (nil: more than any run will ask).
function M.unique(c, st, m)
  if c.kind == "int" or c.kind == "numeric" or c.kind == "double" then return unique_number(c, st, m)
  elseif c.kind == "text" then return unique_text(c, st)
  elseif c.kind == "uuid" then return "bb.uuid()", "a key: random UUIDs (distinct with overwhelming probability)"
  elseif c.kind == "timestamp" or c.kind == "date" then return unique_time(c, st, m)
  elseif c.kind == "bytes" then return "bb.blob { bytes = 16 }", "a key: 16 random bytes (distinct with overwhelming probability)"
  end
  return nil
end

return M
