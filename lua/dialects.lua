-- bulkbench.dialects: what the Lua library knows of an engine and of the dialects it speaks,
-- from the descriptor each engine's folder holds (drivers/ENGINE/dialect_NAME.lua, required as
-- bulkbench.drivers.ENGINE.dialect_NAME): type spellings, how an identity column and a table's options are
-- written, the file types `new` gives an inferred column, the catalog reader `new` uses, and
-- the SQL a scratch copy needs. Nothing here names an engine: a name the runtime gives (an
-- engine's, or a connection's db.dialect.name) finds its descriptor, and one that has none
-- gets the SQL standard's spellings (the fields below, all optional).
--   types         { {pattern on the lower-cased declared type, replacement}, ... } first match wins
--   identity      what follows an auto-increment column's type ("" for none)
--   enum          how enum('a','b') is declared: "native" (as written), or function(table, column,
--                 labels, quote) -> the column's type, the statements before the table (a type
--                 made for it), those after its drop; absent: varchar CHECK (col IN (labels))
--   rowid_key     an auto-increment column is the rowid alias: "INTEGER PRIMARY KEY AUTOINCREMENT"
--   table_options function(t) -> what follows CREATE TABLE's closing bracket
--   file_types    { double, uuid, varchar_max (0: always text), bool(c), timestamp(c) } for `new FILE`
--   file_dialect  the dialect a file's table is written in when the engine has several (ODBC)
--   catalog       the module that reads the engine's catalog for `new`
--   many_servers  one engine, many DBMS: results are told apart by the server they reached
--   as_text       a format turning a quoted column into its text (`new --check` compares texts)
--   random        the expression that orders rows at random (default random())
--   max_ident     the longest identifier, in bytes (nil: no limit that matters)
--   database_sql  the query whose one value names the session's database (a missing table's error)
--   distributes   a server may be a cluster that spreads a table's rows over nodes: bb.load
--                 takes --distributed_by, and help lists it for this engine
--   scratch       how a scratch copy is made and dropped (lua/scratch.lua): exists_sql (and
--                 exists_args: "name", "schema, name", else the quoted name, its parameter %s), drop_suffix,
--                 around_drops(db, on), like(db, name, quoted original, how) -> whether its
--                 foreign keys came with it, as_text(db, name, column), mirror(db, name, cols,
--                 select), tables_sql (the tables a name may be near), list_sql (the scratch tables here), triggers(db, quoted original,
--                 original, copy, leave out, split) -> how many the original has, and the
--                 names of those left off because they write elsewhere
local M = {}

local FILE_TYPES = { double = "double", uuid = "char(36)", varchar_max = 10485760 }

local cache = {}

-- Whether a trigger's code writes to a table (its own row aside): a copy must not carry it,
-- or advise would write into the user's tables (an audit log). Conservative: any statement
-- that can write, or a call that might.
function M.writes_elsewhere(code)
  local c = " " .. tostring(code or ""):lower():gsub("%s+", " ") .. " "
  for _, w in ipairs { "insert ", "update ", "delete ", "truncate ", "copy ", "merge ", "execute ", "perform ",
                       "call ", "replace ", "pg_notify", "dblink", "load " } do
    if c:find("[^%w_]" .. w:gsub("%s", "%%s")) then return true end
  end
  return false
end

-- The embedded module NAME of whichever engine's folder holds it (drivers/ENGINE/NAME.lua is
-- bulkbench.drivers.ENGINE.NAME), or "bulkbench.drivers.?.NAME" when none does.
function M.engine_module(name)
  for m in pairs(package.preload) do
    if m:match("^bulkbench%.drivers%.[%w_]+%.(.*)$") == name then return m end
  end
  return "bulkbench.drivers.?." .. name
end

-- The descriptor of a dialect or engine (a name, or a dialect object with .name); {} for none.
function M.of(d)
  local name = type(d) == "string" and d or (d and d.name)
  if name == nil then return {} end
  if cache[name] == nil then
    local ok, desc = pcall(require, M.engine_module("dialect_" .. name))
    cache[name] = ok and type(desc) == "table" and desc or false
  end
  return cache[name] or {}
end

-- A file-type field of a dialect's descriptor, or the standard's.
function M.file_type(d, field) return (M.of(d).file_types or {})[field] or FILE_TYPES[field] end

-- The engines whose catalogs `new` reads, in words ("a, b and c"), for an error message.
function M.with_catalogs(engines)
  local out = {}
  for _, e in ipairs(engines) do
    if M.of(e).catalog then out[#out + 1] = e end
  end
  if #out < 2 then return table.concat(out) end
  return table.concat(out, ", ", 1, #out - 1) .. " and " .. out[#out]
end

return M
