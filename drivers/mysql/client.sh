#!/usr/bin/env bash
# client.sh — MariaDB's own client (mariadb) for the tests (bb_driver.client): what a run left
# is held against what LOAD DATA LOCAL loads from `bulkbench gen` of the same seed
# (tests/matrix.sh). A mysql://user[:pass]@host:port/db DSN becomes the client's arguments.
#   client.sh gen-args                     the `bulkbench gen` options of the file `reference` reads
#   client.sh reference DSN TABLE FILE     FILE into a fresh table ref shaped like TABLE
#   client.sh compare DSN TABLE SQL        SQL's answer on TABLE against ref (tests/matrix.sh's diff)
#   client.sh query DSN SQL                SQL's rows, one a line, columns separated by a space
set -eu
args() {
  local rest=${1#*://} cred hp
  cred=${rest%%@*}; rest=${rest#*@}; hp=${rest%%/*}
  local user=${cred%%:*} pass=""; [[ $cred == *:* ]] && pass=${cred#*:}
  echo "-u$user ${pass:+-p$pass} -h${hp%%:*} -P${hp##*:} --local-infile=1 -N ${rest#*/}"
}
case "$1" in
  gen-args) echo "--format=copy" ;; # LOAD DATA's default escapes are COPY text's
  reference) mariadb $(args "$2") -e "drop table if exists ref; create table ref like $3; load data local infile '$4' into table ref character set utf8mb4" ;;
  compare) "$0" query "$2" "$4" ;;
  query) mariadb $(args "$2") -e "$3" | tr '\t' ' ' ;;
  *) echo "client.sh: gen-args, reference, compare or query, not $1" >&2; exit 2 ;;
esac
