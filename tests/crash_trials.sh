#!/usr/bin/env bash
# Kill-and-restart trials. A load runs and the server is killed (SIGKILL / immediate stop) at
# a random moment.
#  - plain: the runner must exit non-zero within 5 s naming engine and host:port, and once
#    the server is back the table must hold exactly the rows the runner said it committed,
#    plus at most the batches it reported in doubt (commits the server made durable but
#    could not acknowledge; one per worker at most).
#  - --reconnect: the server is started again at once; the run (--reconnect=10) must finish
#    with exit 0 and the table must hold exactly the rows asked for: nothing lost, nothing twice.
# Prints one line per trial and the tally.
#   tests/crash_trials.sh [TRIALS_PER_ENGINE] [--reconnect]   (default 20; servers from contrib/dbctl)
set -u
cd "$(dirname "$0")/.."
N=${1:-20}
MODE=${2:-}
# servers of our own, unless the caller (make check) lends its own: those stay up afterwards
own=0; [ -z "${BB_DBCTL_DIR:-}" ] && own=1
export BB_DBCTL_DIR; BB_DBCTL_DIR=${BB_DBCTL_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/bbcrash.XXXXXX")}
T=$(mktemp -d "${TMPDIR:-/tmp}/bbtrial.XXXXXX")
trap '[ $own = 1 ] && contrib/dbctl stop all >/dev/null 2>&1; rm -rf "$T"' EXIT
for e in pg mysql; do out=$(contrib/dbctl start $e) || exit 1; export "${out#export }"; done
pass=0 failn=0
if [ "$MODE" = --reconnect ]; then
  methods_pg=(copy multirow txn pipeline copy-binary copy-csv)
  methods_mysql=(load multirow txn pipeline)
else
  methods_pg=(copy multirow txn pipeline insert copy-binary)
  methods_mysql=(load multirow txn pipeline insert)
fi
# rows for a run of a few seconds on this machine: the kill comes within a second of its first
# report, and the check below fails a trial whose run ended before it
rows_for() {
  case $1 in
    copy*|load) echo 2500000 ;; multirow|pipeline) echo 1000000 ;; txn) [ "$2" = pg ] && echo 300000 || echo 150000 ;;
  esac
}
count() {
  if [ "$1" = pg ]; then psql -qAtX "$2" -c "select count(*) from bmsql_history"
  else ./bulkbench lua /dev/stdin <<<"print(require('bulkbench').connect('mysql', '$2'):count('bmsql_history'))"; fi
}
for e in pg mysql; do
  if [ $e = pg ]; then methods=("${methods_pg[@]}"); dsn=$BULKBENCH_PG_DSN; else methods=("${methods_mysql[@]}"); dsn=$BULKBENCH_MYSQL_DSN; fi
  for i in $(seq "$N"); do
    m=${methods[$(( (i - 1) % ${#methods[@]} ))]}
    batch=1000; [ $m = copy ] || [ $m = copy-binary ] || [ $m = copy-csv ] || [ $m = load ] && batch=20000
    if [ "$MODE" = --reconnect ]; then rows=$(rows_for $m $e); extra=--reconnect=10; else rows=50000000; extra=; fi
    ./bulkbench run workloads/copy_vs_load.lua --engine=$e --dsn="$dsn" --method=$m --batch=$batch --threads=2 \
      --rows=$rows $extra --report-interval=0.2 --format=json >"$T/out" 2>"$T/err" &
    p=$!
    # the kill lands at a random moment in the load's first second: after its first report with
    # rows in it (so connecting and creating the table are behind it), however fast the machine
    for _ in $(seq 200); do grep -q 'rows/s: [1-9]' "$T/err" 2>/dev/null && break; kill -0 $p 2>/dev/null || break; sleep 0.05; done
    sleep "$(python3 -c 'import random; print(round(random.uniform(0.1, 1.0), 2))')"
    contrib/dbctl kill $e
    t0=$(date +%s.%N)
    if [ "$MODE" = --reconnect ]; then
      contrib/dbctl restart $e
      wait $p; rc=$?
      read -r said reconn < <(python3 -c "import json,sys; l=[x for x in open('$T/out') if x.startswith('{')]; o=json.loads(l[-1]) if l else {}; print(o.get('rows', -1), o.get('reconnects', 0))")
      got=$(count $e "$dsn")
      # and the kill hit the run (a session renewed), not a run already over
      if [ "$rc" -eq 0 ] && [ "$said" = "$rows" ] && [ "$got" = "$rows" ] && [ "${reconn:-0}" -ge 1 ]; then
        pass=$((pass + 1)); echo "ok - $e $m --reconnect: exit 0, $reconn sessions renewed, table $got = $rows asked"
      else
        failn=$((failn + 1)); echo "not ok - $e $m --reconnect: exit $rc, runner said $said, table has $got of $rows asked"
        tail -3 "$T/err" | sed 's/^/    /'
      fi
      continue
    fi
    while kill -0 $p 2>/dev/null && [ "$(echo "$(date +%s.%N) - $t0 < 10" | bc)" = 1 ]; do sleep 0.05; done
    if kill -0 $p 2>/dev/null; then kill -9 $p; fi
    wait $p; rc=$?
    dt=$(echo "$(date +%s.%N) - $t0" | bc)
    contrib/dbctl restart $e
    read -r said doubt < <(python3 -c "import json,sys; l=[x for x in open('$T/out') if x.startswith('{')]; o=json.loads(l[-1]) if l else {}; print(o.get('rows', -1), o.get('rows_in_doubt', 0))")
    got=$(count $e "$dsn")
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
