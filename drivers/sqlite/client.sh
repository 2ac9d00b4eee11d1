#!/usr/bin/env bash
# client.sh — SQLite's own shell (sqlite3) for the tests (bb_driver.client): what a run left is
# held against what sqlite3 reads from `bulkbench gen --format=sql` of the same seed
# (tests/matrix.sh). The DSN is the database file.
#   client.sh gen-args                     the `bulkbench gen` options of the file `reference` reads
#   client.sh reference DSN TABLE FILE     FILE's INSERTs into a fresh table ref shaped like TABLE
#   client.sh compare DSN TABLE SQL        SQL's answer on TABLE against ref (tests/matrix.sh's diff)
#   client.sh query DSN SQL                SQL's rows, one a line, columns separated by a space
set -eu
case "$1" in
  gen-args) echo "--format=sql --dialect=sqlite" ;;
  reference)
    # ref: TABLE's own CREATE TABLE under another name (its declared types, so its values
    # compare as the run's do), then the file's INSERTs aimed at it
    ddl=$(sqlite3 "$2" "select sql from sqlite_master where type = 'table' and name = '$3'")
    { echo "drop table if exists ref;"; echo "${ddl/$3/ref};"; sed "s/^INSERT INTO \"$3\"/INSERT INTO \"ref\"/" "$4"; } |
      sqlite3 "$2" ;;
  compare)
    # SQLite keeps a blob column's bytes as it was handed them: text from sqlite3 reading
    # INSERTs, a blob from the ODBC driver's binding; the same bytes either way, so compared as text
    blobs=$(sqlite3 "$2" "select group_concat(printf('update \"%s\" set \"%s\" = cast(\"%s\" as text) where typeof(\"%s\") = ''blob'';', '$3', name, name, name), ' ') from pragma_table_info('$3')")
    sqlite3 "$2" "$blobs $4" | tr '|' ' ' ;;
  query) sqlite3 "$2" "$3" | tr '|' ' ' ;;
  *) echo "client.sh: gen-args, reference, compare or query, not $1" >&2; exit 2 ;;
esac
