-- bulkbench.drivers.sqlite.catalog_sqlite: what SQLite says of a table (PRAGMA table_xinfo, index_list,
-- foreign_key_list, and the CHECKs in its CREATE text), as the model lua/new/new.lua scaffolds
-- from (catalog_util.lua describes it). SQLite keeps no per-column statistics a generator
-- can use, so the values' laws come from a sample of the rows.
local util = require "bulkbench.new.catalog_util"
local M = {}

function M.resolve(db, spec)
  local out = {}
  for _, n in ipairs(util.names(spec)) do
    local rows = util.q(db, "table " .. n.item, ("SELECT name FROM sqlite_master WHERE type = 'table' AND name %s ? "
      .. "AND name NOT LIKE 'sqlite%%' ORDER BY name"):format(n.pattern and "LIKE" or "="), n.name)
    if not n.pattern and not rows[1] then util.no_table(db, n.item) end
    for _, r in ipairs(rows) do out[#out + 1] = { name = r[1] } end
  end
  return out
end

-- A declared type by SQLite's affinity rules, and bulkbench's kind for it.
local function kind_of(decl)
  local t = decl:lower()
  if t:find("int") then return "int" end
  if t:find("bool") then return "bool" end
  if t:find("uuid") then return "uuid" end
  if t:find("char") or t:find("clob") or t:find("text") then return "text" end
  if t:find("blob") or t == "" then return t == "" and "text" or "bytes" end
  if t:find("real") or t:find("floa") or t:find("doub") then return "double" end
  if t:find("timestamp") or t:find("datetime") then return "timestamp" end
  if t:find("date") then return "date" end
  if t:find("dec") or t:find("numeric") then return "numeric" end
  return "other"
end

-- The CHECK (...) clauses of a CREATE TABLE text, parentheses balanced.
local function checks_of(sql)
  local out, i = {}, 1
  while true do
    local s, e = sql:find("[Cc][Hh][Ee][Cc][Kk]%s*%(", i)
    if not s then break end
    local depth, j = 1, e + 1
    while j <= #sql and depth > 0 do
      local ch = sql:sub(j, j)
      if ch == "(" then depth = depth + 1 elseif ch == ")" then depth = depth - 1 end
      j = j + 1
    end
    out[#out + 1] = sql:sub(e, j - 1)
    i = j
  end
  return out
end

function M.read(db, tab)
  local m = util.model("sqlite", tab.name, tab.name)
  local q = db:quote(tab.name)
  local v = util.q(db, "the SQLite version", "SELECT sqlite_version()")
  m.server = "SQLite " .. (v[1] and v[1][1] or "?")
  local n = util.q(db, "the rows of " .. tab.name, "SELECT count(*) FROM " .. q)
  m.rows = tonumber(n[1][1])
  local cols = util.q(db, "the columns of " .. tab.name, "PRAGMA table_xinfo(" .. q .. ")")
  local pk = {}
  for _, r in ipairs(cols) do -- cid, name, type, notnull, dflt_value, pk, hidden
    local c = { name = r[2], type = r[3] ~= "" and r[3] or "text", declared = r[3], not_null = r[4] == "1",
                kind = kind_of(r[3] or "") }
    if r[5] and r[5] ~= "NULL" then c.default = r[5] end
    c.generated = r[7] == "2" or r[7] == "3"
    if c.kind == "text" then c.length = tonumber((r[3] or ""):match("%((%d+)%)")) end
    if c.kind == "numeric" then
      local p, s = (r[3] or ""):match("%((%d+)%s*,%s*(%d+)%)")
      c.precision, c.scale = tonumber(p), tonumber(s) or 0
    end
    if tonumber(r[6]) > 0 then pk[tonumber(r[6])] = c end
    if r[7] ~= "1" then m.columns[#m.columns + 1] = c end
  end
  for i, c in ipairs(pk) do m.pk[i] = c.name end
  -- INTEGER PRIMARY KEY is the rowid: SQLite numbers it when it is not given
  if #pk == 1 and (pk[1].declared or ""):upper() == "INTEGER" then pk[1].identity = true end
  for _, r in ipairs(util.q(db, "the indexes of " .. tab.name, "PRAGMA index_list(" .. q .. ")")) do -- seq, name, unique, origin, partial
    if r[3] == "1" and r[4] ~= "pk" and r[5] ~= "1" then
      local key = {}
      for _, ic in ipairs(util.q(db, "index " .. r[2], "PRAGMA index_info(" .. db:quote(r[2]) .. ")")) do
        if not ic[3] then key = nil; break end -- an expression
        key[#key + 1] = ic[3]
      end
      if key then m.uniques[#m.uniques + 1] = key end
    end
  end
  local fks = {}
  for _, r in ipairs(util.q(db, "the foreign keys of " .. tab.name, "PRAGMA foreign_key_list(" .. q .. ")")) do -- id, seq, table, from, to
    local fk = fks[r[1]]
    if not fk then
      fk = { name = "fk" .. r[1], columns = {}, references = r[3], ref_columns = {} }
      fks[r[1]] = fk
      m.fks[#m.fks + 1] = fk
    end
    fk.columns[#fk.columns + 1] = r[4]
    fk.ref_columns[#fk.ref_columns + 1] = r[5]
  end
  for _, fk in ipairs(m.fks) do -- REFERENCES parent without columns: the parent's primary key
    if #fk.ref_columns == 0 or fk.ref_columns[1] == nil then
      local cols_ = util.q(db, "the key of " .. fk.references, "PRAGMA table_info(" .. db:quote(fk.references) .. ")")
      fk.ref_columns = {}
      for _, r in ipairs(cols_) do if tonumber(r[6]) > 0 then fk.ref_columns[tonumber(r[6])] = r[2] end end
    end
  end
  local sql = util.q(db, "the CREATE statement of " .. tab.name, "SELECT sql FROM sqlite_master WHERE name = ?", tab.name)
  for i, ck in ipairs(checks_of(sql[1] and sql[1][1] or "")) do m.checks[i] = { name = "check" .. i, sql = ck } end
  util.not_copied(m, db:query("SELECT 'trigger ' || name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY 1",
    tab.name))
  return m
end

-- A sample of n rows: every k-th by chance when the table is much larger than n.
function M.sample_sql(db, m, cols, n)
  local list = {}
  for i, c in ipairs(cols) do list[i] = db:quote(c) end
  local where = ""
  if m.rows and m.rows > 10 * n then where = (" WHERE abs(random()) %% %d = 0"):format(math.floor(m.rows / n / 1.5)) end
  return ("SELECT %s FROM %s%s LIMIT %d"):format(table.concat(list, ", "), db:quote(m.name), where, n)
end

-- exprs (SQL) of a random sample of about n rows, those where `where` holds
-- (lua/new/observed.lua): the whole table when it holds no more, else a random share of it.
function M.values_sql(db, m, exprs, n, where)
  local w = { where }
  if m.rows and m.rows > n then w[#w + 1] = ("abs(random() %% 1000000) < %d"):format(math.ceil(1e6 * n / m.rows)) end
  return ("SELECT %s FROM %s%s LIMIT %d"):format(table.concat(exprs, ", "), db:quote(m.name),
    #w > 0 and (" WHERE " .. table.concat(w, " AND ")) or "", n)
end

-- A value's length in characters and in bytes, and its first 64 characters, as SQL.
function M.length_exprs(db, col, kind)
  local q = db:quote(col)
  local bytes = ("length(CAST(%s AS BLOB))"):format(q)
  if kind == "bytes" then return bytes, bytes, nil end
  return ("length(%s)"):format(q), bytes, ("substr(%s, 1, 64)"):format(q)
end

return M
