# dbctl.sh — the pg engine's server for the tests and benchmarks (its descriptor's servers:
# "pg"): a throwaway PostgreSQL on 127.0.0.1, started, stopped, killed and restarted by
# contrib/dbctl, which sources this file (its helpers: as_user, prep_dir, free_port, make_cert,
# tls_agrees, export_line, die, the mem_* of contrib/dbctl_memory.sh) and runs start_pg,
# stop_pg, kill_pg, restart_pg. Not run on its own.
DBCTL_SERVERS="${DBCTL_SERVERS:-} pg"

pg_bin() {
  local b
  b=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$b" ] || die "PostgreSQL binaries not found under /usr/lib/postgresql (make deps installs them)"
  echo "$b"
}

start_pg() {
  local d=$DIR/pg bin port
  if [ -f "$d/dsn" ] && as_user postgres "$(pg_bin)/pg_ctl" -D "$d/data" status >/dev/null 2>&1; then
    mem_agrees pg "$d"; tls_agrees pg "$d" BULKBENCH_PG_DSN; return; fi
  mem_remove "$d"; rm -rf "$d"; mkdir -p "$DIR"; prep_dir "$d" postgres
  [ -z "$MEMORY" ] || mem_setup "$d" pg "$MEMORY" || exit 1
  bin=$(pg_bin); port=$(free_port)
  as_user postgres "$bin/initdb" -D "$d/data" -U bench --auth=trust -E UTF8 --locale=C.UTF-8 >"$d/initdb.log" 2>&1 \
    || { tail -5 "$d/initdb.log" >&2; die "initdb failed"; }
  # defaults, but room to load: bigger buffers and WAL, as on the machines the seeds used
  cat >>"$d/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$d'
shared_buffers = 512MB
max_wal_size = 4GB
checkpoint_timeout = 15min
max_connections = 200
CONF
  [ -f "$d/memory" ] && mem_pg_conf "$(cat "$d/memory")" >>"$d/data/postgresql.conf"
  for o in ${BB_DBCTL_PG_OPTS:-}; do echo "${o%%=*} = '${o#*=}'" >>"$d/data/postgresql.conf"; done
  local q=""
  if [ "$TLS" = 1 ]; then # encrypted sessions only: hostssl lines, none for plain TCP
    make_cert "$d" postgres; touch "$d/tls"
    printf "ssl = on\nssl_cert_file = '%s'\nssl_key_file = '%s'\n" "$d/server.crt" "$d/server.key" >>"$d/data/postgresql.conf"
    printf 'local all all trust\nhostssl all all 127.0.0.1/32 trust\n' >"$d/data/pg_hba.conf"
    q="?sslmode=verify-full&sslrootcert=$d/server.crt"
  fi
  $(mem_prefix "$d") as_user postgres "$bin/pg_ctl" -D "$d/data" -l "$d/server.log" -w -t 60 start >/dev/null \
    || { tail -20 "$d/server.log" >&2; die "PostgreSQL did not start"; }
  as_user postgres "$bin/createdb" -h "$d" -p "$port" -U bench bench
  echo "postgresql://bench@127.0.0.1:$port/bench$q" >"$d/dsn"
  export_line BULKBENCH_PG_DSN "$d/dsn"
}

stop_pg() {
  local d=$DIR/pg
  [ -d "$d/data" ] && as_user postgres "$(pg_bin)/pg_ctl" -D "$d/data" -m fast -w stop >/dev/null 2>&1 || true
  mem_remove "$d"
  rm -rf "$d"
}

# kill: the server dies at once (SIGKILL / immediate shutdown), data left as it is;
# restart: starts it again on the same data and port (crash recovery happens there).
kill_pg() { as_user postgres "$(pg_bin)/pg_ctl" -D "$DIR/pg/data" -m immediate stop >/dev/null 2>&1 || true; }
restart_pg() {
  $(mem_prefix "$DIR/pg") as_user postgres "$(pg_bin)/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/server.log" -w -t 60 start >/dev/null \
    || die "PostgreSQL did not restart"
}
