/* pg.c — PostgreSQL through libpq: prepared statements with binary parameters where the
 * type allows, pipeline mode, COPY FROM STDIN (pg_copy.c), server costs. */
#include <jansson.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_priv.h"
#include "pg_types.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../server_sql.h"

static const bb_dialect pg_dialect = { "pg", '"', 1, 0, 65535, 0, 0, "bulkbench.drivers.pg.dialect_pg" };

/* libpq messages end in newlines and may span lines; keep the first line's substance */
static const char *pg_msg(PGconn *pg)
{
    static __thread char buf[512];
    snprintf(buf, sizeof buf, "%s", pg ? PQerrorMessage(pg) : "out of memory");
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\t') {
            *p = (p[1] && p[1] != '\n') ? ' ' : 0;
            if (!*p) break;
        }
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t')) buf[--n] = 0;
    return buf;
}

int pg_fail(bb_err *err, bb_conn *c, const char *what)
{
    return bb_errf(err, "pg %s: %s: %s", c->t->where, what, pg_msg(c->pg));
}

int pg_res_fail(bb_err *err, bb_conn *c, PGresult *r, const char *what)
{
    const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(c->pg);
    char line[512], ctx[256] = "";
    snprintf(line, sizeof line, "%s", m && *m ? m : pg_msg(c->pg));
    line[strcspn(line, "\n")] = 0;
    /* COPY names the row and column it refused: "COPY t, line 3, column id: "oops"" */
    const char *cx = r ? PQresultErrorField(r, PG_DIAG_CONTEXT) : NULL;
    long long row = 0;
    if (cx && !strncmp(cx, "COPY ", 5)) {
        char first[200];
        snprintf(first, sizeof first, "%s", cx);
        first[strcspn(first, "\n")] = 0;
        snprintf(ctx, sizeof ctx, " (%s)", first);
        const char *l = strstr(cx, ", line ");
        if (l) row = atoll(l + 7);
    }
    PQclear(r);
    bb_errf(err, "pg %s: %s: %s%s", c->t->where, what, line, ctx);
    err->row = row;
    return -1;
}

/* ---- targets and connections ---- */

static int pg_target_open(const char *dsn, bb_target **out, bb_err *err)
{
    if (pg_lib_load(err) < 0) return -1;
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(dsn && *dsn ? dsn : "", &perr);
    if (!opts) {
        char *why = bb_redacted(perr, dsn);
        int e = bb_usagef(err,
                          "pg: cannot parse --dsn (want a libpq URI postgresql://user@host:port/db or "
                          "key=value pairs): %s",
                          why ? why : "out of memory");
        free(why);
        PQfreemem(perr);
        return e;
    }
    bb_target *t = bb_xcalloc(1, sizeof *t);
    t->opts = opts;
    int n = 0, have_timeout = 0, have_app = 0;
    const char *host = NULL, *port = NULL;
    for (PQconninfoOption *o = opts; o->keyword && n < PG_MAX_KEYS - 3; o++) {
        if (!o->val) continue;
        t->keys[n] = o->keyword;
        t->vals[n++] = o->val;
        if (!strcmp(o->keyword, "connect_timeout")) have_timeout = 1;
        if (!strcmp(o->keyword, "application_name")) have_app = 1;
        if (!strcmp(o->keyword, "host") || (!host && !strcmp(o->keyword, "hostaddr"))) host = o->val;
        if (!strcmp(o->keyword, "port")) port = o->val;
    }
    if (!have_timeout) {
        t->keys[n] = "connect_timeout";
        t->vals[n++] = "5";
    } /* a down server fails in seconds */
    if (!have_app) {
        t->keys[n] = "application_name";
        t->vals[n++] = "bulkbench";
    }
    t->keys[n] = "client_encoding";
    t->vals[n++] = "UTF8";
    if (!host) host = getenv("PGHOST");
    if (!port) port = getenv("PGPORT");
    snprintf(t->where, sizeof t->where, "%s:%s", host && *host ? host : "localhost", port && *port ? port : "5432");
    *out = t;
    return 0;
}

static const char *pg_target_where(const bb_target *t) { return t->where; }

static void pg_target_close(bb_target *t)
{
    if (!t) return;
    PQconninfoFree(t->opts);
    free(t);
}

static int pg_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err);

/* Server notices: NOTICE and below ("table does not exist, skipping") are noise in a
 * benchmark's output; warnings are shown. A server shutting down says so in one (57P01,
 * 57P02) just before it closes the session: remembered, see pg_stream_close. */
static void pg_notice(void *ud, const PGresult *r)
{
    bb_conn *c = ud;
    const char *sev = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (c && state && strncmp(state, "57P", 3) == 0) c->ending = 1;
    if (sev && (strcmp(sev, "WARNING") == 0)) fprintf(stderr, "pg: %s", PQresultErrorMessage(r));
}

static int pg_connect(bb_target *t, bb_conn **out, bb_err *err)
{
    PGconn *pg = PQconnectdbParams(t->keys, t->vals, 0);
    if (!pg || PQstatus(pg) != CONNECTION_OK) {
        bb_errf(err, "pg: cannot connect to %s: %s", t->where, pg_msg(pg));
        PQfinish(pg);
        return -1;
    }
    bb_conn *c = bb_xcalloc(1, sizeof *c);
    PQsetNoticeReceiver(pg, pg_notice, c);
    c->pg = pg;
    c->t = t;
    /* UTC, so a timestamp sent as text and the same one sent in binary mean one instant; floats
     * read back exact on servers before PostgreSQL 12 too (Greenplum 6), as 12 and later do */
    if (pg_exec(c, "SET TimeZone = 'UTC'; SET extra_float_digits = 3", NULL, err) < 0) {
        PQfinish(pg);
        free(c);
        return -1;
    }
    *out = c;
    return 0;
}

static void pg_disconnect(bb_conn *c)
{
    if (!c) return;
    PQfinish(c->pg);
    free(c->copy_types);
    free(c->copy_fields);
    free(c->copy_natives);
    free(c->copy_forms);
    bb_buf_free(&c->rowbuf);
    free(c);
}

int64_t pg_cmd_tuples(PGresult *r)
{
    const char *s = PQcmdTuples(r);
    return s && *s ? strtoll(s, NULL, 10) : 0;
}

static int pg_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err)
{
    PGresult *r = PQexec(c->pg, sql);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return pg_res_fail(err, c, r, "exec");
    if (affected) *affected = pg_cmd_tuples(r);
    PQclear(r);
    return 0;
}

static int pg_query(bb_conn *c, const char *sql, int nparams, const char *const *params, bb_row_cb cb, void *ud,
                    bb_err *err)
{
    PGresult *r = PQexecParams(c->pg, sql, nparams, NULL, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return pg_res_fail(err, c, r, "query");
    int nf = PQnfields(r), nt = PQntuples(r);
    const char *names[nf ? nf : 1], *vals[nf ? nf : 1];
    size_t lens[nf ? nf : 1];
    for (int j = 0; j < nf; j++) names[j] = PQfname(r, j);
    for (int i = 0; i < nt && cb; i++) {
        for (int j = 0; j < nf; j++) {
            vals[j] = PQgetisnull(r, i, j) ? NULL : PQgetvalue(r, i, j);
            lens[j] = (size_t)PQgetlength(r, i, j);
        }
        if (cb(ud, nf, names, vals, lens)) break;
    }
    PQclear(r);
    return 0;
}

/* ---- prepared statements ---- */

/* The most parameters one Describe may report: older libpq (Debian 12's 15.18 among them;
 * 15.20 is fixed) drops the connection on a ParameterDescription over 30,000 bytes, which
 * is a 4-byte length, a 2-byte count and 4 bytes per parameter. */
#define PG_DESCRIBE_MAX ((30000 - 6) / 4)

static void pg_stmt_free(bb_stmt *s)
{
    free(s->types);
    free(s->vals);
    free(s->lens);
    free(s->fmts);
    free(s->offs);
    bb_buf_free(&s->scratch);
    free(s);
}

/* Declares the parameters whose storage class names their type; returns how many. */
static int pg_declare(bb_stmt *s, const bb_sqltype *types)
{
    int known = 0;
    for (int i = 0; i < s->n && types; i++) known += (s->types[i] = pgt_declared(types[i])) != 0;
    return known;
}

/* Prepares with no type given: the server infers each from its context (and the count from the text). */
static int pg_parse_inferred(bb_stmt *s, const char *sql, bb_err *err)
{
    memset(s->types, 0, sizeof *s->types * (size_t)s->n);
    PGresult *r = PQprepare(s->c->pg, s->name, sql, 0, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) return pg_res_fail(err, s->c, r, "prepare");
    PQclear(r);
    return 0;
}

/* Prepares with the declared types. A column the storage class misjudges (a daterange or a
 * date[] is "date" to it) is refused as datatype_mismatch, and then the server infers every
 * type instead; inside a transaction a savepoint keeps that refusal from aborting it. */
static int pg_parse_declared(bb_stmt *s, const char *sql, bb_err *err)
{
    bb_conn *c = s->c;
    int in_txn = PQtransactionStatus(c->pg) == PQTRANS_INTRANS;
    if (in_txn && pg_exec(c, "SAVEPOINT bb_prepare", NULL, err) < 0) return -1;
    PGresult *r = PQprepare(c->pg, s->name, sql, s->n, s->types);
    if (PQresultStatus(r) == PGRES_COMMAND_OK) {
        PQclear(r);
        return in_txn ? pg_exec(c, "RELEASE SAVEPOINT bb_prepare", NULL, err) : 0;
    }
    const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (!code || strcmp(code, "42804") != 0) return pg_res_fail(err, c, r, "prepare");
    PQclear(r);
    if (in_txn && pg_exec(c, "ROLLBACK TO SAVEPOINT bb_prepare; RELEASE SAVEPOINT bb_prepare", NULL, err) < 0)
        return -1;
    return pg_parse_inferred(s, sql, err);
}

/* Asks the server the types it inferred. Fewer parameters than counted (a script's '?' that
 * is an operator) are fine; more would read past the caller's values. */
static int pg_describe(bb_stmt *s, bb_err *err)
{
    PGresult *r = PQdescribePrepared(s->c->pg, s->name);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) return pg_res_fail(err, s->c, r, "describe");
    int n = PQnparams(r);
    if (n > s->n) {
        PQclear(r);
        return bb_errf(err, "pg %s: prepare: the statement has %d parameters, %d given", s->c->t->where, n, s->n);
    }
    s->n = n;
    for (int i = 0; i < n; i++) s->types[i] = PQparamtype(r, i);
    PQclear(r);
    return 0;
}

/* Declared types where the storage class tells them; the others the server infers, and a
 * Describe reports them when its answer fits old libpq. Past that they stay 0 and go as
 * text, which the server parses as whatever it inferred. */
static int pg_prepare(bb_conn *c, const char *sql, int nparams, const bb_sqltype *types, bb_stmt **out, bb_err *err)
{
    bb_stmt *s = bb_xcalloc(1, sizeof *s);
    s->c = c;
    s->n = nparams;
    snprintf(s->name, sizeof s->name, "bb%d", ++c->nstmt);
    s->types = bb_xcalloc((size_t)nparams + 1, sizeof *s->types);
    s->vals = bb_xcalloc((size_t)nparams + 1, sizeof *s->vals);
    s->lens = bb_xcalloc((size_t)nparams + 1, sizeof *s->lens);
    s->fmts = bb_xcalloc((size_t)nparams + 1, sizeof *s->fmts);
    s->offs = bb_xcalloc((size_t)nparams + 1, sizeof *s->offs);
    int known = pg_declare(s, types);
    int rc = known ? pg_parse_declared(s, sql, err) : pg_parse_inferred(s, sql, err);
    int unknown = 0;
    for (int i = 0; i < s->n; i++) unknown += s->types[i] == 0;
    if (rc == 0 && unknown && s->n <= PG_DESCRIBE_MAX) rc = pg_describe(s, err);
    if (rc < 0) {
        pg_stmt_free(s);
        return -1;
    }
    for (int i = 0; i < s->n; i++) s->fmts[i] = pgt_binary(s->types[i]);
    *out = s;
    return 0;
}

/* Fills vals/lens for one row: text-like values point at the row itself, the others are
 * encoded into the statement's growable scratch (offsets first: it may move). */
static int bind_row(bb_stmt *s, const bb_value *p, bb_err *err)
{
    s->scratch.len = 0;
    for (int i = 0; i < s->n; i++) {
        s->offs[i] = SIZE_MAX;
        if (p[i].kind == BB_V_NULL) {
            s->vals[i] = NULL;
            s->lens[i] = 0;
            continue;
        }
        if (s->fmts[i] && pgt_verbatim(s->types[i]) && p[i].kind == BB_V_TEXT) {
            s->vals[i] = p[i].u.s;
            s->lens[i] = (int)p[i].len;
            continue;
        }
        size_t at = s->scratch.len;
        if (s->fmts[i]) {
            if (pgt_put(&s->scratch, s->types[i], &p[i], err) < 0) return -1;
        } else {
            pgt_put_text(&s->scratch, &p[i]);
            bb_buf_putc(&s->scratch, 0); /* text parameters are C strings */
        }
        s->offs[i] = at;
        s->lens[i] = (int)(s->scratch.len - at);
    }
    for (int i = 0; i < s->n; i++)
        if (s->offs[i] != SIZE_MAX) s->vals[i] = s->scratch.p + s->offs[i];
    return 0;
}

static int pg_execute(bb_stmt *s, const bb_value *p, int64_t *affected, bb_err *err)
{
    if (bind_row(s, p, err) < 0) return -1;
    PGresult *r = PQexecPrepared(s->c->pg, s->name, s->n, s->vals, s->lens, s->fmts, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return pg_res_fail(err, s->c, r, "execute");
    if (affected) *affected = pg_cmd_tuples(r);
    PQclear(r);
    return 0;
}

static int pg_execute_send(bb_stmt *s, const bb_value *p, bb_err *err)
{
    if (bind_row(s, p, err) < 0) return -1;
    if (!PQsendQueryPrepared(s->c->pg, s->name, s->n, s->vals, s->lens, s->fmts, 0))
        return pg_fail(err, s->c, "execute");
    return 0;
}

static int pg_execute_wait(bb_stmt *s, int64_t *affected, bb_err *err)
{
    PGresult *r;
    int rc = 0, got = 0;
    while ((r = PQgetResult(s->c->pg))) {
        got = 1;
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
            if (affected) *affected = pg_cmd_tuples(r);
        } else if (rc == 0) {
            rc = pg_res_fail(err, s->c, r, "execute");
            continue;
        }
        PQclear(r);
    }
    /* no answer at all: the connection went away before the server said anything */
    return got ? rc : pg_fail(err, s->c, "execute");
}

/* Sends while reading whatever the server has answered, so neither side blocks on a full socket. */
static int flush_all(bb_conn *c, bb_err *err)
{
    int rc;
    while ((rc = PQflush(c->pg)) == 1) {
        struct pollfd pf = { PQsocket(c->pg), POLLIN | POLLOUT, 0 };
        if (poll(&pf, 1, 30000) <= 0) return bb_errf(err, "pg %s: pipeline: the server stopped reading", c->t->where);
        if ((pf.revents & POLLIN) && !PQconsumeInput(c->pg)) return pg_fail(err, c, "pipeline");
    }
    return rc < 0 ? pg_fail(err, c, "pipeline") : 0;
}

static int pg_execute_pipeline(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err)
{
    bb_conn *c = s->c;
    int rc = 0, sent = 0;
    int64_t total = 0;
    if (!PQenterPipelineMode(c->pg)) return pg_fail(err, c, "pipeline");
    PQsetnonblocking(c->pg, 1);
    for (int i = 0; i < nrows && rc == 0; i++) {
        if (bind_row(s, rows[i], err) < 0) {
            rc = -1;
            break;
        }
        if (!PQsendQueryPrepared(c->pg, s->name, s->n, s->vals, s->lens, s->fmts, 0)) {
            rc = pg_fail(err, c, "pipeline");
            break;
        }
        sent++;
        if (PQflush(c->pg) < 0) rc = pg_fail(err, c, "pipeline");
    }
    if (!PQpipelineSync(c->pg) && rc == 0) rc = pg_fail(err, c, "pipeline sync");
    if (flush_all(c, err) < 0) rc = -1;
    PQsetnonblocking(c->pg, 0);
    /* every sent query yields its result then NULL; the sync point yields PIPELINE_SYNC */
    for (int i = 0; i < sent; i++) {
        PGresult *r;
        while ((r = PQgetResult(c->pg))) {
            ExecStatusType st = PQresultStatus(r);
            if (st == PGRES_COMMAND_OK) total += pg_cmd_tuples(r);
            else if (st == PGRES_FATAL_ERROR && rc == 0) {
                rc = pg_res_fail(err, c, r, "pipeline");
                continue;
            }
            PQclear(r);
        }
    }
    PGresult *r = PQgetResult(c->pg);
    if (PQresultStatus(r) != PGRES_PIPELINE_SYNC && rc == 0) rc = pg_res_fail(err, c, r, "pipeline sync");
    else PQclear(r);
    if (!PQexitPipelineMode(c->pg) && rc == 0) rc = pg_fail(err, c, "pipeline exit");
    if (affected) *affected = rc == 0 ? total : 0; /* one implicit transaction: all or nothing */
    return rc;
}

static void pg_finalize(bb_stmt *s)
{
    if (!s) return;
    char sql[64];
    snprintf(sql, sizeof sql, "DEALLOCATE %s", s->name);
    if (PQstatus(s->c->pg) == CONNECTION_OK && PQtransactionStatus(s->c->pg) == PQTRANS_IDLE)
        PQclear(PQexec(s->c->pg, sql));
    pg_stmt_free(s);
}

static int pg_alive(bb_conn *c) { return PQstatus(c->pg) == CONNECTION_OK; }

static int pg_begin(bb_conn *c, bb_err *err) { return pg_exec(c, "BEGIN", NULL, err); }
static int pg_commit(bb_conn *c, bb_err *err) { return pg_exec(c, "COMMIT", NULL, err); }
static int pg_rollback(bb_conn *c, bb_err *err) { return pg_exec(c, "ROLLBACK", NULL, err); }

/* ---- settings and server costs ---- */

static int pg_set_session(bb_conn *c, const char *name, const char *value, bb_err *err)
{
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || *p == '.' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return bb_usagef(err, "pg: '%s' is not a setting name", name);
    char *lit = PQescapeLiteral(c->pg, value, strlen(value));
    if (!lit) return pg_fail(err, c, "SET");
    bb_buf sql = { 0 };
    bb_buf_printf(&sql, "SET %s = %s", name, lit);
    bb_buf_putc(&sql, 0);
    PQfreemem(lit);
    int rc = pg_exec(c, sql.p, NULL, err);
    bb_buf_free(&sql);
    return rc;
}

/* ALTER SYSTEM and a reload: new sessions see it; one that needs a restart is refused. */
static int pg_set_global(bb_conn *c, const char *name, const char *value, char *old, size_t oldlen, bb_err *err)
{
    char ctx[128] = "", cur[128] = "";
    const char *p[1] = { name };
    if (pg_query(c, "SELECT context, current_setting(name) FROM pg_settings WHERE name = $1", 1, p, bb_row_text,
                 &(bb_text){ ctx, sizeof ctx }, err) < 0)
        return -1;
    if (!ctx[0]) return bb_usagef(err, "pg: no setting named %s", name);
    if (strcmp(ctx, "postmaster") == 0)
        return bb_usagef(err, "pg: %s takes effect only after a server restart; --set-global cannot sweep it", name);
    if (pg_query(c, "SELECT current_setting($1)", 1, p, bb_row_text, &(bb_text){ cur, sizeof cur }, err) < 0) return -1;
    snprintf(old, oldlen, "%s", cur);
    char *lit = PQescapeLiteral(c->pg, value, strlen(value));
    if (!lit) return pg_fail(err, c, "ALTER SYSTEM");
    bb_buf sql = { 0 };
    bb_buf_printf(&sql, "ALTER SYSTEM SET %s = %s", name, lit);
    bb_buf_putc(&sql, 0);
    PQfreemem(lit);
    int rc = pg_exec(c, sql.p, NULL, err);
    bb_buf_free(&sql);
    return rc < 0 ? rc : pg_exec(c, "SELECT pg_reload_conf()", NULL, err);
}

static int pg_server_info(bb_conn *c, bb_server_info *out, bb_err *err)
{
    pg_system_version(c, out->version, sizeof out->version);
    snprintf(out->driver, sizeof out->driver, "libpq %d.%d", PQlibVersion() / 10000, PQlibVersion() % 10000);
    json_t *set = json_object();
    if (pg_query(c, pg_system_settings_sql(c), 0, NULL, bb_row_pair_json, set, err) < 0) {
        json_decref(set);
        return -1;
    }
    driver_settings_text(set, out);
    pg_system_costs(c, out); /* a standby or a restricted role may refuse: then the WAL figure is unknown */
    out->local_pid = driver_local_parent(PQbackendPID(c->pg), "postgres"); /* our backend's parent */
    out->tls_on = PQsslInUse(c->pg);
    const char *v = out->tls_on ? PQsslAttribute(c->pg, "protocol") : NULL, *ci = out->tls_on ? PQsslAttribute(c->pg, "cipher") : NULL;
    snprintf(out->tls_version, sizeof out->tls_version, "%s", v ? v : "");
    snprintf(out->tls_cipher, sizeof out->tls_cipher, "%s", ci ? ci : "");
    return 0;
}

static int pg_node_table_bytes(bb_conn *c, const char *table, int n, int64_t *bytes, bb_err *err)
{
    (void)err;
    return pg_system_table_nodes(c, table, n, bytes);
}

/* here and on every node that holds a part of it */
static int pg_table_bytes(bb_conn *c, const char *table, int64_t *bytes, bb_err *err)
{
    int64_t by[BB_MAX_NODES + 1];
    pg_system_table_nodes(c, table, c->nnodes + 1, by);
    *bytes = 0;
    for (int i = 0; i <= c->nnodes && *bytes >= 0; i++) *bytes = by[i] < 0 ? -1 : *bytes + by[i];
    (void)err;
    return 0;
}

const bb_driver bb_driver_pg = {
    .name = "pg",
    .summary = "PostgreSQL via libpq (PG* variables honoured)",
    .default_method = "copy",
    .dsn_help = "postgresql://user@host:port/db or key=value pairs",
    .servers = "pg",
    .client = "drivers/pg/client.sh",
    .catalog_lua = "bulkbench.drivers.pg.catalog_pg",
    .strategies_lua = "bulkbench.drivers.pg.strategies_pg",
    .caps = BB_CAP_PREPARE | BB_CAP_TXN | BB_CAP_MULTIROW | BB_CAP_TEXTPROTO | BB_CAP_PIPELINE | BB_CAP_COPY_TEXT |
        BB_CAP_COPY_CSV | BB_CAP_COPY_BIN | BB_CAP_WAITS,
    .dialect = &pg_dialect,
    .target_open = pg_target_open,
    .target_where = pg_target_where,
    .target_close = pg_target_close,
    .connect = pg_connect,
    .disconnect = pg_disconnect,
    .exec = pg_exec,
    .query = pg_query,
    .prepare = pg_prepare,
    .execute = pg_execute,
    .finalize = pg_finalize,
    .execute_send = pg_execute_send,
    .execute_wait = pg_execute_wait,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .stream_open = pg_stream_open,
    .stream_write = pg_stream_write,
    .stream_close = pg_stream_close,
    .stream_abort = pg_stream_abort,
    .stream_encode = pg_stream_encode,
    .stream_layout = pg_stream_layout,
    .execute_pipeline = pg_execute_pipeline,
    .alive = pg_alive,
    .set_session = pg_set_session,
    .set_global = pg_set_global,
    .server_info = pg_server_info,
    .table_bytes = pg_table_bytes,
    .node_table_bytes = pg_node_table_bytes,
    .system = pg_system_name,
    .session_id = pg_session_id,
    .waits = pg_waits,
    .wait_counters = pg_wait_counters,
    .growth = pg_growth,
};
