-- Runs busted inside bulkbench's own Lua host, so specs exercise the real native runtime:
--   ./bulkbench lua tests/specs.lua [busted options] tests/spec
require "busted.runner" ({ standalone = false })
