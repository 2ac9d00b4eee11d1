#!/usr/bin/env bash
# Runs every test suite and ends with one line: "N passed, N failed".
#   specs  busted specs of the Lua library, inside bulkbench's own Lua host (real native runtime)
#   cli    CLI transcript tests (command, expected output, exit code)
#   html   the HTML report in headless Chromium (tests/html.py)
# Suites that need database servers start them with contrib/dbctl and stop them on exit.
set -u
cd "$(dirname "$0")/.."
total_pass=0 total_fail=0
log=$(mktemp /tmp/bbtests.XXXXXX)

suite() { # name, command...; the command prints TAP ("ok"/"not ok") or "N passed, N failed"
  local name=$1; shift
  echo "== $name"
  local t0=$SECONDS
  "$@" >"$log" 2>&1
  local rc=$? p f
  grep -E '^not ok' "$log" | sed 's/^/  /'
  if grep -qE '^[0-9]+ passed, [0-9]+ failed' "$log"; then
    p=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 | awk '{print $1}')
    f=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 | awk '{print $3}')
  else
    p=$(grep -cE '^ok ' "$log"); f=$(grep -cE '^not ok ' "$log")
  fi
  if [ "$f" -gt 0 ] || { [ $rc -ne 0 ] && [ "$f" -eq 0 ]; }; then
    grep -vE '^ok ' "$log" | head -60 | sed 's/^/  | /'
    [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1 && echo "  suite exited $rc"
  fi
  echo "   $p passed, $f failed ($((SECONDS - t0)) s)"
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
}

# real servers on loopback for the engine suites, stopped whatever happens
export BB_DBCTL_DIR=${BB_DBCTL_DIR:-$(mktemp -d /tmp/bbcheck.XXXXXX)}
trap 'contrib/dbctl stop all >/dev/null 2>&1; rm -rf "$BB_DBCTL_DIR" "$log"' EXIT
for e in pg mysql; do
  if out=$(contrib/dbctl start $e 2>&1); then export "${out#export }"; else echo "$out"; fi
done
# psqlODBC, MariaDB Connector/ODBC and SQLite ODBC in a scratch odbcinst.ini/odbc.ini (no system file
# changed), and BULKBENCH_ODBC_{PG,MYSQL,SQLITE} connection strings through them for the odbc engine
source tests/fixtures/odbc.sh
odbc_setup "$BB_DBCTL_DIR/odbc" || echo "the odbc engine's suites will fail: its drivers are missing"

# the rooms of the C code: includes point down (cmd -> host -> core -> drivers -> base), no circle, Lua only in host/
suite rooms python3 tests/rooms.py
# unit tests of core modules without a database (tests/unit/test_*.c): advise's race rules
suite units bash -c 'make -s units ${BB_IN_SANITIZE:+SAN=1} >/dev/null && for t in build/test_*; do "$t" || exit 1; done'
suite specs ./bulkbench lua tests/specs.lua -o TAP tests/spec
suite engines ./bulkbench lua tests/specs.lua -o TAP -m 'tests/?.lua' tests/engines
suite cli tests/cli.sh
# the --html report of real SQLite runs and the fixtures in headless Chromium at 1280 and 390 px:
# no console errors, every chart drawn (screenshot pixels), tables = the results, no overflow
suite html python3 tests/html.py
# each command's --help lists exactly the options it takes, and its example runs
suite help python3 tests/help_options.py
# every engine x method that `bulkbench list` offers, batch 1/7/1000, 3 threads, against the stock clients' tables
[ -z "${BB_IN_SANITIZE:-}" ] && suite matrix tests/matrix.sh
# bulkbench load on both servers: file edge cases, 1-8 workers, checksums, rejected rows
suite load-matrix python3 tests/load_matrix.py
# servers killed mid-load under each method: committed rows are exact (tests/crash_trials.sh 20 for the full tally)
[ -z "${BB_IN_SANITIZE:-}" ] && suite crash tests/crash_trials.sh 3
# ... and with --reconnect=10 the server comes back and the run finishes with exactly the rows asked for
[ -z "${BB_IN_SANITIZE:-}" ] && suite crash-reconnect tests/crash_trials.sh 2 --reconnect
# host lists and runs spread over MPI ranks (make MPI=1 in a copy of the tree; skipped without Open MPI)
[ -z "${BB_IN_SANITIZE:-}" ] && suite mpi tests/mpi.sh
# libFuzzer targets (CSV chunker, options, DSNs, templates + encoders) from their corpus; `make fuzz` runs 60 s each
[ -z "${BB_IN_SANITIZE:-}" ] && suite fuzz tests/fuzz.sh "${BB_FUZZ_TIME:-5}"
# the same suites again on an AddressSanitizer + UBSan build (skipped inside that run)
[ -z "${BB_IN_SANITIZE:-}" ] && suite sanitize tests/sanitize.sh

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
