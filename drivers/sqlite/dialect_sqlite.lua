-- bulkbench.drivers.sqlite.dialect_sqlite: SQLite's spellings for the Lua library (lua/dialects.lua says
-- what each field means). Its types are affinities: any spelling is taken as written.

-- A scratch copy: SQLite keeps each table's CREATE text, so the copy is that text under the
-- new name, with references to a parent replaced by its mirror (how.map), and the same for
-- the indexes; its foreign keys come with it (true).
local function ci(word) -- a case-insensitive Lua pattern for word
  return (word:gsub("%a", function(c) return "[" .. c:lower() .. c:upper() .. "]" end))
end

local function copy_of(db, name, how)
  local split, refs = how.split, how.map
  local _, t = split(how.like)
  local rows = db:query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", t)
  local sql = assert(rows[1] and rows[1][1], "no CREATE statement for " .. t)
  local quotes = "[\"`%[]?"
  local endq = "[\"`%]]?"
  sql = sql:gsub("^(%s*" .. ci("create") .. "%s+" .. ci("table") .. "%s+)" .. quotes .. "[^%s%(]-" .. endq .. "(%s*%()",
    "%1" .. db:quote(name):gsub("%%", "%%%%") .. "%2", 1)
  for parent, target in pairs(refs) do
    local _, p = split(parent)
    sql = sql:gsub("(" .. ci("references") .. "%s+)" .. quotes .. p:gsub("%p", "%%%0") .. endq,
      "%1" .. db:quote(target):gsub("%%", "%%%%"))
  end
  db:exec(sql)
  local idx = db:query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", t)
  for _, r in ipairs(idx) do
    local isql = r[2]:gsub("(" .. ci("index") .. "%s+)" .. quotes .. r[1]:gsub("%p", "%%%0") .. endq,
      "%1" .. db:quote(name .. "_" .. r[1]):gsub("%%", "%%%%"), 1)
    isql = isql:gsub("(" .. ci("on") .. "%s+)" .. quotes .. t:gsub("%p", "%%%0") .. endq .. "(%s*%()",
      "%1" .. db:quote(name):gsub("%%", "%%%%") .. "%2", 1)
    db:exec(isql)
  end
  return true
end


return {
  -- the portable spellings (docs/scenarios.md); an enum is text that takes only its labels (a CHECK)
  types = { { "^jsonb?$", "text" }, { "^bytes$", "blob" } },
  rowid_key = true,
  database_sql = "SELECT file FROM pragma_database_list WHERE name = 'main'", -- the file: SQLite's database -- the rowid alias must be spelled INTEGER PRIMARY KEY AUTOINCREMENT
  file_types = { varchar_max = 0 },
  scratch = {
    exists_sql = "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?",
    exists_args = "name",
    like = function(db, name, _, how) return copy_of(db, name, how) end,
    mirror = function(db, name, cols, sel)
      db:exec(("CREATE TABLE %s AS %s"):format(db:quote(name), sel))
      db:exec(("CREATE UNIQUE INDEX %s ON %s (%s)"):format(db:quote(name .. "_key"), db:quote(name), cols))
    end, -- (no ANALYZE: it would leave sqlite_stat1 behind)
    list_sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'bb\\_scratch\\_%' ESCAPE '\\' OR name LIKE '%\\_\\_scratch%' ESCAPE '\\') ORDER BY 1",
    tables_sql = "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')",
  },
}
