#!/usr/bin/env bash
# Soak: 8 threads for SOAK_TIME seconds (default 600) against each server, paced (--rate)
# so the table stays a few GB. The runner's RSS is sampled every 5 s; after the warm-up
# (SOAK_WARMUP, default 60 s) it must stay within 10% of its value at the warm-up's end;
# the run must verify (exit 0) with no error counted. `make soak` runs it.
set -u
cd "$(dirname "$0")/.."
secs=${SOAK_TIME:-600}
warm=${SOAK_WARMUP:-60}
export BB_DBCTL_DIR; BB_DBCTL_DIR=${BB_DBCTL_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/bbsoak.XXXXXX")}
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsoak-out.XXXXXX")
trap 'contrib/dbctl stop all >/dev/null 2>&1; rm -rf "$T"' EXIT
pass=0 failn=0
for e in pg mysql; do
  out=$(contrib/dbctl start $e) || exit 1; export "${out#export }"
  ./bulkbench run workloads/copy_vs_load.lua --engine=$e --method=multirow --batch=100 --threads=8 \
    --rate=200 --time="$secs" --rows=1000000000 --format=json >"$T/$e.json" 2>"$T/$e.err" &
  p=$!
  : >"$T/$e.rss"
  while kill -0 $p 2>/dev/null; do
    awk '/^VmRSS/ {print $2}' /proc/$p/status 2>/dev/null >>"$T/$e.rss"
    sleep 5
  done
  wait $p; rc=$?
  read -r verdict detail < <(python3 - "$T/$e.json" "$T/$e.rss" "$warm" <<'PY'
import json, sys
res = [l for l in open(sys.argv[1]) if l.startswith('{')]
o = json.loads(res[-1]) if res else {}
rss = [int(x) for x in open(sys.argv[2]).read().split()]
skip = int(sys.argv[3]) // 5
base, after = (rss[skip], rss[skip:]) if len(rss) > skip else (0, [])
grow = max(after) / base - 1 if base else None
ok = o.get('errors') == 0 and o.get('verified_rows') == o.get('rows') and grow is not None and grow <= 0.10
print('ok' if ok else 'bad', "rows %s verified %s errors %s; RSS %s KB at warm-up end, max %s KB after (%+.1f%%), %d samples"
      % (o.get('rows'), o.get('verified_rows'), o.get('errors'), base, max(after) if after else None,
         100 * (grow or 0), len(rss)))
PY
)
  if [ "$rc" -eq 0 ] && [ "$verdict" = ok ]; then pass=$((pass + 1)); echo "ok - soak $e ${secs}s: $detail"
  else failn=$((failn + 1)); echo "not ok - soak $e ${secs}s: exit $rc; $detail"; tail -3 "$T/$e.err" | sed 's/^/    /'; fi
  contrib/dbctl stop $e >/dev/null 2>&1
done
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
