#!/usr/bin/env bash
# make bench: bulkbench beside its peers, in one run, alternating, medians and ratios.
#   contrib/bench.sh [SECTION...]    sections: runtime gen (default: all)
# Absolute times on a shared 2-core machine mean little; the ratios measured here, in the
# same run, alternating A/B, are what the README quotes.
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
report() { # name, unit, A-label, A-median, B-label, B-median, ratio text
  printf '%-44s %-12s %12.0f   %-12s %12.0f   %s\n' "$1" "$3" "$4" "$5" "$6" "$7"
  summary+=("$(printf '| %s | %s %.0f %s | %s %.0f %s | %s |' "$1" "$3" "$4" "$2" "$5" "$6" "$2" "$7")")
}

bench_runtime() {
  command -v sysbench >/dev/null || { echo "runtime: sysbench not installed (make deps)"; return; }
  local N=5000000 a=() b=()
  echo 'function event() end' >"$T/empty.lua"
  for i in $(seq "$RUNS"); do
    a+=("$(echo "$N / $(wall $BB run "$T/empty.lua" --engine=null --events=$N --threads=1)" | bc -l)")
    b+=("$(echo "$N / $(wall sysbench "$T/empty.lua" --events=$N --time=0 --threads=1 run)" | bc -l)")
  done
  local ma mb
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  report "empty event(), 1 thread, $N events" "events/s" bulkbench "$ma" sysbench "$mb" \
    "$(printf '%.2fx sysbench' "$(echo "$ma / $mb" | bc -l)")"
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
    "$(printf '%.0fx the Python generator' "$(echo "$ma / $mb" | bc -l)")"
  m1=$(/usr/bin/time -f %M $BB gen $W --table=bmsql_history --rows=1000000 -o /dev/null 2>&1 >/dev/null | tail -1)
  m10=$(/usr/bin/time -f %M $BB gen $W --table=bmsql_history --rows=10000000 -o /dev/null 2>&1 >/dev/null | tail -1)
  echo "  peak RSS of gen: 1M rows ${m1} KB, 10M rows ${m10} KB"
}

sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(runtime gen)
echo "bulkbench $($BB --version | cut -d' ' -f2) on $(nproc) cores, $RUNS alternating runs each, medians"
printf '%-44s %-12s %12s   %-12s %12s   %s\n' "comparison" "" "median" "" "median" "ratio"
for s in "${sections[@]}"; do "bench_$s"; done
echo
echo "markdown for the README:"
echo "| comparison | bulkbench | peer | ratio |"
echo "|---|---|---|---|"
printf '%s\n' "${summary[@]}"
