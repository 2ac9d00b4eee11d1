/* mysql.c — MySQL and MariaDB through the MySQL C API (MariaDB Connector/C on Debian):
 * server-side prepared statements, text protocol, LOAD DATA LOCAL streams
 * (mysql_infile.c), array binding (mysql_bulk.c), binary log and redo bytes, the server's CPU and memory. */
#include <ctype.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mysql_priv.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../server_sql.h"

static const bb_dialect my_dialect = { "mysql", '`', 0, 1, 65535, 0, 0, "bulkbench.drivers.mysql.dialect_mysql" };

int my_fail(bb_err *err, bb_conn *c, const char *what)
{
    return bb_errf(err, "mysql %s: %s: %s", c->t->where, what, mysql_error(c->my));
}

/* ---- targets ---- */

static const char *my_target_where(const bb_target *t) { return t->where; }
static void my_target_close(bb_target *t) { free(t); }

static int my_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err);

static int my_connect(bb_target *t, bb_conn **out, bb_err *err)
{
    MYSQL *my = mysql_init(NULL);
    if (!my) return bb_errf(err, "mysql: out of memory");
    unsigned timeout = 5, one = 1;
    mysql_options(my, MYSQL_READ_DEFAULT_GROUP, "client"); /* the option file's [client] group */
    mysql_options(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_options(my, MYSQL_OPT_LOCAL_INFILE, &one);
    mysql_options(my, MYSQL_OPT_NONBLOCK, 0); /* enables the _start/_cont calls; blocking ones still work */
    /* the client library's write buffer: LOAD DATA LOCAL sends its data in 4 KB packets,
     * flushed when this fills; at 8 KB (the default) a 1M-row load made 9,300 sendto calls */
    unsigned long net_buffer = 256 * 1024;
    mysql_options(my, MYSQL_OPT_NET_BUFFER_LENGTH, &net_buffer);
    my_tls_options(my, t);
    if (!mysql_real_connect(my, t->host[0] ? t->host : NULL, t->user[0] ? t->user : NULL, t->pass[0] ? t->pass : NULL,
                            t->db[0] ? t->db : NULL, t->port, t->socket[0] ? t->socket : NULL,
                            CLIENT_MULTI_STATEMENTS)) {
        bb_errf(err, "mysql: cannot connect to %s: %s", t->where, mysql_error(my));
        mysql_close(my);
        return -1;
    }
    if (my_tls_check(my, t, err) < 0) {
        mysql_close(my);
        return -1;
    }
    bb_conn *c = bb_xcalloc(1, sizeof *c);
    c->my = my;
    c->t = t;
    my_infile_install(c);
    if (mysql_set_character_set(my, "utf8mb4") != 0) {
        my_fail(err, c, "character set");
        mysql_close(my);
        free(c);
        return -1;
    }
    c->max_packet = 0;
    if (mysql_query(my, "SELECT @@max_allowed_packet") == 0) {
        MYSQL_RES *r = mysql_store_result(my);
        MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
        if (row && row[0]) c->max_packet = atoll(row[0]);
        if (r) mysql_free_result(r);
    }
    *out = c;
    return 0;
}

static void my_disconnect(bb_conn *c)
{
    if (!c) return;
    mysql_close(c->my);
    free(c);
}

static int64_t my_max_statement_bytes(bb_conn *c) { return c->max_packet; }

/* Runs sql (one or several statements) and discards any rows. */
static int my_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err)
{
    if (mysql_real_query(c->my, sql, (unsigned long)strlen(sql)) != 0) return my_fail(err, c, "exec");
    int64_t total = 0;
    int more;
    do {
        MYSQL_RES *r = mysql_store_result(c->my);
        if (r) mysql_free_result(r);
        else if (mysql_field_count(c->my) == 0) total += (int64_t)mysql_affected_rows(c->my);
        else return my_fail(err, c, "exec");
        more = mysql_next_result(c->my);
        if (more > 0) return my_fail(err, c, "exec");
    } while (more == 0);
    if (affected) *affected = total;
    return 0;
}

/* Parameters are escaped into the text (read queries are not the measured path). */
int my_query(bb_conn *c, const char *sql, int nparams, const char *const *params, bb_row_cb cb, void *ud, bb_err *err)
{
    bb_buf q = { 0 };
    int k = 0, in_str = 0;
    for (const char *p = sql; *p; p++) {
        if (*p == '\'') in_str = !in_str;
        if (*p == '?' && !in_str && k < nparams) {
            const char *v = params[k++];
            if (!v) {
                bb_buf_puts(&q, "NULL");
                continue;
            }
            size_t n = strlen(v);
            bb_buf_reserve(&q, 2 * n + 3);
            q.p[q.len++] = '\'';
            q.len += mysql_real_escape_string(c->my, q.p + q.len, v, (unsigned long)n);
            q.p[q.len++] = '\'';
            continue;
        }
        bb_buf_putc(&q, *p);
    }
    bb_buf_putc(&q, 0);
    int rc = mysql_real_query(c->my, q.p, (unsigned long)(q.len - 1));
    bb_buf_free(&q);
    if (rc != 0) return my_fail(err, c, "query");
    MYSQL_RES *r = mysql_store_result(c->my);
    if (!r) {
        if (mysql_field_count(c->my) != 0) return my_fail(err, c, "query");
    } else {
        unsigned nf = mysql_num_fields(r);
        MYSQL_FIELD *f = mysql_fetch_fields(r);
        const char *names[nf ? nf : 1];
        for (unsigned i = 0; i < nf; i++) names[i] = f[i].name;
        MYSQL_ROW row;
        while ((row = mysql_fetch_row(r))) {
            unsigned long *lens = mysql_fetch_lengths(r);
            size_t l[nf ? nf : 1];
            for (unsigned i = 0; i < nf; i++) l[i] = lens[i];
            if (cb && cb(ud, (int)nf, names, (const char *const *)row, l)) break;
        }
        mysql_free_result(r);
    }
    while (mysql_next_result(c->my) == 0) { /* drain any further results */
        MYSQL_RES *x = mysql_store_result(c->my);
        if (x) mysql_free_result(x);
    }
    return 0;
}

/* ---- prepared statements ---- */

int my_stmt_fail(bb_err *err, bb_stmt *s, const char *what)
{
    return bb_errf(err, "mysql %s: %s: %s", s->c->t->where, what, mysql_stmt_error(s->st));
}

static int my_prepare(bb_conn *c, const char *sql, int nparams, const bb_sqltype *types, bb_stmt **out, bb_err *err)
{
    (void)types;
    bb_stmt *s = bb_xcalloc(1, sizeof *s);
    s->c = c;
    s->st = mysql_stmt_init(c->my);
    if (!s->st) {
        free(s);
        return my_fail(err, c, "prepare");
    }
    if (mysql_stmt_prepare(s->st, sql, (unsigned long)strlen(sql)) != 0) {
        int e = my_stmt_fail(err, s, "prepare");
        mysql_stmt_close(s->st);
        free(s);
        return e;
    }
    s->n = (int)mysql_stmt_param_count(s->st);
    if (s->n != nparams) {
        bb_errf(err, "mysql: prepare: statement has %d parameters, %d given", s->n, nparams);
        mysql_stmt_close(s->st);
        free(s);
        return -1;
    }
    s->bind = bb_xcalloc((size_t)s->n + 1, sizeof *s->bind);
    s->lens = bb_xcalloc((size_t)s->n + 1, sizeof *s->lens);
    s->nulls = bb_xcalloc((size_t)s->n + 1, sizeof *s->nulls);
    *out = s;
    return 0;
}

/* Binds values in place: no copies, no fixed-size buffers. */
static int my_bind(bb_stmt *s, const bb_value *p, bb_err *err)
{
    for (int i = 0; i < s->n; i++) {
        MYSQL_BIND *b = &s->bind[i];
        memset(b, 0, sizeof *b);
        s->nulls[i] = p[i].kind == BB_V_NULL;
        b->is_null = &s->nulls[i];
        b->buffer_type = my_field_type(p[i].kind);
        switch (p[i].kind) {
        case BB_V_INT: b->buffer = (void *)&p[i].u.i; break;
        case BB_V_DOUBLE: b->buffer = (void *)&p[i].u.d; break;
        case BB_V_TEXT:
            b->buffer = (void *)p[i].u.s;
            s->lens[i] = p[i].len;
            b->buffer_length = p[i].len;
            b->length = &s->lens[i];
            break;
        }
    }
    return mysql_stmt_bind_param(s->st, s->bind) != 0 ? my_stmt_fail(err, s, "bind") : 0;
}

static int my_execute(bb_stmt *s, const bb_value *p, int64_t *affected, bb_err *err)
{
    if (my_bind(s, p, err) < 0) return -1;
    if (mysql_stmt_execute(s->st) != 0) return my_stmt_fail(err, s, "execute");
    if (affected) *affected = (int64_t)mysql_stmt_affected_rows(s->st);
    if (mysql_stmt_field_count(s->st) > 0) mysql_stmt_free_result(s->st);
    return 0;
}

/* The non-blocking API: the request leaves in execute_start; the rest waits. */
static int my_execute_send(bb_stmt *s, const bb_value *p, bb_err *err)
{
    if (my_bind(s, p, err) < 0) return -1;
    s->pending = mysql_stmt_execute_start(&s->ret, s->st);
    return 0;
}

static int my_execute_wait(bb_stmt *s, int64_t *affected, bb_err *err)
{
    while (s->pending) {
        struct pollfd pf = { mysql_get_socket(s->c->my), 0, 0 };
        if (s->pending & MYSQL_WAIT_READ) pf.events |= POLLIN;
        if (s->pending & MYSQL_WAIT_WRITE) pf.events |= POLLOUT;
        if (s->pending & MYSQL_WAIT_EXCEPT) pf.events |= POLLPRI;
        int timeout = (s->pending & MYSQL_WAIT_TIMEOUT) ? (int)mysql_get_timeout_value_ms(s->c->my) : -1;
        int n = poll(&pf, 1, timeout), ready = 0;
        if (n == 0) ready = MYSQL_WAIT_TIMEOUT;
        else if (n > 0) {
            if (pf.revents & (POLLIN | POLLHUP | POLLERR)) ready |= MYSQL_WAIT_READ;
            if (pf.revents & POLLOUT) ready |= MYSQL_WAIT_WRITE;
            if (pf.revents & POLLPRI) ready |= MYSQL_WAIT_EXCEPT;
        }
        s->pending = mysql_stmt_execute_cont(&s->ret, s->st, ready);
    }
    if (s->ret != 0) return my_stmt_fail(err, s, "execute");
    if (affected) *affected = (int64_t)mysql_stmt_affected_rows(s->st);
    if (mysql_stmt_field_count(s->st) > 0) mysql_stmt_free_result(s->st);
    return 0;
}

static void my_finalize(bb_stmt *s)
{
    if (!s) return;
    free(s->arr);
    bb_buf_free(&s->text);
    mysql_stmt_close(s->st);
    free(s->bind);
    free(s->lens);
    free(s->nulls);
    free(s);
}

/* no automatic reconnect is set, so a ping on a lost session fails at once */
static int my_alive(bb_conn *c) { return mysql_ping(c->my) == 0; }

static int my_begin(bb_conn *c, bb_err *err)
{
    int rc = my_exec(c, "BEGIN", NULL, err);
    c->in_txn = rc == 0;
    return rc;
}
static int my_commit(bb_conn *c, bb_err *err)
{
    c->in_txn = 0;
    return mysql_commit(c->my) == 0 ? 0 : my_fail(err, c, "commit");
}
static int my_rollback(bb_conn *c, bb_err *err)
{
    c->in_txn = 0;
    return mysql_rollback(c->my) == 0 ? 0 : my_fail(err, c, "rollback");
}

/* ---- settings and server costs ---- */

/* SET SESSION|GLOBAL name = value, the value quoted unless it is a number */
static int my_set(bb_conn *c, const char *scope, const char *name, const char *value, bb_err *err)
{
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || isalnum((unsigned char)*p)))
            return bb_usagef(err, "mysql: '%s' is not a setting name", name);
    int numeric = *value != 0;
    for (const char *p = value; *p; p++)
        if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-') numeric = 0;
    bb_buf sql = { 0 };
    bb_buf_printf(&sql, "SET %s %s = ", scope, name);
    if (numeric) bb_buf_puts(&sql, value);
    else {
        size_t n = strlen(value);
        bb_buf_reserve(&sql, 2 * n + 3);
        sql.p[sql.len++] = '\'';
        sql.len += mysql_real_escape_string(c->my, sql.p + sql.len, value, (unsigned long)n);
        sql.p[sql.len++] = '\'';
    }
    bb_buf_putc(&sql, 0);
    int rc = my_exec(c, sql.p, NULL, err);
    bb_buf_free(&sql);
    return rc;
}

static int my_set_session(bb_conn *c, const char *name, const char *value, bb_err *err)
{
    return my_set(c, "SESSION", name, value, err);
}

static int my_set_global(bb_conn *c, const char *name, const char *value, char *old, size_t oldlen, bb_err *err)
{
    char cur[512] = "", sql[160];
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || isalnum((unsigned char)*p)))
            return bb_usagef(err, "mysql: '%s' is not a setting name", name);
    snprintf(sql, sizeof sql, "SELECT @@global.%s", name);
    if (my_query(c, sql, 0, NULL, bb_row_text, &(bb_text){ cur, sizeof cur }, err) < 0) return -1;
    snprintf(old, oldlen, "%s", cur);
    return my_set(c, "GLOBAL", name, value, err);
}

/* mysqld's pid when it runs here: its pid file names it, and /proc confirms the name. */
static int local_server(bb_conn *c)
{
    char path[512] = "";
    bb_err ignore;
    if (my_query(c, "SELECT @@pid_file", 0, NULL, bb_row_text, &(bb_text){ path, sizeof path }, &ignore) < 0 ||
        !path[0])
        return 0;
    return driver_local_pidfile(path, MY_DAEMONS);
}

static int my_server_info(bb_conn *c, bb_server_info *out, bb_err *err)
{
    const char *v = mysql_get_server_info(c->my);
    snprintf(out->version, sizeof out->version, "%s %s", strstr(v, "MariaDB") ? "MariaDB" : "MySQL", v);
    snprintf(out->driver, sizeof out->driver, "MySQL C API %s", mysql_get_client_info());
    json_t *set = json_object();
    if (my_query(c, MY_SETTINGS_SQL, 0, NULL, bb_row_columns_json, set, err) < 0) {
        json_decref(set);
        return -1;
    }
    driver_settings_text(set, out);
    bb_err ignore; /* without the privilege (or the binlog) the figure is unknown, not zero */
    int64_t bin = 0, redo = -1;
    if (my_query(c, MY_BINLOGS_SQL, 0, NULL, bb_row_sum2, &bin, &ignore) == 0) out->log_pos = bin;
    if (my_query(c, MY_REDO_SQL, 0, NULL, bb_row_int2, &redo, &ignore) == 0) out->redo_pos = redo;
    out->local_pid = local_server(c);
    my_tls_info(c->my, &out->tls_on, out->tls_version, sizeof out->tls_version, out->tls_cipher, sizeof out->tls_cipher);
    return 0;
}

static int my_table_bytes(bb_conn *c, const char *table, int64_t *bytes, bb_err *err)
{
    const char *p[1] = { table };
    bb_err ignore;
    (void)err;
    *bytes = -1;
    /* InnoDB's figures are its statistics: refresh them so they describe the table now */
    bb_buf sql = { 0 };
    bb_buf_printf(&sql, "ANALYZE TABLE `%s`", table);
    bb_buf_putc(&sql, 0);
    my_exec(c, sql.p, NULL, &ignore);
    bb_buf_free(&sql);
    if (my_query(c, MY_TABLE_SQL, 1, p, bb_row_int, bytes, &ignore) < 0) *bytes = -1;
    return 0;
}

const bb_driver bb_driver_mysql = {
    .name = "mysql",
    .summary = "MySQL/MariaDB via the MySQL C API ([client] options honoured)",
    .default_method = "load",
    .dsn_help = "mysql://user:pass@host:port/db[?socket=/path]",
    .servers = "mysql",
    .client = "drivers/mysql/client.sh",
    .catalog_lua = "bulkbench.drivers.mysql.catalog_mysql",
    .strategies_lua = "bulkbench.drivers.mysql.strategies_mysql",
    .caps = BB_CAP_PREPARE | BB_CAP_TXN | BB_CAP_MULTIROW | BB_CAP_TEXTPROTO | BB_CAP_LOAD_DATA | MY_CAP_BULK |
        BB_CAP_WAITS,
    .dialect = &my_dialect,
    .target_open = my_target_open,
    .target_where = my_target_where,
    .target_close = my_target_close,
    .connect = my_connect,
    .disconnect = my_disconnect,
    .exec = my_exec,
    .query = my_query,
    .prepare = my_prepare,
    .execute = my_execute,
    .finalize = my_finalize,
    .execute_send = my_execute_send,
    .execute_wait = my_execute_wait,
    .execute_pipeline = MY_EXECUTE_PIPELINE,
    .begin = my_begin,
    .commit = my_commit,
    .rollback = my_rollback,
    .stream_pull = my_stream_pull,
    .alive = my_alive,
    .set_session = my_set_session,
    .set_global = my_set_global,
    .server_info = my_server_info,
    .session_id = my_session_id,
    .waits = my_waits,
    .wait_counters = my_wait_counters,
    .growth = my_growth,
    .max_statement_bytes = my_max_statement_bytes,
    .table_bytes = my_table_bytes,
};
