-- IoT events: a JSON payload, an enum status and a Lua function's column, unchanged on every engine.
-- (docs/scenarios.md: functions and literals, JSON documents, portable types)
local bb = require "bulkbench"

bb.describe [[
IoT events: a JSON payload, an enum status and a column a Lua function makes, the same file on every engine.
  json is jsonb on PostgreSQL, JSON on MariaDB, text on SQLite; the enum a type of its own on
  PostgreSQL, MariaDB's ENUM, a CHECK on SQLite. Without --method each engine loads by its own
  default method (sqlite txn, pg copy, mysql load):
    bulkbench run workloads/events.lua --engine=pg,mysql --rows=1M]]

local opt = bb.options { { "devices", 1000, "devices sending events (a count: 10k)" } }

local events = bb.table "events" {
  { "id",      "bigint",                   bb.seq() },
  { "device",  "int",                      bb.zipf { 1, opt.devices } },        -- a few devices send most
  { "status",  "enum('ok','warn','fail')", bb.choice { { "ok", 90 }, { "warn", 8 }, { "fail", 2 } } },
  { "payload", "json",                     bb.json { temp = bb.float { -20, 40 }, battery = bb.int { 0, 100 },
                                                     tags = bb.array { bb.choice { "indoor", "outdoor" }, max = 2 } } },
  { "label",   "varchar(24)",              function(n, rng) return ("dev-%d/%d"):format(rng(opt.devices), n % 60) end },
  { "trace",   "uuid",                     bb.uuid { version = 7 } },             -- time-ordered
  { "at",      "timestamptz",              bb.timestamp { from = "2025-01-01", to = "2025-12-31" } },
  primary_key = "id",
}

bb.defaults { rows = 100000 }
bb.load(events)
