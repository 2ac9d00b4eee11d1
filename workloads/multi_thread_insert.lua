-- Seed 004: Java threads, one connection each, autocommit single-row INSERTs of 20 columns (15 of 100 chars).
local bb = require "bulkbench"

bb.describe [[
Seed 004 (MySQL insert performance with threads): each thread has its own connection and
inserts rows one by one with autocommit; 20 columns of which 15 are 100-character strings;
one table vs 16 tables, InnoDB vs MyISAM, 1 to 16 threads on 1, 2 and 4 cores. The article's
total rows/s grew from 1,500 (1 thread) to ~3,500 (8 threads) and then flattened.
  bulkbench run workloads/multi_thread_insert.lua --engine=mysql --time=10
  bulkbench run workloads/multi_thread_insert.lua --engine=mysql --time=10 --tables=16 --storage=MyISAM]]

bb.defaults { threads = "1,2,4,8,12,16", time = 30, method = "insert" }

local opt = bb.options {
  { "tables", 1, "tables the threads spread over (the article: 1 or 16)", check = function(v)
      return v >= 1 and v <= 64, "1 to 64"
    end },
  { "storage", "InnoDB", "MySQL table engine (InnoDB or MyISAM)" },
}

local function columns(name)
  local spec = {
    { "id", "bigint", bb.seq() },
    { "created", "timestamp", bb.timestamp "now" },
    { "n1", "int", bb.int { 1, 1000000 } },
    { "n2", "int", bb.int { 1, 1000000 } },
    { "n3", "bigint", bb.int { 1, 1000000000 } },
    primary_key = "id",
    engine = opt.storage,
  }
  for i = 1, 15 do spec[#spec + 1] = { ("s%02d"):format(i), "varchar(100)", bb.string { len = 100 } } end
  return bb.table(name)(spec)
end

local tables = {}
for i = 1, opt.tables do tables[i] = columns(opt.tables == 1 and "insert_test" or ("insert_test_" .. i)) end
bb.main_table = tables[1].name

function prepare(db) for _, t in ipairs(tables) do db:recreate(t) end end
-- worker i writes to table i mod N; the rows (and their ids) still come from one shared counter
function run(ctx) ctx:load(tables[ctx.id % #tables + 1]) end
function check(db)
  local n = 0
  for _, t in ipairs(tables) do n = n + db:count(t.name) end
  return n
end
