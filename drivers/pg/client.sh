#!/usr/bin/env bash
# client.sh — PostgreSQL's own client (psql) for the tests (bb_driver.client): what a run left
# is held against what psql loads from `bulkbench gen` of the same seed (tests/matrix.sh).
#   client.sh gen-args                     the `bulkbench gen` options of the file `reference` reads
#   client.sh reference DSN TABLE FILE     FILE into a fresh table ref shaped like TABLE (\copy)
#   client.sh compare DSN TABLE SQL        SQL's answer on TABLE against ref (tests/matrix.sh's diff)
#   client.sh query DSN SQL                SQL's rows, one a line, columns separated by a space
set -eu
case "$1" in
  gen-args) echo "--format=copy" ;;
  reference) psql -qAtX "$2" -c "drop table if exists ref; create table ref (like $3)" -c "\\copy ref from '$4'" ;;
  compare) "$0" query "$2" "$4" ;;
  query) psql -qAtX "$2" -F' ' -c "$3" ;;
  *) echo "client.sh: gen-args, reference, compare or query, not $1" >&2; exit 2 ;;
esac
