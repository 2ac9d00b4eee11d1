-- bulkbench.drivers.odbc.dialect_mssql: SQL Server through ODBC (lua/dialects.lua says what each field
-- means): NVARCHAR for text, DATETIME2 (its timestamp is a row version), FLOAT(53) doubles,
-- BIT booleans, VARBINARY for bytes.
return {
  types = {
    { "^bigint.*", "BIGINT" }, { "^int%(%d+%)$", "INT" }, { "^mediumint.*", "INT" }, { "^tinyint.*", "SMALLINT" },
    { "^bool.*", "BIT" }, { "^double.*", "FLOAT(53)" }, { "^float$", "FLOAT(53)" },
    { "^varchar%((%d+)%)$", function(n) return tonumber(n) <= 4000 and "NVARCHAR(" .. n .. ")" or "NVARCHAR(MAX)" end },
    { "^char%((%d+)%)$", "NCHAR(%1)" }, { "^text$", "NVARCHAR(MAX)" }, { "^longtext$", "NVARCHAR(MAX)" },
    { "^mediumtext$", "NVARCHAR(MAX)" }, { "^datetime$", "DATETIME2" }, { "^timestamp$", "DATETIME2" },
    { "^timestamp%((%d)%)$", "DATETIME2(%1)" }, { "^datetime%((%d)%)$", "DATETIME2(%1)" },
    { "^uuid$", "UNIQUEIDENTIFIER" }, { "^bytea$", "VARBINARY(MAX)" }, { "^.*blob$", "VARBINARY(MAX)" },
    { "^jsonb?$", "NVARCHAR(MAX)" }, { "^bytes$", "VARBINARY(MAX)" }, { "^timestamptz$", "DATETIMEOFFSET" },
  },
  identity = " IDENTITY(1,1) NOT NULL",
}
