-- bulkbench.drivers.mysql.catalog_mysql: what MariaDB's (or MySQL's) information_schema and column
-- statistics say of a table, as the model lua/new/new.lua scaffolds from (catalog_util.lua
-- describes it): columns with their types, defaults, auto-increment, ENUM and SET labels;
-- keys, foreign keys, CHECKs; the histograms of mysql.column_stats (MariaDB: DOUBLE_PREC_HB,
-- SINGLE_PREC_HB, JSON_HB; collected by ANALYZE TABLE ... PERSISTENT FOR ALL) or
-- information_schema.COLUMN_STATISTICS (MySQL 8, singleton and equi-height).
local core = require "bulkbench.core"
local util = require "bulkbench.new.catalog_util"
local M = {}

function M.resolve(db, spec)
  local out = {}
  for _, n in ipairs(util.names(spec)) do
    local rows = util.q(db, "table " .. n.item, ("SELECT table_schema, table_name, table_rows, table_type = 'VIEW' FROM information_schema.tables "
      .. "WHERE table_schema = COALESCE(?, DATABASE()) AND table_name %s ? ORDER BY table_name"):format(n.pattern and "LIKE" or "="),
      n.schema, n.name)
    if not n.pattern and not rows[1] then
      util.elsewhere(n.item, n.schema and ("database " .. n.schema) or "this database", util.q(db, "table " .. n.item,
        "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name = ? AND table_schema "
        .. "NOT IN ('mysql', 'sys', 'information_schema', 'performance_schema') ORDER BY 1 LIMIT 3", n.name))
      util.no_table(db, n.item)
    end
    for _, r in ipairs(rows) do
      if r[4] ~= "1" then out[#out + 1] = { schema = r[1], name = r[2], rows = tonumber(r[3]) } -- a view is never a table
      elseif not n.pattern then util.a_view(n.item) end
    end
  end
  return out
end

local int_range = {
  tinyint = { -128, 127, 255 }, smallint = { -32768, 32767, 65535 }, mediumint = { -8388608, 8388607, 16777215 },
  int = { -2147483648, 2147483647, 4294967295 }, bigint = { nil, nil, nil },
}
local kinds = {
  tinyint = "int", smallint = "int", mediumint = "int", int = "int", bigint = "int", decimal = "numeric",
  float = "double", double = "double", char = "text", varchar = "text", tinytext = "text", text = "text",
  mediumtext = "text", longtext = "text", date = "date", datetime = "timestamp", timestamp = "timestamp",
  enum = "enum", set = "enum", uuid = "uuid", binary = "bytes", varbinary = "bytes", tinyblob = "bytes",
  blob = "bytes", mediumblob = "bytes", longblob = "bytes",
}

function M.read(db, tab)
  local m = util.model("mysql", tab.schema .. "." .. tab.name, tab.name)
  local cur = util.q(db, "the current database", "SELECT DATABASE(), version()")
  if cur[1] and cur[1][1] == tab.schema then m.qname = tab.name end
  util.count_rows(db, m, tab.rows, "InnoDB") -- table_rows is InnoDB's estimate: 29,598 for 30,000 rows
  m.server = ((cur[1] and cur[1][2] or ""):find("MariaDB") and "MariaDB " or "MySQL ") .. (cur[1] and cur[1][2]:match("^[%d.]+") or "?")
  local cols = util.q(db, "the columns of " .. m.qname, [[SELECT column_name, column_type, data_type, is_nullable,
      column_default, extra, character_maximum_length, numeric_precision, numeric_scale
    FROM information_schema.columns WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position]], tab.schema, tab.name)
  for _, r in ipairs(cols) do
    local ct, dt = r[2], r[3]:lower()
    local c = { name = r[1], type = ct, declared = ct, not_null = r[4] == "NO", kind = kinds[dt] or "other" }
    local extra = (r[6] or ""):lower()
    c.identity = extra:find("auto_increment", 1, true) ~= nil
    c.generated = extra:find("generated", 1, true) ~= nil and not extra:find("default_generated", 1, true)
    if r[5] and r[5] ~= "NULL" then c.default = r[5] end
    if c.kind == "text" then c.length = tonumber(r[7]) end
    if c.kind == "numeric" then c.precision, c.scale = tonumber(r[8]), tonumber(r[9]) end
    if c.kind == "enum" then c.labels = util.items(ct:match("%((.*)%)") or "") end
    if dt == "set" then c.values_why = "SET: combinations of its labels as the rows hold them" end
    local rg = int_range[dt]
    if rg and rg[1] then
      c.range = ct:find("unsigned") and { 0, rg[3] } or { rg[1], rg[2] }
    elseif dt == "bigint" and ct:find("unsigned") then
      c.range = { 0, nil }
    end
    m.columns[#m.columns + 1] = c
  end
  local keys = util.q(db, "the keys of " .. m.qname, [[SELECT tc.constraint_name, tc.constraint_type, k.column_name,
      k.referenced_table_schema, k.referenced_table_name, k.referenced_column_name
    FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k
      ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name
     AND k.table_schema = tc.table_schema AND k.table_name = tc.table_name
    WHERE tc.table_schema = ? AND tc.table_name = ? ORDER BY tc.constraint_type, tc.constraint_name, k.ordinal_position]],
    tab.schema, tab.name)
  local uniq, fks = {}, {}
  for _, r in ipairs(keys) do
    if r[2] == "PRIMARY KEY" then m.pk[#m.pk + 1] = r[3]
    elseif r[2] == "UNIQUE" then
      if not uniq[r[1]] then uniq[r[1]] = {}; m.uniques[#m.uniques + 1] = uniq[r[1]] end
      table.insert(uniq[r[1]], r[3])
    elseif r[2] == "FOREIGN KEY" then
      if not fks[r[1]] then
        fks[r[1]] = { name = r[1], columns = {}, ref_columns = {},
                      references = (r[4] == tab.schema or not r[4]) and r[5] or (r[4] .. "." .. r[5]) }
        m.fks[#m.fks + 1] = fks[r[1]]
      end
      table.insert(fks[r[1]].columns, r[3])
      table.insert(fks[r[1]].ref_columns, r[6])
    end
  end
  M.checks(db, m, tab)
  M.stats(db, m, tab)
  M.triggers(db, m, tab)
  return m
end


-- The table's CHECKs (m.checks); MariaDB's JSON columns are text with a json_valid CHECK:
-- made from the values the table holds.
function M.checks(db, m, tab)
  local ok, checks = pcall(db.query, db, "SELECT constraint_name, check_clause FROM information_schema.check_constraints "
    .. "WHERE constraint_schema = ? AND table_name = ?", tab.schema, tab.name)
  for _, r in ipairs(ok and checks or {}) do
    local json = r[2]:match("^json_valid%(`([^`]+)`%)$")
    if json then -- MariaDB's JSON: text that must parse, made from the values the table holds
      for _, c in ipairs(m.columns) do if c.name == json then c.kind = "other"; c.declared = "json" end end
    else
      m.checks[#m.checks + 1] = { name = r[1], sql = r[2] }
    end
  end
end

-- The table's triggers (named in the file), and the columns those before an insert assign
-- (SET NEW.col = ...: the server's).
function M.triggers(db, m, tab)
  util.not_copied(m, util.q(db, "the triggers of " .. m.qname, "SELECT concat('trigger ', trigger_name) FROM "
    .. "information_schema.triggers WHERE event_object_schema = ? AND event_object_table = ? ORDER BY 1", tab.schema, tab.name))
  util.trigger_writes(m, util.q(db, "the triggers of " .. m.qname, "SELECT trigger_name, action_statement FROM "
    .. "information_schema.triggers WHERE event_object_schema = ? AND event_object_table = ? AND action_timing = 'BEFORE' "
    .. "AND event_manipulation = 'INSERT' ORDER BY 1", tab.schema, tab.name))
end

local function unhex(h)
  return (h:gsub("%x%x", function(x) return string.char(tonumber(x, 16)) end))
end

-- MariaDB places a temporal value in [min, max] by its number, YYYYMMDD[hhmmss]: the
-- positions are linear in that, not in time.
local function packed(s)
  local y, mo, d, h, mi, se = s:match("^(%d+)-(%d+)-(%d+)[ T]?(%d*):?(%d*):?(%d*)")
  if not y then return nil end
  return ((tonumber(y) * 100 + tonumber(mo)) * 100 + tonumber(d)) * 1000000
    + ((tonumber(h) or 0) * 100 + (tonumber(mi) or 0)) * 100 + (tonumber(se) or 0)
end

-- The first instant whose number is at least v (a number between two instants' may name no
-- day: 2024-02-45 is read as March 1st), as text.
local function unpacked(v, date_only)
  v = math.ceil(v)
  local se, mi, h = v % 100, math.floor(v / 100) % 100, math.floor(v / 10000) % 100
  local d, mo, y = math.floor(v / 1e6) % 100, math.floor(v / 1e8) % 100, math.floor(v / 1e10)
  if se > 59 then se, mi = 0, mi + 1 end
  if mi > 59 then mi, h = 0, h + 1 end
  if h > 23 then h, d = 0, d + 1 end
  if mo == 0 then mo, d = 1, 1 end
  if mo > 12 then y, mo, d = y + 1, 1, 1 end
  local last = os.date("*t", os.time { year = y, month = mo + 1, day = 0, hour = 12 }).day
  if d == 0 then d = 1 end
  if d > last then
    d, mo = 1, mo + 1
    if mo > 12 then y, mo = y + 1, 1 end
    h, mi, se = 0, 0, 0
  end
  if date_only then return ("%04d-%02d-%02d"):format(y, mo, d) end
  return ("%04d-%02d-%02d %02d:%02d:%02d"):format(y, mo, d, h, mi, se)
end

-- Interpolates a fraction of [lo, hi] for column c's kind (numbers, dates, timestamps).
local function between(c, lo, hi, f)
  local a, b = tonumber(lo), tonumber(hi)
  if a and b then
    local v = a + f * (b - a)
    if c.kind == "int" then return ("%.0f"):format(math.floor(v + 0.5)) end -- %d wraps past 2^63
    if c.kind == "numeric" then return ("%." .. (c.scale or 0) .. "f"):format(v) end
    return ("%.17g"):format(v)
  end
  local pa, pb = packed(lo), packed(hi)
  if not (pa and pb) then return nil end
  return unpacked(pa + f * (pb - pa), c.kind == "date")
end

-- A binary histogram: hist_size bytes of 1- or 2-byte positions of the buckets' ends between
-- min and max, every bucket an equal share of the rows. Also how many buckets end on the
-- position their predecessor ends on (zero-width: a value of their own).
local function binary_hist(c, hex, width, lo, hi)
  local bytes, bounds, same, prev = unhex(hex), { lo }, 0, 0
  for i = 1, #bytes - width + 1, width do
    local v = width == 2 and (bytes:byte(i) + 256 * bytes:byte(i + 1)) / 65535 or bytes:byte(i) / 255
    local b = between(c, lo, hi, v)
    if not b then return nil end
    if v == prev then same = same + 1 end
    prev = v
    bounds[#bounds + 1] = b
  end
  bounds[#bounds + 1] = hi
  return bounds, same
end

-- Whether a binary histogram whose buckets share positions still tells the values apart: a
-- position is known to 1/65535 (1/255) of [min, max]; within less than one step of the
-- column's (an integer, a day) a shared position is one value, many rows' own. Otherwise
-- (doubles, timestamps, wide ranges) it piles rows spread over the step onto one point.
local function resolves(c, width, lo, hi)
  local unit = c.kind == "int" and 1 or c.kind == "date" and 1e6 or nil
  local a, b = tonumber(lo), tonumber(hi)
  if not (a and b) then a, b = packed(lo), packed(hi) end
  return unit ~= nil and a ~= nil and b ~= nil and (b - a) / (width == 2 and 65535 or 255) < unit
end

-- JSON_HB: buckets {start, [end], size, ndv}: a bucket of one value is a most common value.
local function json_hist(st, text)
  local ok, h = pcall(core.json_decode, text)
  if not ok or type(h) ~= "table" or type(h.histogram_hb) ~= "table" then return false end
  local b = h.histogram_hb
  local nn = 1 - st.null_frac
  st.bounds, st.bound_weights, st.mcv = {}, { 0 }, {}
  local rest = 0
  for i, bucket in ipairs(b) do st.bounds[i] = tostring(bucket.start) end
  if #b == 0 then return false end
  st.bounds[#b + 1] = tostring(b[#b]["end"] or b[#b].start)
  for i, bucket in ipairs(b) do -- bucket i spans bounds i and i + 1
    local size = tonumber(bucket.size) or 0
    if tonumber(bucket.ndv) == 1 then
      st.mcv[#st.mcv + 1] = { tostring(bucket.start), size * nn }
      st.bound_weights[i + 1] = 0
    else
      rest = rest + size * nn
      st.bound_weights[i + 1] = size
    end
  end
  st.rest = rest
  table.sort(st.mcv, function(x, y) return x[2] > y[2] end)
  return true
end

-- MySQL 8's information_schema.COLUMN_STATISTICS: singleton buckets [value, cumulative
-- frequency] are most common values; equi-height [lo, hi, cumulative, ndv] a histogram.
local function mysql8_hist(st, text)
  local ok, h = pcall(core.json_decode, text)
  if not ok or type(h) ~= "table" or type(h.buckets) ~= "table" then return false end
  st.null_frac = tonumber(h["null-values"]) or st.null_frac or 0
  local prev, nn = 0, 1 - st.null_frac
  st.mcv, st.bounds, st.bound_weights = {}, {}, {}
  if h["histogram-type"] == "singleton" then
    for _, bk in ipairs(h.buckets) do
      st.mcv[#st.mcv + 1] = { tostring(bk[1]), (bk[2] - prev) * nn }
      prev = bk[2]
    end
    st.rest = 0
  else
    for i, bk in ipairs(h.buckets) do
      if i == 1 then st.bounds[1] = tostring(bk[1]); st.bound_weights[1] = 0 end
      st.bounds[#st.bounds + 1] = tostring(bk[2])
      st.bound_weights[#st.bounds] = (bk[3] - prev)
      prev = bk[3]
    end
    st.rest = nn
  end
  return true
end

function M.stats(db, m, tab)
  local bycol = {}
  for _, c in ipairs(m.columns) do bycol[c.name] = c end
  local ok, rows = pcall(db.query, db, [[SELECT column_name, min_value, max_value, nulls_ratio, avg_length, hist_type,
      hist_size, HEX(histogram), histogram, avg_frequency FROM mysql.column_stats WHERE db_name = ? AND table_name = ?]], tab.schema, tab.name)
  if not ok then
    m.notes[#m.notes + 1] = "mysql.column_stats could not be read (" .. tostring(rows):gsub("^.-:%d+: ", "") .. "): values come from a sample"
    rows = {}
  end
  local used = 0
  for _, r in ipairs(rows) do
    local c, st = bycol[r[1]], nil
    local kind = r[6]
    if c and r[8] and r[8] ~= "" and kind then
      st = { source = "mysql.column_stats (" .. kind .. ")", null_frac = tonumber(r[4]) or 0, avg_width = tonumber(r[5]) }
      local freq = tonumber(r[10]) -- rows per distinct value: pg's n_distinct, as a share of the rows
      if freq and freq > 0 then st.n_distinct = -(1 - st.null_frac) / freq end
      local done = false
      if kind == "JSON_HB" then done = json_hist(st, r[9])
      elseif (kind == "DOUBLE_PREC_HB" or kind == "SINGLE_PREC_HB") and r[2] and r[3]
          and (c.kind == "int" or c.kind == "numeric" or c.kind == "double" or c.kind == "date" or c.kind == "timestamp") then
        local width, same = kind == "DOUBLE_PREC_HB" and 2 or 1, 0
        st.bounds, same = binary_hist(c, r[8], width, r[2], r[3])
        st.mcv, st.rest = {}, 1 - st.null_frac
        done = st.bounds ~= nil
        if done and same > 0 and not resolves(c, width, r[2], r[3]) then -- a sample tells them apart
          done = false
          m.notes[#m.notes + 1] = ("%s: %d of the %d buckets of its %s histogram end where the one before does (its "
            .. "positions are too coarse for the values): its law comes from a sample"):format(c.name, same, #st.bounds - 1, kind)
        end
      end
      if done then m.stats[c.name] = st; used = used + 1 end
    end
  end
  if used == 0 then -- MySQL 8 keeps its histograms elsewhere
    local ok8, h = pcall(db.query, db, "SELECT column_name, histogram FROM information_schema.column_statistics "
      .. "WHERE schema_name = ? AND table_name = ?", tab.schema, tab.name)
    for _, r in ipairs(ok8 and h or {}) do
      local st = { source = "information_schema.column_statistics" }
      if bycol[r[1]] and mysql8_hist(st, r[2]) then m.stats[r[1]] = st; used = used + 1 end
    end
  end
  if used > 0 then m.stats_source = ("histograms of %d columns"):format(used) end
end

-- A sample of n rows: a random share of the table when it is much larger than n.
function M.sample_sql(db, m, cols, n)
  local list = {}
  for i, c in ipairs(cols) do list[i] = db:quote(c) end
  local where = ""
  if m.rows and m.rows > 10 * n then where = (" WHERE RAND() < %.8f"):format(math.min(1, 1.5 * n / m.rows)) end
  return ("SELECT %s FROM %s%s LIMIT %d"):format(table.concat(list, ", "), util.qualified(db, m.qname), where, n)
end

-- exprs (SQL) of a random sample of about n rows, those where `where` holds
-- (lua/new/observed.lua): the whole table when it holds no more, else a random share of it.
function M.values_sql(db, m, exprs, n, where)
  local w = { where }
  if m.rows and m.rows > n then w[#w + 1] = ("RAND() < %.8f"):format(n / m.rows) end
  return ("SELECT %s FROM %s%s LIMIT %d"):format(table.concat(exprs, ", "), util.qualified(db, m.qname),
    #w > 0 and (" WHERE " .. table.concat(w, " AND ")) or "", n)
end

-- A value's length in characters and in bytes, and its first 64 characters, as SQL.
function M.length_exprs(db, col, kind)
  local q = db:quote(col)
  if kind == "bytes" then return ("OCTET_LENGTH(%s)"):format(q), ("OCTET_LENGTH(%s)"):format(q), nil end
  return ("CHAR_LENGTH(%s)"):format(q), ("OCTET_LENGTH(%s)"):format(q), ("LEFT(%s, 64)"):format(q)
end

-- Sessions the server takes and those open now (advise checks its threads against them).
function M.sessions(db)
  local r = db:query("SELECT @@max_connections, (SELECT count(*) FROM information_schema.processlist)")[1]
  return tonumber(r[1]), tonumber(r[2])
end

return M
