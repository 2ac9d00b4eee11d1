#!/usr/bin/env bash
# Kill-and-restart trials: a load runs, the server is killed (SIGKILL / immediate stop) at a
# random moment, the runner must exit non-zero within 5 s naming engine and host:port, and
# once the server is back the table must hold exactly the rows the runner said it
# committed, plus at most the batches it reported in doubt (commits the server made durable
# but could not acknowledge; one per worker at most). Prints one line per trial and the tally.
#   tests/crash_trials.sh [TRIALS_PER_ENGINE]      (default 20; servers from contrib/dbctl)
set -u
cd "$(dirname "$0")/.."
N=${1:-20}
export BB_DBCTL_DIR; BB_DBCTL_DIR=${BB_DBCTL_DIR:-$(mktemp -d /tmp/bbcrash.XXXXXX)}
T=$(mktemp -d /tmp/bbtrial.XXXXXX)
trap 'contrib/dbctl stop all >/dev/null 2>&1; rm -rf "$T"' EXIT
for e in pg mysql; do out=$(contrib/dbctl start $e) || exit 1; export "${out#export }"; done
pass=0 failn=0
methods_pg=(copy multirow txn pipeline insert copy-binary)
methods_mysql=(load multirow txn insert)
for e in pg mysql; do
  if [ $e = pg ]; then methods=("${methods_pg[@]}"); dsn=$BULKBENCH_PG_DSN; else methods=("${methods_mysql[@]}"); dsn=$BULKBENCH_MYSQL_DSN; fi
  for i in $(seq "$N"); do
    m=${methods[$(( (i - 1) % ${#methods[@]} ))]}
    batch=1000; [ $m = copy ] || [ $m = copy-binary ] || [ $m = load ] && batch=20000
    ./bulkbench run workloads/copy_vs_load.lua --engine=$e --dsn="$dsn" --method=$m --batch=$batch --threads=2 \
      --rows=50000000 --format=json >"$T/out" 2>"$T/err" &
    p=$!
    sleep "$(python3 -c 'import random; print(round(random.uniform(1.0, 2.5), 2))')"
    contrib/dbctl kill $e
    t0=$(date +%s.%N)
    while kill -0 $p 2>/dev/null && [ "$(echo "$(date +%s.%N) - $t0 < 10" | bc)" = 1 ]; do sleep 0.05; done
    if kill -0 $p 2>/dev/null; then kill -9 $p; fi
    wait $p; rc=$?
    dt=$(echo "$(date +%s.%N) - $t0" | bc)
    contrib/dbctl restart $e
    read -r said doubt < <(python3 -c "import json,sys; l=[x for x in open('$T/out') if x.startswith('{')]; o=json.loads(l[-1]) if l else {}; print(o.get('rows', -1), o.get('rows_in_doubt', 0))")
    if [ $e = pg ]; then got=$(psql -qAtX "$dsn" -c "select count(*) from bmsql_history")
    else got=$(./bulkbench lua /dev/stdin <<<"print(require('bulkbench').connect('mysql', '$dsn'):count('bmsql_history'))"); fi
    named=0; grep -q "$e 127.0.0.1:" "$T/err" && named=1
    # exact: the table holds the acknowledged rows, or those plus the one batch reported in doubt
    if [ "$rc" -ne 0 ] && [ "$got" -ge "$said" ] && [ "$got" -le "$((said + doubt))" ] && \
       [ "$(echo "$dt <= 5" | bc)" = 1 ] && [ $named = 1 ]; then
      pass=$((pass + 1)); echo "ok - $e $m: exit $rc in ${dt}s, committed $said (+$doubt in doubt), table $got"
    else
      failn=$((failn + 1)); echo "not ok - $e $m: exit $rc in ${dt}s, runner said $said (+$doubt in doubt), table has $got, error named host: $named"
      tail -3 "$T/err" | sed 's/^/    /'
    fi
  done
done
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
