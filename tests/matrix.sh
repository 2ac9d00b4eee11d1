#!/usr/bin/env bash
# Every engine × method that `bulkbench list` offers, at batch 1, 7 and 1000 with 3 threads: the
# table each run leaves must equal the one the engine's own client loads from `bulkbench gen` of
# the same seed (its descriptor's client script: psql \copy, mariadb LOAD DATA LOCAL, sqlite3
# reading INSERTs); an engine that keeps no rows (no client) must finish with exactly the rows
# asked for; an engine that reaches the DBMS of others (its test_targets: odbc through each of
# its three drivers) is held to each one's client. Then the same for the portable types'
# scenario (tests/fixtures/portable.lua) at batch 7. What the matrix knows of an engine is its
# descriptor (`bulkbench list --engines --format=json`, tests/descriptors.py): it names none.
# Needs the servers the descriptors name (tests/run.sh starts them). Prints TAP.
# MATRIX_ENGINES="a b" runs only those engines; MATRIX_ARGS adds options to every run
# (tests/systems.sh: a distributed table), MATRIX_BATCHES="7 1000" runs only those batch sizes.
#   tests/matrix.sh --plan   its plan alone ("1..N"), running nothing (tests/plan.sh)
set -u
cd "$(dirname "$0")/.."
d=$(mktemp -d "${TMPDIR:-/tmp}/bbmatrix.XXXXXX")
trap 'rm -rf "$d"' EXIT
DIR=$d # the scratch directory a descriptor's test DSN and targets name
N=1003
SEED=5
NOW=1700000000 # pins what the run's "now" makes: uuid v7's first bits
t=0
check() { # description, 0 = ok, detail when not
  t=$((t + 1))
  if [ "$2" = 0 ]; then echo "ok $t - $1"; else echo "not ok $t - $1: $3"; fi
}

# the descriptors: each engine's client script, its DSN for a test run, its targets, its methods
declare -A CLIENT DSN TARGETS SETUP METHODS
names=()
while IFS=$'\t' read -r e servers env tdsn targets client setup methods; do
  names+=("$e")
  CLIENT[$e]=${client#-}; TARGETS[$e]=${targets#-}; SETUP[$e]=${setup#-}; METHODS[$e]=$methods
  if [ "$servers" != - ]; then DSN[$e]=${!env:-}; else eval "DSN[\$e]=\"${tdsn#-}\""; fi
done < <(python3 tests/descriptors.py shell)

# the reference table (workload $W, table $T), loaded by engine $1's own client from gen's file
# in the form it reads
reference() {
  ./bulkbench gen $W --table=$T --rows=$N --seed=$SEED --now=$NOW $("${CLIENT[$1]}" gen-args) -o "$d/ref.$1" &&
    "${CLIENT[$1]}" reference "${DSN[$1]}" $T "$d/ref.$1"
}
# "rows_in_table rows_in_ref only_in_table only_in_ref": equal tables say "N N 0 0"
diff_sql() { echo "select (select count(*) from $T), (select count(*) from ref),
  (select count(*) from (select * from $T except select * from ref) a),
  (select count(*) from (select * from ref except select * from $T) b)"; }
compare() { "${CLIENT[$1]}" compare "${DSN[$1]}" $T "$(diff_sql)"; }
# what runs an engine's methods: "KIND=DSN" each, KIND the engine whose client checks the table
targets_of() {
  if [ -z "${TARGETS[$1]}" ]; then echo "$1=${DSN[$1]}"; return; fi
  local w dsn
  for w in ${TARGETS[$1]}; do # words of the descriptor; each one's DSN expanded whole (it may hold spaces)
    set +u; eval "dsn=\"${w#*=}\""; set -u # a variable not set yet (its setup not run) is empty
    echo "${w%%=*}=$dsn"
  done
}
# --plan: per workload, each engine's line and one case per target x method x batch
if [ "${1:-}" = --plan ]; then
  for e in "${names[@]}"; do
    [ -n "${MATRIX_ENGINES:-}" ] && [[ " $MATRIX_ENGINES " != *" $e "* ]] && continue
    n=$(targets_of "$e" | wc -l) m=$(wc -w <<<"${METHODS[$e]}")
    t=$((t + 2 + n * m * ($(wc -w <<<"${MATRIX_BATCHES:-1 7 1000}") + $(wc -w <<<"${MATRIX_BATCHES:-7}"))))
  done
  echo "1..$t"
  exit 0
fi
# what an engine's targets need readied, unless tests/run.sh did it (their variables set)
for e in "${names[@]}"; do
  [ -n "${MATRIX_ENGINES:-}" ] && [[ " $MATRIX_ENGINES " != *" $e "* ]] && continue
  if [ -n "${SETUP[$e]}" ] && targets_of "$e" | grep -q '=$'; then eval "${SETUP[$e]}" >&2; fi
done

# every engine x method on workload $1 (table $2) at the batches $3
matrix() {
W=$1 T=$2
for e in "${names[@]}"; do
  [ -n "${MATRIX_ENGINES:-}" ] && [[ " $MATRIX_ENGINES " != *" $e "* ]] && continue # MATRIX_ENGINES="odbc": only those
  ms=${METHODS[$e]}
  check "$e: bulkbench list offers methods" "$([ -n "$ms" ] && echo 0 || echo 1)" "none listed"
 while IFS= read -r tg; do
  kind=${tg%%=*} dsn=${tg#*=} label=$e
  [ "$kind" != "$e" ] && label=$e:$kind
  refd=0
  for m in $ms; do
    for b in $3; do
      out="$d/${label/:/-}-$m-$b.json"
      ./bulkbench run $W --engine=$e ${dsn:+"--dsn=$dsn"} --method=$m --batch=$b --threads=3 --rows=$N \
        --seed=$SEED --now=$NOW ${MATRIX_ARGS:-} --format=json >"$out" 2>"$d/err" </dev/null
      rc=$?
      rows=$(python3 -c "import json,sys; print(json.loads([l for l in open(sys.argv[1]) if l.startswith('{')][-1])['rows'])" "$out" 2>/dev/null)
      if [ $rc != 0 ] || [ "$rows" != $N ]; then
        check "$label $m batch $b, 3 threads" 1 "exit $rc, rows '$rows' of $N: $(tail -2 "$d/err" | tr '\n' ' ')"
        continue
      fi
      # an engine that keeps no rows: its count is the check
      if [ -z "${CLIENT[$kind]:-}" ]; then check "$label $m batch $b, 3 threads: $N rows" 0; continue; fi
      if [ $refd = 0 ]; then reference "$kind" >"$d/referr" 2>&1 </dev/null || { check "$label: the reference load" 1 "$(tail -3 "$d/referr")"; break 2; }; refd=1; fi
      got=$(compare "$kind" </dev/null)
      check "$label $m batch $b, 3 threads: the table equals the stock client's load" \
        "$([ "$got" = "$N $N 0 0" ] && echo 0 || echo 1)" "rows/ref/only-in-run/only-in-ref = $got"
    done
  done
 done < <(targets_of "$e")
done
}
matrix workloads/quickstart.lua orders "${MATRIX_BATCHES:-1 7 1000}"
# the portable types (json, enum, uuid, boolean, timestamptz, bytes) and a function's column, once
# per engine x method
matrix tests/fixtures/portable.lua portable "${MATRIX_BATCHES:-7}"
# the references go (pg's holds the portable table's enum type)
for e in "${names[@]}"; do
  [ -n "${CLIENT[$e]}" ] && [ -n "${DSN[$e]}" ] && "${CLIENT[$e]}" query "${DSN[$e]}" "drop table if exists ref" >/dev/null 2>&1
done
echo "1..$t"
