# SIGINT stops at a batch boundary: partial report, exit 130 within 2 s, committed rows exact
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg --method=copy --batch=20000 --rows=50000000 --format=json >$TMP/int.json 2>$TMP/int.err & p=$!; sleep 1.5; kill -INT $p; s=$(date +%s.%N); wait $p; rc=$?; e=$(date +%s.%N); said=$(python3 -c "import json; print(json.load(open('$TMP/int.json'))['rows'])"); got=$(psql -qAtX $BULKBENCH_PG_DSN -c 'select count(*) from bmsql_history'); echo "rc=$rc quick=$(echo "$e - $s < 2" | bc) exact=$([ "$said" = "$got" ] && echo yes || echo "no $said $got")"; cat $TMP/int.err
? 0
~ rc=130 quick=1 exact=yes
~ interrupted; [0-9]+ rows were committed

# SIGTERM does the same with exit 143, on MariaDB's LOAD DATA
$ ./bulkbench run workloads/copy_vs_load.lua --engine=mysql --method=load --batch=20000 --rows=50000000 --format=json >$TMP/term.json 2>/dev/null & p=$!; sleep 1.5; kill -TERM $p; wait $p; rc=$?; said=$(python3 -c "import json; print(json.load(open('$TMP/term.json'))['rows'])"); got=$(./bulkbench lua /dev/stdin <<<"print(require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'):count('bmsql_history'))"); echo "rc=$rc exact=$([ "$said" = "$got" ] && echo yes || echo "no $said $got")"
? 0
~ rc=143 exact=yes

# an event() script is interrupted too
$ ./bulkbench run <(echo 'function event() end') --engine=null --time=30 & p=$!; sleep 0.5; kill -INT $p; wait $p; echo "rc=$?"
? 0
~ rc=130
