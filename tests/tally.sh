#!/usr/bin/env bash
# The tally of one suite's output (a file, or standard input): "PASSED FAILED SKIPPED".
# A suite prints TAP ("ok N - what", "not ok N - what", "ok N # skip why") or ends with
# "N passed, N failed[, N skipped]"; a skip is a test that did not run, never a pass.
# TAP's plans are held to what ran: a plan "1..N" at the start of a stream covers the test
# lines after it, one at the end those since the stream began (several streams may follow
# each other: the unit tests' binaries); each test a plan has and the stream does not (it
# stopped early) is a failure, and so is each test beyond its plan; test lines with no plan at
# all are one failure more. What is wrong is said on standard error.
#   tests/tally.sh suite.log    -> 41 0 3
log=${1:-/dev/stdin}
text=$(cat "$log")
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$text" | tail -1)
if [ -n "$line" ]; then
  sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/; s/ $/ 0/' <<<"$line"
  exit 0
fi
awk '
  function close_plan(planned, ran) {
    if (ran < planned) { missing += planned - ran; printf "the plan said %d tests, %d ran: %d missing\n", planned, ran, planned - ran > "/dev/stderr" }
    if (ran > planned) { missing += ran - planned; printf "the plan said %d tests, %d ran: %d not planned\n", planned, ran, ran - planned > "/dev/stderr" }
  }
  /^ok\>/ || /^not ok\>/ {
    if ($0 ~ /^not ok\>/) fail++
    else if (tolower($0) ~ /^ok\>[^#]*#[[:space:]]*skip/) skip++
    else pass++
    seg++
    next
  }
  /^1\.\.[0-9]+[[:space:]]*$/ {
    n = substr($0, 4) + 0
    if (seg == 0 && !lead) { lead = n; next }  # a leading plan: for the lines to come
    if (lead) { close_plan(lead, seg); lead = 0 } else close_plan(n, seg)
    seg = 0; plans++
    next
  }
  END {
    if (lead) close_plan(lead, seg)
    else if (seg > 0 && plans > 0) { missing++; printf "%d tests after the last plan\n", seg > "/dev/stderr" }
    else if (seg > 0) { missing++; print "no TAP plan (1..N): the suite may have stopped early" > "/dev/stderr" }
    printf "%d %d %d\n", pass, fail + missing, skip
  }' <<<"$text"
