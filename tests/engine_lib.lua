-- Shared by the engine specs: run a method through the real CLI (on tests/fixtures/alltypes.lua
-- unless another script is named), then compare the table with what the generator makes
-- for the same seed.
local TMP = os.getenv("BB_TEST_TMP") or "/tmp" -- scratch files: one directory per test lane
local bb = require "bulkbench"
local M = {}

dofile("tests/fixtures/alltypes.lua") -- defines ALLTYPES, the table every method loads

-- BB_SPEC_ARGS adds options to every run (tests/systems.sh: tables distributed over a cluster).
function M.run(engine, dsn, args, script)
  local cmd = ("./bulkbench run %s --engine=%s --dsn='%s' %s %s >" .. TMP .. "/bb_engine_spec.out 2>&1")
    :format(script or "tests/fixtures/alltypes.lua", engine, dsn, args, os.getenv("BB_SPEC_ARGS") or "")
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

dofile("tests/fixtures/portable.lua") -- defines PORTABLE: the portable types, bb.json, a function's column

-- Loads the portable scenario by each of methods: every run verified, every value of the first
-- run's table as the generator made it (shows[column](value, db): how the engine prints it when
-- not as the generator's text, or a whole number's digits), and the table the same by every
-- method. Returns the first difference as text, or nil.
function M.portable(engine, dsn, methods, select, shows)
  local function show(col, v, db)
    if shows[col] then return shows[col](v, db) end
    return type(v) == "number" and ("%d"):format(v) or v
  end
  local n, seed, first, whole = 600, 7, nil, nil
  for _, m in ipairs(methods) do
    local ok, out = M.run(engine, dsn, ("--method=%s --rows=%d --batch=100 --threads=2 --seed=%d --now=1700000000")
                          :format(m, n, seed), "tests/fixtures/portable.lua")
    if not (ok and out:find(" ok\n", 1, true)) then return m .. ": " .. out end
    local db = bb.connect(engine, dsn)
    local rows, text = db:query(select), {}
    for r = 1, #rows do
      local want = PORTABLE:row(r - 1, seed)
      for c = 1, #PORTABLE.columns do
        local exp = want[c] ~= nil and show(PORTABLE.columns[c].name, want[c], db) or nil
        local got = rows[r][c]
        if PORTABLE.columns[c].name == "u7" then -- v7 begins with its run's now (--now), which this state's is not
          got, exp = got and got:sub(14), exp and exp:sub(14)
        end
        if not first and got ~= exp then
          db:close()
          return ("%s: row %d column %s: table has %q, generator made %q"):format(m, r - 1, PORTABLE.columns[c].name,
            tostring(got), tostring(exp))
        end
        text[#text + 1] = tostring(rows[r][c])
      end
    end
    db:close()
    if #rows ~= n then return ("%s: %d rows, want %d"):format(m, #rows, n) end
    first, whole = first or m, whole or table.concat(text, "|")
    if table.concat(text, "|") ~= whole then return ("%s loads another table than %s"):format(m, first) end
  end
  return nil
end

return M
