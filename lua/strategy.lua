-- bulkbench.strategy: what DBAs do around a load (drop indexes, defer foreign keys, relax
-- durability...), as named strategies with a before-step, an after-step and the one line of
-- what each gives up (docs/strategies.md). The built-in ones are the engine's, in its folder
-- (drivers/ENGINE/strategies_ENGINE.lua); a scenario adds its own with bb.strategy{}. The
-- runner (runtime/host/runner.c) calls M.before after prepare() and M.after on every way out
-- (failure and Ctrl-C included), timing each; M.after also holds the table's catalog
-- signature (indexes and their validity, constraints, triggers, persistence) against the one
-- taken before the before-step: a strategy that leaves the table otherwise fails the run.
-- An engine's module: { signature = function(db, table) -> string, [name] = strategy }, a
-- strategy: { gives_up = "...", before = fn(ctx), after = fn(ctx), check = fn(ctx) -> nil
-- or why it cannot run here (skipped, one line), refuse = fn(ctx) -> nil or why not (an
-- error), session = { setting = value } for the load's sessions, load = fn(ctx) -> { first
-- = SQL, stream_option = SQL }: each worker's whole load one transaction beginning with
-- first, each stream opened with the option (freeze) }. ctx: db, table (quoted), name
-- (unquoted), method, threads, strategy, state (a table the steps share).
local core = require "bulkbench.core"

local M = {}

local own = {} -- the scenario's, by name
local active -- the run's ctx while a strategy is on

function M.define(s)
  assert(type(s) == "table" and type(s.name) == "string", "bb.strategy{ name = ..., before = fn, after = fn, gives_up = ... }")
  assert(type(s.gives_up) == "string" and s.gives_up ~= "", "bb.strategy " .. s.name .. ": say what it gives up (gives_up = \"...\")")
  own[s.name] = s
end

local function engine_module(db)
  return require("bulkbench.engines").module(db.engine, "strategies_lua") or {}
end

-- The strategy of this name for this session's engine, and the engine's module.
function M.find(db, name)
  local em = engine_module(db)
  local s = own[name] or (name ~= "signature" and em[name])
  if type(s) ~= "table" then
    local names = {}
    for k, v in pairs(em) do if type(v) == "table" then names[#names + 1] = k end end
    for k in pairs(own) do names[#names + 1] = k end
    table.sort(names)
    table.insert(names, 1, "none")
    local near = core.nearest(name, names)
    error(string.format("unknown strategy '%s' on %s%s (it offers: %s)", name, tostring(db.engine),
      near and ("; did you mean '" .. near .. "'?") or "", table.concat(names, ", ")), 0)
  end
  return s, em
end

-- The table's counts as the engine's catalog gives them ({ indexes (those drop-indexes
-- drops), uniques, fks, triggers }), or nil when it is not on the server or the engine
-- cannot say.
function M.facts(db, name)
  local em = engine_module(db)
  if not em.facts then return nil end
  local ok, f = pcall(em.facts, db, name)
  return ok and f or nil
end

-- advise's advice: the engine's strategies that address a bound (kind: wal, server-cpu,
-- io...; a strategy's `bounds`) and would change something for the table `name` with these
-- facts (a strategy's `needs`, one of facts' counts, above 0; an unknown count rules none
-- out), its `check` passing; sorted by name.
function M.for_bound(db, kind, name, facts)
  local em, out = engine_module(db), {}
  for sname, s in pairs(em) do
    local addresses = false
    for _, b in ipairs(type(s) == "table" and s.bounds or {}) do addresses = addresses or b == kind end
    local need = addresses and s.needs and facts and facts[s.needs]
    if addresses and (need == nil or need > 0) then
      local ok, why = true, nil
      if s.check then
        ok, why = pcall(s.check, { db = db, name = name, table = db:quote(name), threads = 1, strategy = sname, state = {} })
      end
      if ok and why == nil then out[#out + 1] = sname end
    end
  end
  table.sort(out)
  return out
end

-- Before the load. Returns nil, or the line saying why the strategy was skipped; and the
-- session settings the load's sessions take ({name = value} or nil).
-- table_name: the table bb.load loads (bb.main_table, which the runner passes: this module
-- does not require the library, which requires it).
function M.before(db, name, method, table_name, threads)
  active = nil
  if name == nil or name == "none" then return nil end
  local s, em = M.find(db, name)
  if not table_name and (s.before or s.after) and not own[name] then
    error("strategy " .. name .. " needs the scenario's table (bb.load)", 0)
  end
  local ctx = { db = db, name = table_name, table = table_name and db:quote(table_name), method = method,
    threads = threads or 1, strategy = name, state = {} }
  if s.refuse then
    local why = s.refuse(ctx)
    if why then error("strategy " .. name .. ": " .. why, 0) end
  end
  if s.check then
    local why = s.check(ctx)
    if why then return "strategy " .. name .. " skipped: " .. why end
  end
  ctx.sig = em.signature and table_name and em.signature(db, table_name)
  ctx.s = s
  active = ctx
  if s.before then s.before(ctx) end
  return nil, s.session, s.gives_up, s.load and s.load(ctx)
end

-- After the load, however it ended. Raises when the after-step fails; returns how the table
-- differs from the one it found when it does (the runner's verdict: a strategy changed it), nil
-- when it does not.
function M.after()
  local ctx = active
  active = nil
  if not ctx then return end
  if ctx.s.after then ctx.s.after(ctx) end
  if ctx.sig then
    local now = engine_module(ctx.db).signature(ctx.db, ctx.name)
    if now ~= ctx.sig then
      return string.format("after strategy %s\n  before: %s\n  after:  %s", ctx.strategy, ctx.sig, now)
    end
  end
end

-- What it gives up, for reports (nil for none or an unknown one).
function M.gives_up(db, name)
  if name == nil or name == "none" then return nil end
  local ok, s = pcall(M.find, db, name)
  return ok and s.gives_up or nil
end

return M
