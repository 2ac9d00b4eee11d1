#!/bin/bash
# contrib/new_trial.sh ENGINE DSN [MIN_ROWS]: `bulkbench new` tried on every table of a database
# someone else wrote (a public sample schema, loaded beforehand: this script fetches nothing).
# For each table: `new` writes its scenario, the scenario runs as written (into scratch copies),
# and on tables of MIN_ROWS rows or more (1000) `new --check` holds each column against the
# table's. Prints a line per table and, last, the columns off (new --check's bands: KS 0.1,
# top-5 0.05, distinct ratio 0.8-1.25, null fraction 0.02):
#   table  rows  new  run  check (worst KS, worst top-5, distinct ratios, worst null diff)
# Exits 1 when any table fails or any column is over. docs/new.md lists what it was tried on.
set -u
e=$1 dsn=$2 min=${3:-1000}
B=${BULKBENCH:-./bulkbench}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
tables=$($B lua /dev/stdin "$e" "$dsn" <<'LUA'
local e, dsn = arg[1], arg[2]
local db = require("bulkbench").connect(e, dsn)
local cat = require(require("bulkbench.dialects").of(e).catalog)
for _, t in ipairs(cat.resolve(db, "%")) do print(t.name) end
LUA
) || { echo "cannot list the tables of $dsn"; exit 1; }
bad=0 over=()
printf '%-28s %8s %5s %5s  %s\n' table rows new run check
for t in $tables; do
  f="$T/$t.lua"
  if ! $B new --engine="$e" --dsn="$dsn" --table="$t" -o "$f" >"$T/new" 2>&1; then
    printf '%-28s %8s %5s\n' "$t" - FAIL; sed 's/^/    /' "$T/new" | tail -2; bad=$((bad + 1)); continue
  fi
  run=ok
  $B run "$f" --engine="$e" --dsn="$dsn" >"$T/run" 2>&1 || { run=FAIL; bad=$((bad + 1)); }
  check=-
  n=$(grep -o "like = \"[^\"]*$t\", rows = [0-9]*" "$f" | grep -o '[0-9]*$' | head -1)
  if [ "${n:-0}" -ge "$min" ]; then
    if $B new --engine="$e" --dsn="$dsn" --table="$t" --check --format=json >"$T/chk" 2>"$T/chk.err"; then
      check=$(python3 - "$T/chk" "$t" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mine = [c for c in d["columns"] if not c.get("server")]  # the server's values (now(), identities, triggers') are not the scenario's
ks = max([c["ks"] or 0 for c in mine] + [0]); top = max([c["top5_diff"] or 0 for c in mine] + [0])
nul = max([c["null_diff"] or 0 for c in mine] + [0])
dr = [c["distinct_ratio"] for c in mine if c["distinct_ratio"] is not None and not c.get("too_few")]
out = [c for c in mine if c.get("off")]  # new --check's bands: KS, top-5, distinct ratio, null diff
print("KS %.3f, top-5 %.3f, distinct %.2f-%.2f, null %.3f%s" % (ks, top, min(dr + [1]), max(dr + [1]), nul,
      "".join("; OVER: %s.%s (%s: KS %s, top-5 %s, distinct %s, null %s)" % (sys.argv[2], c["name"], "+".join(c["off"]), c["ks"],
              c["top5_diff"], c["distinct_ratio"], c["null_diff"]) for c in out)))
PY
)
    else check="FAIL: $(tail -1 "$T/chk.err")"; bad=$((bad + 1)); fi
  fi
  printf '%-28s %8s %5s %5s  %s\n' "$t" "$n" ok "$run" "$check"
  [ "$run" = ok ] || grep -v '^ *$' "$T/run" | tail -2 | sed 's/^/    /'
  case "$check" in *OVER*) over+=("$t") ;; esac
done
[ ${#over[@]} -eq 0 ] || { echo "columns off (KS 0.1, top-5 0.05, distinct ratio 0.8-1.25, null diff 0.02) in: ${over[*]}"; bad=$((bad + 1)); }
exit $((bad > 0))
