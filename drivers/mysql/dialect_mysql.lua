-- bulkbench.dialect_mysql: MariaDB's and MySQL's spellings for the Lua library
-- (lua/dialects.lua says what each field means).
return {
  types = {
    { "^double precision$", "double" }, { "^bytea$", "longblob" }, { "^uuid$", "char(36)" },
    { "^timestamp$", "datetime" }, { "^timestamp%((%d)%)$", "datetime(%1)" },
  },
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
  catalog = "bulkbench.catalog_mysql",
  random = "RAND()", -- an order of rows at random, for `new --check`'s samples
}
