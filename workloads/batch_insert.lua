-- Seed 002: one JDBC thread, 1M rows of (bigint id, 1 KB text), prepared, addBatch 1000, commit per batch.
local bb = require "bulkbench"

bb.describe [[
Seed 002 (Greenplum/Oracle/MySQL insert performance over JDBC): one thread inserts 1,000,000
rows of (ID bigint, NAME 1 KB of text) with a prepared INSERT, addBatch() 1000 times, then
executeBatch() and commit(). The article measured 780 to 10,752 rows/s. Without
rewriteBatchedStatements, MySQL's driver sends those 1000 inserts one by one (our `txn`);
rewritten, they become one multi-row INSERT (our `multirow`); MariaDB's own drivers send them
as one array-bound statement and PostgreSQL's pipeline them (our `pipeline` on both).
  bulkbench run workloads/batch_insert.lua --engine=mysql --rows=100000        # txn vs pipeline vs multirow
  bulkbench run workloads/batch_insert.lua --engine=pg --rows=100000           # txn vs pipeline vs multirow
Through an ODBC driver (Oracle, SQL Server, or the others' drivers), txn is the same JDBC loop and
pipeline is ODBC's executeBatch, array binding (SQL_ATTR_PARAMSET_SIZE):
  bulkbench run workloads/batch_insert.lua --engine=odbc --dsn='DSN=orcl;UID=scott;PWD=...' --rows=100000]]

bb.defaults {
  rows = 1000000, batch = 1000, threads = 1,
  method = { mysql = "txn,pipeline,multirow", pg = "txn,pipeline,multirow", sqlite = "txn,multirow", null = "txn,multirow",
             odbc = "txn,pipeline" }, -- odbc: what every DBMS takes, Oracle included (no multi-row VALUES)
}

local opt = bb.options { { "name_bytes", 1024, "bytes of NAME per row (the article: 1024)" } }

-- The article repeats one random 1 KB string; a constant keeps that shape.
local name = {}
for i = 1, opt.name_bytes do name[i] = string.char(97 + (i * 7) % 26) end

local t = bb.table "t_test_tang_1" {
  { "ID",   "bigint", bb.seq() },
  { "NAME", "text",   bb.const(table.concat(name)) },
}

bb.load(t)
