-- bulkbench.new.catalog_util: what the engines' catalog readers share: the model they fill,
-- queries that say which one failed, the unknown-table error, CHECK constraints of range
-- and IN-list form read into bounds, and the statistics of a sample of rows.
local core = require "bulkbench.core"
local scratch = require "bulkbench.scratch"
local M = {}

-- The model of one table (lua/new/new.lua reads it):
--   engine, qname ("schema.table" or "table"), name, rows (an estimate), server,
--   columns = { {name, type (as the scenario spells it), kind (int numeric double bool text
--     date timestamp uuid bytes enum other), declared, length, precision, scale, range,
--     not_null, default, identity, generated, labels (enum), unsigned, values_why (why its
--     values come from the table's own: a SET), checks_unread (a domain's CHECKs of a form
--     not read)} }, and lua/new/observed.lua's values and lengths,
--   pk = {cols}, uniques = {{cols}}, fks = {{name, columns, references, ref_columns}},
--   checks = {{name, sql}}, stats = { [column] = {source, null_frac, avg_width, n_distinct,
--     correlation, mcv = {{value, freq}}, bounds = {...}, bound_weights = {...}} },
--   stats_source, notes (said in the file), warnings (said in the file and on stderr).
function M.model(engine, qname, name)
  return { engine = engine, qname = qname, name = name, columns = {}, pk = {}, uniques = {}, fks = {}, checks = {},
           stats = {}, notes = {}, warnings = {} }
end

-- Tables up to this many rows (by the catalog's estimate) are counted: an estimate (InnoDB's
-- is off by a few percent) would be the scenario's --rows; beyond, counting costs too much.
M.COUNT_LIMIT = 10000000

-- Sets m.rows: the rows counted when the catalog's estimate (nil: none, never analyzed) is
-- below M.COUNT_LIMIT, else the estimate; m.rows_how says which, for the file.
function M.count_rows(db, m, estimate, whose)
  if estimate and estimate >= M.COUNT_LIMIT then
    m.rows, m.rows_how = math.floor(estimate + 0.5), ("%s's estimate (over %s rows: not counted)"):format(whose, "10,000,000")
    return
  end
  m.rows = tonumber(M.q(db, "the rows of " .. m.qname, "SELECT count(*) FROM " .. M.qualified(db, m.qname))[1][1])
  m.rows_how = "counted"
end

-- db:query that, failing, says which query of which thing failed (a missing privilege).
function M.q(db, what, sql, ...)
  local ok, rows = pcall(db.query, db, sql, ...)
  if ok then return rows end
  local first = sql:match("^%s*(.-)%s*$"):gsub("%s+", " ")
  core.fail(("reading %s failed: %s\n  the query: %s"):format(what, (tostring(rows):gsub("^.-:%d+: ", "")),
    #first > 160 and first:sub(1, 157) .. "..." or first))
end

function M.no_table(db, name)
  local near = scratch.nearest(db, name)
  core.fail(("no table %s in %s%s"):format(name, db.where ~= "" and db.where or db.engine,
    #near > 0 and ("; did you mean " .. table.concat(near, ", ") .. "?") or ""))
end

-- No table item where it was looked for, but tables of its name in other schemas
-- (schema, name pairs): say where, and how to name one.
function M.elsewhere(item, searched, others)
  if #others == 0 then return end
  local where = {}
  for i, r in ipairs(others) do where[i] = ("--table='%s.%s'"):format(r[1], r[2]) end
  core.fail(("no table %s in %s; it is in another schema: %s"):format(item, searched, table.concat(where, " or ")))
end

-- The table's triggers and rules (rows of one text each: "trigger audit_t"): the scenario's
-- file says what the scratch copies make of them, since a trigger can cost a load as much as
-- an index.
function M.not_copied(m, rows)
  local what = {}
  for i, r in ipairs(rows or {}) do what[i] = r[1] end
  m.not_copied = what
  if #what > 0 then
    m.notes[#m.notes + 1] = ("its %s: the scratch copies carry a trigger unless its code writes to other tables "
      .. "(which would write into yours: said when it runs; --no-triggers leaves them all off); a rule is not reproduced")
      :format(table.concat(what, ", "))
  end
end

-- The columns a trigger's code assigns (NEW.col := expr; SET NEW.col = expr, NEW.col2 = ...;
-- a statement NEW.col = expr;): { {col, expr} }, names as written (quotes taken off).
local function assignments(body)
  local out, low, i = {}, body:lower(), 1
  while true do
    local a, b = low:find("new%.", i)
    if not a then break end
    i = b + 1
    local before = a > 1 and low:sub(a - 1, a - 1) or " "
    local name, after
    local q = body:sub(b + 1, b + 1)
    if q == '"' or q == "`" then
      local e = body:find(q, b + 2, true)
      if e then name, after = body:sub(b + 2, e - 1), e + 1 end
    else
      local n = body:match("^[%a_][%w_$]*", b + 1)
      if n then name, after = n, b + 1 + #n end
    end
    local op = name and not before:match("[%w_.]") and body:match("^%s*(:?=)", after)
    if op and body:sub(after):match("^%s*=[=>]") then op = nil end
    if op == "=" then -- an assignment only where a statement starts, or in a SET list
      local lead = low:sub(1, a - 1):match("([%w_;,]*)%s*$")
      if not (lead == "" or lead == ";" or lead == "," or lead == "set" or lead == "begin" or lead == "then"
        or lead == "else" or lead == "loop" or lead:match(";$") or lead:match(",$")) then op = nil end
    end
    if op then
      local from = body:find(op, after, true) + #op
      local expr = body:sub(from):match("^%s*(.-)%s*[;,\n]") or body:sub(from):match("^%s*(.-)%s*$")
      out[#out + 1] = { name, expr:sub(1, 60) }
    end
  end
  return out
end
M.assignments = assignments

-- The columns a BEFORE INSERT row trigger writes (rows: {trigger name, its code}): c.trigger_written
-- names the trigger, c.trigger_expr what it sets, c.trigger_unique when that is a sequence's or a
-- UUID (then every row's differs). The server fills such a column (the scratch copies carry the trigger).
function M.trigger_writes(m, rows)
  local bycol = {}
  for _, c in ipairs(m.columns) do bycol[c.name:lower()] = c end
  for _, r in ipairs(rows or {}) do
    for _, a in ipairs(assignments(r[2] or "")) do
      local c = bycol[a[1]:lower()]
      if c and not c.trigger_written then
        c.trigger_written, c.trigger_expr = "trigger " .. r[1], a[2]
        local e = a[2]:lower()
        c.trigger_unique = e:find("nextval", 1, true) or e:find("uuid", 1, true) or nil
      end
    end
  end
end

-- A view named as a table: its rows are its tables', which are what a scenario loads.
function M.a_view(name)
  core.fail(("%s is a view: new scaffolds tables (load the tables it reads; --table takes a LIKE pattern)"):format(name))
end

M.qualified = scratch.qualified

-- What --table names: a comma list of [schema.]name, each a name (bare, spaces and all, or
-- quoted: scratch.split) or a LIKE pattern (%): { {item = as given, schema = or nil, name =,
-- quoted = the name was, pattern = true when it has a %} }.
function M.names(spec)
  local out = {}
  for item in spec:gmatch("[^,]+") do
    item = item:match("^%s*(.-)%s*$")
    local s, t, quoted = scratch.split(item)
    out[#out + 1] = { item = item, schema = s, name = t, quoted = quoted, pattern = item:find("%%") ~= nil }
  end
  return out
end

-- ---- CHECK constraints ----

-- A CHECK's text with casts, quoted names and parentheses around literals taken away.
local function plain(sql)
  local s = " " .. sql .. " "
  for _, t in ipairs { "character varying", "double precision", "timestamp without time zone",
                       "timestamp with time zone", "time without time zone" } do
    s = s:gsub("::" .. t, "")
  end
  s = s:gsub("::[%w_]+%[%]", ""):gsub("::[%w_]+", "")
  s = s:gsub('"([%w_]+)"', "%1"):gsub("`([%w_]+)`", "%1"):gsub("%[([%w_]+)%]", "%1")
  s = s:gsub("%((%-?[%d%.]+)%)", "%1"):gsub("%(('[^']*')%)", "%1")
  return s
end

local function literal(s)
  s = s:match("^%s*(.-)%s*$")
  local q = s:match("^'(.*)'$")
  if q then return q:gsub("''", "'"), true end
  return tonumber(s) and s or nil, false
end

-- The values of an IN list or ARRAY[...]: quoted literals ('' a quote inside), or numbers.
local function items(list)
  local out, i = {}, 1
  while i <= #list do
    local q = list:find("'", i, true)
    if not q then break end
    local buf, j = {}, q + 1
    while j <= #list do
      local ch = list:sub(j, j)
      if ch == "'" and list:sub(j + 1, j + 1) == "'" then buf[#buf + 1] = "'"; j = j + 2
      elseif ch == "'" then break
      else buf[#buf + 1] = ch; j = j + 1 end
    end
    out[#out + 1] = table.concat(buf)
    i = j + 1
  end
  if #out == 0 then
    for part in list:gmatch("[^,]+") do out[#out + 1] = literal(part) end
  end
  return out
end

M.items = items

-- Sets col.check_in = {values}, col.check_min / check_max = {value, inclusive} for the
-- checks of those forms; the others are listed in m.checks_other.
function M.read_checks(m)
  local bycol = {}
  for _, c in ipairs(m.columns) do bycol[c.name:lower()] = c end
  m.checks_other = {}
  for _, ck in ipairs(m.checks) do
    local s = plain(ck.sql)
    local understood = true
    -- top-level AND parts, BETWEEN's own AND kept
    s = s:gsub("(%s[Bb][Ee][Tt][Ww][Ee][Ee][Nn]%s+[^%s]+%s+)[Aa][Nn][Dd](%s)", "%1&&%2")
    for part in (s .. " AND "):gmatch("(.-)%s[Aa][Nn][Dd]%s") do
      part = part:gsub("&&", "AND"):gsub("^[%s%(]+", ""):gsub("[%s%)]+$", "")
      local col, list = part:match("^([%w_]+)%s*=%s*ANY%s*%(+%s*ARRAY%[(.-)%]")
      if not col then col, list = part:match("^([%w_]+)%s+[Ii][Nn]%s*%((.-)$") end
      local c = col and bycol[col:lower()]
      if c and list then
        c.check_in = items(list)
      else
        local name, lo, hi = part:match("^([%w_]+)%s+[Bb][Ee][Tt][Ww][Ee][Ee][Nn]%s+(.-)%s+AND%s+(.-)$")
        local op, v
        if not name then name, op, v = part:match("^([%w_]+)%s*([<>]=?)%s*(.-)$") end
        if not name then -- 0 <= x
          v, op, name = part:match("^(.-)%s*([<>]=?)%s*([%w_]+)$")
          op = op and ({ ["<"] = ">", ["<="] = ">=", [">"] = "<", [">="] = "<=" })[op]
        end
        c = name and bycol[name:lower()]
        if c and lo and literal(lo) and literal(hi) then
          c.check_min, c.check_max = { (literal(lo)), true }, { (literal(hi)), true }
        elseif c and op and literal(v) then
          local val = literal(v)
          if op:sub(1, 1) == ">" then c.check_min = { val, op == ">=" } else c.check_max = { val, op == "<=" } end
        elseif not part:match("^[%w_]+%s+IS%s+NOT%s+NULL$") then
          understood = false
        end
      end
    end
    if not understood then m.checks_other[#m.checks_other + 1] = ck.sql end
  end
end

-- ---- statistics of a sample ----

local numeric = { int = true, numeric = true, double = true }

-- The table's distinct values from a sample's as pg_stats says them (ANALYZE's estimate, Haas
-- and Stokes' Duj1, for a sample of n of the table's rows rows: n d / (n - f1 + f1 n / N) over
-- the non-NULL values, f1 those seen once): negative a share of the rows (-1 all distinct), when
-- more than a tenth of them, as the count then grows with the table; else the count.
function M.n_distinct(counts, d, nn, n, rows)
  if nn <= 0 then return 0 end
  if d == nn then return -1 end
  local N = math.max(rows or n, n)
  local D = d
  if n < N then
    local f1 = 0
    for _, k in pairs(counts) do if k == 1 then f1 = f1 + 1 end end
    local Nn = N * nn / n
    D = math.min(math.max(nn * d / (nn - f1 + f1 * nn / Nn), d), Nn)
  end
  if D > 0.1 * N then return -D / N end
  return math.floor(D + 0.5)
end

-- Per column of cols (indexes into the sample's rows), stats as pg_stats gives them:
-- null_frac, most common values with their frequencies, equal-depth histogram bounds of
-- the rest, avg_width, n_distinct (negative: a fraction of the rows, -1 all distinct).
function M.sample_stats(m, names, rows, source)
  local n = #rows
  for j, name in ipairs(names) do
    local col
    for _, c in ipairs(m.columns) do if c.name == name then col = c end end
    local counts, vals, width, nulls = {}, {}, 0, 0
    for _, r in ipairs(rows) do
      local v = r[j]
      if v == nil then nulls = nulls + 1
      else
        if not counts[v] then counts[v] = 0; vals[#vals + 1] = v end
        counts[v] = counts[v] + 1
        width = width + #v
      end
    end
    local nn = n - nulls
    local st = { source = source, null_frac = n > 0 and nulls / n or 0, avg_width = nn > 0 and width / nn or 0,
                 n_distinct = M.n_distinct(counts, #vals, nn, n, m.rows), mcv = {}, bounds = {} }
    local num = col and numeric[col.kind]
    local function less(a, b)
      if num then
        local x, y = tonumber(a), tonumber(b)
        if x and y then return x < y end
      end
      return a < b
    end
    table.sort(vals, function(a, b) return counts[a] > counts[b] or (counts[a] == counts[b] and less(a, b)) end)
    local rest = {}
    if #vals <= 100 then
      for _, v in ipairs(vals) do st.mcv[#st.mcv + 1] = { v, counts[v] / n } end
    else -- the 100 commonest values seen more than once, as ANALYZE keeps them; a histogram of the rest
      for _, v in ipairs(vals) do
        local k = counts[v]
        if #st.mcv < 100 and k >= 2 then st.mcv[#st.mcv + 1] = { v, k / n }
        else for _ = 1, k do rest[#rest + 1] = v end end
      end
      table.sort(rest, less)
      if #rest >= 2 then
        local nb = math.min(100, #rest - 1)
        for b = 0, nb do st.bounds[#st.bounds + 1] = rest[1 + math.floor(b * (#rest - 1) / nb + 0.5)] end
      end
    end
    st.rest = #rest / math.max(n, 1)
    m.stats[name] = st
  end
end

return M
