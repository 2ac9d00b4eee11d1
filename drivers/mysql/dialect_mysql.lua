-- bulkbench.drivers.mysql.dialect_mysql: MariaDB's and MySQL's spellings for the Lua library
-- (lua/dialects.lua says what each field means).
return {
  types = {
    { "^double precision$", "double" }, { "^bytea$", "longblob" }, { "^uuid$", "char(36)" },
    { "^timestamp$", "datetime" }, { "^timestamp%((%d)%)$", "datetime(%1)" },
    -- the portable spellings (docs/scenarios.md): an instant is UTC in a datetime, as the sessions write it
    { "^jsonb$", "json" }, { "^bytes$", "longblob" }, { "^timestamptz$", "datetime(6)" },
    { "^timestamptz%((%d)%)$", "datetime(%1)" }, { "^timestamp with time zone$", "datetime(6)" },
  },
  enum = "native", -- enum('a','b') as written
  identity = " NOT NULL AUTO_INCREMENT",
  -- say it: a server's default may still be latin1
  table_options = function(t)
    return (t.engine and (" ENGINE=" .. t.engine) or "") .. " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
  end,
  file_types = {
    varchar_max = 16383,
    -- LOAD DATA turns true/false into 0 with a warning: MySQL keeps the words
    bool = function(c) return ("varchar(%d)"):format(math.max(c.max_len, 1)), "text" end,
    timestamp = function(c) return c.has_frac and "datetime(6)" or "datetime" end,
  },
  max_ident = 64, -- bytes in an identifier
  database_sql = "SELECT DATABASE()",
  random = "RAND()", -- an order of rows at random, for `new --check`'s samples
  -- scratch copies (lua/scratch.lua)
  scratch = {
    exists_sql = "SELECT count(*) FROM information_schema.tables WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?",
    exists_args = "schema, name",
    -- tables referenced go with the checks off for the dropping session (a cycle has no order)
    around_drops = function(db, on) pcall(db.exec, db, "SET SESSION foreign_key_checks = " .. (on and 1 or 0)) end,
    like = function(db, name, q) db:exec(("CREATE TABLE %s LIKE %s"):format(db:quote(name), q)) end,
    as_text = function(db, name, c)
      db:exec(("ALTER TABLE %s MODIFY %s TEXT%s"):format(db:quote(name), db:quote(c.name), c.not_null and " NOT NULL" or ""))
    end,
    mirror = function(db, name, cols, sel)
      db:exec(("CREATE TABLE %s (PRIMARY KEY (%s)) ENGINE=InnoDB %s"):format(db:quote(name), cols, sel))
    end,
    list_sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND (table_name LIKE 'bb\\_scratch\\_%' OR table_name LIKE '%\\_\\_scratch%') ORDER BY 1",
    tables_sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()",
    -- the original's triggers on the copy, named after the copy (a schema's trigger names are
    -- its own), but for those that write elsewhere (dialects.writes_elsewhere)
    triggers = function(db, _, orig, name, leave_out, split)
      local s, t = split(orig)
      local rows = db:query([[SELECT trigger_name, action_timing, event_manipulation, action_statement
        FROM information_schema.triggers WHERE event_object_schema = COALESCE(?, DATABASE()) AND event_object_table = ?
        ORDER BY action_order]], s, t)
      local unsafe = {}
      for _, r in ipairs(rows) do
        if require("bulkbench.triggers").writes_elsewhere(r[4]) then unsafe[#unsafe + 1] = r[1]
        elseif not leave_out then
          db:exec(("CREATE TRIGGER %s %s %s ON %s FOR EACH ROW %s"):format(db:quote((name .. "_" .. r[1]):sub(1, 64)),
            r[2], r[3], db:quote(name), r[4]))
        end
      end
      return #rows, unsafe
    end,
  },
}
