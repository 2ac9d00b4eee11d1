#!/usr/bin/env bash
# Every engine × method that `bulkbench list` offers, at batch 1, 7 and 1000 with 3
# threads: the table each run leaves must equal the one the engine's own client loads
# from `bulkbench gen` of the same seed (psql \copy, mariadb LOAD DATA LOCAL, sqlite3
# reading INSERTs); the null engine must finish with exactly the rows asked for; the odbc
# engine runs through each of its three drivers (psqlODBC, MariaDB Connector/ODBC, SQLite
# ODBC) and is held to that DBMS's stock client. Needs BULKBENCH_PG_DSN and
# BULKBENCH_MYSQL_DSN (tests/run.sh starts the servers). Then the same for the portable types'
# scenario (tests/fixtures/portable.lua) at batch 7. Prints TAP. MATRIX_ENGINES="a b" runs
# only those engines; MATRIX_ARGS adds options to every run (tests/systems.sh: a distributed table),
# MATRIX_BATCHES="7 1000" runs only those batch sizes.
set -u
cd "$(dirname "$0")/.."
d=$(mktemp -d "${TMPDIR:-/tmp}/bbmatrix.XXXXXX")
trap 'rm -rf "$d"' EXIT
N=1003
SEED=5
t=0
check() { # description, 0 = ok, detail when not
  t=$((t + 1))
  if [ "$2" = 0 ]; then echo "ok $t - $1"; else echo "not ok $t - $1: $3"; fi
}
# the methods `bulkbench list` offers an engine (its indented lines under the engine's line)
methods_of() { ./bulkbench list | awk -v e="$1" '$1 == e && /^  [a-z]/ {f = 1; next} /^  [a-z]/ {f = 0} f && NF {print $1}'; }

parse_my() { # mysql://user[:pass]@host:port/db -> the mariadb client's arguments
  local rest=${1#*://} cred hp
  cred=${rest%%@*}; rest=${rest#*@}; hp=${rest%%/*}
  local user=${cred%%:*} pass=""; [[ $cred == *:* ]] && pass=${cred#*:}
  echo "-u$user ${pass:+-p$pass} -h${hp%%:*} -P${hp##*:} --local-infile=1 -N ${rest#*/}"
}
PSQL="psql -qAtX ${BULKBENCH_PG_DSN:-}"
MYSQL="mariadb $(parse_my "${BULKBENCH_MYSQL_DSN:-mysql://x@127.0.0.1:1/x}")"
SQ="$d/run.db"

# "rows_in_table rows_in_ref only_in_table only_in_ref": equal tables say "N N 0 0" (table $T)
diff_sql() { echo "select (select count(*) from $T), (select count(*) from ref),
  (select count(*) from (select * from $T except select * from ref) a),
  (select count(*) from (select * from ref except select * from $T) b)"; }
compare() {
  case $1 in
    pg) $PSQL -F' ' -c "$(diff_sql)" ;;
    mysql) $MYSQL -e "$(diff_sql)" | tr '\t' ' ' ;;
    # SQLite keeps a blob column's bytes as it was handed them: text from sqlite3 reading INSERTs,
    # a blob from the ODBC driver's binding; the same bytes either way, so compared as text
    sqlite) sqlite3 "$SQ" "$([ $T = portable ] && echo "update $T set raw = cast(raw as text);") attach '$d/ref.db' as r;
      $(diff_sql | sed "s/from ref/from r.$T/g")" | tr '|' ' ' ;;
  esac
}

# the reference table of each engine, loaded by the engine's own client (workload $W, table $T;
# --now pins what the run's "now" makes: uuid v7's first bits)
reference() {
  local gen="./bulkbench gen $W --table=$T --rows=$N --seed=$SEED --now=1700000000"
  case $1 in
    pg)
      $gen --format=copy -o "$d/ref.copy" &&
      $PSQL -c "drop table if exists ref; create table ref (like $T)" -c "\\copy ref from '$d/ref.copy'" ;;
    mysql)
      $gen --format=copy -o "$d/ref.copy" &&
      $MYSQL -e "drop table if exists ref; create table ref like $T; load data local infile '$d/ref.copy' into table ref character set utf8mb4" ;;
    sqlite)
      rm -f "$d/ref.db" &&
      sqlite3 "$SQ" ".schema $T" | sqlite3 "$d/ref.db" &&
      $gen --format=sql --dialect=sqlite | sqlite3 "$d/ref.db" ;;
  esac
}

# the odbc engine's drivers, registered in scratch ini files unless tests/run.sh did it
if [ -z "${BULKBENCH_ODBC_PG:-}" ] && [[ -z ${MATRIX_ENGINES:-} || " $MATRIX_ENGINES " == *" odbc "* ]]; then
  source tests/fixtures/odbc.sh; odbc_setup "$d/odbc" >&2
fi
dsn_of() {
  case $1 in
    pg) echo "$BULKBENCH_PG_DSN" ;; mysql) echo "$BULKBENCH_MYSQL_DSN" ;; sqlite) echo "$SQ" ;;
    odbc:pg) echo "${BULKBENCH_ODBC_PG:-}" ;; odbc:mysql) echo "${BULKBENCH_ODBC_MYSQL:-}" ;;
    odbc:sqlite) echo "${BULKBENCH_ODBC_SQLITE%%;Database=*};Database=$SQ" ;; # the file compare() reads
    *) echo "" ;;
  esac
}
# what runs an engine's methods: the engine, or for odbc each DBMS behind its drivers
targets_of() { if [ "$1" = odbc ]; then echo odbc:pg odbc:mysql odbc:sqlite; else echo "$1"; fi; }

# every engine x method on workload $1 (table $2) at the batches $3
matrix() {
W=$1 T=$2
for e in $(./bulkbench list | awk '/^engines/ {f = 1; next} f && /^  [a-z]/ {print $1}'); do
  [ -n "${MATRIX_ENGINES:-}" ] && [[ " $MATRIX_ENGINES " != *" $e "* ]] && continue # MATRIX_ENGINES="odbc": only those
  ms=$(methods_of "$e")
  check "$e: bulkbench list offers methods" "$([ -n "$ms" ] && echo 0 || echo 1)" "none listed"
 for tg in $(targets_of "$e"); do
  kind=${tg#*:} # the DBMS whose stock client holds the reference
  refd=0
  for m in $ms; do
    for b in $3; do
      out="$d/${tg/:/-}-$m-$b.json"
      dsn=$(dsn_of "$tg")
      ./bulkbench run $W --engine=$e ${dsn:+"--dsn=$dsn"} --method=$m --batch=$b --threads=3 --rows=$N \
        --seed=$SEED --now=1700000000 ${MATRIX_ARGS:-} --format=json >"$out" 2>"$d/err"
      rc=$?
      rows=$(python3 -c "import json,sys; print(json.loads([l for l in open(sys.argv[1]) if l.startswith('{')][-1])['rows'])" "$out" 2>/dev/null)
      if [ $rc != 0 ] || [ "$rows" != $N ]; then
        check "$tg $m batch $b, 3 threads" 1 "exit $rc, rows '$rows' of $N: $(tail -2 "$d/err" | tr '\n' ' ')"
        continue
      fi
      if [ "$e" = null ]; then check "$e $m batch $b, 3 threads: $N rows" 0; continue; fi
      if [ $refd = 0 ]; then reference "$kind" >"$d/referr" 2>&1 || { check "$tg: the reference load" 1 "$(tail -3 "$d/referr")"; break 2; }; refd=1; fi
      got=$(compare "$kind")
      check "$tg $m batch $b, 3 threads: the table equals the stock client's load" \
        "$([ "$got" = "$N $N 0 0" ] && echo 0 || echo 1)" "rows/ref/only-in-run/only-in-ref = $got"
    done
  done
 done
done
}
matrix workloads/quickstart.lua orders "${MATRIX_BATCHES:-1 7 1000}"
# the portable types (json, enum, uuid, boolean, timestamptz, bytes) and a function's column, once
# per engine x method
matrix tests/fixtures/portable.lua portable "${MATRIX_BATCHES:-7}"
# the references go (pg's holds the portable table's enum type)
[ -n "${BULKBENCH_PG_DSN:-}" ] && $PSQL -c "drop table if exists ref" >/dev/null 2>&1
[ -n "${BULKBENCH_MYSQL_DSN:-}" ] && $MYSQL -e "drop table if exists ref" >/dev/null 2>&1
echo "1..$t"
