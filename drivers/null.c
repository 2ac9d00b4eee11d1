/* null.c — accepts every operation and does nothing, so a run on it measures the runner's
 * own cost (generation, encoding, batching, Lua calls, timing). Never a stand-in for a
 * database in tests of database behaviour: queries return no rows. */
#include <stdlib.h>

#include "driver.h"

struct bb_target { int unused; };
struct bb_conn { int64_t streamed; };
struct bb_stmt { int unused; };

static const bb_dialect null_dialect = { "generic", '"', 0, 0, 0 };

static int nl_target_open(const char *dsn, bb_target **out, bb_err *err)
{
    (void)dsn; (void)err;
    *out = bb_xcalloc(1, sizeof **out);
    return 0;
}
static const char *nl_target_where(const bb_target *t) { (void)t; return "(null engine)"; }
static void nl_target_close(bb_target *t) { free(t); }
static int nl_connect(bb_target *t, bb_conn **out, bb_err *err)
{
    (void)t; (void)err;
    *out = bb_xcalloc(1, sizeof **out);
    return 0;
}
static void nl_disconnect(bb_conn *c) { free(c); }
static int nl_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err)
{
    (void)c; (void)sql; (void)err;
    if (affected) *affected = 0;
    return 0;
}
static int nl_query(bb_conn *c, const char *sql, int n, const char *const *p, bb_row_cb cb, void *ud, bb_err *err)
{
    (void)c; (void)sql; (void)n; (void)p; (void)cb; (void)ud; (void)err;
    return 0;
}
static int nl_prepare(bb_conn *c, const char *sql, int n, const bb_sqltype *types, bb_stmt **out, bb_err *err)
{
    (void)c; (void)sql; (void)n; (void)types; (void)err;
    *out = bb_xcalloc(1, sizeof **out);
    return 0;
}
static int nl_execute(bb_stmt *s, const bb_value *p, int64_t *affected, bb_err *err)
{
    (void)s; (void)p; (void)err;
    if (affected) *affected = 1;
    return 0;
}
static void nl_finalize(bb_stmt *s) { free(s); }
static int nl_ok(bb_conn *c, bb_err *err) { (void)c; (void)err; return 0; }
static int nl_stream_open(bb_conn *c, const bb_stream_spec *spec, bb_err *err)
{
    (void)spec; (void)err;
    c->streamed = 0;
    return 0;
}
static int nl_stream_write(bb_conn *c, const char *data, size_t len, bb_err *err)
{
    (void)data; (void)len; (void)err; (void)c;
    return 0;
}
static void nl_stream_abort(bb_conn *c, const char *why, int64_t *rows)
{
    (void)why;
    c->streamed = 0;
    *rows = 0;
}
static int nl_stream_close(bb_conn *c, int64_t *rows, bb_err *err)
{
    (void)c; (void)err;
    *rows = -1; /* unknown: the caller counts what it sent */
    return 0;
}
static int nl_set_session(bb_conn *c, const char *n, const char *v, bb_err *err)
{
    (void)c; (void)n; (void)v; (void)err;
    return 0;
}
static int nl_server_info(bb_conn *c, bb_server_info *out, bb_err *err)
{
    (void)c; (void)err; (void)out;
    return 0;
}
static int nl_table_bytes(bb_conn *c, const char *table, int64_t *bytes, bb_err *err)
{
    (void)c; (void)table; (void)err;
    *bytes = -1;
    return 0;
}

const bb_driver bb_driver_null = {
    .name = "null",
    .summary = "does nothing: measures the runner's own cost",
    .caps = BB_CAP_PREPARE | BB_CAP_TXN | BB_CAP_MULTIROW | BB_CAP_TEXTPROTO | BB_CAP_PIPELINE | BB_CAP_COPY_TEXT |
            BB_CAP_COPY_CSV | BB_CAP_COPY_BIN | BB_CAP_LOAD_DATA,
    .dialect = &null_dialect,
    .target_open = nl_target_open,
    .target_where = nl_target_where,
    .target_close = nl_target_close,
    .connect = nl_connect,
    .disconnect = nl_disconnect,
    .exec = nl_exec,
    .query = nl_query,
    .prepare = nl_prepare,
    .execute = nl_execute,
    .finalize = nl_finalize,
    .begin = nl_ok,
    .commit = nl_ok,
    .rollback = nl_ok,
    .stream_open = nl_stream_open,
    .stream_write = nl_stream_write,
    .stream_close = nl_stream_close,
    .stream_abort = nl_stream_abort,
    .set_session = nl_set_session,
    .server_info = nl_server_info,
    .table_bytes = nl_table_bytes,
};
