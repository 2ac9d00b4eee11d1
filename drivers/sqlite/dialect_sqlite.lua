-- bulkbench.dialect_sqlite: SQLite's spellings for the Lua library (lua/dialects.lua says
-- what each field means). Its types are affinities: any spelling is taken as written.
return {
  rowid_key = true, -- the rowid alias must be spelled INTEGER PRIMARY KEY AUTOINCREMENT
  file_types = { varchar_max = 0 },
  catalog = "bulkbench.catalog_sqlite",
}
