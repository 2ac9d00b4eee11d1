-- bulkbench.scratch_sql: under `bulkbench advise` a script's tables are scratch copies (bb.table
-- gives t.name the suffix core.scratch() hands out), but SQL the script writes itself may still
-- say the names it declared ("insert into parent select ..."). Run as written, it would reach the
-- user's own table. So every statement a session runs under advise has each declared name, where
-- it stands as a name (not inside a string literal, not part of a longer name), replaced by the
-- scratch copy's: the script's prepare(), check() and own statements work on the copies as they
-- would on the tables in a plain run.
local M = {}

-- sql with the declared names of tables (declared name -> table with .name, .scratch) replaced.
-- Bare names match in any case (SQL folds them); a quoted one ("x", `x`) only as written.
function M.rewrite(sql, tables)
  local by_lower = {}
  for declared, t in pairs(tables) do
    if t.scratch then by_lower[declared:lower()] = t end
  end
  if next(by_lower) == nil then return sql end
  local out, i, n = {}, 1, #sql
  while i <= n do
    local c = sql:sub(i, i)
    if c == "'" then -- a string literal, '' inside it: copied as it is
      local j = i + 1
      while j <= n do
        if sql:sub(j, j) == "'" then
          if sql:sub(j + 1, j + 1) == "'" then j = j + 2 else break end
        else j = j + 1 end
      end
      out[#out + 1] = sql:sub(i, j)
      i = j + 1
    elseif c == '"' or c == "`" then -- a quoted name
      local j = sql:find(c, i + 1, true) or n
      local name = sql:sub(i + 1, j - 1)
      local t = tables[name]
      out[#out + 1] = t and t.scratch and (c .. t.name .. c) or sql:sub(i, j)
      i = j + 1
    elseif c:match("[%a_]") then -- a bare word: a name, a keyword or a column
      local j = i
      while j + 1 <= n and sql:sub(j + 1, j + 1):match("[%w_$]") do j = j + 1 end
      local word = sql:sub(i, j)
      local t = by_lower[word:lower()]
      out[#out + 1] = t and t.name or word
      i = j + 1
    else
      local j = i
      while j + 1 <= n and not sql:sub(j + 1, j + 1):match("[%a_'\"`]") do j = j + 1 end
      out[#out + 1] = sql:sub(i, j)
      i = j + 1
    end
  end
  return table.concat(out)
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
      if type(sql) == "string" then sql = M.rewrite(sql, tables) end
      return f(db, sql, ...)
    end
  end
end

return M
