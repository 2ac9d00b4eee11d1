-- bulkbench.new.newcheck: `new --check`, the scenario `new` wrote held against the table it was
-- written from. Its rows (--check-rows, or fewer when the table allows fewer) go into a scratch
-- copy of the table, made like it and dropped afterwards whatever happens (Ctrl-C included),
-- by `bulkbench run ... --into=COPY` in a child process; then each column of the copy is
-- compared with the original's, on samples of the same size: the null fraction, the distinct
-- ratio, the frequencies of the original's five most common values, and for orderable values
-- (numbers, dates and times) the Kolmogorov–Smirnov distance. The user's table is only read.
local core = require "bulkbench.core"
local scratch = require "bulkbench.scratch"
local dialects = require "bulkbench.dialects"
local keys = require "bulkbench.keys"
local M = {}

M.ROWS = 200000 -- rows loaded at most by default: as many as the table holds, up to this
M.SAMPLE = 10000 -- rows of each compared
M.KS, M.TOP5 = 0.1, 0.05 -- what the report flags: farther than this from the original...
M.DISTINCT = { 0.8, 1.25 } -- ... a distinct ratio outside this ...
M.NULLS = 0.02 -- ... a null fraction farther than this
M.FEW = 30 -- fewer values than this (in either sample) judge nothing but the null fraction; fewer rows, nothing

-- A sample of n rows of table qt (quoted), every column as text (nil for NULL).
local function sample(db, qt, names, n)
  local d = dialects.of(db.dialect)
  local cols = {}
  for i, c in ipairs(names) do cols[i] = (d.as_text or "%s"):format(db:quote(c)) end
  return db:query(("SELECT %s FROM %s ORDER BY %s LIMIT %d"):format(table.concat(cols, ", "), qt,
    d.random or "random()", n))
end

-- Two-sample Kolmogorov–Smirnov distance of sorted arrays a and b (numbers or ISO texts).
local function ks(a, b)
  local i, j, d = 1, 1, 0
  while i <= #a and j <= #b do
    local x = a[i] < b[j] and a[i] or b[j]
    while i <= #a and a[i] == x do i = i + 1 end
    while j <= #b and b[j] == x do j = j + 1 end
    d = math.max(d, math.abs((i - 1) / #a - (j - 1) / #b))
  end
  return d
end

-- Orderable values as numbers, or as ISO dates and times (which sort as text): the sorted
-- array, or nil for values of neither kind.
local function ordered(vals)
  local nums, iso = {}, true
  for _, v in ipairs(vals) do
    nums[#nums + 1] = tonumber(v) -- (a hole would make # and sort see what is not there)
    if not v:match("^%-?%d%d%d%d%-%d%d%-%d%d") and not v:match("^%d%d:%d%d:%d%d") then iso = false end
  end
  if #nums == #vals and #vals > 0 then table.sort(nums); return nums end
  if iso and #vals > 0 then
    local s = {}
    for i, v in ipairs(vals) do s[i] = v end
    table.sort(s)
    return s
  end
  return nil
end

-- One column's figures from its values in the original (a) and the copy (b), NULL as nil,
-- over na and nb rows.
local function column(name, a, na, b, nb)
  local function shape(vals, n)
    local nn, counts, distinct = {}, {}, 0
    for r = 1, n do
      local v = vals[r]
      if v ~= nil then
        nn[#nn + 1] = v
        if not counts[v] then distinct = distinct + 1 end
        counts[v] = (counts[v] or 0) + 1
      end
    end
    return { nn = nn, counts = counts, distinct = distinct, null = n > 0 and (n - #nn) / n or 0 }
  end
  local sa, sb = shape(a, na), shape(b, nb)
  local top = {}
  for v, k in pairs(sa.counts) do top[#top + 1] = { v, k } end
  table.sort(top, function(x, y) return x[2] > y[2] or (x[2] == y[2] and x[1] < y[1]) end)
  local top5 = 0
  for i = 1, math.min(5, #top) do
    local v = top[i][1]
    top5 = math.max(top5, math.abs(top[i][2] / math.max(na, 1) - (sb.counts[v] or 0) / math.max(nb, 1)))
  end
  local ra = #sa.nn > 0 and sa.distinct / #sa.nn or nil
  local rb = #sb.nn > 0 and sb.distinct / #sb.nn or nil
  local oa, ob = ordered(sa.nn), ordered(sb.nn)
  return {
    name = name,
    null_diff = math.abs(sa.null - sb.null),
    distinct_ratio = ra and rb and rb / ra or nil, -- the copy's distinct share over the original's
    top5_diff = #top > 0 and top5 or nil,
    ks = oa and ob and type(oa[1]) == type(ob[1]) and ks(oa, ob) or nil,
    values = math.min(#sa.nn, #sb.nn), rows = math.min(na, nb),
  }
end

-- What of column c is outside its band (c.off, a list of the figures' names), or c.few when
-- its samples are too small to judge (the null fraction is judged on rows, the rest on values).
local function judge(c)
  c.off = {}
  if c.server then return end
  if c.rows < M.FEW then c.few = true; return end
  if c.null_diff > M.NULLS then c.off[#c.off + 1] = "null_diff" end
  if c.values < M.FEW then c.few = true; return end
  local r = c.distinct_ratio
  if r and (r < M.DISTINCT[1] or r > M.DISTINCT[2]) then c.off[#c.off + 1] = "distinct_ratio" end
  if (c.top5_diff or 0) > M.TOP5 then c.off[#c.off + 1] = "top5" end
  if (c.ks or 0) > M.KS then c.off[#c.off + 1] = "ks" end
end
M.judge = judge

-- How far a column is from the original, for the order of the report: worst first (those
-- off before the others), then those too small to judge, then the server's.
local function badness(c)
  if c.server then return -2 end -- last: nothing of the scenario's to judge
  if c.few and #c.off == 0 then return -1 end
  return (#c.off > 0 and 10 or 0) + math.max(c.null_diff, c.top5_diff or 0, c.ks or 0,
    c.distinct_ratio and math.abs(math.log(math.max(c.distinct_ratio, 1e-9))) / 4 or 0)
end

local function fmt(x, spec) return x and spec:format(x) or "-" end

-- JSON of a string, a number or nil (null): all the report holds besides its arrays.
local function js(v)
  if v == nil then return "null" end
  if type(v) == "number" then return v ~= v and "null" or ("%.6g"):format(v) end
  return '"' .. tostring(v):gsub('[%c"\\]', function(c) return ("\\u%04x"):format(c:byte()) end) .. '"'
end

-- The names of what is off, as the text report says them.
local said = { null_diff = "null diff", distinct_ratio = "distinct ratio", top5 = "top-5", ks = "KS" }

local function json_report(m, rows, n, cols)
  local out = {}
  for i, c in ipairs(cols) do
    local off = {}
    for k, o in ipairs(c.off) do off[k] = js(o) end
    out[i] = ('    {"name": %s, "null_diff": %s, "distinct_ratio": %s, "top5_diff": %s, "ks": %s, "off": [%s], '
      .. '"too_few": %s, "server": %s, "server_why": %s}'):format(js(c.name), js(c.null_diff), js(c.distinct_ratio),
      js(c.top5_diff), js(c.ks), table.concat(off, ", "), c.few and "true" or "false", c.server and "true" or "false",
      js(c.server_why))
  end
  return ('{\n  "table": %s,\n  "rows": %d,\n  "sample": %d,\n  "ks_limit": %s,\n  "top5_limit": %s,\n  "distinct_limits": [%s, %s],\n'
    .. '  "null_limit": %s,\n  "few": %d,\n  "columns": [\n%s\n  ]\n}\n')
    :format(js(m.qname), rows, n, js(M.KS), js(M.TOP5), js(M.DISTINCT[1]), js(M.DISTINCT[2]), js(M.NULLS), M.FEW,
      table.concat(out, ",\n"))
end

-- The verdict, the report's last line.
local function verdict(n, cols)
  local flagged, few = 0, 0
  for _, c in ipairs(cols) do
    if #c.off > 0 then flagged = flagged + 1 end
    if c.few then few = few + 1 end
  end
  local bands = ("KS %.2f, top-5 %.2f, distinct ratio %.2f-%.2f, null diff %.2f"):format(M.KS, M.TOP5, M.DISTINCT[1],
    M.DISTINCT[2], M.NULLS)
  local out = {}
  if n < M.FEW then
    out[#out + 1] = ("too few rows to judge: samples of %d rows (%d needed); the figures are shown, not judged"):format(n, M.FEW)
  elseif flagged == 0 then
    out[#out + 1] = ("every column judged within %s of the original"):format(bands)
  else
    out[#out + 1] = ("%d column%s off (outside %s): its comment in the scenario says where its generator came from")
      :format(flagged, flagged == 1 and "" or "s", bands)
  end
  if n >= M.FEW and few > 0 then
    out[#out + 1] = ("%d column%s with too few values to judge (under %d)"):format(few, few == 1 and "" or "s", M.FEW)
  end
  return table.concat(out, "\n")
end

-- The report: text (a table, worst first) or the JSON object
-- {"table", "rows", "sample", ..., "columns": [{"name", "null_diff", "distinct_ratio", "top5_diff", "ks", "off", ...}, ...]}.
local function report(opts, m, rows, n, cols)
  if opts.format == "json" then return json_report(m, rows, n, cols) end
  local lines = { ("%s: %d rows of its scenario loaded into a scratch copy; samples of %d rows of each compared, column by column, worst first"):format(
    m.qname, rows, n) }
  local w = 6
  for _, c in ipairs(cols) do w = math.max(w, #c.name) end
  lines[#lines + 1] = ("%-" .. w .. "s  %9s  %14s  %10s  %6s"):format("column", "null diff", "distinct ratio", "top-5 diff",
    "KS")
  for _, c in ipairs(cols) do
    local off = {}
    for k, o in ipairs(c.off) do off[k] = said[o] end
    local tail = #off > 0 and ("  <- off: " .. table.concat(off, ", "))
      or c.server and ("  (the server's values%s)"):format(c.server_why and (": " .. c.server_why) or "")
      or c.few and ("  (too few values to judge: %d)"):format(c.values) or ""
    lines[#lines + 1] = ("%-" .. w .. "s  %9s  %14s  %10s  %6s%s"):format(c.name, fmt(c.null_diff, "%.3f"),
      fmt(c.distinct_ratio, "%.2f"), fmt(c.top5_diff, "%.3f"), fmt(c.ks, "%.3f"), tail)
  end
  lines[#lines + 1] = verdict(n, cols)
  return table.concat(lines, "\n") .. "\n"
end

-- `new --check`: models are what `new` read (one table), opts.o the scenario it wrote.
function M.run(opts, models)
  if #models ~= 1 then
    core.usage_error(("--check compares one table with its scenario, not %d: give --table one name"):format(#models))
  end
  local m = models[1]
  -- as many rows as the table holds (a key's range, a sequence of times, grow with the rows),
  -- at most --check-rows; compared on samples of at most M.SAMPLE rows of each
  local rows = tonumber(opts.check_rows) or M.ROWS
  if (m.rows or 0) > 0 then rows = math.min(rows, m.rows) end
  local db = core.connect(opts.engine, opts.dsn)
  -- named as a run's scratch tables are (bb_scratch_<pid>_<time>_<table>), so that one a
  -- kill -9 left is reported as an orphan by the next advise or new, and --cleanup drops it
  local ffi = require "ffi"
  pcall(ffi.cdef, "int getpid(void);")
  local copy = ("bb_scratch_%d_%06x_%s"):format(ffi.C.getpid(), os.time() % 0x1000000, m.name:sub(1, 36))
  local ok, err = pcall(scratch.create_like, db, { like = m.qname, columns = {}, foreign_keys = {} }, copy, {})
  local result
  if ok then
    ok, err = pcall(function()
      local code, sig = core.spawn({ "run", opts.o, "--engine=" .. opts.engine, "--rows=" .. rows, "--into=" .. copy,
        "--format=csv" }, { [("BULKBENCH_%s_DSN"):format(opts.engine:upper())] = opts.dsn })
      if sig ~= 0 then error("interrupted", 0) end
      if code ~= 0 then
        error(("the scenario's run into a scratch copy failed (exit %d; its error is above): %s"):format(code, opts.o), 0)
      end
      local names = {}
      for i, c in ipairs(m.columns) do names[i] = c.name end
      local orig = sample(db, scratch.qualified(db, m.qname), names, math.min(rows, M.SAMPLE))
      local got = sample(db, db:quote(copy), names, #orig) -- samples of one size: distinct ratios depend on it
      local cols = {}
      for i, name in ipairs(names) do
        local a, b = {}, {}
        for r = 1, #orig do a[r] = orig[r][i] end
        for r = 1, #got do b[r] = got[r][i] end
        cols[i] = column(name, a, #orig, b, #got)
        local c = m.columns[i]
        -- the server's values, not the scenario's (an identity, now(), a generated column, one a
        -- trigger writes): shown, not held against the table
        cols[i].server = keys.server_fills(c) and true or nil
        cols[i].server_why = c.trigger_written and ("written by its %s"):format(c.trigger_written) or nil
        judge(cols[i])
      end
      table.sort(cols, function(x, y) return badness(x) > badness(y) end)
      result = report(opts, m, rows, #orig, cols)
    end)
  end
  local errs = scratch.drop_all(db, { copy })
  db:close()
  if not ok then core.fail(tostring(err) .. (#errs > 0 and ("; " .. table.concat(errs, "; ")) or "")) end
  if #errs > 0 then core.fail(table.concat(errs, "; ")) end
  return result
end

return M
