#!/usr/bin/env bash
# make bench: bulkbench beside its peers, in one run, alternating, medians and ratios.
#   contrib/bench.sh [SECTION...]    sections: runtime gen generators floor cost pg mysql files odbc advise waits tls scale (default: all)
#   (scale, in contrib/bench_scale.sh: forecasts against whole loads in a memory cgroup; an hour or more)
# pg and mysql use the servers in BULKBENCH_PG_DSN / BULKBENCH_MYSQL_DSN, else start
# throwaway ones with contrib/dbctl.
# Absolute times on a shared 2-core machine mean little; the ratios measured here, in the
# same run, alternating A/B, are what docs/benchmarks.md quotes.
set -u
cd "$(dirname "$0")/.."
BB=./bulkbench
RUNS=${RUNS:-5}
T=$(mktemp -d /tmp/bbbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
summary=()

median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2 }'; }
# wall seconds of a command (its output discarded); non-zero exit aborts the bench
wall() {
  local s e
  s=$(date +%s.%N)
  "$@" >"$T/out" 2>"$T/err" || { echo "bench: command failed: $*" >&2; tail -5 "$T/err" >&2; exit 1; }
  e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
# "R× [LO, HI]": the median of the alternating pairs' ratios a_i / b_i and its 95% interval,
# by bootstrap over the pairs (4000 resamples, seeded: the same runs give the same interval).
# The lists are space-separated; a pair measured in one round shares that round's drift.
ratio_ci() {
  python3 - "$1" "$2" <<'PY'
import random, statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
r = [x / y for x, y in zip(a, b)]
rng = random.Random(1)
meds = sorted(statistics.median(rng.choice(r) for _ in r) for _ in range(4000))
print("%.3f\u00d7 [%.3f, %.3f]" % (statistics.median(r), meds[int(0.025 * len(meds))], meds[int(0.975 * len(meds)) - 1]))
PY
}
report() { # name, unit, A-label, A-median, B-label, B-median, ratio text
  local fmt='%.0f'
  [ "$2" = s ] && fmt='%.3f'
  printf "%-50s %-12s $fmt   %-14s $fmt   %s\n" "$1" "$3" "$4" "$5" "$6" "$7"
  summary+=("$(printf "| %s | %s $fmt %s | %s $fmt %s | %s |" "$1" "$3" "$4" "$2" "$5" "$6" "$2" "$7")")
}

bench_runtime() {
  local N=5000000 a=() b=() ma mb
  echo 'function event() end' >"$T/empty.lua"
  if command -v sysbench >/dev/null; then
    for i in $(seq "$RUNS"); do
      a+=("$(echo "$N / $(wall $BB run "$T/empty.lua" --engine=null --events=$N --threads=1)" | bc -l)")
      b+=("$(echo "$N / $(wall sysbench "$T/empty.lua" --events=$N --time=0 --threads=1 run)" | bc -l)")
    done
    ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
    report "empty event(), 1 thread, $N events" "events/s" bulkbench "$ma" sysbench "$mb" \
      "$(ratio_ci "${a[*]}" "${b[*]}") sysbench"
  else
    echo "runtime: sysbench not installed (make deps)"
  fi
  a=(); b=()
  for i in $(seq "$RUNS"); do   # the interval samples are taken by the waiting thread: the workers must not notice
    a+=("$(events_per_s "$T/empty.lua" --engine=null --time=10 --report-interval=1)")
    b+=("$(events_per_s "$T/empty.lua" --engine=null --time=10 --report-interval=0)")
  done
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  report "empty event(), 10 s: samples each 1 s vs none" "events/s" "samples" "$ma" "none" "$mb" \
    "$(ratio_ci "${a[*]}" "${b[*]}") without samples (goal: within 2%)"
}
# events_per_s SCRIPT OPTIONS...: a run's events/s from its JSON result
events_per_s() {
  $BB run "$@" --format=json 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["events_per_s"])' \
    || { echo "bench: run failed: $*" >&2; exit 1; }
}

bench_gen() {
  local W=workloads/copy_vs_load.lua N=5000000 P=200000 a=() b=() m1 m10
  for i in $(seq "$RUNS"); do
    a+=("$(echo "$N / $(wall $BB gen $W --table=bmsql_history --rows=$N --format=copy --threads=1 -o /dev/null)" | bc -l)")
    b+=("$(echo "$P / $(wall python3 contrib/seed000_generator.py $P "$T/py.csv")" | bc -l)")
  done
  local ma mb
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  report "bmsql_history data file, 1 thread" "rows/s" "bulkbench" "$ma" "seed000.py" "$mb" \
    "$(ratio_ci "${a[*]}" "${b[*]}") the Python generator"
  m1=$(/usr/bin/time -f %M $BB gen $W --table=bmsql_history --rows=1000000 -o /dev/null 2>&1 >/dev/null | tail -1)
  m10=$(/usr/bin/time -f %M $BB gen $W --table=bmsql_history --rows=10000000 -o /dev/null 2>&1 >/dev/null | tail -1)
  echo "  peak RSS of gen: 1M rows ${m1} KB, 10M rows ${m10} KB"
}

# cpu_of CMD...: user+sys seconds of a command to the microsecond (getrusage of the child;
# /usr/bin/time rounds to 10 ms); its output discarded, a failure aborts the bench
cpu_of() {
  python3 -c 'import resource, subprocess, sys
cpu = lambda: sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])  # what python itself started counts too
c0 = cpu()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("%.6f" % (cpu() - c0) if r.returncode == 0 else "")' "$@" | grep . \
    || { echo "bench: command failed: $*" >&2; exit 1; }
}

# time_cpu CMD...: "wall user+sys" of a command (its output in $T/out)
time_cpu() {
  /usr/bin/time -f "%e %U %S" -o "$T/time" "$@" >"$T/out" 2>"$T/err" \
    || { echo "bench: command failed: $*" >&2; tail -5 "$T/err" >&2; exit 1; }
  awk '{printf "%s %s\n", $1, $2 + $3}' "$T/time"
}
med() { printf '%s\n' "$@" | median; }
# the last command's own timing of its load phase: bulkbench's "seconds" (the copy or load
# alone) from the last JSON line of FILE (default: its output), psql's \timing of its \copy
bb_seconds() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["seconds"])' "${1:-$T/out}"; }
psql_seconds() { awk '/^Time:/{printf "%.3f\n", $2 / 1000}' "$T/out" | tail -1; }
ratio() { echo "$1 / $2" | bc -l; }

servers() { # starts the loopback servers unless the environment names them
  if [ -z "${BULKBENCH_PG_DSN:-}" ] || [ -z "${BULKBENCH_MYSQL_DSN:-}" ]; then
    export BB_DBCTL_DIR; BB_DBCTL_DIR=$(mktemp -d /tmp/bbbenchdb.XXXXXX) # its own: servers' users must enter it
    for e in pg mysql; do out=$(contrib/dbctl start $e) || exit 1; export "${out#export }"; done
    trap 'contrib/dbctl stop all >/dev/null 2>&1; rm -rf "$T" "$BB_DBCTL_DIR"' EXIT
  fi
  source "$(dirname "$0")/../tests/fixtures/peers.sh"
}

bench_pg() {
  servers
  local W=workloads/copy_vs_load.lua N=1000000 M=200000 a=() b=() ac=() bc=() ap=() bp=() x
  $BB gen $W --table=bmsql_history --rows=$N --format=copy -o "$T/h.copy"
  $PSQL -c "$BMSQL_DDL" >/dev/null
  for i in $(seq "$RUNS"); do   # copy vs psql \copy of the same rows, pre-generated (not timed)
    $PSQL -c "truncate bmsql_history" >/dev/null
    x=$(time_cpu $BB run $W --engine=pg --method=copy --rows=$N --format=json); a+=("${x% *}"); ac+=("${x#* }")
    ap+=("$(bb_seconds)")
    $PSQL -c "truncate bmsql_history" >/dev/null
    x=$(time_cpu $PSQL -c '\timing on' -c "\\copy bmsql_history from '$T/h.copy'"); b+=("${x% *}"); bc+=("${x#* }")
    bp+=("$(psql_seconds)")
  done
  report "pg copy, $N rows, 1 worker (wall s)" "s" bulkbench "$(med "${a[@]}")" "psql \\copy" "$(med "${b[@]}")" \
    "$(ratio_ci "${a[*]}" "${b[*]}") psql's wall time"
  report "pg copy, the COPY alone (s)" "s" bulkbench "$(med "${ap[@]}")" "psql \\timing" "$(med "${bp[@]}")" \
    "$(ratio_ci "${ap[*]}" "${bp[*]}") psql's (the rest of the wall: set-up and the verifying count)"
  a=(); b=(); ac=(); bc=()
  for i in $(seq 3); do         # multirow vs sysbench's bulk insert
    $PSQL -c "truncate bmsql_history" >/dev/null
    x=$(time_cpu $BB run $W --engine=pg --method=multirow --batch=1000 --rows=$M); a+=("${x% *}"); ac+=("${x#* }")
    $PSQL -c "truncate bmsql_history" >/dev/null
    x=$(time_cpu sysbench tests/fixtures/sysbench_bulk.lua $SB_PG --events=$M --time=0 run); b+=("${x% *}"); bc+=("${x#* }")
  done
  report "pg multirow (batch 1000) vs sysbench bulk insert" "rows/s" bulkbench "$(ratio $M "$(med "${a[@]}")")" \
    sysbench "$(ratio $M "$(med "${b[@]}")")" "$(printf '%s rows/s; client CPU/1M rows %.2f vs %.2f s' \
    "$(ratio_ci "${b[*]}" "${a[*]}")" "$(echo "$(med "${ac[@]}") * 1000000 / $M" | bc -l)" \
    "$(echo "$(med "${bc[@]}") * 1000000 / $M" | bc -l)")"
  for c in 1 2; do              # insert vs pgbench -M prepared, same one-row statement
    a=(); b=()
    for i in $(seq 3); do
      $PSQL -c "truncate bmsql_history" >/dev/null
      a+=("$($BB run $W --engine=pg --method=insert --threads=$c --time=5 --format=json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows_per_s"])')")
      $PSQL -c "truncate bmsql_history" >/dev/null
      b+=("$(pgbench -n -f tests/fixtures/pgbench_insert.sql -c $c -j $c -T 5 -M prepared $PGB_ARGS 2>/dev/null | awk '/^tps/{print $3}')")
    done
    report "pg insert, $c client(s), 5 s" "rows/s" bulkbench "$(med "${a[@]}")" pgbench "$(med "${b[@]}")" \
      "$(ratio_ci "${a[*]}" "${b[*]}") pgbench"
  done
}

bench_mysql() {
  servers
  local W=workloads/copy_vs_load.lua N=500000 M=200000 a=() b=() ac=() bc=() x
  $BB gen $W --table=bmsql_history --rows=$N --format=tsv -o "$T/h.tsv"
  $MYSQL -e "$BMSQL_DDL"
  for i in $(seq "$RUNS"); do   # load vs the mariadb client's LOAD DATA LOCAL of the same rows
    $MYSQL -e "truncate bmsql_history"
    x=$(time_cpu $BB run $W --engine=mysql --method=load --rows=$N); a+=("${x% *}")
    $MYSQL -e "truncate bmsql_history"
    x=$(time_cpu $MYSQL -e "LOAD DATA LOCAL INFILE '$T/h.tsv' INTO TABLE bmsql_history"); b+=("${x% *}")
  done
  report "mysql load, $N rows, 1 worker (wall s)" "s" bulkbench "$(med "${a[@]}")" "mariadb client" "$(med "${b[@]}")" \
    "$(ratio_ci "${a[*]}" "${b[*]}") the client's wall time"
  a=(); b=(); ac=(); bc=(); local p=() pc=()
  for i in $(seq 3); do         # multirow and pipeline (array binding) vs sysbench's bulk insert
    $MYSQL -e "truncate bmsql_history"
    x=$(time_cpu $BB run $W --engine=mysql --method=multirow --batch=1000 --rows=$M); a+=("${x% *}"); ac+=("${x#* }")
    x=$(time_cpu $BB run $W --engine=mysql --method=pipeline --batch=1000 --rows=$M); p+=("${x% *}"); pc+=("${x#* }")
    $MYSQL -e "truncate bmsql_history"
    x=$(time_cpu sysbench tests/fixtures/sysbench_bulk.lua $SB_MY --events=$M --time=0 run); b+=("${x% *}"); bc+=("${x#* }")
  done
  for m in multirow pipeline; do
    local w=("${a[@]}") c=("${ac[@]}")
    [ $m = pipeline ] && w=("${p[@]}") c=("${pc[@]}")
    report "mysql $m (batch 1000) vs sysbench bulk insert" "rows/s" bulkbench "$(ratio $M "$(med "${w[@]}")")" \
      sysbench "$(ratio $M "$(med "${b[@]}")")" "$(printf '%s rows/s; client CPU/1M rows %.2f vs %.2f s' \
      "$(ratio_ci "${b[*]}" "${w[*]}")" "$(echo "$(med "${c[@]}") * 1000000 / $M" | bc -l)" \
      "$(echo "$(med "${bc[@]}") * 1000000 / $M" | bc -l)")"
  done
  for c in 1 2; do
    a=(); b=()
    for i in $(seq 3); do
      $MYSQL -e "truncate bmsql_history"
      a+=("$($BB run $W --engine=mysql --method=insert --threads=$c --time=5 --format=json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows_per_s"])')")
      $MYSQL -e "truncate bmsql_history"
      b+=("$(sysbench tests/fixtures/sysbench_insert.lua $SB_MY --threads=$c --time=5 run 2>/dev/null | awk '/transactions:/{gsub(/\(/,"",$3); print $3}')")
    done
    report "mysql insert, $c thread(s), 5 s" "rows/s" bulkbench "$(med "${a[@]}")" sysbench "$(med "${b[@]}")" \
      "$(ratio_ci "${a[*]}" "${b[*]}") sysbench"
  done
}

# two client processes, one per half of the file, started together: the wall time of both
pg_two() { $PSQL -c "\\copy bmsql_history from '$T/h.csv.00' csv" & $PSQL -c "\\copy bmsql_history from '$T/h.csv.01' csv"; wait; }
my_two() {
  local q="INTO TABLE bmsql_history FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"
  $MYSQL -e "LOAD DATA LOCAL INFILE '$T/h.csv.00' $q" & $MYSQL -e "LOAD DATA LOCAL INFILE '$T/h.csv.01' $q"; wait
}

bench_files() { # bulkbench load of one CSV file, 1 and 2 workers, beside the clients (one stream, two over a split file)
  servers
  local N=1000000 a=() b=() c=() d=() e=() f=() g=() h=() ap=() cp=()
  $BB gen workloads/copy_vs_load.lua --table=bmsql_history --rows=$N --format=csv -o "$T/h.csv"
  split -n l/2 -d "$T/h.csv" "$T/h.csv." # no quoted newlines in these rows: halves at a line end
  $PSQL -c "$BMSQL_DDL" >/dev/null; $MYSQL -e "$BMSQL_DDL"
  for i in $(seq 3); do
    $PSQL -c "truncate bmsql_history" >/dev/null; g+=("$(wall pg_two)")
    $MYSQL -e "truncate bmsql_history"; h+=("$(wall my_two)")
    $PSQL -c "truncate bmsql_history" >/dev/null
    a+=("$(wall $BB load "$T/h.csv" --engine=pg --table=bmsql_history --threads=1 --out="$T/load.jsonl")"); ap+=("$(bb_seconds "$T/load.jsonl")")
    $PSQL -c "truncate bmsql_history" >/dev/null; b+=("$(wall $BB load "$T/h.csv" --engine=pg --table=bmsql_history --threads=2)")
    $PSQL -c "truncate bmsql_history" >/dev/null
    c+=("$(wall $PSQL -c '\timing on' -c "\\copy bmsql_history from '$T/h.csv' csv")"); cp+=("$(psql_seconds)")
    $MYSQL -e "truncate bmsql_history"; d+=("$(wall $BB load "$T/h.csv" --engine=mysql --table=bmsql_history --threads=1)")
    $MYSQL -e "truncate bmsql_history"; e+=("$(wall $BB load "$T/h.csv" --engine=mysql --table=bmsql_history --threads=2)")
    $MYSQL -e "truncate bmsql_history"
    f+=("$(wall $MYSQL -e "LOAD DATA LOCAL INFILE '$T/h.csv' INTO TABLE bmsql_history FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'")")
  done
  report "pg load of a 1M-row CSV, 1 worker (wall s)" s bulkbench "$(med "${a[@]}")" "psql \\copy" "$(med "${c[@]}")" \
    "$(ratio_ci "${a[*]}" "${c[*]}") psql; 2 workers $(ratio_ci "${a[*]}" "${b[*]}") faster than 1"
  report "pg load of the CSV, the COPY alone (s)" s bulkbench "$(med "${ap[@]}")" "psql \\timing" "$(med "${cp[@]}")" \
    "$(ratio_ci "${ap[*]}" "${cp[*]}") psql's"
  report "mysql load of a 1M-row CSV, 1 worker (wall s)" s bulkbench "$(med "${d[@]}")" "mariadb client" "$(med "${f[@]}")" \
    "$(ratio_ci "${d[*]}" "${f[*]}") the client; 2 workers $(ratio_ci "${d[*]}" "${e[*]}") faster than 1"
  report "pg load, 2 workers vs 2 psql over a split file (wall s)" s bulkbench "$(med "${b[@]}")" "2 x psql \copy" "$(med "${g[@]}")" \
    "$(ratio_ci "${b[*]}" "${g[*]}") the two clients"
  report "mysql load, 2 workers vs 2 clients over a split file (wall s)" s bulkbench "$(med "${e[@]}")" "2 x mariadb" "$(med "${h[@]}")" \
    "$(ratio_ci "${e[*]}" "${h[*]}") the two clients"
}

# What one value of each generator adds to a row, in ns of CPU: a table of an empty constant
# and 8 columns of that kind written to /dev/null as COPY text, less the same rows of the
# empty constant alone (the rows' own cost: their loop and line ends, the write, the
# process), over 8 N values; medians of RUNS runs, each the process's CPU to the microsecond.
bench_generators() {
  local N=${GEN_ROWS:-2000000} kinds k base
  cat >"$T/kinds.lua" <<'LUA'
local bb = require "bulkbench"
local kinds = {
  seq = { "bigint", bb.seq() },
  int = { "int", bb.int { 0, 1000 } },
  ["int (wide)"] = { "bigint", bb.int { -9e18, 9e18 } },
  permutation = { "int", bb.permutation { 1, 1000000 } },
  double = { "double", bb.double { 0, 1 } },
  ["decimal (scale 2)"] = { "decimal(8,2)", bb.decimal { 0, 9999 } },
  ["decimal (scale 4)"] = { "decimal(12,4)", bb.decimal { min = 0, max = 9999, scale = 4 } },
  ["string (20)"] = { "varchar(24)", bb.string { len = 20 } },
  ["string (5..40)"] = { "varchar(40)", bb.string { min = 5, max = 40 } },
  template = { "text", bb.template "###-@@@-####" },
  ["timestamp (from, to)"] = { "timestamp", bb.timestamp { from = "2020-01-01", to = "2025-01-01" } },
  ["timestamp (now)"] = { "timestamp", bb.timestamp "now" },
  date = { "date", bb.date() },
  bool = { "boolean", bb.bool() },
  uuid = { "uuid", bb.uuid() },
  uuid7 = { "uuid", bb.uuid7() },
  choice = { "text", bb.choice { "GET", "POST", "PUT", "DELETE" } },
  const = { "text", bb.const "constant" },
  gaussian = { "double", bb.gaussian { 0, 1 } },
  zipf = { "int", bb.zipf { 1, 1000 } },
  pareto = { "double", bb.pareto() },
  ["int, 10% NULL"] = { "int", bb.int { 0, 1000 }, 0.1 },
  ["json (3 members)"] = { "json", bb.json { a = bb.int { 0, 9 }, b = bb.double { 0, 1 }, c = bb.choice { "x", "y" } } },
  ["literal 5"] = { "int", 5 },
  -- a Lua function per value, in the generating thread's own state (a table with one goes row by row)
  ["function n * 2"] = { "bigint", function(n) return n * 2 end },
  ["function rng(1000)"] = { "int", function(_, rng) return rng(1000) end },
  ["function string.format"] = { "text", function(n) return ("id-%d"):format(n) end },
  ["function -> table (JSON)"] = { "json", function(n) return { n = n } end },
}
bb.table "g_base" { { "k", "text", bb.const "" } } -- a row with nothing in it
for name, k in pairs(kinds) do
  local cols = { { "k", "text", bb.const "" } }
  for i = 1, 8 do cols[i + 1] = { "v" .. i, k[1], k[2], null = k[3] } end
  bb.table("g_" .. name)(cols)
end
LUA
  kinds=(seq int "int (wide)" permutation double "decimal (scale 2)" "decimal (scale 4)" "string (20)" "string (5..40)"
         template "timestamp (from, to)" "timestamp (now)" date bool uuid uuid7 choice const gaussian zipf pareto
         "int, 10% NULL" "json (3 members)" "literal 5" "function n * 2" "function rng(1000)" "function string.format"
         "function -> table (JSON)")
  gen_cpu() { cpu_of $BB gen "$T/kinds.lua" --table="g_$1" --rows=$N --format=copy --threads=1 -o /dev/null; }
  local b=() a=()
  for i in $(seq "$RUNS"); do b+=("$(gen_cpu base)"); done
  base=$(med "${b[@]}")
  echo
  echo "generators: ns of CPU per value, COPY text, 1 thread, $N rows of 8 values (less a row without them: $(printf '%.1f' "$(echo "$base * 1000000000 / $N" | bc -l)") ns)"
  printf '  %-24s %8s\n' generator ns/value
  summary+=("" "| generator | ns/value (COPY text, 1 thread) |" "|---|---|")
  for k in "${kinds[@]}"; do
    a=()
    for i in $(seq "$RUNS"); do a+=("$(gen_cpu "$k")"); done
    local ns; ns=$(echo "($(med "${a[@]}") - $base) * 1000000000 / ($N * 8)" | bc -l)
    printf '  %-24s %8.1f\n' "$k" "$ns"
    summary+=("$(printf '| %s | %.1f |' "$k" "$ns")")
  done
  summary+=("")
}

# The physical floor under a 1M-row stream (75 MB of COPY text): the CPU to copy the bytes
# once in memory, and the sending process's CPU to push them through a loopback TCP socket
# in 64 KB writes to a reader that drops them (what any client pays the kernel, whatever
# made the bytes); best of 5 and median of 5.
# A VM that hands its free memory back to the host (virtio-balloon's free page reporting) makes
# the kernel's next use of such a page fault on the host, so the system CPU of identical runs
# varies several-fold; said before the sections that measure CPU (docs/performance.md)
vm_note() {
  local o=/sys/module/page_reporting/parameters/page_reporting_order
  [ -r $o ] && [ "$(cat $o)" -le 10 ] || return 0
  echo "note: this VM reports free memory to its host (page_reporting_order $(cat $o)): system CPU of identical runs varies several-fold; medians of many pairs, or docs/performance.md's quiet set-up"
}

bench_floor() {
  vm_note
  python3 - "${FLOOR_BYTES:-75000000}" <<'PY'
import os, resource, socket, statistics, sys, time
n = int(sys.argv[1])
src = bytearray(os.urandom(1 << 20)) * max(1, n >> 20)
dst = bytearray(len(src))
best = 1e9
for _ in range(5):
    t = time.process_time(); dst[:] = src; best = min(best, time.process_time() - t)
mb = len(src) / 1e6
print("floor: copying %.0f MB in memory: %.1f ms CPU (%.1f GB/s)" % (mb, best * 1e3, len(src) / best / 1e9))
sends = []
for _ in range(5):
    srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
    pid = os.fork()
    if pid == 0:
        c = socket.create_connection(srv.getsockname()); buf = bytearray(1 << 20)
        while c.recv_into(buf): pass
        os._exit(0)
    conn, _ = srv.accept()
    mv, t0 = memoryview(src), resource.getrusage(resource.RUSAGE_SELF)
    for off in range(0, len(src), 65536): conn.sendall(mv[off:off + 65536])
    t1 = resource.getrusage(resource.RUSAGE_SELF)
    conn.close(); os.waitpid(pid, 0); srv.close()
    sends.append((t1.ru_stime - t0.ru_stime, t1.ru_utime - t0.ru_utime))
k = statistics.median(s[0] for s in sends)
print("floor: sending %.0f MB over loopback in 64 KB writes: %.1f ms of kernel CPU in the sender (%.2f ns/byte; "
      "user %.1f ms, the loop's own)" % (mb, k * 1e3, k * 1e9 / len(src), statistics.median(s[1] for s in sends) * 1e3))
PY
}

# CPU seconds (user+system, ticks) of a server's process tree so far, its exited children included
tree_cpu() {
  local pid=$1 t=0 c
  for c in $pid $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
    t=$((t + $(awk '{print $14 + $15 + $16 + $17}' "/proc/$c/stat" 2>/dev/null || echo 0)))
  done
  echo "$t / $(getconf CLK_TCK)" | bc -l
}

# PID CMD...: "client_cpu server_cpu" of the stock client: its own CPU and what the server's
# process tree spent meanwhile (read a moment after, once its exited backend's CPU has
# reached the postmaster)
cost_stock() {
  local pid=$1 s0 s1 c; shift
  s0=$(tree_cpu "$pid"); c=$(cpu_of "$@"); sleep 0.3; s1=$(tree_cpu "$pid")
  echo "$c $(echo "$s1 - $s0" | bc -l)"
}
# ARGS...: "client_cpu server_cpu" of a bulkbench run: its own CPU, and the server's CPU it
# reports (server.cpu_s: from just before the stream to its end, so neither the table made
# anew before nor the count that verifies it after, whose first scan of a fresh COPY costs
# the server 0.9 s for 1M rows, setting every row's hint bits)
cost_bb() {
  rm -f "$T/cost.jsonl"
  local c; c=$(cpu_of $BB run "$@" --out="$T/cost.jsonl")
  echo "$c $(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["server"]["cpu_s"])' "$T/cost.jsonl")"
}

# The client's CPU per row, bulkbench generating the rows as it streams them beside the
# stock client streaming the same rows from a file in the same format (the whole process,
# start-up included), and the server's CPU per row under each.
bench_cost() {
  servers
  vm_note
  local W=workloads/copy_vs_load.lua N=1000000 m x pgpid mypid
  $BB gen $W --table=bmsql_history --rows=$N --format=copy -o "$T/h.copy"
  $BB gen $W --table=bmsql_history --rows=$N --format=csv -o "$T/h.csv"
  $PSQL -c "$BMSQL_DDL" >/dev/null 2>&1
  $PSQL -c "\\copy bmsql_history from '$T/h.copy'" >/dev/null
  $PSQL -c "\\copy bmsql_history to '$T/h.bin' with (format binary)" >/dev/null
  pgpid=$(head -1 "$($PSQL -c 'show data_directory')/postmaster.pid")
  mypid=$(cat "$($MYSQL -e 'select @@pid_file')")
  for m in copy copy-csv copy-binary load; do
    local ca=() sa=() cb=() sb=() pid=$pgpid peer="psql \\copy" stock
    case $m in # the stock client itself, no shell around it (its CPU would count)
      copy) stock=($PSQL -c "\\copy bmsql_history from '$T/h.copy'") ;;
      copy-csv) stock=($PSQL -c "\\copy bmsql_history from '$T/h.csv' csv") ;;
      copy-binary) stock=($PSQL -c "\\copy bmsql_history from '$T/h.bin' with (format binary)") ;;
      load) pid=$mypid peer="mariadb LOCAL"
            stock=($MYSQL -e "LOAD DATA LOCAL INFILE '$T/h.copy' INTO TABLE bmsql_history") ;;
    esac
    local engine=pg; [ $m = load ] && engine=mysql
    for i in $(seq "$RUNS"); do
      x=$(cost_bb $W --engine=$engine --method=$m --rows=$N --threads=1); ca+=("${x% *}"); sa+=("${x#* }")
      if [ $m = load ]; then $MYSQL -e "truncate bmsql_history"; else $PSQL -c "truncate bmsql_history" >/dev/null; fi
      x=$(cost_stock "$pid" "${stock[@]}"); cb+=("${x% *}"); sb+=("${x#* }")
    done
    local per='* 1000000000 / '$N
    report "$m, client CPU per row (1M rows)" ns/row bulkbench "$(echo "$(med "${ca[@]}") $per" | bc -l)" \
      "$peer" "$(echo "$(med "${cb[@]}") $per" | bc -l)" "$(ratio_ci "${ca[*]}" "${cb[*]}") the stock client's, from a file"
    report "$m, server CPU per row" ns/row bulkbench "$(echo "$(med "${sa[@]}") $per" | bc -l)" \
      "$peer" "$(echo "$(med "${sb[@]}") $per" | bc -l)" "$(ratio_ci "${sa[*]}" "${sb[*]}") under the stock client"
  done
}

# rows/s of one bulkbench run (JSON result); a failed run aborts the bench
rps() {
  "$BB" run "$@" --format=json >"$T/out" 2>"$T/err" || { echo "bench: command failed: $BB run $*" >&2; tail -5 "$T/err" >&2; exit 1; }
  python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["rows_per_s"])' "$T/out"
}

# The odbc engine beside the native engines on the same server: seed 002's rows (1 KB), its
# pipeline (array binding) and txn (the JDBC loop) through psqlODBC and MariaDB Connector/ODBC,
# alternating with the pg and mysql engines' same methods; then what psqlODBC's own settings
# change (BatchSize: rows per round trip of an array; Protocol=7.4-1: no savepoint per statement).
bench_odbc() {
  servers
  source "$(dirname "$0")/../drivers/odbc/test_setup.sh"
  odbc_setup "$T/odbc" || return
  local W=workloads/batch_insert.lua N=50000 n=${ODBC_RUNS:-3} e m dsn a b
  declare -A med_of
  for e in pg mysql; do
    dsn=$BULKBENCH_ODBC_PG; [ $e = mysql ] && dsn=$BULKBENCH_ODBC_MYSQL
    for m in pipeline txn; do
      a=(); b=()
      for i in $(seq "$n"); do
        a+=("$(rps $W --engine=odbc --dsn="$dsn" --method=$m --rows=$N)")
        b+=("$(rps $W --engine=$e --method=$m --rows=$N)")
      done
      med_of[$e-$m]=$(med "${a[@]}")
      report "$e $m, $N rows of 1 KB: ODBC vs native" rows/s "odbc" "$(med "${a[@]}")" "$e engine" "$(med "${b[@]}")" \
        "$(ratio_ci "${a[*]}" "${b[*]}") the native engine"
    done
  done
  echo "  psqlODBC pipeline/txn: $(printf '%.2f' "$(ratio "${med_of[pg-pipeline]}" "${med_of[pg-txn]}")"); MariaDB ODBC pipeline/txn: $(printf '%.2f' "$(ratio "${med_of[mysql-pipeline]}" "${med_of[mysql-txn]}")")"
  for cfg in "pipeline odbc.BatchSize=1000" "txn odbc.Protocol=7.4-1"; do
    m=${cfg% *}; a=(); b=()
    for i in $(seq "$n"); do
      a+=("$(rps $W --engine=odbc --dsn="$BULKBENCH_ODBC_PG" --method=$m --rows=$N --set="${cfg#* }")")
      b+=("$(rps $W --engine=odbc --dsn="$BULKBENCH_ODBC_PG" --method=$m --rows=$N)")
    done
    report "psqlODBC $m with ${cfg#* }" rows/s "that" "$(med "${a[@]}")" "defaults" "$(med "${b[@]}")" \
      "$(ratio_ci "${a[*]}" "${b[*]}") the defaults"
  done
}

# advise against the exhaustive sweep of the same space (issues 22, 31, 44): the sweep
# (--repeat=3) finds its best point and a middle one (the point nearest the sweep's median
# rows/s), the baseline; then ADVISE_RACES (3) races with --baseline, each given a third of the
# sweep's wall time; after each, its recommendation, the sweep's best and the baseline run in
# turn ADVISE_RUNS times (5): the pick over the best (goal >= 0.9), whether the pick's
# re-measured median falls inside the re-run interval advise printed (its coverage: goal >= 90%
# of races, tallied over all cases at the end), and whether advise's baseline verdict agrees
# with the paired re-runs (goal: every verdict; a measured 1.6x is never "no difference").
# A pick decided below --rows is re-measured at the rows its interval is for (ci_rows).
# ADVISE_SCALE (1) multiplies the rows: ADVISE_SCALE=0.1 ADVISE_MIN_BUDGET=60 for a cheap pass
# (16 candidates need ~60 s); ADVISE_RACES=1 for one race per case. ADVISE_KEEP=DIR keeps each
# race's JSON and its re-measured runs there (N.json, N.remeasured: pick, best, baseline).
#   advise_vs_sweep LABEL ENGINE SCRIPT ROWS METHODS THREADS BATCHES [SCRIPT OPTIONS]
adv_races=0 adv_near=0 adv_inside=0 adv_verdicts=0 adv_agree=0 adv_open=0
advise_vs_sweep() {
  local label=$1 e=$2 w=$3 rows=$4 space="--method=$5 --threads=$6 --batch=$7" extra=("${@:8}") s ex race
  rows=$(printf %.0f "$(echo "$rows * ${ADVISE_SCALE:-1}" | bc -l)")
  s=$(date +%s.%N)
  $BB run "$w" --engine="$e" $space --rows="$rows" --repeat=3 --format=json "${extra[@]}" >"$T/sweep.jsonl" 2>"$T/err" \
    || { echo "bench: the sweep failed: $(tail -2 "$T/err")" >&2; exit 1; }
  ex=$(echo "$(date +%s.%N) - $s" | bc -l)
  read -r bm bb bt zm zb zt < <(python3 -c 'import json,statistics,sys; r=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
b=max(r,key=lambda x:x["rows_per_s"]); m=statistics.median(x["rows_per_s"] for x in r)
z=min(r,key=lambda x:abs(x["rows_per_s"]-m)); print(b["method"],b["batch"],b["threads"],z["method"],z["batch"],z["threads"])' "$T/sweep.jsonl")
  local budget; budget=$(printf %.0f "$(echo "$ex / 3" | bc -l)")
  # a short sweep (a cheap pass, or MariaDB's 12 candidates in ~45 s) leaves advise less than one
  # run each: ADVISE_MIN_BUDGET (30) is the floor, and the time saved below says what it cost
  [ "$budget" -lt "${ADVISE_MIN_BUDGET:-30}" ] && budget=${ADVISE_MIN_BUDGET:-30}
  for race in $(seq "${ADVISE_RACES:-3}"); do
    advise_race "$label, race $race" "$e" "$w" "$rows" "$budget" "$space" "$bm:$bb:$bt" "$zm:$zb:$zt" "$ex" "${extra[@]}"
  done
}

# One race (advise_vs_sweep's, or one without a sweep: best "-") and its re-measurement.
#   advise_race LABEL ENGINE SCRIPT ROWS BUDGET SPACE BEST BASELINE SWEEP_S [SCRIPT OPTIONS]
advise_race() {
  local label=$1 e=$2 w=$3 rows=$4 budget=$5 space=$6 best=$7 base=$8 ex=$9 extra=("${@:10}") s adv a=() b=() c=() i q inside agree
  s=$(date +%s.%N)
  $BB advise "$w" --engine="$e" $space --rows="$rows" --budget="${budget}s" --baseline="$base" \
    --format=json "${extra[@]}" >"$T/adv.json" 2>"$T/err" || { echo "bench: advise failed: $(tail -2 "$T/err")" >&2; exit 1; }
  adv=$(echo "$(date +%s.%N) - $s" | bc -l)
  read -r am ab at lo hi lv at_rows verdict < <(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); d=o["recommendation"]
c=d.get("ci95") or [0,0]; v=(o.get("baseline") or {}).get("verdict") or "none"
print(d["method"],d["batch"],d["threads"],c[0],c[1],d.get("ci_level") or 0,d.get("ci_rows") or o["rows"],v.replace(" ","_"))' "$T/adv.json")
  IFS=: read -r bm bb bt <<<"$best"
  IFS=: read -r zm zb zt <<<"$base"
  for i in $(seq "${ADVISE_RUNS:-5}"); do # in turn: the pick (at the rows its interval is for), the best, the baseline
    a+=("$(rps "$w" --engine="$e" --method="$am" --batch="$ab" --threads="$at" --rows="$at_rows" "${extra[@]}")")
    [ "$best" != - ] && b+=("$(rps "$w" --engine="$e" --method="$bm" --batch="$bb" --threads="$bt" --rows="$rows" "${extra[@]}")")
    c+=("$(rps "$w" --engine="$e" --method="$zm" --batch="$zb" --threads="$zt" --rows="$at_rows" "${extra[@]}")")
  done
  if [ -n "${ADVISE_KEEP:-}" ]; then
    mkdir -p "$ADVISE_KEEP"; cp "$T/adv.json" "$ADVISE_KEEP/$((adv_races + 1)).json"
    printf '%s\n%s\n%s\n' "${a[*]}" "${b[*]}" "${c[*]}" >"$ADVISE_KEEP/$((adv_races + 1)).remeasured"
  fi
  inside=$(awk -v m="$(med "${a[@]}")" -v l="$lo" -v h="$hi" 'BEGIN{print (m >= l && m <= h) ? "inside" : "outside"}')
  adv_races=$((adv_races + 1))
  [ "$inside" = inside ] && adv_inside=$((adv_inside + 1))
  # the verdict against the paired re-runs' 95% interval of their mean ratio (as advise makes its own)
  agree=$(python3 -c 'import math,statistics as st,sys
v=sys.argv[1]; r=[math.log(float(x)/float(y)) for x,y in zip(sys.argv[2].split(),sys.argv[3].split())]
m=st.mean(r); h=2.776*st.stdev(r)/math.sqrt(len(r)) if len(r)>1 else 9; lo,hi=math.exp(m-h),math.exp(m+h)
ok={"faster":math.exp(m)>1,"slower":math.exp(m)<1,"no_difference":lo<=1.05 and hi>=1/1.05}.get(v)
print("%s %.3f [%.3f, %.3f]" % ("open" if ok is None else "agrees" if ok else "DISAGREES", math.exp(m), lo, hi))' "$verdict" "${a[*]}" "${c[*]}")
  case $agree in open*) adv_open=$((adv_open + 1)) ;; agrees*) adv_verdicts=$((adv_verdicts + 1)); adv_agree=$((adv_agree + 1)) ;;
    *) adv_verdicts=$((adv_verdicts + 1)) ;; esac
  local vs="no sweep"
  if [ "$best" != - ]; then
    q=$(python3 -c 'import statistics as s,sys; print(s.median(float(x)/float(y) for x,y in zip(sys.argv[1].split(),sys.argv[2].split())))' "${a[*]}" "${b[*]}")
    [ "$am:$ab:$at" = "$best" ] && q=1 # the same configuration: its runs differ by noise only
    awk -v q="$q" 'BEGIN{exit !(q >= 0.9)}' && adv_near=$((adv_near + 1))
    vs="$(ratio_ci "${a[*]}" "${b[*]}") the sweep's best (goal >= 0.9); $(printf '%.0f s vs %.0f s: %.0f%% of the time saved' \
      "$adv" "$ex" "$(echo "100 * (1 - $adv / $ex)" | bc -l)")"
  fi
  report "advise: $label" rows/s "advise $am:$ab:$at" "$(med "${a[@]}")" "sweep $best" "$( [ "$best" != - ] && med "${b[@]}" || echo 0)" \
    "$vs; re-measured at $at_rows rows, median $inside its $(printf '%.1f' "$(echo "100 * $lv" | bc -l)")% interval [$(printf '%.0f, %.0f' "$lo" "$hi")]; baseline $base: \"${verdict//_/ }\", re-measured $agree"
}

# A race whose budget cannot reach --rows: decided below them, its interval for the rows it
# decided at, where it is re-measured; no sweep (one at --rows would take many minutes).
#   advise_short LABEL ENGINE SCRIPT ROWS BUDGET METHODS THREADS BATCHES BASELINE
advise_short() {
  local label=$1 e=$2 w=$3 rows=$4 budget=$5 space="--method=$6 --threads=$7 --batch=$8" base=$9
  rows=$(printf %.0f "$(echo "$rows * ${ADVISE_SCALE:-1}" | bc -l)")
  advise_race "$label" "$e" "$w" "$rows" "$budget" "$space" - "$base" 0
}

# An indexed table (three secondary indexes, a trigger-free copy of the issue 31 case) as `new`
# scripts it, for advise_vs_sweep.
indexed_script() {
  $PSQL -q >/dev/null <<'SQL'
drop table if exists bench_idx;
create table bench_idx (id bigserial primary key, at timestamptz not null, kind text not null, tag varchar(40), score float8);
create index on bench_idx (kind, at); create index on bench_idx (tag); create index on bench_idx (score);
insert into bench_idx (at, kind, tag, score) select timestamptz '2025-01-01' + g * interval '13 seconds',
  (array['view','click','buy'])[1 + g % 3], 'T' || (g % 500), random() * 100 from generate_series(1, 20000) g;
analyze bench_idx;
SQL
  $BB new --engine=pg --table=bench_idx -o "$T/idx.lua" >/dev/null 2>&1 || { echo "bench: new failed" >&2; exit 1; }
}

# A wide table (34 columns, ~3 KB rows: the issue 31 case) as `new` scripts it.
wide_script() {
  local cols="id bigserial primary key" names="" vals="" i
  wide_col() { cols+=", $1 $2"; names+="${names:+, }$1"; vals+="${vals:+, }$3"; }
  for i in $(seq 10); do wide_col "n$i" int "(g * $i) % 100000"; done
  for i in $(seq 8); do wide_col "x$i" float8 "random() * $i"; done
  for i in $(seq 6); do wide_col "t$i" timestamp "timestamp '2025-01-01' + (g % 86400) * interval '$i second'"; done
  for i in $(seq 9); do wide_col "s$i" text "repeat(md5((g + $i)::text), 6 + (g + $i) % 8)"; done
  $PSQL -q >/dev/null -c "drop table if exists bench_wide; create table bench_wide ($cols)" \
    -c "insert into bench_wide ($names) select $vals from generate_series(1, 20000) g" -c "analyze bench_wide"
  $BB new --engine=pg --table=bench_wide -o "$T/wide.lua" >/dev/null 2>&1 || { echo "bench: new failed" >&2; exit 1; }
}

# Diagnosis's cost (docs/diagnosis.md): the same run with the sampler on (the default: 20 Hz, pg 100 Hz at first)
# and off, alternating; goal: within 2% of rows/s. A bulk COPY (server-bound) and single-row
# transactions (one round trip per statement: where a busy sampler session would show first).
bench_waits() {
  servers
  local W=workloads/copy_vs_load.lua a=() b=() args
  for args in "--engine=pg --method=copy --rows=500000" "--engine=pg --method=txn --batch=1 --rows=5000 --set=synchronous_commit=off" \
    "--engine=mysql --method=multirow --batch=1000 --rows=200000"; do
    a=(); b=()
    for i in $(seq "$RUNS"); do
      # which goes first alternates: a run after the other's leaves the server in another state
      # shellcheck disable=SC2086
      if [ $((i % 2)) = 1 ]; then a+=("$(rps $W $args --waits=on)"); b+=("$(rps $W $args --waits=off)")
      else b+=("$(rps $W $args --waits=off)"); a+=("$(rps $W $args --waits=on)"); fi
    done
    report "waits sampled vs not: ${args//--/}" rows/s "sampled" "$(med "${a[@]}")" "off" "$(med "${b[@]}")" \
      "$(ratio_ci "${a[*]}" "${b[*]}") without sampling (goal: >= 0.98)"
  done
}

bench_advise() {
  servers
  local B="copy,copy-binary,multirow,pipeline"
  advise_vs_sweep "pg bmsql_history, 300k rows" pg workloads/copy_vs_load.lua 300000 "$B" 1,2 1000,10000
  advise_vs_sweep "mysql bmsql_history, 300k rows" mysql workloads/copy_vs_load.lua 300000 load,multirow,pipeline 1,2 1000,10000
  advise_vs_sweep "pg seed 002 (1 KB rows), 50k rows" pg workloads/batch_insert.lua 50000 txn,pipeline,multirow 1,2 100,1000,10000
  indexed_script
  advise_vs_sweep "pg indexed (3 secondary indexes), 200k rows" pg "$T/idx.lua" 200000 copy,multirow 1,2 1000,10000
  wide_script
  advise_vs_sweep "pg wide (34 columns, ~3 KB rows), 30k rows" pg "$T/wide.lua" 30000 copy,copy-binary,multirow 1,2 1000,10000
  local r
  for r in 1 2 3; do # budgets that cannot reach --rows: decided below them, on both engines
    advise_short "pg bmsql_history, 5M rows in 30 s, race $r" pg workloads/copy_vs_load.lua 5000000 30 copy,multirow 1,2 1000,10000 multirow:1000:1
    advise_short "mysql bmsql_history, 3M rows in 30 s, race $r" mysql workloads/copy_vs_load.lua 3000000 30 load,multirow 1,2 1000,10000 multirow:1000:1
  done
  # a tally of 15 says little of a rate near 90%: its Wilson 95% interval says how little
  local wilson
  wilson=$(python3 -c 'import math,sys; k,n=map(int,sys.argv[1:]); n=max(n,1); z=1.96; p=k/n; c=(p+z*z/(2*n))/(1+z*z/n); h=z*math.sqrt(p*(1-p)/n+z*z/(4*n*n))/(1+z*z/n); print("%.0f%%, the rule'"'"'s rate 95%% within %.0f-%.0f%%" % (100*p, 100*(c-h), 100*(c+h)))' "$adv_inside" "$adv_races")
  echo "advise over $adv_races races: the pick within 10% of the sweep's best in $adv_near (of those with a sweep), its re-measured median inside its interval in $adv_inside ($wilson); baseline verdicts agreeing with the paired re-runs: $adv_agree of $adv_verdicts, $adv_open not a verdict (goals: all, >= 90%, all)"
  summary+=("| advise, $adv_races races | within 10% of the sweep's best: $adv_near | inside the stated interval: $adv_inside ($wilson); verdicts agreeing: $adv_agree of $adv_verdicts ($adv_open open) | goals: all, >= 90%, all |")
}

# TLS's cost per method: two servers of each engine started alike by contrib/dbctl, one with
# --tls (every session encrypted, TLS 1.3) and one without, the same load on each, alternating;
# the ratio is rows/s with TLS over rows/s without (1.0: TLS costs nothing). Row-at-a-time
# methods load fewer rows: insert commits each row (a fsync each on the default servers), txn
# each batch.
tls_base=
bench_tls() {
  local dir e m n a b rows W=workloads/copy_vs_load.lua
  tls_base=$T/tls
  declare -A dsn
  mkdir -p "$tls_base"; chmod 755 "$T" "$tls_base"
  for dir in tls plain; do
    for e in pg mysql; do
      out=$(BB_DBCTL_DIR=$tls_base/$dir contrib/dbctl start $e $([ $dir = tls ] && echo --tls)) || exit 1
      out=${out#export *=}; dsn[$dir-$e]=${out//\'/}
    done
  done
  trap 'for d in tls plain; do BB_DBCTL_DIR=$tls_base/$d contrib/dbctl stop all >/dev/null 2>&1; done; rm -rf "$T"' EXIT
  for e in pg mysql; do
    local methods="insert txn multirow pipeline copy copy-csv copy-binary"
    [ $e = mysql ] && methods="insert txn multirow pipeline load"
    for m in $methods; do
      rows=200000; [ $m = insert ] && rows=2000; [ $m = txn ] && rows=50000
      a=(); b=()
      for i in $(seq "${TLS_RUNS:-$RUNS}"); do
        a+=("$(rps $W --engine=$e --dsn="${dsn[tls-$e]}" --method=$m --rows=$rows)")
        b+=("$(rps $W --engine=$e --dsn="${dsn[plain-$e]}" --method=$m --rows=$rows)")
      done
      report "$e $m, $rows rows: TLS vs plain" rows/s "TLS" "$(med "${a[@]}")" "plain" "$(med "${b[@]}")" \
        "$(ratio_ci "${a[*]}" "${b[*]}") plain"
    done
  done
}

source "$(dirname "$0")/bench_scale.sh"

sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(runtime gen generators floor cost pg mysql files odbc advise waits tls scale)
echo "bulkbench $($BB --version | cut -d' ' -f2) on $(nproc) cores, $RUNS alternating runs each (3 for the slower rows), medians;"
echo "a ratio is the median of the alternating pairs' ratios [its 95% bootstrap interval]"
printf '%-44s %-12s %12s   %-12s %12s   %s\n' "comparison" "" "median" "" "median" "ratio"
for s in "${sections[@]}"; do "bench_$s"; done
echo
echo "markdown for docs/benchmarks.md:"
echo "| comparison | bulkbench | peer | ratio |"
echo "|---|---|---|---|"
printf '%s\n' "${summary[@]}"
