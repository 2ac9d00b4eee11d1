#!/usr/bin/env bash
# CLI transcript tests. Each tests/cli/*.t holds cases:
#   # what the case shows         (a comment names the case)
#   $ command                     (run with bash from the project root; $TMP is the file's scratch dir)
#   ? N                           (expected exit code)
#   ~ regex                       (must match the combined stdout+stderr, grep -E)
#   ! regex                       (must not match)
# CLI_FILES="tests/cli/runs.t ..." runs only those files; BB_TIMES=FILE appends each case's seconds to FILE.
# BB_NO_SERVER=1 (make test): a case that needs a server (it names pg, mysql, odbc, a DSN
# variable, psql or dbctl) is not run and is counted as a skip, "ok - NAME # skip ...", and so
# is a case "... NAME" that goes on from a skipped one.
# Prints "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
ROOT_TMP=$(mktemp -d "${TMPDIR:-/tmp}/bbcli.XXXXXX")
trap 'rm -rf "$ROOT_TMP"' EXIT
pass=0 failn=0 skipn=0 skipped=""
SERVER='\b(pg|mysql|mariadb|odbc|psql|dbctl|postgresql|BULKBENCH_[A-Z_]*)\b'

run_case() {
  [ -z "$cmd" ] && return
  if [ -n "${BB_NO_SERVER:-}" ] && { grep -qE "$SERVER" <<<"$cmd" || { [ -n "$skipped" ] && [[ $name == ...* ]]; }; }; then
    skipn=$((skipn + 1)); skipped=1; echo "ok - $name # skip needs a database server"; cmd=""; return
  fi
  skipped=""
  local out rc ok=1 why="" t0=$EPOCHREALTIME
  out=$(timeout 300 bash -c "$cmd" 2>&1); rc=$? # a guard against a hang, not a deadline: a busy machine is slow
  [ -n "${BB_TIMES:-}" ] && echo "$(bc <<<"$EPOCHREALTIME - $t0") ${BB_IN_SANITIZE:+san }${file##*/} $name" >>"$BB_TIMES"
  if [ -n "$want_rc" ] && [ "$rc" != "$want_rc" ]; then ok=0; why="exit $rc, want $want_rc"; fi
  for p in "${musts[@]}"; do grep -qE -- "$p" <<<"$out" || { ok=0; why="$why; no match for /$p/"; }; done
  for p in "${nots[@]}"; do grep -qE -- "$p" <<<"$out" && { ok=0; why="$why; unwanted match /$p/"; }; done
  if [ $ok = 1 ]; then pass=$((pass + 1)); echo "ok - $name"
  else
    # the output's first lines ride on the one line a summary keeps (run.sh's "failed:" list)
    local got; got=$(grep -v '^[[:space:]]*$' <<<"$out" | head -3 | tr '\n' '|' | cut -c1-240)
    failn=$((failn + 1)); echo "not ok - $name ($file): $why; got: $got"
    echo "    \$ $cmd"; sed 's/^/    | /' <<<"$out" | head -15
  fi
  cmd=""
}

for file in ${CLI_FILES:-tests/cli/*.t}; do
  # valgrind cannot run an AddressSanitizer build: memcheck belongs to the ordinary pass; the
  # scenarios' long end-to-end runs add time there, not paths the engine specs leave out
  # tls.t's servers of its own cost the side lane 20 s for paths fuzz_dsn's corpus covers under ASan already
  [ -n "${BB_IN_SANITIZE:-}" ] && case "${file##*/}" in memcheck.t | scenarios.t | tls.t) true ;; *) false ;; esac && continue
  # a scratch directory per file: two files' cases writing one name (--out appends) never meet
  export TMP=$ROOT_TMP/${file##*/}
  mkdir -p "$TMP"
  cmd="" name="" want_rc="" musts=() nots=()
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      "# "*) run_case; name=${line#\# }; want_rc=""; musts=(); nots=() ;;
      "\$ "*) run_case; cmd=${line#\$ } ;;
      "? "*) want_rc=${line#\? } ;;
      "~ "*) musts+=("${line#\~ }") ;;
      "! "*) nots+=("${line#\! }") ;;
    esac
  done <"$file"
  run_case
done
echo "$pass passed, $failn failed, $skipn skipped"
[ $failn -eq 0 ]
