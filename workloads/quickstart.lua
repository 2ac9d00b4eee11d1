-- Quickstart: single-row INSERT vs transactions vs multi-row INSERT on the embedded SQLite.
local bb = require "bulkbench"

bb.describe [[
Quickstart: how much do transactions and multi-row INSERTs buy over one row per statement?
Loads a small orders table on the embedded SQLite (or any --engine) with each --method.
  make quickstart runs it so:
    bulkbench run workloads/quickstart.lua --method=insert,txn,multirow --batch=1,100,1000]]

bb.defaults { method = "txn", batch = 1000, rows = 100000 }

local opt = bb.options {
  { "journal", "wal", "SQLite journal_mode for the database file", check = function(v)
      return ({ wal = true, delete = true, truncate = true, memory = true, off = true })[v:lower()],
        "one of wal, delete, truncate, memory, off"
    end },
  { "sync", "normal", "SQLite synchronous setting per connection (off, normal, full)" },
}

local orders = bb.table "orders" {
  { "id",       "bigint",        bb.seq() },
  { "customer", "int",           bb.int { 1, 100000 } },
  { "sku",      "varchar(12)",   bb.template "SKU-####-@@" },
  { "qty",      "int",           bb.int { 1, 20 } },
  { "price",    "decimal(10,2)", bb.decimal { 0.5, 999.99 } },
  { "note",     "varchar(60)",   bb.string { min = 10, max = 60 }, null = 0.1 },
  { "ordered",  "timestamp",     bb.timestamp { from = "2025-01-01", to = "2025-12-31 23:59:59" } },
  primary_key = "id",
}

-- Every connection (set-up and workers) gets the session settings; SQLite ones are pragmas.
function on_connect(db)
  if db.dialect.name == "sqlite" then -- the sqlite engine, or SQLite through ODBC
    db:set("journal_mode", opt.journal)
    db:set("synchronous", opt.sync)
  end
end

bb.load(orders)
