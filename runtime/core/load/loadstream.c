#define _GNU_SOURCE /* memmem */
/* loadstream.c — one COPY / LOAD DATA of a byte range of an input file: read with pread
 * (or decompressed as it streams), rewritten into the engine's escaped text where the
 * file's rules differ from the server's (xcode.c), paced by --rate-limit, and abandoned
 * when the load stops or the input cannot be read, so nothing of it half-commits. */
#include "load_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "../../../base/buf.h"
#include "../../../base/clock.h"
#include "../../../base/err.h"
#include "xcode.h"

/* --rate-limit: n more bytes may go once the run's average would stay under the limit. */
static void pace_bytes(load_job *j, size_t n)
{
    int64_t sent = __atomic_add_fetch(&j->sent, (int64_t)n, __ATOMIC_RELAXED);
    if (j->rate_bps <= 0) return;
    uint64_t due = j->t0 + (uint64_t)((double)sent / j->rate_bps * 1e9);
    if (due > bb_now_ns()) bb_sleep_until_ns(due);
}

/* A transcoder for the chunk's stream when the engine is sent escaped text rewritten from
 * the file (load_files says when); NULL when the bytes go as they are. */
static xcode *load_xcode(const load_job *j, const chunk *k, xcode *x)
{
    if (!j->xcode) return NULL;
    int csv = j->fmt == BB_FMT_CSV;
    xcode_init(x, csv,
               j->o->delimiter ? j->o->delimiter
                   : csv       ? ','
                               : '\t',
               j->o->quote ? j->o->quote : '"', j->o->null, k->crlf);
    return x;
}

/* What the rewriting refused; err->row says which row of the stream, as a server's would. */
static int load_refused(load_job *j, const xcode *x, bb_err *err)
{
    bb_errf(err, "%s: %s", j->fmt == BB_FMT_CSV ? "CSV" : "TSV", x->bad);
    err->row = x->bad_row;
    return -1;
}

/* Hands n bytes of the file to the open stream, rewritten when x says so. A rewritten row
 * goes out once it has ended (in escaped text only row ends are raw newlines), so a row the
 * rewriting refuses leaves no part of itself in a LOAD DATA, which keeps what it was sent. */
static int load_send(load_job *j, bb_conn *c, xcode *x, bb_buf *xb, const char *p, size_t n, bb_err *err)
{
    pace_bytes(j, n);
    if (!x) return j->drv->stream_write(c, p, n, err);
    size_t held = xb->len;
    xcode_feed(x, p, n, xb);
    if (x->bad) return load_refused(j, x, err);
    const char *nl = xb->len > held ? memrchr(xb->p + held, '\n', xb->len - held) : NULL;
    if (!nl) return 0;
    size_t ended = (size_t)(nl + 1 - xb->p);
    int rc = j->drv->stream_write(c, xb->p, ended, err);
    memmove(xb->p, xb->p + ended, xb->len - ended);
    xb->len -= ended;
    return rc;
}

/* The end of a rewritten stream: a CSV file may not end inside quotes. */
static int load_send_end(load_job *j, bb_conn *c, const chunk *k, xcode *x, bb_buf *xb, bb_err *err)
{
    if (!x) return 0;
    if (xcode_end(x, xb) < 0)
        return bb_errf(err,
                       "%s ends inside a quoted field (in the rows from line %lld): the file is cut short or malformed",
                       j->paths[k->file], (long long)k->first_line);
    if (x->bad) return load_refused(j, x, err);
    return xb->len ? j->drv->stream_write(c, xb->p, xb->len, err) : 0;
}

/* The error a chunk cut short by a stop ends with (its stream is then abandoned). */
static int load_stopped(load_job *j, bb_err *err)
{
    (void)j;
    return bb_errf(err, "interrupted: the chunk in flight was rolled back");
}

/* Streams a compressed file, decompressing as it goes; the header line, if any, is dropped. */
static int stream_compressed(load_job *j, bb_conn *c, const chunk *k, stats_thread *st, bb_err *err)
{
    const char *path = j->paths[k->file];
    char *out = bb_xmalloc(READ_PIECE), *in = bb_xmalloc(READ_PIECE);
    int rc = 0, bom = 1;
    int64_t skip = k->skip;
    char last = '\n';
    gzFile g = NULL;
    ZSTD_DCtx *z = NULL;
    ZSTD_inBuffer zi = { in, 0, 0 };
    off_t pos = 0;
    xcode xs, *x = load_xcode(j, k, &xs);
    bb_buf xb = { 0 };
    if (k->codec == CODEC_GZIP) {
        int fd = dup(j->fds[k->file]);
        if (fd < 0 || !(g = gzdopen(fd, "rb"))) rc = bb_errf(err, "%s: cannot read gzip data", path);
    } else if (!(z = ZSTD_createDCtx())) {
        rc = bb_errf(err, "%s: out of memory for zstd", path);
    }
    for (;;) {
        size_t n = 0;
        if (rc < 0) break;
        if (pool_stopping(&j->pool)) {
            rc = load_stopped(j, err);
            break;
        }
        if (g) {
            int r = gzread(g, out, READ_PIECE);
            if (r < 0) {
                int e;
                rc = bb_errf(err, "%s: %s", path, gzerror(g, &e));
                break;
            }
            n = (size_t)r;
            if (n == 0) break;
        } else {
            if (zi.pos == zi.size) {
                ssize_t r = pread(j->fds[k->file], in, READ_PIECE, pos);
                if (r < 0) {
                    rc = bb_errf(err, "reading %s: %s", path, strerror(errno));
                    break;
                }
                if (r == 0) break;
                pos += r;
                zi.size = (size_t)r;
                zi.pos = 0;
            }
            ZSTD_outBuffer zo = { out, READ_PIECE, 0 };
            size_t ret = ZSTD_decompressStream(z, &zo, &zi);
            if (ZSTD_isError(ret)) {
                rc = bb_errf(err, "%s: %s", path, ZSTD_getErrorName(ret));
                break;
            }
            n = zo.pos;
            if (n == 0) continue;
        }
        stats_add(st, 0, (uint64_t)n);
        char *p = out;
        if (bom && n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) {
            p += 3;
            n -= 3;
        } /* a byte order mark is not data */
        bom = 0;
        while (skip > 0 && n > 0) { /* drop the header and skipped lines */
            char *nl = memchr(p, '\n', n);
            if (!nl) {
                n = 0;
                break;
            }
            skip--;
            n -= (size_t)(nl + 1 - p);
            p = nl + 1;
        }
        if (n == 0) continue;
        last = p[n - 1];
        rc = load_send(j, c, x, &xb, p, n, err);
    }
    if (rc == 0 && last != '\n') rc = load_send(j, c, x, &xb, "\n", 1, err);
    if (rc == 0) rc = load_send_end(j, c, k, x, &xb, err);
    bb_buf_free(&xb);
    if (g) gzclose(g);
    ZSTD_freeDCtx(z);
    free(out);
    free(in);
    return rc;
}

static int load_open(load_job *j, bb_conn *c, const chunk *k, bb_err *err)
{
    bb_stream_spec spec = { .table = j->table_q, .columns = j->columns, .format = j->wire, .name = j->table };
    if (!j->xcode) { /* the file's own bytes: the server must know their separators (rewritten ones are plain) */
        spec.delimiter = j->o->delimiter;
        spec.quote = j->o->quote;
        spec.null = j->o->null;
        spec.crlf = k->crlf > 0;
    }
    return j->drv->stream_open(c, &spec, err);
}

static int load_range(load_job *j, bb_conn *c, const chunk *k, off_t start, off_t end, stats_thread *st, bb_err *err)
{
    char *buf = bb_xmalloc(READ_PIECE + 2);
    off_t pos = start;
    int rc = 0;
    xcode xs, *x = load_xcode(j, k, &xs);
    bb_buf xb = { 0 };
    while (pos < end && rc == 0) {
        if (pool_stopping(&j->pool)) {
            rc = load_stopped(j, err);
            break;
        }
        size_t want = (size_t)(end - pos < READ_PIECE ? end - pos : READ_PIECE);
        ssize_t n = pread(j->fds[k->file], buf, want, pos);
        if (n <= 0) {
            rc = bb_errf(err, "reading %s: %s", j->paths[k->file], n < 0 ? strerror(errno) : "short file");
            break;
        }
        size_t len = (size_t)n;
        pos += n;
        if (pos == end && buf[len - 1] != '\n') { /* COPY and LOAD want the last row ended, in the file's style */
            int crlf = k->crlf > 0 || (k->crlf < 0 && memmem(buf, len, "\r\n", 2));
            if (crlf && buf[len - 1] != '\r') buf[len++] = '\r';
            buf[len++] = '\n';
        }
        rc = load_send(j, c, x, &xb, buf, len, err);
        stats_add(st, 0, (uint64_t)n);
    }
    if (rc == 0) rc = load_send_end(j, c, k, x, &xb, err);
    bb_buf_free(&xb);
    free(buf);
    return rc;
}

int load_stream(load_job *j, bb_conn *c, const chunk *k, off_t start, off_t end, stats_thread *st, int64_t *rows,
                bb_err *err)
{
    *rows = -1;
    if (load_open(j, c, k, err) < 0) return -1;
    int rc = k->codec != CODEC_NONE ? stream_compressed(j, c, k, st, err) : load_range(j, c, k, start, end, st, err);
    if (rc == 0) return j->drv->stream_close(c, rows, err);
    j->drv->stream_abort(c, err->msg, rows); /* every streaming engine has one (bb_driver_check) */
    return -1;
}
