#!/usr/bin/env bash
# Re-runs the five seed experiments at docs/experiments.md's scale and writes
# results/<scenario>.jsonl, results/<scenario>.md and docs/<scenario>.svg. Every point runs
# REPEAT times (default 3), interleaved with the other points of its sweep, so each figure
# is a median with its 95% interval (about 20 minutes on 2 cores; REPEAT=1: about 6).
#   contrib/seeds.sh [scenario...]      (servers from BULKBENCH_*_DSN, else throwaway ones)
set -euo pipefail
cd "$(dirname "$0")/.."
BB="./bulkbench"
REPEAT=${REPEAT:-3}
run() { "$BB" run "$@" --repeat="$REPEAT"; }
mkdir -p results docs
if [ -z "${BULKBENCH_PG_DSN:-}" ] || [ -z "${BULKBENCH_MYSQL_DSN:-}" ]; then
  export BB_DBCTL_DIR; BB_DBCTL_DIR=$(mktemp -d /tmp/bbseeds.XXXXXX)
  for e in pg mysql; do out=$(contrib/dbctl start $e); export "${out#export }"; done
  trap 'contrib/dbctl stop all >/dev/null 2>&1; rm -rf "$BB_DBCTL_DIR"' EXIT
fi

copy_vs_load() {
  run workloads/copy_vs_load.lua --engine=pg,mysql,sqlite --rows=1000000 --out=$1
}
parallel_load() {
  local W=workloads/parallel_load.lua N=1000000
  run $W --engine=mysql --method=load --threads=1 --rows=$N --out=$1
  run $W --engine=mysql --method=load --threads=2,4 --batch=20000 --rows=$N --out=$1
  run $W --engine=mysql --method=multirow --threads=2,4 --batch=1000 --rows=$N --out=$1
  run $W --engine=mysql --method=pipeline --threads=2,4 --batch=1000 --rows=$N --out=$1
  run $W --engine=mysql --method=txn --threads=1 --batch=1000 --rows=$N --out=$1
  run $W --engine=pg --method=copy --threads=1 --rows=$N --out=$1
  run $W --engine=pg --method=copy --threads=2,4 --batch=20000 --rows=$N --out=$1
  run $W --engine=pg --method=multirow --threads=2,4 --batch=1000 --rows=$N --out=$1
}
batch_insert() {
  run workloads/batch_insert.lua --engine=mysql,pg,sqlite --rows=100000 --out=$1
}
log_load_query() {
  run workloads/log_load_query.lua --engine=mysql,pg --rows=1000000 --out=$1
}
multi_thread_insert() {
  local W=workloads/multi_thread_insert.lua
  run $W --engine=mysql --time=5 --storage=InnoDB --tables=1 --out=$1
  run $W --engine=mysql --time=5 --storage=InnoDB --tables=16 --out=$1
  run $W --engine=mysql --time=5 --storage=MyISAM --tables=1 --out=$1
  run $W --engine=pg --time=5 --tables=1 --out=$1
}
settings() { # durability settings as sweep dimensions, restored afterwards
  local W=workloads/multi_thread_insert.lua
  run $W --engine=pg --threads=1,4 --time=5 --set=synchronous_commit=on,off --out=$1
  run $W --engine=mysql --threads=1,4 --time=5 --set-global=innodb_flush_log_at_trx_commit=1,2 --out=$1
}

list=("$@")
[ ${#list[@]} -eq 0 ] && list=(copy_vs_load parallel_load batch_insert log_load_query multi_thread_insert settings)
for s in "${list[@]}"; do
  rm -f "results/$s.jsonl"
  "$s" "results/$s.jsonl" >/dev/null
  $BB report "results/$s.jsonl" --format=markdown --svg="docs/$s.svg" $([ $s = batch_insert ] || [ $s = parallel_load ] && echo --log) >"results/$s.md"
  echo "== $s"; cat "results/$s.md"
done
