# a comma list sweeps the cross product, one JSON object per combination
$ ./bulkbench run workloads/quickstart.lua --threads=1,2 --batch=100,1000 --rows=2000 --format=json --out=$TMP/r.jsonl >$TMP/o.json 2>/dev/null; wc -l <$TMP/r.jsonl; grep -c '"verified_rows":2000' $TMP/o.json
? 0
~ ^4$

# every result carries every field of the result contract (docs/results.md), null where not measured
$ ./bulkbench run workloads/quickstart.lua --rows=500 --format=json | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); need="scenario engine method threads batch rows bytes seconds rows_per_s mb_per_s latency_ms errors client_cpu_s server verified_rows started_at host version".split(); print("missing", [k for k in need if k not in o]); print("server.cpu_s", o["server"]["cpu_s"]); print("log", o["server"]["log_bytes"])'
? 0
~ missing \[\]
~ server.cpu_s None
~ log None

# host.free_page_reporting says what the machine's sysfs says: a virtio balloon offering free page reporting (device 5, feature bit 5) and a reporting order of at most 10
$ ./bulkbench run workloads/quickstart.lua --rows=10 --format=json | python3 -c 'import json,sys,glob,os; o=json.loads(sys.stdin.readline()); p="/sys/module/page_reporting/parameters/page_reporting_order"; order=int(open(p).read()) if os.path.exists(p) else 99; bal=any(open(d+"/device").read().strip()=="0x0005" and open(d+"/features").read()[5:6]=="1" for d in glob.glob("/sys/bus/virtio/devices/*")); print("agrees", o["host"]["free_page_reporting"] == (bal and order <= 10))'
? 0
~ agrees True

# CSV output has a header and a row per run
$ ./bulkbench run workloads/quickstart.lua --rows=500 --method=txn,multirow --format=csv 2>/dev/null
? 0
~ ^scenario,engine,method,threads,batch,rows
~ ^quickstart,sqlite,txn,1,1000,500,
~ ^quickstart,sqlite,multirow,1,1000,500,

# two threads on one SQLite file take turns and lose nothing
$ ./bulkbench run workloads/quickstart.lua --threads=2 --method=insert,txn --batch=50 --rows=3000
? 0
~ insert +2 +1 +3000 .* ok
~ txn +2 +50 +3000 .* ok

# a row-at-a-time method takes no batch: an insert sweep over three batches is one point, recorded as batch 1
$ ./bulkbench run workloads/quickstart.lua --method=insert,txn --batch=1,100,1000 --rows=2000 --dsn=$TMP/ib.db --format=json 2>$TMP/ib.err | python3 -c 'import json,sys; print(["%s:%s" % (o["method"], o["batch"]) for o in map(json.loads, sys.stdin)])'; grep -c '^run ' $TMP/ib.err
? 0
~ ^\['insert:1', 'txn:1', 'txn:100', 'txn:1000'\]$
~ ^4$

# the script sees the batch its result records: ctx.batch and bb.run_info().batch are the method's default, a stream's 10,000 under --reconnect, 1 for insert
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "bs" { { "id", "bigint", bb.seq() } }\nbb.load(t)\nfunction run(ctx) io.stderr:write("seen ", ctx.batch, " ", bb.run_info().batch, "\\n") ctx:load(t) end\n' >$TMP/bs.lua; for a in "--method=txn" "--method=copy --reconnect=2" "--method=insert --batch=100"; do ./bulkbench run $TMP/bs.lua --engine=null --rows=3000 $a --format=json 2>&1 | python3 -c 'import json,sys; ls=sys.stdin.read().splitlines(); print(ls[0], "recorded", json.loads(ls[1])["batch"])'; done
? 0
~ ^seen 1000 1000 recorded 1000$
~ ^seen 10000 10000 recorded 10000$
~ ^seen 1 1 recorded 1$

# a named database file keeps the rows
$ ./bulkbench run workloads/quickstart.lua --dsn=$TMP/q.db --rows=777 >/dev/null && ./bulkbench lua /dev/stdin <<<"print(require('bulkbench').connect('sqlite', '$TMP/q.db'):count('orders'))"
? 0
~ ^777$

# --time stops an event loop at the deadline: not before it, and soon after (a busy machine may hold the thread back a little, not a second)
$ ./bulkbench run <(echo 'function event() end') --engine=null --time=0.5 --format=json | python3 -c 'import json,sys; o=json.loads(sys.stdin.read()); print(0.5 <= o["seconds"] < 1.0, o["events"] > 1000)'
? 0
~ ^True True$

# --rate paces events (Poisson), about rate x time events
$ ./bulkbench run <(echo 'function event() end') --engine=null --rate=200 --time=1 --format=json | python3 -c 'import json,sys; o=json.loads(sys.stdin.read()); print(150 <= o["events"] <= 250)'
? 0
~ ^True$

# --warmup runs work that is not counted
$ ./bulkbench run <(echo 'function event() end') --engine=null --warmup=0.3 --time=0.3 --format=json | python3 -c 'import json,sys; o=json.loads(sys.stdin.read()); print(0.3 <= o["seconds"] < 0.6)'
? 0
~ ^True$

# --events splits exactly across threads
$ ./bulkbench run <(echo 'function event() end') --engine=null --events=100003 --threads=2 --format=json | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["events"])'
? 0
~ ^100003$

# interval lines appear with --report-interval
$ ./bulkbench run <(echo 'function event() end') --engine=null --time=1.2 --report-interval=0.5
? 0
~ \[ 1\.0s \] thds: 1 rows/s: .* events/s: 

# the null engine accepts every method
$ ./bulkbench run workloads/quickstart.lua --engine=null --method=insert,insert-simple,txn,multirow,copy,copy-csv,load --rows=1000 --batch=100
? 0
~ copy-csv
~ load +1 +100 +1000

# a table that already exists is loaded without DDL; check() counts only this run's rows
$ ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/ex.db'); db:exec('CREATE TABLE pre (a int, b text, extra int DEFAULT 7)'); db:exec('INSERT INTO pre (a, b) VALUES (1, \"x\")')" && printf 'local bb = require "bulkbench"\nlocal t = bb.table "pre" { {"a","int",bb.seq()}, {"b","text",bb.string{len=3}}, existing = true }\nbb.load(t)\n' >$TMP/ex.lua && ./bulkbench run $TMP/ex.lua --dsn=$TMP/ex.db --method=txn --rows=500 && ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/ex.db'); print('total', db:count('pre'), db:query('select min(extra) from pre')[1][1])"
? 0
~ sqlite +txn .* 500 .* ok
~ total.501.7$

# --time=S with the script's default rows: a run that ends early because they ran out says so; given --rows, it is the user's choice and nothing is said
$ ./bulkbench run workloads/quickstart.lua --engine=null --time=30 2>&1 | head -1; ./bulkbench run workloads/quickstart.lua --engine=null --time=30 --rows=1000 2>&1 | grep -c 'ran out'
~ ^bulkbench: note: the run ended after [0-9.]+ s of --time=30: the 100000 rows of the script's default --rows ran out; give --rows=N
~ ^0$

# the library's hooks are registered, not written into the script's globals: after bb.load the names are the script's own; a global it defines wins, and bb.hook gives the library's one to wrap
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "hk" { {"id","int",bb.seq()} }\nbb.load(t)\nio.stderr:write("globals ", tostring(rawget(_G, "prepare")), " ", tostring(rawget(_G, "run")), " ", tostring(rawget(_G, "check")), "\\n")\nlocal counted = bb.hook("check")\nfunction check(db) local n = counted(db) io.stderr:write("wrapped ", n, "\\n") return n end\n' >$TMP/hk.lua; ./bulkbench run $TMP/hk.lua --rows=100 --method=txn --dsn=$TMP/hk.db
? 0
~ ^globals nil nil nil$
~ ^wrapped 100$
~ sqlite +txn .* 100 .* ok
