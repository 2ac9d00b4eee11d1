/* send.c — one batch of each method, over driver.h: the statements it prepares once and
 * reuses, the rows it generates, and the send function of every row of bb_methods. */
#include "send.h"
#include "../../../drivers/db.h"

#include <stdlib.h>
#include <string.h>

#include "../gen/encode.h"
#include "produce.h"
#include "../../../base/err.h"
#include "../../../base/invariant.h"
#include "../../../base/buf.h"

void send_counted(mstate *ms, int64_t n)
{
    assert(n >= 0 && ms->committing == 0);
    ms->ld->committed += n;
}

/* The table the rows go to, quoted as the dialect quotes: schema.name when it names one. */
static void send_table_name(const mstate *ms, bb_buf *out)
{
    if (ms->t->schema) {
        dialect_quote(ms->dia, ms->t->schema, out);
        bb_buf_putc(out, '.');
    }
    dialect_quote(ms->dia, ms->t->name, out);
}

void send_init(mstate *ms, bb_loader *l, bb_stream_fmt fmt, gen_table *t)
{
    memset(ms, 0, sizeof *ms);
    ms->ld = l;
    ms->fmt = fmt;
    ms->drv = l->plan->drv;
    ms->dia = bb_target_dialect(l->plan->drv, l->target);
    ms->t = t;
    ms->row = gen_row_new(t);
    ms->enc = encrows_new(t, fmt, &(encrows_opts){ .dia = ms->dia, .drv = ms->drv, .conn = &l->conn });
    bb_buf *h = &ms->insert_head;
    bb_buf_puts(h, "INSERT INTO ");
    send_table_name(ms, h);
    bb_buf_puts(h, " (");
    dialect_quote_list(ms->dia, (const char *const *)t->colnames, t->ncols, h);
    bb_buf_puts(h, ") VALUES ");
}

void send_reset(mstate *ms)
{
    if (ms->enc) encrows_reset(ms->enc); /* a binary layout is the old session's */
    bb_stmt **st[] = { &ms->stmt, &ms->multi, &ms->tail };
    for (int i = 0; i < 3; i++) {
        if (*st[i]) ms->drv->finalize(*st[i]);
        *st[i] = NULL;
    }
    ms->multi_rows = ms->tail_rows = 0;
    ms->stream_open = 0;
}

void send_done(mstate *ms)
{
    send_reset(ms);
    free(ms->flat);
    gen_row_free(ms->row);
    encrows_free(ms->enc);
    for (int64_t i = 0; i < ms->nrows; i++) gen_row_free(ms->rows[i]);
    free(ms->rows);
    free(ms->vals);
    bb_buf_free(&ms->buf);
    bb_buf_free(&ms->insert_head);
}

/* Prepares the INSERT with nrows tuples of placeholders. */
static int prepare_rows(mstate *ms, int64_t nrows, bb_stmt **out, bb_err *err)
{
    int nc = ms->t->ncols;
    bb_buf sql = { 0 };
    bb_buf_put(&sql, ms->insert_head.p, ms->insert_head.len);
    for (int64_t r = 0; r < nrows; r++) {
        bb_buf_puts(&sql, r ? ",(" : "(");
        for (int i = 0; i < nc; i++) {
            if (i) bb_buf_putc(&sql, ',');
            dialect_param(ms->dia, (long)(r * nc + i + 1), &sql);
        }
        bb_buf_putc(&sql, ')');
    }
    bb_buf_putc(&sql, 0);
    bb_sqltype *types = bb_xmalloc(sizeof *types * (size_t)(nrows * nc));
    for (int64_t i = 0; i < nrows * nc; i++) types[i] = ms->t->types[i % nc];
    int rc = ms->drv->prepare(ms->ld->conn, sql.p, (int)(nrows * nc), types, out, err);
    free(types);
    bb_buf_free(&sql);
    return rc;
}

static int single_stmt(mstate *ms, bb_err *err) { return ms->stmt ? 0 : prepare_rows(ms, 1, &ms->stmt, err); }

static size_t row_bytes(const gen_table *t, const gen_row *r)
{
    size_t n = 0;
    for (int i = 0; i < t->ncols; i++) n += r->v[i].kind == BB_V_TEXT ? r->v[i].len : r->v[i].kind == BB_V_NULL ? 0 : 8;
    return n;
}

/* ---- the send functions ---- */

/* Each row as its own literal INSERT (the text/simple protocol). */
int send_literal(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    for (int64_t i = 0; i < n; i++) {
        if (gen_fill(ms->t, (uint64_t)(first + i), ms->row, err) < 0) return -1;
        ms->buf.len = 0;
        bb_buf_put(&ms->buf, ms->insert_head.p, ms->insert_head.len);
        enc_row(BB_FMT_SQL, ms->dia, ms->t, ms->row, &ms->buf);
        bb_buf_putc(&ms->buf, 0);
        *bytes += ms->buf.len - 1;
        if (ms->drv->exec(ms->ld->conn, ms->buf.p, NULL, err) < 0) return -1;
    }
    return 0;
}

/* One execution of the prepared single-row statement per row: inside the loop's
 * transaction (txn), or each its own autocommit (insert). */
int send_rows(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    if (single_stmt(ms, err) < 0) return -1;
    for (int64_t i = 0; i < n; i++) {
        if (gen_fill(ms->t, (uint64_t)(first + i), ms->row, err) < 0) return -1;
        *bytes += row_bytes(ms->t, ms->row);
        if (ms->drv->execute(ms->stmt, ms->row->v, NULL, err) < 0) return -1;
    }
    return 0;
}

/* Generates rows [first, first+n) into ms->rows and a flat array of their values. */
int send_fill(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    int nc = ms->t->ncols;
    if (n > ms->nrows) {
        ms->rows = bb_xrealloc(ms->rows, sizeof *ms->rows * (size_t)n);
        ms->vals = bb_xrealloc(ms->vals, sizeof *ms->vals * (size_t)n);
        ms->flat = bb_xrealloc(ms->flat, sizeof *ms->flat * (size_t)(n * nc));
        for (int64_t i = ms->nrows; i < n; i++) ms->rows[i] = gen_row_new(ms->t);
        ms->nrows = n;
    }
    for (int64_t i = 0; i < n; i++) {
        if (gen_fill(ms->t, (uint64_t)(first + i), ms->rows[i], err) < 0) return -1;
        *bytes += row_bytes(ms->t, ms->rows[i]);
        ms->vals[i] = ms->rows[i]->v;
        memcpy(ms->flat + i * nc, ms->rows[i]->v, sizeof *ms->flat * (size_t)nc);
    }
    return 0;
}

/* pipeline: the batch in one round trip (pg pipeline mode, MariaDB array binding) */
int send_pipeline(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    if (single_stmt(ms, err) < 0 || send_fill(ms, first, n, bytes, err) < 0) return -1;
    return ms->drv->execute_pipeline(ms->stmt, (int)n, (const bb_value *const *)ms->vals, NULL, err);
}

/* Rows per multirow statement: the engine's parameter limit, and no statement larger
 * than the server takes in one packet (values plus ~16 bytes of framing each, with a
 * fifth to spare). */
int64_t send_multirow_per(mstate *ms, int64_t n, size_t bytes)
{
    int nc = ms->t->ncols;
    int64_t per = n;
    if (ms->dia->max_params && per * nc > ms->dia->max_params) per = ms->dia->max_params / nc;
    if (ms->dia->max_rows > 0 && per > ms->dia->max_rows) per = ms->dia->max_rows;
    int64_t max = db_max_statement_bytes(ms->drv, ms->ld->conn);
    int64_t est = (int64_t)bytes + n * nc * 16;
    if (max > 0 && est > max * 4 / 5) {
        int64_t fit = n * (max * 4 / 5) / est;
        if (fit < 1) fit = 1;
        if (fit < per) per = fit;
    }
    return per;
}

/* The prepared statement for k tuples: one for full pieces, one for an odd last piece. */
int send_multirow_stmt(mstate *ms, int64_t k, bb_stmt **out, bb_err *err)
{
    if (ms->multi_rows == 0) ms->multi_rows = k;
    if (k == ms->multi_rows) {
        if (!ms->multi && prepare_rows(ms, k, &ms->multi, err) < 0) return -1;
        *out = ms->multi;
        return 0;
    }
    if (ms->tail_rows != k) {
        if (ms->tail) ms->drv->finalize(ms->tail);
        ms->tail = NULL;
        ms->tail_rows = k;
    }
    if (!ms->tail && prepare_rows(ms, k, &ms->tail, err) < 0) return -1;
    *out = ms->tail;
    return 0;
}

/* The generated rows as statements of at most `per` tuples with bound parameters. */
int send_multirow_pieces(mstate *ms, int64_t n, int64_t per, bb_err *err)
{
    int nc = ms->t->ncols;
    for (int64_t at = 0; at < n; at += per) {
        int64_t k = n - at < per ? n - at : per;
        bb_stmt *st;
        if (send_multirow_stmt(ms, k, &st, err) < 0 || ms->drv->execute(st, ms->flat + at * nc, NULL, err) < 0)
            return -1;
    }
    return 0;
}

/* The filled rows as one autocommitted statement, or as pieces in one transaction. */
static int multirow_run(mstate *ms, int64_t n, int64_t per, bb_err *err)
{
    int several = n > per;
    if (!several) ms->committing = n;
    if (several && ms->drv->begin(ms->ld->conn, err) < 0) return -1;
    if (send_multirow_pieces(ms, n, per, err) < 0) {
        db_failed(ms->drv, ms->ld->conn, several);
        return -1;
    }
    ms->committing = n;
    if (several && ms->drv->commit(ms->ld->conn, err) < 0) return -1;
    ms->committing = 0;
    return 0;
}

/* multirow, the exactly-once path: the batch as INSERTs of many rows, split at the
 * engine's limits, inside the marked transaction around it */
int send_multirow(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    size_t b = 0;
    if (send_fill(ms, first, n, &b, err) < 0) return -1;
    *bytes += b;
    return send_multirow_pieces(ms, n, send_multirow_per(ms, n, b), err);
}

/* multirow, the filled rows: sent without waiting when they fit one statement and the
 * engine can (*pending), else run through to their commit. */
int send_multirow_start(mstate *ms, int64_t n, size_t bytes, bb_stmt **pending, bb_err *err)
{
    int64_t per = send_multirow_per(ms, n, bytes);
    *pending = NULL;
    if (per < n || !db_async(ms->drv)) return multirow_run(ms, n, per, err);
    bb_stmt *st;
    if (send_multirow_stmt(ms, n, &st, err) < 0) return -1;
    ms->committing = n; /* from here the server may commit it */
    if (ms->drv->execute_send(st, ms->flat, err) < 0) return -1;
    ms->committing = 0;
    *pending = st;
    return 0;
}

int send_multirow_usable(const mstate *ms, bb_err *err)
{
    if (ms->dia->max_rows >= 0) return 0;
    return bb_usagef(err, "%s %s: %s takes no multi-row VALUES lists; use --method=pipeline (array binding) or txn",
                     ms->drv->name, ms->drv->target_where(ms->ld->target), ms->dia->name);
}

/* ---- streams ---- */

/* The stream of the table's rows: spec, pointing into name and cols (freed by the caller). */
static void stream_spec(mstate *ms, bb_stream_spec *spec, bb_buf *name, bb_buf *cols)
{
    send_table_name(ms, name);
    bb_buf_putc(name, 0);
    bb_buf_putc(cols, '(');
    dialect_quote_list(ms->dia, (const char *const *)ms->t->colnames, ms->t->ncols, cols);
    bb_buf_puts(cols, ")");
    bb_buf_putc(cols, 0);
    *spec = (bb_stream_spec){ .table = name->p,
                              .columns = cols->p,
                              .format = ms->fmt,
                              .name = ms->t->name,
                              .ncols = ms->t->ncols,
                              .colnames = (const char *const *)ms->t->colnames,
                              .option = ms->ld->plan->stream_option[0] ? ms->ld->plan->stream_option : NULL };
}

int send_stream_begin(mstate *ms, bb_err *err)
{
    assert(!ms->stream_open); /* one stream at a time on a session */
    bb_buf name = { 0 }, cols = { 0 };
    bb_stream_spec spec;
    stream_spec(ms, &spec, &name, &cols);
    int rc = ms->drv->stream_open(ms->ld->conn, &spec, err);
    bb_buf_free(&name);
    bb_buf_free(&cols);
    ms->stream_rows = 0;
    ms->stream_open = rc == 0;
    return rc;
}

/* A stream has ended (rc, rows: its close's outcome); its rows count as committed only
 * once the server took them all. */
static int stream_ended(mstate *ms, int rc, int64_t rows, bb_err *err)
{
    if (rc < 0) {
        if (rows >= 0) ms->committing = 0;    /* taken, or none of it can have committed */
        if (rows > 0) send_counted(ms, rows); /* taken, but with complaints (LOAD DATA warnings) */
        return -1;
    }
    ms->committing = 0;
    if (bb_stream_took(ms->drv, rows, ms->stream_rows, "a stream", err) < 0) return -1;
    send_counted(ms, ms->stream_rows);
    return 0;
}

/* Ends the open stream. */
int send_stream_end(mstate *ms, bb_err *err)
{
    int64_t rows = -1;
    ms->stream_open = 0;
    ms->committing = ms->stream_rows; /* the end of the stream is its commit */
    int rc = ms->drv->stream_close(ms->ld->conn, &rows, err);
    return stream_ended(ms, rc, rows, err);
}

int send_stream_pull(mstate *ms, bb_stream_next_fn next, void *ud, bb_err *err)
{
    bb_buf name = { 0 }, cols = { 0 };
    bb_stream_spec spec;
    stream_spec(ms, &spec, &name, &cols);
    int64_t rows = -1;
    ms->stream_rows = 0;
    int rc = db_stream_pull(ms->drv, ms->ld->conn, &spec, next, ud, &rows, err);
    bb_buf_free(&name);
    bb_buf_free(&cols);
    return stream_ended(ms, rc, rows, err);
}

/* Rows into the stream's format (see produce_encode_fn), the one way rows become bytes
 * (encrows.h). Runs in a producer thread, or in the worker for the exactly-once path,
 * never both at once. */
int64_t send_stream_encode(void *ud, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err)
{
    mstate *ms = ud;
    return encrows_put(ms->enc, first, n, out, limit, err);
}

int send_stream_rows(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    for (int64_t i = 0; i < n;) {
        ms->buf.len = 0;
        int64_t k = send_stream_encode(ms, (uint64_t)(first + i), n - i, &ms->buf, PRODUCE_CHUNK, err);
        if (k < 0 || ms->drv->stream_write(ms->ld->conn, ms->buf.p, ms->buf.len, err) < 0) return -1;
        *bytes += ms->buf.len;
        i += k;
    }
    return 0;
}

/* send_stream's source: rows [first, first + n) encoded a piece at a time into ms->buf. */
typedef struct batch_src {
    mstate *ms;
    uint64_t first;
    int64_t left;
    size_t *bytes;
    int failed;
    bb_err err;
} batch_src;

static int batch_next(void *ud, const char **data, size_t *len)
{
    batch_src *b = ud;
    if (b->left == 0) return 0;
    b->ms->buf.len = 0;
    int64_t k = send_stream_encode(b->ms, b->first, b->left, &b->ms->buf, PRODUCE_CHUNK, &b->err);
    if (k < 0) return b->failed = 1, -1;
    b->first += (uint64_t)k;
    b->left -= k;
    *b->bytes += b->ms->buf.len;
    *data = b->ms->buf.p;
    *len = b->ms->buf.len;
    return 1;
}

/* One stream of the batch, generated and sent on this thread, however the engine takes a
 * stream (db_stream_pull): the exactly-once path, whose marked transaction around it
 * commits it, so the rows are not counted here. */
int send_stream(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    bb_buf name = { 0 }, cols = { 0 };
    bb_stream_spec spec;
    stream_spec(ms, &spec, &name, &cols);
    batch_src b = { .ms = ms, .first = (uint64_t)first, .left = n, .bytes = bytes };
    int64_t rows = -1;
    int rc = db_stream_pull(ms->drv, ms->ld->conn, &spec, batch_next, &b, &rows, err);
    bb_buf_free(&name);
    bb_buf_free(&cols);
    if (rc < 0 && b.failed) *err = b.err;
    return rc < 0 ? -1 : bb_stream_took(ms->drv, rows, n, "a stream", err);
}
