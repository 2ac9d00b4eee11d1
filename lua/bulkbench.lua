-- bulkbench: the library scenario scripts load (their first line requires it by this name).
-- Tables are described once; native code generates and encodes their rows.
local core = require "bulkbench.core"
local schema = require "bulkbench.schema"

local bb = { tables = {}, version = core.version() }
local declared = {}      -- script options in declaration order, for help
local defaults = {}      -- common-option defaults the script set, for help
local description

-- Generator constructors (bb.int{1, 100}, bb.json{...}, bb.const(v)): lua/generators.lua
local generators = require "bulkbench.generators"
bb.gen = generators.gen
for _, kind in ipairs(core.gen_kinds()) do
  if bb[kind] == nil then bb[kind] = generators.gen[kind] end
end
bb.float = bb.double -- the name most people reach for first
bb.json, bb.array, bb.const = generators.json, generators.array, generators.const
local generator_slot = generators.slot

function bb.describe(text) description = text end

-- Hooks the library supplies (bb.load, bb.focus, scratch tables) are registered here, never
-- written into the script's globals: bb.hook(name) is what the runner calls, the script's own
-- global function of that name when it defines one (it wins), else the library's.
local library_hooks, replaced = {}, {}
-- bb.set_hook(name, fn): the library's hook; a later one of the same name replaces it.
function bb.set_hook(name, fn) library_hooks[name] = fn end
-- bb.replace_hooks{names}: from now on the script's own hooks of these names do not run
-- (nor the library's until set again): bb.focus loads another table than the script's own.
function bb.replace_hooks(names)
  for _, name in ipairs(names) do replaced[name], library_hooks[name] = true, nil end
end
function bb.hook(name)
  local own = rawget(_G, name)
  if type(own) == "function" and not replaced[name] then return own end
  return library_hooks[name]
end

local units = { k = 1e3, m = 1e6, g = 1e9 }
local converters = {
  -- a whole number, or a count with its unit as the common options take them: 10k, 1.5M, 2G
  int = function(s)
    local n = tonumber(s)
    if not n then
      local x, u = s:match("^(%d+%.?%d*)([kKmMgG])$")
      n = x and tonumber(x) * units[u:lower()]
    end
    if n and n == math.floor(n) then return n end
  end,
  number = tonumber,
  string = function(s) return s end,
  bool = function(s)
    if s == "on" or s == "true" or s == "1" or s == "yes" then return true end
    if s == "off" or s == "false" or s == "0" or s == "no" then return false end
  end,
  list = function(s)
    local t = {}
    for part in s:gmatch("[^,]+") do t[#t + 1] = part end
    return t
  end,
}

local function type_of(default)
  local t = type(default)
  if t == "number" then return default == math.floor(default) and "int" or "number" end
  if t == "boolean" then return "bool" end
  if t == "table" then return "list" end
  return "string"
end

-- bb.options{ {"name", default, "help", type = "int", check = function(v) return ok, why end}, ... }
-- returns { name = value } with the command line's --name=value typed and checked.
function bb.options(decls)
  local values = {}
  for _, d in ipairs(decls) do
    local name, default, help = d[1] or d.name, d[2], d[3] or d.help or ""
    if default == nil then default = d.default end
    local typ = d.type or type_of(default)
    if not converters[typ] then core.usage_error(("option %s: unknown type %s"):format(name, tostring(typ))) end
    local raw, value = core.cli_option(name), default
    if raw ~= nil then
      value = converters[typ](raw)
      if value == nil then
        core.usage_error(("option --%s expects %s, got '%s'"):format(name, typ == "int" and "a whole number (10k, 1.5M)"
          or typ == "bool" and "on or off" or "a " .. typ, raw))
      end
    end
    if d.check and value ~= nil then
      local ok, why = d.check(value)
      if not ok then core.usage_error(("option --%s=%s: %s"):format(name, tostring(raw or value), why or "invalid value")) end
    end
    values[name] = value
    core.declare_option(name, type(value) == "table" and table.concat(value, ",") or tostring(value))
    declared[#declared + 1] = { name = name, default = default, help = help, type = typ, engine_field = d.engine_field }
  end
  return values
end

-- bb.defaults{ method = "txn", batch = 1000, rows = 20000 }: the script's defaults for common options.
function bb.defaults(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = t[k]
    if type(v) == "table" and #v == 0 then -- { pg = "copy", mysql = "load" }: per engine
      for engine, ev in pairs(v) do
        core.set_default(k .. "@" .. engine, tostring(ev))
        defaults[#defaults + 1] = { k .. " (" .. engine .. ")", ev }
      end
    else
      core.set_default(k, type(v) == "table" and table.concat(v, ",") or tostring(v))
      defaults[#defaults + 1] = { k, v }
    end
  end
  table.sort(defaults, function(a, b) return a[1] < b[1] end)
end

function bb.run_info() return core.run_info() end

-- bb.methods(engine): the methods the engine offers, from the method table (method.c), in its
-- order: { {name, summary, stream, once, default_batch}, ... }, and their names as a second list.
function bb.methods(engine)
  local ms = core.methods(engine) or error(("no engine '%s'"):format(tostring(engine)), 2)
  local names = {}
  for i, m in ipairs(ms) do names[i] = m.name end
  return ms, names
end

-- bb.engine(name): what the engine's descriptor says of it: { name, summary, default_method };
-- nil for an engine not compiled in.
function bb.engine(name) return core.engine(name) end

-- bb.default_methods(): each engine's default method by its name, { sqlite = "txn", ... }, from
-- the engines' descriptors: bb.defaults { method = bb.default_methods() } gives each its own.
function bb.default_methods()
  local out = {}
  for _, e in ipairs(core.engines()) do out[e] = core.engine(e).default_method end
  return out
end

-- bb.connect(engine, dsn): a connection of the script's own (tools, tests, side checks).
function bb.connect(engine, dsn) return core.connect(engine, dsn) end

-- bb.metric(name, value): a figure the script measured itself (a query's time, say),
-- reported in the run's result under "metrics". Call it from prepare, check or cleanup.
function bb.metric(name, value) core.metric(name, value) end

-- bb.now_ms(): a monotonic clock for timing phases in scripts.
function bb.now_ms() return core.now_ns() / 1e6 end

-- bb.histogram(): a latency histogram with the runner's error bound; record nanoseconds.
function bb.histogram() return core.histogram() end

-- bb.summary(values [, seed]): what --repeat reports of its runs, for a list of numbers >= 0:
-- n, median, min, max, mean, stddev, cv, mad, ci95 = {lo, hi} (bootstrap of the median,
-- the same for the same values and seed), z (modified Z-score of each value), outliers.
function bb.summary(values, seed) return core.summary(values, seed) end

local Table = {}
Table.__index = Table

-- The table rows go to: its own name, or for a scenario `bulkbench new` wrote (like = the
-- original) the run's scratch copy, or the existing table --into names.
function Table:target()
  if not self.like or not core.run_info().run_id then return self.name end
  return self.into or require("bulkbench.scratch").name(self.name)
end

-- A generator's arguments as this run compiles them: for a scenario `bulkbench new` wrote,
-- its keys widened to the rows and continued --into a table, its pools sized (lua/scratch_keys.lua).
local function run_gen(t, c)
  if not t.like then return c.gen end
  return require("bulkbench.scratch_keys").run_gen(t, c)
end

-- The native generator, compiled once per Lua state and target (and per seed when one is
-- given; otherwise the run's --seed). Only the last SEEDS_KEPT explicit seeds' generators are
-- kept (each holds ~50 KB of C memory), so rows drawn under ever new seeds stay flat in memory.
local SEEDS_KEPT = 16
function Table:native(seed)
  local name = self:target()
  local key = (seed or "run") .. "@" .. name
  local cache = self._native or { seeds = {} } -- seeds: explicit seeds' keys, oldest first
  self._native = cache
  if not cache[key] then
    local cols = {}
    for _, c in ipairs(self.columns) do
      if c.gen then cols[#cols + 1] = { name = c.name, type = c.as or c.type, gen = run_gen(self, c), null = c.null } end
    end
    local schema, tname = require("bulkbench.scratch").split(name) -- --into=schema.table, quoted or not
    cache[key] = core.compile { name = tname, schema = schema, columns = cols, seed = seed }
    if seed ~= nil then
      cache.seeds[#cache.seeds + 1] = key
      if #cache.seeds > SEEDS_KEPT then
        local old = table.remove(cache.seeds, 1)
        cache[old]:release() -- its C memory now, not when the collector comes by
        cache[old] = nil
      end
    end
  end
  return cache[key]
end

function Table:row(n, seed) return self:native(seed):row(n) end
function Table:encode(first, count, format, by_values)
  return self:native():encode(first, count, format, by_values)
end
function Table:ddl(dialect, system) return schema.ddl(self, dialect, system) end

local declared_order = {} -- the tables in the order declared: parents before the children keyed to them

-- bb.table "name" { {"col", "sql type", generator, null = ratio, auto_increment = true}, ...,
--                    primary_key = "col" or {...}, indexes = {{"k"}}, engine = "InnoDB",
--                    existing = true }   -- a table that is already there: no DDL, only rows
-- Under `bulkbench advise` the host hands a scratch suffix (core.scratch()): t.name, the
-- table's SQL name, gets it, so every statement, count and drop that goes through t.name
-- reaches the scratch table; t.declared keeps the name the script gave (bb.tables' key), and
-- SQL the script writes itself with that name is run with the scratch name in its place
-- (lua/scratch_sql.lua). A table `bulkbench new` wrote (like = ...) has scratch copies of its
-- own (lua/scratch.lua).

function bb.table(name)
  return function(spec)
    local scratch = spec.like == nil and core.scratch() or ""
    if scratch ~= "" then require("bulkbench.scratch_sql").install(bb.tables) end
    local t = setmetatable({ name = name .. scratch, declared = name, columns = {},
                             scratch = scratch ~= "" and scratch or nil }, Table)
    for k, v in pairs(spec) do
      if type(k) ~= "number" then t[k] = v end
    end
    for i, c in ipairs(spec) do
      local col = {}
      for k, v in pairs(c) do
        if type(k) ~= "number" then col[k] = v end -- null, not_null, auto_increment, default, as_text, ...
      end
      col.name, col.type, col.gen = c[1] or c.name, c[2] or c.type, c[3]
      if col.gen == nil then col.gen = c.gen end -- c[3] may be false: a literal
      if type(col.name) ~= "string" or type(col.type) ~= "string" then
        error(("table %s, column %d: want {\"name\", \"sql type\", generator}"):format(name, i), 2)
      end
      col.gen = generator_slot(name, col.name, col.gen)
      t.columns[#t.columns + 1] = col
    end
    bb.tables[name] = t
    declared_order[#declared_order + 1] = t
    return t
  end
end

-- bb.strategy{ name =, before = fn(ctx), after = fn(ctx), gives_up = "..." }: a strategy of
-- the scenario's own, chosen with --strategy=NAME like the built-in ones (lua/strategy.lua).
function bb.strategy(s) require("bulkbench.strategy").define(s) end

-- bb.load(t): the standard bulk scenario. prepare() recreates t (or, for a table declared
-- `existing = true`, leaves it and notes its row count), run() loads rows with --method,
-- check() counts what the run added. A hook the script defines itself wins. A table
-- declared `like = "original"` (what `bulkbench new` writes) loads into a scratch copy of
-- the original instead, or --into an existing table (lua/scratch.lua).
function bb.load(t)
  bb.load_table = t.declared
  if t.like then return require("bulkbench.scratch").install(bb, { t }) end
  bb.main_table = t.name
  -- an option of the engines whose servers may spread a table over nodes (their descriptor's
  -- `distributes`): help lists it for those alone
  local by = bb.options { { "distributed_by", t.distributed_by or "", engine_field = "distributes",
    "Greenplum, Citus: spread rows by this column, or reference (a copy on each node), or none "
      .. "(empty: Greenplum's primary key or first column, Citus none)",
    check = function(v)
      if v == "" or v == "reference" or v == "none" then return true end
      for _, c in ipairs(t.columns) do if c.name == v then return true end end
      local names = {}
      for i, c in ipairs(t.columns) do names[i] = c.name end
      return false, "not a column of " .. t.name .. " (" .. table.concat(names, ", ") .. ") nor reference or none"
    end } }
  if by.distributed_by ~= "" then t.distributed_by = by.distributed_by end
  local before = 0
  bb.set_hook("prepare", function(db)
    if t.existing and t.scratch then db:recreate_like(t.name, t.declared) -- a copy of the user's table, empty
    elseif t.existing then
      local missing = require("bulkbench.scratch").missing(db, t.name, " (existing = true)")
      if missing then error(missing, 0) end
      before = db:count(t.name) or 0
    else db:recreate(t) end
  end)
  bb.set_hook("run", function(ctx) ctx:load(t) end)
  bb.set_hook("check", function(db)
    local n = db:count(t.name)
    return n and n - before
  end)
end

-- bb.load_all{t1, t2, ...}: tables `bulkbench new` wrote, loaded in this order (parents
-- before children) into scratch copies; --rows is shared among them by the rows each
-- original held, and a child's foreign keys draw from the rows its parent got.
function bb.load_all(list)
  for _, t in ipairs(list) do
    if not t.like then error(("bb.load_all: table %s is not a scaffolded one (like = ...)"):format(t.name), 2) end
  end
  bb.load_table = list[#list].declared
  return require("bulkbench.scratch").install(bb, list)
end

-- Methods of the ctx every worker hook receives (fields: id, threads, db, engine, method, batch).
bb.ctx_meta = { __index = {
  load = function(_, t) core.load(t) end,
  phase = function(_, rows, fn) return core.phase(rows, fn) end,
  stop = function() core.stop() end,
} }

-- db helpers written in Lua on top of the native db object.
local dbm = debug.getregistry()["bulkbench.db"].methods
function dbm.quote(db, ident) return db.dialect:quote(ident) end
-- dialect:type(sqltype): how the dialect spells a column type (lua/schema.lua's maps)
debug.getregistry()["bulkbench.dialect"].methods.type = function(d, sqltype) return schema.map_type(sqltype, d) end
-- db:count(name) is native (api_db.c): nil when the engine cannot count (null), as load's count
-- a table object's drop takes what its columns made with it (pg's enum types)
function dbm.drop(db, t)
  db:exec(schema.drop(type(t) == "table" and t.name or t, db.dialect))
  if type(t) == "table" then
    for _, sql in ipairs(schema.drop_types(t, db.dialect)) do db:exec(sql) end
  end
end
-- on a cluster (db.system "greenplum", "citus") the table is distributed as t.distributed_by says
-- a statement of the library's that the server refused: its message, then the statement on one line
local function refused(db, how, sql)
  local ok, err = pcall(db[how], db, sql)
  if ok then return end
  local one = sql:gsub("%s+", " ")
  if #one > 300 then one = one:sub(1, 297) .. "..." end
  error(("%s, in: %s"):format(tostring(err):gsub("%s+$", ""), one), 0)
end

function dbm.create(db, t)
  local system = db.system
  for _, sql in ipairs(schema.ddl(t, db.dialect, system)) do refused(db, "exec", sql) end
  for _, sql in ipairs(schema.distribute(t, db.dialect, system)) do refused(db, "query", sql) end
end
-- one transaction, so one commit (one WAL flush) where the engine has transactional DDL;
-- MySQL commits each DDL statement itself, which is harmless here
function dbm.recreate(db, t)
  db:begin()
  local ok, err = pcall(function() db:drop(t); db:create(t) end)
  if not ok then pcall(db.rollback, db); error(err, 0) end
  db:commit()
end

-- db:recreate_like(name, original): an empty table `name` with original's columns, keys,
-- indexes and constraints but not its foreign keys (lua/scratch.lua's copy: pg LIKE ...
-- INCLUDING ALL with sequences of its own, MySQL CREATE TABLE ... LIKE, SQLite the original's
-- CREATE statements renamed); original is not touched.
function dbm.recreate_like(db, name, original)
  local scratch = require "bulkbench.scratch"
  if not scratch.exists(db, original) then
    local near = scratch.nearest(db, original)
    error(("there is no table %s to take the shape of%s"):format(original,
      #near > 0 and ("; did you mean " .. table.concat(near, ", ") .. "?") or ""), 0)
  end
  db:drop(name)
  scratch.create_like(db, { like = original, columns = {} }, name, {})
end

-- bb.focus(name): the run loads the script's table `name` as bb.load would (advise --table):
-- the script's prepare() still runs (it may make parent tables), then the table is recreated,
-- run() loads it and check() counts it; event() gives way to that run().
function bb.focus(name)
  local t = bb.tables[name]
  if not t then core.usage_error(("the script defines no table %s"):format(name)) end
  if name == bb.load_table then return end
  local own = bb.hook("prepare")
  bb.replace_hooks { "prepare", "run", "check", "event", "teardown" }
  bb.load(t)
  local load_prepare = bb.hook("prepare")
  bb.set_hook("prepare", function(db)
    if own then own(db) end
    load_prepare(db)
  end)
end

-- The script's tables by the names it gave them (sorted), and the one bb.load loads (nil when none).
function bb.table_names()
  local names = {}
  for n in pairs(bb.tables) do names[#names + 1] = n end
  table.sort(names)
  return names, bb.load_table
end

-- Drops the scratch tables of the script (those its tables became under core.scratch()) on
-- engine/dsn; a table under its own name is never dropped here. Returns how many.
-- The sessions the server takes and has open now (nil, nil where its catalog cannot say).
function bb.sessions(engine, dsn)
  local cat = require("bulkbench.engines").module(engine, "catalog_lua")
  if not (cat and cat.sessions) then return nil end
  local db = core.connect(engine, dsn)
  local okq, max, used = pcall(cat.sessions, db)
  db:close()
  if not okq then return nil end
  return max, used
end

-- advise: the engine's strategies that address a bound (`kind`) and would change something
-- for the table `name` (lua/strategy.lua for_bound), ", "-joined: its indexes, foreign keys and
-- triggers counted in the server's catalog when a script's table copies one there (`new`'s
-- scenarios, t.like) or is not the script's (a file's), else as the script declares them.
-- nil when the server cannot be asked.
function bb.strategies_for(engine, dsn, name, kind)
  local strategy = require "bulkbench.strategy"
  local t = bb.tables[name]
  local db = core.connect(engine, dsn)
  local ok, list = pcall(function()
    local on_server = not t and name or t.like
    local facts = on_server and strategy.facts(db, on_server)
      or (t and { indexes = #(t.indexes or {}), uniques = 0, fks = #(t.foreign_keys or {}), triggers = 0 })
    return strategy.for_bound(db, kind, on_server or name, facts)
  end)
  db:close()
  return ok and table.concat(list, ", ") or nil
end

-- advise: the scratch tables runs no longer running left here; said, or dropped (cleanup).
-- Returns how many were found and the failures to drop, joined.
function bb.scratch_orphans(engine, dsn, cleanup)
  local scratch = require "bulkbench.scratch"
  local db = core.connect(engine, dsn)
  if not cleanup then
    scratch.report_orphans(db)
    db:close()
    return 0, nil
  end
  local names, errs = scratch.orphans(db, true)
  db:close()
  io.stderr:write(("bulkbench: dropped %d scratch table%s left by runs no longer running%s%s\n"):format(
    #names - #errs, #names - #errs == 1 and "" or "s", #names > 0 and ": " or "", table.concat(names, ", ")))
  return #names, #errs > 0 and table.concat(errs, "; ") or nil
end

function bb.drop_scratch(engine, dsn)
  local n, db = 0, nil
  for i = #declared_order, 1, -1 do -- children first: a key to a parent holds the parent
    local t = declared_order[i]
    if t.scratch and bb.tables[t.declared] == t then
      db = db or core.connect(engine, dsn)
      db:drop(t.name)
      n = n + 1
    end
  end
  if db then db:close() end
  return n
end

-- "  --name=VALUE  text...": text wrapped before column 100, continued under itself
local function help_line(form, text)
  local line = "  " .. form .. (" "):rep(math.max(1, 25 - #form)) -- the command's --help aligns at 25 too
  local lines, indent, first = {}, (" "):rep(27), true
  for word in text:gmatch("%S+") do
    if not first and #line + 1 + #word > 100 then
      lines[#lines + 1] = line
      line = indent .. word
    else
      line = line .. (first and "" or " ") .. word
    end
    first = false
  end
  lines[#lines + 1] = line
  return table.concat(lines, "\n")
end

local function option_lines(out, list)
  for _, d in ipairs(list) do
    local dv = type(d.default) == "table" and table.concat(d.default, ",") or tostring(d.default)
    out[#out + 1] = help_line("--" .. d.name .. "=VALUE", ("%s (%s, default %s)"):format(d.help, d.type, dv))
  end
end

-- The options the library declared for some engines (engine_field: the descriptor's field that
-- says an engine takes it), of the engines help is asked about (--engine, else the default).
local function engine_options(out)
  local engines = {}
  for e in tostring(core.run_info().engines or ""):gmatch("[^,]+") do engines[#engines + 1] = e end
  for _, e in ipairs(engines) do
    local desc, list = require("bulkbench.dialects").of_engine(e), {}
    for _, d in ipairs(declared) do
      if d.engine_field and desc[d.engine_field] then list[#list + 1] = d end
    end
    if #list > 0 then
      out[#out + 1] = ("\noptions for engine %s:"):format(e)
      option_lines(out, list)
    end
  end
end

function bb.help_text()
  local out = {}
  if description then out[#out + 1] = description .. "\n" end
  local own = {}
  for _, d in ipairs(declared) do
    if not d.engine_field then own[#own + 1] = d end
  end
  out[#out + 1] = #own > 0 and "script options:" or "script options: none"
  option_lines(out, own)
  engine_options(out)
  local sets_method = false
  for _, d in ipairs(defaults) do sets_method = sets_method or d[1]:match("^method") ~= nil end
  if bb.load_table and not sets_method then -- what a run without --method loads by
    local each = {}
    for _, e in ipairs(core.engines()) do each[#each + 1] = e .. " " .. tostring(core.engine(e).default_method) end
    out[#out + 1] = "\nwithout --method each engine loads by its own default: " .. table.concat(each, ", ")
  end
  if #defaults > 0 then
    out[#out + 1] = "\ndefaults this script sets for common options:"
    for _, d in ipairs(defaults) do
      local v = type(d[2]) == "table" and table.concat(d[2], ",") or tostring(d[2])
      out[#out + 1] = ("  --%s=%s"):format(d[1], v)
    end
  end
  local names = {}
  for n in pairs(bb.tables) do names[#names + 1] = n end
  table.sort(names)
  if #names > 0 then out[#out + 1] = "\ntables: " .. table.concat(names, ", ") end
  out[#out + 1] = "\ncommon options: see `bulkbench run --help`\n"
  return table.concat(out, "\n")
end

return bb
