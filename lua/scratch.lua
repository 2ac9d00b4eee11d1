-- bulkbench.scratch: scenarios `bulkbench new` wrote load into scratch tables, never into
-- the user's. A scratch table is created like the original (same columns, keys, indexes and
-- constraints: the engine's own CREATE TABLE ... LIKE where it has one), its foreign keys
-- point at key mirrors (scratch copies of the parents' keys) so no user table gains a
-- constraint or a lock, and teardown() drops them all whatever happened: success, error,
-- Ctrl-C. `run ... --into=T` loads into the existing table T instead, which is neither
-- dropped nor truncated; the rows verified are the count's growth.
--
-- Names: bb_scratch_<pid>_<run>_<table> (pid: the process that made it, so a table a killed
-- process left is known for an orphan; run: 6 hex digits of the run's id, of its start in
-- nanoseconds, the same in every worker; the table's name cut to 36 characters), and
-- bb_scratch_<pid>_<run>_<table>_k<i> for the mirror of the table's i-th foreign key. A
-- script's own bb.table under advise becomes <table>__scratch<pid> (advisecmd.c): listed too.
local core = require "bulkbench.core"
local schema = require "bulkbench.schema"
local keys = require "bulkbench.scratch_keys"
local dialects = require "bulkbench.dialects"
local M = {}

-- A table's name as a user or a catalog gives it: [schema.]name, each part bare (as written:
-- spaces and case kept) or quoted ("..." or `...`, the quote doubled inside) -> schema (or
-- nil), name, and whether the name was quoted. --table, --into and the scenario's own names
-- all go through here, so they take the same forms.
local function split(qname)
  local parts, i, n = {}, 1, #qname
  while i <= n do
    local q = qname:sub(i, i)
    if q == '"' or q == "`" then
      local buf, j = {}, i + 1
      while j <= n do
        local ch = qname:sub(j, j)
        if ch == q and qname:sub(j + 1, j + 1) == q then buf[#buf + 1] = q; j = j + 2
        elseif ch == q then break
        else buf[#buf + 1] = ch; j = j + 1 end
      end
      parts[#parts + 1] = { table.concat(buf), true }
      i = j + 1
      if qname:sub(i, i) == "." then i = i + 1 end
    else
      local dot = qname:find(".", i, true) or n + 1
      parts[#parts + 1] = { qname:sub(i, dot - 1), false }
      i = dot + 1
    end
  end
  if #parts >= 2 then return parts[#parts - 1][1], parts[#parts][1], parts[#parts][2] end
  return nil, parts[1] and parts[1][1] or qname, parts[1] and parts[1][2] or false
end
M.split = split

local function qualified(db, qname)
  local s, t = split(qname)
  return s and (db:quote(s) .. "." .. db:quote(t)) or db:quote(t)
end
M.qualified = qualified

local function cols_sql(db, cols)
  local out = {}
  for i, c in ipairs(cols) do out[i] = db:quote(c) end
  return table.concat(out, ", ")
end

local function not_null(db, cols)
  local out = {}
  for i, c in ipairs(cols) do out[i] = db:quote(c) .. " IS NOT NULL" end
  return table.concat(out, " AND ")
end

function M.run_tag()
  local info = core.run_info()
  local id = info.run_id or "0"
  return ("%d_%s"):format(info.pid or 0, id:sub(-6))
end

-- The scratch tables here, of any run: { name, pid } each (pid nil when the name has none).
function M.list(db)
  local sql, rows = (dialects.of(db.dialect).scratch or {}).list_sql, {}
  if sql then rows = db:query(sql) end
  local out = {}
  for _, r in ipairs(rows) do -- new's copies, and advise's of a script's own tables (NAME__scratch<pid>)
    out[#out + 1] = { name = r[1], pid = tonumber(r[1]:match("^bb_scratch_(%d+)_%x+_") or r[1]:match("__scratch(%d+)$")) }
  end
  return out
end

function M.name(base, suffix)
  local _, t = split(base)
  local tag = M.run_tag()
  return ("bb_scratch_%s_%s"):format(tag, t:sub(1, 36)) .. (suffix or "")
end

-- Whether process pid runs on this host (kill(pid, 0): EPERM is a process of another user's).
local function alive(pid)
  local ok, ffi = pcall(require, "ffi")
  if not ok then return true end -- cannot tell: not an orphan
  pcall(ffi.cdef, "int kill(int pid, int sig);")
  return ffi.C.kill(pid, 0) == 0 or ffi.errno() == 1
end

-- The scratch tables here whose process no longer runs on this host: what a killed run
-- (SIGKILL, a crash) left. A client on another host has its own processes: the caveat is in
-- docs/advise.md. drop: drop them too. Returns their names and the failures.
function M.orphans(db, drop)
  local names = {}
  for _, t in ipairs(M.list(db)) do
    if t.pid and not alive(t.pid) then names[#names + 1] = t.name end
  end
  local errs = {}
  if drop and #names > 0 then errs = M.drop_all(db, names) end
  return names, errs
end

-- Says on standard error which orphans there are (for advise and new, before they start).
function M.report_orphans(db)
  local ok, names = pcall(M.orphans, db, false)
  if not ok or #names == 0 then return end
  io.stderr:write(("bulkbench: %d scratch table%s left by runs no longer running: %s (`bulkbench advise --cleanup` drops them)\n")
    :format(#names, #names == 1 and "" or "s", table.concat(names, ", ")))
end

-- Whether table qname exists here (as a table or view the session can read): its dialect's
-- catalog query, else a query of it that reads no row.
function M.exists(db, qname)
  local sc = dialects.of(db.dialect).scratch or {}
  local s, t = split(qname)
  if not sc.exists_sql then return (pcall(db.query, db, "SELECT 1 FROM " .. qualified(db, qname) .. " WHERE 1 = 0")) end
  local rows
  if sc.exists_args == "schema, name" then rows = db:query(sc.exists_sql, s, t)
  elseif sc.exists_args == "name" then rows = db:query(sc.exists_sql, t)
  else rows = db:query(sc.exists_sql:format(db.dialect:param(1)), qualified(db, qname)) end -- ODBC's ? or pg's $1
  return rows[1] and tonumber(rows[1][1]) > 0
end

-- The statement that drops name if it exists.
function M.drop_sql(db, name) return schema.drop(name, db.dialect) end

-- Drops scratch tables names (the last made first) even when the foreign keys added after a
-- load tie them in a cycle, where no order would do: pg drops the constraints that point at a
-- table with it (CASCADE: only scratch tables point at scratch tables); MySQL lets tables
-- referenced go with its checks off for the statement's session. Returns the failures and
-- the names not dropped (in the order made).
function M.drop_all(db, names)
  local sc, errs, left = dialects.of(db.dialect).scratch or {}, {}, {}
  if sc.around_drops then sc.around_drops(db, false) end
  for i = #names, 1, -1 do
    local sql = M.drop_sql(db, names[i]) .. (sc.drop_suffix or "")
    local ok, e = pcall(db.exec, db, sql)
    if not ok then
      errs[#errs + 1] = ("could not drop scratch table %s: %s"):format(names[i], tostring(e))
      table.insert(left, 1, names[i])
    end
  end
  if sc.around_drops then sc.around_drops(db, true) end
  return errs, left
end

-- Says once per process (advise makes a copy per run) whether the copies carry the table's
-- triggers, and which were left off because they write elsewhere.
local said = {}
local function say_triggers(orig, n, leave_out, unsafe)
  if n == 0 or said[orig] then return end
  said[orig] = true
  if leave_out then
    io.stderr:write(("bulkbench: --no-triggers: the scratch copies of %s leave out its %d trigger%s\n"):format(orig, n,
      n == 1 and "" or "s"))
    return
  end
  local kept = n - #(unsafe or {})
  if kept > 0 then
    io.stderr:write(("bulkbench: the scratch copies of %s carry its %d trigger%s (--no-triggers leaves them out)\n")
      :format(orig, kept, kept == 1 and "" or "s"))
  end
  if unsafe and #unsafe > 0 then
    io.stderr:write(("bulkbench: %s's trigger%s %s write%s to other tables (INSERT, UPDATE, DELETE... in the function): "
      .. "left off the copies, so that nothing of yours is written; its cost is not in the figures\n"):format(orig,
      #unsafe == 1 and "" or "s", table.concat(unsafe, ", "), #unsafe == 1 and "s" or ""))
  end
end

-- Creates scratch table `name` like t.like (the engine's own copy: its descriptor's
-- scratch.like; columns bulkbench cannot generate and had no values to draw from are text in
-- the copy); refs maps each foreign key's parent (as t names it) to the table the copy's key
-- points at (a mirror or another scratch table), false for none. Without the original here,
-- the copy is made from t's own description.
function M.create_like(db, t, name, refs)
  local sc = dialects.of(db.dialect).scratch or {}
  local fks, with_fks = t.foreign_keys or {}, false
  if t.like and M.exists(db, t.like) then
    if not sc.like then
      core.fail(("cannot copy %s on engine %s: give the scenario a table of its own"):format(t.like, db.dialect.name))
    end
    local map = {}
    for i, fk in ipairs(fks) do map[fk.references] = refs[i] or fk.references end
    with_fks = sc.like(db, name, qualified(db, t.like), { like = t.like, map = map, split = split })
    for _, c in ipairs(t.columns or {}) do
      if c.as_text and sc.as_text then sc.as_text(db, name, c) end
    end
    if sc.triggers then -- the original's triggers on the copy, so that it costs a row what the table does
      local n, unsafe = sc.triggers(db, qualified(db, t.like), t.like, name, t.no_triggers, split)
      say_triggers(t.like, n, t.no_triggers, unsafe)
    end
  else
    local copy = {}
    for k, v in pairs(t) do copy[k] = v end
    copy.name, copy.foreign_keys = name, nil
    for _, sql in ipairs(schema.ddl(copy, db.dialect)) do db:exec(sql) end
  end
  for i, fk in ipairs(fks) do
    if refs[i] and not with_fks then
      db:exec(("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s)"):format(db:quote(name),
        cols_sql(db, fk.columns), db:quote(refs[i]), cols_sql(db, fk.ref_columns)))
    end
  end
end

-- A mirror of a parent's keys: its distinct non-NULL key values, keyed as the parent's (the
-- engine's descriptor says how it makes one fast to check against).
function M.mirror(db, fk, name)
  local cols = cols_sql(db, fk.ref_columns)
  local sel = ("SELECT DISTINCT %s FROM %s WHERE %s"):format(cols, qualified(db, fk.references), not_null(db, fk.ref_columns))
  local sc = dialects.of(db.dialect).scratch or {}
  if sc.mirror then return sc.mirror(db, name, cols, sel) end
  db:exec(("CREATE TABLE %s AS %s"):format(db:quote(name), sel))
  db:exec(("ALTER TABLE %s ADD PRIMARY KEY (%s)"):format(db:quote(name), cols))
end

-- Reads a foreign key's value set from table src (a mirror, a scratch parent, or with
-- --into the parent itself), weighed by the child's most common references.
-- opts: the weights when they are not the file's (a parent this run loaded: lua/scratch_keys.lua);
-- rows: the child's rows in this run, which a reference that kept its distinct count (fk.distinct)
-- spreads over a share of the parents as large.
function M.read_keys(db, fk, src, opts, rows)
  opts = opts or { weights = fk.weights, rest = fk.rest, bounds = fk.bounds, bound_weights = fk.bound_weights }
  opts.rest_rows = keys.rest_rows(fk, rows)
  if opts.rest_rows and not opts.weights then opts.weights, opts.rest = {}, 1 end
  local n = db:read_set(fk.set, ("SELECT %s FROM %s WHERE %s"):format(cols_sql(db, fk.ref_columns), qualified(db, src),
    not_null(db, fk.ref_columns)), opts)
  return n
end

-- Reads the set of the distinct values a key column held (lua/new/keyplan.lua: a key of several
-- columns takes each combination of them once), the leading one weighed by their frequencies;
-- without the original, of those the file holds.
function M.read_key_values(db, t, v, here)
  local col = v.columns[1]
  if here then
    local q = db:quote(col)
    return db:read_set(v.set, ("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL"):format(q, qualified(db, t.like), q),
      { weights = v.weights, rest = v.rest })
  end
  local rows = {}
  for _, c in ipairs(t.columns) do
    if c.name == col and type(c.gen) == "table" then
      for i, p in ipairs(c.gen.values or {}) do rows[i] = { p[1] } end
    end
  end
  if #rows > 0 then core.value_set(v.set, rows, { weights = v.weights, rest = v.rest }) end
  return #rows
end

-- Reads the value sets a table's columns are drawn from (its `values`, lua/new/observed.lua): a
-- sample of the original's own values. Without the original, the values the file holds stand
-- in; a column whose table holds none is refused, before any row, by the message it carries.
function M.read_values(db, t)
  if not t.values or #t.values == 0 then return end
  local here = t.like and M.exists(db, t.like)
  if not here then
    io.stderr:write(("bulkbench: %s: %s is not in this database; the columns drawn from its values draw from those the scenario holds\n")
      :format(t.name, t.like or "its original"))
  end
  for _, v in ipairs(t.values) do
    local n = 0
    if v.key then M.read_key_values(db, t, v, here)
    elseif here then n = db:read_set(v.set, v.sql) end
    if n == 0 and v.empty and not here then
      core.fail(("%s: the scenario holds no values of %s and %s is not in this database: give the column a generator")
        :format(t.name, table.concat(v.columns, ", "), t.like or "its original"))
    elseif n == 0 and v.empty then
      core.fail(v.empty)
    end
  end
end

-- ---- the hooks of a scenario that loads scratch tables (bb.load / bb.load_all) ----

-- Each table's share of `total` rows, within what each can take (lua/scratch_keys.lua).
function M.shares(list, total, external)
  local out, why = keys.shares(list, total, external)
  if not out then core.usage_error(why) end
  return out
end

-- The names of the tables here closest to `name` (for "no table X; did you mean ..."), and
-- those of them nearest of all.
function M.nearest(db, name)
  local sql, rows = (dialects.of(db.dialect).scratch or {}).tables_sql, {}
  local ok = pcall(function() if sql then rows = db:query(sql) end end)
  if not ok then return {} end
  local _, want = split(name)
  want = want:lower()
  local function dist(a, b) -- edit distance
    local prev = {}
    for j = 0, #b do prev[j] = j end
    for i = 1, #a do
      local cur = { [0] = i }
      for j = 1, #b do
        cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a:sub(i, i) == b:sub(j, j) and 0 or 1))
      end
      prev = cur
    end
    return prev[#b]
  end
  local scored = {}
  for _, r in ipairs(rows) do
    local n = r[1]
    local score = dist(want, n:lower())
    if n:lower():find(want, 1, true) or want:find(n:lower(), 1, true) then score = math.min(score, 2) end
    if score <= math.max(3, math.floor(#want / 3)) and not n:match("^bb_scratch_") then scored[#scored + 1] = { n, score } end
  end
  table.sort(scored, function(a, b) return a[2] < b[2] or (a[2] == b[2] and a[1] < b[1]) end)
  local out, best = {}, {}
  for i = 1, math.min(#scored, 5) do
    out[i] = scored[i][1]
    if scored[i][2] == scored[1][2] then best[i] = scored[i][1] end
  end
  return out, best -- best: those nearest of all
end

-- "table X does not exist in database D (engine host:port); did you mean Y?" when name is no
-- table db reaches (a table of another schema named schema.table), else nil. The database is
-- the session's (the descriptor's database_sql), which the DSN chose.
function M.missing(db, name, note)
  if M.exists(db, name) then return nil end
  local _, near = M.nearest(db, name)
  local sql = dialects.of(db.dialect).database_sql
  local ok, rows = pcall(function() return sql and db:query(sql) end)
  local dbname = ok and rows and rows[1] and rows[1][1]
  local where = (db.where ~= "" and db.where ~= dbname) and (" " .. db.where) or ""
  return ("table %s%s does not exist in %s (%s%s)%s"):format(name, note or "",
    dbname and ("database " .. dbname) or "the database", db.engine, where,
    #near > 0 and ("; did you mean " .. table.concat(near, ", ") .. "?") or "")
end

-- M.missing on a session of its own (bulkbench load's --table).
function M.missing_at(engine, dsn, name)
  local db = core.connect(engine, dsn)
  local ok, msg = pcall(M.missing, db, name)
  db:close()
  return ok and msg or nil
end

-- Installs prepare/run/check/teardown for tables loaded in list's order (parents first).
-- Declares the script option --into.
function M.install(bb, list)
  local opt = bb.options {
    { "into", "", "load into this existing table instead of a scratch copy (neither dropped nor truncated)" },
    { "no-triggers", false, "leave the original's triggers off the scratch copies (they are kept by default)" },
  }
  local into = opt.into ~= "" and opt.into or nil
  local byname = {}
  for _, t in ipairs(list) do
    byname[t.name] = t
    t.into = into
    t.no_triggers = opt["no-triggers"]
  end
  local made, before, prepared = {}, 0, nil

  local fail = core.fail

  -- The rows table t gets in this run before its share is settled: --rows shared by the rows
  -- the originals held (nil when the run goes by time).
  local function guess_rows(t)
    local total = core.run_info().rows
    if not total or total <= 0 then return nil end
    local sum = 0
    for _, o in ipairs(list) do sum = sum + math.max(o.rows or 1, 1) end
    return math.ceil(total * math.max(t.rows or 1, 1) / sum)
  end

  -- The rows of each table in this run, within what each can take (the same in every Lua
  -- state: mirrors' sizes come from their value sets); nil for a single table run by time.
  local function plan(later)
    local total = core.run_info().rows
    if not total or total <= 0 then
      if #list > 1 then core.usage_error("a multi-table scenario needs --rows") end
      if later then core.usage_error(list[1].name .. " references itself: its scenario needs --rows (its references are drawn from the rows it gets)") end
      return nil
    end
    return M.shares(list, total, function(fk) return core.value_set_info(fk.set) end)
  end

  bb.set_hook("prepare", function(db)
    local run = core.run_info().run_id
    if prepared == run then return end -- called twice in one run (a wrapper's and its own): once is enough
    prepared = run
    made = {}
    if into then
      if #list > 1 then core.usage_error("--into loads one table; this scenario loads " .. #list) end
      if not M.exists(db, into) then
        local near = M.nearest(db, into)
        fail(("--into=%s: no such table%s"):format(into, #near > 0 and ("; did you mean " .. table.concat(near, ", ") .. "?") or ""))
      end
      local t = list[1]
      local into_s, into_t = split(into)
      before = db:count(into_t, into_s) or 0
      for _, fk in ipairs(t.foreign_keys or {}) do M.read_keys(db, fk, fk.references, nil, guess_rows(t)) end
      M.read_values(db, t)
      plan(false) -- --rows within what the table's keys allow, before any row is loaded
      for _, c in ipairs(t.columns) do -- keys continue after what is there (lua/scratch_keys.lua)
        local sql = keys.into_max_sql(db, c, qualified(db, into))
        if sql then db:read_set("into_max:" .. c.name, sql) end
      end
      bb.main_table = into
      return
    end
    local refs, later = {}, false
    for k, t in ipairs(list) do
      refs[k] = {}
      for i, fk in ipairs(t.foreign_keys or {}) do
        if byname[fk.references] then
          refs[k][i] = M.name(fk.references) -- read when its phase ends, or made now when it loads later
          later = later or keys.later(list, k, fk)
        elseif M.exists(db, fk.references) then
          local m = M.name(t.name, "_k" .. i)
          made[#made + 1] = m
          M.mirror(db, fk, m)
          if M.read_keys(db, fk, m, nil, guess_rows(t)) == 0 then
            fail(("%s(%s) references %s, which holds no keys: there is nothing to draw from"):format(t.name,
              table.concat(fk.columns, ", "), fk.references))
          end
          refs[k][i] = m
        else
          io.stderr:write(("bulkbench: %s: the parent %s is not in this database; its key columns get stand-in values and no foreign key\n")
            :format(t.name, fk.references))
          refs[k][i] = false
        end
      end
      M.read_values(db, t) -- before any table is made: a column it cannot draw refuses the run
    end
    local rows = plan(later)
    for k, t in ipairs(list) do -- references to rows not loaded yet draw from the keys those rows will get
      for _, fk in ipairs(t.foreign_keys or {}) do
        local is_later, p = keys.later(list, k, fk)
        if is_later then
          local j
          for x, o in ipairs(list) do if o == p then j = x end end
          keys.later_set(fk, t.name, p, rows[j])
        end
      end
    end
    for k, t in ipairs(list) do
      local now = {}
      for i, fk in ipairs(t.foreign_keys or {}) do now[i] = not keys.later(list, k, fk) and refs[k][i] end
      local s = M.name(t.name)
      made[#made + 1] = s -- before it exists: a half-made table is dropped too
      M.create_like(db, t, s, now)
    end
    bb.main_table = M.name(list[#list].name)
  end)

  bb.set_hook("run", function(ctx)
    local adds = {} -- foreign keys to rows loaded with or after their table: added once the rows are in
    for k, t in ipairs(list) do
      for _, fk in ipairs(t.foreign_keys or {}) do
        if not into and keys.later(list, k, fk) then adds[#adds + 1] = { t = t, fk = fk } end
      end
    end
    local function add_fks()
      for _, a in ipairs(adds) do ctx.db:exec(keys.add_fk_sql(ctx.db, M.name(a.t.name), a.fk, M.name(a.fk.references))) end
    end
    if #list == 1 then
      ctx:load(list[1])
      if #adds > 0 then ctx:phase(0, add_fks) end
      return
    end
    local rows = plan(#adds > 0)
    for k, t in ipairs(list) do
      local reads = {}
      for _, fk in ipairs(t.foreign_keys or {}) do
        if byname[fk.references] and not keys.later(list, k, fk) then reads[#reads + 1] = fk end
      end
      local fn = #reads > 0 and function()
        for _, fk in ipairs(reads) do
          local p = byname[fk.references]
          local j
          for x, o in ipairs(list) do if o == p then j = x end end
          if M.read_keys(ctx.db, fk, M.name(fk.references), keys.run_weights(fk, p, rows[j]) or {}, rows[k]) == 0 then
            core.fail(("%s: its parent %s got no rows to reference (give it more --rows)"):format(t.name, fk.references))
          end
        end
      end or nil
      if not ctx:phase(rows[k], fn) then return end
      t.run_rows = rows[k] -- (its generators' pools: lua/scratch_keys.lua)
      ctx:load(t)
    end
    if #adds > 0 then ctx:phase(0, add_fks) end
  end)

  bb.set_hook("check", function(db)
    if into then
      local into_s, into_t = split(into)
      local n = db:count(into_t, into_s)
      return n and n - before
    end
    local sum = 0
    for _, t in ipairs(list) do
      local n = db:count(M.name(t.name))
      if not n then return nil end -- not counted (null): nothing to verify, as for one table
      sum = sum + n
    end
    return sum
  end)

  bb.set_hook("teardown", function(db)
    local errs, left = M.drop_all(db, made)
    made = left -- what a lost session could not drop, for teardown on a new one
    if #errs > 0 then core.fail(table.concat(errs, "; ")) end
  end)
end

return M
