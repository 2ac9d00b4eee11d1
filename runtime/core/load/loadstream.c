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
#include "../../../drivers/db.h"

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

/* The error a chunk cut short by a stop ends with (its stream is then abandoned). */
static int load_stopped(load_job *j, bb_err *err)
{
    (void)j;
    return bb_errf(err, "interrupted: the chunk in flight was rolled back");
}

/* One stream's source: the chunk's bytes read (or decompressed) a piece at a time, the
 * header of a compressed file dropped, its last row ended, rewritten when the wire wants
 * it, and handed to the engine piece by piece (load_next) through db_stream_pull, however
 * the engine takes a stream (pushed COPY, pulled LOAD DATA LOCAL). */
typedef struct load_src {
    load_job *j;
    const chunk *k;
    stats_thread *st;
    off_t pos, end; /* the bytes of the file left to read (plain) */
    char *buf;      /* the piece read or decompressed */
    char *in;       /* zstd: compressed bytes read */
    gzFile g;
    ZSTD_DCtx *z;
    ZSTD_inBuffer zi;
    off_t zpos;
    int bom, nl_added, ended;
    int64_t skip; /* lines still to drop (compressed: the header and --skip-rows) */
    char last;    /* the last byte read: the stream must end its last row */
    xcode xs, *x;
    bb_buf xb;     /* rewritten bytes, from the last row end handed over on */
    size_t handed; /* bytes of xb handed over last: dropped at the next call */
    int failed;
    bb_err err;
} load_src;

static int src_fail(load_src *s) { return s->failed = 1, -1; }

/* The next piece of a compressed file, its byte order mark and skipped lines dropped:
 * 1 and *p, *n (n > 0); 0 at its end; -1 on failure. */
static int src_inflate(load_src *s, const char **p, size_t *n)
{
    const char *path = s->j->paths[s->k->file];
    for (;;) {
        size_t got = 0;
        if (s->g) {
            int r = gzread(s->g, s->buf, READ_PIECE);
            if (r < 0) {
                int e;
                bb_errf(&s->err, "%s: %s", path, gzerror(s->g, &e));
                return -1;
            }
            if (r == 0) return 0;
            got = (size_t)r;
        } else {
            if (s->zi.pos == s->zi.size) {
                ssize_t r = pread(s->j->fds[s->k->file], s->in, READ_PIECE, s->zpos);
                if (r < 0) return bb_errf(&s->err, "reading %s: %s", path, strerror(errno));
                if (r == 0) return 0;
                s->zpos += r;
                s->zi.size = (size_t)r;
                s->zi.pos = 0;
            }
            ZSTD_outBuffer zo = { s->buf, READ_PIECE, 0 };
            size_t ret = ZSTD_decompressStream(s->z, &zo, &s->zi);
            if (ZSTD_isError(ret)) return bb_errf(&s->err, "%s: %s", path, ZSTD_getErrorName(ret));
            got = zo.pos;
            if (got == 0) continue;
        }
        stats_add(s->st, 0, (uint64_t)got);
        char *q = s->buf;
        if (s->bom && got >= 3 && !memcmp(q, "\xef\xbb\xbf", 3)) { /* a byte order mark is not data */
            q += 3;
            got -= 3;
        }
        s->bom = 0;
        while (s->skip > 0 && got > 0) { /* drop the header and skipped lines */
            char *nl = memchr(q, '\n', got);
            if (!nl) {
                got = 0;
                break;
            }
            s->skip--;
            got -= (size_t)(nl + 1 - q);
            q = nl + 1;
        }
        if (got == 0) continue;
        *p = q;
        *n = got;
        return 1;
    }
}

/* The next piece of the chunk's byte range; the last one ends its row in the file's style
 * (COPY and LOAD want the last row ended). */
static int src_pread(load_src *s, const char **p, size_t *n)
{
    if (s->pos >= s->end) return 0;
    size_t want = (size_t)(s->end - s->pos < READ_PIECE ? s->end - s->pos : READ_PIECE);
    ssize_t r = pread(s->j->fds[s->k->file], s->buf, want, s->pos);
    if (r <= 0)
        return bb_errf(&s->err, "reading %s: %s", s->j->paths[s->k->file], r < 0 ? strerror(errno) : "short file");
    size_t len = (size_t)r;
    s->pos += r;
    stats_add(s->st, 0, (uint64_t)r);
    if (s->pos == s->end && s->buf[len - 1] != '\n') {
        int crlf = s->k->crlf > 0 || (s->k->crlf < 0 && memmem(s->buf, len, "\r\n", 2));
        if (crlf && s->buf[len - 1] != '\r') s->buf[len++] = '\r';
        s->buf[len++] = '\n';
    }
    *p = s->buf;
    *n = len;
    return 1;
}

/* The next piece of the input as the file has it: 1, 0 at its end, -1 on failure. */
static int src_read(load_src *s, const char **p, size_t *n)
{
    if (s->k->codec == CODEC_NONE) return src_pread(s, p, n);
    int r = src_inflate(s, p, n);
    if (r > 0) s->last = (*p)[*n - 1];
    if (r == 0 && s->last != '\n' && !s->nl_added) { /* the file's last row, ended */
        s->nl_added = 1;
        *p = "\n";
        *n = 1;
        return 1;
    }
    return r;
}

/* The end of a rewritten stream: a CSV file may not end inside quotes; what is left goes. */
static int src_tail(load_src *s, const char **data, size_t *len)
{
    if (!s->x) return 0;
    if (xcode_end(s->x, &s->xb) < 0) {
        bb_errf(&s->err, "%s ends inside a quoted field (in the rows from line %lld): the file is cut short or malformed",
                s->j->paths[s->k->file], (long long)s->k->first_line);
        return src_fail(s);
    }
    if (s->x->bad) return load_refused(s->j, s->x, &s->err), src_fail(s);
    if (!s->xb.len) return 0;
    *data = s->xb.p;
    *len = s->handed = s->xb.len;
    return 1;
}

/* bb_stream_next_fn: the next piece for the engine. A rewritten row goes out once it has
 * ended (in escaped text only row ends are raw newlines), so a row the rewriting refuses
 * leaves no part of itself in a LOAD DATA, which keeps what it was sent. */
static int load_next(void *ud, const char **data, size_t *len)
{
    load_src *s = ud;
    if (s->handed) { /* the engine has copied it */
        memmove(s->xb.p, s->xb.p + s->handed, s->xb.len - s->handed);
        s->xb.len -= s->handed;
        s->handed = 0;
    }
    while (!s->ended) {
        if (pool_stopping(&s->j->pool)) return load_stopped(s->j, &s->err), src_fail(s);
        const char *p = NULL;
        size_t n = 0;
        int r = src_read(s, &p, &n);
        if (r < 0) return src_fail(s);
        if (r == 0) {
            s->ended = 1;
            return src_tail(s, data, len);
        }
        pace_bytes(s->j, n);
        if (!s->x) {
            *data = p;
            *len = n;
            return 1;
        }
        size_t held = s->xb.len;
        xcode_feed(s->x, p, n, &s->xb);
        if (s->x->bad) return load_refused(s->j, s->x, &s->err), src_fail(s);
        const char *nl = s->xb.len > held ? memrchr(s->xb.p + held, '\n', s->xb.len - held) : NULL;
        if (!nl) continue;
        *data = s->xb.p;
        *len = s->handed = (size_t)(nl + 1 - s->xb.p);
        return 1;
    }
    return 0;
}

static int src_init(load_src *s, load_job *j, const chunk *k, off_t start, off_t end, stats_thread *st)
{
    memset(s, 0, sizeof *s);
    *s = (load_src){ .j = j, .k = k, .st = st, .pos = start, .end = end, .bom = 1, .skip = k->skip, .last = '\n' };
    s->buf = bb_xmalloc(READ_PIECE + 2);
    s->x = load_xcode(j, k, &s->xs);
    if (k->codec == CODEC_GZIP) {
        int fd = dup(j->fds[k->file]);
        if (fd < 0 || !(s->g = gzdopen(fd, "rb"))) return bb_errf(&s->err, "%s: cannot read gzip data", j->paths[k->file]);
    } else if (k->codec == CODEC_ZSTD) {
        s->in = bb_xmalloc(READ_PIECE);
        s->zi = (ZSTD_inBuffer){ s->in, 0, 0 };
        if (!(s->z = ZSTD_createDCtx())) return bb_errf(&s->err, "%s: out of memory for zstd", j->paths[k->file]);
    }
    return 0;
}

static void src_free(load_src *s)
{
    bb_buf_free(&s->xb);
    if (s->g) gzclose(s->g);
    ZSTD_freeDCtx(s->z);
    free(s->buf);
    free(s->in);
}

static void load_spec(const load_job *j, const chunk *k, bb_stream_spec *spec)
{
    *spec = (bb_stream_spec){ .table = j->table_q, .columns = j->columns, .format = j->wire, .name = j->table };
    if (!j->xcode) { /* the file's own bytes: the server must know their separators (rewritten ones are plain) */
        spec->delimiter = j->o->delimiter;
        spec->quote = j->o->quote;
        spec->null = j->o->null;
        spec->crlf = k->crlf > 0;
    }
}

int load_stream(load_job *j, bb_conn *c, const chunk *k, off_t start, off_t end, stats_thread *st, int64_t *rows,
                bb_err *err)
{
    *rows = -1;
    load_src s;
    bb_stream_spec spec;
    load_spec(j, k, &spec);
    int rc = src_init(&s, j, k, start, end, st);
    if (rc == 0) rc = db_stream_pull(j->drv, c, &spec, load_next, &s, rows, err);
    if (rc < 0 && (s.failed || s.err.msg[0])) *err = s.err; /* the input's failure, not the server's */
    src_free(&s);
    return rc;
}
