/* advise_judge.c — what advise concludes past the race's standings (advise.h): the pick
 * against the baseline from their paired runs, the risk the race's drops took, and what would
 * move the pick's bound, drawn from its own method and the table's catalog. */
#include "advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "../core/method/method.h"
#include "../host/lib.h"
#include "output.h"

#define ADV_SETTLE_MAX 200 /* paired runs past which "more would settle it" is not said */

int64_t advise_standing_rows(const advise *a, int k)
{
    const race_cand *c = &a->rc[k];
    return c->nmark ? c->mark[c->nmark - 1].rows : 0;
}

/* The logs of the paired ratios pick / baseline at `rows`: the runs of one turn of one round
 * (each ran right after the other), both through; into v, how many. */
static int paired_logs(const advise *a, int pick, int64_t rows, double *v)
{
    int n = 0;
    const adv_cand *p = &a->c[pick], *b = &a->c[a->baseline];
    for (int i = 0; i < p->nruns; i++) {
        const adv_run *x = &p->runs[i];
        if (x->rows_asked != rows || x->res.error[0]) continue;
        for (int j = 0; j < b->nruns; j++) {
            const adv_run *y = &b->runs[j];
            double rx = result_rows_per_s(&x->res), ry = result_rows_per_s(&y->res);
            if (y->round == x->round && y->rep == x->rep && y->rows_asked == rows && !y->res.error[0] && rx > 0 &&
                ry > 0)
                v[n++] = log(rx / ry);
        }
    }
    return n;
}

/* How many paired runs more would make the interval of mean m (sd s, n pairs) clear 1 or
 * fall within the tie; -1 when more than ADV_SETTLE_MAX would not. */
static int settle_after(double m, double s, int n, double tie)
{
    for (int k = n + 1; k <= n + ADV_SETTLE_MAX; k++) {
        double half = summary_t95(k - 1) * s / sqrt(k);
        if (half < fabs(m) || half < log(1 + tie) - fabs(m)) return k - n;
    }
    return -1;
}

int advise_baseline(const advise *a, int pick, adv_ratio *out)
{
    *out = (adv_ratio){ .lo = -1, .hi = -1, .more = -1 };
    if (a->baseline < 0 || pick < 0) return 0;
    const race_cand *b = &a->rc[a->baseline];
    out->base_rps = b->stat.n ? b->stat.median : -1;
    out->rows = advise_standing_rows(a, pick);
    if (pick == a->baseline) {
        out->ratio = 1, out->verdict = "the baseline itself";
        return 1;
    }
    if (b->state == RACE_FAILED) {
        out->verdict = "the baseline failed";
        return 1;
    }
    double *v = bb_xmalloc(sizeof *v * (size_t)(a->c[pick].nruns * a->c[a->baseline].nruns + 1));
    int n = out->pairs = paired_logs(a, pick, out->rows, v);
    double mean = 0, ss = 0, tie = a->r.cfg.tie;
    for (int i = 0; i < n; i++) mean += v[i] / n;
    for (int i = 0; i < n; i++) ss += (v[i] - mean) * (v[i] - mean);
    free(v);
    out->ratio = n ? exp(mean) : b->stat.n && a->rc[pick].stat.n ? a->rc[pick].stat.median / b->stat.median : -1;
    if (n < 2) {
        out->verdict = "not a verdict: fewer than two paired runs";
        return out->ratio > 0;
    }
    double s = sqrt(ss / (n - 1));
    out->level = summary_predict_var(out->ratio, s * s / n, n - 1, &out->lo, &out->hi);
    if (out->lo > 1) out->verdict = "faster";
    else if (out->hi < 1) out->verdict = "slower";
    else if (out->lo >= 1 / (1 + tie) && out->hi <= 1 + tie) out->verdict = "no difference";
    else {
        out->verdict = "not a verdict";
        out->more = settle_after(mean, s, n, tie);
    }
    return 1;
}

void advise_verdict_text(const adv_ratio *r, double tie, char *out, size_t n)
{
    if (strcmp(r->verdict, "not a verdict")) {
        snprintf(out, n, "%s%s", r->verdict, !strcmp(r->verdict, "no difference") ? " (within " : "");
        if (!strcmp(r->verdict, "no difference")) snprintf(out + strlen(out), n - strlen(out), "%.0f%%)", tie * 100);
    } else if (r->more > 0)
        snprintf(out, n, "not a verdict: about %d more paired run%s would settle it", r->more, r->more == 1 ? "" : "s");
    else snprintf(out, n, "not a verdict: the runs spread too widely for %d more to settle it", ADV_SETTLE_MAX);
}

double advise_drop_risk(const advise *a, int pick, int *worst, double *max)
{
    double sum = 0;
    int any = 0;
    *worst = -1, *max = -1;
    for (int k = 0; k < a->n; k++) {
        if (a->rc[k].state != RACE_DROPPED) continue;
        double p = race_drop_risk(&a->r, k, pick);
        if (p < 0) continue;
        any = 1, sum += p;
        if (p > *max) *max = p, *worst = k;
    }
    return any ? (sum < 1 ? sum : 1) : -1;
}

/* "; or "-joins part onto out (of n) at *len. */
static void add(char *out, size_t n, size_t *len, const char *part)
{
    if (*len < n) *len += (size_t)snprintf(out + *len, n - *len, "%s%s", *len ? "; or " : "", part);
}

/* The engine's stream methods no candidate of the race used, ", "-joined into out. */
static void streams_not_raced(const advise *a, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (const bb_method *m = bb_methods; m->name; m++) {
        if (m->loop != LOOP_STREAM || !method_offered(m, a->drv)) continue;
        int raced = 0;
        for (int k = 0; k < a->n && !raced; k++) raced = !strcmp(a->c[k].method, m->name);
        if (!raced && len < n) len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", m->name);
    }
}

/* The strategies that address `kind` and would change something for the raced table. */
static void strategies(const advise *a, const char *kind, char *out, size_t n)
{
    bb_err err;
    out[0] = 0;
    if (a->table &&
        lib_strategies_for(a->file ? NULL : a->rs.L, a->drv->name, a->dsn, a->table, kind, out, n, &err) < 0)
        out[0] = 0;
}

/* Fewer round trips or commits (a bound of wal or network): a larger batch, a stream method
 * the race did not try, or, for a stream, more threads. */
static void trips(const advise *a, const adv_cand *c, const char *kind, int streams, char *out, size_t n, size_t *len)
{
    char part[640], st[256];
    int net = !strcmp(kind, "network"), most = 0;
    for (int k = 0; k < a->n; k++) most = a->c[k].threads > most ? a->c[k].threads : most;
    if (!streams && !c->per_row) {
        snprintf(part, sizeof part, "%s: a batch larger than %lld", net ? "fewer round trips" : "commit less often",
                 (long long)c->batch);
        add(out, n, len, part);
    }
    streams_not_raced(a, st, sizeof st);
    if (net && !streams && st[0]) {
        snprintf(part, sizeof part, "a stream method the race did not try (%s)", st);
        add(out, n, len, part);
    }
    if (net && streams && c->threads < 2 * most) {
        snprintf(part, sizeof part, "the rows already stream: more than %d thread%s, or the client nearer the server",
                 c->threads, c->threads == 1 ? "" : "s");
        add(out, n, len, part);
    }
}

void advise_move(const advise *a, int pick, const char *kind, char *out, size_t n)
{
    const adv_cand *c = &a->c[pick];
    const bb_method *m = method_find(c->method);
    int streams = c->batch == 0 || (m && m->loop == LOOP_STREAM);
    char s[512], part[640];
    size_t len = 0;
    out[0] = 0;
    if (!strcmp(kind, "wal") || !strcmp(kind, "network")) trips(a, c, kind, streams, out, n, &len);
    strategies(a, kind, s, sizeof s);
    if (s[0]) {
        snprintf(part, sizeof part, "%s for the load (strategy %s)",
                 !strcmp(kind, "wal") ? "relax what each commit writes" : "less work per row on the server", s);
        add(out, n, &len, part);
    }
    if ((!strcmp(kind, "server-cpu") || !strcmp(kind, "client-cpu")) && c->threads < a->cores) {
        snprintf(part, sizeof part, "more threads: the server has %d cores, the load used %d", a->cores, c->threads);
        add(out, n, &len, part);
    }
    if (!strcmp(kind, "lock") && c->threads > 1)
        add(out, n, &len, "fewer threads, or each thread on its own key range");
    if (!strcmp(kind, "io")) add(out, n, &len, "a larger buffer cache (shared_buffers, innodb_buffer_pool_size)");
    if (!strcmp(kind, "checkpoint"))
        add(out, n, &len, "checkpoints further apart (a larger max_wal_size, innodb_log_file_size)");
}
