-- bulkbench.drivers.odbc.dialect_odbc: the ODBC engine as the Lua library sees it (lua/dialects.lua says
-- what each field means): one engine, many DBMS, each with a dialect of its own
-- (dialect_oracle, dialect_mssql, dialect_ansi for one bulkbench does not know).
return {
  file_dialect = "ansi",
  catalog = "bulkbench.drivers.odbc.catalog_odbc",
  many_servers = true,
}
