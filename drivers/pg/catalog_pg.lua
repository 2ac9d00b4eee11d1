-- bulkbench.drivers.pg.catalog_pg: what PostgreSQL's catalog and statistics say of a table, as the
-- model lua/new/new.lua scaffolds from (the fields are described there): columns with their
-- types, defaults, identity and enum labels; keys, unique indexes, foreign keys and CHECKs;
-- pg_stats (null_frac, most common values and frequencies, histogram bounds, avg_width,
-- correlation) when the table was analyzed.
local util = require "bulkbench.new.catalog_util"
local M = {}

local SEP = "\1" -- between the column names of a key: no name holds it

local function split_names(s)
  local out = {}
  for n in (s or ""):gmatch("[^\1]+") do out[#out + 1] = n end
  return out
end

-- The tables a name or a LIKE pattern (bmsql_%) or a comma list names, in the schemas on
-- the search path unless qualified: { {schema=, name=, oid=, reltuples=} }.
function M.resolve(db, spec)
  local out = {}
  for _, n in ipairs(util.names(spec)) do
    local item = n.item
    if n.pattern then
      local rows = util.q(db, "the tables matching " .. item, [[SELECT n.nspname, c.relname, c.oid, c.reltuples
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname LIKE $1
          AND (n.nspname = $2::text OR ($2::text IS NULL AND n.nspname = ANY (current_schemas(false))))
        ORDER BY c.relname]], n.name, n.schema)
      for _, r in ipairs(rows) do out[#out + 1] = { schema = r[1], name = r[2], oid = r[3], reltuples = tonumber(r[4]) } end
    else
      -- the name as written, or folded to lower case as SQL folds a bare one; in the schema
      -- given, else the first of the search path that has it
      local fold = n.quoted and "f" or "t"
      local rows = util.q(db, "table " .. item, [[SELECT n.nspname, c.relname, c.oid, c.reltuples, c.relkind IN ('v', 'm')
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND (c.relname = $1 OR ($3::bool AND c.relname = lower($1)))
          AND (n.nspname = $2::text OR n.nspname = lower($2::text)
               OR ($2::text IS NULL AND n.nspname = ANY (current_schemas(false))))
        ORDER BY c.relname = $1 DESC, array_position(current_schemas(false), n.nspname::name) LIMIT 1]], n.name, n.schema, fold)
      if not rows[1] then
        -- in another schema than those searched: say where, and how to name it
        local other = util.q(db, "table " .. item, [[SELECT n.nspname, c.relname FROM pg_class c
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r', 'p') AND (c.relname = $1 OR c.relname = lower($1))
            AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1 LIMIT 3]], n.name)
        util.elsewhere(item, n.schema and ("schema " .. n.schema) or "the search path", other)
        util.no_table(db, item)
      end
      if rows[1][5] == "t" then util.a_view(item) end
      out[#out + 1] = { schema = rows[1][1], name = rows[1][2], oid = rows[1][3], reltuples = tonumber(rows[1][4]) }
    end
  end
  return out
end

-- How a pg type is spelled in the scenario, and how bulkbench generates it.
local known = {
  smallint = "int", integer = "int", bigint = "int", numeric = "numeric", real = "double",
  ["double precision"] = "double", boolean = "bool", text = "text", ["character varying"] = "text",
  character = "text", date = "date", ["timestamp without time zone"] = "timestamp",
  ["timestamp with time zone"] = "timestamp", uuid = "uuid", bytea = "bytes",
}
local spelled = { ["timestamp without time zone"] = "timestamp", ["timestamp with time zone"] = "timestamptz",
                  ["character varying"] = "varchar", character = "char" }

-- fmt as format_type spells it: "numeric(8,2)", "timestamp(3) without time zone" (the
-- precision inside the name), "character varying(20)[]".
local function column_type(c, fmt, typtype)
  local args = fmt:match("%((.-)%)")
  local base = fmt:gsub("%(.-%)", ""):gsub("%s+", " "):match("^%s*(.-)%s*$")
  if fmt:match("%[%]$") then base = "array" end
  local kind = known[base]
  local a, b = (args or ""):match("^(%d+)%s*,?%s*(%d*)$")
  c.type = spelled[base] and (spelled[base] .. (args and ("(" .. args .. ")") or "")) or fmt
  if kind == "text" then c.length = tonumber(a) end
  -- numeric without a precision keeps the values' own scale
  if kind == "numeric" then c.precision, c.scale = tonumber(a), args and (tonumber(b) or 0) or nil end
  if base == "smallint" then c.range = { -32768, 32767 } elseif base == "integer" then c.range = { -2147483648, 2147483647 } end
  if typtype == "e" then kind = "enum" end
  c.kind = kind or "other"
end

-- A domain's CHECKs, about column c (VALUE is the column): read like the table's own, into
-- the column's bounds or IN list; those of another form are the column's unread CHECKs.
local function domain_checks(db, c, domain, oid)
  local rows = util.q(db, "the CHECKs of domain " .. domain, [[SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
    WHERE contypid = $1::oid AND contype = 'c' ORDER BY conname]], oid)
  if #rows == 0 then return end
  local name = c.name:match("^[%a_][%w_]*$") and c.name or ('"' .. c.name:gsub('"', '""') .. '"')
  local one = { columns = { c }, checks = {} }
  for i, r in ipairs(rows) do
    local sql = (r[2]:match("^CHECK%s*(.-)%s*$") or r[2])
    -- VALUE outside quoted literals
    local parts = {}
    for lit, code in (sql .. "''"):gmatch("(.-)('[^']*')") do parts[#parts + 1] = lit:gsub("%f[%w_]VALUE%f[^%w_]", name) .. code end
    one.checks[i] = { name = r[1], sql = table.concat(parts):gsub("''$", ""), shown = ("domain %s's CHECK %s"):format(domain, sql) }
  end
  util.read_checks(one)
  for _, sql in ipairs(one.checks_other) do
    for _, ck in ipairs(one.checks) do
      if ck.sql == sql then
        c.checks_unread = c.checks_unread or {}
        c.checks_unread[#c.checks_unread + 1] = ck.shown
      end
    end
  end
end

function M.read(db, tab)
  local m = util.model("pg", tab.schema .. "." .. tab.name, tab.name)
  -- never analyzed (a fresh restore, reltuples -1): pg_class knows nothing of its rows; counted either way below the limit
  util.count_rows(db, m, tab.reltuples and tab.reltuples >= 0 and tab.reltuples or nil, "pg_class.reltuples")
  local v = util.q(db, "the server version", "SHOW server_version")
  m.server = "PostgreSQL " .. (v[1] and v[1][1]:match("^%S+") or "?")
  local cols = util.q(db, "the columns of " .. m.qname, [[SELECT a.attname,
      format_type(COALESCE(NULLIF(t.typbasetype, 0), a.atttypid), CASE WHEN t.typbasetype <> 0 THEN t.typtypmod ELSE a.atttypmod END),
      bt.typtype, a.attnotnull OR t.typnotnull, pg_get_expr(d.adbin, d.adrelid), a.attidentity, a.attgenerated,
      COALESCE(NULLIF(t.typbasetype, 0), a.atttypid), format_type(a.atttypid, a.atttypmod),
      CASE WHEN t.typtype = 'd' THEN a.atttypid END
    FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
    JOIN pg_type bt ON bt.oid = COALESCE(NULLIF(t.typbasetype, 0), a.atttypid)
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum]], tab.oid)
  for _, r in ipairs(cols) do
    local c = { name = r[1], not_null = r[4] == "t", default = r[5] }
    column_type(c, r[2], r[3])
    if r[9] ~= r[2] then c.type = r[9] end -- a domain: spelled by its own name
    if r[10] then domain_checks(db, c, r[9], r[10]) end
    c.declared = r[9]
    c.identity = r[6] ~= "" or (c.default and c.default:match("^nextval%(") ~= nil)
    c.generated = r[7] ~= ""
    if c.kind == "enum" then
      c.labels = {}
      for _, l in ipairs(util.q(db, "the labels of enum " .. r[2], "SELECT enumlabel FROM pg_enum WHERE enumtypid = $1::oid ORDER BY enumsortorder", r[8])) do
        c.labels[#c.labels + 1] = l[1]
      end
    end
    m.columns[#m.columns + 1] = c
  end
  local cons = util.q(db, "the constraints of " .. m.qname, [[SELECT c.contype, c.conname, pg_get_constraintdef(c.oid),
      (SELECT string_agg(a.attname, chr(1) ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n),
      (SELECT string_agg(a.attname, chr(1) ORDER BY k.i) FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
         JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n),
      (SELECT n.nspname || '.' || r.relname FROM pg_class r JOIN pg_namespace n ON n.oid = r.relnamespace WHERE r.oid = c.confrelid)
    FROM pg_constraint c WHERE c.conrelid = $1::oid ORDER BY c.contype, c.conname]], tab.oid)
  for _, r in ipairs(cons) do
    local cols_ = split_names(r[4])
    if r[1] == "p" then m.pk = cols_
    elseif r[1] == "u" then m.uniques[#m.uniques + 1] = cols_
    elseif r[1] == "f" then
      m.fks[#m.fks + 1] = { name = r[2], columns = cols_, references = r[6], ref_columns = split_names(r[5]) }
    elseif r[1] == "c" then
      m.checks[#m.checks + 1] = { name = r[2], sql = r[3]:match("^CHECK%s*(.-)%s*$") or r[3] }
    end
  end
  M.unique_indexes(db, m, tab)
  M.stats(db, m, tab)
  M.triggers(db, m, tab)
  return m
end


-- Unique indexes that are not constraints still refuse duplicates: m.uniques gets them.
function M.unique_indexes(db, m, tab)
  local idx = util.q(db, "the indexes of " .. m.qname, [[SELECT i.indisunique, i.indisprimary,
      (SELECT string_agg(a.attname, chr(1) ORDER BY k.i) FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, i)
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n),
      i.indexprs IS NULL AND i.indpred IS NULL,
      (SELECT count(*) FROM pg_constraint c WHERE c.conindid = i.indexrelid)
    FROM pg_index i WHERE i.indrelid = $1::oid]], tab.oid)
  for _, r in ipairs(idx) do
    if r[1] == "t" and r[2] == "f" and r[4] == "t" and r[5] == "0" then m.uniques[#m.uniques + 1] = split_names(r[3]) end
  end
end

-- The table's triggers and rules (named in the file), and the columns its row triggers before
-- an insert (tgtype: row 1, before 2, insert 4) that are on assign (the server's).
function M.triggers(db, m, tab)
  util.not_copied(m, util.q(db, "the triggers of " .. m.qname, [[SELECT 'trigger ' || tgname FROM pg_trigger
    WHERE tgrelid = $1::oid AND NOT tgisinternal UNION ALL SELECT 'rule ' || rulename FROM pg_rules
    WHERE schemaname = $2 AND tablename = $3 ORDER BY 1]], tab.oid, tab.schema, tab.name))
  util.trigger_writes(m, util.q(db, "the triggers of " .. m.qname, [[SELECT t.tgname, p.prosrc FROM pg_trigger t
    JOIN pg_proc p ON p.oid = t.tgfoid WHERE t.tgrelid = $1::oid AND NOT t.tgisinternal AND t.tgenabled <> 'D'
      AND (t.tgtype::int & 7) = 7 ORDER BY 1]], tab.oid))
end

-- pg_stats, when the table was analyzed: one entry per column in m.stats.
function M.stats(db, m, tab)
  local ok, rows = pcall(db.query, db, [[SELECT s.attname, s.null_frac, s.avg_width, s.n_distinct, s.correlation,
      (SELECT max(greatest(last_analyze, last_autoanalyze)) FROM pg_stat_all_tables WHERE relid = $3::oid)
    FROM pg_stats s WHERE s.schemaname = $1 AND s.tablename = $2 AND NOT s.inherited]], tab.schema, tab.name, tab.oid)
  if not ok then
    m.notes[#m.notes + 1] = "pg_stats could not be read (" .. tostring(rows) .. "): values come from a sample"
    return
  end
  if #rows == 0 then return end
  m.stats_source = "pg_stats" .. (rows[1][6] and (", analyzed " .. rows[1][6]:sub(1, 16)) or "")
  for _, r in ipairs(rows) do
    m.stats[r[1]] = { source = "pg_stats", null_frac = tonumber(r[2]), avg_width = tonumber(r[3]),
                      n_distinct = tonumber(r[4]), correlation = tonumber(r[5]), mcv = {}, bounds = {} }
  end
  local vals = util.q(db, "pg_stats' values of " .. m.qname, [[
    SELECT s.attname, 'm', v.o, v.val, (s.most_common_freqs)[v.o] FROM pg_stats s,
      unnest(s.most_common_vals::text::text[]) WITH ORDINALITY v(val, o)
    WHERE s.schemaname = $1 AND s.tablename = $2 AND NOT s.inherited
    UNION ALL
    SELECT s.attname, 'h', h.o, h.val, NULL FROM pg_stats s,
      unnest(s.histogram_bounds::text::text[]) WITH ORDINALITY h(val, o)
    WHERE s.schemaname = $1 AND s.tablename = $2 AND NOT s.inherited
    ORDER BY 1, 2, 3]], tab.schema, tab.name)
  for _, r in ipairs(vals) do
    local st = m.stats[r[1]]
    if r[2] == "m" then st.mcv[#st.mcv + 1] = { r[4], tonumber(r[5]) }
    else st.bounds[#st.bounds + 1] = r[4] end
  end
end

-- A sample of n rows: TABLESAMPLE SYSTEM when the table is much larger than n.
function M.sample_sql(db, m, cols, n)
  local list = {}
  for i, c in ipairs(cols) do list[i] = db:quote(c) end
  local from = util.qualified(db, m.qname)
  if m.rows and m.rows > 10 * n then
    local pct = math.min(100, n / m.rows * 100 * 1.5)
    from = from .. (" TABLESAMPLE SYSTEM (%.6f)"):format(pct)
  end
  return ("SELECT %s FROM %s LIMIT %d"):format(table.concat(list, ", "), from, n)
end

-- exprs (SQL) of a random sample of about n rows, those where `where` holds
-- (lua/new/observed.lua): the whole table when it holds no more, else a share of its rows
-- (BERNOULLI), or of its pages when it is much larger (SYSTEM); no sort either way.
function M.values_sql(db, m, exprs, n, where)
  local from = util.qualified(db, m.qname)
  if m.rows and m.rows > n then
    from = from .. (" TABLESAMPLE %s (%.6f)"):format(m.rows > 10 * n and "SYSTEM" or "BERNOULLI", 100 * n / m.rows)
  end
  return ("SELECT %s FROM %s%s LIMIT %d"):format(table.concat(exprs, ", "), from, where and (" WHERE " .. where) or "", n)
end

-- A value's length in characters and in bytes, and its first 64 characters, as SQL.
function M.length_exprs(db, col, kind)
  local q = db:quote(col)
  if kind == "bytes" then return ("octet_length(%s)"):format(q), ("octet_length(%s)"):format(q), nil end
  return ("char_length(%s)"):format(q), ("octet_length(%s)"):format(q), ("left(%s, 64)"):format(q)
end

-- Sessions the server takes (less those kept for superusers) and those open now: how many
-- more a run may open (advise checks its threads against them before racing).
function M.sessions(db)
  local r = db:query([[SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int,
    (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')]])[1]
  return tonumber(r[1]), tonumber(r[2])
end

return M
