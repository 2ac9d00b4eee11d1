-- bulkbench.engines: an engine's own Lua modules besides its dialect's, named by its descriptor
-- (core.engine(NAME): catalog_lua, the catalog reader `new` uses; strategies_lua, its load
-- strategies), loaded as loudly as lua/dialects.lua loads a dialect's. Apart from dialects so
-- that what each may reach stays apart: a catalog reader uses the scratch tables, which use the
-- dialects (tests/rooms.py follows both).
local dialects = require "bulkbench.dialects"
local M = {}

local function require_engine(module) return require(module) end -- reaches: catalog_lua strategies_lua

-- The engine's module its descriptor's field names ("catalog_lua", "strategies_lua"), loaded;
-- nil when the engine has none.
function M.module(name, field)
  local module = dialects.engine(name)[field]
  return module and dialects.load(module, "engine " .. tostring(name), require_engine) or nil
end

return M
