# a sweep goes on past a failed point: the point is recorded with its error (rows/s and bottleneck null), the others run and verify, the summary counts them, the exit code is 1, and the error is printed once (in its row)
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "sw" { { "id", "bigint", bb.seq() } }\nbb.load(t)\nfunction run(ctx) if ctx.batch == 10 then error("batch 10 is refused on purpose") end ctx:load(t) end\n' >$TMP/f.lua; out=$(./bulkbench run $TMP/f.lua --dsn=$TMP/f.db --method=txn --batch=10,100,1000 --rows=3000 --out=$TMP/f.jsonl 2>&1); echo "rc=$?"; echo "$out"; echo "said $(grep -c 'refused on purpose' <<<"$out") times"; python3 -c "import json; r=[json.loads(l) for l in open('$TMP/f.jsonl')]; print('points', len(r), 'failed', [(x['batch'], x['rows_per_s'], x['bottleneck']) for x in r if x.get('error')], 'ok', [x['batch'] for x in r if not x.get('error') and x['verified_rows'] == 3000])"
? 0
~ rc=1$
~ ^points 3 failed \[\(10, None, None\)\] ok \[100, 1000\]$
~ ^sqlite +txn +1 +10 +0 .* null .*FAILED: .*batch 10 is refused on purpose
~ 2 of 3 points ran; 1 failed: sqlite txn threads=1 batch=10$
~ ^said 1 times$
! rows were committed before the run stopped

# ... under --format=json the failed point's error is said once on standard error (and is in its JSON), the table's place
$ ./bulkbench run $TMP/f.lua --dsn=$TMP/f2.db --method=txn --batch=10,100 --rows=3000 --format=json 2>$TMP/f2.err >$TMP/f2.json; echo "rc=$?"; grep -c 'refused on purpose' $TMP/f2.err; grep -c '"error":' $TMP/f2.json; cat $TMP/f2.err
? 0
~ rc=1
~ ^1$
~ 1 of 2 points ran; 1 failed

# --fail-fast stops the sweep at its first failed point, and says how many points did not run
$ ./bulkbench run $TMP/f.lua --dsn=$TMP/f3.db --method=txn --batch=10,100,1000 --rows=3000 --out=$TMP/f3.jsonl --fail-fast; echo "rc=$?"; wc -l <$TMP/f3.jsonl
? 0
~ rc=1
~ ^1$
~ --fail-fast: the sweep stopped at its first failure; 2 points did not run

# --fail-fast is refused by a command that runs no sweep
$ ./bulkbench gen workloads/quickstart.lua --table=quickstart --rows=10 --fail-fast
? 2
~ fail-fast

# pg: a failed --set value does not end the sweep, the setting is a column of the table, and the closing line says nothing of rows committed
@ needs pg
$ ./bulkbench run workloads/quickstart.lua --engine=pg --method=txn --batch=100 --rows=2000 --set=synchronous_commit=bogus_value,off --out=$TMP/s.jsonl; echo "rc=$?"; wc -l <$TMP/s.jsonl
? 0
~ rc=1
~ ^2$
~ ^engine +method +threads +batch +synchronous_commit +rows
~ ^pg +txn +1 +100 +bogus_value +0 .*FAILED: .*invalid value for parameter
~ ^pg +txn +1 +100 +off +2000 .* ok$
~ 1 of 2 points ran; 1 failed: pg txn threads=1 batch=100 synchronous_commit=bogus_value
! rows were committed before the run stopped
! bottleneck pg txn 1x100, 0 rows/s

# pg and MariaDB in one sweep: each engine runs the methods of --method it offers, and the combinations skipped are named
@ needs pg mysql
$ ./bulkbench run workloads/quickstart.lua --engine=pg,mysql --method=copy,load --rows=3000 --format=json | python3 -c 'import json,sys; print(sorted((o["engine"], o["method"], o["verified_rows"]) for o in map(json.loads, sys.stdin)))'
? 0
~ ^\[\('mysql', 'load', 3000\), \('pg', 'copy', 3000\)\]$
~ skipped pg/load, mysql/copy: each engine runs the methods of --method it offers

# ... a method no engine of the sweep offers is an error, and so is a typo
$ ./bulkbench run workloads/quickstart.lua --engine=pg,sqlite --method=txn,load --rows=3000; ./bulkbench run workloads/quickstart.lua --engine=pg,mysql --method=copy,lod --rows=3000
? 2
~ no engine of --engine=pg,sqlite offers method load
~ unknown method 'lod'; did you mean 'load'

# every result carries the sha256 of the script's text, and the text itself once per --out file (with its first result, not again when the file holds it)
$ ./bulkbench run workloads/quickstart.lua --method=txn,multirow --rows=100 --out=$TMP/sha.jsonl >/dev/null 2>&1; ./bulkbench run workloads/quickstart.lua --rows=100 --out=$TMP/sha.jsonl --format=json >$TMP/sha.json 2>&1; python3 -c "import json, hashlib; h=hashlib.sha256(open('workloads/quickstart.lua','rb').read()).hexdigest(); rs=[json.loads(l) for l in open('$TMP/sha.jsonl')]; print('results', len(rs), 'sha', all(r['scenario_sha256'] == h for r in rs), 'texts', [i for i, r in enumerate(rs) if 'scenario_text' in r], 'same text', rs[0]['scenario_text'] == open('workloads/quickstart.lua').read()); print('stdout sha', json.loads(open('$TMP/sha.json').readline())['scenario_sha256'] == h, 'stdout text', 'scenario_text' in open('$TMP/sha.json').read())"
? 0
~ ^results 3 sha True texts \[0\] same text True$
~ ^stdout sha True stdout text False$

# pg: a failed `bulkbench load` says its error once too (in its row), then what was committed
@ needs pg
$ printf 'a,b\n1,x\n' >$TMP/bad.csv; psql -qAtX $BULKBENCH_PG_DSN -c "drop table if exists sw_load; create table sw_load (a int, b int)"; out=$(./bulkbench load $TMP/bad.csv --engine=pg --table=sw_load --format=csv --header 2>&1); echo "rc=$?"; echo "$out"; echo "said $(grep -c 'invalid input syntax' <<<"$out") times"
? 0
~ rc=1
~ FAILED: .*invalid input syntax for type integer
~ 0 rows were committed before the load stopped
~ ^said 1 times$

# a --set and a strategy that vary are columns of the report's table and of the page's, the strategy a dimension of its own (two strategies are two points, not one)
$ F=tests/fixtures; python3 -c "import json; b=json.loads(open('$F/compare_base.jsonl').readline()); f=open('$TMP/dims.jsonl', 'w'); [print(json.dumps(dict(b, set={'synchronous_commit': v}, strategy=s)), file=f) for v in ('on', 'off') for s in ('none', 'drop-indexes')]"; ./bulkbench report $TMP/dims.jsonl --html=$TMP/dims.html; grep -o '<th scope="col">[a-z_-]*</th>' $TMP/dims.html | sort -u
? 0
~ ^quickstart: 4 points
~ ^vs best +strategy +synchronous_commit +rows/s
~ ^<th scope="col">strategy</th>$
~ ^<th scope="col">synchronous_commit</th>$
