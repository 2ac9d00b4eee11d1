#!/usr/bin/env bash
# The tally of one suite's output (a file, or standard input): "PASSED FAILED SKIPPED".
# A suite prints TAP ("ok N - what", "not ok N - what", "ok N # skip why") or ends with
# "N passed, N failed[, N skipped]"; a skip is a test that did not run, never a pass.
#   tests/tally.sh suite.log    -> 41 0 3
log=${1:-/dev/stdin}
text=$(cat "$log")
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$text" | tail -1)
if [ -n "$line" ]; then
  sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/; s/ $/ 0/' <<<"$line"
else
  s=$(grep -ciE '^ok\b[^#]*#[[:space:]]*skip' <<<"$text")
  echo "$(($(grep -cE '^ok\b' <<<"$text") - s)) $(grep -cE '^not ok\b' <<<"$text") $s"
fi
