/* advise_space.c — the candidates of `bulkbench advise` (see advise.h): methods × threads ×
 * batches × settings, each method with the batches its kind takes. */
#include "advise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "../core/gen/encode.h"
#include "../core/method/method.h"

void advise_cores(advise *a)
{
    a->cores = a->host.cores > 0 ? a->host.cores : 1;
    a->cores_from = "this client's (the server does not say)";
    bb_target *t = NULL;
    bb_conn *c = NULL;
    bb_err err;
    bb_server_info si;
    memset(&si, 0, sizeof si);
    if (a->drv->target_open(a->dsn, &t, &err) < 0) return;
    const char *where = a->drv->target_where(t);
    if (a->drv->connect(t, &c, &err) == 0 && a->drv->server_info(c, &si, &err) == 0 && si.local_pid > 0)
        a->cores_from = "this host's: the server runs here";
    else if (!strncmp(where, "127.", 4) || !strncmp(where, "localhost", 9) || !strncmp(where, "[::1]", 5) ||
             !strncmp(where, "::1", 3) || where[0] == '/')
        a->cores_from = "this host's: the server is on loopback";
    else if (!strchr(where, ':')) a->cores_from = "this host's: the engine is embedded";
    if (c) a->drv->disconnect(c);
    a->drv->target_close(t);
}

/* 1, 2, 4, ... up to twice the cores, that last one included */
static void thread_ladder(int cores, char *out, size_t n)
{
    size_t len = 0;
    int top = 2 * cores, t = 1;
    for (; t < top; t *= 2) len += (size_t)snprintf(out + len, n - len, "%d,", t);
    snprintf(out + len, n - len, "%d", top);
}

/* powers of ten from `from` up to rows, then "0" (one stream per worker) when asked */
static void batch_ladder(int64_t from, int64_t rows, int whole, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (int64_t b = from; b <= rows && b <= 100000; b *= 10)
        len += (size_t)snprintf(out + len, n - len, "%s%lld", len ? "," : "", (long long)b);
    if (whole) snprintf(out + len, n - len, "%s0", len ? "," : "");
    if (!out[0]) snprintf(out, n, "%lld", (long long)(rows > 0 ? rows : 1));
}

/* One more candidate, blank, with its place in the race. */
static adv_cand *new_cand(advise *a, race_cand **rc)
{
    a->c = bb_xrealloc(a->c, sizeof *a->c * (size_t)(a->n + 1));
    a->rc = bb_xrealloc(a->rc, sizeof *a->rc * (size_t)(a->n + 1));
    adv_cand *c = &a->c[a->n];
    *rc = &a->rc[a->n++];
    memset(c, 0, sizeof *c);
    memset(*rc, 0, sizeof **rc);
    return c;
}

static void add_cand(advise *a, const sweep_combo *combo, const char *const *first_set)
{
    race_cand *rc;
    adv_cand *c = new_cand(a, &rc);
    c->combo = combo;
    c->method = combo->method->name;
    c->batch = combo->batch; /* method_batch's, as the sweep settled it */
    c->threads = combo->threads;
    c->per_row = !method_takes_batch(combo->method);
    size_t len = (size_t)snprintf(c->key, sizeof c->key, "%s:%lld:%d", c->method, (long long)c->batch, c->threads);
    for (int i = 0; i < combo->nset && len < sizeof c->key; i++) {
        len += (size_t)snprintf(c->key + len, sizeof c->key - len, "%s%s=%s", i ? "," : ":", combo->set_name[i],
                                combo->set_value[i]);
        rc->nset_away += strcmp(combo->set_value[i], first_set[i]) != 0;
    }
    if (combo->strategy && len < sizeof c->key) /* --strategy: a dimension of the race */
        snprintf(c->key + len, sizeof c->key - len, ":strategy=%s", combo->strategy);
    rc->threads = c->threads;
    rc->batch = c->batch;
}

/* The first value of each --set NAME=V1,V2 (the one a candidate is "simpler" with). */
static int first_settings(advise *a, char first[][128])
{
    const char *sets[BB_MAX_SETTINGS];
    int n = opts_all(a->cli, "set", sets, BB_MAX_SETTINGS);
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(sets[i], '=');
        snprintf(first[i], 128, "%s", eq ? eq + 1 : "");
        first[i][strcspn(first[i], ",")] = 0;
    }
    return n;
}

static int build(advise *a, const sweep_lists *l, const char *const *first, bb_err *err)
{
    if (a->nsw == ADV_MAX_SWEEPS) return bb_errf(err, "advise: too many sweeps");
    sweep *s = &a->sw[a->nsw++];
    if (sweep_build_from(a->cli, l, s, err) < 0) return -1;
    for (int k = 0; k < s->n; k++) add_cand(a, &s->combo[k], first);
    return 0;
}

/* --baseline=METHOD:BATCH:THREADS: one of the candidates, or one more raced beside them. */
static int add_baseline(advise *a, const char *const *first, bb_err *err)
{
    const char *b = opts_get(a->cli, "baseline");
    a->baseline = -1;
    if (!b) return 0;
    char m[64], bt[32] = "", th[32] = "";
    if (sscanf(b, "%63[^:]:%31[^:]:%31s", m, bt, th) < 3 && sscanf(b, "%63[^:]::%31s", m, th) < 2)
        return bb_usagef(err, "--baseline expects METHOD:BATCH:THREADS (e.g. multirow:1000:1), got '%s'", b);
    int threads = atoi(th);
    const bb_method *mm = method_find(m);
    if (threads < 1) return bb_usagef(err, "--baseline=%s: THREADS must be at least 1", b);
    if (!mm) return bb_usagef(err, "--baseline=%s: unknown method '%s' (methods: see `bulkbench list`)", b, m);
    char batch[32];
    snprintf(batch, sizeof batch, "%s", bt);
    int64_t eff = method_batch(mm, atoll(batch), 0);
    for (int k = 0; k < a->n; k++)
        if (!strcmp(a->c[k].method, mm->name) && a->c[k].batch == eff && a->c[k].threads == threads &&
            a->rc[k].nset_away == 0) {
            a->baseline = k;
            a->rc[k].baseline = 1;
            return 0;
        }
    if (!strcmp(batch, "0")) batch[0] = 0; /* 0 is the stream methods' default */
    sweep_lists l = { .methods = mm->name, .threads = th, .batches = batch };
    int before = a->n;
    if (build(a, &l, first, err) < 0) return -1;
    a->n = before + 1; /* the first combination has every setting at its first value */
    a->baseline = before;
    a->rc[before].baseline = 1;
    return 0;
}

int advise_space(advise *a, bb_err *err)
{
    char first[BB_MAX_SETTINGS][128];
    const char *fp[BB_MAX_SETTINGS];
    int nfirst = first_settings(a, first);
    for (int i = 0; i < nfirst; i++) fp[i] = first[i];
    /* the methods by the kind of batch they take: none, a batch, or a stream */
    bb_buf kinds[3] = { { 0 } };
    const char *given = opts_given(a->cli, "method");
    int ng = 0;
    char **names = given ? opts_split(given, &ng) : NULL;
    for (const bb_method *m = bb_methods; m->name; m++) {
        int listed = !given;
        for (int i = 0; i < ng; i++) listed |= !strcmp(names[i], m->name);
        if (!listed || (!given && !method_offered(m, a->drv))) continue;
        int k = m->loop == LOOP_ROW ? 0 : m->loop == LOOP_STREAM ? 2 : 1;
        bb_buf_printf(&kinds[k], "%s%s", kinds[k].len ? "," : "", m->name);
    }
    for (int i = 0; i < ng; i++)
        if (!method_find(names[i])) { /* unknown: the sweep names the nearest */
            bb_buf_printf(&kinds[1], "%s%s", kinds[1].len ? "," : "", names[i]);
            break;
        }
    opts_split_free(names);
    char threads[128], batches[2][128];
    if (opts_given(a->cli, "threads")) snprintf(threads, sizeof threads, "%s", opts_given(a->cli, "threads"));
    else thread_ladder(a->cores, threads, sizeof threads);
    batch_ladder(10, a->rows, 0, batches[0], sizeof batches[0]);
    batch_ladder(1000, a->rows, 1, batches[1], sizeof batches[1]);
    const char *given_batch = opts_given(a->cli, "batch");
    int rc = 0;
    for (int k = 0; k < 3 && rc == 0; k++) {
        if (!kinds[k].len) continue;
        bb_buf_putc(&kinds[k], 0);
        sweep_lists l = { .methods = kinds[k].p,
                          .threads = threads,
                          .batches = k == 0 ? ""
                              : given_batch ? given_batch
                                            : batches[k - 1] };
        rc = build(a, &l, fp, err);
    }
    for (int k = 0; k < 3; k++) bb_buf_free(&kinds[k]);
    if (rc == 0 && a->n == 0) rc = bb_usagef(err, "engine %s offers no load method to race", a->drv->name);
    return rc < 0 ? -1 : add_baseline(a, fp, err);
}

const char *advise_size_text(int64_t b, char *out, size_t n)
{
    if (b % (1 << 20) == 0) snprintf(out, n, "%lldMB", (long long)(b >> 20));
    else if (b % 1024 == 0) snprintf(out, n, "%lldkB", (long long)(b >> 10));
    else snprintf(out, n, "%lld", (long long)b);
    return out;
}

int advise_file_space(advise *a, int64_t file_bytes, bb_err *err)
{
    bb_stream_fmt fmt;
    const bb_method *m = enc_format_parse(a->lo.format, &fmt) == 0 ? method_for_file(a->drv, fmt) : NULL;
    if (!m) return bb_usagef(err, "engine %s cannot load files (bulkbench load needs COPY or LOAD DATA)", a->drv->name);
    const char *method = m->name; /* the one `bulkbench load` would use */
    char threads[128];
    if (opts_given(a->cli, "threads")) snprintf(threads, sizeof threads, "%s", opts_given(a->cli, "threads"));
    else thread_ladder(a->cores, threads, sizeof threads);
    int64_t chunks[16];
    int nc = 0, nt = 0;
    if (opts_given(a->cli, "chunk")) {
        char **v = opts_split(opts_given(a->cli, "chunk"), &nc);
        for (int i = 0; i < nc && i < 16; i++) chunks[i] = opts_parse_size(v[i]);
        opts_split_free(v);
    } else
        for (int64_t c = 1 << 20; c <= 64 << 20 && nc < 16; c *= 4)
            if (c <= file_bytes || nc == 0) chunks[nc++] = c;
    char **tv = opts_split(threads, &nt);
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < nc; i++) {
            race_cand *rc;
            adv_cand *c = new_cand(a, &rc);
            c->method = method;
            c->batch = rc->batch = chunks[i];
            c->threads = rc->threads = atoi(tv[t]);
            char sz[32];
            snprintf(c->key, sizeof c->key, "%s:%s:%d", method, advise_size_text(chunks[i], sz, sizeof sz), c->threads);
        }
    opts_split_free(tv);
    a->baseline = -1;
    if (opts_get(a->cli, "baseline"))
        return bb_usagef(err,
                         "--baseline races a script's configuration; for a file, give --threads and --chunk lists");
    return 0;
}

void advise_space_free(advise *a)
{
    for (int i = 0; i < a->nsw; i++) sweep_free(&a->sw[i]);
    a->nsw = 0;
}
