/* sqlite.c — the embedded default engine. The database is a file the user names in
 * --dsn (a path, optionally "?name=value&..." pragmas) or a temporary one removed after
 * the run. Every connection waits on a busy database instead of failing, so several
 * writer threads take turns the way SQLite allows. */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../driver.h"
#include "../../base/err.h"
#include "../../base/buf.h"

struct bb_target {
    char path[4096];
    char pragmas[1024]; /* "name=value&name=value" from the DSN */
    int temporary;
};

struct bb_conn {
    sqlite3 *db;
    const bb_target *t;
};

struct bb_stmt {
    sqlite3_stmt *st;
    bb_conn *c;
};

static const bb_dialect sqlite_dialect = { "sqlite", '"', 0, 0, 32766, 0, 0, "bulkbench.drivers.sqlite.dialect_sqlite" };

static int sq_fail(bb_err *err, sqlite3 *db, const char *what)
{
    return bb_errf(err, "sqlite: %s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

static int sq_target_open(const char *dsn, bb_target **out, bb_err *err)
{
    bb_target *t = bb_xcalloc(1, sizeof *t);
    if (dsn && strncmp(dsn, "sqlite://", 9) == 0) dsn += 9;
    if (dsn && *dsn) {
        const char *q = strchr(dsn, '?');
        size_t n = q ? (size_t)(q - dsn) : strlen(dsn);
        if (n >= sizeof t->path) {
            free(t);
            return bb_usagef(err, "sqlite: database path too long");
        }
        memcpy(t->path, dsn, n);
        if (q) snprintf(t->pragmas, sizeof t->pragmas, "%s", q + 1);
    } else {
        const char *dir = getenv("TMPDIR");
        snprintf(t->path, sizeof t->path, "%s/bulkbench-XXXXXX.db", dir && *dir ? dir : "/tmp");
        int fd = mkstemps(t->path, 3); /* mode 0600 */
        if (fd < 0) {
            int e = bb_errf(err, "sqlite: cannot create a temporary database in %s", dir ? dir : "/tmp");
            free(t);
            return e;
        }
        close(fd);
        t->temporary = 1;
    }
    *out = t;
    return 0;
}

static const char *sq_target_where(const bb_target *t) { return t->temporary ? "(temporary database)" : t->path; }

static void sq_target_close(bb_target *t)
{
    if (!t) return;
    if (t->temporary) {
        char side[4200];
        unlink(t->path);
        snprintf(side, sizeof side, "%s-wal", t->path);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", t->path);
        unlink(side);
        snprintf(side, sizeof side, "%s-journal", t->path);
        unlink(side);
    }
    free(t);
}

static int sq_set_session(bb_conn *c, const char *name, const char *value, bb_err *err);

static int sq_connect(bb_target *t, bb_conn **out, bb_err *err)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(t->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        bb_errf(err, "sqlite: cannot open %s: %s", t->path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, 60000);
    bb_conn *c = bb_xcalloc(1, sizeof *c);
    c->db = db;
    c->t = t;
    /* DSN pragmas apply to every connection, like libpq's options= */
    char list[1024];
    snprintf(list, sizeof list, "%s", t->pragmas);
    for (char *save = NULL, *kv = strtok_r(list, "&", &save); kv; kv = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            sqlite3_close(db);
            free(c);
            return bb_usagef(err, "sqlite: DSN option '%s' lacks '=value'", kv);
        }
        *eq = 0;
        if (sq_set_session(c, kv, eq + 1, err) < 0) {
            sqlite3_close(db);
            free(c);
            return -1;
        }
    }
    *out = c;
    return 0;
}

static void sq_disconnect(bb_conn *c)
{
    if (!c) return;
    sqlite3_close_v2(c->db);
    free(c);
}

static int sq_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err)
{
    char *msg = NULL;
    int64_t before = sqlite3_total_changes64(c->db);
    if (sqlite3_exec(c->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        bb_errf(err, "sqlite: %s", msg ? msg : sqlite3_errmsg(c->db));
        sqlite3_free(msg);
        return -1;
    }
    if (affected) *affected = sqlite3_total_changes64(c->db) - before;
    return 0;
}

static int sq_query(bb_conn *c, const char *sql, int nparams, const char *const *params, bb_row_cb cb, void *ud,
                    bb_err *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) return sq_fail(err, c->db, "query");
    for (int i = 0; i < nparams; i++) {
        if (params[i]) sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_TRANSIENT);
        else sqlite3_bind_null(st, i + 1);
    }
    /* the shape after the first step: a step that re-prepares the statement (the schema
     * changed since) frees the names taken before it and may change the columns */
    int rc = sqlite3_step(st), n = sqlite3_column_count(st);
    const char *names[n ? n : 1], *vals[n ? n : 1];
    size_t lens[n ? n : 1];
    for (int i = 0; i < n; i++) names[i] = sqlite3_column_name(st, i);
    for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
        for (int i = 0; i < n; i++) {
            vals[i] = (const char *)sqlite3_column_text(st, i);
            lens[i] = (size_t)sqlite3_column_bytes(st, i);
        }
        if (cb && cb(ud, n, names, vals, lens)) break;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        sq_fail(err, c->db, "query");
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

static int sq_prepare(bb_conn *c, const char *sql, int nparams, const bb_sqltype *types, bb_stmt **out, bb_err *err)
{
    (void)types;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
        return sq_fail(err, c->db, "prepare");
    if (sqlite3_bind_parameter_count(st) != nparams) {
        sqlite3_finalize(st);
        return bb_errf(err, "sqlite: prepare: statement has %d parameters, %d given", sqlite3_bind_parameter_count(st),
                       nparams);
    }
    bb_stmt *s = bb_xcalloc(1, sizeof *s);
    s->st = st;
    s->c = c;
    *out = s;
    return 0;
}

static int sq_execute(bb_stmt *s, const bb_value *p, int64_t *affected, bb_err *err)
{
    int n = sqlite3_bind_parameter_count(s->st);
    for (int i = 0; i < n; i++) {
        switch (p[i].kind) {
        case BB_V_NULL: sqlite3_bind_null(s->st, i + 1); break;
        case BB_V_INT: sqlite3_bind_int64(s->st, i + 1, p[i].u.i); break;
        case BB_V_DOUBLE: sqlite3_bind_double(s->st, i + 1, p[i].u.d); break;
        case BB_V_TEXT: sqlite3_bind_text(s->st, i + 1, p[i].u.s, (int)p[i].len, SQLITE_STATIC); break;
        }
    }
    int rc = sqlite3_step(s->st);
    while (rc == SQLITE_ROW) rc = sqlite3_step(s->st);
    sqlite3_reset(s->st);
    if (rc != SQLITE_DONE) return sq_fail(err, s->c->db, "execute");
    if (affected) *affected = sqlite3_changes64(s->c->db);
    return 0;
}

static void sq_finalize(bb_stmt *s)
{
    if (!s) return;
    sqlite3_finalize(s->st);
    free(s);
}

static int sq_begin(bb_conn *c, bb_err *err) { return sq_exec(c, "BEGIN", NULL, err); }
static int sq_commit(bb_conn *c, bb_err *err) { return sq_exec(c, "COMMIT", NULL, err); }
static int sq_rollback(bb_conn *c, bb_err *err) { return sq_exec(c, "ROLLBACK", NULL, err); }

static int valid_word(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!(*s == '_' || *s == '-' || *s == '.' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z')))
            return 0;
    return 1;
}

static int sq_set_session(bb_conn *c, const char *name, const char *value, bb_err *err)
{
    if (!valid_word(name) || !valid_word(value))
        return bb_usagef(err, "sqlite: setting %s=%s: names and values are words or numbers", name, value);
    char sql[256];
    snprintf(sql, sizeof sql, "PRAGMA %s = %s", name, value);
    /* PRAGMA journal_mode answers with a row; step through it via query */
    return sq_query(c, sql, 0, NULL, NULL, NULL, err);
}

static int sq_server_info(bb_conn *c, bb_server_info *out, bb_err *err)
{
    static const char *const keys[] = { "journal_mode", "synchronous", "cache_size", "page_size", "locking_mode" };
    snprintf(out->version, sizeof out->version, "SQLite %s", sqlite3_libversion());
    snprintf(out->driver, sizeof out->driver, "libsqlite3 %s", sqlite3_libversion());
    size_t len = 0;
    out->settings[len++] = '{';
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char sql[64], v[64] = "";
        snprintf(sql, sizeof sql, "PRAGMA %s", keys[i]);
        if (sq_query(c, sql, 0, NULL, bb_row_text, &(bb_text){ v, sizeof v }, err) < 0) return -1;
        len += (size_t)snprintf(out->settings + len, sizeof out->settings - len, "%s\"%s\":\"%s\"", i ? "," : "",
                                keys[i], v);
    }
    snprintf(out->settings + len, sizeof out->settings - len, "}");
    out->log_pos = -1;  /* the WAL file is truncated at checkpoints: not a running total */
    out->local_pid = 0; /* embedded: its CPU is the client's */
    return 0;
}

static int sq_table_bytes(bb_conn *c, const char *table, int64_t *bytes, bb_err *err)
{
    (void)err;
    const char *p[1] = { table };
    bb_err ignore;
    *bytes = -1;
    /* dbstat is optional in SQLite builds; without it the size is unknown, not guessed */
    if (sq_query(c,
                 "SELECT sum(pgsize) FROM dbstat WHERE name = ?1 OR name IN "
                 "(SELECT name FROM sqlite_schema WHERE tbl_name = ?1)",
                 1, p, bb_row_int, bytes, &ignore) < 0)
        *bytes = -1;
    return 0;
}

const bb_driver bb_driver_sqlite = {
    .name = "sqlite",
    .summary = "SQLite (embedded, the default)",
    .default_method = "txn",
    .dsn_help = "FILE[?pragma=value&...], a temporary file when omitted",
    .test_dsn = "$DIR/sqlite.db",
    .client = "drivers/sqlite/client.sh",
    .catalog_lua = "bulkbench.drivers.sqlite.catalog_sqlite",
    .caps = BB_CAP_PREPARE | BB_CAP_TXN | BB_CAP_MULTIROW,
    .dialect = &sqlite_dialect,
    .target_open = sq_target_open,
    .target_where = sq_target_where,
    .target_close = sq_target_close,
    .connect = sq_connect,
    .disconnect = sq_disconnect,
    .exec = sq_exec,
    .query = sq_query,
    .prepare = sq_prepare,
    .execute = sq_execute,
    .finalize = sq_finalize,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
    .set_session = sq_set_session,
    .server_info = sq_server_info,
    .table_bytes = sq_table_bytes,
};
