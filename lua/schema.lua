-- bulkbench.schema: a table description into each dialect's DDL.
-- Type spelling differs per dialect; each dialect's descriptor in its engine's folder
-- (lua/dialects.lua) is the only place that knows it. A dialect is the object db.dialect
-- gives (or a name: core.dialect(name) makes one); its quoting is the runtime's own, so DDL
-- and statements spell names the same way.
local core = require "bulkbench.core"
local dialects = require "bulkbench.dialects"
local M = {}

local function as_dialect(d)
  return type(d) == "string" and core.dialect(d) or d
end

-- A member of an engine's family that spells DDL its own way (db.system: greenplum, citus) is
-- described by its dialect's module (`systems`, lua/dialects.lua), in its engine's folder.
local function system_of(dialect, system)
  return system and (dialects.of(dialect).systems or {})[system] or nil
end

function M.quote(ident, dialect) return as_dialect(dialect):quote(ident) end

function M.map_type(sqltype, dialect)
  local t = sqltype:lower()
  for _, rule in ipairs(dialects.of(as_dialect(dialect)).types or {}) do
    local out, n = t:gsub(rule[1], rule[2])
    if n > 0 then return out end
  end
  return sqltype
end

-- The labels of an enum('a','b',...) type: the list as written between its brackets, and
-- the longest label's length; nil for any other type.
local function enum_labels(sqltype)
  local inner = sqltype:match("^%s*[eE][nN][uU][mM]%s*%((.*)%)%s*$")
  if not inner then return nil end
  local longest, i = 0, 1
  while true do
    local open = inner:find("'", i, true)
    if not open then break end
    local j, len = open + 1, 0
    while j <= #inner do
      if inner:sub(j, j) == "'" then
        if inner:sub(j + 1, j + 1) ~= "'" then break end
        j = j + 1
      end
      len, j = len + 1, j + 1
    end
    longest, i = math.max(longest, len), j + 1
  end
  return inner, longest
end
M.enum_labels = enum_labels

-- How column c of t is declared where its type is an enum: the dialect's own enum (a type of
-- its own, made before the table and dropped after it), else text that takes only the labels.
-- Returns the column's type, a CHECK or nil, and the statements before the table.
local function enum_column(t, c, desc, dialect, q)
  local labels, longest = enum_labels(c.type)
  if desc.enum == "native" then return c.type, nil, {} end
  if desc.enum then
    local ty, before = desc.enum(t.name, c.name, labels, q)
    return ty, nil, before
  end
  return M.map_type(("varchar(%d)"):format(math.max(longest, 1)), dialect), ("CHECK (%s IN (%s))"):format(q(c.name), labels), {}
end

-- The statements that drop what t's columns made besides the table (pg's enum types), after it.
function M.drop_types(t, dialect)
  dialect = as_dialect(dialect)
  local desc, out = dialects.of(dialect), {}
  if type(desc.enum) ~= "function" then return out end
  for _, c in ipairs(t.columns or {}) do
    if type(c.type) == "string" and enum_labels(c.type) then
      local _, _, after = desc.enum(t.name, c.name, enum_labels(c.type), function(s) return dialect:quote(s) end)
      for _, sql in ipairs(after or {}) do out[#out + 1] = sql end
    end
  end
  return out
end

local function as_list(v)
  if v == nil then return {} end
  if type(v) == "table" then return v end
  return { v }
end

-- How t is distributed on system: "column", names | "reference" | "none" | nil (not a
-- system that distributes). "first" is the first column, or the primary key's columns
-- (Greenplum wants a unique key to hold the distribution key).
local function distribution(t, dialect, system)
  local sys = system_of(dialect, system)
  if not (sys and (sys.clause or sys.call)) then return nil end
  local by = t.distributed_by
  if by == nil or by == "" then by = sys.default_by or "none" end
  if by == "first" then
    local pk = as_list(t.primary_key)
    return "column", #pk > 0 and pk or { t.columns[1].name }
  end
  if by == "reference" or by == "none" then return by end
  for _, c in ipairs(t.columns) do
    if c.name == by then return "column", { by } end
  end
  local names = {}
  for i, c in ipairs(t.columns) do names[i] = c.name end
  error(("table %s: distributed_by '%s' is not one of its columns (%s) nor reference or none")
    :format(t.name, by, table.concat(names, ", ")), 0)
end

-- The statements that distribute t after its CREATE TABLE on system (Citus), or none.
function M.distribute(t, dialect, system)
  dialect = as_dialect(dialect)
  local kind, col = distribution(t, dialect, system)
  local call = kind and system_of(dialect, system).call
  if not (call and call[kind]) then return {} end
  local lit = function(s) return "'" .. s:gsub("'", "''") .. "'" end
  return { call[kind]:format(lit(dialect:quote(t.name)), col and lit(col[1]) or nil) }
end

-- Returns the statements that create t (table, then secondary indexes); system is the pg
-- family member the server is (db.system), nil for a stock server.
function M.ddl(t, dialect, system)
  dialect = as_dialect(dialect)
  local sys = system_of(dialect, system) or {}
  local q = function(s) return dialect:quote(s) end
  local desc = dialects.of(dialect)
  local pk = as_list(t.primary_key)
  local defs, before = {}, {}
  for _, c in ipairs(t.columns) do
    local def
    if enum_labels(c.type) and not c.auto_increment then
      local ty, check, pre = enum_column(t, c, desc, dialect, q)
      for _, sql in ipairs(pre) do before[#before + 1] = sql end
      def = q(c.name) .. " " .. ty .. (c.not_null and " NOT NULL" or "") .. (c.default and (" DEFAULT " .. c.default) or "")
        .. (check and (" " .. check) or "")
    elseif c.auto_increment and desc.rowid_key then
      def = q(c.name) .. " INTEGER PRIMARY KEY AUTOINCREMENT"
      pk = {}
    elseif c.auto_increment and sys.serial then
      local ty = c.type:lower()
      local serial = sys.serial.default
      for pat, spelled in pairs(sys.serial) do
        if pat ~= "default" and ty:find(pat) then serial = spelled end
      end
      def = q(c.name) .. " " .. serial
    elseif c.auto_increment then
      def = q(c.name) .. " " .. M.map_type(c.type, dialect) .. (desc.identity or " NOT NULL AUTO_INCREMENT")
    else
      def = q(c.name) .. " " .. M.map_type(c.type, dialect) .. (c.not_null and " NOT NULL" or "")
        .. (c.default and (" DEFAULT " .. c.default) or "")
    end
    defs[#defs + 1] = def
  end
  local function key(kind, cols)
    local out = {}
    for i, c in ipairs(cols) do out[i] = q(c) end
    defs[#defs + 1] = kind .. " (" .. table.concat(out, ", ") .. ")"
  end
  if #pk > 0 then key("PRIMARY KEY", pk) end
  for _, u in ipairs(t.unique or {}) do key("UNIQUE", u) end -- a scaffolded table's constraints
  for _, ck in ipairs(t.checks or {}) do defs[#defs + 1] = "CHECK (" .. ck .. ")" end
  local sql = "CREATE TABLE " .. q(t.name) .. " (\n  " .. table.concat(defs, ",\n  ") .. "\n)"
  if desc.table_options then sql = sql .. desc.table_options(t) end
  local kind, col = distribution(t, dialect, system)
  if kind and sys.clause then
    local cols = {}
    for i, c in ipairs(col or {}) do cols[i] = q(c) end
    sql = sql .. " " .. sys.clause[kind]:format(table.concat(cols, ", "))
  end
  local out = before
  out[#out + 1] = sql
  for i, idx in ipairs(t.indexes or {}) do
    local cols = {}
    for j, c in ipairs(idx) do cols[j] = q(c) end
    -- a named index follows its table into scratch: pg's index names share one namespace
    local name = idx.name and (idx.name .. (t.scratch or "")) or (t.name .. "_" .. table.concat(idx, "_") .. "_idx")
    out[#out + 1] = ("CREATE %sINDEX %s ON %s (%s)"):format(idx.unique and "UNIQUE " or "", q(name), q(t.name),
      table.concat(cols, ", "))
    _ = i
  end
  return out
end

-- The statement that drops table `name` when it exists: the dialect's own (`drop`: Oracle
-- before 23 has no IF EXISTS), else DROP TABLE IF EXISTS.
function M.drop(name, dialect)
  dialect = as_dialect(dialect)
  local own = dialects.of(dialect).drop
  if own then return own(dialect:quote(name)) end
  return "DROP TABLE IF EXISTS " .. dialect:quote(name)
end

return M
