/* reject.c — --on-error=skip: a chunk the server refused is taken apart.
 *
 * The chunk's rows are found again (chunk.c, one chunk per row), then loaded in halves,
 * each half one COPY / LOAD DATA in its own transaction: a half the server takes is
 * committed, a refused half is split again, down to single rows. A refused single row is
 * rejected: its bytes go to the reject file as they were in the input, and its file, line
 * and the server's reason to PATH.log. k bad rows among n cost about 2k·log2(n) extra
 * statements, so a mostly good file loads at nearly full speed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunk.h"
#include "load_priv.h"
#include "../../../base/err.h"
#include "../../../base/buf.h"
#include "../../../base/clock.h"
#include "../../../drivers/db.h"

typedef struct rows {
    int64_t *start, *end, *line;
    int64_t n, cap;
} rows;

static void row_emit(void *ud, int64_t start, int64_t end, int64_t nrows, int64_t line, int crlf)
{
    (void)nrows, (void)crlf;
    rows *r = ud;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->start = bb_xrealloc(r->start, sizeof *r->start * (size_t)r->cap);
        r->end = bb_xrealloc(r->end, sizeof *r->end * (size_t)r->cap);
        r->line = bb_xrealloc(r->line, sizeof *r->line * (size_t)r->cap);
    }
    r->start[r->n] = start, r->end[r->n] = end, r->line[r->n] = line;
    r->n++;
}

/* The rows of the chunk's byte range, with the file lines they start at. */
static int find_rows(load_job *j, const chunk *k, rows *r, bb_err *err)
{
    chunk_scan sc;
    chunk_scan_init(&sc, load_chunk_mode(j), 0, -1, 1);
    if (j->o->quote) sc.quote = j->o->quote;
    sc.crlf = k->crlf; /* the file's first line said it, before this chunk */
    sc.pos = sc.start = sc.row_end = k->start;
    sc.line = sc.chunk_line = k->first_line;
    char *buf = bb_xmalloc(READ_PIECE);
    ssize_t n = 0;
    while (sc.pos < k->end) {
        size_t want = (size_t)(k->end - sc.pos < READ_PIECE ? k->end - sc.pos : READ_PIECE);
        if ((n = pread(j->fds[k->file], buf, want, (off_t)sc.pos)) <= 0) break;
        chunk_scan_feed(&sc, buf, (size_t)n, row_emit, r);
    }
    free(buf);
    if (n < 0) return bb_errf(err, "reading %s: %s", j->paths[k->file], strerror(errno));
    chunk_scan_end(&sc, row_emit, r);
    return 0;
}

/* Writes a refused row, as the input had it, and why. */
static void reject_row(load_job *j, const chunk *k, int64_t start, int64_t end, int64_t line, const char *why)
{
    __atomic_fetch_add(&j->rejected, 1, __ATOMIC_RELAXED);
    if (!j->reject) return;
    char *buf = bb_xmalloc((size_t)(end - start) + 1);
    ssize_t n = pread(j->fds[k->file], buf, (size_t)(end - start), start);
    pthread_mutex_lock(&j->mu);
    if (n > 0) {
        fwrite(buf, 1, (size_t)n, j->reject);
        if (buf[n - 1] != '\n') fputc('\n', j->reject);
    }
    fprintf(j->reject_log, "%s:%lld: %s\n", j->paths[k->file], (long long)line, why);
    pthread_mutex_unlock(&j->mu);
    free(buf);
}

/* Rows [lo, hi) in one transaction: 0 taken, 1 refused (rolled back), -1 the session failed. */
static int try_rows(load_job *j, bb_conn *c, const chunk *k, const rows *r, int64_t lo, int64_t hi, stats_thread *st,
                    bb_err *why)
{
    const bb_driver *d = j->drv;
    int64_t taken = -1;
    int rc = d->begin(c, why);
    if (rc == 0) rc = load_stream(j, c, k, (off_t)r->start[lo], (off_t)r->end[hi - 1], st, &taken, why);
    if (rc == 0 && taken >= 0 && taken != hi - lo)
        rc = bb_errf(why, "the server took %lld of %lld rows", (long long)taken, (long long)(hi - lo));
    if (rc == 0) rc = d->commit(c, why);
    if (rc == 0) return 0;
    return db_failed(d, c, 1) == DB_LOST ? -1 : 1;
}

static int bisect(load_job *j, bb_conn *c, const chunk *k, const rows *r, int64_t lo, int64_t hi, stats_thread *st,
                  bb_err *err)
{
    if (lo >= hi) return 0;
    int64_t limit = j->o->reject_limit;
    if (limit >= 0 && __atomic_load_n(&j->rejected, __ATOMIC_RELAXED) > limit)
        return bb_errf(err, "more than %lld rows were rejected (--reject-limit): the load stops", (long long)limit);
    bb_err why = { 0 };
    uint64_t t0 = bb_now_ns();
    int rc = try_rows(j, c, k, r, lo, hi, st, &why);
    if (rc < 0) {
        *err = why;
        return -1;
    }
    if (rc == 0) {
        __atomic_fetch_add(&j->committed, hi - lo, __ATOMIC_RELAXED);
        stats_record(st, bb_now_ns() - t0, (uint64_t)(hi - lo), 0);
        return 0;
    }
    if (hi - lo == 1) {
        reject_row(j, k, r->start[lo], r->end[lo], r->line[lo], why.msg);
        if (limit >= 0 && __atomic_load_n(&j->rejected, __ATOMIC_RELAXED) > limit)
            return bb_errf(err,
                           "more than %lld rows were rejected (--reject-limit): the load stops; the last: %s:%lld: %s",
                           (long long)limit, j->paths[k->file], (long long)r->line[lo], why.msg);
        return 0;
    }
    int64_t mid = lo + (hi - lo) / 2;
    if (bisect(j, c, k, r, lo, mid, st, err) < 0) return -1;
    return bisect(j, c, k, r, mid, hi, st, err);
}

int64_t load_row_line(load_job *j, const chunk *k, int64_t row)
{
    rows r = { 0 };
    bb_err ignore;
    int64_t line = -1;
    if (k->codec == CODEC_NONE && find_rows(j, k, &r, &ignore) == 0 && row >= 1 && row <= r.n) line = r.line[row - 1];
    free(r.start);
    free(r.end);
    free(r.line);
    return line;
}

int load_chunk_skipping(load_job *j, bb_conn *c, const chunk *k, stats_thread *st, bb_err *err)
{
    rows r = { 0 };
    int rc = find_rows(j, k, &r, err);
    if (rc == 0 && k->rows < 0) __atomic_fetch_add(&j->file_rows, r.n, __ATOMIC_RELAXED); /* an unscanned file */
    if (rc == 0 && r.n > 1) { /* the whole chunk was refused already: start with its halves */
        int64_t mid = r.n / 2;
        rc = bisect(j, c, k, &r, 0, mid, st, err);
        if (rc == 0) rc = bisect(j, c, k, &r, mid, r.n, st, err);
    } else if (rc == 0) {
        rc = bisect(j, c, k, &r, 0, r.n, st, err);
    }
    free(r.start);
    free(r.end);
    free(r.line);
    return rc;
}
