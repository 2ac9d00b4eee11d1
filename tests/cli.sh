#!/usr/bin/env bash
# CLI transcript tests. Each tests/cli/*.t holds cases:
#   # what the case shows         (a comment names the case)
#   $ command                     (run with bash from the project root; $TMP is the file's scratch dir)
#   ? N                           (expected exit code)
#   ~ regex                       (must match the combined stdout+stderr, grep -E)
#   ! regex                       (must not match)
#   @ needs WHAT...               (what the case needs beyond ./bulkbench: an engine, whose
#                                 servers its descriptor names, or `server`: one it starts itself;
#                                 before a file's first case: what every case of the file needs)
# CLI_FILES="tests/cli/runs.t ..." runs only those files; BB_TIMES=FILE appends each case's seconds to FILE.
# BB_NO_SERVER=1 (make test): a case that declares a need for a server (an engine whose
# descriptor names servers, or `server`) is not run and is counted as a skip, "ok - NAME # skip
# ...", and so is a case "... NAME" that goes on from a skipped one. Nothing is guessed from a
# case's words: what it needs is what it says. A need that is no engine nor `server` fails the case.
# Prints "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
SANITIZED_LEAVES="memcheck.t scenarios.t tls.t scale.t" # the files the sanitized pass leaves out (why: below)
[ "${1:-}" = --sanitized-leaves ] && { echo "$SANITIZED_LEAVES"; exit 0; } # for tests/run.sh's count
ROOT_TMP=$(mktemp -d "${TMPDIR:-/tmp}/bbcli.XXXXXX")
chmod 755 "$ROOT_TMP" # a case's servers of their own (tls.t) run as their users, who must reach its files' directory
trap 'rm -rf "$ROOT_TMP"' EXIT
pass=0 failn=0 skipn=0 skipped=""
# the engines, and those whose runs need servers: their descriptors say (tests/descriptors.py)
read -r -a ENGINES <<<"$(python3 tests/descriptors.py names)"
read -r -a SERVERED <<<"$(python3 tests/descriptors.py servers)"

# What of the case's needs (and its file's) is not here: printed, one word each; a need no
# engine nor `server` names is said as unknown.
unmet() {
  local w e known
  for w in $file_needs $needs; do
    known=""; [ "$w" = server ] && known=1
    for e in "${ENGINES[@]}"; do [ "$w" = "$e" ] && known=1; done
    [ -z "$known" ] && { echo "unknown:$w"; continue; }
    [ -z "${BB_NO_SERVER:-}" ] && continue
    [ "$w" = server ] && { echo server; continue; }
    for e in "${SERVERED[@]}"; do [ "$w" = "$e" ] && echo "$w"; done
  done
}

run_case() {
  [ -z "$cmd" ] && return
  local miss; miss=$(unmet)
  if grep -q '^unknown:' <<<"$miss"; then
    failn=$((failn + 1)); echo "not ok - $name ($file): @ needs names what is no engine nor server: $(grep '^unknown:' <<<"$miss" | cut -d: -f2 | tr '\n' ' ')"
    cmd=""; return
  fi
  if [ -n "$miss" ] || { [ -n "$skipped" ] && [[ $name == ...* ]]; }; then
    skipn=$((skipn + 1)); skipped=1
    echo "ok - $name # skip needs ${miss:+a server for }$(echo ${miss:-what the case before it needed})"; cmd=""; return
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
  # tls.t's servers of its own cost the side lane 20 s for paths fuzz_dsn's corpus covers under ASan already;
  # scale.t's (held to a memory size) and its loads and advise race a minute, for paths the
  # sanitized pass's runs and advise cases go through already (growth, the race)
  [ -n "${BB_IN_SANITIZE:-}" ] && [[ " $SANITIZED_LEAVES " == *" ${file##*/} "* ]] && continue
  # a scratch directory per file: two files' cases writing one name (--out appends) never meet
  export TMP=$ROOT_TMP/${file##*/}
  mkdir -p "$TMP"
  cmd="" name="" want_rc="" musts=() nots=() needs="" file_needs=""
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      "# "*) run_case; name=${line#\# }; want_rc=""; musts=(); nots=(); needs="" ;;
      "@ needs "*) if [ -z "$name" ]; then file_needs=${line#@ needs }; else needs=${line#@ needs }; fi ;;
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
