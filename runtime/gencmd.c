/* gencmd.c — writes N generated rows to a file. With --threads the rows are cut into
 * fixed chunks that threads encode in parallel and one writer emits in order, so the
 * file is byte-identical whatever the thread count, and memory stays at a few chunks. */
#include "gencmd.h"

#include <errno.h>
#include <lauxlib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "encode.h"
#include "host.h"

#define CHUNK_ROWS 65536
#define SQL_STMT_ROWS 1000 /* rows per INSERT in --format=sql */

typedef struct gslot {
    bb_buf  buf;
    int64_t chunk; /* which chunk the buffer holds, -1 = free */
    char    bad[256]; /* a row of it that cannot be written, why: the file stops there */
} gslot;

typedef struct gjob {
    gen_table        *t;
    const bb_dialect *dia;
    bb_stream_fmt     fmt;
    const char       *null;       /* tsv: how NULL is written */
    int64_t           rows, nchunks;
    int               threads, nslots;
    gslot            *slots;
    pthread_mutex_t   mu;
    pthread_cond_t    cv;
    char              head[4096]; /* INSERT INTO ... VALUES, for sql */
    int               abort;
} gjob;

/* Encodes chunk c into b; a row plain TSV cannot hold ends it, with the reason in bad. */
static void encode_chunk(gjob *j, int64_t c, gen_row *row, bb_buf *b, char *bad, size_t badlen)
{
    int64_t first = c * CHUNK_ROWS, last = first + CHUNK_ROWS;
    if (last > j->rows) last = j->rows;
    b->len = 0;
    bad[0] = 0;
    for (int64_t n = first; n < last; n++) {
        gen_fill(j->t, (uint64_t)n, row);
        const char *why;
        int col;
        if (j->fmt == BB_FMT_TSV && (col = enc_row_tsv(j->t, row, j->null, b, &why)) > 0) {
            int as_null = !strncmp(why, "text with", 9) ? 0 : 1; /* else it holds a tab or a line end */
            snprintf(bad, badlen, "row %lld (line %lld), column %s: the value is %s, which plain TSV %s: %suse --format=csv "
                     "or copy", (long long)n + 1, (long long)n + 1, j->t->colnames[col - 1], why,
                     as_null ? "cannot tell from NULL" : "cannot hold (it has no escapes)",
                     as_null ? "write NULL as other text with --null=TEXT, or " : "");
            return;
        }
        if (j->fmt == BB_FMT_TSV) continue;
        if (j->fmt == BB_FMT_SQL) {
            int starts = n % SQL_STMT_ROWS == 0, ends = (n + 1) % SQL_STMT_ROWS == 0 || n + 1 == j->rows;
            if (starts) bb_buf_puts(b, j->head);
            enc_row(BB_FMT_SQL, j->dia, j->t, row, b);
            bb_buf_puts(b, ends ? ";\n" : ",\n");
        } else {
            enc_row(j->fmt, j->dia, j->t, row, b);
        }
    }
}

typedef struct { gjob *j; int id; } gworker;

static void *gen_worker(void *arg)
{
    gworker *gw = arg;
    gjob *j = gw->j;
    gen_row *row = gen_row_new(j->t);
    bb_buf local = { 0 };
    char bad[256];
    for (int64_t c = gw->id; c < j->nchunks; c += j->threads) {
        encode_chunk(j, c, row, &local, bad, sizeof bad);
        gslot *s = &j->slots[c % j->nslots];
        pthread_mutex_lock(&j->mu);
        while (s->chunk != -1 && !j->abort) pthread_cond_wait(&j->cv, &j->mu);
        if (j->abort) { pthread_mutex_unlock(&j->mu); break; }
        bb_buf tmp = s->buf; /* swap buffers: no copy */
        s->buf = local;
        local = tmp;
        s->chunk = c;
        memcpy(s->bad, bad, sizeof bad);
        pthread_cond_broadcast(&j->cv);
        pthread_mutex_unlock(&j->mu);
    }
    bb_buf_free(&local);
    gen_row_free(row);
    return NULL;
}

static int write_all(FILE *f, const char *path, const char *p, size_t n, bb_err *err)
{
    if (n && fwrite(p, 1, n, f) != n) return bb_errf(err, "writing %s: %s", path, strerror(errno));
    return 0;
}

static int run_job(gjob *j, FILE *f, const char *path, bb_err *err)
{
    j->nchunks = (j->rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
    if (j->threads <= 1) { /* no threads, no hand-over */
        gen_row *row = gen_row_new(j->t);
        bb_buf b = { 0 };
        int rc = 0;
        char bad[256];
        for (int64_t c = 0; c < j->nchunks && rc == 0; c++) {
            encode_chunk(j, c, row, &b, bad, sizeof bad);
            rc = write_all(f, path, b.p, b.len, err);
            if (rc == 0 && bad[0]) rc = bb_errf(err, "%s: %s", path, bad);
        }
        bb_buf_free(&b);
        gen_row_free(row);
        return rc;
    }
    j->nslots = j->threads * 2;
    j->slots = bb_xcalloc((size_t)j->nslots, sizeof *j->slots);
    for (int i = 0; i < j->nslots; i++) j->slots[i].chunk = -1;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    pthread_t *th = bb_xcalloc((size_t)j->threads, sizeof *th);
    gworker *gw = bb_xcalloc((size_t)j->threads, sizeof *gw);
    for (int i = 0; i < j->threads; i++) {
        gw[i] = (gworker){ j, i };
        pthread_create(&th[i], NULL, gen_worker, &gw[i]);
    }
    int rc = 0;
    for (int64_t c = 0; c < j->nchunks && rc == 0; c++) {
        gslot *s = &j->slots[c % j->nslots];
        pthread_mutex_lock(&j->mu);
        while (s->chunk != c) pthread_cond_wait(&j->cv, &j->mu);
        pthread_mutex_unlock(&j->mu);
        rc = write_all(f, path, s->buf.p, s->buf.len, err);
        if (rc == 0 && s->bad[0]) rc = bb_errf(err, "%s: %s", path, s->bad);
        pthread_mutex_lock(&j->mu);
        s->chunk = -1;
        if (rc < 0) j->abort = 1;
        pthread_cond_broadcast(&j->cv);
        pthread_mutex_unlock(&j->mu);
    }
    for (int i = 0; i < j->threads; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < j->nslots; i++) bb_buf_free(&j->slots[i].buf);
    free(j->slots);
    free(th);
    free(gw);
    return rc;
}

static void build_head(gjob *j)
{
    bb_buf b = { 0 };
    char q = j->dia->ident_quote;
    bb_buf_printf(&b, "INSERT INTO %c%s%c (", q, j->t->name, q);
    for (int i = 0; i < j->t->ncols; i++) bb_buf_printf(&b, "%s%c%s%c", i ? "," : "", q, j->t->colnames[i], q);
    bb_buf_puts(&b, ") VALUES\n");
    snprintf(j->head, sizeof j->head, "%.*s", (int)b.len, b.p);
    bb_buf_free(&b);
}

int gencmd_run(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    int rc = 0;
    if (cli->npos != 1) {
        bb_usagef(&err, "gen needs one script: bulkbench gen SCRIPT.lua --table=NAME --rows=N");
        goto fail;
    }
    if (opts_check_common(cli, &err) < 0) goto fail;
    const char *table = opts_get(cli, "table"), *rows = opts_get(cli, "rows");
    if (!table || !rows) {
        bb_usagef(&err, "gen needs --table=NAME and --rows=N");
        goto fail;
    }
    gjob j = { .rows = atoll(rows), .threads = atoi(opts_get(cli, "threads")) };
    const char *fmt = opts_get(cli, "format");
    if (enc_format_parse(fmt, &j.fmt) < 0 || j.fmt == BB_FMT_BINARY || j.fmt == BB_FMT_LOAD_TEXT) {
        bb_usagef(&err, "--format=%s: gen writes copy, csv, tsv or sql", fmt);
        goto fail;
    }
    j.null = opts_get(cli, "null");
    if (j.null && j.fmt != BB_FMT_TSV) {
        bb_usagef(&err, "--null goes with --format=tsv (copy writes NULL as \\N, csv as an unquoted empty field)");
        goto fail;
    }
    if (j.null && strpbrk(j.null, "\t\n\r")) {
        bb_usagef(&err, "--null='%s': a TSV field cannot hold a tab or a line end", j.null);
        goto fail;
    }
    if (!j.null) j.null = "";
    const char *engine = opts_get(cli, "engine");
    const bb_driver *drv = bb_driver_find(engine);
    if (!drv) { bb_usagef(&err, "unknown engine '%s'", engine); goto fail; }
    j.dia = drv->dialect;

    host_ctx hc = { .cli = cli, .setup = 1, .seed = (uint64_t)strtoull(opts_get(cli, "seed"), NULL, 10),
                    .dialect = j.dia };
    if (opts_now(cli, &hc.now_s, &err) < 0) goto fail;
    lua_State *L = host_new(&hc, cli->pos[0], &err);
    if (!L || host_run_script(L, cli->pos[0], &err) < 0) goto fail;
    if (opts_check_unused(cli, (const char *const *)hc.declared, &err) < 0) goto fail;
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "tables");
    lua_getfield(L, -1, table);
    if (!lua_istable(L, -1)) {
        bb_usagef(&err, "%s defines no table '%s' (bb.table)", cli->pos[0], table);
        goto fail;
    }
    if (!(j.t = api_to_gen(L, lua_gettop(L)))) {
        bb_errf(&err, "table '%s' has no generators", table);
        goto fail;
    }
    if (j.fmt == BB_FMT_SQL) build_head(&j);

    const char *path = opts_get(cli, "o");
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) {
        bb_errf(&err, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    static char obuf[1 << 20];
    setvbuf(f, obuf, _IOFBF, sizeof obuf);
    err.code = BB_EXIT_RUNTIME;
    rc = run_job(&j, f, path ? path : "standard output", &err);
    if (fflush(f) != 0 && rc == 0) rc = bb_errf(&err, "writing %s: %s", path ? path : "standard output", strerror(errno));
    if (path && fclose(f) != 0 && rc == 0) rc = bb_errf(&err, "writing %s: %s", path, strerror(errno));
    if (rc < 0) goto fail;
    host_close(L);
    return 0;
fail:
    fprintf(stderr, "bulkbench: %s\n", err.msg);
    fputs(err.code == BB_EXIT_USAGE ? "(usage error: see `bulkbench --help`)\n" : "(gen failed: fix the cause named above)\n",
          stderr);
    return err.code ? err.code : BB_EXIT_RUNTIME;
}
