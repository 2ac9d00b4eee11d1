-- bulkbench.drivers.mysql.strategies_mysql: MariaDB's and MySQL's load strategies (lua/strategy.lua says
-- the shape), after MySQL's "Bulk Data Loading for InnoDB Tables"; docs/strategies.md.
local M = {}

local function lit(s) return "'" .. s:gsub("\\", "\\\\"):gsub("'", "''") .. "'" end
local function where(name) return " table_schema = database() and table_name = " .. lit(name) end

-- Indexes (columns, uniqueness), constraints, triggers and the storage engine.
function M.signature(db, name)
  local rows = db:query("select coalesce(group_concat(x order by x separator '|'), '') from ("
    .. " select concat(index_name, ':', non_unique, ':', group_concat(column_name order by seq_in_index)) x"
    .. " from information_schema.statistics where" .. where(name) .. " group by index_name, non_unique"
    .. " union all select concat(constraint_name, ':', constraint_type) from information_schema.table_constraints where" .. where(name)
    .. " union all select concat('trigger:', trigger_name) from information_schema.triggers where event_object_schema = database()"
    .. " and event_object_table = " .. lit(name)
    .. " union all select concat('engine:', engine) from information_schema.tables where" .. where(name) .. ") s")
  return rows[1][1] or ""
end

-- What advise's advice asks of a table: its non-unique secondary indexes (those drop-indexes
-- drops), unique ones, foreign keys and triggers, counted; nil when there is no such table.
function M.facts(db, name)
  if tonumber(db:query("select count(*) from information_schema.tables where" .. where(name))[1][1]) == 0 then
    return nil
  end
  local fk = " and constraint_type = 'FOREIGN KEY'"
  local q = db:query("select (select count(distinct index_name) from information_schema.statistics where" .. where(name)
    .. " and non_unique = 1 and index_name not in (select constraint_name from information_schema.table_constraints"
    .. " where" .. where(name) .. fk .. ")), (select count(distinct index_name) from information_schema.statistics where"
    .. where(name) .. " and non_unique = 0 and index_name <> 'PRIMARY'), (select count(*) from"
    .. " information_schema.table_constraints where" .. where(name) .. fk .. "), (select count(*) from"
    .. " information_schema.triggers where event_object_schema = database() and event_object_table = " .. lit(name) .. ")")[1]
  return { indexes = tonumber(q[1]), uniques = tonumber(q[2]), fks = tonumber(q[3]), triggers = tonumber(q[4]) }
end

-- bounds: what each strategy moves (advise names it where its run was so bound); needs: the
-- count of facts() it changes nothing without.
M["drop-indexes"] = {
  bounds = { "server-cpu", "io" },
  needs = "indexes",
  gives_up = "the table has no secondary indexes during the load (queries on it scan), and the rebuild's time is counted",
  before = function(ctx)
    -- non-unique secondary indexes, less those a foreign key is named after (InnoDB needs them)
    local rows = ctx.db:query("select index_name, group_concat(concat('`', column_name, '`',"
      .. " coalesce(concat('(', sub_part, ')'), '')) order by seq_in_index) from information_schema.statistics"
      .. " where" .. where(ctx.name) .. " and non_unique = 1 and index_name not in (select constraint_name from"
      .. " information_schema.table_constraints where" .. where(ctx.name) .. " and constraint_type = 'FOREIGN KEY')"
      .. " group by index_name order by index_name")
    ctx.state.idx = rows
    if #rows == 0 then return end
    local drops = {}
    for i, r in ipairs(rows) do drops[i] = "drop index " .. ctx.db:quote(r[1]) end
    ctx.db:exec("alter table " .. ctx.table .. " " .. table.concat(drops, ", "))
  end,
  after = function(ctx)
    local adds = {}
    for i, r in ipairs(ctx.state.idx or {}) do adds[i] = "add index " .. ctx.db:quote(r[1]) .. " (" .. r[2] .. ")" end
    if #adds > 0 then ctx.db:exec("alter table " .. ctx.table .. " " .. table.concat(adds, ", ")) end
  end,
}

M["no-unique-checks"] = {
  bounds = { "server-cpu", "io" },
  needs = "uniques",
  gives_up = "InnoDB may not check secondary unique keys while loading: duplicates can get in unnoticed (unique_checks = 0)",
  session = { unique_checks = "0" },
}

M["no-fk-checks"] = {
  bounds = { "server-cpu" },
  needs = "fks",
  gives_up = "rows are not checked against their parents, then or later: orphans stay (foreign_key_checks = 0)",
  session = { foreign_key_checks = "0" },
}

M["no-binlog"] = {
  bounds = { "wal" },
  gives_up = "the loaded rows are not in the binary log: replicas and point-in-time recovery do not get them (sql_log_bin = 0)",
  session = { sql_log_bin = "0" },
  check = function(ctx) -- needs SUPER or BINLOG ADMIN: try it on the runner's own session
    local ok, e = pcall(ctx.db.exec, ctx.db, "set session sql_log_bin = 0")
    if not ok then return "setting sql_log_bin needs SUPER or BINLOG ADMIN (" .. tostring(e):gsub("\n.*", "") .. ")" end
    ctx.db:exec("set session sql_log_bin = 1")
  end,
}

M["disable-keys"] = {
  bounds = { "server-cpu", "io" },
  needs = "indexes",
  gives_up = "non-unique indexes are not maintained during the load and are rebuilt after (Aria/MyISAM), time counted",
  check = function(ctx)
    local r = ctx.db:query("select engine from information_schema.tables where" .. where(ctx.name))
    local e = r[1] and r[1][1] or "?"
    if e ~= "Aria" and e ~= "MyISAM" then return "ALTER TABLE ... DISABLE KEYS does nothing on " .. e .. " (Aria/MyISAM only)" end
  end,
  before = function(ctx) ctx.db:exec("alter table " .. ctx.table .. " disable keys") end,
  after = function(ctx) ctx.db:exec("alter table " .. ctx.table .. " enable keys") end,
}

return M
