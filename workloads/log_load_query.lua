-- Seed 003: 1M web access log rows loaded in bulk, then SELECT count(*) ... WHERE ip = ? twice, without and with an index.
local bb = require "bulkbench"

bb.describe [[
Seed 003 (MySqlBulkLoader on HDD vs SSD): 1,000,000 tab-separated access-log rows loaded with
LOAD DATA (MySQL 11.8 s on SSD, 26.8 s on HDD), then `SELECT count(*) FROM logs WHERE ip = ?`
run twice (5.1 s both times on SSD). Here the load is the measured run; the queries are timed
afterwards and reported as metrics: first and second run without an index, then with one.
Compare storage by running it against two servers: --target=ssd=DSN1 --target=hdd=DSN2.
  bulkbench run workloads/log_load_query.lua --engine=mysql,pg --rows=1000000]]

bb.defaults { rows = 1000000, method = { mysql = "load", pg = "copy", sqlite = "multirow", null = "copy", odbc = "pipeline" } }

local opt = bb.options {
  { "index", "both", "query without an index, with one, or both (off, on, both)", check = function(v)
      return v == "off" or v == "on" or v == "both", "one of off, on, both"
    end },
}

local logs = bb.table "logs" {
  { "ip",       "varchar(15)",  bb.template "10.#.#.##" }, -- 1,000 distinct addresses: ~1,000 rows each
  { "time",     "timestamp",    bb.timestamp { start = "2013-04-01 00:00:00", step = 0.05, jitter = 0.05 } },
  { "method",   "varchar(8)",   bb.choice { { "GET", 90 }, { "POST", 8 }, { "HEAD", 2 } } },
  { "path",     "varchar(200)", bb.template "/blog/archives/####/@@@@@@@@.html" },
  { "status",   "int",          bb.choice { { "200", 85 }, { "304", 8 }, { "404", 5 }, { "500", 2 } } },
  { "bytes",    "int",          bb.pareto { scale = 300, shape = 1.2 } },
  { "referrer", "varchar(200)", bb.choice { "-", "http://www.google.co.jp/search?q=mysql", "http://moonmile.net/blog/" } },
  { "agent",    "varchar(250)", bb.choice { "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.31",
                                            "Mozilla/5.0 (compatible; Googlebot/2.1)", "curl/7.29.0" } },
}

bb.load(logs)

local function timed_query(db, ip)
  local t0 = bb.now_ms()
  local rows = db:query("SELECT count(*) FROM " .. logs.name .. " WHERE ip = " .. db.dialect:param(1), ip)
  return bb.now_ms() - t0, tonumber(rows[1][1])
end

function check(db)
  local loaded = db:count(logs.name) -- logs.name: the table as this run names it (a scratch copy under advise)
  local ip = logs:row(0)[1] -- an address that is there
  if opt.index ~= "on" then
    bb.metric("query_first_ms", (timed_query(db, ip)))
    bb.metric("query_second_ms", (timed_query(db, ip)))
  end
  if opt.index ~= "off" then
    local t0 = bb.now_ms()
    db:exec(("CREATE INDEX %s_ip_idx ON %s (ip)"):format(logs.name, logs.name))
    bb.metric("index_build_ms", bb.now_ms() - t0)
    bb.metric("query_indexed_first_ms", (timed_query(db, ip)))
    local ms, n = timed_query(db, ip)
    bb.metric("query_indexed_second_ms", ms)
    bb.metric("rows_matched", n)
  end
  return loaded
end
