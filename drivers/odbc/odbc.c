/* odbc.c — any DBMS with an ODBC driver, through unixODBC. --dsn is an ODBC connection
 * string ("DSN=name;UID=..;PWD=.." or "Driver=...;Server=..;Port=..;Database=.."). Which
 * DBMS answers is learned from the driver at the first connection (odbc_dbms.c), and with
 * it the SQL dialect; prepared statements and array binding are in odbc_bind.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbc_priv.h"
#include "../../base/err.h"
#include "../../base/buf.h"

int odbc_ok(SQLRETURN rc) { return rc == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO; }

void odbc_diag(SQLSMALLINT htype, SQLHANDLE h, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (SQLSMALLINT i = 1; i <= 4 && len + 16 < n; i++) {
        SQLCHAR state[6], msg[1024];
        SQLINTEGER native;
        SQLSMALLINT ml;
        if (!odbc_ok(SQLGetDiagRec(htype, h, i, state, &native, msg, sizeof msg, &ml))) break;
        for (SQLCHAR *p = msg; *p; p++)
            if (*p == '\n' || *p == '\r' || *p == '\t') *p = ' ';
        size_t ln = strlen((char *)msg);
        while (ln && msg[ln - 1] == ' ') msg[--ln] = 0;
        len += (size_t)snprintf(out + len, n - len, "%s[%s] %s", i > 1 ? "; " : "", state, msg);
        if (len >= n) len = n - 1;
    }
    if (!out[0]) snprintf(out, n, "(the driver gave no diagnostics)");
}

void odbc_mask_msg(const bb_target *t, char *msg) { odbc_cs_mask(msg, t->secret, t->nsecret); }

int odbc_fail(bb_err *err, bb_conn *c, SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    char d[900];
    odbc_diag(htype, h, d, sizeof d);
    bb_errf(err, "odbc %s: %s: %s", c->t->where, what, d);
    odbc_mask_msg(c->t, err->msg);
    return -1;
}

/* ---- targets ---- */

static int odbc_target_open(const char *dsn, bb_target **out, bb_err *err)
{
    if (odbc_lib_load(err) < 0) return -1;
    if (!dsn || !*dsn)
        return bb_usagef(err,
                         "odbc: give --dsn an ODBC connection string ('DSN=name;UID=user;PWD=...' or "
                         "'Driver=...;Server=host;Port=N;Database=db;UID=user;PWD=...') or set BULKBENCH_ODBC_DSN");
    bb_target *t = bb_xcalloc(1, sizeof *t);
    pthread_mutex_init(&t->mu, NULL);
    /* a bare word names a data source of odbc.ini */
    if (!strchr(dsn, '=')) {
        bb_buf b = { 0 };
        odbc_cs_put(&b, "DSN", 3, dsn);
        bb_buf_putc(&b, 0);
        t->dsn = b.p;
    } else t->dsn = bb_xstrdup(dsn);
    t->dialect = odbc_ansi_dialect;
    if (odbc_cs_target(t, err) < 0) {
        odbc_mask_msg(t, err->msg);
        for (int i = 0; i < t->nsecret; i++) free(t->secret[i]);
        free(t->dsn);
        free(t);
        return -1;
    }
    if (!odbc_ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &t->env)) ||
        !odbc_ok(SQLSetEnvAttr(t->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0))) {
        bb_errf(err, "odbc: cannot start the unixODBC driver manager");
        for (int i = 0; i < t->nsecret; i++) free(t->secret[i]);
        free(t->dsn);
        free(t);
        return -1;
    }
    *out = t;
    return 0;
}

static const char *odbc_target_where(const bb_target *t) { return t->where; }

static void odbc_target_close(bb_target *t)
{
    if (!t) return;
    (void)SQLFreeHandle(SQL_HANDLE_ENV, t->env);
    for (int i = 0; i < t->nsecret; i++) free(t->secret[i]);
    for (int i = 0; i < t->nset; i++) {
        free(t->set_name[i]);
        free(t->set_value[i]);
    }
    pthread_mutex_destroy(&t->mu);
    free(t->dsn);
    free(t);
}

/* ---- sessions ---- */

/* Opens c->dbc with the target's connection string as it stands now. */
static int odbc_open(bb_conn *c, bb_err *err)
{
    bb_target *t = c->t;
    if (!odbc_ok(SQLAllocHandle(SQL_HANDLE_DBC, t->env, &c->dbc)))
        return bb_errf(err, "odbc: out of connection handles");
    /* a server that does not answer fails in seconds, as with the other engines; a driver
     * that ignores this gets its own attribute (odbc_cs.c), one that refuses it its default */
    (void)SQLSetConnectAttr(c->dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)5, 0);
    pthread_mutex_lock(&t->mu);
    c->set_gen = t->set_gen;
    pthread_mutex_unlock(&t->mu);
    char *cs = odbc_cs_session(t);
    SQLRETURN rc = SQLDriverConnect(c->dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
    free(cs);
    if (!odbc_ok(rc)) {
        char d[900];
        odbc_diag(SQL_HANDLE_DBC, c->dbc, d, sizeof d);
        bb_errf(err, "odbc: cannot connect to %s: %s", t->where, d);
        odbc_mask_msg(t, err->msg);
        (void)SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
        c->dbc = SQL_NULL_HDBC;
        return -1;
    }
    c->autocommit = 1;
    c->in_txn = 0;
    if (!odbc_ok(SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &c->st)))
        return odbc_fail(err, c, SQL_HANDLE_DBC, c->dbc, "statement");
    /* literal SQL goes to the server as written: no scan for ODBC escape clauses (a hint: a
     * driver that scans anyway is slower, not wrong, as bulkbench writes no escapes) */
    (void)SQLSetStmtAttr(c->st, SQL_ATTR_NOSCAN, (SQLPOINTER)SQL_NOSCAN_ON, 0);
    return odbc_dbms_session(c, err);
}

/* Teardown: nothing to do about a failure here but go on. */
static void odbc_close(bb_conn *c)
{
    if (c->st) (void)SQLFreeHandle(SQL_HANDLE_STMT, c->st);
    c->st = SQL_NULL_HSTMT;
    if (c->dbc) {
        (void)SQLDisconnect(c->dbc);
        (void)SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
    }
    c->dbc = SQL_NULL_HDBC;
}

static int odbc_connect(bb_target *t, bb_conn **out, bb_err *err)
{
    bb_conn *c = bb_xcalloc(1, sizeof *c);
    c->t = t;
    if (odbc_open(c, err) < 0) {
        odbc_close(c);
        free(c);
        return -1;
    }
    *out = c;
    return 0;
}

/* The session again, with the target's attributes as they are now and the settings it had. */
int odbc_reconnect(bb_conn *c, bb_err *err)
{
    odbc_close(c);
    if (odbc_open(c, err) < 0) return -1;
    for (int i = 0; i < c->napplied; i++)
        if (odbc_set_session(c, c->applied_name[i], c->applied_value[i], err) < 0) return -1;
    return 0;
}

static void odbc_disconnect(bb_conn *c)
{
    if (!c) return;
    if (c->dbc && !c->autocommit) (void)SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK); /* what never committed */
    odbc_close(c);
    for (int i = 0; i < c->napplied; i++) {
        free(c->applied_name[i]);
        free(c->applied_value[i]);
    }
    free(c);
}

int odbc_autocommit(bb_conn *c, int on, bb_err *err)
{
    if (c->autocommit == on) return 0;
    SQLRETURN rc = SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT,
                                     (SQLPOINTER)(SQLULEN)(on ? SQL_AUTOCOMMIT_ON : SQL_AUTOCOMMIT_OFF), 0);
    if (!odbc_ok(rc)) return odbc_fail(err, c, SQL_HANDLE_DBC, c->dbc, on ? "autocommit on" : "autocommit off");
    c->autocommit = on;
    return 0;
}

/* Transactions are the driver's (SQLEndTran), JDBC style: autocommit goes off at begin and
 * stays off across batches; the next statement outside a transaction turns it back on. */
static int odbc_begin(bb_conn *c, bb_err *err)
{
    if (odbc_autocommit(c, 0, err) < 0) return -1;
    c->in_txn = 1;
    return 0;
}

static int odbc_end(bb_conn *c, SQLSMALLINT how, bb_err *err)
{
    c->in_txn = 0;
    if (c->autocommit) return 0;
    if (!odbc_ok(SQLEndTran(SQL_HANDLE_DBC, c->dbc, how)))
        return odbc_fail(err, c, SQL_HANDLE_DBC, c->dbc, how == SQL_COMMIT ? "commit" : "rollback");
    return 0;
}

static int odbc_commit(bb_conn *c, bb_err *err) { return odbc_end(c, SQL_COMMIT, err); }
static int odbc_rollback(bb_conn *c, bb_err *err) { return odbc_end(c, SQL_ROLLBACK, err); }

/* ---- literal SQL and queries ---- */

/* Every result of the statement on c->st consumed; *affected gets the rows changed. */
static int drain(bb_conn *c, SQLRETURN rc, int64_t *affected, bb_err *err)
{
    int64_t total = 0;
    while (odbc_ok(rc)) {
        SQLLEN n = -1;
        SQLSMALLINT cols = 0;
        if (!odbc_ok(SQLNumResultCols(c->st, &cols))) cols = 0;
        if (cols == 0 && odbc_ok(SQLRowCount(c->st, &n)) && n > 0) total += n;
        rc = SQLMoreResults(c->st);
    }
    if (rc != SQL_NO_DATA) {
        odbc_fail(err, c, SQL_HANDLE_STMT, c->st, "exec");
        (void)SQLFreeStmt(c->st, SQL_CLOSE);
        return -1;
    }
    (void)SQLFreeStmt(c->st, SQL_CLOSE); /* fails only on a bad handle */
    if (affected) *affected = total;
    return 0;
}

int odbc_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err)
{
    if (odbc_outside_txn(c, err) < 0) return -1;
    SQLRETURN rc = SQLExecDirect(c->st, (SQLCHAR *)sql, SQL_NTS);
    if (rc == SQL_NO_DATA) { /* a statement that changed nothing (DELETE of no row) */
        (void)SQLFreeStmt(c->st, SQL_CLOSE);
        if (affected) *affected = 0;
        return 0;
    }
    if (!odbc_ok(rc)) {
        odbc_fail(err, c, SQL_HANDLE_STMT, c->st, "exec");
        (void)SQLFreeStmt(c->st, SQL_CLOSE);
        return -1;
    }
    return drain(c, rc, affected, err);
}

/* One column of the current row as text into b (b->p NULL-terminated); 1 when NULL. */
static int get_text(SQLHSTMT st, SQLUSMALLINT col, bb_buf *b, SQLRETURN *rcp)
{
    b->len = 0;
    bb_buf_reserve(b, 256);
    for (;;) {
        SQLLEN ind = 0;
        size_t room = b->cap - b->len;
        SQLRETURN rc = SQLGetData(st, col, SQL_C_CHAR, b->p + b->len, (SQLLEN)room, &ind);
        if (rc == SQL_NO_DATA) break;
        if (!odbc_ok(rc)) {
            *rcp = rc;
            return -1;
        }
        if (ind == SQL_NULL_DATA) return 1;
        if (rc == SQL_SUCCESS || (ind != SQL_NO_TOTAL && (size_t)ind < room)) {
            b->len += ind == SQL_NO_TOTAL ? strlen(b->p + b->len) : (size_t)ind;
            break;
        }
        /* truncated: keep what came (less its terminator) and ask for the rest */
        b->len += room - 1;
        bb_buf_reserve(b, ind == SQL_NO_TOTAL ? b->cap : (size_t)ind + 1);
    }
    bb_buf_reserve(b, 1);
    b->p[b->len] = 0;
    return 0;
}

static int fetch_rows(bb_conn *c, SQLSMALLINT ncols, bb_row_cb cb, void *ud, bb_err *err)
{
    char names_buf[64][128];
    int nc = ncols < 64 ? ncols : 64; /* scripts' and costs' queries have a handful */
    const char *names[64], *vals[64];
    size_t lens[64];
    bb_buf cell[64];
    memset(cell, 0, sizeof cell);
    for (int i = 0; i < nc; i++) {
        SQLSMALLINT nl = 0, type, digits, nullable;
        SQLULEN size;
        if (!odbc_ok(SQLDescribeCol(c->st, (SQLUSMALLINT)(i + 1), (SQLCHAR *)names_buf[i], sizeof names_buf[i], &nl,
                                    &type, &size, &digits, &nullable)))
            names_buf[i][0] = 0; /* the values still count; a name only labels them */
        names[i] = names_buf[i];
    }
    int rc = 0;
    SQLRETURN fr;
    while (rc == 0 && odbc_ok(fr = SQLFetch(c->st))) {
        for (int i = 0; i < nc && rc == 0; i++) {
            SQLRETURN gr = SQL_SUCCESS;
            int r = get_text(c->st, (SQLUSMALLINT)(i + 1), &cell[i], &gr);
            if (r < 0) rc = odbc_fail(err, c, SQL_HANDLE_STMT, c->st, "query");
            vals[i] = r == 1 ? NULL : cell[i].p;
            lens[i] = r == 1 ? 0 : cell[i].len;
        }
        if (rc == 0 && cb && cb(ud, nc, names, vals, lens)) break;
    }
    if (rc == 0 && !odbc_ok(fr) && fr != SQL_NO_DATA && cb) rc = odbc_fail(err, c, SQL_HANDLE_STMT, c->st, "query");
    for (int i = 0; i < nc; i++) bb_buf_free(&cell[i]);
    return rc;
}

int odbc_query(bb_conn *c, const char *sql, int nparams, const char *const *params, bb_row_cb cb, void *ud, bb_err *err)
{
    if (odbc_outside_txn(c, err) < 0) return -1;
    SQLLEN ind[nparams > 0 ? nparams : 1];
    SQLRETURN rc;
    if (nparams > 0) {
        if (!odbc_ok(rc = SQLPrepare(c->st, (SQLCHAR *)sql, SQL_NTS))) goto fail;
        for (int i = 0; i < nparams; i++) {
            size_t n = params[i] ? strlen(params[i]) : 0;
            ind[i] = params[i] ? (SQLLEN)n : SQL_NULL_DATA;
            rc = SQLBindParameter(c->st, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, n ? n : 1, 0,
                                  (SQLPOINTER)(params[i] ? params[i] : ""), (SQLLEN)n, &ind[i]);
            if (!odbc_ok(rc)) goto fail;
        }
        rc = SQLExecute(c->st);
    } else {
        rc = SQLExecDirect(c->st, (SQLCHAR *)sql, SQL_NTS);
    }
    if (rc == SQL_NO_DATA) goto done;
    if (!odbc_ok(rc)) goto fail;
    for (;;) { /* the first result with columns is the answer; others are drained */
        SQLSMALLINT ncols = 0;
        if (!odbc_ok(SQLNumResultCols(c->st, &ncols))) goto fail;
        if (ncols > 0) {
            if (fetch_rows(c, ncols, cb, ud, err) < 0) goto out;
            cb = NULL;
        }
        rc = SQLMoreResults(c->st);
        if (rc == SQL_NO_DATA) break;
        if (!odbc_ok(rc)) goto fail;
    }
done:
    (void)SQLFreeStmt(c->st, SQL_CLOSE); /* these fail only on a bad handle */
    (void)SQLFreeStmt(c->st, SQL_RESET_PARAMS);
    return 0;
fail:
    odbc_fail(err, c, SQL_HANDLE_STMT, c->st, "query");
out:
    (void)SQLFreeStmt(c->st, SQL_CLOSE);
    (void)SQLFreeStmt(c->st, SQL_RESET_PARAMS);
    return -1;
}

/* The driver's catalog functions, their result sets read as a query's rows. */
static int odbc_catalog(bb_conn *c, const char *what, const char *schema, const char *table, bb_row_cb cb, void *ud,
                        bb_err *err)
{
    if (odbc_outside_txn(c, err) < 0) return -1;
    SQLCHAR *s = (SQLCHAR *)schema, *t = (SQLCHAR *)table;
    SQLSMALLINT sl = schema ? SQL_NTS : 0;
    SQLRETURN rc;
    if (!strcmp(what, "tables")) rc = SQLTables(c->st, NULL, 0, s, sl, t, SQL_NTS, (SQLCHAR *)"TABLE", SQL_NTS);
    else if (!strcmp(what, "columns")) rc = SQLColumns(c->st, NULL, 0, s, sl, t, SQL_NTS, NULL, 0);
    else if (!strcmp(what, "primary_keys")) rc = SQLPrimaryKeys(c->st, NULL, 0, s, sl, t, SQL_NTS);
    else if (!strcmp(what, "foreign_keys"))
        rc = SQLForeignKeys(c->st, NULL, 0, NULL, 0, NULL, 0, NULL, 0, s, sl, t, SQL_NTS);
    else if (!strcmp(what, "unique"))
        rc = SQLStatistics(c->st, NULL, 0, s, sl, t, SQL_NTS, SQL_INDEX_UNIQUE, SQL_QUICK);
    else return bb_errf(err, "odbc: no catalog of '%s' (tables, columns, primary_keys, foreign_keys, unique)", what);
    int out = -1;
    SQLSMALLINT ncols = 0;
    if (odbc_ok(rc) && odbc_ok(SQLNumResultCols(c->st, &ncols))) out = fetch_rows(c, ncols, cb, ud, err);
    else odbc_fail(err, c, SQL_HANDLE_STMT, c->st, what);
    (void)SQLFreeStmt(c->st, SQL_CLOSE);
    return out;
}

/* Whether the session survived a failure: the driver's own judgement where it has one
 * (SQL_ATTR_CONNECTION_DEAD), else whether a trivial statement still runs. */
static int odbc_alive(bb_conn *c)
{
    SQLUINTEGER dead = SQL_CD_FALSE;
    if (odbc_ok(SQLGetConnectAttr(c->dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL))) return dead != SQL_CD_TRUE;
    bb_err ignore;
    int in = c->in_txn;
    c->in_txn = 1; /* probe without touching the session's transaction state */
    int ok =
        odbc_query(c, c->t->kind == ODBC_ORACLE ? "SELECT 1 FROM DUAL" : "SELECT 1", 0, NULL, NULL, NULL, &ignore) == 0;
    c->in_txn = in;
    return ok;
}

static const bb_dialect *odbc_dialect_of(const bb_target *t) { return odbc_target_dialect(t); }

const bb_driver bb_driver_odbc = {
    .name = "odbc",
    .summary = "any DBMS through its ODBC driver (unixODBC); multirow where the DBMS takes row-value lists",
    .default_method = "pipeline",
    .dsn_help = "'DSN=name;UID=..;PWD=..' or 'Driver=...;Server=..;Port=..;Database=..'",
    /* its tests reach PostgreSQL, MariaDB and SQLite through their ODBC drivers, registered by
     * test_setup.sh here (test_setup); each run's table is held to that DBMS's own client */
    .servers = "pg mysql",
    .test_setup = "source drivers/odbc/test_setup.sh && odbc_setup \"$DIR/odbc\"",
    .test_targets = "pg=$BULKBENCH_ODBC_PG mysql=$BULKBENCH_ODBC_MYSQL "
                    "sqlite=${BULKBENCH_ODBC_SQLITE%%;Database=*};Database=$DIR/sqlite.db",
    .catalog_lua = "bulkbench.drivers.odbc.catalog_odbc",
    .file_dialect = "ansi",
    .many_servers = 1,
    .dialects = odbc_dialects,
    .caps = BB_CAP_PREPARE | BB_CAP_TXN | BB_CAP_MULTIROW | BB_CAP_TEXTPROTO | BB_CAP_PIPELINE,
    .dialect = &odbc_ansi_dialect,
    .target_dialect = odbc_dialect_of,
    .target_open = odbc_target_open,
    .target_where = odbc_target_where,
    .target_close = odbc_target_close,
    .connect = odbc_connect,
    .disconnect = odbc_disconnect,
    .exec = odbc_exec,
    .query = odbc_query,
    .prepare = odbc_prepare,
    .execute = odbc_execute,
    .finalize = odbc_finalize,
    .begin = odbc_begin,
    .commit = odbc_commit,
    .rollback = odbc_rollback,
    .execute_pipeline = odbc_execute_pipeline,
    .alive = odbc_alive,
    .set_session = odbc_set_session,
    .server_info = odbc_server_info,
    .max_statement_bytes = odbc_max_statement_bytes,
    .table_bytes = odbc_table_bytes,
    .catalog = odbc_catalog,
};
