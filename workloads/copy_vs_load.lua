-- Seed 000: 10M rows of bmsql_history, PostgreSQL COPY vs MySQL LOAD DATA (SQLite as a reference).
local bb = require "bulkbench"

bb.describe [[
Seed 000 (IvorySQL COPY vs MySQL LOAD): the BenchmarkSQL history table, loaded by each
engine's bulk path. The article generated 10,000,000 rows with a Python script into CSV
and loaded it: MySQL LOAD DATA LOCAL 69.6 s, PostgreSQL COPY 19.8 s.
  bulkbench run workloads/copy_vs_load.lua --engine=sqlite --rows=1000000
  bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=10000000 --format=csv -o h.csv]]

-- each engine's bulk path (its descriptor's default method) unless --method says otherwise
bb.defaults { rows = 10000000, method = bb.default_methods() }

-- Same columns and value ranges as the article's generator: ids 0..1000, now() as the
-- date, an amount 0..9999.00 and 20 letters or digits.
local history = bb.table "bmsql_history" {
  { "hist_id",  "integer",      bb.seq() },
  { "h_c_id",   "integer",      bb.int { 0, 1000 } },
  { "h_c_d_id", "integer",      bb.int { 0, 1000 } },
  { "h_c_w_id", "integer",      bb.int { 0, 1000 } },
  { "h_d_id",   "integer",      bb.int { 0, 1000 } },
  { "h_w_id",   "integer",      bb.int { 0, 1000 } },
  { "h_date",   "timestamp",    bb.timestamp "now" },
  { "h_amount", "decimal(6,2)", bb.decimal { 0, 9999 } },
  { "h_data",   "varchar(24)",  bb.string { len = 20 } },
}

bb.load(history)
