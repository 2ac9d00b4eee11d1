# SIGINT stops at a batch boundary: partial report, exit 130 within 2 s, committed rows exact (each interrupting case waits for an event, here the run's first interval line, not for a number of seconds)
@ needs pg
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg --method=copy --batch=20000 --rows=50000000 --report-interval=0.2 --format=json >$TMP/int.json 2>$TMP/int.err & p=$!; for i in $(seq 600); do grep -q "thds:" $TMP/int.err && break; sleep 0.05; done; kill -INT $p; s=$(date +%s.%N); wait $p; rc=$?; e=$(date +%s.%N); said=$(python3 -c "import json; print(json.load(open('$TMP/int.json'))['rows'])"); got=$(psql -qAtX $BULKBENCH_PG_DSN -c 'select count(*) from bmsql_history'); echo "rc=$rc quick=$(echo "$e - $s < 2" | bc) exact=$([ "$said" = "$got" ] && echo yes || echo "no $said $got")"; cat $TMP/int.err
? 0
~ rc=130 quick=1 exact=yes
~ interrupted; [0-9]+ rows were committed

# SIGTERM does the same with exit 143, on MariaDB's LOAD DATA
@ needs mysql
$ ./bulkbench run workloads/copy_vs_load.lua --engine=mysql --method=load --batch=20000 --rows=50000000 --report-interval=0.2 --format=json >$TMP/term.json 2>$TMP/term.err & p=$!; for i in $(seq 600); do grep -q "thds:" $TMP/term.err && break; sleep 0.05; done; kill -TERM $p; wait $p; rc=$?; said=$(python3 -c "import json; print(json.load(open('$TMP/term.json'))['rows'])"); got=$(./bulkbench lua /dev/stdin <<<"print(require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'):count('bmsql_history'))"); echo "rc=$rc exact=$([ "$said" = "$got" ] && echo yes || echo "no $said $got")"
? 0
~ rc=143 exact=yes

# an event() script is interrupted too
$ ./bulkbench run <(echo 'function event() end') --engine=null --time=30 & p=$!; sleep 0.5; kill -INT $p; wait $p; echo "rc=$?"
? 0
~ rc=130

# SIGINT during `bulkbench load` on PostgreSQL: the chunks in flight roll back, exit 130 within 2 s, committed rows exact (sent once the first chunk has committed: a fast machine loads the file in under 2 s)
@ needs pg
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=3000000 --format=csv -o $TMP/h.csv && psql -qAtX $BULKBENCH_PG_DSN -c 'truncate bmsql_history' && { ./bulkbench load $TMP/h.csv --engine=pg --table=bmsql_history --threads=2 --chunk=4MB --out=$TMP/l.jsonl >$TMP/l.out 2>&1 & p=$!; for i in $(seq 200); do [ "$(psql -qAtX $BULKBENCH_PG_DSN -c 'select count(*) > 0 from bmsql_history')" = t ] && break; sleep 0.05; done; kill -INT $p; s=$(date +%s.%N); wait $p; rc=$?; e=$(date +%s.%N); said=$(python3 -c "import json; print([json.loads(l) for l in open('$TMP/l.jsonl')][-1]['rows'])"); got=$(psql -qAtX $BULKBENCH_PG_DSN -c 'select count(*) from bmsql_history'); echo "rc=$rc quick=$(echo "$e - $s < 2" | bc) exact=$([ "$said" = "$got" ] && [ "$got" -lt 3000000 ] && echo yes || echo "no $said $got") took=$(echo "$e - $s" | bc)s"; cat $TMP/l.out; }
? 0
~ rc=130 quick=1 exact=yes
~ [0-9]+ rows were committed before the load stopped

# SIGINT during `bulkbench load` on MariaDB: LOAD DATA in flight is cut off and rolled back, committed rows exact (sent once the first chunk has committed)
@ needs mysql
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=3000000 --format=csv -o $TMP/h.csv && ./bulkbench lua /dev/stdin <<<"require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'):exec('truncate bmsql_history')" && { ./bulkbench load $TMP/h.csv --engine=mysql --table=bmsql_history --threads=2 --chunk=4MB --out=$TMP/m.jsonl >$TMP/m.out 2>&1 & p=$!; M="mariadb -N -ubench -pbench -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/') bench"; for i in $(seq 600); do [ "$($M -e 'select count(*) > 0 from bmsql_history')" = 1 ] && break; sleep 0.05; done; kill -INT $p; s=$(date +%s.%N); wait $p; rc=$?; e=$(date +%s.%N); said=$(python3 -c "import json; print([json.loads(l) for l in open('$TMP/m.jsonl')][-1]['rows'])"); got=$(./bulkbench lua /dev/stdin <<<"print(require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'):count('bmsql_history'))"); echo "rc=$rc quick=$(echo "$e - $s < 2" | bc) exact=$([ "$said" = "$got" ] && [ "$got" -lt 3000000 ] && echo yes || echo "no $said $got") took=$(echo "$e - $s" | bc)s"; }
? 0
~ rc=130 quick=1 exact=yes

# SIGTERM during a run of single-row transactions on PostgreSQL: the transaction in flight finishes or rolls back, exit 143
@ needs pg
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg --method=txn --batch=100 --rows=50000000 --threads=2 --report-interval=0.2 --format=json >$TMP/t.json 2>$TMP/t.err & p=$!; for i in $(seq 600); do grep -q "thds:" $TMP/t.err && break; sleep 0.05; done; kill -TERM $p; wait $p; rc=$?; said=$(python3 -c "import json; print(json.load(open('$TMP/t.json'))['rows'])"); got=$(psql -qAtX $BULKBENCH_PG_DSN -c 'select count(*) from bmsql_history'); echo "rc=$rc exact=$([ "$said" = "$got" ] && echo yes || echo "no $said $got")"
? 0
~ rc=143 exact=yes

# SIGINT during MariaDB's pipeline (array binding): exit 130, committed rows exact
@ needs mysql
$ ./bulkbench run workloads/copy_vs_load.lua --engine=mysql --method=pipeline --rows=50000000 --threads=2 --report-interval=0.2 --format=json >$TMP/p.json 2>$TMP/p.err & p=$!; for i in $(seq 600); do grep -q "thds:" $TMP/p.err && break; sleep 0.05; done; kill -INT $p; wait $p; rc=$?; said=$(python3 -c "import json; print(json.load(open('$TMP/p.json'))['rows'])"); got=$(./bulkbench lua /dev/stdin <<<"print(require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'):count('bmsql_history'))"); echo "rc=$rc exact=$([ "$said" = "$got" ] && echo yes || echo "no $said $got")"
? 0
~ rc=130 exact=yes

# SIGINT during `bulkbench gen`: exit 130 at once, and the partial file is removed, not left to be loaded by mistake
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=100000000 --threads=2 -o $TMP/big.copy & p=$!; for i in $(seq 600); do [ -s $TMP/big.copy ] && break; sleep 0.05; done; kill -INT $p; s=$(date +%s.%N); wait $p; rc=$?; e=$(date +%s.%N); echo "rc=$rc quick=$(echo "$e - $s < 2" | bc) file=$([ -e $TMP/big.copy ] && echo kept || echo removed)"
? 0
~ rc=130 quick=1 file=removed
~ interrupted after [0-9]+ of 100000000 rows; removed the partial
