/* output_text.c — results as the text table `run` and `load` print: a row per point, a column
 * for each dimension that varies between them, a failed point's error in its row; then each
 * point's bottleneck and the warnings about its runs (--repeat). */
#include "output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "../core/run/verify.h"

static void fmt_num(char *out, size_t n, double v, int prec)
{
    if (v < 0) snprintf(out, n, "null");
    else snprintf(out, n, "%.*f", prec, v);
}

/* "median (lo-hi)" under --repeat, the interval of the median; else the figure (null when unknown). */
static void fmt_spread(char *out, size_t n, double v, const bb_summary *s, int prec)
{
    if (v < 0) snprintf(out, n, "null");
    else if (s && s->n > 1) snprintf(out, n, "%.*f (%.*f-%.*f)", prec, v, prec, s->lo, prec, s->hi);
    else snprintf(out, n, "%.*f", prec, v);
}

/* "96.8%", "75%": a coverage, never rounded up to a level it misses (lua/report/stats.lua's percent) */
static void fmt_level(char *out, size_t n, double level)
{
    double p = floor(level * 1000 + 1e-9) / 10;
    if (p == floor(p)) snprintf(out, n, "%.0f%%", p);
    else snprintf(out, n, "%.1f%%", p);
}

/* What the brackets of the table hold, true of every point's runs: their interval's level,
 * or, with fewer runs than that needs, the range of the runs and how often it holds the median. */
static void print_interval_note(FILE *f, const bb_result *rs, int n)
{
    int lo_n = 0;
    double lowest = 2;
    for (int i = 0; i < n; i++) {
        const bb_repeat *rep = rs[i].rep;
        if (rep && rep->rows_per_s.n > 1 && rep->rows_per_s.level < lowest)
            lowest = rep->rows_per_s.level, lo_n = rep->rows_per_s.n;
    }
    if (!lo_n) return;
    char lv[16];
    fmt_level(lv, sizeof lv, lowest);
    if (lowest >= SUMMARY_LEVEL)
        fprintf(f,
                "(rows/s and seconds: the median of each point's runs and, in brackets, its interval: "
                "%s or more sure to hold the median)\n",
                lv);
    else
        fprintf(f,
                "(rows/s and seconds: the median of each point's runs and, in brackets, the range of its runs, "
                "which holds the median %s of the time with %d runs: too few for a confident interval)\n",
                lv, lo_n);
}

void result_who(const bb_result *r, char *buf, size_t n)
{
    bb_buf b = { 0 };
    bb_buf_printf(&b, "%s %s threads=%d", r->engine, r->method[0] ? r->method : "event", r->threads);
    if (r->batch >= 0) bb_buf_printf(&b, " batch=%lld", (long long)r->batch);
    if (r->target[0]) bb_buf_printf(&b, " target=%s", r->target);
    if (r->strategy[0]) bb_buf_printf(&b, " strategy=%s", r->strategy);
    for (int i = 0; i < r->nset; i++) bb_buf_printf(&b, " %s=%s", r->set_name[i], r->set_value[i]);
    bb_buf_putc(&b, 0);
    snprintf(buf, n, "%s", b.p);
    free(b.p);
}

/* --repeat: a point whose runs spread by more than 10% or have an outlier says so. */
void result_print_warnings(FILE *f, const bb_result *rs, int n)
{
    print_interval_note(f, rs, n);
    for (int i = 0; i < n; i++) {
        const bb_repeat *rep = rs[i].rep;
        if (!rep || !rep->n) continue;
        char who[256];
        result_who(&rs[i], who, sizeof who);
        if (rep->rows_per_s.cv > 0.10)
            fprintf(f,
                    "WARNING: %s: rows/s varies by %.1f%% across its %d runs (coefficient of variation above 10%%)\n",
                    who, rep->rows_per_s.cv * 100, rep->n);
        for (int k = 0; k < rep->n; k++) {
            const bb_run_figs *x = &rep->runs[k];
            if (!x->outlier) continue;
            fprintf(f,
                    "WARNING: %s: run %d of %d is an outlier: %.0f rows/s in %.3f s against a median of %.0f rows/s "
                    "(Dixon's Q %.3f above %.3f, its critical value for %d runs)\n",
                    who, k + 1, rep->n, x->rows_per_s, x->seconds, rep->rows_per_s.median, rep->q, rep->q_crit,
                    rep->rows_per_s.n);
        }
    }
}

/* The bottleneck of each result beside its rows/s, under the table. */
static void result_print_bottlenecks(FILE *f, const bb_result *rs, int n)
{
    for (int i = 0; i < n; i++) {
        const bb_result *r = &rs[i];
        if (!r->waits.kind[0]) continue;
        if (n > 1)
            fprintf(f, "bottleneck %s %s %dx%lld, %.0f rows/s: %s (%s)\n", r->engine,
                    r->method[0] ? r->method : "event", r->threads, (long long)r->batch, result_rows_per_s(r),
                    r->waits.kind, r->waits.evidence);
        else
            fprintf(f, "bottleneck at %.0f rows/s: %s (%s)\n", result_rows_per_s(r), r->waits.kind, r->waits.evidence);
    }
}

/* A dimension that varies between the points of a table: a --target, a --strategy, a --set or
 * a script option; its column shows each point's value. */
typedef struct vcol {
    char head[72];
    char kind; /* 't'arget, 's'trategy, 'e' a setting, 'o' a script option */
    const char *name;
    int width;
} vcol;

static const char *vcol_value(const vcol *c, const bb_result *r)
{
    if (c->kind == 't') return r->target[0] ? r->target : "-";
    if (c->kind == 's') return r->strategy[0] ? r->strategy : "none";
    if (c->kind == 'e') {
        for (int i = 0; i < r->nset; i++)
            if (strcmp(r->set_name[i], c->name) == 0) return r->set_value[i];
    } else {
        for (int i = 0; i < r->nopts; i++)
            if (strcmp(r->opt_name[i], c->name) == 0) return r->opt_value[i];
    }
    return "-";
}

/* Adds column (kind, name) when its value is not the same in every result, and is not there yet. */
static int vcol_add(vcol *cols, int nc, int max, char kind, const char *name, const bb_result *rs, int n)
{
    vcol c = { .kind = kind, .name = name };
    for (int i = 0; i < nc; i++)
        if (cols[i].kind == kind && (!name || strcmp(cols[i].name, name) == 0)) return nc;
    int varies = 0;
    for (int i = 1; i < n; i++) varies |= strcmp(vcol_value(&c, &rs[i]), vcol_value(&c, &rs[0])) != 0;
    if (!varies || nc == max) return nc;
    snprintf(c.head, sizeof c.head, "%s%s", kind == 'o' ? "--" : "", kind == 't' ? "target" : kind == 's' ? "strategy" : name);
    c.width = (int)strlen(c.head);
    for (int i = 0; i < n; i++)
        if ((int)strlen(vcol_value(&c, &rs[i])) > c.width) c.width = (int)strlen(vcol_value(&c, &rs[i]));
    cols[nc] = c;
    return nc + 1;
}

/* The columns of the dimensions that vary between rs, beyond engine, method, threads and batch. */
static int varying_columns(const bb_result *rs, int n, vcol *cols, int max)
{
    int nc = vcol_add(cols, 0, max, 't', NULL, rs, n);
    nc = vcol_add(cols, nc, max, 's', NULL, rs, n);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < rs[i].nset; k++) nc = vcol_add(cols, nc, max, 'e', rs[i].set_name[k], rs, n);
        for (int k = 0; k < rs[i].nopts; k++) nc = vcol_add(cols, nc, max, 'o', rs[i].opt_name[k], rs, n);
    }
    return nc;
}

/* One row of the table: a point's figures (its error after them when it failed). */
static void print_row(FILE *f, const bb_result *r, const vcol *cols, int nc, int wr, int ws)
{
    char batch[24], secs[48], rps[48], mbs[24], p50[24], p95[24], p99[24], mx[24], ver[24];
    if (r->batch < 0) snprintf(batch, sizeof batch, "-");
    else snprintf(batch, sizeof batch, "%lld", (long long)r->batch);
    fmt_spread(secs, sizeof secs, r->seconds, r->rep ? &r->rep->seconds : NULL, 3);
    fmt_spread(rps, sizeof rps, result_rows_per_s(r), r->rep ? &r->rep->rows_per_s : NULL, 0);
    fmt_num(mbs, sizeof mbs, result_mb_per_s(r), 2);
    fmt_num(p50, sizeof p50, r->p50, 3);
    fmt_num(p95, sizeof p95, r->p95, 3);
    fmt_num(p99, sizeof p99, r->p99, 3);
    fmt_num(mx, sizeof mx, r->max, 3);
    snprintf(ver, sizeof ver, "%s", verify_cell((bb_verdict)r->verdict)); /* judged once, where the rows were */
    fprintf(f, "%-12s %-14s %7d %6s", r->engine, r->method[0] ? r->method : "event", r->threads, batch);
    for (int i = 0; i < nc; i++) fprintf(f, " %-*s", cols[i].width, vcol_value(&cols[i], r));
    int first = (int)strcspn(r->error, "\n"); /* an error's further lines (a traceback) go under the row */
    fprintf(f, " %10lld %*s %*s %8s %9s %9s %9s %9s %6lld %9s%s%.*s\n", (long long)r->rows, ws, secs, wr, rps, mbs, p50,
            p95, p99, mx, (long long)r->errors, ver, r->error[0] ? "  FAILED: " : "", first, r->error);
    for (const char *l = r->error + first; *l;) {
        l++;
        int k = (int)strcspn(l, "\n");
        fprintf(f, "    %.*s\n", k, l);
        l += k;
    }
    if (r->strategy_skipped[0]) fprintf(f, "  %s\n", r->strategy_skipped);
    else if (r->strategy[0] && !r->error[0]) /* a failed point's phases are not a result */
        fprintf(f, "  strategy %s: before %.3f s + load %.3f s + after %.3f s (rows/s over all three)\n", r->strategy,
                r->before_s, r->seconds, r->after_s);
}

void result_print_table(FILE *f, const bb_result *rs, int n)
{
    int wr = 12, ws = 8; /* wider columns for "median (lo-hi)" */
    for (int i = 0; i < n; i++)
        if (rs[i].rep) wr = 24, ws = 19;
    vcol cols[16];
    int nc = varying_columns(rs, n, cols, 16);
    fprintf(f, "%-12s %-14s %7s %6s", "engine", "method", "threads", "batch");
    for (int i = 0; i < nc; i++) fprintf(f, " %-*s", cols[i].width, cols[i].head);
    fprintf(f, " %10s %*s %*s %8s %9s %9s %9s %9s %6s %9s\n", "rows", ws, "seconds", wr, "rows/s", "MB/s", "p50 ms",
            "p95 ms", "p99 ms", "max ms", "errors", "verified");
    for (int i = 0; i < n; i++) print_row(f, &rs[i], cols, nc, wr, ws);
    result_print_bottlenecks(f, rs, n);
    result_print_warnings(f, rs, n);
}

