-- Seed 001: 6M sysbench rows; one LOAD DATA vs parallel chunked LOAD vs multi-row INSERT threads vs prepared txn.
local bb = require "bulkbench"

bb.describe [[
Seed 001 (is myloader faster? no): 6,000,000 rows of the sysbench table (auto-increment id,
indexed k, c char(120), pad char(60)) with the binary log on. The article: native LOAD DATA
62.8 s; parallel LOAD DATA (4 MB chunks, 16 threads) 11.8 s; myloader's multi-row INSERTs
(16 threads) 29.4 s; util.importTable (64 MB chunks, 8 threads) 16.0 s.
Here a chunk is --batch rows (about 4 MB = 20,000 rows of ~200 bytes) and --threads the sessions:
  bulkbench run workloads/parallel_load.lua --engine=mysql --method=load --threads=1          # one LOAD
  bulkbench run workloads/parallel_load.lua --engine=mysql --method=load --threads=16 --batch=20000
  bulkbench run workloads/parallel_load.lua --engine=mysql --method=multirow --threads=16 --batch=1000
  bulkbench run workloads/parallel_load.lua --engine=pg --method=copy --threads=1,2,4 --batch=20000]]

bb.defaults { rows = 6000000, method = { mysql = "load", pg = "copy", sqlite = "multirow", null = "copy", odbc = "pipeline" } }

local opt = bb.options {
  { "storage", "InnoDB", "MySQL table engine" },
}

-- sysbench's c and pad: groups of 11 digits joined by dashes
local c_tpl = ("###########-"):rep(9) .. "###########"
local pad_tpl = ("###########-"):rep(4) .. "###########"

local sbtest = bb.table "sbtest" {
  { "id",  "int",       nil, auto_increment = true },
  { "k",   "int",       bb.int { 1, 6000000 }, not_null = true },
  { "c",   "char(120)", bb.template(c_tpl), not_null = true },
  { "pad", "char(60)",  bb.template(pad_tpl), not_null = true },
  primary_key = "id",
  indexes = { { "k" } },
  engine = opt.storage,
}

bb.load(sbtest)
