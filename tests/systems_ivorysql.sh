# IvorySQL's own checks (sourced by tests/systems.sh with DSN, check, json and $d; the engine
# spec and the matrix ran on the PostgreSQL port): seed 000 on both ports, and what a pg run
# sees on the Oracle-compatible port.
ORA=$BULKBENCH_IVORYSQL_ORACLE_DSN
pgq() { psql -qAtX "$DSN" -c "$1" 2>&1; }

# seed 000: COPY of the BenchmarkSQL history table, on each port
for port in pg oracle; do
  dsn=$([ $port = pg ] && echo "$DSN" || echo "$ORA")
  ./bulkbench run workloads/copy_vs_load.lua --engine=pg --dsn="$dsn" --rows=100000 --format=json >"$d/s0.json" 2>"$d/err"
  got=$(json "$d/s0.json" "'%s %s' % (r['verified_rows'], r['server']['version'])")
  check "seed 000's COPY on the $port port ($got)" "$([[ $got == "100000 IvorySQL 3."* ]] && echo 0 || echo 1)" \
    "$(tail -1 "$d/err")"
done

# the Oracle port: every pg method loads what psql's \copy of `bulkbench gen` loads on the
# PostgreSQL port. The DDL's quoted lower-case "orders" is ORDERS there (Oracle keeps a
# quoted name as it is, IvorySQL stores it flipped), with Oracle's varchar and timestamp.
./bulkbench gen workloads/quickstart.lua --table=orders --rows=1003 --seed=5 --format=copy -o "$d/ref.copy"
for m in $(./bulkbench list | awk '$1 == "pg" && /^  [a-z]/ {f = 1; next} /^  [a-z]/ {f = 0} f && NF {print $1}'); do
  ./bulkbench run workloads/quickstart.lua --engine=pg --dsn="$ORA" --method="$m" --batch=7 --threads=3 --rows=1003 \
    --seed=5 >"$d/o.out" 2>&1
  rc=$?
  [ $m = insert ] && pgq 'drop table if exists ora_ref; create table ora_ref (like "ORDERS")' >/dev/null &&
    psql -qAtX "$DSN" -c "\\copy ora_ref from '$d/ref.copy'" >/dev/null
  got=$(pgq 'select (select count(*) from "ORDERS"), (select count(*) from ora_ref),
    (select count(*) from (select * from "ORDERS" except select * from ora_ref) a),
    (select count(*) from (select * from ora_ref except select * from "ORDERS") b)' | tr '|' ' ')
  check "oracle port: $m batch 7, 3 threads: the table equals psql's load" \
    "$([ $rc = 0 ] && [ "$got" = "1003 1003 0 0" ] && echo 0 || echo 1)" "exit $rc, $got: $(tail -1 "$d/o.out")"
done
types=$(pgq "select string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' order by attnum) from pg_attribute where attrelid = '\"ORDERS\"'::regclass and attnum > 0")
check "oracle port: the DDL's varchar and timestamp are Oracle's ($types)" \
  "$([[ $types == *"SKU sys.oravarcharbyte(12)"*"ORDERED sys.oratimestamp"* ]] && echo 0 || echo 1)" "$types"
./bulkbench run workloads/quickstart.lua --engine=pg --dsn="$ORA" --method=copy --rows=5000 --format=json >"$d/o.json" 2>"$d/err"
got=$(json "$d/o.json" "'%s %s' % (r['server']['version'], r['server']['table_bytes'])")
check "oracle port: the result names IvorySQL and sizes \"ORDERS\" ($got)" \
  "$([[ $got =~ ^IvorySQL\ 3\..*\ [1-9][0-9]*$ ]] && echo 0 || echo 1)" "$(tail -1 "$d/err")"

# Oracle's empty string is NULL: a bound or literal '' becomes NULL there, COPY keeps ''
cat >"$d/empty.lua" <<'LUA'
local bb = require "bulkbench"
bb.load(bb.table "empt" { { "id", "bigint", bb.seq() }, { "s", "varchar(10)", bb.const("") } })
LUA
seen=""
for m in insert multirow copy; do
  ./bulkbench run "$d/empty.lua" --engine=pg --dsn="$ORA" --method=$m --rows=10 >/dev/null 2>&1
  seen="$seen $m:$(pgq 'select count(*) from "EMPT" where "S" is null')"
done
check "oracle port: '' is NULL by insert and multirow, '' by copy ($seen)" \
  "$([ "$seen" = " insert:10 multirow:10 copy:0" ] && echo 0 || echo 1)" "$seen"
pgq 'drop table if exists ora_ref; drop table if exists "EMPT"; drop table if exists "ORDERS"' >/dev/null
