# Citus' own checks (sourced by tests/systems.sh with DSN, check, json and $d): the rows of
# a distributed table live on the workers, and the result says so node by node.
nodes() { json "$1" "' '.join('%s:%s' % (n['role'], n['$2']) for n in r.get('nodes', []))"; }

# distributed by a column: the shards are on both workers, the coordinator holds an empty shell
./bulkbench run workloads/quickstart.lua --engine=pg --dsn="$DSN" --method=copy --rows=20000 --distributed_by=id \
  --format=json >"$d/dist.json" 2>"$d/err"
tb=$(nodes "$d/dist.json" table_bytes)
ok=$(json "$d/dist.json" "[n['role'] for n in r['nodes']] == ['coordinator', 'worker', 'worker'] and all(n['table_bytes'] > 100 * r['nodes'][0]['table_bytes'] for n in r['nodes'][1:])")
check "a distributed table's bytes are the workers', the coordinator's shell is empty ($tb)" \
  "$([ "$ok" = True ] && echo 0 || echo 1)" "$(tail -1 "$d/err")"
sum=$(json "$d/dist.json" "sum(n['table_bytes'] for n in r['nodes']) == r['server']['table_bytes']")
check "table_bytes is the sum over the nodes" "$([ "$sum" = True ] && echo 0 || echo 1)" "$sum"
wal=$(nodes "$d/dist.json" log_bytes)
check "every node's WAL is counted ($wal)" "$([[ $wal =~ ^coordinator:[0-9]+\ worker:[1-9][0-9]*\ worker:[1-9][0-9]*$ ]] && echo 0 || echo 1)" "$wal"
walsum=$(json "$d/dist.json" "sum(n['log_bytes'] for n in r['nodes']) == r['server']['log_bytes']")
check "log_bytes is the sum over the nodes" "$([ "$walsum" = True ] && echo 0 || echo 1)" "$walsum"
cnt=$(psql -qAtX "$DSN" -c "select count(distinct nodeport) from citus_shards where table_name = 'orders'::regclass")
check "the table's shards are on both workers" "$([ "$cnt" = 2 ] && echo 0 || echo 1)" "on $cnt"

# a reference table: a whole copy on every node
./bulkbench run workloads/quickstart.lua --engine=pg --dsn="$DSN" --method=multirow --rows=5000 \
  --distributed_by=reference --format=json >"$d/ref.json" 2>"$d/err"
rows=$(json "$d/ref.json" "r['verified_rows']")
typ=$(psql -qAtX "$DSN" -c "select citus_table_type from citus_tables where table_name = 'orders'::regclass")
check "a reference table loads through the coordinator ($rows rows, $typ)" \
  "$([ "$rows" = 5000 ] && [ "$typ" = reference ] && echo 0 || echo 1)" "$(tail -1 "$d/err")"
same=$(json "$d/ref.json" "len({n['table_bytes'] for n in r['nodes'] if n['role'] == 'worker'}) == 1 and r['nodes'][1]['table_bytes'] > 0")
check "each worker holds the same whole copy" "$([ "$same" = True ] && echo 0 || echo 1)" "$(nodes "$d/ref.json" table_bytes)"

# none: Citus' own default, a table on the coordinator alone
./bulkbench run workloads/quickstart.lua --engine=pg --dsn="$DSN" --method=copy --rows=5000 --format=json \
  >"$d/local.json" 2>"$d/err"
tb=$(nodes "$d/local.json" table_bytes)
check "without distributed_by the table stays on the coordinator ($tb)" \
  "$([[ $tb =~ ^coordinator:[1-9][0-9]*\ worker:0\ worker:0$ ]] && echo 0 || echo 1)" "$(tail -1 "$d/err")"

# a script that distributes the table itself (the acceptance check's form) is not distributed twice
cat >"$d/own.lua" <<'LUA'
local bb = require "bulkbench"
local t = bb.table "sys_dist" { { "id", "bigint", bb.seq() }, { "v", "varchar(40)", bb.string { 10, 40 } } }
function prepare(db) db:recreate(t); db:exec("select create_distributed_table('sys_dist', 'id')") end
bb.load(t)
LUA
./bulkbench run "$d/own.lua" --engine=pg --dsn="$DSN" --method=copy --rows=10000 --format=json >"$d/own.json" 2>"$d/err"
tb=$(json "$d/own.json" "r['server']['table_bytes'] or 0")
check "a script's own create_distributed_table: table_bytes $tb > 0" "$([ "${tb:-0}" -gt 0 ] && echo 0 || echo 1)" \
  "$(tail -1 "$d/err")"
