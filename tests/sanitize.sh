#!/usr/bin/env bash
# The whole suite on an AddressSanitizer + UBSan build of a copy of the tree, so that
# ./bulkbench stays as it is. `make sanitize` runs it; `make check` runs it as a suite.
set -u
cd "$(dirname "$0")/.."
d=$(mktemp -d "${TMPDIR:-/tmp}/bbsan.XXXXXX")
trap 'rm -rf "$d"' EXIT
tar --exclude=./build --exclude=./bulkbench --exclude=./.git --exclude=./results -cf - . | tar -xf - -C "$d" || exit 1
# clang: its ASan runtime carries UBSan's handlers, where gcc links libubsan beside libasan, whose
# 6 MB of globals LeakSanitizer scans at every exit (90 ms a process, not 70; the pass starts
# thousands). The unit tests are built by the same compiler (CC is exported).
export CC=clang
make -s -j"$(nproc)" -C "$d" SAN=1 all >/dev/null || { echo "sanitize: the sanitized build failed"; exit 1; }
cd "$d" && BB_IN_SANITIZE=1 ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
  LSAN_OPTIONS=suppressions=$d/tests/lsan.supp:print_suppressions=0 UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh
