-- bulkbench.dialects: what the Lua library knows of an engine and of the dialects it speaks,
-- found through the engines' descriptors (drivers/driver.h, core.engine(NAME) and db.dialect):
-- a dialect names the module that describes it (bb_dialect.lua: drivers/ENGINE/dialect_NAME.lua,
-- required as bulkbench.drivers.ENGINE.dialect_NAME), an engine its catalog reader and load
-- strategies (catalog_lua, strategies_lua), the dialect of a file's table (file_dialect) and
-- whether it reaches many DBMS (many_servers). Nothing here names an engine, and nothing is
-- found by guessing a name: a dialect whose descriptor names no module gets the SQL standard's
-- spellings, and a module that is named is loaded or the error says why (not in this build,
-- or what it raised). A dialect's module holds (all optional):
--   types         { {pattern on the lower-cased declared type, replacement}, ... } first match wins
--   identity      what follows an auto-increment column's type ("" for none)
--   enum          how enum('a','b') is declared: "native" (as written), or function(table, column,
--                 labels, quote) -> the column's type, the statements before the table (a type
--                 made for it), those after its drop; absent: varchar CHECK (col IN (labels))
--   rowid_key     an auto-increment column is the rowid alias: "INTEGER PRIMARY KEY AUTOINCREMENT"
--   table_options function(t) -> what follows CREATE TABLE's closing bracket
--   file_types    { double, uuid, varchar_max (0: always text), bool(c), timestamp(c) } for `new FILE`
--   as_text       a format turning a quoted column into its text (`new --check` compares texts)
--   random        the expression that orders rows at random (default random())
--   max_ident     the longest identifier, in bytes (nil: no limit that matters)
--   database_sql  the query whose one value names the session's database (a missing table's error)
--   drop          function(quoted name) -> the statement that drops a table when it exists
--                 (default DROP TABLE IF EXISTS)
--   systems       the members of the engine's family that spell DDL their own way (db.system:
--                 greenplum, citus), each { serial, default_by, clause, call } (lua/schema.lua)
--   distributes   a server may be a cluster that spreads a table's rows over nodes: bb.load
--                 takes --distributed_by, and help lists it for this engine
--   scratch       how a scratch copy is made and dropped (lua/scratch.lua): exists_sql (and
--                 exists_args: "name", "schema, name", else the quoted name, its parameter %s), drop_suffix,
--                 around_drops(db, on), like(db, name, quoted original, how) -> whether its
--                 foreign keys came with it, as_text(db, name, column), mirror(db, name, cols,
--                 select), tables_sql (the tables a name may be near), list_sql (the scratch tables here), triggers(db, quoted original,
--                 original, copy, leave out, split) -> how many the original has, and the
--                 names of those left off because they write elsewhere
local core = require "bulkbench.core"
local M = {}

local FILE_TYPES = { double = "double", uuid = "char(36)", varchar_max = 10485760 }

local cache = {}

-- The module a descriptor names, loaded through req (the caller's own require, which says
-- what it reaches: tests/rooms.py follows a require built from a name to the modules of the
-- descriptors' fields it names). Not found (a build without it: the descriptor and the tree
-- disagree) and raised (its own error, with its file:line) are two errors, both loud.
function M.load(module, whose, req)
  if cache[module] ~= nil then return cache[module] end
  if not package.preload[module] and not package.loaded[module] then
    error(("%s names the Lua module %s, which is not in this build (drivers/*/*.lua are embedded by make)")
      :format(whose, module), 0)
  end
  local m = req(module)
  if type(m) ~= "table" then error(("the Lua module %s (%s) returned %s, not a table"):format(module, whose, type(m)), 0) end
  cache[module] = m
  return m
end

local function require_dialect(module) return require(module) end -- reaches: dialect dialects

-- The descriptor of a dialect (db.dialect, or a dialect's name); {} for one that names no module.
function M.of(d)
  if d == nil then return {} end
  if type(d) == "string" then d = core.dialect(d) end
  local module = d.lua
  if module == nil then return {} end
  return M.load(module, "dialect " .. tostring(d.name), require_dialect)
end

-- An engine's descriptor (core.engine), {} for a name this build has no engine of.
function M.engine(name) return core.engine(tostring(name)) or {} end

-- The descriptor of an engine's own dialect (its default one); {} for none.
function M.of_engine(name)
  local d = M.engine(name).dialect
  return d and d.lua and M.load(d.lua, "engine " .. tostring(name), require_dialect) or {}
end

-- A file-type field of a dialect's descriptor, or the standard's.
function M.file_type(d, field) return (M.of(d).file_types or {})[field] or FILE_TYPES[field] end

-- The engines whose catalogs `new` reads, in words ("a, b and c"), for an error message.
function M.with_catalogs(engines)
  local out = {}
  for _, e in ipairs(engines) do
    if M.engine(e).catalog_lua then out[#out + 1] = e end
  end
  if #out < 2 then return table.concat(out) end
  return table.concat(out, ", ", 1, #out - 1) .. " and " .. out[#out]
end

return M
