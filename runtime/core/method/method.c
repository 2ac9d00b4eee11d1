/* method.c — the method table and the loops that drive its batches: claim rows from the
 * pool, pace, send, commit as the method promises, count and time every event. */
#include "method.h"
#include "../../../drivers/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../base/clock.h"
#include "once.h"
#include "produce.h"
#include "send.h"
#include "../../../base/err.h"

/* Every stream method streams the same way; only the encoding (fmt) differs. */
#define STREAM_OPS                                                                                                     \
    .loop = LOOP_STREAM, .send = send_stream, .open = send_stream_begin, .encode = send_stream_encode,                 \
    .close = send_stream_end, .pull = send_stream_pull

const bb_method bb_methods[] = {
    { .name = "insert",
      .summary = "one row per statement, prepared, autocommit",
      .needs = BB_CAP_PREPARE,
      .default_batch = 1,
      .loop = LOOP_ROW,
      .send = send_rows },
    { .name = "insert-simple",
      .summary = "one row per statement as literal SQL (text protocol), autocommit",
      .needs = BB_CAP_TEXTPROTO,
      .default_batch = 1,
      .loop = LOOP_ROW,
      .send = send_literal },
    { .name = "txn",
      .summary = "prepared single-row inserts, commit every --batch rows",
      .needs = BB_CAP_PREPARE | BB_CAP_TXN,
      .default_batch = 1000,
      .loop = LOOP_TXN,
      .send = send_rows },
    { .name = "multirow",
      .summary = "INSERT ... VALUES (..),(..): --batch rows per statement, bound parameters",
      .needs = BB_CAP_MULTIROW | BB_CAP_PREPARE,
      .default_batch = 1000,
      .loop = LOOP_OVERLAP,
      .send = send_multirow,
      .fill = send_fill,
      .start = send_multirow_start,
      .usable = send_multirow_usable },
    { .name = "pipeline",
      .summary = "prepared single-row inserts, --batch per round trip and transaction (pg pipeline mode, MariaDB "
                 "and ODBC array binding)",
      .needs = BB_CAP_PREPARE | BB_CAP_PIPELINE,
      .default_batch = 1000,
      .loop = LOOP_BATCH,
      .send = send_pipeline },
    { .name = "copy",
      .summary = "COPY FROM STDIN, text format; one COPY per --batch rows or per worker",
      .needs = BB_CAP_COPY_TEXT,
      .fmt = BB_FMT_COPY,
      STREAM_OPS },
    { .name = "copy-csv",
      .summary = "COPY FROM STDIN, CSV format",
      .needs = BB_CAP_COPY_CSV,
      .fmt = BB_FMT_CSV,
      STREAM_OPS },
    { .name = "copy-binary",
      .summary = "COPY FROM STDIN, binary format",
      .needs = BB_CAP_COPY_BIN,
      .fmt = BB_FMT_BINARY,
      STREAM_OPS },
    { .name = "load",
      .summary = "LOAD DATA LOCAL INFILE streamed from the generator",
      .needs = BB_CAP_LOAD_DATA,
      .fmt = BB_FMT_LOAD_TEXT,
      STREAM_OPS },
    { .name = NULL },
};

const bb_method *method_find(const char *name)
{
    for (const bb_method *m = bb_methods; name && m->name; m++)
        if (strcmp(m->name, name) == 0) return m;
    return NULL;
}

int method_offered(const bb_method *m, const bb_driver *d) { return (d->caps & m->needs) == m->needs; }

int method_once_capable(const bb_method *m) { return m->loop != LOOP_ROW; }

int method_check_engine(const bb_driver *d, char *msg, size_t n)
{
    const bb_method *m = d->default_method ? method_find(d->default_method) : NULL;
    if (m && method_offered(m, d)) return 0;
    snprintf(msg, n, "engine %s's default method %s%s%s", d->name, d->default_method ? "'" : "(none)",
             d->default_method ? d->default_method : "", d->default_method ? "' is not one it offers" : "");
    return -1;
}

void method_names(const bb_driver *d, int once_only, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (const bb_method *m = bb_methods; m->name && len < n; m++)
        if (method_offered(m, d) && (!once_only || method_once_capable(m)))
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", m->name);
}

const bb_method *method_for_file(const bb_driver *d, bb_stream_fmt fmt)
{
    const bb_method *best = NULL;
    if (!db_streams(d)) return NULL;
    for (const bb_method *m = bb_methods; m->name; m++) {
        if (m->loop != LOOP_STREAM || !method_offered(m, d) || m->fmt == BB_FMT_BINARY) continue;
        if (m->fmt == BB_FMT_CSV && fmt != BB_FMT_CSV) continue; /* COPY's CSV reads only CSV files */
        if (!best || m->fmt == BB_FMT_CSV || (best->fmt == BB_FMT_LOAD_TEXT && m->fmt == BB_FMT_COPY)) best = m;
    }
    return best;
}

int method_streams_files(const bb_driver *d) { return method_for_file(d, BB_FMT_TSV) != NULL; }

int method_takes_batch(const bb_method *m) { return m && m->loop != LOOP_ROW; }

int64_t method_batch(const bb_method *m, int64_t given, int reconnect)
{
    if (!m) return given;
    if (!method_takes_batch(m)) return 1;
    if (given > 0) return given;
    if (m->loop == LOOP_STREAM && reconnect > 0) return 10000; /* only a batch can be retried */
    return m->default_batch;
}

/* An event began now, or at its scheduled time under --rate (latency counts from it). */
static uint64_t event_start(bb_loader *l)
{
    uint64_t sched = pool_pace(l->pt);
    return sched ? sched : bb_now_ns();
}

/* LOOP_ROW: every row its own autocommitted statement, and its own event. */
static int loop_rows(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    int64_t first, n;
    while ((n = pool_claim(l->pool, batch, &first)) > 0) {
        for (int64_t i = 0; i < n; i++) {
            uint64_t t0 = event_start(l);
            size_t bytes = 0;
            ms->committing = 1; /* autocommit: the statement is its commit */
            if (m->send(ms, first + i, 1, &bytes, err) < 0) return -1;
            ms->committing = 0;
            send_counted(ms, 1);
            pool_record(l->pt, t0, 1, bytes);
            if (pool_stopping(l->pool)) return 0; /* the rest of the claim stays unwritten, and uncounted */
        }
    }
    return 0;
}

/* LOOP_TXN and LOOP_BATCH: one transaction per batch, ours or the send's own. */
static int loop_batches(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    int own_txn = m->loop == LOOP_TXN;
    int64_t first, n;
    while ((n = pool_claim(l->pool, batch, &first)) > 0) {
        uint64_t t0 = event_start(l);
        size_t bytes = 0;
        if (own_txn && ms->drv->begin(l->conn, err) < 0) return -1;
        if (!own_txn) ms->committing = n; /* the send ends in its commit */
        if (m->send(ms, first, n, &bytes, err) < 0) {
            db_failed(ms->drv, l->conn, own_txn);
            return -1;
        }
        ms->committing = n;
        if (own_txn && ms->drv->commit(l->conn, err) < 0) return -1;
        ms->committing = 0;
        send_counted(ms, n);
        pool_record(l->pt, t0, (uint64_t)n, bytes);
    }
    return 0;
}

/* A statement sent but not yet answered (execute_send), and what it carries. */
typedef struct pending {
    bb_stmt *st;
    int64_t n;
    size_t bytes;
    uint64_t t0;
} pending;

/* Collects the answer of a pending statement; counts it when it committed. */
static int collect(mstate *ms, pending *pd, bb_err *err)
{
    if (!pd->st) return 0;
    ms->committing = pd->n;
    int rc = ms->drv->execute_wait(pd->st, NULL, err);
    pd->st = NULL; /* collected, whatever the outcome */
    if (rc < 0) return -1;
    ms->committing = 0;
    send_counted(ms, pd->n);
    pool_record(ms->ld->pt, pd->t0, (uint64_t)pd->n, pd->bytes);
    return 0;
}

/* LOOP_OVERLAP: while the server executes batch k the next batch is claimed and
 * generated (m->fill); m->start sends it without waiting, or runs it through when it
 * cannot be overlapped (then it comes back committed). */
static int loop_overlap(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    if (!db_async(ms->drv)) return loop_batches(m, ms, batch, err);
    pending pd = { 0 };
    int rc = 0;
    for (;;) {
        int64_t first = 0, n = pool_claim(l->pool, batch, &first);
        size_t bytes = 0;
        if (n && (rc = m->fill(ms, first, n, &bytes, err)) < 0) break; /* while the pending statement runs */
        if ((rc = collect(ms, &pd, err)) < 0 || n == 0) break;
        uint64_t t0 = event_start(l);
        bb_stmt *st = NULL;
        if ((rc = m->start(ms, n, bytes, &st, err)) < 0) break;
        if (st) {
            pd = (pending){ st, n, bytes, t0 };
            continue;
        }
        send_counted(ms, n); /* run through to its commit */
        pool_record(l->pt, t0, (uint64_t)n, bytes);
    }
    if (pd.st) { /* an error left a request in flight: collect it, and count it if it committed */
        bb_err ignore;
        collect(ms, &pd, &ignore);
    }
    return rc;
}

/* Abandons an open stream after a failure, so nothing partial commits. */
static void stream_abandon(mstate *ms)
{
    if (!ms->stream_open) return;
    int64_t kept;
    ms->drv->stream_abort(ms->ld->conn, "abandoned by bulkbench", &kept);
    ms->stream_open = 0;
}

/* Rows a worker claims at a time for its one stream (no --batch): few enough that the
 * workers finish together, many enough that claiming costs nothing. */
#define SHARE_CLAIM 10000

/* The end of a worker's streaming (rc: how it went so far): a stop ends the open stream
 * with the rows it has, recorded as one event of brows, bbytes since t0; after a failure,
 * its own or another worker's, the stream is abandoned so nothing partial commits. */
static int stream_finish(const bb_method *m, mstate *ms, int rc, uint64_t t0, int64_t brows, int64_t bbytes,
                         bb_err *err)
{
    bb_loader *l = ms->ld;
    if (rc == 0 && ms->stream_open && !pool_failed(l->pool)) {
        int64_t rows = ms->stream_rows;
        rc = m->close(ms, err);
        if (rc == 0 && rows > 0) pool_record(l->pt, t0, (uint64_t)brows, (uint64_t)bbytes);
    }
    stream_abandon(ms);
    return rc;
}

/* A pulled stream (LOAD DATA LOCAL): the engine asks for each buffer, and this thread
 * makes it then. No producer thread: the server takes rows hundreds of times slower than
 * they are made, so overlapping the two would save no time, and handing buffers between
 * threads costs context switches (~10 ms of CPU per 1M rows) and the buffers' trips
 * between the cores' caches. */
typedef struct pull_ctx {
    const bb_method *m;
    mstate *ms;
    int64_t claim;       /* rows per claim: the batch, or SHARE_CLAIM for a worker's whole share */
    int per_worker;      /* one stream for the share, not one per batch */
    int64_t first, left; /* rows claimed and not yet encoded */
    int64_t rows;        /* rows in the buffer handed over last, 0 when none is out */
    int64_t brows, bbytes;
    int abandoned, failed;
    bb_err err; /* failed: why */
} pull_ctx;

/* The engine has copied the last buffer: count it; then make the next one. 0 ends the
 * stream (the batch or the share done, a stop), -1 abandons it (an encoding failure here,
 * or another worker's: nothing partial may commit). */
static int pull_next(void *ud, const char **data, size_t *len)
{
    pull_ctx *x = ud;
    mstate *ms = x->ms;
    bb_loader *l = ms->ld;
    if (x->rows) {
        ms->stream_rows += x->rows;
        if (x->per_worker) pool_progress(l->pt, (uint64_t)x->rows, ms->buf.len);
        x->brows += x->rows;
        x->bbytes += (int64_t)ms->buf.len;
        x->rows = 0;
    }
    if (pool_failed(l->pool)) return x->abandoned = -1;
    if (x->left == 0 && (!x->per_worker || (x->left = pool_claim(l->pool, x->claim, &x->first)) == 0)) {
        ms->committing = ms->stream_rows; /* the end of the stream is its commit */
        return 0;
    }
    ms->buf.len = 0;
    int64_t k = x->m->encode(ms, (uint64_t)x->first, x->left, &ms->buf, PRODUCE_CHUNK, &x->err);
    if (k < 0) {
        x->failed = 1;
        return x->abandoned = -1;
    }
    x->first += k;
    x->left -= k;
    x->rows = k;
    *data = ms->buf.p;
    *len = ms->buf.len;
    return 1;
}

/* LOOP_STREAM for an engine that pulls: this thread runs each stream, and the engine's
 * reads make its rows; one stream per batch, or one for the worker's whole share. */
static int loop_pull(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    pull_ctx x = { .m = m, .ms = ms, .per_worker = batch == 0, .claim = batch == 0 ? SHARE_CLAIM : batch };
    int rc = 0;
    /* a stream opens once its first rows are claimed: none left, none opened */
    while (rc == 0 && !pool_failed(l->pool) && (x.left = pool_claim(l->pool, x.claim, &x.first)) > 0) {
        uint64_t sched = pool_pace(l->pt), t0 = sched ? sched : bb_now_ns();
        x.brows = x.bbytes = x.rows = 0;
        rc = m->pull(ms, pull_next, &x, err);
        if (x.failed) {
            *err = x.err;
            return -1;
        }
        if (x.abandoned) rc = 0; /* another worker failed */
        else if (rc == 0 && ms->stream_rows > 0)
            pool_record(l->pt, t0, (uint64_t)(x.per_worker ? 0 : x.brows), (uint64_t)(x.per_worker ? 0 : x.bbytes));
    }
    return rc;
}

/* One stream for the worker's whole share (no --batch), its rows made on this thread as
 * it sends them: the server takes them far slower than they are made, so a producer
 * thread would save no time, and its hand-overs cost CPU (12% of a 1M-row COPY's). With a
 * batch (a table whose values a script's function makes, which only this thread may
 * call), one stream per batch, each its own event. */
static int loop_share(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    int64_t first, n;
    uint64_t t0 = 0;
    int rc = 0;
    /* a stream opens once its first rows are claimed (binary COPY learns its types then) */
    while (rc == 0 && !pool_failed(l->pool) && (n = pool_claim(l->pool, batch ? batch : SHARE_CLAIM, &first)) > 0) {
        if (!ms->stream_open) {
            uint64_t sched = pool_pace(l->pt);
            t0 = sched ? sched : bb_now_ns();
            if ((rc = m->open(ms, err)) < 0) break;
        }
        size_t bytes = 0;
        if ((rc = send_stream_rows(ms, first, n, &bytes, err)) < 0) break;
        ms->stream_rows += n;
        if (!batch) pool_progress(l->pt, (uint64_t)n, bytes);
        else if ((rc = m->close(ms, err)) == 0) pool_record(l->pt, t0, (uint64_t)n, bytes);
    }
    return stream_finish(m, ms, rc, t0, 0, 0, err);
}

/* LOOP_STREAM (COPY, LOAD DATA) with --batch: a producer thread claims and encodes the
 * next batches while this thread sends and commits the current one (its commit's round
 * trip is then not spent waiting for rows); one stream per batch. */
static int loop_stream(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    if (!db_stream_pushes(ms->drv)) return loop_pull(m, ms, batch, err);
    if (batch == 0 || ms->t->bound) return loop_share(m, ms, batch, err);
    int64_t brows = 0, bbytes = 0;
    uint64_t t0 = 0;
    /* binary encoding needs the column types the stream's opening learns */
    if (m->fmt == BB_FMT_BINARY) {
        t0 = bb_now_ns();
        if (m->open(ms, err) < 0) return -1;
    }
    producer pr;
    if (produce_start(&pr, l->pool, batch, m->encode, ms) < 0)
        return bb_errf(err, "cannot start a producer thread");
    int rc = 0;
    produce_buf *b;
    while (rc == 0 && (b = produce_take(&pr))) {
        if (!ms->stream_open) {
            uint64_t sched = pool_pace(l->pt);
            t0 = sched ? sched : b->t_claim;
            rc = m->open(ms, err);
        }
        if (rc == 0) rc = ms->drv->stream_write(l->conn, b->data.p, b->data.len, err);
        if (rc == 0) {
            ms->stream_rows += b->rows;
            brows += b->rows;
            bbytes += (int64_t)b->data.len;
            if (b->batch_end && (rc = m->close(ms, err)) == 0) {
                pool_record(l->pt, t0, (uint64_t)brows, (uint64_t)bbytes);
                brows = bbytes = 0;
            }
        }
        produce_release(&pr);
        if (pool_failed(l->pool)) break; /* another worker failed: leave now */
    }
    produce_stop(&pr);
    if (rc == 0 && pr.failed) {
        *err = pr.err;
        rc = -1;
    }
    return stream_finish(m, ms, rc, t0, brows, bbytes, err); /* a batch cut short */
}

/* --reconnect: every batch synchronous, in one marked transaction (once.c). */
typedef struct once_ud {
    const bb_method *m;
    mstate *ms;
} once_ud;

static int once_send(void *ud, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    once_ud *o = ud;
    return o->m->send(o->ms, first, n, bytes, err);
}

static void once_reset(void *ud) { send_reset(((once_ud *)ud)->ms); }

static int loop_once(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    once_ud o = { m, ms };
    once_ops ops = { &o, once_send, once_reset };
    int64_t first, n;
    while ((n = pool_claim(l->pool, batch, &first)) > 0) {
        uint64_t t0 = event_start(l);
        size_t bytes = 0;
        if (once_batch(l, &ops, first, n, &bytes, err) < 0) return -1;
        send_counted(ms, n);
        pool_record(l->pt, t0, (uint64_t)n, bytes);
    }
    return 0;
}

static int (*const loops[])(const bb_method *, mstate *, int64_t, bb_err *) = {
    [LOOP_ROW] = loop_rows,        [LOOP_TXN] = loop_batches,   [LOOP_BATCH] = loop_batches,
    [LOOP_OVERLAP] = loop_overlap, [LOOP_STREAM] = loop_stream,
};

/* A strategy's one-transaction load (plan's txn_first: freeze): the worker's whole load in
 * one transaction that begins with that statement. Its rows commit at its COMMIT only, so
 * they count then, and none do when it rolls back. */
static int loop_in_txn(const bb_method *m, mstate *ms, int64_t batch, bb_err *err)
{
    bb_loader *l = ms->ld;
    int64_t before = l->committed;
    if (ms->drv->begin(l->conn, err) < 0) return -1;
    if (ms->drv->exec(l->conn, l->plan->txn_first, NULL, err) < 0) {
        db_failed(ms->drv, l->conn, 1);
        return -1;
    }
    int rc = loops[m->loop](m, ms, batch, err);
    int64_t rows = l->committed - before;
    l->committed = before; /* taken by the server, not yet committed */
    if (rc < 0 || pool_failed(l->pool)) {
        ms->committing = 0; /* only the COMMIT below commits: a session lost before it took none */
        db_failed(ms->drv, l->conn, 1);
        return rc;
    }
    ms->committing = rows;
    if (ms->drv->commit(l->conn, err) < 0) return -1;
    ms->committing = 0;
    send_counted(ms, rows);
    return 0;
}

int method_load(bb_loader *l, gen_table *t, bb_err *err)
{
    const bb_plan *p = l->plan;
    const bb_method *m = p->method;
    if (!m) return bb_usagef(err, "ctx:load() needs --method (see `bulkbench list`)");
    mstate ms;
    send_init(&ms, l, m->fmt, t);
    if (m->usable && m->usable(&ms, err) < 0) {
        send_done(&ms);
        return -1;
    }
    int once = p->reconnect > 0 && method_once_capable(m);
    int rc = once                ? loop_once(m, &ms, p->batch, err)
             : p->txn_first[0] ? loop_in_txn(m, &ms, p->batch, err)
                               : loops[m->loop](m, &ms, p->batch, err);
    /* a lost session may have committed what it was committing: say so, do not guess
     * (once_batch settles this itself) */
    if (rc < 0 && !once && ms.committing > 0 && db_failed(ms.drv, l->conn, 0) == DB_LOST) l->in_doubt = ms.committing;
    send_done(&ms);
    if (rc < 0) pool_fail(l->pool, err);
    return rc;
}
