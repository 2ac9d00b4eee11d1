-- bulkbench.triggers: what the engines' scratch copies ask of a trigger's code (their
-- dialect modules' scratch.triggers): whether it writes elsewhere.
local M = {}

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

return M
