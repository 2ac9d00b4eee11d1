#!/usr/bin/env bash
# How many cases a suite would run, found without running it (no server started, no build of
# its own made): what `make test` counts as skipped for each suite it leaves to `make check`
# (tests/run.sh), so a suite not run counts all its cases, not one. Prints the number.
#   tests/plan.sh engines | load-matrix | matrix | crash TRIALS | mpi | fuzz | new-engine | memcheck | system NAME
set -u
cd "$(dirname "$0")/.."
tap_plan() { sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | tail -1; }
# the specs define their cases for the servers they are given: each variable an engine's
# descriptor reads (its dsn_env, its test targets') names a server that answers nothing
specs() {
  local v
  for v in $(python3 tests/descriptors.py shell | awk -F'\t' '{print $3; print $5}' | grep -oE 'BULKBENCH_[A-Z_]+' | sort -u); do
    export "$v=${!v:-postgresql://plan@127.0.0.1:1/plan}"
  done
  ./bulkbench lua tests/specs.lua --list -m 'tests/?.lua' "$@" 2>/dev/null | grep -cE '^\**tests/.*\.lua:[0-9]+: '
}
case ${1:-} in
  # busted lists the specs' cases (--list) without running them
  engines) specs tests/engines ;;
  load-matrix) python3 tests/load_matrix.py --plan | tap_plan ;;
  matrix) tests/matrix.sh --plan | tap_plan ;;
  # a trial per engine it kills the servers of, TRIALS each
  crash) echo $(( ${2:?crash TRIALS} * $(grep -oE '^for e in [a-z ]+; do' tests/crash_trials.sh | head -1 | wc -w | awk '{print $1 - 4}') )) ;;
  mpi) grep -cE '^check ' tests/mpi.sh ;;
  fuzz) ls tests/fuzz/fuzz_*.c | wc -l ;;
  new-engine) grep -cE '^ *check ' tests/new_engine.sh ;;
  memcheck) grep -c '^\$ ' tests/cli/memcheck.t ;;
  # a system: it starts, the pg engine's spec and matrix run on it, three checks of its results,
  # and its own file's
  system)
    pg=$(specs tests/engines/pg_spec.lua)
    b="1 7 1000"; [ "${2:?system NAME}" != ivorysql ] && b="7 1000"
    m=$(MATRIX_ENGINES=pg MATRIX_BATCHES=$b tests/matrix.sh --plan | tap_plan)
    echo $(( 1 + pg + m + 3 + $(grep -cE '^\s*check ' "tests/systems_$2.sh") )) ;;
  *) echo "tests/plan.sh: engines, load-matrix, matrix, crash TRIALS, mpi, fuzz, new-engine, memcheck or system NAME" >&2; exit 2 ;;
esac
