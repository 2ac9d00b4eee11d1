#!/usr/bin/env bash
# Runs every test suite and ends with one line: "N passed, N failed, N skipped" (a skip is a
# test that did not run, TAP's "ok N # skip why": never counted as a pass).
#   tests/run.sh           make check: every suite, against servers it starts
#   tests/run.sh --quick   make test: every suite that needs no server, none started, several
#                          at once; the cases that need one, and the suites that do (or need a
#                          build of their own), are counted as skips
#   specs  busted specs of the Lua library, inside bulkbench's own Lua host (real native runtime)
#   cli    CLI transcript tests (command, expected output, exit code)
# Suites that need database servers start them with contrib/dbctl and stop them on exit.
#
# Two lanes run side by side, each with servers of its own (so no table, file or server is
# shared between them) and its suites one after another: the main lane on ./bulkbench, and
# the side lane: the same suites on an ASan + UBSan build (tests/sanitize.sh, one lane inside
# it, BB_IN_SANITIZE, on the side lane's servers), then MPI, the fuzz targets and the seeds' systems.
# Both lanes are CPU-bound on 2 cores, so they are balanced by time (about equal now); a
# case's seconds: BB_TIMES=FILE tests/run.sh (tests/cli.sh appends one line per case).
set -u
cd "$(dirname "$0")/.."
# the tools make deps installed, ahead of any shim in the caller's PATH: a pyenv shim makes each
# python3 cost 0.4 s of CPU (a dozen bash processes before Python starts) and Debian's
# pg_wrapper each psql 60 ms; the suites start them hundreds of times
pgbin=$(contrib/dbctl pgbin 2>/dev/null)
export PATH=${pgbin:+$pgbin:}/usr/bin:/bin:$PATH
# scratch (the servers' data, the suites' files) in memory where there is room for it: on a
# disk /tmp the suites stood waiting for writes 6% of the time; the servers lose nothing they
# would keep anyway (they are thrown away), and BB_TEST_DIR chooses another place
if [ -z "${BB_TEST_DIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
   [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')" -ge $((8 * 1024 * 1024)) ] 2>/dev/null; then
  BB_TEST_DIR=/dev/shm
fi
export TMPDIR=${BB_TEST_DIR:-${TMPDIR:-/tmp}}
base=$(mktemp -d "$TMPDIR/bbtests.XXXXXX")
chmod 755 "$base" # the servers' own users (postgres, mysql) reach their directories through it
lanes=()

suite() { # name, command...; the command prints TAP ("ok"/"not ok", "ok N # skip why") or "N passed, N failed[, N skipped]"
  local name=$1; shift
  local log=$BB_TEST_TMP/$name.log out=$BB_TEST_TMP/$name.out t0=$SECONDS
  "$@" >"$log" 2>&1
  local rc=$? p f s
  read -r p f s < <(tests/tally.sh "$log" 2>"$log.plan")
  { echo "== $name"
    grep -E '^not ok' "$log" | sed 's/^/  /'
    # a pass of suites (sanitize): its suites' tallies and seconds, failed or not
    grep -qE '^== ' "$log" && [ "$f" -eq 0 ] && grep -E '^== |^   [0-9]+ passed' "$log" | sed 's/^/  | /'
    grep -iE '^ok\b[^#]*#[[:space:]]*skip' "$log" | head -5 | sed 's/^/  skipped: /'
    # a TAP plan the suite did not keep (it stopped early, or ran cases it did not plan)
    if [ -s "$log.plan" ]; then sed 's/^/  /' "$log.plan"; sed "s/^/$name: /" "$log.plan" >>"$base/failures"; fi
    if [ "$f" -gt 0 ] || [ $rc -ne 0 ]; then
      grep -vE '^ok ' "$log" | head -60 | sed 's/^/  | /'
      # what failed, kept for the last lines (a CI log may show only its tail); a pass of suites's too
      grep -E '^ *not ok' "$log" | sed -E "s/^ */$name: /" >>"$base/failures"
      [ "$f" -eq 0 ] && f=1 && echo "  suite exited $rc" && echo "$name: exited $rc" >>"$base/failures"
    fi
    echo "   $p passed, $f failed, $s skipped ($((SECONDS - t0)) s)"
  } >"$out"
  cat "$out" # one write per suite, so the lanes' (and quick suites') reports do not interleave
  echo "$p $f $s" >>"$base/tally"
  mkdir -p "$base/tally.d"; echo "$p $f $s" >"$base/tally.d/$name"
}

# A suite not run here: each of its cases a skip (tests/plan.sh counts them without running
# it), and why it cannot run (make test: it needs servers or a build of its own).
not_here() { # name, why, cases
  local n=${3:-}
  [ -n "$n" ] && [ "$n" -gt 0 ] 2>/dev/null || n=1 # a plan that cannot be had is one skip, said so
  printf '== %s\n   0 passed, 0 failed, %d skipped (%s)\n' "$1" "$n" "$2"
  echo "0 0 $n" >>"$base/tally"
}
# The plans of the suites make test leaves to make check, into $base/plans ("name count" lines)
plans() {
  local s
  { for s in engines load-matrix matrix mpi new-engine fuzz memcheck; do echo "$s $(tests/plan.sh $s)"; done
    echo "crash $(tests/plan.sh crash 3)"; echo "crash-reconnect $(tests/plan.sh crash 2)"
    for s in ivorysql citus greenplum; do echo "$s $(tests/plan.sh system $s)"; done
    echo "sanitized-load-matrix $(BB_IN_SANITIZE=1 tests/plan.sh load-matrix)"
  } >"$base/plans.tmp" 2>/dev/null
  mv "$base/plans.tmp" "$base/plans"
}
planned() { awk -v s="$1" '$1 == s {print $2}' "$base/plans" 2>/dev/null; }

# The cases of the suites a sanitized pass runs again (units, specs, cli but memcheck and scenarios,
# html from this run's tallies; engines and load-matrix planned, the latter as it runs sanitized)
sanitize_plan() {
  local n=0 p f s t
  for t in "$base"/tally.d/*; do
    case ${t##*/} in units | specs* | html | cli:*) ;; *) continue ;; esac
    [[ " $(tests/cli.sh --sanitized-leaves) " == *" ${t##*/cli:}.t "* ]] && continue
    read -r p f s <"$t"; n=$((n + p + f + s))
  done
  echo $((n + $(planned engines) + $(planned sanitized-load-matrix)))
}

# A lane: its own servers on loopback (stopped whatever happens), its own scratch directory,
# then the suites of the function it names, in order.
lane() {
  local name=$1 suites=$2
  export BB_TEST_TMP=$base/$name/tmp
  mkdir -p "$BB_TEST_TMP"
  if [ -n "${BB_LENT_SERVERS:-}" ]; then # the sanitized pass of make check: the side lane's servers and drivers
    $suites
    return
  fi
  export BB_DBCTL_DIR=$base/$name/dbctl
  mkdir -p "$BB_DBCTL_DIR"
  # the test servers write at each commit but do not wait for the disk (a killed server loses
  # nothing the OS holds; only the machine's crash would): suites wait ~15% less
  export BB_DBCTL_PG_OPTS="fsync=off" BB_DBCTL_MYSQL_OPTS="innodb_flush_log_at_trx_commit=2 sync_binlog=0"
  chmod 755 "$base/$name"
  trap 'contrib/dbctl stop all >/dev/null 2>&1' EXIT
  # the servers the engines' descriptors ask for (contrib/dbctl's names), each once
  for e in $(python3 tests/descriptors.py servers-needed); do
    # stdout is the export line alone; what dbctl says of trouble (a retried bootstrap) goes apart
    if out=$(contrib/dbctl start $e 2>"$BB_TEST_TMP/dbctl.err"); then export "${out#export }"; continue; fi
    # without its servers the lane's suites cannot run: one failure, named, instead of its suites
    echo "== $name lane"; { echo "$out"; cat "$BB_TEST_TMP/dbctl.err"; } | tail -15 | sed 's/^/  | /'
    echo "$name lane: the $e server did not start" >>"$base/failures"
    return 1
  done
  # what the engines' tests need readied besides servers (their descriptors' test_setup: the
  # odbc engine's drivers registered in scratch ini files, no system file changed, and its
  # BULKBENCH_ODBC_* connection strings), in this shell so its exports reach the suites
  local setup
  while IFS= read -r setup; do
    DIR=$BB_DBCTL_DIR eval "$setup" || echo "the suites of an engine will fail: its test setup failed: $setup"
  done < <(python3 tests/descriptors.py setups)
  $suites
}

main_suites() {
  # the rooms of the C code: includes point down (cmd -> host -> core -> drivers -> base), no circle,
  # no two files calling each other, Lua only in host/, a core library that links without Lua
  [ -z "${BB_IN_SANITIZE:-}" ] && suite rooms python3 tests/rooms.py
  # unit tests of core modules without a database (tests/unit/test_*.c): advise's race rules
  suite units bash -c 'make -s units ${BB_IN_SANITIZE:+SAN=1} >/dev/null && for t in build/test_*; do "$t" || exit 1; done'
  suite specs ./bulkbench lua tests/specs.lua -o TAP tests/spec
  suite engines ./bulkbench lua tests/specs.lua -o TAP -m 'tests/?.lua' tests/engines
  suite cli tests/cli.sh
  # bulkbench load on both servers: file edge cases, 1-8 workers, checksums, rejected rows
  suite load-matrix python3 tests/load_matrix.py
  # the HTML report in headless Chromium: console, charts' pixels, tables against the results, 1280/390 px
  suite html python3 tests/html.py
  [ -n "${BB_IN_SANITIZE:-}" ] && return # the rest are not about memory: once is enough
  # each command's --help lists exactly the options it takes, and its example runs
  suite help python3 tests/help_options.py
  # README and docs/: every page linked, pictures there, the options page and the methods tables
  # true of the binary, and every command line that needs no server runs as written
  suite docs python3 tests/docs.py
  # an engine is a folder the build finds: the null engine copied under a long name in a copy of
  # the tree builds, is listed, runs, passes the matrix and the docs checks, nothing else touched
  suite new-engine tests/new_engine.sh
  # every engine x method that `bulkbench list` offers, batch 1/7/1000, 3 threads, against the stock clients' tables
  suite matrix tests/matrix.sh
  # servers killed mid-load under each method: committed rows are exact (tests/crash_trials.sh 20 for the full tally)
  suite crash tests/crash_trials.sh 3
  # ... and with --reconnect=10 the server comes back and the run finishes with exactly the rows asked for
  suite crash-reconnect tests/crash_trials.sh 2 --reconnect
}

side_suites() {
  # the same suites again on an AddressSanitizer + UBSan build, on this lane's servers (nothing
  # else here uses them before it ends)
  suite sanitize env BB_LENT_SERVERS=1 tests/sanitize.sh
  # host lists and runs spread over MPI ranks (make MPI=1 in a copy of the tree; skipped without Open MPI)
  suite mpi tests/mpi.sh
  # libFuzzer targets (CSV chunker, options, DSNs, templates + encoders) from their corpus; `make fuzz` runs 60 s each
  suite fuzz tests/fuzz.sh "${BB_FUZZ_TIME:-3}"
  # the seeds' systems (IvorySQL, Citus, Greenplum 6) where BB_{IVORYSQL,CITUS,GREENPLUM}_PREFIX names a
  # build (docs/systems.md): engine spec, matrix, the system's costs and its seed; one skip line otherwise
  for s in ivorysql citus greenplum; do suite "$s" tests/systems.sh "$s"; done
}

# make test: the suites that need no server, several at a time (many wait more than they
# compute: paced runs, a browser, a budget); cli's cases that need a server are skips.
quick_suites() {
  export BB_TEST_TMP=$base/quick BB_NO_SERVER=1
  mkdir -p "$BB_TEST_TMP"
  unset BULKBENCH_PG_DSN BULKBENCH_MYSQL_DSN BULKBENCH_ODBC_PG BULKBENCH_ODBC_MYSQL BULKBENCH_ODBC_SQLITE
  # four suites per core: many wait on their children (a browser, bulkbench runs paced or
  # racing a budget), and on 2 cores 8 at once ran make test in 54 s where 4 took 65 s
  local jobs=${BB_QUICK_JOBS:-$((4 * $(nproc 2>/dev/null || echo 2)))} specs=(tests/spec/*_spec.lua)
  local laws="--filter=^statistics --filter=^zipf --filter=^continuous --filter=^discrete"
  local all=(
    "rooms python3 tests/rooms.py"
    "units bash -c 'make -s units >/dev/null && for t in build/test_*; do \"\$t\" || exit 1; done'"
    # the laws' spec was the longest suite (56 s of 56 in make test): two halves run side by side
    "specs:laws ./bulkbench lua tests/specs.lua -o TAP $laws tests/spec/distribution_spec.lua"
    "specs:draws ./bulkbench lua tests/specs.lua -o TAP ${laws//--filter=/--filter-out=} tests/spec/distribution_spec.lua"
    "specs ./bulkbench lua tests/specs.lua -o TAP ${specs[*]/tests\/spec\/distribution_spec.lua/}"
    "html python3 tests/html.py" "help python3 tests/help_options.py" "docs python3 tests/docs.py")
  # memcheck.t runs valgrind (a minute of CPU, and an advise race whose budget a loaded machine
  # outgrows): make check's, like the sanitized pass
  for f in tests/cli/*.t; do [ "$f" = tests/cli/memcheck.t ] || all+=("cli:$(basename "$f" .t) env CLI_FILES=$f tests/cli.sh"); done
  # the plans of the suites not run here, found beside the others (tests/plan.sh), one a line
  plans &
  for s in "${all[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    eval "suite $s" &
  done
  wait
  local why="needs database servers: make check" s
  for s in engines load-matrix matrix mpi crash crash-reconnect; do not_here "$s" "$why" "$(planned $s)"; done
  not_here new-engine "a copy of the tree: make check" "$(planned new-engine)"
  not_here sanitize "a build of its own: make check" "$(sanitize_plan)"
  not_here fuzz "a build of its own: make check" "$(planned fuzz)"
  not_here cli:memcheck "valgrind: make check" "$(planned memcheck)"
  for s in ivorysql citus greenplum; do not_here "$s" "a system's build and servers: make check" "$(planned "$s")"; done
}

if [ "${1:-}" = --quick ]; then
  trap 'kill $(jobs -p) 2>/dev/null; wait; rm -rf "$base"' EXIT
  quick_suites
elif [ -n "${BB_IN_SANITIZE:-}" ]; then
  (lane sanitized main_suites)
else
  (lane main main_suites) &
  lanes+=($!)
  (lane side side_suites) &
  lanes+=($!)
  trap 'kill "${lanes[@]}" 2>/dev/null; wait; rm -rf "$base"' EXIT
  # a lane that ended early (its shell stopped on an error) has not run all its suites: a failure
  for l in "${lanes[@]}"; do
    wait "$l"
    rc=$?
    [ $rc -eq 0 ] && continue
    echo "0 1 0" >>"$base/tally"; echo "a lane ended early (exit $rc): some suites did not run" | tee -a "$base/failures"
  done
fi
read total_pass total_fail total_skip < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$base/tally" 2>/dev/null || echo "0 1 0")
if [ -s "$base/failures" ]; then
  echo "failed:"; head -20 "$base/failures" | cut -c1-640 | sed 's/^/  /'
fi
[ -n "${BB_IN_SANITIZE:-}" ] && rm -rf "$base"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
