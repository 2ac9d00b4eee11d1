-- bulkbench.new.observed: what `bulkbench new` takes from a table's own values, read from a
-- sample when the scenario is written: the columns drawn from those values, and the lengths
-- of text and binary values.
--
-- A column is drawn from its table's values when no law bulkbench has can make them: a type
-- it has no generator for (json, arrays, ranges, network and geometric types, intervals,
-- times, money, bits: the catalog's kind "other"), a CHECK of a form it does not read (the
-- table's own or its domain's), numbers wider than the generator's 64 bits (more than 18
-- digits, a BIGINT UNSIGNED above 2^63), and what the catalog marks (c.values_why: MariaDB's
-- SET combinations; with no values, its own law: a SET's labels). The scenario picks them
-- from a value set each run reads from a sample of the original (the table's `values =
-- {...}`, read by lua/scratch.lua), each sampled row once per pass, so the sample's
-- frequencies and distinct ratio are kept; some of them are written into the file too, for
-- a run where the original is not there and for `bulkbench gen`. The columns of a CHECK it
-- does not read are drawn together, from one sampled row.
local util = require "bulkbench.new.catalog_util"
local M = {}

local RUN_ROWS = 100000     -- a run reads at most this many sampled rows of a column...
local RUN_BYTES = 64 * 1048576 -- ... and about this many bytes
local STANDIN_BYTES = 8192  -- the values written into the file, per column
local STANDIN_MAX = 100
local SAMPLE_ROWS = 2000    -- rows read now for the values written into the file

-- ---- which columns ----

-- The column names a CHECK's SQL mentions (quoted literals aside): those of bycol.
local function mentioned(sql, bycol)
  local out, seen, i = {}, {}, 1
  local function add(name, exact)
    local c = exact and bycol.exact[name] or bycol.lower[name:lower()]
    if c and not seen[c] then seen[c] = true; out[#out + 1] = c end
  end
  while i <= #sql do
    local ch = sql:sub(i, i)
    if ch == "'" then
      local j = i + 1
      while j <= #sql and not (sql:sub(j, j) == "'" and sql:sub(j + 1, j + 1) ~= "'") do
        j = j + (sql:sub(j, j) == "'" and 2 or 1)
      end
      i = j + 1
    elseif ch == '"' or ch == "`" then
      local j = sql:find(ch, i + 1, true) or #sql
      add(sql:sub(i + 1, j - 1), true)
      i = j + 1
    else
      local word = sql:match("^[%a_][%w_$]*", i)
      if word then add(word, false); i = i + #word else i = i + 1 end
    end
  end
  return out
end

-- Whether a number's text fits the generator's 64-bit integers at the scale it is made with.
local function fits(v, scale)
  local int, frac = tostring(v):match("^[-+]?0*(%d*)%.?(%d*)$")
  if not int then return true end -- not a number: the law will say so
  frac = frac:gsub("0+$", "")
  if scale then frac = frac:sub(1, scale) end
  return #int + #frac <= 18
end

-- Why numbers observed in st do not fit, or nil.
local function too_wide(c, st)
  if not st or not (c.kind == "int" or c.kind == "numeric") then return nil end
  local vals = {}
  for _, p in ipairs(st.mcv or {}) do vals[#vals + 1] = p[1] end
  for _, b in ipairs(st.bounds or {}) do vals[#vals + 1] = b end
  for _, v in ipairs(vals) do
    local int = tostring(v):match("^[-+]?0*(%d*)")
    if c.kind == "int" and int and (#int > 19 or (#int == 19 and int > "9223372036854775807")) then
      return ("its values (%s) are beyond the generator's 64-bit integers"):format(v)
    end
    if c.kind == "numeric" and not fits(v, c.scale) then
      return ("its values (%s) have more digits than the generator's 18"):format(v)
    end
  end
  return nil
end

-- The scale numbers are made with when the column's would not fit 18 digits but the values'
-- own (trailing zeros aside) does: DECIMAL(65,30) holding cents.
local function own_scale(c, st)
  if c.kind ~= "numeric" or not c.scale or (c.precision or 0) <= 18 or not st then return end
  local s = 0
  for _, p in ipairs(st.mcv or {}) do s = math.max(s, #(tostring(p[1]):match("%.(%d*)") or ""):gsub("0+$", "")) end
  for _, b in ipairs(st.bounds or {}) do s = math.max(s, #((tostring(b):match("%.(%d*)") or ""):gsub("0+$", ""))) end
  if s < c.scale then c.scale = s end
end

-- Groups of columns drawn together from the table's values: { {columns = {c...}, why = text} }.
local function groups(m)
  local bycol, out, group_of = { exact = {}, lower = {} }, {}, {}
  for _, c in ipairs(m.columns) do bycol.exact[c.name] = c; bycol.lower[c.name:lower()] = c end
  local fk = {}
  for _, f in ipairs(m.fks) do for _, col in ipairs(f.columns) do fk[col] = true end end
  local function usable(c) return not (c.generated or c.identity or fk[c.name]) end
  local function join(cols, why, check)
    local g
    for _, c in ipairs(cols) do if group_of[c] then g = g or group_of[c] end end
    if not g then g = { columns = {}, why = {} }; out[#out + 1] = g end
    for _, c in ipairs(cols) do
      local other = group_of[c]
      if other and other ~= g then -- two groups share a column: one
        for _, oc in ipairs(other.columns) do g.columns[#g.columns + 1] = oc; group_of[oc] = g end
        for _, w in ipairs(other.why) do g.why[#g.why + 1] = w end
        g.check = g.check or other.check
        other.columns, other.why = {}, {}
      elseif not other then
        g.columns[#g.columns + 1] = c
        group_of[c] = g
      end
    end
    g.why[#g.why + 1] = why
    g.check = g.check or check
  end
  for _, sql in ipairs(m.checks_other or {}) do
    local cols = {}
    for _, c in ipairs(mentioned(sql, bycol)) do if usable(c) then cols[#cols + 1] = c end end
    if #cols > 0 then join(cols, "CHECK " .. sql, true) end
  end
  for _, c in ipairs(m.columns) do
    if usable(c) then
      for _, sql in ipairs(c.checks_unread or {}) do join({ c }, sql, true) end
      local st = m.stats[c.name]
      own_scale(c, st)
      local why = c.values_why or (c.kind == "other" and ("type %s: bulkbench has no generator for it"):format(c.declared or c.type))
        or too_wide(c, st)
      if why and not group_of[c] then join({ c }, why) end
    end
  end
  local kept = {}
  for _, g in ipairs(out) do if #g.columns > 0 then kept[#kept + 1] = g end end
  return kept
end

-- ---- reading them ----

local function not_null_sql(db, cols)
  local w = {}
  for i, c in ipairs(cols) do w[i] = db:quote(c.name) .. " IS NOT NULL" end
  return table.concat(w, " AND ")
end

-- The values of group g written into the file (the commonest first), their null fractions,
-- and the run's set and SQL.
local function read_group(db, cat, m, g)
  local exprs, names = {}, {}
  for i, c in ipairs(g.columns) do exprs[i] = db:quote(c.name); names[i] = c.name end
  local set = m.name .. "/" .. table.concat(names, "+")
  local rows = util.q(db, "a sample of " .. m.qname .. "'s values of " .. table.concat(names, ", "),
    cat.values_sql(db, m, exprs, SAMPLE_ROWS))
  local bytes, tuples, counts, nulls, full = 0, {}, {}, {}, 0
  for _, r in ipairs(rows) do
    local whole = true
    for i = 1, #g.columns do
      if r[i] == nil then whole = false; nulls[i] = (nulls[i] or 0) + 1 end
    end
    if whole then
      local key = table.concat(r, "\0", 1, #g.columns)
      for i = 1, #g.columns do bytes = bytes + #r[i] end
      if not counts[key] then counts[key] = 0; tuples[#tuples + 1] = { key = key, row = r } end
      counts[key] = counts[key] + 1
      full = full + 1
    end
  end
  table.sort(tuples, function(a, b) return counts[a.key] > counts[b.key] end)
  local avg = full > 0 and bytes / full or 0
  local n = math.max(1, math.min(RUN_ROWS, math.floor(RUN_BYTES / math.max(avg, 1))))
  local entry = { set = set, columns = names, rows = n, sampled = full, distinct = #tuples,
                  sql = cat.values_sql(db, m, exprs, n, not_null_sql(db, g.columns)) }
  -- none, of columns that have a law of their own besides (a SET's labels): that law
  local fallback = full == 0 and not g.check
  for _, c in ipairs(g.columns) do fallback = fallback and c.values_why ~= nil end
  if fallback then return end
  -- none: a column a CHECK it cannot read bounds, or a NOT NULL one, refuses the run before any
  -- row with this; the others are left NULL, and the run reads no set for them
  local refuse = g.check
  for _, c in ipairs(g.columns) do refuse = refuse or c.not_null end
  if full == 0 and refuse then
    local c = g.columns[1]
    entry.empty = ("%s.%s (%s): %s, and the table holds no values to draw from: give the column a generator")
      :format(m.name, c.name, c.declared or c.type, g.why[1])
  end
  -- the commonest rows, as many for each column (a pick draws the k-th of each together)
  local keep, size = 0, {}
  for k, t in ipairs(tuples) do
    local fits = k <= STANDIN_MAX
    for i = 1, #g.columns do fits = fits and (size[i] or 0) + #t.row[i] <= STANDIN_BYTES end
    if not fits then break end
    for i = 1, #g.columns do size[i] = (size[i] or 0) + #t.row[i] end
    keep = k
  end
  for i, c in ipairs(g.columns) do
    local standin = {}
    for k = 1, keep do standin[k] = { tuples[k].row[i], counts[tuples[k].key] } end
    c.values = { entry = entry, col = i, standin = standin, why = g.why[1], group = #g.columns > 1 and names or nil,
                 null_frac = #rows > 0 and (nulls[i] or 0) / #rows or 0, left_null = full == 0 and not refuse }
  end
  if full > 0 or refuse then
    m.value_sets = m.value_sets or {}
    m.value_sets[#m.value_sets + 1] = entry
  end
end

-- Quantiles (up to 101) of a list of lengths.
local function quantiles(list)
  table.sort(list)
  local out = {}
  if #list == 0 then return nil end
  local nb = math.min(100, #list - 1)
  if nb == 0 then return { list[1] } end
  for b = 0, nb do out[#out + 1] = list[1 + math.floor(b * (#list - 1) / nb + 0.5)] end
  return out
end

-- Characters of UTF-8 text.
local function chars(s)
  local _, n = s:gsub("[^\128-\191]", "")
  return n
end

-- The first n characters of UTF-8 text.
local function first_chars(s, n)
  local k, i = 0, 1
  while i <= #s do
    if k == n then return s:sub(1, i - 1) end
    local b = s:byte(i)
    i = i + (b >= 240 and 4 or b >= 224 and 3 or b >= 192 and 2 or 1)
    k = k + 1
  end
  return s
end

-- Lengths of the text and binary columns' values (their most common values aside):
-- c.lengths (characters, for text; bytes, for binary) and c.length_note.
local function read_lengths(db, cat, m, n)
  if not cat.length_exprs then return end
  local cols, exprs = {}, {}
  for _, c in ipairs(m.columns) do
    if (c.kind == "text" or c.kind == "bytes") and not c.values and not c.generated and not c.identity then
      local ch, oc, pre = cat.length_exprs(db, c.name, c.kind)
      cols[#cols + 1] = c
      exprs[#exprs + 1] = ch
      exprs[#exprs + 1] = oc
      exprs[#exprs + 1] = pre or "NULL"
    end
  end
  if #cols == 0 then return end
  local rows = util.q(db, "the lengths of " .. m.qname .. "'s values", cat.values_sql(db, m, exprs, n))
  for i, c in ipairs(cols) do
    local mcv = {}
    for _, p in ipairs((m.stats[c.name] or {}).mcv or {}) do
      local v = tostring(p[1])
      mcv[chars(v) .. ":" .. first_chars(v, 64)] = true
    end
    local lens, sum_c, sum_o, k = {}, 0, 0, 0
    for _, r in ipairs(rows) do
      local ch, oc = tonumber(r[3 * i - 2]), tonumber(r[3 * i - 1])
      if ch and not mcv[ch .. ":" .. tostring(r[3 * i])] then
        lens[#lens + 1] = c.kind == "bytes" and oc or ch
        sum_c, sum_o, k = sum_c + ch, sum_o + (oc or ch), k + 1
      end
    end
    c.lengths = quantiles(lens)
    if k > 0 then
      c.length_note = c.kind == "bytes" and ("%d to %d bytes, %.0f on average"):format(c.lengths[1], c.lengths[#c.lengths], sum_o / k)
        or ("%d to %d characters, %.0f on average (%.0f bytes)"):format(c.lengths[1], c.lengths[#c.lengths], sum_c / k, sum_o / k)
      c.length_source = ("a sample of %d rows"):format(#rows)
    end
  end
end

-- Reads what the columns of m need from the table's values (n: the sample's rows).
function M.read(db, cat, m, n)
  if not cat.values_sql then return end
  for _, g in ipairs(groups(m)) do read_group(db, cat, m, g) end
  read_lengths(db, cat, m, n)
end

-- ---- what the scenario says ----

-- How column c is drawn from the table's values: the fields law.column returns, or nil.
function M.column(m, c, indent, pairs_src)
  local v = c.values
  if not v then return nil end
  local e, out = v.entry, {}
  local others = {}
  for _, name in ipairs(v.group or {}) do if name ~= c.name then others[#others + 1] = name end end
  local what = #others > 0 and ("%s (with %s: one sampled row for all)"):format(v.why, table.concat(others, ", ")) or v.why
  local st = m.stats[c.name]
  if not (st and st.null_frac) and not c.not_null and v.null_frac > 0 then out.null = v.null_frac end
  if v.left_null then
    out.comment = ("%s; the table holds no values of it: left NULL"):format(what)
    out.warning = ("column %s: %s, and the table holds none: left NULL"):format(c.name, what)
    return out
  end
  local vals = #v.standin > 0 and (", values = " .. pairs_src(v.standin, indent)) or ""
  -- a column of its own: its NULLs share the shuffle's passes with its values (a pass then holds every sampled row)
  local pn = not v.group and not c.not_null and ", pass_nulls = true" or ""
  out.gen = ("bb.pick { set = %q%s, unique = true%s%s }"):format(e.set, v.col > 1 and (", col = " .. v.col) or "", pn, vals)
  out.as = "text"
  if #v.standin == 0 then
    out.comment = ("%s: drawn from the table's values at each run, and it holds none now"):format(what)
    out.warning = e.empty
  else
    out.comment = ("%s: drawn from the table's own values, a sample of up to %d rows read at each run, each once per pass "
      .. "(%d distinct in %d sampled now; %d of them written here, for a run without the table)")
      :format(what, e.rows, e.distinct, e.sampled, #v.standin)
  end
  return out
end

-- The table's `values = {...}` lines (I: the indent), or none.
function M.table_src(m, I, q, pairs_src)
  if not m.value_sets then return {} end
  local lines = { I .. "values = {" }
  for _, e in ipairs(m.value_sets) do
    local cols = {}
    for i, c in ipairs(e.columns) do cols[i] = q(c) end
    if e.key then -- a key column's distinct values (lua/new/keyplan.lua), read by the run from the original
      local key = {}
      for i, set in ipairs(e.key) do key[i] = q(set) end
      lines[#lines + 1] = ("%s  { set = %s, columns = { %s }, key = { %s }%s%s },"):format(I, q(e.set), table.concat(cols, ", "),
        table.concat(key, ", "), e.distinct and (", distinct = %d"):format(e.distinct) or "",
        e.weights and (", weights = %s, rest = %s"):format(pairs_src(e.weights, I .. "    "), ("%.6g"):format(e.rest)) or "")
    else
      lines[#lines + 1] = ("%s  { set = %s, columns = { %s }, sql = %s%s },"):format(I, q(e.set), table.concat(cols, ", "),
        q(e.sql), e.empty and (", empty = " .. q(e.empty)) or "")
    end
  end
  lines[#lines + 1] = I .. "},"
  return lines
end

return M
