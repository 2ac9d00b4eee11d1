/* load.c — `bulkbench load FILE`: an existing data file into a table, in parallel chunks.
 *
 * One sequential pass cuts the file into byte ranges of about --chunk bytes that end at
 * row ends (quote-aware for CSV: a newline inside quotes is data; escape-aware for COPY
 * text; plain TSV has neither) and counts their rows. Workers take chunks from a shared
 * counter; each streams its range with pread into one COPY / LOAD DATA per chunk, so a
 * chunk commits or fails on its own and no temporary file is made. What a server cannot
 * read by our rules (plain TSV anywhere, CSV on LOAD DATA) is rewritten on the way into its
 * escaped text (xcode.c). Afterwards the table's row count
 * must have grown by exactly the rows of the file (less those --on-error=skip rejected:
 * reject.c). */
#include "load_priv.h"
#include "../method/method.h"
#include "../../../drivers/db.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunk.h"
#include "../opts.h"
#include "../run/diagnose.h"
#include "../run/growth.h"
#include "../run/progress.h"
#include "../sig.h"
#include "../gen/encode.h"
#include "../run/result.h"
#include "../run/stats.h"
#include "../run/sysmon.h"
#include "../run/verify.h"
#include "../../../base/err.h"
#include "../../../base/buf.h"
#include "../../../base/clock.h"
#include "../../../base/invariant.h"

/* ---- cutting ---- */

void load_add_chunk(load_job *j, chunk k)
{
    /* a chunk is a range of its file, and a file's chunks come in order, none overlapping the
     * one before: each byte is loaded by one COPY / LOAD DATA at most (load.h) */
    const chunk *last = j->nchunks ? &j->chunks[j->nchunks - 1] : NULL;
    assert(k.start >= 0 && k.end >= k.start);
    assert(!last || last->file != k.file || last->end <= k.start);
    j->chunks = bb_xrealloc(j->chunks, sizeof *j->chunks * (size_t)(j->nchunks + 1));
    j->chunks[j->nchunks++] = k;
}

typedef struct cut_ctx {
    load_job *j;
    int file;
} cut_ctx;

static void cut_emit(void *ud, int64_t start, int64_t end, int64_t rows, int64_t first_line, int crlf)
{
    cut_ctx *c = ud;
    load_add_chunk(c->j, (chunk){ c->file, (off_t)start, (off_t)end, rows, first_line, crlf, CODEC_NONE, 0 });
}

/* The style of the file's first line end: 1 for \r\n, 0 for \n, -1 when it has none. */
static int first_line_crlf(int fd)
{
    char head[4096], prev = 0;
    ssize_t h;
    for (off_t at = 0; (h = pread(fd, head, sizeof head, at)) > 0; at += h) {
        const char *nl = memchr(head, '\n', (size_t)h);
        if (nl) return nl > head ? nl[-1] == '\r' : prev == '\r';
        prev = head[h - 1];
    }
    return -1;
}

/* A file's compression, by its first bytes; *bom: the bytes of a UTF-8 byte order mark
 * that lead it (not data). */
static codec file_codec(int fd, off_t *bom)
{
    unsigned char magic[4] = { 0 };
    ssize_t got = pread(fd, magic, 4, 0);
    *bom = got >= 3 && magic[0] == 0xef && magic[1] == 0xbb && magic[2] == 0xbf ? 3 : 0;
    return got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b                                        ? CODEC_GZIP
        : got == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd ? CODEC_ZSTD
                                                                                                   : CODEC_NONE;
}

static void count_emit(void *ud, int64_t start, int64_t end, int64_t rows, int64_t first_line, int crlf)
{
    (void)start, (void)end, (void)first_line, (void)crlf;
    *(int64_t *)ud += rows;
}

int64_t load_count_rows(const load_opts *o, const char *path, bb_err *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return bb_errf(err, "cannot read %s: %s", path, strerror(errno)), -1;
    off_t bom;
    if (file_codec(fd, &bom) != CODEC_NONE) {
        close(fd);
        return bb_errf(err, "%s is compressed: unpack it to count its rows", path), -1;
    }
    chunk_scan sc;
    const char *f = o->format ? o->format : "csv";
    chunk_scan_init(&sc, !strcmp(f, "csv") ? CHUNK_CSV : !strcmp(f, "tsv") ? CHUNK_TSV : CHUNK_COPY,
                    (o->header ? 1 : 0) + o->skip_rows, -1, INT64_MAX);
    if (o->quote) sc.quote = o->quote;
    sc.pos = sc.start = sc.row_end = bom;
    int64_t rows = 0;
    char *buf = bb_xmalloc(READ_PIECE);
    ssize_t n;
    while ((n = pread(fd, buf, READ_PIECE, (off_t)sc.pos)) > 0) chunk_scan_feed(&sc, buf, (size_t)n, count_emit, &rows);
    free(buf);
    close(fd);
    if (n < 0) return bb_errf(err, "reading %s: %s", path, strerror(errno)), -1;
    if (chunk_scan_end(&sc, count_emit, &rows) < 0)
        return bb_errf(err, "%s ends inside a quoted field (line %lld)", path, (long long)sc.chunk_line), -1;
    return rows;
}

/* Cuts a file into chunks of about `size` bytes that end at row ends (chunk.c). A file
 * that fits one chunk, with no rows to skip or count, is not scanned at all: it is one
 * range, and the server's count of its rows is the count (rows = -1 until then). A UTF-8
 * byte order mark is not data. *left: rows still to take under --limit (-1 = all). */
static int cut_file(load_job *j, int file, int64_t size, int64_t file_size, int64_t *left, bb_err *err)
{
    const load_opts *o = j->o;
    int64_t skip = (o->header ? 1 : 0) + o->skip_rows;
    off_t bom;
    codec cd = file_codec(j->fds[file], &bom);
    if (cd != CODEC_NONE) { /* no seeking into compressed data: the file is one chunk */
        if (*left >= 0 || o->skip_bad)
            return bb_usagef(err,
                             "%s is compressed: --limit and --on-error=skip need to read row ranges, so unpack "
                             "it first",
                             j->paths[file]);
        load_add_chunk(j, (chunk){ file, 0, (off_t)file_size, -1, 1, -1, cd, skip });
        return 0;
    }
    if (file_size <= size && skip == 0 && *left < 0) { /* the first line end tells the style */
        int crlf = first_line_crlf(j->fds[file]);
        if (file_size > bom) load_add_chunk(j, (chunk){ file, bom, (off_t)file_size, -1, 1, crlf, CODEC_NONE, 0 });
        return 0;
    }
    chunk_scan sc;
    chunk_scan_init(&sc, load_chunk_mode(j), skip, *left, size);
    if (o->quote) sc.quote = o->quote;
    sc.pos = sc.start = sc.row_end = bom;
    cut_ctx cc = { j, file };
    char *buf = bb_xmalloc(READ_PIECE);
    ssize_t n = 0;
    while (sc.left != 0 && !sig_caught() && (n = pread(j->fds[file], buf, READ_PIECE, (off_t)sc.pos)) > 0)
        chunk_scan_feed(&sc, buf, (size_t)n, cut_emit, &cc);
    free(buf);
    if (n < 0) return bb_errf(err, "reading %s: %s", j->paths[file], strerror(errno));
    if (sig_caught()) {
        bb_errf(err, "interrupted by signal %d while reading %s: nothing was loaded", sig_caught(), j->paths[file]);
        err->code = 128 + sig_caught();
        return -1;
    }
    if (chunk_scan_end(&sc, cut_emit, &cc) < 0)
        return bb_errf(err, "%s ends inside a quoted field (line %lld): the file is cut short or malformed",
                       j->paths[file], (long long)sc.chunk_line);
    *left = sc.left;
    return 0;
}

/* ---- loading ---- */

/* One COPY / LOAD DATA of the chunk; with --on-error=skip inside a transaction (LOAD DATA
 * LOCAL commits rows it only warns about), and a refused chunk is taken apart. */
static int load_chunk(load_job *j, bb_conn *c, const chunk *k, stats_thread *st, bb_err *err)
{
    int skip_bad = j->o->skip_bad;
    uint64_t t0 = bb_now_ns();
    if (skip_bad && j->drv->begin(c, err) < 0) return -1;
    int64_t rows = -1;
    int rc = load_stream(j, c, k, k->start, k->end, st, &rows, err);
    if (skip_bad && rc == 0) rc = j->drv->commit(c, err);
    if (rc < 0 && skip_bad && !pool_stopping(&j->pool) && db_failed(j->drv, c, 1) == DB_REFUSED)
        return load_chunk_skipping(j, c, k, st, err);
    if (rc < 0) {
        /* LOAD DATA LOCAL keeps rows it only warned about: they are committed, and counted */
        if (rows > 0 && !skip_bad) __atomic_fetch_add(&j->committed, rows, __ATOMIC_RELAXED);
        /* the server counts rows from the chunk's start: say where its row is in the file */
        size_t l = strlen(err->msg);
        int64_t line = err->row > 0 ? load_row_line(j, k, err->row) : -1;
        if (line > 0)
            snprintf(err->msg + l, sizeof err->msg - l, " (at %s line %lld)", j->paths[k->file], (long long)line);
        else
            snprintf(err->msg + l, sizeof err->msg - l, " (in %s, in the chunk starting at line %lld)",
                     j->paths[k->file], (long long)k->first_line);
        return -1;
    }
    if (k->rows < 0) { /* an unscanned whole file: the server counted it */
        if (rows < 0) return bb_errf(err, "%s: the server did not say how many rows it took", j->drv->name);
        __atomic_fetch_add(&j->file_rows, rows, __ATOMIC_RELAXED);
    } else if (rows >= 0 && rows != k->rows) {
        return bb_errf(err, "%s: the server took %lld rows of the %lld in %s from line %lld", j->drv->name,
                       (long long)rows, (long long)k->rows, j->paths[k->file], (long long)k->first_line);
    }
    int64_t n = k->rows < 0 ? rows : k->rows;
    __atomic_fetch_add(&j->committed, n, __ATOMIC_RELAXED);
    stats_record(st, bb_now_ns() - t0, (uint64_t)n, 0);
    return 0;
}

/* Pool operations: one session per thread, chunks claimed one at a time. */
static int load_setup(void *ud, pool_thread *t, bb_err *err)
{
    load_job *j = ud;
    if (j->drv->connect(j->target, &j->conns[t->id], err) < 0) return -1;
    int64_t id = (j->drv->caps & BB_CAP_WAITS) ? j->drv->session_id(j->conns[t->id]) : -1;
    __atomic_store_n(&j->session_ids[t->id], id, __ATOMIC_RELAXED);
    return 0;
}

/* The workers' sessions by server id, for the diagnosis sampler (its thread). */
static int load_session_ids(void *ud, int64_t *ids, int max)
{
    load_job *j = ud;
    int n = 0;
    for (int i = 0; i < j->nthreads && n < max; i++) ids[n++] = __atomic_load_n(&j->session_ids[i], __ATOMIC_RELAXED);
    return n;
}

static int load_work(void *ud, pool_thread *t, bb_err *err)
{
    load_job *j = ud;
    int64_t k;
    while (pool_claim(&j->pool, 1, &k) == 1)
        if (load_chunk(j, j->conns[t->id], &j->chunks[k], t->st, err) < 0) return -1;
    return 0;
}

static void load_teardown(void *ud, pool_thread *t)
{
    load_job *j = ud;
    if (j->conns[t->id]) j->drv->disconnect(j->conns[t->id]);
}

static void load_tick(void *ud, bb_pool *pl) { progress_tick(ud, pl); }

/* What the engine is sent. COPY reads CSV and COPY text as they are; LOAD DATA reads COPY
 * text as its own default text (the same escapes). Plain TSV has no form either server
 * reads as it is (COPY text cannot turn its escapes off), and LOAD DATA's CSV reading has
 * other NULL rules (an unquoted word NULL, no empty field NULL): those files are rewritten
 * into the engine's escaped text as they stream (xcode.c), the NULL rule applied there. */
static int load_pick_wire(const load_opts *o, load_job *j, bb_err *err)
{
    if (enc_format_parse(o->format, &j->fmt) < 0 ||
        (j->fmt != BB_FMT_CSV && j->fmt != BB_FMT_TSV && j->fmt != BB_FMT_COPY))
        return bb_usagef(err, "--format=%s: load reads csv, tsv or copy", o->format);
    if (!(j->method = method_for_file(o->drv, j->fmt)))
    {
        char can[256];
        return bb_usagef(err, "engine %s cannot stream %s files (engines that can: %s)", o->drv->name, o->format,
                         bb_engine_words(method_streams_files, " and ", can, sizeof can));
    }
    j->wire = j->method->fmt;
    j->xcode = j->fmt != BB_FMT_COPY && j->wire != BB_FMT_CSV;
    if (!o->null) return 0;
    char delim = o->delimiter ? o->delimiter : j->fmt == BB_FMT_CSV ? ',' : '\t', quote = o->quote ? o->quote : '"';
    if (j->fmt == BB_FMT_COPY) return bb_usagef(err, "--null: COPY text spells NULL \\N; --null is for tsv and csv");
    if (strchr(o->null, '\n') || strchr(o->null, '\r') || strchr(o->null, delim) ||
        (j->fmt == BB_FMT_CSV && strchr(o->null, quote)))
        return bb_usagef(err, "--null='%s': no %s field can hold a line end, the separator%s", o->null, o->format,
                         j->fmt == BB_FMT_CSV ? " or, unquoted, a quote" : "");
    return 0;
}

/* The table and column list, quoted for the engine's dialect. */
static void load_names(load_job *j)
{
    const load_opts *o = j->o;
    j->table_q = dialect_quoted(o->drv->dialect, o->table);
    bb_buf cols = { 0 };
    if (o->columns && *o->columns) {
        int n;
        char **v = opts_split(o->columns, &n);
        bb_buf_putc(&cols, '(');
        dialect_quote_list(o->drv->dialect, (const char *const *)v, n, &cols);
        bb_buf_putc(&cols, ')');
        opts_split_free(v);
    }
    bb_buf_putc(&cols, 0);
    j->columns = cols.p;
}

/* Opens every file, cuts them into chunks and counts their rows; *bytes: their size. */
static int load_cut(load_job *j, int64_t *bytes, bb_err *err)
{
    const load_opts *o = j->o;
    struct stat sb;
    *bytes = 0;
    j->fds = bb_xcalloc((size_t)o->npaths, sizeof *j->fds);
    for (int i = 0; i < o->npaths; i++) j->fds[i] = -1;
    for (int i = 0; i < o->npaths; i++) {
        if ((j->fds[i] = open(o->paths[i], O_RDONLY)) < 0 || fstat(j->fds[i], &sb) < 0)
            return bb_usagef(err, "cannot read %s: %s", o->paths[i], strerror(errno));
        *bytes += sb.st_size;
    }
    int nt = o->threads < 1 ? 1 : o->threads;
    /* without --chunk: one worker takes each file whole (one statement, no scan, as the
     * clients do); several share the data in chunks of 4 MB to 64 MB */
    int64_t size = o->chunk > 0 ? o->chunk : *bytes / nt + 1;
    if (o->chunk <= 0 && nt > 1 && size < 4 << 20) size = 4 << 20;
    if (o->chunk <= 0 && nt > 1 && size > 64 << 20) size = 64 << 20;
    int64_t left = o->limit;
    for (int i = 0; i < o->npaths && left != 0; i++) {
        fstat(j->fds[i], &sb);
        if (cut_file(j, i, size, sb.st_size, &left, err) < 0) return -1;
    }
    for (int i = 0; i < j->nchunks; i++) j->file_rows += j->chunks[i].rows > 0 ? j->chunks[i].rows : 0;
    return 0;
}

static int load_open_rejects(load_job *j, bb_err *err)
{
    const char *path = j->o->reject_path;
    if (!path) return 0;
    char log[4200];
    snprintf(log, sizeof log, "%s.log", path);
    if (!(j->reject = fopen(path, "w")) || !(j->reject_log = fopen(log, "w")))
        return bb_usagef(err, "cannot write the reject file %s: %s", j->reject ? log : path, strerror(errno));
    return 0;
}

/* The workers load the chunks, a progress bar counting bytes; the figures go into res. */
static void load_run(load_job *j, int64_t bytes, bb_result *res)
{
    const load_opts *o = j->o;
    int nt = o->threads < 1 ? 1 : o->threads;
    j->conns = bb_xcalloc((size_t)nt, sizeof *j->conns);
    j->session_ids = bb_xcalloc((size_t)nt, sizeof *j->session_ids);
    for (int i = 0; i < nt; i++) j->session_ids[i] = -1;
    j->nthreads = nt;
    j->rate_bps = o->rate_mb * 1e6;
    pool_ops ops = { j, load_setup, load_work, load_teardown };
    pool_start(&j->pool, nt, 0, j->nchunks, 0, &ops);
    pool_ready(&j->pool);
    double cpu0 = sysmon_self_cpu(); /* the sessions are open: their setup is not the load's CPU */
    j->t0 = bb_now_ns();
    pool_go(&j->pool, 0, 0);
    growth_sampler *gr = growth_start(j->drv, o->table, &j->pool, NULL, NULL); /* the table as it grows */
    diagnose_also also = { growth_tick, gr };
    diagnose *dg = diagnose_start(j->drv, j->target, o->waits_hz, load_session_ids, j, gr ? &also : NULL);
    progress pg;
    progress_init(&pg, &j->pool, 0, o->progress, bytes, 1);
    pool_wait(&j->pool, load_tick, &pg);
    diagnose_stop(dg, &res->waits);
    growth_stop(gr, &res->growth);
    progress_done(&pg);
    pool_end(&j->pool);
    diagnose_end(dg, &res->waits); /* the log flushes, once the sessions have reported them */
    res->client_cpu_s = sysmon_self_cpu() - cpu0 - res->waits.cpu_s; /* the sampler's CPU is not the load's */
    stats_snap *snap = bb_xmalloc(sizeof *snap);
    stats_take(j->pool.stats, nt, snap);
    res->rows = res->committed = j->committed;
    if (o->skip_bad) res->rows_rejected = j->rejected;
    res->events = (int64_t)snap->events;
    res->bytes = (int64_t)snap->bytes;
    res->seconds = pool_seconds(&j->pool);
    if (res->seconds > 0 && res->rows > 0) { /* nothing loaded: nothing bounded it */
        bottleneck_name(&res->waits, res->client_cpu_s / (res->seconds * nt));
        bottleneck_paced(&res->waits, "--rate-limit", o->rate_mb, (double)res->bytes / 1e6 / res->seconds, " MB/s");
    }
    result_latency(res, snap);
    free(snap);
}

/* Nothing lost: the table grew by the rows loaded (verify.h: unless the engine cannot
 * count), and loaded + rejected = the input. */
static int load_verify(load_job *j, bb_conn *c0, int64_t before, bb_result *res, bb_err *err)
{
    int64_t after;
    if (verify_count(j->drv, c0, j->table_q, &after, err) < 0) return -1;
    res->verified_rows = verify_grew(before, after);
    res->verdict = verify_judge(res->verified_rows, j->committed, 0);
    if (!verify_failed(res->verdict) && j->committed + j->rejected == j->file_rows) return 0;
    res->verdict = VERDICT_COUNT; /* the table's growth, or the files' rows, are not what was loaded */
    bb_errf(err, "verification failed: the table grew by %lld rows; loaded %lld + rejected %lld, the files hold %lld: %s",
            (long long)res->verified_rows, (long long)j->committed, (long long)j->rejected, (long long)j->file_rows,
            verify_why(res->verdict));
    err->code = BB_EXIT_VERIFY;
    return -1;
}

/* How the load ended, once the workers are done: a signal, a failure, or nothing wrong. */
static int load_outcome(const load_job *j, bb_err *err)
{
    if (j->pool.signal) {
        bb_errf(err, "interrupted by signal %d", j->pool.signal);
        err->code = 128 + j->pool.signal;
        return -1;
    }
    if (j->pool.failed) {
        *err = j->pool.first_err;
        return -1;
    }
    return 0;
}

static void load_free(load_job *j)
{
    const load_opts *o = j->o;
    if (j->target && !o->target) o->drv->target_close(j->target);
    if (j->reject) fclose(j->reject);
    if (j->reject_log) fclose(j->reject_log);
    for (int i = 0; j->fds && i < o->npaths; i++)
        if (j->fds[i] >= 0) close(j->fds[i]);
    free(j->fds);
    free(j->chunks);
    free(j->table_q);
    free(j->columns);
    pool_free(&j->pool);
    free(j->conns);
    free(j->session_ids);
    pthread_mutex_destroy(&j->mu);
}

int load_files(const load_opts *o, bb_result *res, bb_err *err)
{
    load_job j = { .o = o, .drv = o->drv, .paths = o->paths, .table = o->table };
    pthread_mutex_init(&j.mu, NULL);
    if (load_pick_wire(o, &j, err) < 0) {
        pthread_mutex_destroy(&j.mu);
        return -1;
    }
    load_names(&j);
    snprintf(res->method, sizeof res->method, "%s", j.method->name); /* the stream method the files go by */
    int64_t bytes, before = 0;
    bb_conn *c0 = NULL;
    int rc = load_cut(&j, &bytes, err) < 0 || load_open_rejects(&j, err) < 0 ? -1 : 0;
    if (rc == 0 && !(j.target = o->target) && o->drv->target_open(o->dsn, &j.target, err) < 0) rc = -1;
    if (rc == 0 && o->drv->connect(j.target, &c0, err) < 0) rc = -1;
    if (rc == 0 && o->truncate) {
        char sql[600];
        snprintf(sql, sizeof sql, "TRUNCATE TABLE %s", j.table_q);
        rc = o->drv->exec(c0, sql, NULL, err);
    }
    if (rc == 0) rc = verify_count(o->drv, c0, j.table_q, &before, err);
    if (rc == 0) {
        load_run(&j, bytes, res);
        rc = load_outcome(&j, err) < 0 || load_verify(&j, c0, before, res, err) < 0 ? -1 : 0;
        if (rc < 0) snprintf(res->error, sizeof res->error, "%s", err->msg);
    }
    if (c0) o->drv->disconnect(c0);
    load_free(&j);
    return rc;
}
