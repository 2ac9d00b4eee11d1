/* null.c — accepts every operation and does nothing, so a run on it measures the runner's
 * own cost (generation, encoding, batching, Lua calls, timing). Never a stand-in for a
 * database in tests of database behaviour: queries return no rows. */
#include <stdlib.h>
#include <string.h>

#include "../driver.h"
#include "../../base/err.h"
#include "../../base/buf.h"

struct bb_target {
    int unused;
};
struct bb_conn {
    int64_t streamed;
    int ncols;
};
struct bb_stmt {
    int unused;
};


static int nl_target_open(const char *dsn, bb_target **out, bb_err *err)
{
    (void)dsn;
    (void)err;
    *out = bb_xcalloc(1, sizeof **out);
    return 0;
}
static const char *nl_target_where(const bb_target *t)
{
    (void)t;
    return "(null engine)";
}
static void nl_target_close(bb_target *t) { free(t); }
static int nl_connect(bb_target *t, bb_conn **out, bb_err *err)
{
    (void)t;
    (void)err;
    *out = bb_xcalloc(1, sizeof **out);
    return 0;
}
static void nl_disconnect(bb_conn *c) { free(c); }
static int nl_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err)
{
    (void)c;
    (void)sql;
    (void)err;
    if (affected) *affected = 0;
    return 0;
}
static int nl_query(bb_conn *c, const char *sql, int n, const char *const *p, bb_row_cb cb, void *ud, bb_err *err)
{
    (void)c;
    (void)sql;
    (void)n;
    (void)p;
    (void)cb;
    (void)ud;
    (void)err;
    return 0;
}
static int nl_prepare(bb_conn *c, const char *sql, int n, const bb_sqltype *types, bb_stmt **out, bb_err *err)
{
    (void)c;
    (void)sql;
    (void)n;
    (void)types;
    (void)err;
    *out = bb_xcalloc(1, sizeof **out);
    return 0;
}
static int nl_execute(bb_stmt *s, const bb_value *p, int64_t *affected, bb_err *err)
{
    (void)s;
    (void)p;
    (void)err;
    if (affected) *affected = 1;
    return 0;
}
static void nl_finalize(bb_stmt *s) { free(s); }
static int nl_ok(bb_conn *c, bb_err *err)
{
    (void)c;
    (void)err;
    return 0;
}
static int nl_stream_open(bb_conn *c, const bb_stream_spec *spec, bb_err *err)
{
    (void)err;
    c->streamed = 0;
    c->ncols = spec->ncols;
    return 0;
}
static int nl_stream_write(bb_conn *c, const char *data, size_t len, bb_err *err)
{
    (void)data;
    (void)len;
    (void)err;
    (void)c;
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
    (void)c;
    (void)err;
    *rows = -1; /* unknown: the caller counts what it sent */
    return 0;
}
/* Pipeline: every row "executed" in one round trip that never leaves the process. */
static int nl_execute_pipeline(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err)
{
    (void)s;
    (void)rows;
    (void)err;
    if (affected) *affected = nrows;
    return 0;
}

static void put_be(bb_buf *out, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--) bb_buf_putc(out, (char)(v >> (i * 8)));
}

/* Binary rows shaped like PostgreSQL's (field count, then length + bytes per field), so
 * copy-binary here costs the runner what it costs against a server. */
static int nl_stream_encode(bb_conn *c, const bb_value *row, bb_buf *out, bb_err *err)
{
    (void)err;
    put_be(out, (uint64_t)c->ncols, 2);
    for (int i = 0; i < c->ncols; i++) {
        const bb_value *v = &row[i];
        switch (v->kind) {
        case BB_V_NULL: put_be(out, 0xffffffffu, 4); break;
        case BB_V_INT:
            put_be(out, 8, 4);
            put_be(out, (uint64_t)v->u.i, 8);
            break;
        case BB_V_DOUBLE: {
            uint64_t bits;
            memcpy(&bits, &v->u.d, sizeof bits);
            put_be(out, 8, 4);
            put_be(out, bits, 8);
            break;
        }
        default:
            put_be(out, v->len, 4);
            bb_buf_put(out, v->u.s, v->len);
            break;
        }
    }
    return 0;
}

static int nl_set_session(bb_conn *c, const char *n, const char *v, bb_err *err)
{
    (void)c;
    (void)n;
    (void)v;
    (void)err;
    return 0;
}
static int nl_server_info(bb_conn *c, bb_server_info *out, bb_err *err)
{
    (void)c;
    (void)err;
    (void)out;
    return 0;
}
static int nl_table_bytes(bb_conn *c, const char *table, int64_t *bytes, bb_err *err)
{
    (void)c;
    (void)table;
    (void)err;
    *bytes = -1;
    return 0;
}

const bb_driver bb_driver_null = {
    .name = "null",
    .summary = "does nothing: measures the runner's own cost",
    .default_method = "copy",
    .caps = BB_CAP_PREPARE | BB_CAP_TXN | BB_CAP_MULTIROW | BB_CAP_TEXTPROTO | BB_CAP_PIPELINE | BB_CAP_COPY_TEXT |
        BB_CAP_COPY_CSV | BB_CAP_COPY_BIN | BB_CAP_LOAD_DATA,
    .dialect = &bb_dialect_generic,
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
    .stream_encode = nl_stream_encode,
    .execute_pipeline = nl_execute_pipeline,
    .set_session = nl_set_session,
    .server_info = nl_server_info,
    .table_bytes = nl_table_bytes,
};
