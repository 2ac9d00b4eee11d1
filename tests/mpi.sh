#!/usr/bin/env bash
# Runs spread over MPI ranks and host lists, against the loopback servers of contrib/dbctl.
# Builds the MPI binary (make MPI=1) in a copy of the tree; skips, saying so, when Open
# MPI is not installed. Prints TAP.
set -u
cd "$(dirname "$0")/.."
plan=$(grep -cE '^check ' "$0") # its cases: planned first, so a run that stops short is seen
echo "1..$plan"
if ! command -v mpirun >/dev/null || ! pkg-config --exists ompi-c; then
  for i in $(seq "$plan"); do echo "ok $i - mpi # SKIP Open MPI is not installed (make deps installs it)"; done; exit 0
fi
d=$(mktemp -d "${TMPDIR:-/tmp}/bbmpi.XXXXXX")
trap 'BB_DBCTL_DIR=$d/dbctl2 contrib/dbctl stop all >/dev/null 2>&1; rm -rf "$d"' EXIT
# with the objects already built: only cluster.c reads BB_MPI, so only it is compiled again
tar --exclude=./bulkbench --exclude=./.git --exclude=./results -cf - . | tar -xf - -C "$d/" 2>/dev/null
touch "$d/runtime/core/run/cluster.c"
make -s -j"$(nproc)" -C "$d" MPI=1 all >"$d/build.log" 2>&1 || { echo "not ok - make MPI=1"; tail -5 "$d/build.log"; exit 1; }
BB="$d/bulkbench"
root=; [ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
export OMPI_MCA_btl_vader_single_copy_mechanism=none # no ptrace-based copies in containers
export OMPI_MCA_plm=isolated # every rank on this host: no ssh/rsh launcher needed
MPIRUN="mpirun $root --oversubscribe --bind-to none"
W="workloads/copy_vs_load.lua --seed=11 --now=2026-01-01"
N=200003
pg() { psql -qAtX "$1" -c "$2"; }
ck="select count(*) || ':' || sum(hashtext(t::text)::bigint) from bmsql_history t"
field() { python3 -c "import json,sys; o=json.loads([l for l in open('$1') if l.startswith('{')][-1]); print($2)"; }
t=0
check() { # description, condition (0 = ok), detail
  t=$((t + 1)); if [ "$2" -eq 0 ]; then echo "ok $t - $1"; else echo "not ok $t - $1: $3"; fi
}

# 1: two ranks load exactly the rows of one process with the same seed
./bulkbench run $W --engine=pg --method=copy --rows=$N --format=json >"$d/one.json" 2>"$d/err"
one=$(pg "$BULKBENCH_PG_DSN" "$ck")
$MPIRUN -np 2 "$BB" run $W --engine=pg --method=copy --rows=$N --format=json >"$d/two.json" 2>"$d/err"
rc=$?
two=$(pg "$BULKBENCH_PG_DSN" "$ck")
check "mpirun -np 2, pg copy: the table equals the one-process run's (count:checksum $one)" \
  "$([ $rc -eq 0 ] && [ "$one" = "$two" ] && echo 0 || echo 1)" "exit $rc, one process $one, two ranks $two; $(tail -2 "$d/err")"
rows=$(field "$d/two.json" "o['rows']"); sumr=$(field "$d/two.json" "sum(o['rank_rows'])"); ranks=$(field "$d/two.json" "o['ranks']")
check "the merged report: rows = $N = the sum of the ranks' rows, ranks = 2, verified" \
  "$([ "$rows" = $N ] && [ "$sumr" = $N ] && [ "$ranks" = 2 ] && [ "$(field "$d/two.json" "o['verified_rows']")" = $N ] && echo 0 || echo 1)" \
  "rows $rows, ranks' sum $sumr, ranks $ranks"

# 2: three ranks of two threads, multirow, and MariaDB's LOAD DATA: the same rows again
$MPIRUN -np 3 "$BB" run $W --engine=pg --method=multirow --threads=2 --rows=$N --format=json >"$d/three.json" 2>"$d/err"
rc=$?; three=$(pg "$BULKBENCH_PG_DSN" "$ck")
check "mpirun -np 3 --threads=2, pg multirow: the same table" "$([ $rc -eq 0 ] && [ "$three" = "$one" ] && echo 0 || echo 1)" \
  "exit $rc, $three vs $one"
$MPIRUN -np 2 "$BB" run $W --engine=mysql --method=load --batch=10000 --rows=$N --format=json >"$d/my.json" 2>"$d/err"
rc=$?
check "mpirun -np 2, mysql load: exit 0, rows $N verified by the table's count" \
  "$([ $rc -eq 0 ] && [ "$(field "$d/my.json" "o['verified_rows']")" = $N ] && echo 0 || echo 1)" "exit $rc; $(tail -2 "$d/err")"

# 3: a rank that cannot connect ends the whole run, quickly, naming the host
s0=$(date +%s.%N)
# the error is said once: in its row of the table (stdout), or on stderr where there is no table
timeout 60 $MPIRUN -np 1 "$BB" run $W --engine=pg --method=copy --rows=1000 --dsn="$BULKBENCH_PG_DSN" : \
  -np 1 "$BB" run $W --engine=pg --method=copy --rows=1000 --dsn=postgresql://bench@127.0.0.1:1/bench >"$d/out" 2>"$d/err"
rc=$?; dt=$(echo "$(date +%s.%N) - $s0" | bc)
check "a rank's connection failure: non-zero exit in ${dt}s, the error names rank 1 and 127.0.0.1:1" \
  "$([ $rc -ne 0 ] && [ $rc -ne 124 ] && cat "$d/out" "$d/err" | grep -q 'rank 1: pg: cannot connect to 127.0.0.1:1' && echo 0 || echo 1)" \
  "exit $rc; $(grep bulkbench "$d/err" | head -2)"

# 4: a host list of two servers, with and without MPI
out=$(BB_DBCTL_DIR=$d/dbctl2 contrib/dbctl start pg) || { echo "not ok - a second PostgreSQL: $out"; exit 1; }
PG2=${out#export BULKBENCH_PG_DSN=}
./bulkbench run $W --engine=pg --method=copy --threads=4 --rows=$N --dsn="$BULKBENCH_PG_DSN" --dsn="$PG2" \
  --format=json >"$d/hl.json" 2>"$d/err"
rc=$?
a=$(pg "$BULKBENCH_PG_DSN" "select count(*) from bmsql_history"); b=$(pg "$PG2" "select count(*) from bmsql_history")
check "--dsn twice: workers 0,2 on the first server, 1,3 on the second, both loaded, rows add up to $N" \
  "$([ $rc -eq 0 ] && [ $((a + b)) = $N ] && [ "$a" -gt 0 ] && [ "$b" -gt 0 ] && \
     [ "$(field "$d/hl.json" "[h['workers'] for h in o['hosts']]")" = "[[0, 2], [1, 3]]" ] && echo 0 || echo 1)" \
  "exit $rc, tables $a + $b; $(tail -2 "$d/err")"
check "each server's costs are reported, and their sums" \
  "$(field "$d/hl.json" "0 if all(h['log_bytes'] > 0 and h['table_bytes'] > 0 and h['cpu_s'] is not None for h in o['hosts']) and o['server']['log_bytes'] == sum(h['log_bytes'] for h in o['hosts']) else 1")" \
  "$(field "$d/hl.json" "o['hosts']")"
$MPIRUN -np 2 "$BB" run $W --engine=pg --method=copy --rows=$N --dsn="$BULKBENCH_PG_DSN" --dsn="$PG2" \
  --format=json >"$d/hl2.json" 2>"$d/err"
rc=$?
a=$(pg "$BULKBENCH_PG_DSN" "select count(*) from bmsql_history"); b=$(pg "$PG2" "select count(*) from bmsql_history")
check "mpirun -np 2 with two DSNs: rank r on server r mod 2, the halves $a + $b = $N" \
  "$([ $rc -eq 0 ] && [ "$a" = $((N / 2)) ] && [ "$b" = $((N - N / 2)) ] && \
     [ "$(field "$d/hl2.json" "[h['ranks'] for h in o['hosts']]")" = "[[0], [1]]" ] && echo 0 || echo 1)" \
  "exit $rc; $(tail -2 "$d/err")"

# 5: a rank whose server dies mid-run stops every rank within seconds; the count stays exact
$MPIRUN -np 2 "$BB" run $W --engine=pg --method=multirow --rows=20000000 --dsn="$BULKBENCH_PG_DSN" --dsn="$PG2" \
  --format=json >"$d/kill.json" 2>"$d/err" &
p=$!
sleep 2
BB_DBCTL_DIR=$d/dbctl2 contrib/dbctl kill pg
s0=$(date +%s.%N)
wait $p; rc=$?
dt=$(echo "$(date +%s.%N) - $s0" | bc)
BB_DBCTL_DIR=$d/dbctl2 contrib/dbctl restart pg >/dev/null
a=$(pg "$BULKBENCH_PG_DSN" "select count(*) from bmsql_history"); b=$(pg "$PG2" "select count(*) from bmsql_history")
said=$(field "$d/kill.json" "o['rows']"); doubt=$(field "$d/kill.json" "o['rows_in_doubt']")
check "a server killed under rank 1: exit $rc after ${dt}s naming rank 1; tables $a + $b = $((a + b)), runner said $said (+$doubt in doubt)" \
  "$([ $rc -ne 0 ] && [ "$(echo "$dt < 10" | bc)" = 1 ] && grep -q 'rank 1: pg' "$d/err" && \
     [ $((a + b)) -ge "$said" ] && [ $((a + b)) -le $((said + doubt)) ] && echo 0 || echo 1)" "$(grep bulkbench "$d/err" | head -3)"
