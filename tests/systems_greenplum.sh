# Greenplum's own checks (sourced by tests/systems.sh with DSN, check, json and $d): the DDL
# says how rows are distributed, a table's bytes and WAL are its segments', and seed 002's
# comparison runs through the coordinator.
nodes() { json "$1" "' '.join('%s:%s' % (n['role'], n['$2']) for n in r.get('nodes', []))"; }
policy() { psql -qAtX "$DSN" -c "select pg_get_table_distributedby('$1'::regclass)"; }

tb=$(nodes "$d/q.json" table_bytes)
check "a table's bytes are the segments' ($tb)" \
  "$([[ $tb =~ ^coordinator:[0-9]+\ segment:[1-9][0-9]*\ segment:[1-9][0-9]*$ ]] && echo 0 || echo 1)" "$tb"
wal=$(nodes "$d/q.json" log_bytes)
check "every segment's WAL is counted ($wal)" \
  "$([[ $wal =~ ^coordinator:[0-9]+\ segment:[1-9][0-9]*\ segment:[1-9][0-9]*$ ]] && echo 0 || echo 1)" "$wal"
walsum=$(json "$d/q.json" "sum(n['log_bytes'] for n in r['nodes']) == r['server']['log_bytes']")
check "log_bytes is the sum over the nodes" "$([ "$walsum" = True ] && echo 0 || echo 1)" "$walsum"
p=$(policy orders)
check "the DDL distributes by the primary key by default ($p)" "$([ "$p" = 'DISTRIBUTED BY (id)' ] && echo 0 || echo 1)" "$p"

for by in h_c_id none reference; do
  ./bulkbench run workloads/copy_vs_load.lua --engine=pg --dsn="$DSN" --method=copy --rows=3000 --distributed_by=$by \
    --format=json >"$d/by.json" 2>"$d/err"
  p=$(policy bmsql_history)
  want=$(case $by in h_c_id) echo 'DISTRIBUTED BY (h_c_id)' ;; none) echo 'DISTRIBUTED RANDOMLY' ;; reference) echo 'DISTRIBUTED REPLICATED' ;; esac)
  rows=$(json "$d/by.json" "r['verified_rows']")
  check "--distributed_by=$by: $p, $rows rows" "$([ "$p" = "$want" ] && [ "$rows" = 3000 ] && echo 0 || echo 1)" \
    "want $want; $(tail -1 "$d/err")"
done

# seed 002: one thread, batches of 1000 by txn, pipeline, multirow and copy, each verified
./bulkbench run workloads/batch_insert.lua --engine=pg --dsn="$DSN" --method=txn,pipeline,multirow,copy --rows=5000 \
  --format=json >"$d/seed.json" 2>"$d/err"
got=$(python3 -c "import json,sys; print(' '.join('%s:%s' % (r['method'], r['verified_rows']) for r in map(json.loads, open(sys.argv[1])) if 'method' in r))" "$d/seed.json" 2>/dev/null)
check "seed 002's txn, pipeline, multirow and copy each load 5000 rows ($got)" \
  "$([ "$got" = "txn:5000 pipeline:5000 multirow:5000 copy:5000" ] && echo 0 || echo 1)" "$(tail -2 "$d/err" | tr '\n' ' ')"
