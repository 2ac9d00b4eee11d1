#!/usr/bin/env bash
# The seeds' systems where they are built (docs/systems.md): IvorySQL, Citus, Greenplum 6.
#   tests/systems.sh ivorysql|citus|greenplum
# Starts the system with contrib/dbctl from its prefix (BB_IVORYSQL_PREFIX, BB_CITUS_PREFIX,
# BB_GREENPLUM_PREFIX), runs the pg engine spec and the data-identity matrix against it
# (tables distributed on the clusters), the system's own checks and its seed's comparison,
# and stops it. Without the prefix it prints one skipped TAP line and exits at once.
set -u
cd "$(dirname "$0")/.."
name=${1:?usage: tests/systems.sh ivorysql|citus|greenplum}
var=BB_${name^^}_PREFIX
if [ -z "${!var:-}" ] || [ ! -x "${!var}/bin/initdb" ]; then # each of its cases skipped (tests/plan.sh counts them)
  n=$(tests/plan.sh system "$name")
  for i in $(seq "${n:-1}"); do echo "ok $i # skip skipped: $name not built ($var names no built prefix)"; done
  echo "1..${n:-1}"
  exit 0
fi
export BB_DBCTL_DIR
BB_DBCTL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/bbsys.XXXXXX")
d=$BB_DBCTL_DIR/work
mkdir -p "$d"
trap 'contrib/dbctl stop "$name" >/dev/null 2>&1; rm -rf "$BB_DBCTL_DIR"' EXIT
t=0
check() { # description, 0 = ok, detail when not
  t=$((t + 1))
  if [ "$2" = 0 ]; then echo "ok $t - $name: $1"; else echo "not ok $t - $name: $1: $3"; fi
}
tap() { # a TAP stream of another suite, renumbered into this one (its plan dropped)
  local line
  while IFS= read -r line; do
    case $line in
      "ok "* | "not ok "*)
        t=$((t + 1))
        local st=${line%% [0-9]*}
        echo "$st $t $name: $(sed -E 's/^(not )?ok [0-9]+ (- )?//' <<<"$line")" ;;
      "1.."*) ;;
      *) echo "# $line" ;;
    esac
  done
}
# field of the last JSON result in a file: json FILE 'python expression on r'
json() { python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')][-1]; print($2)" "$1" 2>/dev/null; }

# the cluster's shards: fewer than Citus' 32, so a COPY opens fewer worker sessions and the suite stays quick
[ "$name" = citus ] && export BB_DBCTL_PG_OPTS="citus.shard_count=4 ${BB_DBCTL_PG_OPTS:-}"
if ! out=$(contrib/dbctl start "$name" 2>&1); then
  check "starts with contrib/dbctl" 1 "$(tail -3 <<<"$out" | tr '\n' ' ')"
  echo "1..$t"
  exit 1
fi
eval "$out"
check "starts with contrib/dbctl" 0
case $name in
  ivorysql) DSN=$BULKBENCH_IVORYSQL_DSN VERSION="IvorySQL 3." ARGS="" ;;
  citus) DSN=$BULKBENCH_CITUS_DSN VERSION="Citus 13." ARGS="--distributed_by=id" ;;
  greenplum) DSN=$BULKBENCH_GREENPLUM_DSN VERSION="Greenplum 6." ARGS="" ;;
esac

# the engine spec and the matrix, as on the stock server
tap < <(BULKBENCH_PG_DSN=$DSN BB_SPEC_PG_VERSION=$VERSION BB_SPEC_ARGS=$ARGS \
  ./bulkbench lua tests/specs.lua -o TAP -m 'tests/?.lua' tests/engines/pg_spec.lua 2>&1)
# on a cluster each statement reaches every node: batch 1 (1003 COPYs, say) would take minutes
BATCHES="1 7 1000"
[ "$name" != ivorysql ] && BATCHES="7 1000"
tap < <(BULKBENCH_PG_DSN=$DSN MATRIX_ENGINES=pg MATRIX_ARGS=$ARGS MATRIX_BATCHES=$BATCHES tests/matrix.sh 2>&1)

# results name the system, and its costs are every node's
./bulkbench run workloads/quickstart.lua --engine=pg --dsn="$DSN" --method=copy --rows=20000 $ARGS --format=json \
  >"$d/q.json" 2>"$d/err"
v=$(json "$d/q.json" "r['server']['version']")
check "results name the system ($v)" "$([[ $v == "$VERSION"* ]] && echo 0 || echo 1)" "want $VERSION..., $(tail -1 "$d/err")"
tb=$(json "$d/q.json" "r['server']['table_bytes'] or 0")
check "table_bytes of the loaded table ($tb)" "$([ "${tb:-0}" -gt 20000 ] && echo 0 || echo 1)" "want > 20000"
lb=$(json "$d/q.json" "r['server']['log_bytes'] or 0")
check "log_bytes of the load ($lb)" "$([ "${lb:-0}" -gt 20000 ] && echo 0 || echo 1)" "want > 20000"

source "tests/systems_$name.sh"
echo "1..$t"
