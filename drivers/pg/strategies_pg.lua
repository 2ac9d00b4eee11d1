-- bulkbench.drivers.pg.strategies_pg: PostgreSQL's load strategies (lua/strategy.lua says the shape),
-- after the manual's "Populating a Database" (14.4); docs/strategies.md.
local M = {}

local function lit(s) return "'" .. s:gsub("'", "''") .. "'" end
local function rel(ctx) return lit(ctx.table) .. "::regclass" end

-- Indexes with their definitions and validity, constraints with convalidated, user triggers
-- with their enabled state, and persistence: what a strategy must give back.
function M.signature(db, name)
  local r = lit(db:quote(name)) .. "::regclass"
  local rows = db:query("select coalesce(string_agg(x, '|' order by x), '') from ("
    .. " select pg_get_indexdef(indexrelid) || ':valid=' || indisvalid x from pg_index where indrelid = " .. r
    .. " union all select conname || ':' || pg_get_constraintdef(oid) || ':' || convalidated from pg_constraint where conrelid = " .. r
    .. " union all select 'persistence:' || relpersistence::text from pg_class where oid = " .. r
    .. " union all select 'trigger:' || tgname || tgenabled::text from pg_trigger where tgrelid = " .. r .. " and not tgisinternal) s")
  return rows[1][1]
end

-- What advise's advice asks of a table: its secondary indexes (those drop-indexes drops),
-- unique ones, foreign keys and user triggers, counted; nil when there is no such table.
function M.facts(db, name)
  if db:query("select to_regclass(" .. lit(db:quote(name)) .. ") is not null")[1][1] ~= "t" then return nil end
  local r = lit(db:quote(name)) .. "::regclass"
  local q = db:query("select (select count(*) from pg_index i where indrelid = " .. r .. " and not indisprimary and not"
    .. " exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)), (select count(*) from pg_index where"
    .. " indrelid = " .. r .. " and indisunique and not indisprimary), (select count(*) from pg_constraint where contype"
    .. " = 'f' and conrelid = " .. r .. "), (select count(*) from pg_trigger where tgrelid = " .. r .. " and not tgisinternal)")[1]
  return { indexes = tonumber(q[1]), uniques = tonumber(q[2]), fks = tonumber(q[3]), triggers = tonumber(q[4]) }
end

-- bounds: what each strategy moves (advise names it where its run was so bound); needs: the
-- count of facts() it changes nothing without.
M["drop-indexes"] = {
  bounds = { "server-cpu", "io" },
  needs = "indexes",
  gives_up = "the table has no secondary indexes during the load (queries on it scan), and the rebuild's time is counted",
  before = function(ctx)
    ctx.state.defs = {}
    local rows = ctx.db:query("select indexrelid::regclass::text, pg_get_indexdef(indexrelid) from pg_index i where indrelid = "
      .. rel(ctx) .. " and not indisprimary and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)"
      .. " order by indexrelid")
    for _, r in ipairs(rows) do
      ctx.db:exec("drop index " .. r[1])
      ctx.state.defs[#ctx.state.defs + 1] = r[2]
    end
  end,
  after = function(ctx)
    -- the manual: a larger maintenance_work_mem speeds CREATE INDEX; 1 GB, but no more than the
    -- server can give: twice its shared_buffers (which the manual sizes at a quarter of its
    -- memory), never less than it has. A server held to 160 MB (dbctl --memory, shared_buffers
    -- 32 MB) sorts in 64 MB, where 1 GB would have it thrash or be killed (docs/scale.md).
    local mem = ctx.db:query("select least(pg_size_bytes('1GB'), greatest(pg_size_bytes("
      .. "current_setting('maintenance_work_mem')), 2 * pg_size_bytes(current_setting('shared_buffers')))) / 1024")
    ctx.db:exec(("set maintenance_work_mem = '%dkB'"):format(math.floor(tonumber(mem[1][1]))))
    for _, def in ipairs(ctx.state.defs or {}) do ctx.db:exec(def) end
    ctx.db:exec("reset maintenance_work_mem")
  end,
}

M["defer-fks"] = {
  bounds = { "server-cpu", "lock" },
  needs = "fks",
  gives_up = "rows are not checked against their parents while they load; a bad one fails VALIDATE at the end, after the load",
  before = function(ctx)
    ctx.state.fks = ctx.db:query("select conname, pg_get_constraintdef(oid) from pg_constraint where contype = 'f' and conrelid = "
      .. rel(ctx) .. " order by conname")
    for _, r in ipairs(ctx.state.fks) do
      ctx.db:exec("alter table " .. ctx.table .. " drop constraint " .. ctx.db:quote(r[1]))
    end
  end,
  after = function(ctx)
    for _, r in ipairs(ctx.state.fks or {}) do
      local c = ctx.db:quote(r[1])
      ctx.db:exec("alter table " .. ctx.table .. " add constraint " .. c .. " " .. r[2] .. " not valid")
      ctx.db:exec("alter table " .. ctx.table .. " validate constraint " .. c)
    end
  end,
}

M["no-triggers"] = {
  bounds = { "server-cpu" },
  needs = "triggers",
  gives_up = "the table's triggers do not fire for the loaded rows (what they would have done is not done)",
  before = function(ctx)
    ctx.state.trg = ctx.db:query("select tgname from pg_trigger where tgrelid = " .. rel(ctx)
      .. " and not tgisinternal and tgenabled <> 'D'")
    for _, r in ipairs(ctx.state.trg) do
      ctx.db:exec("alter table " .. ctx.table .. " disable trigger " .. ctx.db:quote(r[1]))
    end
  end,
  after = function(ctx)
    for _, r in ipairs(ctx.state.trg or {}) do
      ctx.db:exec("alter table " .. ctx.table .. " enable trigger " .. ctx.db:quote(r[1]))
    end
  end,
}

M.unlogged = {
  bounds = { "wal" },
  gives_up = "a crash during the load empties the table; SET LOGGED after rewrites it and writes it all to WAL",
  check = function(ctx)
    local r = ctx.db:query("select relpersistence from pg_class where oid = " .. rel(ctx))
    if r[1][1] ~= "p" then return "the table is not a logged (permanent) table" end
  end,
  before = function(ctx) ctx.db:exec("alter table " .. ctx.table .. " set unlogged") end,
  after = function(ctx) ctx.db:exec("alter table " .. ctx.table .. " set logged") end,
}

-- The manual's COPY FREEZE: rows written already frozen (no later VACUUM pass to freeze
-- them), legal only into a table created or truncated in the same transaction; so one
-- session's whole load is one transaction that truncates the (empty) table first.
M.freeze = {
  gives_up = "one session, one transaction: no parallel workers, the table locked (ACCESS EXCLUSIVE) for the "
    .. "whole load, a failure anywhere rolls all of it back, and the rows are visible at once to older snapshots",
  check = function(ctx)
    if not ctx.method:match("^copy") then return "COPY FREEZE needs a copy method (copy, copy-csv, copy-binary)" end
    if ctx.threads > 1 then return "COPY FREEZE loads in one session's transaction: --threads=1" end
    local r = ctx.db:query("select exists (select from " .. ctx.table .. ")")
    if r[1][1] == "t" or r[1][1] == true then
      return "the table holds rows, and FREEZE needs it emptied in the load's transaction (TRUNCATE would lose them)"
    end
  end,
  load = function(ctx) return { first = "truncate " .. ctx.table, stream_option = "freeze" } end,
}

M["async-commit"] = {
  bounds = { "wal" },
  gives_up = "a crash may lose the last commits the load was told had succeeded (synchronous_commit = off)",
  session = { synchronous_commit = "off" },
}

return M
