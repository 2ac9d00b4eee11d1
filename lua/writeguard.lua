-- bulkbench.writeguard: under `bulkbench advise` a script's tables are scratch copies (bb.table
-- gives t.name the suffix core.scratch() hands out), but SQL the script writes itself still says
-- the names it declared. A statement that writes (insert, drop, alter, ...) and names a declared
-- table as written would reach the user's own table, so it is refused before it runs, with the
-- name to use instead. Conservative: a write that only reads such a table is refused too.
local M = {}

local WRITES = { insert = 1, update = 1, delete = 1, truncate = 1, drop = 1, alter = 1, create = 1, copy = 1,
                 replace = 1, load = 1, merge = 1, rename = 1, grant = 1, revoke = 1, comment = 1 }

-- The declared name a statement would write to, or nil. tables: declared name -> table.
function M.target(sql, tables)
  for stmt in (sql .. ";"):gmatch("([^;]*);") do
    local first = stmt:match("^%s*(%a+)")
    if first and WRITES[first:lower()] then
      local low = stmt:lower()
      for declared, t in pairs(tables) do
        if t.scratch and low:find("%f[%w_$]" .. declared:lower():gsub("%p", "%%%0") .. "%f[^%w_$]") then return t end
      end
    end
  end
  return nil
end

local installed = false

-- Wraps the database methods that take SQL (every session's: the methods table is shared).
function M.install(tables)
  if installed then return end
  installed = true
  local mt = debug.getregistry()["bulkbench.db"]
  local methods = mt and mt.methods
  if not methods then return end
  for _, name in ipairs { "exec", "query", "prepare" } do
    local f = methods[name]
    methods[name] = function(db, sql, ...)
      local t = type(sql) == "string" and M.target(sql, tables)
      if t then
        error(("advise races scratch copies of the script's tables, and this statement writes naming %s as "
          .. "declared, which is your own table: use the table object's .name (here %s) in the SQL, so the "
          .. "copies get the rows and yours is left alone"):format(t.declared, t.name), 2)
      end
      return f(db, sql, ...)
    end
  end
end

return M
