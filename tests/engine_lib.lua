-- Shared by the engine specs: run a method through the real CLI (on tests/fixtures/alltypes.lua
-- unless another script is named), then compare the table with what the generator makes
-- for the same seed.
local TMP = os.getenv("BB_TEST_TMP") or "/tmp" -- scratch files: one directory per test lane
local bb = require "bulkbench"
local M = {}

dofile("tests/fixtures/alltypes.lua") -- defines ALLTYPES, the table every method loads

function M.run(engine, dsn, args, script)
  local cmd = ("./bulkbench run %s --engine=%s --dsn='%s' %s >" .. TMP .. "/bb_engine_spec.out 2>&1")
    :format(script or "tests/fixtures/alltypes.lua", engine, dsn, args)
  local rc = os.execute(cmd)
  local f = io.open(TMP .. "/bb_engine_spec.out")
  local out = f:read("*a")
  f:close()
  return rc == 0, out
end

-- How each engine prints a value of each column, from the generator's value.
local function expect(col, v, engine)
  if v == nil then return nil end
  if col == "ok" then
    if engine == "pg" then return v == 1 and "t" or "f" end
    return tostring(v)
  end
  if col == "f" then return v end -- compared numerically
  if type(v) == "number" then return ("%d"):format(v) end
  return v
end

-- Compares rows 0..n-1 of the generator with the table, column by column; returns the
-- first difference as text, or nil.
function M.compare(db, engine, n, seed)
  local t = ALLTYPES
  local cols = t:native(seed):columns()
  local rows = db:query("SELECT " .. table.concat(cols, ", ") .. " FROM alltypes ORDER BY id")
  if #rows ~= n then return ("table has %d rows, want %d"):format(#rows, n) end
  for r = 1, n do
    local want = t:row(r - 1, seed)
    for c, name in ipairs(cols) do
      local got, exp = rows[r][c], expect(name, want[c], engine)
      local same
      if name == "f" and exp ~= nil and got ~= nil then
        same = math.abs(tonumber(got) - exp) <= math.abs(exp) * 1e-12
      else
        same = got == exp
      end
      if not same then
        return ("row %d column %s: table has %q, generator made %q"):format(r - 1, name, tostring(got), tostring(exp))
      end
    end
  end
  return nil
end

return M
