/* gencmd.c — `bulkbench gen`: N generated rows to a file. The rows are cut into fixed
 * chunks that the pool's threads encode in parallel and write in order, so the file is
 * byte-identical whatever the thread count and memory stays at a chunk per thread. */
#include "command.h"
#include "output.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../host/lib.h"
#include "../core/gen/encode.h"
#include "../core/gen/encrows.h"
#include "../host/host.h"
#include "../host/state.h"
#include "../core/run/pool.h"
#include "../../base/err.h"
#include "../../base/buf.h"

#define CHUNK_ROWS 4096 /* ~300 KB of bmsql_history: the chunk being written stays in the core's cache */
#define SQL_STMT_ROWS 1000 /* rows per INSERT in --format=sql */

/* Chunks are claimed in order from the pool; a thread that has encoded chunk c waits for
 * c-1 to be written, writes c and claims again, so threads encode in parallel and the
 * file comes out in order with one chunk of memory per thread. */
typedef struct gjob {
    gen_table *t;
    const bb_dialect *dia;
    bb_stream_fmt fmt;
    const char *null; /* tsv: how NULL is written */
    int64_t rows;
    int threads;
    int fd; /* the output: whole chunks go to it with write(), no stdio copy */
    const char *path;
    bb_pool pool;
    pthread_mutex_t mu;
    pthread_cond_t turn_cv;
    int64_t written; /* chunks written so far: the next to write */
    char head[4096]; /* INSERT INTO ... VALUES, for sql */
    int header;      /* csv, tsv, copy: a first line naming the columns */
    /* a table whose values a script's function makes is bound to its Lua state (gen.h):
     * each thread then loads the script into one of its own, from this */
    const host_ctx *hc;
    const char *script, *table, *src;
    size_t src_len;
} gjob;

/* A state of this thread's own, with the table compiled in it (*t); NULL with err. */
static lua_State *gen_own_state(const gjob *j, gen_table **t, bb_err *err)
{
    host_ctx *hc = bb_xmalloc(sizeof *hc); /* the state frees it (owned) */
    *hc = (host_ctx){ .cli = j->hc->cli, .seed = j->hc->seed, .now_s = j->hc->now_s, .dialect = j->dia, .owned = 1 };
    lua_State *L = state_new(hc, j->script, err);
    if (!L) {
        free(hc);
        return NULL;
    }
    if (host_run_source(L, j->src, j->src_len, j->script, err) < 0 || !(*t = lib_gen_table(L, j->script, j->table, err))) {
        state_close(L);
        return NULL;
    }
    return L;
}

/* Encodes chunk c into b (encrows.h); a row the format cannot hold, or a script's function
 * that failed, ends it, with the reason in bad. */
static void encode_chunk(gjob *j, int64_t c, encrows *e, bb_buf *b, char *bad, size_t badlen)
{
    int64_t first = c * CHUNK_ROWS, last = first + CHUNK_ROWS;
    if (last > j->rows) last = j->rows;
    b->len = 0;
    bad[0] = 0;
    bb_err err;
    if (encrows_put(e, (uint64_t)first, last - first, b, SIZE_MAX, &err) >= 0) return;
    if (j->fmt != BB_FMT_TSV) snprintf(bad, badlen, "%s", err.msg); /* a script's function failed */
    else
        snprintf(bad, badlen, "%s: %s: %suse --format=csv or copy", j->path, err.msg,
                 encrows_null_clash(e) ? "write NULL as other text with --null=TEXT, or " : "");
}

/* Writes n bytes to fd, however the kernel cuts them; -1 with errno on failure. */
static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes chunk c once every chunk before it is written, then fails if the chunk ended at
 * a row the format cannot hold (bad); -1 when writing failed or the pool failed meanwhile. */
static int write_in_turn(gjob *j, int64_t c, const bb_buf *b, const char *bad, bb_err *err)
{
    pthread_mutex_lock(&j->mu);
    while (j->written != c && !pool_failed(&j->pool)) pthread_cond_wait(&j->turn_cv, &j->mu);
    pthread_mutex_unlock(&j->mu);
    if (pool_failed(&j->pool)) return -1;
    int rc = 0;
    if (write_all(j->fd, b->p, b->len) < 0) rc = bb_errf(err, "writing %s: %s", j->path, strerror(errno));
    else if (bad[0]) rc = bb_errf(err, "%s", bad);
    pthread_mutex_lock(&j->mu);
    if (rc == 0) j->written++;
    else pool_fail(&j->pool, err);
    pthread_cond_broadcast(&j->turn_cv);
    pthread_mutex_unlock(&j->mu);
    return rc;
}

static int gen_work(void *ud, pool_thread *t, bb_err *err)
{
    (void)t;
    gjob *j = ud;
    encrows_opts o = { .dia = j->dia, .null = j->null, .sql_head = j->head, .sql_rows = SQL_STMT_ROWS, .sql_end = j->rows };
    gen_table *table = j->t;
    lua_State *L = j->t->bound ? gen_own_state(j, &table, err) : NULL;
    if (j->t->bound && !L) return -1;
    encrows *e = encrows_new(table, j->fmt, &o);
    bb_buf b = { 0 };
    char bad[sizeof ((bb_err *)0)->msg + 400];
    int64_t c;
    int rc = 0;
    while (rc == 0 && pool_claim(&j->pool, 1, &c) == 1) {
        encode_chunk(j, c, e, &b, bad, sizeof bad);
        rc = write_in_turn(j, c, &b, bad, err);
    }
    bb_buf_free(&b);
    encrows_free(e);
    if (L) state_close(L);
    return rc;
}

/* Wakes threads waiting for their turn once another failed. */
static void gen_tick(void *ud, bb_pool *pl)
{
    gjob *j = ud;
    if (!pool_failed(pl)) return;
    pthread_mutex_lock(&j->mu);
    pthread_cond_broadcast(&j->turn_cv);
    pthread_mutex_unlock(&j->mu);
}

/* The first line: the columns' names, escaped as the format's fields are (`load --header`
 * reads it back). */
static int write_header(gjob *j, bb_err *err)
{
    bb_buf b = { 0 };
    char sep = j->fmt == BB_FMT_CSV ? ',' : '\t';
    for (int i = 0; i < j->t->ncols; i++) {
        const char *name = j->t->colnames[i];
        size_t len = strlen(name);
        /* the encoder reads and writes whole 16-byte moves past a value's ends (GEN_PAD) */
        char *padded = bb_xcalloc(1, len + 2 * GEN_PAD);
        memcpy(padded + GEN_PAD, name, len);
        bb_value v = { .kind = BB_V_TEXT, .len = (uint32_t)len, .u.s = padded + GEN_PAD };
        bb_buf_reserve(&b, 2 * len + 2 * GEN_PAD + 8);
        if (i) b.p[b.len++] = sep;
        if (j->fmt == BB_FMT_TSV) bb_buf_put(&b, name, len); /* TSV escapes nothing (a name holds no tab) */
        else b.len = (size_t)(enc_field(j->fmt, &v, b.p + b.len) - b.p);
        free(padded);
    }
    bb_buf_putc(&b, '\n');
    int rc = write_all(j->fd, b.p, b.len) < 0 ? bb_errf(err, "writing %s: %s", j->path, strerror(errno)) : 0;
    bb_buf_free(&b);
    return rc;
}

static int run_job(gjob *j, bb_err *err)
{
    if (j->header && write_header(j, err) < 0) return -1;
    int64_t nchunks = (j->rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->turn_cv, NULL);
    pool_ops ops = { j, NULL, gen_work, NULL };
    pool_start(&j->pool, j->threads < 1 ? 1 : j->threads, 0, nchunks, 0, &ops);
    pool_ready(&j->pool);
    pool_go(&j->pool, 0, 0);
    pool_wait(&j->pool, gen_tick, j);
    pool_end(&j->pool);
    int rc = 0;
    if (j->pool.failed) {
        *err = j->pool.first_err;
        rc = -1;
    }
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->turn_cv);
    return rc;
}

static void build_head(gjob *j)
{
    bb_buf b = { 0 };
    bb_buf_puts(&b, "INSERT INTO ");
    dialect_quote(j->dia, j->t->name, &b);
    bb_buf_puts(&b, " (");
    dialect_quote_list(j->dia, (const char *const *)j->t->colnames, j->t->ncols, &b);
    bb_buf_puts(&b, ") VALUES\n");
    snprintf(j->head, sizeof j->head, "%.*s", (int)b.len, b.p);
    bb_buf_free(&b);
}

/* The job's settings from gen's options, each checked against the others: 0, or -1 with a
 * usage error. */
static int gen_options(bb_cli *cli, gjob *j, bb_err *err)
{
    if (cli->npos != 1) return bb_usagef(err, "gen needs one script: bulkbench gen SCRIPT.lua --table=NAME --rows=N");
    const char *rows = opts_get(cli, "rows");
    if (!opts_get(cli, "table") || !rows) return bb_usagef(err, "gen needs --table=NAME and --rows=N");
    *j = (gjob){ .rows = atoll(rows), .threads = atoi(opts_get(cli, "threads")), .table = opts_get(cli, "table") };
    const char *fmt = opts_get(cli, "format");
    if (enc_format_parse(fmt, &j->fmt) < 0 || j->fmt == BB_FMT_BINARY || j->fmt == BB_FMT_LOAD_TEXT)
        return bb_usagef(err, "--format=%s: gen writes copy, csv, tsv or sql", fmt);
    const char *dialect = opts_get(cli, "dialect");
    j->dia = dialect ? bb_dialect_find(dialect) : &bb_dialect_generic;
    if (!j->dia) {
        char names[256];
        return bb_usagef(err, "--dialect=%s: %s", dialect, bb_dialect_words(" or ", names, sizeof names));
    }
    j->null = opts_get(cli, "null");
    if (j->null && j->fmt != BB_FMT_TSV)
        return bb_usagef(err, "--null goes with --format=tsv (copy writes NULL as \\N, csv as an unquoted empty field)");
    if (j->null && strpbrk(j->null, "\t\n\r"))
        return bb_usagef(err, "--null='%s': a TSV field cannot hold a tab or a line end", j->null);
    if (!j->null) j->null = "";
    j->header = opts_is_on(opts_get(cli, "header"));
    if (j->header && j->fmt == BB_FMT_SQL)
        return bb_usagef(err, "--header goes with --format=csv, tsv or copy (sql names its columns in each INSERT)");
    return 0;
}

static int gen_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    int rc = 0;
    gjob j = { 0 };
    lua_State *L = NULL;
    char *src = NULL;
    if (gen_options(cli, &j, &err) < 0) goto fail;
    const char *table = j.table;

    host_ctx hc = {
        .cli = cli, .setup = 1, .seed = (uint64_t)strtoull(opts_get(cli, "seed"), NULL, 10), .dialect = j.dia
    };
    if (opts_now(cli, &hc.now_s, &err) < 0) goto fail;
    L = state_new(&hc, cli->pos[0], &err);
    if (!L || host_read_script(cli->pos[0], &src, &j.src_len, &err) < 0 ||
        host_run_source(L, src, j.src_len, cli->pos[0], &err) < 0)
        goto fail;
    j.hc = &hc;
    j.script = cli->pos[0];
    j.src = src;
    if (opts_check_unused(cli, (const char *const *)hc.declared, &err) < 0) goto fail;
    if (!(j.t = lib_gen_table(L, cli->pos[0], table, &err))) goto fail;
    if (j.fmt == BB_FMT_SQL) build_head(&j);

    const char *path = opts_get(cli, "o");
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) {
        bb_errf(&err, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    err.code = BB_EXIT_RUNTIME;
    fflush(f); /* what the script printed comes first */
    j.fd = fileno(f);
    j.path = path ? path : "standard output";
    rc = run_job(&j, &err);
    if (fflush(f) != 0 && rc == 0) rc = bb_errf(&err, "writing %s: %s", j.path, strerror(errno));
    if (path && fclose(f) != 0 && rc == 0) rc = bb_errf(&err, "writing %s: %s", path, strerror(errno));
    int64_t done = j.written * CHUNK_ROWS < j.rows ? j.written * CHUNK_ROWS : j.rows;
    int sig = j.pool.signal;
    pool_free(&j.pool);
    state_close(L);
    free(src);
    L = NULL, src = NULL;
    if (sig) { /* a partial file is not a data set: nobody should load it by mistake */
        if (path) unlink(path);
        fprintf(stderr, "bulkbench: interrupted after %lld of %lld rows%s%s\n", (long long)done, (long long)j.rows,
                path ? "; removed the partial " : " (the output is partial)", path ? path : "");
        return 128 + sig;
    }
    if (rc < 0) goto fail;
    return 0;
fail:
    state_close(L); /* the script's state and text, on every way out */
    free(src);
    if (err.code == BB_EXIT_USAGE) return output_fail(&err);
    fprintf(stderr, "bulkbench: %s\n(gen failed: fix the cause named above)\n", err.msg);
    return err.code ? err.code : BB_EXIT_RUNTIME;
}

// clang-format off
/* gen's own option, defined here (opts.h) */
static const opt_def dialect = { "dialect", OT_STR, NULL, 0, 0, "--format=sql: whose SQL to write (default generic)" };
static const opt_def *const gen_own[] = { &dialect, NULL };

static const opt_use gen_opts[] = {
    { "table", "the script's table to write", NULL, "NAME" },
    { "rows", "rows to write", NULL, NULL },
    { "format", "the file's format: copy (PostgreSQL COPY text), csv, tsv or sql (INSERT statements)", "copy", "FORMAT" },
    { "o", "the file to write (default standard output)", NULL, "FILE" },
    { "threads", "generator threads (the file's rows are the same at any count)", NULL, NULL },
    { "seed", NULL, NULL, NULL },
    { "now", NULL, NULL, "TIME" },
    { "dialect", "--format=sql: whose SQL to write: {dialects}", "generic", "NAME" },
    { "null", "--format=tsv: how NULL is written (default an empty field)", NULL, "TEXT" },
    { "header", "a first line naming the columns (csv, tsv, copy), as `load --header` reads it", NULL, NULL },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command gen_command = {
    "gen",
    "SCRIPT.lua --table=NAME --rows=N [options]",
    "write a script's table to a file, the same rows `run` would send",
    "bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=1000 --format=csv -o /tmp/h.csv",
    gen_opts,
    gen_own,
    gen_main,
    CMD_SIGNALS | CMD_SCRIPT,
};
