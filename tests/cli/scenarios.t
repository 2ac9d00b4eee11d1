# every scenario declares its options for `bulkbench help`
$ for w in copy_vs_load parallel_load batch_insert log_load_query multi_thread_insert; do ./bulkbench help workloads/$w.lua | head -1 | grep -q . || echo "no help: $w"; done; echo checked
? 0
~ ^checked$
! no help

# every scenario runs end-to-end, small, on each engine, and verifies its rows
@ needs pg mysql
$ for w in copy_vs_load parallel_load batch_insert log_load_query multi_thread_insert; do for e in sqlite pg mysql; do ./bulkbench run workloads/$w.lua --engine=$e --rows=1500 --threads=$([ $w = multi_thread_insert ] && echo 1,2 || echo 2) --out=$TMP/s.jsonl >$TMP/o 2>&1 || { echo "FAILED $w $e"; tail -3 $TMP/o; }; done; done; python3 -c "import json; rs=[json.loads(l) for l in open('$TMP/s.jsonl')]; print(len(rs), all(r['verified_rows']==r['rows'] for r in rs), sorted({r['scenario'] for r in rs}))"
? 0
~ ^[0-9]+ True \['batch_insert', 'copy_vs_load', 'log_load_query', 'multi_thread_insert', 'parallel_load'\]$
! FAILED

# the access-log scenario times its queries without and with an index
@ needs pg
$ ./bulkbench run workloads/log_load_query.lua --engine=pg --rows=3000 --format=json | python3 -c "import json,sys; m=json.load(sys.stdin)['metrics']; print(sorted(m), m['rows_matched'] > 0)"
? 0
~ 'query_first_ms', 'query_indexed_first_ms'.* True$

# report groups by scenario: the verdict first, then the varying dimensions as columns after the ratio to the best, fastest first
$ ./bulkbench report tests/fixtures/results.jsonl
? 0
~ ^fixture_sweep: 6 points \(batch=1000\)
~ ^fastest: pg, copy, threads=4 at 250,000 rows/s \(one run\)$
~ ^vs best +engine +method +threads +rows/s 
~ ^ +1\.00 +pg +copy +4 +250000 
~ ^ +0\.20 +mysql +load +1 +50000 
~ ^other: 1 point \(engine=sqlite, method=txn, threads=1, batch=100, synchronous=off\)
~ query_first_ms
~ 12\.500

# report as markdown for documents
$ ./bulkbench report tests/fixtures/results.jsonl --format=markdown
? 0
~ ^### fixture_sweep
~ ^\| vs best \| engine \| method \| threads \|
~ ^\|---\|---:\|

# the chart is SVG with a line per engine x method, axes and a legend (the scenario of one point, a dot)
$ ./bulkbench report tests/fixtures/results.jsonl --svg=$TMP/c.svg >/dev/null && python3 tests/fixtures/svgcheck.py $TMP/c.svg
? 0
~ ^True \['mysql, load', 'pg, copy', 'sqlite, txn'\] True True 2$

# a missing results file is a usage error
$ ./bulkbench report $TMP/nosuch.jsonl
? 2
~ cannot read results file

# a sweep can be resumed: combinations already in the file are skipped
$ ./bulkbench run workloads/quickstart.lua --batch=10,100 --rows=500 --out=$TMP/resume.jsonl >/dev/null 2>&1; ./bulkbench run workloads/quickstart.lua --batch=10,100,1000 --rows=500 --out=$TMP/resume.jsonl --resume 2>&1 >/dev/null | grep -c skipped; wc -l <$TMP/resume.jsonl
? 0
~ ^2$
~ ^3$

# --set-global sweeps a server-wide setting and puts it back afterwards
@ needs mysql
$ M="mariadb -N -ubench -pbench -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/')"; before=$($M -e 'select @@global.innodb_flush_log_at_trx_commit'); ./bulkbench run workloads/copy_vs_load.lua --engine=mysql --rows=2000 --set-global=innodb_flush_log_at_trx_commit=2,0 --format=json | python3 -c "import json,sys; print([json.loads(l)['server']['settings']['innodb_flush_log_at_trx_commit'] for l in sys.stdin])"; echo "restored: $before -> $($M -e 'select @@global.innodb_flush_log_at_trx_commit')"
? 0
~ \['2', '0'\]
~ restored: ([0-9]) -> \1$

# --set-global on PostgreSQL uses ALTER SYSTEM and restores too
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; before=$($P -c 'show synchronous_commit'); ./bulkbench run workloads/copy_vs_load.lua --engine=pg --rows=2000 --set-global=synchronous_commit=off --format=json | python3 -c "import json,sys; print(json.load(sys.stdin)['server']['settings']['synchronous_commit'])"; sleep 0.2; echo "restored: $before -> $($P -c 'show synchronous_commit')"
? 0
~ ^off$
~ restored: on -> on$

# a setting that needs a restart cannot be swept
@ needs pg
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg --rows=10 --set-global=shared_buffers=1GB
? 2
~ only after a server restart

# --target runs every combination against each named server, and records its name
@ needs pg
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg --rows=1000 --target=one=$BULKBENCH_PG_DSN --target=two=$BULKBENCH_PG_DSN --format=json | python3 -c "import json,sys; print([json.loads(l)['target'] for l in sys.stdin])"
? 0
~ \['one', 'two'\]
