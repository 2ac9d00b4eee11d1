/* test_scale_model.c — the forecast of a load's time from its first part
 * (runtime/core/run/scale_model.c), on loads made from the model's own law, as TAP. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/run/scale_model.h"
#include "tap.h"

/* A load that costs a + s·k(1 - (nm/n)^p) a row, sampled every gap seconds until its first
 * share of the time; with reads counted (reads = 1) or not. Its whole time into *full. */
typedef struct load {
    double a, s, k, nm, p;
    int64_t rows;
    int reads;
    int64_t cache_bytes;
    int direct;
} load;

static double row_s(const load *l, double n) { return l->a + l->s * (n <= l->nm ? 0 : l->k * (1 - pow(l->nm / n, l->p))); }

static void make(const load *l, double share, bb_growth *g, double *full)
{
    double t = 0, n = 0, reads = 0, dn = 1000, next = 0;
    memset(g, 0, sizeof *g);
    g->cap = 100000;
    g->v = calloc((size_t)g->cap, sizeof *g->v);
    g->cache_bytes = l->cache_bytes;
    g->cache_direct = l->direct;
    g->indexes = 3;
    double total = 0;
    for (double m = 0; m < (double)l->rows; m += dn) total += dn * row_s(l, m + dn / 2);
    *full = total;
    while (n < (double)l->rows && t < share * total) {
        t += dn * row_s(l, n + dn / 2);
        reads += dn * (row_s(l, n + dn / 2) - l->a) / l->s;
        n += dn;
        if (t >= next) {
            g->v[g->n++] = (bb_growth_point){ .t = t,
                                              .table_rows = (int64_t)n,
                                              .heap_bytes = (int64_t)(n * 150),
                                              .index_bytes = (int64_t)(n * 100),
                                              .reads = l->reads ? (int64_t)reads : -1 };
            next = t + (t / 30 > 0.25 ? t / 30 : 0.25);
        }
    }
}

static void check(const char *what, const load *l, double share, int64_t memory, scale_state want, double tol)
{
    bb_growth g;
    double full;
    make(l, share, &g, &full);
    scale_prior pr = { .memory_limit = memory, .host_memory = -1 };
    scale_fit f;
    int rc = scale_forecast(&g, l->rows, &pr, &f);
    char line[300];
    snprintf(line, sizeof line, "%s: %s %.0f s [%.0f, %.0f] for a load of %.0f s (%.1f%%)", what,
             rc == 0 ? scale_state_name(f.state) : "no forecast", f.seconds, f.lo, f.hi, full,
             100 * (f.seconds / full - 1));
    ok(rc == 0 && f.state == want && fabs(f.seconds / full - 1) <= tol && f.lo <= full && full <= f.hi, line);
    free(g.v);
}

int main(void)
{
    /* past the knee, reads counted: the law is found again, and the time within 3% */
    load past = { .a = 10e-6, .s = 60e-6, .k = 2, .nm = 1.2e6, .p = 3, .rows = 4000000, .reads = 1, .cache_bytes = 32 << 20 };
    check("pg-like, past the knee, by reads", &past, 0.2, 160 << 20, SCALE_OUTGROWN, 0.03);
    load sharp = past;
    sharp.p = 1.5, sharp.nm = 2.5e5, sharp.s = 110e-6, sharp.rows = 2000000, sharp.direct = 1;
    check("InnoDB-like, knee early, by reads", &sharp, 0.2, 160 << 20, SCALE_OUTGROWN, 0.03);
    /* no read counters: the same law from the rows' times alone, a wider margin */
    load timed = past;
    timed.reads = 0;
    check("pg-like, past the knee, by time", &timed, 0.2, 160 << 20, SCALE_OUTGROWN, 0.10);
    /* in memory all the way (4 GB hold 40M rows' indexes): the rate goes on */
    load flat = past;
    flat.nm = 1e9, flat.rows = 2000000;
    check("in memory", &flat, 0.2, (int64_t)4 << 30, SCALE_IN_MEMORY, 0.02);
    /* the knee comes after the measured part: assumed, and the interval says so */
    bb_growth g;
    double full;
    make(&past, 0.03, &g, &full);
    scale_prior pr = { .memory_limit = 160 << 20, .host_memory = -1 };
    scale_fit f;
    int rc = scale_forecast(&g, past.rows, &pr, &f);
    ok(rc == 0 && f.state == SCALE_AHEAD && !f.read_measured && f.hi / f.lo > 3 && f.lo <= full && full <= f.hi,
       "the knee ahead of the measured part: outgrows-ahead, s assumed, an interval wider than threefold");
    ok(f.knee_rows > 0.5e6 && f.knee_rows < 2e6, "... its knee from the cgroup's memory over the index bytes a row");
    free(g.v);
    /* too little to go on */
    bb_growth none = { 0 };
    ok(scale_forecast(&none, 1000, &pr, &f) < 0, "no samples: no forecast");
    /* a short run (two samples, 20,000 rows): its rate, the knee from the memory */
    bb_growth_point two[2] = { { .t = 0, .table_rows = 0, .index_bytes = 0, .reads = 0 },
                               { .t = 0.2, .table_rows = 20000, .index_bytes = 2000000, .reads = 0 } };
    bb_growth shortg = { .v = two, .n = 2, .cache_bytes = 32 << 20, .indexes = 3 };
    rc = scale_forecast(&shortg, 4000000, &pr, &f);
    ok(rc == 0 && f.state == SCALE_AHEAD && fabs(f.row_s - 1e-5) < 1e-9 && f.knee_rows > 1e6 && f.knee_rows < 1.2e6,
       "a short run: a row's cost from its one window, outgrows-ahead at the memory's knee (1.1M rows)");
    return tap_done();
}
