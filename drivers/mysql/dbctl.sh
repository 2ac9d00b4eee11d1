# dbctl.sh — the mysql engine's server for the tests and benchmarks (its descriptor's servers:
# "mysql"): a throwaway MariaDB on 127.0.0.1, started, stopped, killed and restarted by
# contrib/dbctl, which sources this file (its helpers: as_user, prep_dir, free_port, make_cert,
# tls_agrees, export_line, die, the mem_* of contrib/dbctl_memory.sh) and runs start_mysql,
# stop_mysql, kill_mysql, restart_mysql. Not run on its own.
DBCTL_SERVERS="${DBCTL_SERVERS:-} mysql"

start_mysql() {
  local d=$DIR/mysql port
  if [ -f "$d/dsn" ] && [ -f "$d/mysqld.pid" ] && kill -0 "$(cat "$d/mysqld.pid")" 2>/dev/null; then
    mem_agrees mysql "$d"; tls_agrees mysql "$d" BULKBENCH_MYSQL_DSN; return; fi
  command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || die "mariadbd not found (make deps installs mariadb-server)"
  mem_remove "$d"; rm -rf "$d"; mkdir -p "$DIR"; prep_dir "$d" mysql
  [ -z "$MEMORY" ] || mem_setup "$d" mysql "$MEMORY" || exit 1
  # a temporary directory of its own: a starting server deletes the #sql temporary files it
  # finds there, and a second server bootstrapping beside it (make check's two lanes, both
  # with TMPDIR=/dev/shm) then lost its own and failed ("Unknown table 'mysql.tmp_user_sys'")
  prep_dir "$d/tmp" mysql
  port=$(free_port)
  cat >"$d/my.cnf" <<CONF
[mariadbd]
datadir = $d/data
socket = $d/mysqld.sock
pid-file = $d/mysqld.pid
port = $port
bind-address = 127.0.0.1
local_infile = ON
log_bin = $d/data/binlog
server_id = 1
binlog_format = ROW
innodb_buffer_pool_size = 512M
innodb_log_file_size = 512M
max_allowed_packet = 64M
skip_name_resolve = ON
log_error = $d/error.log
tmpdir = $d/tmp
CONF
  [ -f "$d/memory" ] && mem_mysql_conf "$(cat "$d/memory")" >>"$d/my.cnf"
  for o in ${BB_DBCTL_MYSQL_OPTS:-}; do echo "$o" >>"$d/my.cnf"; done
  local q=""
  if [ "$TLS" = 1 ]; then # TCP sessions must be encrypted (the socket, root's way in, is secure already)
    make_cert "$d" mysql; touch "$d/tls"
    printf 'ssl_cert = %s\nssl_key = %s\nrequire_secure_transport = ON\n' "$d/server.crt" "$d/server.key" >>"$d/my.cnf"
    q="?ssl-mode=VERIFY_IDENTITY&ssl-ca=$d/server.crt"
  fi
  chmod 644 "$d/my.cnf"
  # the bootstrap's errors go to log_error, its own advice to install.log: both are shown; a
  # failed bootstrap is tried once more on an empty data directory
  local try
  for try in 1 2; do
    as_user mysql mariadb-install-db --defaults-file="$d/my.cnf" --auth-root-authentication-method=normal \
      --skip-test-db >"$d/install.log" 2>&1 && break
    { grep -E "ERROR|error" "$d/install.log" | head -5; tail -10 "$d/error.log" 2>/dev/null; } >&2
    [ $try = 2 ] && die "mariadb-install-db failed (twice)"
    echo "dbctl: mariadb-install-db failed; once more" >&2
    rm -rf "$d/data" "$d/error.log"
  done
  $(mem_prefix "$d") as_user mysql /usr/sbin/mariadbd --defaults-file="$d/my.cnf" >/dev/null 2>&1 &
  for _ in $(seq 120); do
    [ -S "$d/mysqld.sock" ] && mariadb --socket="$d/mysqld.sock" -uroot -e 'select 1' >/dev/null 2>&1 && break
    sleep 0.5
  done
  mariadb --socket="$d/mysqld.sock" -uroot -e "
    CREATE DATABASE bench;
    CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY 'bench';
    GRANT ALL ON *.* TO 'bench'@'127.0.0.1' WITH GRANT OPTION;
    CREATE USER 'bench'@'localhost' IDENTIFIED BY 'bench';
    GRANT ALL ON *.* TO 'bench'@'localhost' WITH GRANT OPTION;" \
    || { tail -20 "$d/error.log" >&2; die "MariaDB did not start"; }
  echo "mysql://bench:bench@127.0.0.1:$port/bench$q" >"$d/dsn"
  export_line BULKBENCH_MYSQL_DSN "$d/dsn"
}

stop_mysql() {
  local d=$DIR/mysql
  if [ -f "$d/mysqld.pid" ]; then
    local pid; pid=$(cat "$d/mysqld.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  mem_remove "$d"
  rm -rf "$d"
}

# kill: the server dies at once (SIGKILL / immediate shutdown), data left as it is;
# restart: starts it again on the same data and port (crash recovery happens there).
kill_mysql() { [ -f "$DIR/mysql/mysqld.pid" ] && kill -9 "$(cat "$DIR/mysql/mysqld.pid")" 2>/dev/null; sleep 0.2; return 0; }
restart_mysql() {
  local d=$DIR/mysql
  rm -f "$d/mysqld.sock" "$d/mysqld.pid"
  $(mem_prefix "$d") as_user mysql /usr/sbin/mariadbd --defaults-file="$d/my.cnf" >/dev/null 2>&1 &
  for _ in $(seq 120); do
    [ -S "$d/mysqld.sock" ] && mariadb --socket="$d/mysqld.sock" -uroot -e 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  die "MariaDB did not restart"
}
