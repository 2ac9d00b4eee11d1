/* method.c — single-row, transactional, multi-row and streaming loads over driver.h. */
#include "method.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "encode.h"
#include "once.h"
#include "produce.h"

const bb_method bb_methods[] = {
    { "insert", "one row per statement, prepared, autocommit", BB_CAP_PREPARE, 1, MK_ROW, 1, 0 },
    { "insert-simple", "one row per statement as literal SQL (text protocol), autocommit", BB_CAP_TEXTPROTO, 1,
      MK_ROW, 0, 0 },
    { "txn", "prepared single-row inserts, commit every --batch rows", BB_CAP_PREPARE | BB_CAP_TXN, 1000, MK_TXN, 1,
      0 },
    { "multirow", "INSERT ... VALUES (..),(..): --batch rows per statement, bound parameters", BB_CAP_MULTIROW, 1000,
      MK_MULTIROW, 0, 0 },
    { "pipeline", "prepared single-row inserts, --batch per round trip and transaction (pg pipeline mode, MariaDB and ODBC array binding)",
      BB_CAP_PREPARE | BB_CAP_PIPELINE, 1000, MK_PIPELINE, 1, 0 },
    { "copy", "COPY FROM STDIN, text format; one COPY per --batch rows or per worker", BB_CAP_COPY_TEXT, 0,
      MK_STREAM, 0, BB_FMT_COPY },
    { "copy-csv", "COPY FROM STDIN, CSV format", BB_CAP_COPY_CSV, 0, MK_STREAM, 0, BB_FMT_CSV },
    { "copy-binary", "COPY FROM STDIN, binary format", BB_CAP_COPY_BIN, 0, MK_STREAM, 0, BB_FMT_BINARY },
    { "load", "LOAD DATA LOCAL INFILE streamed from the generator", BB_CAP_LOAD_DATA, 0, MK_STREAM, 0, BB_FMT_LOAD_TEXT },
    { NULL, NULL, 0, 0, 0, 0, 0 }
};

const bb_method *method_find(const char *name)
{
    for (const bb_method *m = bb_methods; m->name; m++)
        if (strcmp(m->name, name) == 0) return m;
    return NULL;
}

int method_offered(const bb_method *m, const bb_driver *d) { return (d->caps & m->needs) == m->needs; }

int64_t method_batch(const bb_plan *p)
{
    if (p->batch > 0) return p->batch;
    const bb_method *m = p->method ? method_find(p->method) : NULL;
    if (m && m->kind == MK_STREAM && p->reconnect > 0) return 10000; /* only a batch can be retried */
    return m ? m->default_batch : 0;
}

/* ---- per-worker state of one load ---- */

typedef struct mstate {
    bb_worker        *w;
    const bb_driver  *drv;
    const bb_dialect *dia;
    gen_table        *t;
    gen_row          *row;
    bb_buf            buf;
    bb_buf            insert_head;  /* "INSERT INTO t (a,b) VALUES " */
    bb_stmt          *stmt;
    bb_stream_fmt     fmt;
    gen_row         **rows;         /* pipeline, multirow: the generated rows of a batch */
    bb_value        **vals;         /* their value arrays */
    bb_value         *flat;         /* multirow: all their values in one array */
    int64_t           nrows;
    bb_stmt          *multi, *tail; /* multirow: statements for full pieces and the odd last one */
    int64_t           multi_rows, tail_rows;
    int               stream_open;
    int64_t           stream_rows;  /* rows written into the open stream */
    int64_t           committing;   /* rows whose commit is under way: in doubt if the session dies now */
    int               kind;         /* the method's MK_* */
} mstate;

static void quote_ident(const bb_dialect *d, const char *name, bb_buf *out)
{
    bb_buf_putc(out, d->ident_quote);
    for (const char *p = name; *p; p++) {
        if (*p == d->ident_quote) bb_buf_putc(out, *p);
        bb_buf_putc(out, *p);
    }
    bb_buf_putc(out, d->ident_quote);
}

static void column_list(mstate *ms, bb_buf *out)
{
    bb_buf_putc(out, '(');
    for (int i = 0; i < ms->t->ncols; i++) {
        if (i) bb_buf_putc(out, ',');
        quote_ident(ms->dia, ms->t->colnames[i], out);
    }
    bb_buf_putc(out, ')');
}

/* Prepares INSERT ... VALUES with nrows tuples of placeholders. */
static int prepare_rows(mstate *ms, int64_t nrows, bb_stmt **out, bb_err *err)
{
    int nc = ms->t->ncols;
    bb_buf sql = { 0 };
    bb_buf_put(&sql, ms->insert_head.p, ms->insert_head.len);
    for (int64_t r = 0; r < nrows; r++) {
        bb_buf_puts(&sql, r ? ",(" : "(");
        for (int i = 0; i < nc; i++) {
            if (i) bb_buf_putc(&sql, ',');
            if (ms->dia->param_dollar) bb_buf_printf(&sql, "$%lld", (long long)(r * nc + i + 1));
            else bb_buf_putc(&sql, '?');
        }
        bb_buf_putc(&sql, ')');
    }
    bb_buf_putc(&sql, 0);
    bb_sqltype *types = bb_xmalloc(sizeof *types * (size_t)(nrows * nc));
    for (int64_t i = 0; i < nrows * nc; i++) types[i] = ms->t->types[i % nc];
    int rc = ms->drv->prepare(ms->w->conn, sql.p, (int)(nrows * nc), types, out, err);
    free(types);
    bb_buf_free(&sql);
    return rc;
}

static int open_insert(mstate *ms, int prepared, bb_err *err)
{
    bb_buf *h = &ms->insert_head;
    bb_buf_puts(h, "INSERT INTO ");
    quote_ident(ms->dia, ms->t->name, h);
    bb_buf_putc(h, ' ');
    column_list(ms, h);
    bb_buf_puts(h, " VALUES ");
    return prepared ? prepare_rows(ms, 1, &ms->stmt, err) : 0;
}

static size_t row_bytes(const gen_table *t, const gen_row *r)
{
    size_t n = 0;
    for (int i = 0; i < t->ncols; i++) n += r->v[i].kind == BB_V_TEXT ? r->v[i].len : r->v[i].kind == BB_V_NULL ? 0 : 8;
    return n;
}

/* insert: every row its own statement and transaction, so every row is an event */
static int do_insert(mstate *ms, int64_t first, int64_t n, bb_err *err)
{
    bb_worker *w = ms->w;
    for (int64_t i = 0; i < n; i++) {
        gen_fill(ms->t, (uint64_t)(first + i), ms->row);
        uint64_t sched = pool_pace(w->pt), t0 = bb_now_ns();
        size_t bytes;
        ms->committing = 1; /* autocommit: the statement is its commit */
        if (ms->stmt) {
            bytes = row_bytes(ms->t, ms->row);
            if (ms->drv->execute(ms->stmt, ms->row->v, NULL, err) < 0) return -1;
        } else {
            ms->buf.len = 0;
            bb_buf_put(&ms->buf, ms->insert_head.p, ms->insert_head.len);
            enc_row(BB_FMT_SQL, ms->dia, ms->t, ms->row, &ms->buf);
            bb_buf_putc(&ms->buf, 0);
            bytes = ms->buf.len - 1;
            if (ms->drv->exec(w->conn, ms->buf.p, NULL, err) < 0) return -1;
        }
        ms->committing = 0;
        w->committed++;
        pool_record(w->pt, sched ? sched : t0, 1, bytes);
        if (run_stopping(w->run)) return 0; /* the rest of the claim stays unwritten, and uncounted */
    }
    return 0;
}

/* Rows [first, first+n), one execution of the prepared single-row statement each. */
static int exec_rows(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    for (int64_t i = 0; i < n; i++) {
        gen_fill(ms->t, (uint64_t)(first + i), ms->row);
        *bytes += row_bytes(ms->t, ms->row);
        if (ms->drv->execute(ms->stmt, ms->row->v, NULL, err) < 0) return -1;
    }
    return 0;
}

static int do_txn(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    if (ms->drv->begin(ms->w->conn, err) < 0) return -1;
    if (exec_rows(ms, first, n, bytes, err) < 0) {
        bb_err ignore;
        ms->drv->rollback(ms->w->conn, &ignore);
        return -1;
    }
    ms->committing = n;
    if (ms->drv->commit(ms->w->conn, err) < 0) return -1;
    ms->committing = 0;
    return 0;
}

/* Generates rows [first, first+n) into ms->rows and a flat array of their values. */
static void fill_rows(mstate *ms, int64_t first, int64_t n, size_t *bytes)
{
    int nc = ms->t->ncols;
    if (n > ms->nrows) {
        ms->rows = realloc(ms->rows, sizeof *ms->rows * (size_t)n);
        ms->vals = realloc(ms->vals, sizeof *ms->vals * (size_t)n);
        ms->flat = realloc(ms->flat, sizeof *ms->flat * (size_t)(n * nc));
        for (int64_t i = ms->nrows; i < n; i++) ms->rows[i] = gen_row_new(ms->t);
        ms->nrows = n;
    }
    for (int64_t i = 0; i < n; i++) {
        gen_fill(ms->t, (uint64_t)(first + i), ms->rows[i]);
        *bytes += row_bytes(ms->t, ms->rows[i]);
        ms->vals[i] = ms->rows[i]->v;
        memcpy(ms->flat + i * nc, ms->rows[i]->v, sizeof *ms->flat * (size_t)nc);
    }
}

/* pipeline: a batch of generated rows, sent in one round trip */
static int do_pipeline(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    fill_rows(ms, first, n, bytes);
    ms->committing = n; /* one implicit transaction up to the sync */
    if (ms->drv->execute_pipeline(ms->stmt, (int)n, (const bb_value *const *)ms->vals, NULL, err) < 0) return -1;
    ms->committing = 0;
    return 0;
}

/* Rows per multirow statement: the engine's parameter limit, and no statement larger
 * than the server takes in one packet (values plus ~16 bytes of framing each, with a
 * fifth to spare). */
static int64_t multirow_per(mstate *ms, int64_t n, size_t bytes)
{
    int nc = ms->t->ncols;
    int64_t per = n;
    if (ms->dia->max_params && per * nc > ms->dia->max_params) per = ms->dia->max_params / nc;
    if (ms->dia->max_rows > 0 && per > ms->dia->max_rows) per = ms->dia->max_rows;
    int64_t max = ms->drv->max_statement_bytes ? ms->drv->max_statement_bytes(ms->w->conn) : 0;
    int64_t est = (int64_t)bytes + n * nc * 16;
    if (max > 0 && est > max * 4 / 5) {
        int64_t fit = n * (max * 4 / 5) / est;
        if (fit < 1) fit = 1;
        if (fit < per) per = fit;
    }
    return per;
}

/* The prepared statement for k tuples: one for full pieces, one for an odd last piece. */
static int multirow_stmt(mstate *ms, int64_t k, bb_stmt **out, bb_err *err)
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
static int multirow_pieces(mstate *ms, int64_t n, int64_t per, bb_err *err)
{
    int nc = ms->t->ncols;
    for (int64_t at = 0; at < n; at += per) {
        int64_t k = n - at < per ? n - at : per;
        bb_stmt *st;
        if (multirow_stmt(ms, k, &st, err) < 0 || ms->drv->execute(st, ms->flat + at * nc, NULL, err) < 0) return -1;
    }
    return 0;
}

/* multirow, the rows already generated: the pieces of one batch share a transaction. */
static int multirow_exec(mstate *ms, int64_t n, int64_t per, bb_err *err)
{
    int several = n > per;
    if (!several) ms->committing = n; /* one autocommitted statement */
    if (several && ms->drv->begin(ms->w->conn, err) < 0) return -1;
    if (multirow_pieces(ms, n, per, err) < 0) {
        if (several) {
            bb_err ignore;
            ms->drv->rollback(ms->w->conn, &ignore);
        }
        return -1;
    }
    if (several) {
        ms->committing = n;
        if (ms->drv->commit(ms->w->conn, err) < 0) return -1;
    }
    ms->committing = 0;
    return 0;
}

/* multirow for engines without prepare: literal VALUES lists. */
static int multirow_literal(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    bb_buf *b = &ms->buf;
    b->len = 0;
    bb_buf_put(b, ms->insert_head.p, ms->insert_head.len);
    for (int64_t i = 0; i < n; i++) {
        gen_fill(ms->t, (uint64_t)(first + i), ms->row);
        if (i) bb_buf_putc(b, ',');
        enc_row(BB_FMT_SQL, ms->dia, ms->t, ms->row, b);
    }
    bb_buf_putc(b, 0);
    *bytes = b->len - 1;
    return ms->drv->exec(ms->w->conn, b->p, NULL, err);
}

/* multirow: while the server executes batch k, the next batch is claimed and generated
 * (engines with execute_send); a batch that must be split runs its pieces in place. */
static int load_multirow(mstate *ms, int64_t batch, bb_err *err)
{
    bb_worker *w = ms->w;
    int overlap = ms->drv->execute_send && ms->drv->execute_wait;
    bb_stmt *pend = NULL;
    int64_t pend_n = 0;
    size_t pend_bytes = 0;
    uint64_t pend_t0 = 0;
    int rc = 0;
    for (;;) {
        int64_t first = 0, n = pool_claim(&w->run->pool, batch, &first);
        size_t bytes = 0;
        if (n && (ms->drv->caps & BB_CAP_PREPARE)) fill_rows(ms, first, n, &bytes); /* overlaps pend */
        if (pend) {
            ms->committing = pend_n;
            rc = ms->drv->execute_wait(pend, NULL, err);
            pend = NULL; /* collected, whatever the outcome */
            if (rc < 0) break;
            ms->committing = 0;
            w->committed += pend_n;
            pool_record(w->pt, pend_t0, (uint64_t)pend_n, pend_bytes);
            pend = NULL;
        }
        if (n == 0) break;
        uint64_t sched = pool_pace(w->pt), t0 = sched ? sched : bb_now_ns();
        if (!(ms->drv->caps & BB_CAP_PREPARE)) {
            rc = multirow_literal(ms, first, n, &bytes, err);
        } else {
            int64_t per = multirow_per(ms, n, bytes);
            if (overlap && per >= n) {
                if ((rc = multirow_stmt(ms, n, &pend, err)) < 0) { pend = NULL; break; }
                ms->committing = n; /* from here the server may commit it */
                if ((rc = ms->drv->execute_send(pend, ms->flat, err)) < 0) { pend = NULL; break; }
                ms->committing = 0;
                pend_n = n;
                pend_bytes = bytes;
                pend_t0 = t0;
                continue;
            }
            rc = multirow_exec(ms, n, per, err);
        }
        if (rc < 0) break;
        w->committed += n;
        pool_record(w->pt, t0, (uint64_t)n, bytes);
    }
    if (pend) { /* an error left a request in flight: collect it, and count it if it committed */
        bb_err ignore;
        ms->committing = pend_n;
        if (ms->drv->execute_wait(pend, NULL, &ignore) == 0) {
            ms->committing = 0;
            w->committed += pend_n;
        }
    }
    return rc;
}

static int stream_begin(mstate *ms, bb_err *err)
{
    bb_buf name = { 0 }, cols = { 0 };
    quote_ident(ms->dia, ms->t->name, &name);
    bb_buf_putc(&name, 0);
    column_list(ms, &cols);
    bb_buf_putc(&cols, 0);
    bb_stream_spec spec = { .table = name.p, .columns = cols.p, .format = ms->fmt, .name = ms->t->name,
                            .ncols = ms->t->ncols, .colnames = (const char *const *)ms->t->colnames };
    int rc = ms->drv->stream_open(ms->w->conn, &spec, err);
    bb_buf_free(&name);
    bb_buf_free(&cols);
    ms->stream_rows = 0;
    ms->stream_open = rc == 0;
    return rc;
}

/* Ends the open stream; its rows count as committed only once the server took them all. */
static int stream_end(mstate *ms, bb_err *err)
{
    int64_t rows = -1;
    ms->stream_open = 0;
    ms->committing = ms->stream_rows; /* the end of the stream is its commit */
    if (ms->drv->stream_close(ms->w->conn, &rows, err) < 0) {
        if (rows > 0) { /* taken, but with complaints (LOAD DATA warnings) */
            ms->w->committed += rows;
            ms->committing = 0;
        }
        return -1;
    }
    ms->committing = 0;
    if (rows >= 0 && rows != ms->stream_rows)
        return bb_errf(err, "%s: the server took %lld rows of a stream of %lld", ms->drv->name, (long long)rows,
                       (long long)ms->stream_rows);
    ms->w->committed += ms->stream_rows;
    return 0;
}

/* Runs in the producer thread: the engine's own encoder for binary COPY, ours otherwise. */
static int stream_encode_row(void *ud, const gen_row *row, bb_buf *out, bb_err *err)
{
    mstate *ms = ud;
    if (ms->fmt == BB_FMT_BINARY) return ms->drv->stream_encode(ms->w->conn, row->v, out, err);
    enc_row(ms->fmt, ms->dia, ms->t, row, out);
    return 0;
}

/* COPY / LOAD DATA: a producer thread claims and encodes rows while this thread sends
 * them; one stream per batch, or one for the worker's whole share without --batch. */
static int load_stream(mstate *ms, int64_t batch, bb_err *err)
{
    bb_worker *w = ms->w;
    int per_worker = batch == 0;
    int64_t brows = 0, bbytes = 0;
    uint64_t t0 = 0;
    /* binary encoding needs the column types the stream's opening learns */
    if (ms->fmt == BB_FMT_BINARY) {
        t0 = bb_now_ns();
        if (stream_begin(ms, err) < 0) return -1;
    }
    producer pr;
    if (produce_start(&pr, w, ms->t, per_worker ? 10000 : batch, stream_encode_row, ms) < 0)
        return bb_errf(err, "cannot start a producer thread");
    int rc = 0;
    produce_buf *b;
    while (rc == 0 && (b = produce_take(&pr))) {
        if (!ms->stream_open) {
            uint64_t sched = pool_pace(w->pt);
            t0 = sched ? sched : b->t_claim;
            rc = stream_begin(ms, err);
        }
        if (rc == 0) rc = ms->drv->stream_write(w->conn, b->data.p, b->data.len, err);
        if (rc == 0) {
            ms->stream_rows += b->rows;
            if (per_worker) pool_progress(w->pt, (uint64_t)b->rows, b->data.len);
            else {
                brows += b->rows;
                bbytes += (int64_t)b->data.len;
                if (b->batch_end && (rc = stream_end(ms, err)) == 0) {
                    pool_record(w->pt, t0, (uint64_t)brows, (uint64_t)bbytes);
                    brows = bbytes = 0;
                }
            }
        }
        produce_release(&pr);
        if (pool_failed(&w->run->pool)) break; /* another worker failed: leave now */
    }
    produce_stop(&pr);
    if (rc == 0 && pr.failed) {
        *err = pr.err;
        rc = -1;
    }
    /* a stop ends the stream with the rows it has; after a failure nothing partial commits */
    if (rc == 0 && ms->stream_open && !pool_failed(&w->run->pool)) {
        int64_t rows = ms->stream_rows; /* per worker: counted as they went; else a batch cut short */
        rc = stream_end(ms, err);
        if (rc == 0 && rows > 0) pool_record(w->pt, t0, (uint64_t)brows, (uint64_t)bbytes);
    } else if (ms->stream_open) {
        int64_t kept;
        ms->drv->stream_abort(w->conn, "abandoned by bulkbench", &kept);
        ms->stream_open = 0;
    }
    return rc;
}

/* ---- --reconnect: each batch synchronous, in a marked transaction (once.c) ---- */

static int once_stream(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    bb_conn *c = ms->w->conn;
    if (stream_begin(ms, err) < 0) return -1;
    ms->buf.len = 0;
    for (int64_t i = 0; i < n; i++) {
        gen_fill(ms->t, (uint64_t)(first + i), ms->row);
        if (stream_encode_row(ms, ms->row, &ms->buf, err) < 0) return -1;
        if (ms->buf.len >= PRODUCE_CHUNK || i == n - 1) {
            if (ms->drv->stream_write(c, ms->buf.p, ms->buf.len, err) < 0) return -1;
            *bytes += ms->buf.len;
            ms->buf.len = 0;
        }
    }
    int64_t rows = -1;
    ms->stream_open = 0;
    if (ms->drv->stream_close(c, &rows, err) < 0) return -1;
    if (rows >= 0 && rows != n)
        return bb_errf(err, "%s: the server took %lld rows of a stream of %lld", ms->drv->name, (long long)rows,
                       (long long)n);
    return 0;
}

static int once_body(void *ud, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    mstate *ms = ud;
    if ((ms->kind == MK_TXN || ms->kind == MK_PIPELINE) && !ms->stmt && prepare_rows(ms, 1, &ms->stmt, err) < 0)
        return -1;
    switch (ms->kind) {
    case MK_TXN: return exec_rows(ms, first, n, bytes, err);
    case MK_PIPELINE:
        fill_rows(ms, first, n, bytes);
        return ms->drv->execute_pipeline(ms->stmt, (int)n, (const bb_value *const *)ms->vals, NULL, err);
    case MK_MULTIROW:
        if (!(ms->drv->caps & BB_CAP_PREPARE)) return multirow_literal(ms, first, n, bytes, err);
        fill_rows(ms, first, n, bytes);
        return multirow_pieces(ms, n, multirow_per(ms, n, *bytes), err);
    default:
        return once_stream(ms, first, n, bytes, err);
    }
}

/* The statements belonged to the lost session. */
static void once_reset(void *ud)
{
    mstate *ms = ud;
    bb_stmt **st[] = { &ms->stmt, &ms->multi, &ms->tail };
    for (int i = 0; i < 3; i++) {
        if (*st[i]) ms->drv->finalize(*st[i]);
        *st[i] = NULL;
    }
    ms->multi_rows = ms->tail_rows = 0;
    ms->stream_open = 0;
}

static int load_once(mstate *ms, int64_t batch, bb_err *err)
{
    bb_worker *w = ms->w;
    once_ops ops = { ms, once_body, once_reset };
    while (!run_stopping(w->run)) {
        int64_t first, n = pool_claim(&w->run->pool, batch, &first);
        if (n == 0) break;
        uint64_t sched = pool_pace(w->pt), t0 = sched ? sched : bb_now_ns();
        size_t bytes = 0;
        if (once_batch(w, &ops, first, n, &bytes, err) < 0) return -1;
        w->committed += n;
        pool_record(w->pt, t0, (uint64_t)n, bytes);
    }
    return 0;
}

int method_load(bb_worker *w, gen_table *t, bb_err *err)
{
    const bb_plan *p = w->run->plan;
    const bb_method *m = p->method ? method_find(p->method) : NULL;
    if (!m) return bb_usagef(err, "ctx:load() needs --method (see `bulkbench list`)");
    mstate ms = { .w = w, .drv = p->drv, .dia = bb_target_dialect(p->drv, w->target), .t = t };
    if (m->kind == MK_MULTIROW && ms.dia->max_rows < 0)
        return bb_usagef(err, "%s %s: %s takes no multi-row VALUES lists; use --method=pipeline (array binding) or txn",
                         p->drv->name, p->drv->target_where(w->target), ms.dia->name);
    ms.row = gen_row_new(t);
    int64_t batch = method_batch(p);
    ms.fmt = m->fmt;
    ms.kind = m->kind;
    int once = p->reconnect > 0 && m->kind != MK_ROW, rc;
    if (once) {
        rc = open_insert(&ms, 0, err);
        if (rc == 0) rc = load_once(&ms, batch, err);
    } else {
        rc = m->kind == MK_STREAM ? load_stream(&ms, batch, err) : open_insert(&ms, m->prepared, err);
        if (rc == 0 && m->kind == MK_MULTIROW) rc = load_multirow(&ms, batch, err);
    }

    while (rc == 0 && !once && m->kind != MK_STREAM && m->kind != MK_MULTIROW && !run_stopping(w->run)) {
        int64_t first, n = pool_claim(&w->run->pool, batch, &first);
        if (n == 0) break;
        if (m->kind == MK_ROW) {
            rc = do_insert(&ms, first, n, err);
            continue;
        }
        uint64_t sched = pool_pace(w->pt), t0 = bb_now_ns();
        size_t bytes = 0;
        switch (m->kind) {
        case MK_TXN: rc = do_txn(&ms, first, n, &bytes, err); break;
        default: rc = do_pipeline(&ms, first, n, &bytes, err); break;
        }
        if (rc < 0) break;
        w->committed += n;
        pool_record(w->pt, sched ? sched : t0, (uint64_t)n, bytes);
    }
    if (ms.stmt) ms.drv->finalize(ms.stmt);
    if (ms.multi) ms.drv->finalize(ms.multi);
    if (ms.tail) ms.drv->finalize(ms.tail);
    free(ms.flat);
    gen_row_free(ms.row);
    for (int64_t i = 0; i < ms.nrows; i++) gen_row_free(ms.rows[i]);
    free(ms.rows);
    free(ms.vals);
    bb_buf_free(&ms.buf);
    bb_buf_free(&ms.insert_head);
    if (rc < 0) {
        /* a lost session may have committed what it was committing: say so, do not guess
         * (once_batch settles this itself) */
        if (!once && ms.committing > 0 && ms.drv->alive && !ms.drv->alive(w->conn)) w->in_doubt = ms.committing;
        pool_fail(&w->run->pool, err);
    }
    return rc;
}
