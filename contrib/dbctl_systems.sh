# dbctl_systems.sh — the seeds' systems for contrib/dbctl (sourced by it, not run): IvorySQL,
# Citus and Greenplum 6, each started from a prefix that is already built (they are not
# Debian packages; docs/systems.md says where their sources come from). Nothing here builds.
#
#   BB_IVORYSQL_PREFIX   IvorySQL 3.x install prefix (bin/initdb, bin/pg_ctl)
#                        -> one server, PostgreSQL port and Oracle-compatible port (ivorysql.port)
#   BB_CITUS_PREFIX      a PostgreSQL install whose lib holds citus (bin/initdb, bin/pg_ctl)
#                        -> a coordinator and two workers, citus in shared_preload_libraries
#   BB_GREENPLUM_PREFIX  Greenplum 6 install prefix (bin/initdb, bin/pg_ctl)
#                        -> a demo cluster: a coordinator and two primary segments, made by hand
#                           (gpinitsystem needs Python 2)
# BB_CITUS_PORT / BB_GREENPLUM_PORT pick the coordinator's port (default: a free one).
# Every node listens on 127.0.0.1 only and trusts the user `bench`, database `bench`.

sys_prefix() { # NAME VAR: the prefix's bin directory, or a clear error
  local p=${!2:-}
  [ -n "$p" ] || die "$1: set $2 to a built $1 prefix (see docs/systems.md)"
  [ -x "$p/bin/initdb" ] && [ -x "$p/bin/pg_ctl" ] || die "$1: no bin/initdb and bin/pg_ctl under $2=$p"
  echo "$p/bin"
}

# pg_family_node DIR BIN PORT "initdb args" "conf lines": initdb, settings, start; as postgres when root
pg_family_node() {
  local d=$1 bin=$2 port=$3 args=$4 conf=$5
  prep_dir "$d" postgres
  # shellcheck disable=SC2086
  as_user postgres "$bin/initdb" -D "$d/data" -U bench --auth=trust -E UTF8 $args >"$d/initdb.log" 2>&1 \
    || { tail -5 "$d/initdb.log" >&2; die "initdb failed in $d"; }
  { cat <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$d'
shared_buffers = 512MB
CONF
    printf '%s\n' "$conf"; } >>"$d/data/postgresql.conf"
  for o in ${BB_DBCTL_PG_OPTS:-}; do echo "${o%%=*} = '${o#*=}'" >>"$d/data/postgresql.conf"; done
}

pg_family_start() { # DIR BIN [postgres options]
  as_user postgres "$2/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 120 ${3:+-o "$3"} start >/dev/null \
    || { tail -20 "$1/server.log" >&2; die "the server in $1 did not start"; }
}

pg_family_stop() { # DIR BIN
  [ -d "$1/data" ] && [ -x "$2/pg_ctl" ] && as_user postgres "$2/pg_ctl" -D "$1/data" -m fast -w -t 120 stop >/dev/null 2>&1
  return 0
}
sys_bin() { cat "$DIR/$1/bin" 2>/dev/null || echo /nonexistent; } # the prefix a system was started from

psql_at() { # PORT DB SQL [env...]: one statement as bench, through the node's own psql
  local port=$1 db=$2 sql=$3; shift 3
  env "$@" psql -qAtX -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U bench -d "$db" -c "$sql"
}

running() { [ -f "$DIR/$1/dsn" ] && as_user postgres "$2/pg_ctl" -D "$DIR/$1/${3:-}data" status >/dev/null 2>&1; }

# ---- IvorySQL: initdb's default Oracle database mode; the PostgreSQL port speaks PostgreSQL,
# ivorysql.port the Oracle-compatible dialect, on the same databases
start_ivorysql() {
  local d=$DIR/ivorysql bin port oport
  bin=$(sys_prefix IvorySQL BB_IVORYSQL_PREFIX)
  if running ivorysql "$bin"; then cat "$d/exports"; return; fi
  rm -rf "$d"; mkdir -p "$d"; chmod 755 "$DIR" "$d"; echo "$bin" >"$d/bin"
  port=$(free_port); oport=$(free_port)
  pg_family_node "$d" "$bin" "$port" "--locale=C.UTF-8 -m oracle" "max_wal_size = 4GB
checkpoint_timeout = 15min
max_connections = 200
ivorysql.port = $oport
ivorysql.listen_addresses = '127.0.0.1'"
  pg_family_start "$d" "$bin"
  psql_at "$port" postgres "CREATE DATABASE bench" >/dev/null
  { echo "export BULKBENCH_IVORYSQL_DSN=postgresql://bench@127.0.0.1:$port/bench"
    echo "export BULKBENCH_IVORYSQL_ORACLE_DSN=postgresql://bench@127.0.0.1:$oport/bench"; } >"$d/exports"
  echo "postgresql://bench@127.0.0.1:$port/bench" >"$d/dsn"
  cat "$d/exports"
}
stop_ivorysql() { pg_family_stop "$DIR/ivorysql" "$(sys_bin ivorysql)"; rm -rf "$DIR/ivorysql"; }

# ---- Citus: three PostgreSQL servers with citus preloaded and the extension in bench; the
# coordinator knows itself (citus_set_coordinator_host) and its two workers (citus_add_node)
start_citus() {
  local d=$DIR/citus bin cport n ports=()
  bin=$(sys_prefix Citus BB_CITUS_PREFIX)
  if running citus "$bin" coord/; then cat "$d/exports"; return; fi
  rm -rf "$d"; mkdir -p "$d"; chmod 755 "$DIR" "$d"; echo "$bin" >"$d/bin"
  cport=${BB_CITUS_PORT:-$(free_port)}
  for n in coord worker1 worker2; do
    local port=$cport
    [ $n != coord ] && port=$(free_port)
    ports+=("$port")
    pg_family_node "$d/$n" "$bin" "$port" "--locale=C.UTF-8" "max_wal_size = 4GB
checkpoint_timeout = 15min
max_connections = 200
shared_preload_libraries = 'citus'"
    pg_family_start "$d/$n" "$bin"
    psql_at "$port" postgres "CREATE DATABASE bench" >/dev/null
    psql_at "$port" bench "CREATE EXTENSION citus" >/dev/null
  done
  psql_at "$cport" bench "SELECT citus_set_coordinator_host('127.0.0.1', $cport)" >/dev/null
  for n in 1 2; do psql_at "$cport" bench "SELECT citus_add_node('127.0.0.1', ${ports[$n]})" >/dev/null; done
  echo "export BULKBENCH_CITUS_DSN=postgresql://bench@127.0.0.1:$cport/bench" >"$d/exports"
  echo "postgresql://bench@127.0.0.1:$cport/bench" >"$d/dsn"
  cat "$d/exports"
}
stop_citus() {
  local n
  for n in worker2 worker1 coord; do
    pg_family_stop "$DIR/citus/$n" "$(sys_bin citus)"
  done
  rm -rf "$DIR/citus"
}

# ---- Greenplum 6: what gpinitsystem does for a mirrorless cluster on one host. Each node is
# an initdb with its content id (postgresql.conf) and dbid (internal.auto.conf); the
# coordinator, started in utility mode, registers itself and the segments in
# gp_segment_configuration; then the segments start, and the coordinator with -E (dispatch).
start_greenplum() {
  local d=$DIR/greenplum bin cport n port content dbid
  bin=$(sys_prefix Greenplum BB_GREENPLUM_PREFIX)
  if running greenplum "$bin" coord/; then cat "$d/exports"; return; fi
  rm -rf "$d"; mkdir -p "$d"; chmod 755 "$DIR" "$d"; echo "$bin" >"$d/bin"
  cport=${BB_GREENPLUM_PORT:-$(free_port)}
  local -a ports=("$cport" "$(free_port)" "$(free_port)") names=(coord seg0 seg1)
  for dbid in 1 2 3; do
    n=${names[$((dbid - 1))]} port=${ports[$((dbid - 1))]} content=$((dbid - 2))
    # segments take several sessions for each coordinator session (one per slice)
    # /tmp too: a query that joins the coordinator's catalog reaches it as an "entry db" session
    # through the compiled-in socket directory
    pg_family_node "$d/$n" "$bin" "$port" "--locale=C" "unix_socket_directories = '$d/$n,/tmp'
checkpoint_segments = 64
max_connections = $([ $content = -1 ] && echo 200 || echo 600)
gp_contentid = $content"
    echo "gp_dbid = $dbid" >>"$d/$n/data/internal.auto.conf"
  done
  pg_family_start "$d/coord" "$bin" "-c gp_role=utility"
  for dbid in 1 2 3; do
    n=${names[$((dbid - 1))]}
    psql_at "$cport" postgres "SELECT pg_catalog.gp_add_segment(${dbid}::int2, $((dbid - 2))::int2, 'p', 'p', 's', 'u', \
${ports[$((dbid - 1))]}, '127.0.0.1', '127.0.0.1', '$d/$n/data')" \
      PGOPTIONS="-c gp_session_role=utility -c client_min_messages=warning" >/dev/null
  done
  pg_family_stop "$d/coord" "$bin"
  pg_family_start "$d/seg0" "$bin"
  pg_family_start "$d/seg1" "$bin"
  pg_family_start "$d/coord" "$bin" "-E"
  psql_at "$cport" postgres "CREATE DATABASE bench" >/dev/null
  echo "export BULKBENCH_GREENPLUM_DSN=postgresql://bench@127.0.0.1:$cport/bench" >"$d/exports"
  echo "postgresql://bench@127.0.0.1:$cport/bench" >"$d/dsn"
  cat "$d/exports"
}
stop_greenplum() {
  local n
  for n in coord seg0 seg1; do
    pg_family_stop "$DIR/greenplum/$n" "$(sys_bin greenplum)"
  done
  rm -rf "$DIR/greenplum"
}

SYSTEMS="ivorysql citus greenplum"
