# bench_scale.sh — make bench's scale section (sourced by contrib/bench.sh, not run): does
# `bulkbench forecast` hold? PostgreSQL and MariaDB, each held to SCALE_MEM by contrib/dbctl
# --memory, two table shapes (narrow rows, and wide ones), SCALE_TRIALS trials each (3): a
# forecast of the load of N rows, then the whole load measured; each forecast's error against
# the load and whether its interval held it. Goals (issue 47): within 25% in 9 trials of 10, the
# interval holding in 9 of 10. The whole loads' growth goes to SCALE_OUT (a results file: its
# curves with `bulkbench report --html`) and, with SCALE_SVG, their chart (docs/scale.md's).
# Long: each load runs minutes (SCALE_ROWS_PG, SCALE_ROWS_MY set N).

# the two shapes: the acceptance check's (two random keys indexed, 80 bytes of padding) and a
# wide one (a random int and a random 32-byte key indexed, 240 bytes of padding)
scale_script() { # name, its columns after the key (Lua), then the two indexed columns
  printf '%s\n' 'local bb = require "bulkbench"' 'bb.defaults { method = { pg = "copy", mysql = "load" } }' \
    "bb.load(bb.table \"scale_$1\" { { \"id\", \"bigint\", bb.seq() }, $2 primary_key = \"id\"," \
    "  indexes = { { \"$3\" }, { \"$4\" } } })" >"$T/scale_$1.lua"
}
scale_scripts() {
  scale_script narrow '{ "k1", "bigint", bb.int { 1, 4000000000000000000 } }, { "k2", "varchar(16)", bb.string { len = 16 } }, { "pad", "varchar(80)", bb.string { len = 80 } },' k1 k2
  scale_script wide '{ "n", "int", bb.int { 1, 2000000000 } }, { "k", "varchar(32)", bb.string { len = 32 } }, { "pad", "varchar(240)", bb.string { len = 240 } },' n k
}

# one trial: forecast, then the whole load; prints its line and appends "err inside" to $T/scale_tally
scale_trial() { # engine dsn shape rows
  local e=$1 dsn=$2 shape=$3 n=$4 s fs full
  s=$(date +%s.%N)
  $BB forecast "$T/scale_$shape.lua" --engine="$e" --dsn="$dsn" --rows="$n" --format=json >"$T/f.json" 2>"$T/f.err" \
    || { echo "bench: forecast failed: $(tail -1 "$T/f.err")" >&2; exit 1; }
  fs=$(echo "$(date +%s.%N) - $s" | bc -l)
  $BB run "$T/scale_$shape.lua" --engine="$e" --dsn="$dsn" --rows="$n" --format=json --out="${SCALE_OUT:-$T/scale.jsonl}" \
    >"$T/r.json" 2>"$T/r.err" || { echo "bench: the load failed: $(tail -1 "$T/r.err")" >&2; exit 1; }
  full=$(bb_seconds "$T/r.json")
  python3 - "$T/f.json" "$full" "$fs" "$e $shape $n" >>"$T/scale_lines" <<'PY'
import json, sys
f = json.load(open(sys.argv[1])); full, spent = float(sys.argv[2]), float(sys.argv[3])
lo, hi = f["interval"]; err = f["seconds"] / full - 1; inside = lo <= full <= hi
m = f["model"]
print("%-28s forecast %6.0f s [%6.0f, %6.0f] in %5.0f s (%2.0f%%, %s)  load %6.0f s  error %+5.1f%%  %s" % (
    sys.argv[4], f["seconds"], lo, hi, spent, 100 * spent / full, m["state"], full, 100 * err,
    "inside" if inside else "OUTSIDE"))
PY
  tail -1 "$T/scale_lines"
  python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); full=float(sys.argv[2]); lo,hi=f["interval"]; print(abs(f["seconds"]/full-1) <= 0.25, lo <= full <= hi, float(sys.argv[3]) <= 0.25*full)' \
    "$T/f.json" "$full" "$fs" >>"$T/scale_tally"
}

bench_scale() {
  local mem=${SCALE_MEM:-160M} trials=${SCALE_TRIALS:-3} e shape n dir out dsn
  scale_scripts
  dir=$(mktemp -d /tmp/bbscale.XXXXXX); chmod 755 "$dir"
  local prev; prev=$(trap -p EXIT | sed "s/^trap -- '\(.*\)' EXIT\$/\1/") # the other sections' clean-up too
  trap "BB_DBCTL_DIR=$dir contrib/dbctl stop all >/dev/null 2>&1; rm -rf $dir; $prev" EXIT
  : >"$T/scale_tally"
  echo "scale: forecasts against whole loads, servers held to $mem (contrib/dbctl --memory), $trials trials each"
  for e in pg mysql; do
    out=$(BB_DBCTL_DIR=$dir contrib/dbctl start $e --memory="$mem") || exit 1
    dsn=$(echo "$out" | sed 's/^export [A-Z_]*=//' | tr -d "'\"")
    for shape in narrow wide; do
      n=${SCALE_ROWS_PG:-4000000}; [ $e = mysql ] && n=${SCALE_ROWS_MY:-2000000}
      for _ in $(seq "$trials"); do scale_trial $e "$dsn" $shape "$n"; done
    done
    BB_DBCTL_DIR=$dir contrib/dbctl stop $e >/dev/null
  done
  local total within inside quarter
  total=$(wc -l <"$T/scale_tally"); within=$(awk '$1 == "True"' "$T/scale_tally" | wc -l)
  inside=$(awk '$2 == "True"' "$T/scale_tally" | wc -l); quarter=$(awk '$3 == "True"' "$T/scale_tally" | wc -l)
  echo "scale: within 25% of the load in $within of $total, the interval holding it in $inside of $total, the forecast under a quarter of the load's time in $quarter of $total (goals: 9 of 10 each)"
  summary+=("| forecast at scale, $total trials (pg and MariaDB in $mem, two shapes) | within 25%: $within of $total | interval holds: $inside of $total | goals: 9 of 10 |")
  if [ -n "${SCALE_SVG:-}" ]; then $BB lua contrib/scale_chart.lua "${SCALE_OUT:-$T/scale.jsonl}" "$SCALE_SVG"; fi
}
