#!/usr/bin/env bash
# The shell-loop way to sweep: any dimension the command line cannot express (a script
# option, a server restart between runs) in a plain loop, every run appending to one
# results file, then one report. Re-running skips what is already in the file (--resume).
#   contrib/sweep.sh [RESULTS.jsonl]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/sweep.jsonl}
mkdir -p "$(dirname "$out")"
for storage in InnoDB MyISAM; do
  for tables in 1 16; do
    ./bulkbench run workloads/multi_thread_insert.lua --engine=mysql --threads=1,2,4,8 --time=5 \
      --storage=$storage --tables=$tables --out="$out" --resume
  done
done
./bulkbench report "$out" --svg="${out%.jsonl}.svg"
