/* server_sql.h — what a PostgreSQL or MariaDB server is asked about its costs and
 * settings, the same whether the session is the native engine's or an ODBC driver's. */
#ifndef BB_SERVER_SQL_H
#define BB_SERVER_SQL_H

#include <stdint.h>

#define PG_SETTINGS_SQL                                                                                                \
    "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('shared_buffers', "                            \
    "'synchronous_commit', 'fsync', 'wal_level', 'max_wal_size', 'full_page_writes', "                                 \
    "'wal_compression', 'checkpoint_timeout', 'commit_delay') ORDER BY name"
#define PG_WAL_SQL "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"

#define MY_SETTINGS_SQL                                                                                                \
    "SELECT @@innodb_flush_log_at_trx_commit AS innodb_flush_log_at_trx_commit, @@sync_binlog AS "                     \
    "sync_binlog, @@log_bin AS log_bin, @@binlog_format AS binlog_format, @@innodb_buffer_pool_size AS "               \
    "innodb_buffer_pool_size, @@innodb_doublewrite AS innodb_doublewrite, @@max_allowed_packet AS "                    \
    "max_allowed_packet, @@default_storage_engine AS default_storage_engine"
#define MY_BINLOGS_SQL "SHOW BINARY LOGS"
#define MY_REDO_SQL "SHOW GLOBAL STATUS LIKE 'Innodb_os_log_written'"
#define MY_TABLE_SQL                                                                                                   \
    "SELECT data_length + index_length FROM information_schema.tables WHERE table_schema = DATABASE() "                \
    "AND table_name = ?"

/* The pid of pid's parent when that process is named comm...: a backend's server, if it
 * runs on this host (drivers/driver_settings.c). 0 otherwise. */
int driver_local_parent(int pid, const char *comm);
/* The pid a server's pid file names (its first line), when that process runs here under one
 * of the NULL-terminated names (MY_DAEMONS: mariadbd or mysqld). 0 otherwise. */
int driver_local_pidfile(const char *path, const char *const *comms);
/* The bytes process pid has caused to be read from storage (/proc/PID/io's read_bytes: its page
 * cache misses), -1 when it is not here or not ours to read. */
int64_t driver_read_bytes(int pid);
#define MY_DAEMONS ((const char *const[]){ "mariadbd", "mysqld", NULL })

#endif
