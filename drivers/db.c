/* db.c — the driver layer: an engine's optional operations, or the default each stands for
 * (db.h). */
#include "db.h"
#include "../base/invariant.h"

/* driver.h's contract for an operation that failed: it said why (a message in *err). */
static int said(int rc, const bb_err *err)
{
    assert(rc == 0 || rc == -1);
    assert(rc == 0 || err->msg[0]);
    return rc;
}

int db_alive(const bb_driver *d, bb_conn *c) { return !d->alive || d->alive(c); }

db_failure db_failed(const bb_driver *d, bb_conn *c, int in_txn)
{
    if (!db_alive(d, c)) return DB_LOST;
    bb_err ignore;
    if (in_txn) d->rollback(c, &ignore);
    return DB_REFUSED;
}

int64_t db_max_statement_bytes(const bb_driver *d, bb_conn *c)
{
    return d->max_statement_bytes ? d->max_statement_bytes(c) : 0;
}

const char *db_system(const bb_driver *d, bb_conn *c) { return d->system && c ? d->system(c) : NULL; }

int db_async(const bb_driver *d) { return d->execute_send && d->execute_wait; }

int db_node_table_bytes(const bb_driver *d, bb_conn *c, const char *table, int n, int64_t *bytes, bb_err *err)
{
    return d->node_table_bytes ? d->node_table_bytes(c, table, n, bytes, err) : 0;
}

int db_stream_layout(const bb_driver *d, bb_conn *c, bb_stream_layout *out, bb_err *err)
{
    return d->stream_layout ? d->stream_layout(c, out, err) : 1;
}

int db_streams(const bb_driver *d) { return d->stream_pull || db_stream_pushes(d); }

int db_stream_pushes(const bb_driver *d) { return d->stream_open != NULL; }

/* The push default of db_stream_pull: each piece is written before the next is asked for,
 * so memory holds one piece, as with a pulling client library. */
static int db_stream_push(const bb_driver *d, bb_conn *c, const bb_stream_spec *spec, bb_stream_next_fn next, void *ud,
                          int64_t *rows, bb_err *err)
{
    *rows = 0;
    if (said(d->stream_open(c, spec, err), err) < 0) return -1;
    for (;;) {
        const char *data = NULL;
        size_t len = 0;
        int more = next(ud, &data, &len);
        if (more == 0) {
            int rc = said(d->stream_close(c, rows, err), err);
            /* driver.h: a close that failed committed none of the stream (0) or cannot say (-1) */
            assert(rc == 0 ? *rows >= -1 : *rows == 0 || *rows == -1);
            return rc;
        }
        if (more < 0 || (len && said(d->stream_write(c, data, len, err), err) < 0)) {
            int64_t kept = 0;
            d->stream_abort(c, more < 0 ? "abandoned by bulkbench" : "a write failed", &kept);
            *rows = 0;
            return -1;
        }
    }
}

int db_stream_pull(const bb_driver *d, bb_conn *c, const bb_stream_spec *spec, bb_stream_next_fn next, void *ud,
                   int64_t *rows, bb_err *err)
{
    int rc = d->stream_pull ? d->stream_pull(c, spec, next, ud, rows, err) : db_stream_push(d, c, spec, next, ud, rows, err);
    /* driver.h: 0 or -1, and the rows a count or -1 (a pulled statement the server ran but
     * complained of says the rows it took) */
    assert(rc == 0 || rc == -1);
    assert(*rows >= -1);
    return rc;
}
