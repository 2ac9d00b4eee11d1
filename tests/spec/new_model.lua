-- A table's model as `bulkbench new`'s catalog readers fill it (lua/new/catalog_util.lua), for
-- the specs of new's parts that need no server: columns, CHECKs' SQL, the rows it holds.
local util = require "bulkbench.new.catalog_util"

return function(cols, checks, rows)
  local m = util.model("pg", "public.t", "t")
  for i, c in ipairs(cols) do m.columns[i] = c end
  for i, sql in ipairs(checks or {}) do m.checks[i] = { name = "c" .. i, sql = sql } end
  m.rows = rows
  return m
end
