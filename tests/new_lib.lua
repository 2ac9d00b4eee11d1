-- Shared by tests/engines/new_spec.lua: run the CLI, and tell whether a column of a loaded
-- table has the law of the original's: chi-square over the original's common values (two
-- samples, homogeneity) or two-sample Kolmogorov–Smirnov over ordered values.
local st = dofile("tests/spec/stat_helpers.lua")
local M = {}

M.ALPHA = 0.001

-- A fresh temporary path ending in ext (".lua"), removed when the specs end: os.tmpname()
-- makes an empty file of its own at the bare name, removed at once, so runs leave none behind.
local made = {}
M.cleanup = newproxy(true) -- collected when the Lua state closes, at the specs' end
getmetatable(M.cleanup).__gc = function()
  for _, p in ipairs(made) do os.remove(p) end
end
function M.tmp(ext)
  local p = os.tmpname()
  os.remove(p)
  made[#made + 1] = p .. ext
  return p .. ext
end

function M.sh(cmd)
  local out = os.tmpname()
  local ok = os.execute("( " .. cmd .. " ) >" .. out .. " 2>&1")
  local f = io.open(out)
  local text = f:read("*a")
  f:close()
  os.remove(out)
  return ok == 0 or ok == true, text
end

-- A column's values (nil for NULL) as a Lua array, with their count.
function M.values(db, tbl, col, expr)
  local rows = db:query(("SELECT %s FROM %s"):format(expr or db:quote(col), db:quote(tbl)))
  local out = {}
  for i, r in ipairs(rows) do out[i] = r[1] == nil and "\0NULL" or r[1] end
  return out, #rows
end

-- Homogeneity of two samples over the categories the first holds at least 5 times (the
-- rest, and NULL, as categories of their own): statistic, df, p.
function M.chi2(a, b)
  local ca, cb = {}, {}
  for _, v in ipairs(a) do ca[v] = (ca[v] or 0) + 1 end
  for _, v in ipairs(b) do cb[v] = (cb[v] or 0) + 1 end
  local cats, other_a, other_b = {}, 0, 0
  for v, n in pairs(ca) do if n >= 5 then cats[#cats + 1] = v else other_a = other_a + n end end
  table.sort(cats)
  local keep = {}
  for _, v in ipairs(cats) do keep[v] = true end
  for v, n in pairs(cb) do if not keep[v] then other_b = other_b + n end end
  local ra, rb = {}, {}
  for i, v in ipairs(cats) do ra[i], rb[i] = ca[v], cb[v] or 0 end
  if other_a + other_b > 0 then ra[#ra + 1], rb[#rb + 1] = other_a, other_b end
  if #ra < 2 then return 0, 0, 1 end
  return st.chi2_independence { ra, rb }
end

-- Two-sample Kolmogorov–Smirnov over numbers (NULLs aside): D and its p-value.
function M.ks(a, b, num)
  num = num or tonumber
  local x, y = {}, {}
  for _, v in ipairs(a) do if v ~= "\0NULL" then x[#x + 1] = num(v) end end
  for _, v in ipairs(b) do if v ~= "\0NULL" then y[#y + 1] = num(v) end end
  table.sort(x)
  table.sort(y)
  local n, m, i, j, d = #x, #y, 1, 1, 0
  while i <= n and j <= m do
    local v = math.min(x[i], y[j])
    while i <= n and x[i] <= v do i = i + 1 end
    while j <= m and y[j] <= v do j = j + 1 end
    d = math.max(d, math.abs((i - 1) / n - (j - 1) / m))
  end
  local ne = n * m / (n + m)
  local sn = math.sqrt(ne)
  return d, st.kolmogorov_sf((sn + 0.12 + 0.11 / sn) * d)
end

-- Checks columns of copy against orig: { {col, "chi2"|"ks", expr = SQL, num = f} }; returns
-- the failures as text (empty when all pass) and the statistics as text.
function M.compare(db, orig, copy, checks)
  local bad, said = {}, {}
  for _, c in ipairs(checks) do
    local a = M.values(db, orig, c[1], c.expr)
    local b = M.values(db, copy, c[1], c.expr)
    local stat, df, p
    if c[2] == "chi2" then stat, df, p = M.chi2(a, b) else stat, p = M.ks(a, b, c.num) end
    said[#said + 1] = ("%s %s %.4f p=%.4f"):format(c[1], c[2], stat, p)
    if not (p >= M.ALPHA) then bad[#bad + 1] = ("%s: %s statistic %.4f, p = %.3g"):format(c[1], c[2], stat, p) end
  end
  return table.concat(bad, "; "), table.concat(said, ", ")
end

-- Tables whose name starts bb_scratch_ (none should outlive a run).
function M.scratch_left(db)
  local d = db.dialect.name
  local sql = d == "pg" and "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'bb\\_scratch\\_%'"
    or d == "mysql" and "SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE 'bb\\_scratch\\_%'"
    or "SELECT count(*) FROM sqlite_master WHERE name LIKE 'bb\\_scratch\\_%' ESCAPE '\\'"
  return tonumber(db:query(sql)[1][1])
end

return M
