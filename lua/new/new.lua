-- bulkbench.new.new: `bulkbench new` — a scenario written from what exists: a live table (or
-- several, parents first) read from the engine's catalog and statistics, or a CSV/TSV file
-- read by runtime/core/load/csvinfer.c. The scenario it writes runs as written: into a scratch
-- copy of the table (lua/scratch.lua), or --into an existing one.
local core = require "bulkbench.core"
local util = require "bulkbench.new.catalog_util"
local law = require "bulkbench.new.law"
local keys = require "bulkbench.keys"
local schema = require "bulkbench.schema"
local dialects = require "bulkbench.dialects"
local observed = require "bulkbench.new.observed"
local M = {}


-- A DSN as it may be shown: no password.
local function shown(dsn)
  if not dsn or dsn == "" then return nil end
  return (dsn:gsub("^(%a[%w+.-]*://[^:/@]*):[^@]*@", "%1:***@"):gsub("([Pp][Ww][Dd]%s*=)[^;]*", "%1***")
    :gsub("([Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]%s*=)%s*[^%s;]*", "%1***"))
end

-- A word as a POSIX shell reads it back: as it is when it holds nothing the shell treats
-- specially, else in single quotes (a quote inside as '\''), so printed commands run as printed.
local function shq(w)
  w = tostring(w)
  if w ~= "" and not w:find("[^%w_%-%./:=@%%+,]") then return w end
  return "'" .. w:gsub("'", "'\\''") .. "'"
end
M.shq = shq

local function ident(name, used)
  local id = name:gsub("[^%w_]", "_")
  if id:match("^%d") or id == "bb" then id = "t_" .. id end
  local base, k = id, 1
  while used[id] do k = k + 1; id = base .. "_" .. k end
  used[id] = true
  return id
end

-- Parents before children among the tables read (a table's references to itself or to
-- tables not read do not order anything); a cycle keeps the catalog's order for its tables.
local function parents_first(models)
  local byname, out, state = {}, {}, {}
  for _, m in ipairs(models) do byname[m.name] = m end
  local function visit(m)
    if state[m] == 2 then return end
    if state[m] == 1 then return end -- a cycle
    state[m] = 1
    for _, fk in ipairs(m.fks) do
      local _, pname = require("bulkbench.scratch").split(fk.references)
      local p = byname[pname]
      if p and p ~= m then visit(p) end
    end
    state[m] = 2
    out[#out + 1] = m
  end
  for _, m in ipairs(models) do visit(m) end
  return out
end

local function src_list(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = law.q(v) end
  return "{ " .. table.concat(out, ", ") .. " }"
end

-- A generator whose arguments span lines (long lists of values) as one line naming them in
-- the scenario's `lists`, so that each column is one line an edit can replace; the
-- statement that puts them there goes to hoisted.
local function one_line(gen, key, hoisted)
  if not gen or not gen:find("\n", 1, true) then return gen end
  local kind, args = gen:match("^(bb%.[%w_]+)%s*(%b{})$")
  if not kind then return gen end
  hoisted[#hoisted + 1] = ("lists[%s] = %s"):format(law.q(key), (args:gsub("\n    ", "\n")))
  return ("%s(lists[%s])"):format(kind, law.q(key))
end

-- Column c's lines of the declaration (its comment, a warning, its entry) into lines; what the
-- summary counts into stats; g: its generator's fields (law.column).
local function column_lines(m, c, g, lines, stats, hoisted)
  local I = "  "
  local head = ("%s %s%s"):format(c.name, c.declared or c.type, c.not_null and " NOT NULL" or "")
  lines[#lines + 1] = ("%s-- %s: %s"):format(I, head, g.comment or "")
  if g.warning then
    stats.warn[#stats.warn + 1] = m.name .. ": " .. g.warning
    lines[#lines + 1] = I .. "-- WARNING: " .. g.warning
  end
  if g.skip then
    lines[#lines + 1] = ("%s-- { %s, %s },"):format(I, law.q(c.name), law.q(c.type))
    return
  end
  local fields = {}
  if g.gen then fields[#fields + 1] = one_line(g.gen, m.name .. "." .. c.name, hoisted) end
  if g.null then fields[#fields + 1] = "null = " .. law.num(math.floor(g.null * 1e6 + 0.5) / 1e6) end
  if c.not_null then fields[#fields + 1] = "not_null = true" end
  if c.identity then fields[#fields + 1] = "auto_increment = true" end
  if c.default and not c.identity then fields[#fields + 1] = "default = " .. law.q(c.default) end
  if g.as then fields[#fields + 1] = "as = " .. law.q(g.as) end
  if g.as_text then fields[#fields + 1] = "as_text = true" end
  if g.key then fields[#fields + 1] = "key = true" end
  lines[#lines + 1] = I .. ("{ %s, %s%s },"):format(law.q(c.name), law.q(c.type), #fields > 0 and (", " .. table.concat(fields, ", ")) or "")
  if g.gen then stats.gen = stats.gen + 1 else stats.server = stats.server + 1 end
end

-- The declaration's lines after the columns: the rows it can take, keys, CHECKs, foreign
-- keys and the value sets a run reads.
local function table_lines(m, gens, lines)
  local I = "  "
  local cap, why = keys.table_limit(gens)
  if cap then
    m.max_rows = { cap, why }
    lines[#lines + 1] = ("%smax_rows = { %s, %s }, -- more rows than this fail before loading"):format(I, law.num(cap), law.q(why))
  end
  if #m.pk > 0 then lines[#lines + 1] = I .. "primary_key = " .. src_list(m.pk) .. "," end
  if #m.uniques > 0 then
    local u = {}
    for i, k in ipairs(m.uniques) do u[i] = src_list(k) end
    lines[#lines + 1] = I .. "unique = { " .. table.concat(u, ", ") .. " },"
  end
  if #m.checks > 0 then
    local ck = {}
    for i, c in ipairs(m.checks) do ck[i] = law.q(c.sql) end
    lines[#lines + 1] = I .. "checks = { " .. table.concat(ck, ", ") .. " },"
    for _, sql in ipairs(m.checks_other or {}) do
      lines[#lines + 1] = I .. "-- CHECK " .. sql .. " is not of range or IN-list form: its columns' values come from what the table holds"
    end
  end
  if #m.fks > 0 then
    lines[#lines + 1] = I .. "foreign_keys = {"
    for _, fk in ipairs(m.fks) do
      lines[#lines + 1] = ("%s  { columns = %s, references = %s, ref_columns = %s, set = %s%s },"):format(I,
        src_list(fk.columns), law.q(fk.out_ref), src_list(fk.ref_columns), law.q(fk.set), keys.fk_fields(fk, I .. "    "))
    end
    lines[#lines + 1] = I .. "},"
  end
  for _, l in ipairs(observed.table_src(m, I, law.q, law.pairs_src)) do lines[#lines + 1] = l end
end

-- The bb.table declaration of m, and what the summary says of it; true third when long lists
-- of its went above it (the scenario then declares `lists`).
local function declare(m, var, inset)
  local r = require("bulkbench.new.keyplan").plan(m)
  local lines, stats, hoisted = {}, { gen = 0, server = 0, warn = {} }, {}
  lines[#lines + 1] = ("local %s = bb.table %s {"):format(var, law.q(m.name))
  lines[#lines + 1] = ("  like = %s, rows = %s,"):format(law.q(m.qname), law.num(m.rows or 0))
  for _, fk in ipairs(m.fks) do
    local _, pname = require("bulkbench.scratch").split(fk.references)
    fk.out_ref = inset[pname] and pname or fk.references
  end
  local gens = {}
  for _, c in ipairs(m.columns) do
    gens[#gens + 1] = law.column(m, c, r[c.name], "    ")
    column_lines(m, c, gens[#gens], lines, stats, hoisted)
  end
  table_lines(m, gens, lines)
  lines[#lines + 1] = "}"
  if #hoisted > 0 then
    table.insert(hoisted, 1, ("-- the long lists %s's columns draw from (each column's line below names its own)"):format(m.name))
    hoisted[#hoisted + 1] = ""
    return table.concat(hoisted, "\n") .. "\n" .. table.concat(lines, "\n"), stats, true
  end
  return table.concat(lines, "\n"), stats
end

-- Reads the statistics a table lacks from a sample of its rows.
local function sample(db, cat, m, n)
  local want, fkcol = {}, {}
  for _, fk in ipairs(m.fks) do if #fk.columns == 1 then fkcol[fk.columns[1]] = true end end
  for _, c in ipairs(m.columns) do
    local st = m.stats[c.name]
    -- a one-column foreign key's references weigh the parent's keys: they need most common values
    local refs = fkcol[c.name] and not (st and #(st.mcv or {}) > 0)
    -- (a binary column's values only for their distinct count: its law is its lengths, lua/new/observed.lua)
    if (not st or refs) and not c.generated and not c.identity then want[#want + 1] = c.name end
  end
  if #want == 0 or n <= 0 then return end
  local rows = util.q(db, "a sample of " .. m.qname, cat.sample_sql(db, m, want, n))
  if #rows == 0 then
    m.notes[#m.notes + 1] = "the table holds no rows: its columns' values come from their types alone"
    return
  end
  util.sample_stats(m, want, rows, ("a sample of %d rows"):format(#rows))
  local what = ("a sample of %d rows"):format(#rows)
  m.stats_source = m.stats_source and (m.stats_source .. "; " .. what .. " for " .. #want .. " columns") or what
end

local function header(models, opts, path, source_line)
  local e = opts.engine
  local run = ("bulkbench run %s --engine=%s%s --rows=%d"):format(path and shq(path) or "SCENARIO.lua", e,
    shown(opts.dsn) and (" --dsn=" .. shq(shown(opts.dsn))) or "", opts.rows)
  local out = {
    ("-- %s: %s, scaffolded by `bulkbench new` on %s."):format(
      #models == 1 and models[1].name or (#models .. " tables"), source_line, os.date("!%Y-%m-%d")),
    "--",
    "-- It loads into a scratch copy of each table (the same columns, keys, indexes and constraints;",
    "-- foreign keys point at copies of the parents' keys), dropped after the run, whatever happens:",
    "--   " .. run,
  }
  if #models == 1 then
    out[#out + 1] = "-- or into an existing table, which is neither dropped nor truncated (rows verified: its growth):"
    out[#out + 1] = "--   " .. run .. " --into=TABLE"
  else
    out[#out + 1] = "-- --rows is shared among the tables by the rows each holds; parents load before children."
  end
  out[#out + 1] = "-- Each column says where its generator came from: read it, edit it, share it."
  return table.concat(out, "\n")
end

local function write(path, text)
  local f, err = io.open(path, "w")
  if not f then core.fail("cannot write " .. path .. ": " .. tostring(err)) end
  f:write(text)
  f:close()
end

-- The scenario's text for models (parents first) and the warnings it holds.
local function scenario(models, opts, path, source_line, describe)
  local used, inset, parts, warn, lists = { lists = true }, {}, {}, {}, false
  for _, m in ipairs(models) do inset[m.name] = true end
  keys.link(models)
  local vars, tables = {}, {}
  for _, m in ipairs(models) do -- (declared first: the rows the tables can take bound the default)
    local notes = {}
    for _, n in ipairs(m.notes) do notes[#notes + 1] = "-- note: " .. n .. "\n" end
    local var = ident(m.name, used)
    vars[#vars + 1] = var
    local text, st, hoisted = declare(m, var, inset)
    lists = lists or hoisted
    tables[#tables + 1] = table.concat(notes) .. text .. "\n"
    for _, w in ipairs(st.warn) do warn[#warn + 1] = w end
    for _, w in ipairs(m.warnings) do warn[#warn + 1] = w end
  end
  local total = 0
  for _, m in ipairs(models) do total = total + math.max(m.rows or 0, 1) end
  opts.rows = opts.rows or keys.fit_rows(models, #models > 1 and math.max(total, 1000) or math.max(models[1].rows or 0, 10000))
  parts[#parts + 1] = header(models, opts, path, source_line)
  parts[#parts + 1] = 'local bb = require "bulkbench"\n' .. (lists and "local lists = {}\n" or "")
  parts[#parts + 1] = "bb.describe [[" .. describe .. "]]"
  -- each engine's own bulk path, from the engines' descriptors (bb.default_methods)
  parts[#parts + 1] = ("bb.defaults { rows = %d, method = bb.default_methods() }\n"):format(opts.rows)
  for _, text in ipairs(tables) do parts[#parts + 1] = text end
  if #models == 1 then parts[#parts + 1] = ("bb.load(%s)\n"):format(vars[1])
  else parts[#parts + 1] = ("bb.load_all { %s }\n"):format(table.concat(vars, ", ")) end
  return table.concat(parts, "\n"), warn
end

local function finish(text, warn, opts, what)
  local out = {}
  if opts.o then
    write(opts.o, text)
    out[#out + 1] = ("wrote %s: %s"):format(opts.o, what)
    out[#out + 1] = ("run it:  bulkbench run %s --engine=%s%s --rows=%d"):format(shq(opts.o), opts.engine,
      shown(opts.dsn) and (" --dsn=" .. shq(shown(opts.dsn))) or "", opts.rows)
    return table.concat(out, "\n") .. "\n", warn
  end
  return text, warn
end

-- The empty parents of models' references, read (model) and added to them, parents first: a
-- parent that holds no rows has no keys to draw from, so the scenario loads it too (its values
-- from its types alone) and runs as written.
local function add_empty_parents(db, cat, models, model)
  local have = {}
  for _, m in ipairs(models) do have[m.qname] = true end
  repeat
    local added = false
    for _, m in ipairs(models) do
      for _, fk in ipairs(m.fks) do
        if fk.parent_rows == 0 and not have[fk.references] then
          local pm = model(cat.resolve(db, fk.references)[1])
          pm.notes[#pm.notes + 1] = ("loaded with %s, which references it: it holds no rows, so there are no keys to draw from"):format(m.name)
          have[fk.references], have[pm.qname] = true, true
          models[#models + 1] = pm
          added = true
        end
      end
    end
    if added then
      models = parents_first(models)
      for _, m in ipairs(models) do for _, fk in ipairs(m.fks) do fk.parent_rows = nil end end
      keys.parent_rows(db, cat, models)
    end
  until not added
  return models
end

-- The file's first line (what it is of, its rows and how they were counted, its statistics),
-- and the scenario's description.
local function source_of(models, opts)
  local names, rows, how = {}, 0, nil
  for _, m in ipairs(models) do
    names[#names + 1] = m.name
    rows = rows + (m.rows or 0)
    if m.rows_how and m.rows_how ~= "counted" then how = m.rows_how elseif m.rows_how and not how then how = "counted" end
  end
  local m1 = models[1]
  local line = ("rows like %s on %s (%s rows%s; statistics: %s)"):format(
    #models == 1 and m1.qname or table.concat(names, ", "), m1.server or opts.engine, law.num(rows),
    how and (", " .. how) or "", m1.stats_source or "none")
  local describe = ("Rows shaped like %s (%s), loaded into scratch copies: bulkbench new --engine=%s --table=%s"):format(
    table.concat(names, ", "), m1.server or opts.engine, opts.engine, shq(opts.table))
  return line, describe, names
end

-- bulkbench new --engine=E --dsn=D --table=NAME[,NAME|PATTERN%] [-o FILE] [--sample=N]
function M.from_tables(opts)
  local cat = require("bulkbench.engines").module(opts.engine, "catalog_lua")
  if not cat then
    core.usage_error(("new reads the catalogs of %s, not %s"):format(dialects.with_catalogs(core.engines()), opts.engine))
  end
  local okc, db = pcall(core.connect, opts.engine, opts.dsn)
  if not okc then core.fail((tostring(db):gsub("^.-:%d+: ", ""))) end
  require("bulkbench.scratch").report_orphans(db)
  local tabs = cat.resolve(db, opts.table)
  if #tabs == 0 then
    local near = require("bulkbench.scratch").nearest(db, opts.table:gsub("%%", ""))
    core.fail(("no table matches %s%s"):format(opts.table, #near > 0 and ("; did you mean " .. table.concat(near, ", ") .. "?") or ""))
  end
  local function model(tab) -- what new reads of one table: catalog, CHECKs, statistics, values
    local m = cat.read(db, tab)
    util.read_checks(m)
    sample(db, cat, m, opts.sample or 30000)
    observed.read(db, cat, m, opts.sample or 30000)
    return m
  end
  local models = {}
  for _, tab in ipairs(tabs) do models[#models + 1] = model(tab) end
  models = parents_first(models)
  keys.parent_rows(db, cat, models)
  models = add_empty_parents(db, cat, models, model)
  local source_line, describe, names = source_of(models, opts)
  local text, warn = scenario(models, opts, opts.o, source_line, describe)
  db:close()
  opts.models = models -- for --check
  local cols = 0
  for _, m in ipairs(models) do cols = cols + #m.columns end
  return finish(text, warn, opts, ("%d table%s (%s), %d columns; parents first"):format(#models, #models > 1 and "s" or "",
    table.concat(names, ", "), cols))
end

-- ---- a file ----

local csv_kinds = { bool = "bool", int = "int", decimal = "numeric", double = "double", date = "date",
                    timestamp = "timestamp", uuid = "uuid", text = "text", empty = "text" }

-- The SQL type of an inferred column for a dialect (its descriptor's file_types, else the
-- standard's spellings).
local function file_type(c, dialect)
  local t = c.type
  local ft = function(field) return dialects.file_type(dialect, field) end
  if t == "int" then -- a key (increasing) keeps room for a file scaled up: integer at least
    if c.imin >= -32768 and c.imax <= 32767 and not c.increasing then return "smallint" end
    if c.imin >= -2147483648 and c.imax <= 2147483647 then return "integer" end
    return "bigint"
  elseif t == "decimal" then return ("numeric(%d,%d)"):format(math.max(c.int_digits + c.frac_digits, 1), c.frac_digits)
  elseif t == "double" then return ft("double")
  elseif t == "bool" then return ft("bool") and ft("bool")(c) or "boolean"
  elseif t == "date" then return "date"
  elseif t == "timestamp" then return ft("timestamp") and ft("timestamp")(c) or "timestamp"
  elseif t == "uuid" then return ft("uuid")
  end
  local n = math.max(c.max_len, 1)
  if n <= ft("varchar_max") then return ("varchar(%d)"):format(n) end
  return "text"
end

-- A file's name as a table's: its base name without extensions, lower case, [a-z0-9_].
local function table_name(path)
  local base = path:match("([^/]+)$"):gsub("%.gz$", ""):gsub("%.zst$", ""):gsub("%.[^.]*$", "")
  local name = base:lower():gsub("[^%w_]", "_")
  if name == "" or name:match("^%d") then name = "t_" .. name end
  return name
end

-- bulkbench new FILE.csv|FILE.tsv [--header] [--engine=E] [-o FILE.lua]: the CREATE TABLE
-- (stdout) and a scenario of rows like the file's, whose description has the file's own load.
-- A file's header as column names a CREATE TABLE takes: without the UTF-8 byte order mark an
-- editor left before the first, none empty, none twice (case aside: x, x_2, ...), none longer
-- than the engine's identifiers may be (cut, and told apart again).
-- s cut to room bytes: never inside a character, and never ending in a space (MariaDB
-- refuses a name that does: error 1166), nor empty.
local function ident_cut(s, room)
  if not room or #s <= room then return s end
  local cut = s:sub(1, room)
  while #cut > 0 and cut:byte(#cut) >= 128 and cut:byte(#cut) < 192 do cut = cut:sub(1, -2) end -- not inside a character
  if #cut > 0 and cut:byte(#cut) >= 192 then cut = cut:sub(1, -2) end
  cut = cut:gsub("%s+$", "")
  return cut ~= "" and cut or "c"
end
M.ident_cut = ident_cut

local function column_names(cols, max_len)
  local out, seen = {}, {}
  for i, c in ipairs(cols) do
    local n = tostring(c.name or "")
    if i == 1 then n = n:gsub("^\239\187\191", "") end
    if n:match("^%s*$") then n = "c" .. i end
    n = n:gsub("%s+$", "") -- a header's trailing blanks are no part of the name
    local function cut(s, room) return max_len and ident_cut(s, room) or s end
    local base, k = cut(n, max_len), 1
    n = base
    while seen[n:lower()] do
      k = k + 1
      local tag = "_" .. k
      n = cut(base, max_len and max_len - #tag) .. tag
    end
    seen[n:lower()] = true
    out[i] = n
  end
  return out
end

function M.from_file(opts, info)
  local dialect = dialects.engine(opts.engine).file_dialect or opts.engine
  local name = ident_cut(table_name(info.path), dialects.of(dialect).max_ident)
  local m = util.model(opts.engine, name, name)
  m.rows = info.rows
  local nullable = {}
  local names = column_names(info.columns, dialects.of(dialect).max_ident)
  for i, c in ipairs(info.columns) do
    c.name = names[i]
    local col = { name = c.name, kind = csv_kinds[c.type], not_null = c.nulls == 0 and c.values > 0 }
    local kind
    col.type, kind = file_type(c, dialect)
    col.kind = kind or col.kind
    col.declared = col.type
    if c.type == "decimal" then col.precision, col.scale = math.max(c.int_digits + c.frac_digits, 1), c.frac_digits end
    if col.kind == "text" then col.length = math.max(c.max_len, 1) end
    if col.kind == "int" then col.range = { c.imin, c.imax } end
    col.key_hint = c.increasing and c.type == "int" -- every value above the last: a key, made in order
    m.columns[i] = col
    nullable[i] = c.name
  end
  util.sample_stats(m, nullable, info.sample, ("the file (%d rows, a sample of %d)"):format(info.rows, #info.sample))
  for _, c in ipairs(m.columns) do
    local st = m.stats[c.name]
    if st and #info.sample == info.rows then st.source = ("the file's %d rows"):format(info.rows) end
    if st and c.not_null then st.null_frac = 0 end
    c.range = nil -- the file's range is the law's business, not a bound
  end
  local t = { name = name, columns = {} }
  for i, c in ipairs(m.columns) do t.columns[i] = { name = c.name, type = c.type, not_null = c.not_null } end
  local ddl = table.concat(schema.ddl(t, core.dialect(dialect)), ";\n") .. ";\n"
  local load = ("bulkbench load %s --engine=%s --table=%s --format=%s%s%s"):format(shq(info.path), opts.engine, shq(name),
    info.tsv and "tsv" or "csv", info.header and " --header" or "", info.null ~= "" and (" --null=" .. shq(info.null)) or "")
  local describe = ("Rows like %s (%d rows, %d columns), to scale it up. Load the file itself with:\n  %s"):format(
    info.path, info.rows, #m.columns, load)
  local source_line = ("rows like %s (%d rows)"):format(info.path, info.rows)
  if not opts.o then -- the scenario goes beside, named after the table, unless that file is there
    local f = io.open(name .. ".lua")
    if f then f:close() else opts.o = name .. ".lua" end
  end
  local text, warn = scenario({ m }, opts, opts.o, source_line, describe)
  text = text:gsub("\nbb%.load%(", "\n-- the file itself:\n--   " .. load:gsub("%%", "%%%%") .. "\nbb.load(", 1)
  if opts.o then write(opts.o, text) end
  local note = ("wrote %s: %s, %d columns; the CREATE TABLE is on standard output\nload the file:  %s")
    :format(opts.o or ("nothing (%s.lua is there already: say -o FILE.lua)"):format(name), name, #m.columns, load)
  return ddl, note, warn
end

-- Called by runtime/host/lib.c: stdout text, stderr text (may be nil), warnings.
function M.main(opts, info)
  if info and info.scenario then -- new --check FILE.lua --table=T: the file as it is, against the table
    opts.o = nil
    local _, warn = M.from_tables(opts) -- what the table is (its columns, rows, the server's), no file written
    opts.o = info.path
    return require("bulkbench.new.newcheck").run(opts, opts.models), nil, warn
  end
  if info then
    local ddl, note, warn = M.from_file(opts, info)
    return ddl, note, warn
  end
  if not opts.check then
    local text, warn = M.from_tables(opts)
    return text, nil, warn
  end
  -- --check: the scenario is written (to -o, or to a file of its own removed after), run into a
  -- scratch copy, and the copy compared with the table; standard output is the comparison
  local keep = opts.o
  if not keep then
    opts.o = os.tmpname()
    os.remove(opts.o)
    opts.o = opts.o .. ".lua"
  end
  local ok, note, warn = pcall(M.from_tables, opts)
  local ok2, report = true, nil
  if ok then ok2, report = pcall(require("bulkbench.new.newcheck").run, opts, opts.models) end
  if not keep then os.remove(opts.o) end
  if not ok then error(note, 0) end
  if not ok2 then error(report, 0) end
  return report, keep and note or nil, warn
end

return M
