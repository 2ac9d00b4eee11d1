/* repeat.c — a sweep point's repeated runs folded into one result (see repeat.h). */
#include "repeat.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "../../../base/buf.h"

/* run is one run (no rep of its own), so the result's rates are its figures over its seconds */
static bb_run_figs figs_of(bb_result *run)
{
    bb_run_figs f = { .rows_per_s = result_rows_per_s(run),
                      .events_per_s = result_events_per_s(run),
                      .mb_per_s = result_mb_per_s(run),
                      .seconds = run->seconds,
                      .p50 = run->p50,
                      .p95 = run->p95,
                      .p99 = run->p99,
                      .max = run->max,
                      .rows = run->rows };
    series_move(&f.intervals, &run->intervals);
    return f;
}

void repeat_add(bb_result *point, bb_result *run, int repeats, int warmup_runs)
{
    bb_repeat *rep = point->rep;
    uint64_t *hist = point->hist;
    if (!rep) {
        rep = bb_xcalloc(1, sizeof *rep);
        rep->repeats = repeats;
        rep->warmup_runs = warmup_runs;
        rep->runs = bb_xcalloc((size_t)repeats, sizeof *rep->runs);
        rep->whole = bb_xcalloc((size_t)repeats, sizeof *rep->whole);
    }
    if (rep->n < rep->repeats) {
        rep->runs[rep->n] = figs_of(run);
        bb_result *w = &rep->whole[rep->n++];
        *w = *run;
        memset(&w->intervals, 0, sizeof w->intervals);
        w->hist = NULL;
        w->rep = NULL;
    }
    if (hist && run->hist) /* equal buckets add up exactly: the point's histogram is the sum of its runs' */
        for (unsigned i = 0; i < STATS_NBUCKETS; i++) hist[i] += run->hist[i];
    if (hist) free(run->hist);
    else hist = run->hist;
    series_free(&run->intervals);
    *point = *run; /* until repeat_finish picks the median run */
    memset(&point->intervals, 0, sizeof point->intervals);
    point->hist = hist;
    point->rep = rep;
    run->hist = NULL;
    run->rep = NULL;
}

/* The median of one figure over the runs (-1 when no run measured it). */
static double median_of(const bb_repeat *rep, size_t offset)
{
    double *v = bb_xmalloc(sizeof *v * (size_t)rep->n);
    int k = 0;
    for (int i = 0; i < rep->n; i++) {
        double x = *(const double *)((const char *)&rep->runs[i] + offset);
        if (x >= 0) v[k++] = x;
    }
    double m = k ? summary_median(v, k) : -1;
    free(v);
    return m;
}

static void summarise(const bb_repeat *rep, size_t offset, uint64_t seed, bb_summary *out)
{
    double *v = bb_xmalloc(sizeof *v * (size_t)rep->n);
    for (int i = 0; i < rep->n; i++) v[i] = *(const double *)((const char *)&rep->runs[i] + offset);
    summary_of(v, rep->n, seed, out);
    free(v);
}

/* The run whose rows/s is the median (the lower middle one of an even count). */
static int median_run(const bb_repeat *rep)
{
    for (int i = 0; i < rep->n; i++) {
        int place = 0; /* run i's place in a stable sort by rows/s */
        for (int j = 0; j < rep->n; j++)
            place += rep->runs[j].rows_per_s < rep->runs[i].rows_per_s ||
                (j < i && rep->runs[j].rows_per_s == rep->runs[i].rows_per_s);
        if (place == (rep->n - 1) / 2) return i;
    }
    return rep->n - 1;
}

void repeat_finish(bb_result *point, uint64_t seed)
{
    bb_repeat *rep = point->rep;
    if (!rep || !rep->n) return;
    bb_series intervals = point->intervals;
    uint64_t *hist = point->hist;
    int mid = median_run(rep);
    for (int i = 0; i < rep->n; i++) /* the median run's growth is the point's; the others' go */
        if (i != mid) growth_free(&rep->whole[i].growth);
    *point = rep->whole[mid]; /* rows, costs and verification: the median run's */
    point->intervals = intervals;
    point->hist = hist;
    point->rep = rep;
    summarise(rep, offsetof(bb_run_figs, rows_per_s), seed, &rep->rows_per_s);
    summarise(rep, offsetof(bb_run_figs, seconds), seed, &rep->seconds);
    summarise(rep, offsetof(bb_run_figs, p50), seed, &rep->p50);
    summarise(rep, offsetof(bb_run_figs, p99), seed, &rep->p99);
    rep->events_per_s = median_of(rep, offsetof(bb_run_figs, events_per_s));
    rep->mb_per_s = median_of(rep, offsetof(bb_run_figs, mb_per_s));
    point->seconds = rep->seconds.median;
    point->p50 = rep->p50.median;
    point->p95 = median_of(rep, offsetof(bb_run_figs, p95));
    point->p99 = rep->p99.median;
    point->max = median_of(rep, offsetof(bb_run_figs, max));
    /* an outlier only where the runs can show one: Dixon's Q, not a Z-score whose MAD is the
     * distance between two of three runs */
    double *x = bb_xmalloc(sizeof *x * (size_t)rep->n);
    for (int i = 0; i < rep->n; i++) x[i] = rep->runs[i].rows_per_s;
    int at = summary_dixon(x, rep->n, &rep->q, &rep->q_crit);
    for (int i = 0; i < rep->n; i++) rep->runs[i].outlier = i == at;
    rep->outliers = at >= 0;
    free(x);
}
