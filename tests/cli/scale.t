# dbctl --memory holds the server's processes to the size asked (its cgroup), its result records the limit and the table's growth, and stop removes the cgroup (pg loads more rows: 150000 take it a second, too short for five samples)
@ needs server
$ d=$(mktemp -d /tmp/bbscale.XXXXXX); chmod 755 $d; export BB_DBCTL_DIR=$d/dbctl; trap "contrib/dbctl stop all >/dev/null 2>&1; rm -rf $d" EXIT; printf 'local bb = require "bulkbench"\nbb.defaults { method = { pg = "copy", mysql = "load" } }\nbb.load(bb.table "grow" { {"id","bigint",bb.seq()}, {"k","bigint",bb.int{1,4000000000000000000}}, {"s","varchar(16)",bb.string{len=16}}, primary_key="id", indexes={{"k"},{"s"}} })\n' >$TMP/grow.lua; for e in pg mysql; do out=$(contrib/dbctl start $e --memory=96M) || exit 1; eval "$out"; cg=$(cat $BB_DBCTL_DIR/$e/cgroup); pid=$(cat $cg/cgroup.procs | head -1); echo "$e limit=$(cat $cg/memory.limit_in_bytes $cg/memory.max 2>/dev/null) in=$(grep -c "${cg##*/}" /proc/$pid/cgroup)"; dsn=$(echo "$out" | sed 's/^export [A-Z_]*=//'); rows=150000; [ $e = pg ] && rows=400000; ./bulkbench run $TMP/grow.lua --engine=$e --dsn=$dsn --rows=$rows --format=json | python3 -c 'import json,sys; r=json.loads(sys.stdin.read().splitlines()[-1]); g=r["growth"]; print(r["engine"], "memory_limit_bytes=%s" % r["server"]["memory_limit_bytes"], "samples>=5" if len(g) >= 5 else "samples=%d" % len(g), "last_rows=%d" % g[-1]["table_rows"], "index_bytes" if g[-1]["index_bytes"] > 0 else "no index bytes", "reads" if g[-1]["reads_per_row"] is not None or g[-2]["reads_per_row"] is not None else "no reads")'; contrib/dbctl stop $e; [ -d "$cg" ] && echo "$e: cgroup left" || echo "$e: cgroup removed"; done
? 0
~ pg limit=100663296 in=1
~ mysql limit=100663296 in=1
~ pg memory_limit_bytes=100663296 samples>=5 last_rows=400000 index_bytes reads
~ mysql memory_limit_bytes=100663296 samples>=5 last_rows=150000 index_bytes reads
~ pg: cgroup removed
~ mysql: cgroup removed

# a --memory that is no size is refused in one line
$ BB_DBCTL_DIR=$TMP/dbctl2 contrib/dbctl start pg --memory=lots
? 1
~ ^dbctl: --memory=lots: a size of at least 64M \(160M, 2G\) expected$

# an option dbctl does not know is named
$ BB_DBCTL_DIR=$TMP/dbctl2 contrib/dbctl start pg --memroy=1G
? 1
~ start takes --tls and --memory=SIZE, not --memroy=1G

# an engine without growth has growth null in its result
$ ./bulkbench run workloads/quickstart.lua --rows=1000 --format=json
? 0
~ "growth":null

# forecast: the time of the whole load from a part of it (a fifth of it, give or take the noise of a busy machine), as one JSON object
$ ./bulkbench forecast workloads/quickstart.lua --engine=sqlite --rows=10000000 --format=json | python3 -c 'import json,sys; f=json.load(sys.stdin); print(sorted(k for k in ("rows","seconds","interval","level","measured_rows","spent_s","model") if k in f)); print("part", f["measured_rows"] < f["rows"], f["spent_s"] < 0.5 * f["seconds"], f["interval"][0] <= f["seconds"] <= f["interval"][1], f["model"]["state"] in ("in-memory", "outgrows-ahead", "outgrown"))'
? 0
~ \['interval', 'level', 'measured_rows', 'model', 'rows', 'seconds', 'spent_s'\]
~ part True True True True

# forecast needs the rows it forecasts
$ ./bulkbench forecast workloads/quickstart.lua --engine=sqlite
? 2
~ forecast needs --rows=N

# forecast takes one configuration
$ ./bulkbench forecast workloads/quickstart.lua --engine=sqlite --threads=1,2 --rows=100000
? 2
~ forecast takes one configuration, not 2

# advise for --rows beyond its budget: the race at the rows it can, each strategy's fastest kept and run toward --rows, the answer a forecast there (recommendation.forecast)
@ needs pg
$ printf 'local bb = require "bulkbench"\nbb.load(bb.table "advgrow" { {"id","bigint",bb.seq()}, {"k","bigint",bb.int{1,4000000000000000000}}, {"s","varchar(16)",bb.string{len=16}}, primary_key="id", indexes={{"k"},{"s"}} })\n' >$TMP/advgrow.lua; ./bulkbench advise $TMP/advgrow.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=copy --batch=10000 --threads=1 --strategy=none,drop-indexes --rows=5000000 --budget=30s --format=json 2>$TMP/adv.err | python3 -c 'import json,sys; a=json.load(sys.stdin); r=a["recommendation"]; f=r["forecast"]; print("forecast rows=%d raced<rows=%s rate=%s strategies=%s model=%s" % (f["rows"], f["raced_rows"] < f["rows"], r["rows_per_s"] == f["rows_per_s"] > 0, sorted(set(c["strategy"] for c in f["candidates"])), f["model"]["state"] in ("in-memory", "outgrows-ahead", "outgrown")))'; grep -c "^toward --rows:" $TMP/adv.err
? 0
~ forecast rows=5000000 raced<rows=True rate=True strategies=\['drop-indexes', 'none'\] model=True
~ ^2$
