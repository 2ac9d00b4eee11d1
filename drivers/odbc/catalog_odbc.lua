-- bulkbench.drivers.odbc.catalog_odbc: a table as the ODBC driver's catalog functions describe it
-- (SQLTables, SQLColumns, SQLPrimaryKeys, SQLForeignKeys, SQLStatistics through db:catalog),
-- as the model lua/new/new.lua scaffolds from (catalog_util.lua describes it). ODBC has no
-- statistics and no CHECKs to offer: the values' laws come from a sample of the rows,
-- read in the SQL of the DBMS behind the driver.
local util = require "bulkbench.new.catalog_util"
local M = {}

local function catalog(db, what, schema, table)
  local ok, rows, names = pcall(db.catalog, db, what, schema, table)
  if not ok then
    require("bulkbench.core").fail(("reading %s of %s through the ODBC catalog failed: %s"):format(what, table,
      tostring(rows):gsub("^.-:%d+: ", "")))
  end
  if not rows then require("bulkbench.core").fail("this engine has no ODBC catalog") end
  local byname = {}
  for i, n in ipairs(names) do byname[n:upper()] = i end
  local out = {} -- each row as a table by column name
  for _, r in ipairs(rows) do
    local t = {}
    for n, i in pairs(byname) do t[n] = r[i] end
    out[#out + 1] = t
  end
  return out
end

function M.resolve(db, spec)
  local out = {}
  for _, n in ipairs(util.names(spec)) do
    local found = 0
    for _, r in ipairs(catalog(db, "tables", n.schema, n.name)) do
      if n.pattern or r.TABLE_NAME == n.name then
        out[#out + 1] = { schema = r.TABLE_SCHEM, name = r.TABLE_NAME }
        found = found + 1
      end
    end
    if found == 0 and not n.pattern then util.no_table(db, n.item) end
  end
  return out
end

-- ODBC's SQL type codes, by what bulkbench makes of them
local kinds = {
  [5] = "int", [4] = "int", [-5] = "int", [-6] = "int", [3] = "numeric", [2] = "numeric", [7] = "double",
  [6] = "double", [8] = "double", [-7] = "bool", [16] = "bool", [1] = "text", [12] = "text", [-1] = "text",
  [-8] = "text", [-9] = "text", [-10] = "text", [91] = "date", [93] = "timestamp", [9] = "date", [11] = "timestamp",
  [-11] = "uuid", [-2] = "bytes", [-3] = "bytes", [-4] = "bytes",
}

-- type names that say more than their codes (drivers report booleans and enums as text,
-- UUIDs as binary), and the text types whose length is part of their name
local by_name = { bool = "bool", boolean = "bool", uuid = "uuid", uniqueidentifier = "uuid", json = "other",
                  jsonb = "other", enum = "text", set = "text" }
local sized = { char = true, varchar = true, nchar = true, nvarchar = true, bpchar = true, varchar2 = true,
                nvarchar2 = true, ["character varying"] = true, character = true }

function M.read(db, tab)
  local qname = tab.schema and (tab.schema .. "." .. tab.name) or tab.name
  local m = util.model("odbc", qname, tab.name)
  m.server = "ODBC (" .. db.dialect.name .. ")"
  local n = util.q(db, "the rows of " .. qname, "SELECT count(*) FROM " .. util.qualified(db, qname))
  m.rows = tonumber(n[1][1])
  local cols = catalog(db, "columns", tab.schema, tab.name)
  table.sort(cols, function(a, b) return tonumber(a.ORDINAL_POSITION) < tonumber(b.ORDINAL_POSITION) end)
  for _, r in ipairs(cols) do
    local code, tname = tonumber(r.DATA_TYPE), r.TYPE_NAME or "text"
    local c = { name = r.COLUMN_NAME, kind = by_name[tname:lower()] or kinds[code] or "other", not_null = r.NULLABLE == "0" }
    local size, digits = tonumber(r.COLUMN_SIZE), tonumber(r.DECIMAL_DIGITS)
    c.type = tname:lower()
    if c.kind == "text" and sized[c.type] and size and size > 0 and size < 100000 then
      c.length = size
      c.type = ("%s(%d)"):format(c.type, size)
    elseif c.kind == "numeric" and size then
      c.precision, c.scale = size, digits or 0
      c.type = ("%s(%d,%d)"):format(c.type, size, digits or 0)
    end
    c.declared = c.type
    local def = r.COLUMN_DEF
    if def and def ~= "NULL" and def ~= "" then c.default = def end
    c.identity = r.AUTO_INCREMENT == "1" or (def and (def:find("nextval%(") or def:lower():find("identity"))) ~= nil
    if c.identity then c.default = nil end
    m.columns[#m.columns + 1] = c
  end
  local pk = catalog(db, "primary_keys", tab.schema, tab.name)
  table.sort(pk, function(a, b) return tonumber(a.KEY_SEQ) < tonumber(b.KEY_SEQ) end)
  for i, r in ipairs(pk) do m.pk[i] = r.COLUMN_NAME end
  local uniq, order = {}, {}
  for _, r in ipairs(catalog(db, "unique", tab.schema, tab.name)) do
    if r.INDEX_NAME and r.NON_UNIQUE == "0" and r.TYPE ~= "0" then
      if not uniq[r.INDEX_NAME] then uniq[r.INDEX_NAME] = {}; order[#order + 1] = r.INDEX_NAME end
      uniq[r.INDEX_NAME][tonumber(r.ORDINAL_POSITION)] = r.COLUMN_NAME
    end
  end
  local pkset = table.concat(m.pk, ",")
  for _, name in ipairs(order) do
    if table.concat(uniq[name], ",") ~= pkset then m.uniques[#m.uniques + 1] = uniq[name] end
  end
  local fks, forder = {}, {}
  for _, r in ipairs(catalog(db, "foreign_keys", tab.schema, tab.name)) do
    local key = r.FK_NAME or (r.PKTABLE_NAME .. "?")
    if not fks[key] then
      fks[key] = { name = key, columns = {}, ref_columns = {},
                   references = (r.PKTABLE_SCHEM and r.PKTABLE_SCHEM ~= tab.schema) and (r.PKTABLE_SCHEM .. "." .. r.PKTABLE_NAME)
                     or r.PKTABLE_NAME }
      forder[#forder + 1] = key
    end
    local seq = tonumber(r.KEY_SEQ)
    fks[key].columns[seq] = r.FKCOLUMN_NAME
    fks[key].ref_columns[seq] = r.PKCOLUMN_NAME
  end
  for _, k in ipairs(forder) do m.fks[#m.fks + 1] = fks[k] end
  m.notes[#m.notes + 1] = "read through the ODBC catalog: no statistics and no CHECKs; the values' laws come from a sample"
  return m
end

-- A sample of n rows in the SQL of the DBMS behind the driver.
function M.sample_sql(db, m, cols, n)
  local list = {}
  for i, c in ipairs(cols) do list[i] = db:quote(c) end
  local d, from = db.dialect.name, util.qualified(db, m.qname)
  if d == "mssql" then return ("SELECT TOP %d %s FROM %s"):format(n, table.concat(list, ", "), from) end
  if d == "oracle" or d == "ansi" then
    return ("SELECT %s FROM %s FETCH FIRST %d ROWS ONLY"):format(table.concat(list, ", "), from, n)
  end
  return ("SELECT %s FROM %s LIMIT %d"):format(table.concat(list, ", "), from, n)
end

-- exprs (SQL) of the first n rows where `where` holds, in the SQL of the DBMS behind the driver
-- (lua/new/observed.lua; no random order: the DBMSs spell it in too many ways).
function M.values_sql(db, m, exprs, n, where)
  local d, from = db.dialect.name, util.qualified(db, m.qname) .. (where and (" WHERE " .. where) or "")
  local list = table.concat(exprs, ", ")
  if d == "mssql" then return ("SELECT TOP %d %s FROM %s"):format(n, list, from) end
  if d == "oracle" or d == "ansi" then return ("SELECT %s FROM %s FETCH FIRST %d ROWS ONLY"):format(list, from, n) end
  return ("SELECT %s FROM %s LIMIT %d"):format(list, from, n)
end

return M
