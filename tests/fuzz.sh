#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang, ASan and UBSan in a copy
# of the tree and runs each for SECONDS (default 60), starting from its committed corpus
# (tests/fuzz/corpus/NAME; new inputs go to a scratch copy). `make fuzz` runs it;
# `make check` runs it with a shorter time. Prints TAP, one line per target.
#   tests/fuzz.sh [SECONDS]
set -u
cd "$(dirname "$0")/.."
secs=${1:-60}
root=$PWD
d=$(mktemp -d "${TMPDIR:-/tmp}/bbfuzz.XXXXXX")
trap 'rm -rf "$d"' EXIT
tar --exclude=./build --exclude=./bulkbench --exclude=./.git --exclude=./results -cf - . | tar -xf - -C "$d" || exit 1
# a smoke run of a few seconds (make check) replays the corpus and mutates briefly: built
# without optimization, the targets compile in two-thirds of the time and that matters more
opt=-O1
[ "$secs" -lt 10 ] && opt=-O0
if ! make -s -j"$(nproc)" -C "$d" CC=clang FUZZ=1 FUZZ_O=$opt fuzzers >"$d/build.log" 2>&1; then
  echo "not ok - fuzz targets build"; echo "1..1"; sed 's/^/    /' "$d/build.log" | tail -20; exit 1
fi
fail=0
echo "1..$(ls "$d"/build/fuzz_* | wc -l)" # one case per target, planned first: a run that stops short is seen
for bin in "$d"/build/fuzz_*; do
  name=$(basename "$bin"); name=${name#fuzz_}
  mkdir -p "$d/corpus/$name"
  cp "$root/tests/fuzz/corpus/$name"/* "$d/corpus/$name/" 2>/dev/null
  if (cd "$d" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      "corpus/$name" >"$d/$name.log" 2>&1); then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$d/$name.log" | grep -o '[0-9]*$')
    echo "ok - fuzz $name: ${runs:-?} inputs in ${secs}s, no crash"
  else
    fail=1
    echo "not ok - fuzz $name crashed; the input that did it is in the log:"
    grep -E 'ERROR|SUMMARY|Assertion|Test unit written|Base64' "$d/$name.log" | head -8 | sed 's/^/    /'
    cp "$d"/crash-* "$root/" 2>/dev/null && echo "    (crash input copied to ./crash-*)"
  fi
done
exit $fail
