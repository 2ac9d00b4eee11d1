-- bulkbench.new.law: the generator a scaffolded column gets, as Lua source, with the comment
-- that says where it came from. In order: the server fills it (identity, serial, a
-- default); a foreign key draws from the parent's keys; what no law can make is drawn from
-- the table's own values (lua/new/observed.lua); a key gets values no two rows share; enums and
-- CHECK ... IN lists draw from their values; a CHECK range bounds what is drawn; statistics
-- (pg_stats, MariaDB histograms, or a sample) give the law; without any, the type's own
-- range.
local observed = require "bulkbench.new.observed"
local instant = require "bulkbench.instant"
local keys = require "bulkbench.keys"
local src = require "bulkbench.lawsrc"
local M = {}
local q, num, pairs_src, list_src, pct = src.q, src.num, src.pairs_src, src.list_src, src.pct
local numeric_value, bound_text, less, step, limits, within = src.numeric_value, src.bound_text, src.less, src.step,
  src.limits, src.within
local lengths, unique_pattern = src.lengths, src.unique_pattern
M.q, M.num, M.pairs_src = q, num, pairs_src

-- ---- the laws ----

-- A choice over values with the statistics' weights: listed ones keep theirs, the others
-- share what is left equally.
local function weighted(values, st, rest_default)
  local mcv, listed, out, total = {}, 0, {}, 0
  for _, p in ipairs(st and st.mcv or {}) do mcv[p[1]] = p[2] end
  local others = 0
  for _, v in ipairs(values) do
    if mcv[v] then listed = listed + mcv[v] else others = others + 1 end
  end
  local rest = st and math.max(0, 1 - (st.null_frac or 0) - listed) or rest_default
  for _, v in ipairs(values) do
    local w = mcv[v] or (others > 0 and rest / others or 0)
    if st == nil then w = 1 end
    out[#out + 1] = { v, w }
    total = total + w
  end
  if total <= 0 then for _, p in ipairs(out) do p[2] = 1 end end
  return out
end

-- How many values the rest of a column (beyond its listed most common ones) takes, as
-- bb.empirical's distinct: the count, or when the values were many (over a tenth of the rows)
-- minus their share of the rows, which a run makes a count of its own rows; nil when unknown.
local function pool(m, c, listed, bounds)
  local d = keys.distinct_count(m, c)
  if not d or not m.rows or m.rows <= 0 then return nil end
  local rest = d - listed
  if rest < 1 then return nil end
  -- a histogram over few possible values (integers 95..100, days of a month) already draws
  -- about as many as there are; a pool's members would only fall on some of them twice
  local lo, hi = bounds and numeric_value(c, bounds[1]), bounds and numeric_value(c, bounds[#bounds])
  if type(lo) == "number" and type(hi) == "number" then
    local per = c.kind == "numeric" and 10 ^ (c.scale or 0) or (c.kind == "int" or c.kind == "date" or c.kind == "timestamp") and 1
    if per and (hi - lo) * per + 1 < 10 * rest then return nil end
  end
  if d > 0.1 * m.rows then return -tonumber(("%.6g"):format(rest / m.rows)) end
  return rest
end

-- What a pool of distinct values (pool's, negative: a share of the rows) is, for a comment.
local function pool_said(d)
  return d > 0 and ("%s distinct values"):format(num(d)) or ("as many distinct values as %s of the rows"):format(pct(-d))
end

-- The empirical law of statistics st, kept within the column's limits (m: its table).
local function empirical(m, c, st, indent)
  local lo, hi = limits(c)
  local mcv, bounds, dropped = {}, {}, 0
  for _, p in ipairs(st.mcv or {}) do
    if within(c, p[1], lo, hi) then mcv[#mcv + 1] = p else dropped = dropped + 1 end
  end
  for _, b in ipairs(st.bounds or {}) do
    local v = b
    if lo ~= nil and not within(c, v, lo, nil) then v = bound_text(c, lo) end
    if hi ~= nil and not within(c, v, nil, hi) then v = bound_text(c, hi) end
    bounds[#bounds + 1] = v
  end
  local listed = 0
  for _, p in ipairs(mcv) do listed = listed + p[2] end
  local rest = st.rest or math.max(0, 1 - (st.null_frac or 0) - listed)
  -- text: the values not among the most common are random text as long as they are
  local lengths = c.kind == "text" and c.lengths and rest >= 1e-6
  if not lengths and (#bounds < 2 or rest < 1e-6) then rest = 0 end -- below the frequencies' rounding
  local args = {}
  if #mcv > 0 then args[#args + 1] = "mcv = " .. pairs_src(mcv, indent) end
  if lengths then
    args[#args + 1] = "rest = " .. num(rest)
    args[#args + 1] = "lengths = " .. list_src(c.lengths, indent)
  elseif #bounds >= 2 and rest > 0 then
    args[#args + 1] = "rest = " .. num(rest)
    if st.bound_weights then
      local b = {}
      for i, v in ipairs(bounds) do b[i] = { v, st.bound_weights[i] or 0 } end
      args[#args + 1] = "bounds = " .. pairs_src(b, indent)
    else
      args[#args + 1] = "bounds = " .. list_src(bounds, indent)
    end
  end
  if c.kind == "numeric" and c.scale then args[#args + 1] = "scale = " .. c.scale end
  if #mcv == 0 and not lengths and (#bounds < 2 or rest <= 0) then return nil end
  local distinct = (lengths or (#bounds >= 2 and rest > 0)) and pool(m, c, #mcv, not lengths and bounds) or nil
  if distinct then args[#args + 1] = "distinct = " .. num(distinct) end
  local parts = {}
  if #mcv > 0 then parts[#parts + 1] = ("%d most common value%s (%s)"):format(#mcv, #mcv == 1 and "" or "s", pct(listed)) end
  if lengths then
    parts[#parts + 1] = ("random text as long as the other values (%s, %s: %s)"):format(pct(rest), c.length_source, c.length_note)
  elseif #bounds >= 2 and rest > 0 then parts[#parts + 1] = ("a histogram of %d buckets (%s)"):format(#bounds - 1, pct(rest)) end
  if distinct then parts[#parts] = parts[#parts] .. ", " .. pool_said(distinct) end
  local why = ("%s: %s"):format(st.source, table.concat(parts, " and "))
  if dropped > 0 then why = why .. (", %d values outside the CHECK left out"):format(dropped) end
  return "bb.empirical { " .. table.concat(args, ", ") .. " }", why
end

-- Defaults from the type alone, when nothing was observed.
local function by_type(c)
  local lo, hi = limits(c)
  if c.kind == "int" then
    lo = type(lo) == "number" and lo or 0
    hi = type(hi) == "number" and hi or math.max(lo, 0) + 1000000
    return ("bb.int { %s, %s }"):format(num(lo), num(hi)), "no values to learn from: uniform over " .. num(lo) .. ".." .. num(hi)
  elseif c.kind == "numeric" then
    local s = math.min(c.scale or 2, 12) -- within the generator's 18 digits below a million
    local top = c.precision and math.min(10 ^ (c.precision - s) - 10 ^ -s, 1e6) or 9999
    lo = type(lo) == "number" and lo or 0
    hi = type(hi) == "number" and math.min(hi, top) or top
    return ("bb.decimal { %s, %s, %d }"):format(num(lo), num(hi), s), "no values to learn from: uniform decimals"
  elseif c.kind == "double" then
    lo = type(lo) == "number" and lo or 0
    hi = type(hi) == "number" and hi or 1000
    return ("bb.double { %s, %s }"):format(num(lo), num(hi)), "no values to learn from: uniform"
  elseif c.kind == "bool" then
    return "bb.bool { 0.5 }", "no values to learn from: a fair coin"
  elseif c.kind == "date" and (type(lo) == "number" or type(hi) == "number") then
    lo = type(lo) == "number" and lo or hi - 365
    hi = type(hi) == "number" and hi or lo + 365
    return ("bb.date { %q, %q }"):format(bound_text(c, lo), bound_text(c, hi)),
      ("no values to learn from: a day of %s..%s (its CHECK)"):format(bound_text(c, lo), bound_text(c, hi))
  elseif c.kind == "date" then
    return "bb.date()", "no values to learn from: a day of the last year"
  elseif c.kind == "timestamp" and (type(lo) == "number" or type(hi) == "number") then
    lo = type(lo) == "number" and math.ceil(lo) or math.floor(hi) - 365 * 86400
    hi = type(hi) == "number" and math.floor(hi) or lo + 365 * 86400
    return ("bb.timestamp { from = %q, to = %q }"):format(bound_text(c, lo), bound_text(c, hi)),
      ("no values to learn from: uniform over %s..%s (its CHECK)"):format(bound_text(c, lo), bound_text(c, hi))
  elseif c.kind == "timestamp" then
    return 'bb.timestamp { from = "2025-01-01", to = "2025-12-31 23:59:59" }', "no values to learn from: uniform over 2025"
  elseif c.kind == "uuid" then
    return "bb.uuid()", "random UUIDs"
  elseif c.kind == "bytes" then
    return "bb.blob { bytes = 64 }", "no values to learn from: 64 random bytes"
  end
  local n = math.min(c.length or 20, 20)
  return ("bb.string { min = %d, max = %d }"):format(math.min(n, 5), n), "no values to learn from: random text"
end

-- A column of a key drawn over the product of its columns' values (lua/new/keyplan.lua): a
-- unique pick of the set of the values it held, which each run reads from the original.
local function key_set_column(m, c, role, indent)
  local ks = role.key_set
  local e = ks.entry
  local names = {}
  for i, set in ipairs(e.key) do names[i] = q(set) end
  local vals = #ks.standin > 0 and (", values = " .. pairs_src(ks.standin, indent)) or ""
  local gen = ("bb.pick { set = %s, unique = true, key = { %s }%s }"):format(q(e.set), table.concat(names, ", "), vals)
  local how = ks.lead and (e.weights and ("its values by their frequencies (%d most common)"):format(#e.weights) or "its values evenly")
    or "its values in a shuffled order for each of the first's"
  return { gen = gen, key = true, comment = ("in a key of several columns, each combination of their values once: the %s "
    .. "values the table holds%s (read at each run), %s"):format(e.distinct and num(e.distinct) or "distinct",
    #ks.standin > 0 and (", " .. #ks.standin .. " of them written here for a run without it") or "", how) }
end

-- How column c of model m is generated: { gen = source or nil (the server fills it),
-- comment, null, as, as_text, key, warning }; a trigger that writes it and what the key it
-- is in needed of it said in the comment.
function M.column(m, c, role, indent)
  local out
  if role.key_set then out = key_set_column(m, c, role, indent) else out = M.law(m, c, role, indent) end
  if role.key_note and out.comment then out.comment = out.comment .. "; " .. role.key_note end
  if c.trigger_written and not out.skip then
    out.comment = ("written by its %s (NEW.%s = %s), which the scratch copies carry: the server's values (these only "
      .. "under --no-triggers); %s"):format(c.trigger_written, c.name, c.trigger_expr or "?", out.comment or "")
  end
  return out
end

-- The server's columns: generated, identities, evaluated defaults, and one always NULL; true
-- when c is one (out says what of it).
local function server_law(c, role, out)
  if c.generated then
    out.comment, out.skip = "generated by the server from other columns: not written", true
  elseif c.identity then
    out.comment = "an identity / auto-increment column: left to the server"
    out.limit, out.limit_why = keys.identity_limit(c)
  elseif keys.server_default(c) and not role.fk then
    out.comment = ("default %s: left to the server (give it a generator to make its values instead)"):format(c.default)
  elseif out.null and out.null >= 0.9999 then
    out.null, out.comment, out.skip = nil, "always NULL in the table: not written", true
  else
    return false
  end
  return true
end

-- Columns drawn from what exists or made unique: references, the table's own values, types
-- with no generator, keys; true when c is one.
local function drawn_law(m, c, role, indent, out)
  local st = m.stats[c.name]
  if role.fk then
    out.gen, out.comment = keys.fk_column(m, c, role)
    return true
  end
  local drawn = observed.column(m, c, indent, pairs_src) -- from the table's own values
  if drawn then
    for k, v in pairs(drawn) do out[k] = v end
    if drawn.gen and role.unique then out.key, out.null = true, nil end
    return true
  end
  if c.kind == "other" then -- and no values were read of it (lua/new/observed.lua): nothing to draw from
    out.comment = ("type %s: bulkbench has no generator for it and read no values of it: left to the server")
      :format(c.declared or c.type)
    out.warning = ("column %s: type %s is left to the server (NULL or its default)"):format(c.name, c.declared or c.type)
    return true
  end
  if not role.unique then return false end
  local gen, why, limit = keys.unique(c, st, m)
  if not gen then
    out.warning = ("column %s is in a key but bulkbench cannot make %s values unique"):format(c.name, c.kind)
    return false
  end
  out.gen, out.comment, out.key = gen, why, true
  if limit then out.limit, out.limit_why = limit, ("%s: %s values at most"):format(c.name, num(limit)) end
  out.null = nil -- a key's values are all there
  return true
end

-- Columns of few values or of no order: enums and IN lists, booleans, UUIDs; true when c's
-- law is one of those.
local function labels_law(m, c, st, indent, out)
  if c.kind == "enum" or c.check_in then
    local values = c.check_in or c.labels
    out.gen = "bb.choice " .. pairs_src(weighted(values, st, 1), indent)
    out.comment = (c.check_in and ("CHECK ... IN: %d values"):format(#values) or ("its %d labels"):format(#values))
      .. (st and (", weighted by " .. st.source) or ", equally likely")
    if c.kind == "enum" or c.kind == "other" then out.as = "text" end
    return true
  end
  if c.kind == "bool" and st then
    local t, f = 0, 0
    for _, p in ipairs(st.mcv or {}) do
      local v = p[1]:lower()
      if v == "t" or v == "true" or v == "1" then t = t + p[2] elseif v == "f" or v == "false" or v == "0" then f = f + p[2] end
    end
    if t + f == 0 then return false end
    out.gen = ("bb.bool { %s }"):format(num(t / (t + f)))
    out.comment = ("%s: true in %s of the values"):format(st.source, pct(t / (t + f)))
    return true
  end
  if not (st and c.kind == "uuid") then return false end -- random UUIDs, as many different ones as the column held
  local d = keys.distinct_count(m, c)
  if not (d and m.rows and d < 0.95 * m.rows * (1 - (st.null_frac or 0))) then return false end
  local share = d > 0.1 * m.rows and -tonumber(("%.6g"):format(d / m.rows)) or d
  out.gen = ("bb.uuid { distinct = %s }"):format(num(share))
  out.comment = ("%s: random UUIDs, %s"):format(st.source, (pool_said(share):gsub("distinct values", "different ones")))
  return true
end

-- Columns whose statistics (or a sample's lengths) give a law; true when c's do.
local function stats_law(m, c, st, indent, out)
  if st and c.kind ~= "uuid" and c.kind ~= "bytes" then
    local gen, why = empirical(m, c, st, indent)
    if gen then
      if c.kind == "text" and #(st.mcv or {}) > 0 and not gen:find("rest = ", 1, true) then
        gen = gen:gsub("^bb%.empirical { mcv = (.*) }$", "bb.choice %1")
      end
      out.gen, out.comment = gen, why
      return true
    end
  end
  if c.lengths and (c.kind == "text" or c.kind == "bytes") then -- lengths of the values themselves
    local distinct = st and pool(m, c, 0) -- (bytes: as many different values as the table's, not new bytes each row)
    out.gen = "bb.empirical { lengths = " .. list_src(c.lengths, indent) .. (distinct and (", distinct = " .. num(distinct)) or "") .. " }"
    out.comment = ("%s: random %s of the values' lengths (%s)%s"):format(c.length_source,
      c.kind == "bytes" and "bytes" or "text", c.length_note, distinct and (", " .. pool_said(distinct)) or "")
    return true
  end
  local w = st and (st.avg_width or 0) > 0 and math.max(1, math.floor(st.avg_width + 0.5))
  if w and c.kind == "text" then
    local hi = c.length and math.min(c.length, 2 * w) or 2 * w
    out.gen = ("bb.string { min = %d, max = %d }"):format(math.min(w, hi), hi)
    out.comment = ("%s: average length %d"):format(st.source, w)
    return true
  elseif w and c.kind == "bytes" then
    out.gen = ("bb.blob { bytes = %d }"):format(w)
    out.comment = ("%s: average width %d bytes"):format(st.source, w)
    return true
  end
  return false
end

-- The law of column c alone (M.column's first part): the first of the server's, drawn,
-- labels' and statistics' laws that applies, else its type's own.
function M.law(m, c, role, indent)
  local st = m.stats[c.name]
  local out = { null = (not c.not_null and st and st.null_frac and st.null_frac > 0) and st.null_frac or nil }
  if server_law(c, role, out) or drawn_law(m, c, role, indent, out) or labels_law(m, c, st, indent, out)
    or stats_law(m, c, st, indent, out) then
    return out
  end
  out.gen, out.comment = by_type(c)
  return out
end

M.less = less
M.limits = limits
M.unique_pattern = unique_pattern
M.list_src = list_src
return M
