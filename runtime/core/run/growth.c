/* growth.c — samples of a run's table as it grows (see growth.h). */
#include "growth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "../../../base/buf.h"
#include "../../../base/clock.h"

#define GROWTH_MIN_GAP_S 0.25
#define GROWTH_MAX_GAP_S 10.0
#define GROWTH_PER_ELAPSED 30.0 /* a sample every elapsed/30 s: ~30 per tenfold of the run's time */

struct growth_sampler {
    const bb_driver *d;
    char table[256];
    bb_pool *pool;
    growth_watch_fn watch;
    void *ud;
    bb_growth g;
    double next;   /* when the next sample is due */
    int64_t sent0;    /* rows sent at the first sample */
    int64_t loaded0;  /* the server's count of rows taken then, -1 when it keeps none */
    int64_t reads0;
    int64_t sent_last;
    int64_t *raw; /* per sample: rows taken (the server's count, else sent) since the first */
    int rawcap;
    int stopped; /* the watch stopped the pool */
};

void growth_free(bb_growth *g)
{
    free(g->v);
    g->v = NULL;
    g->n = g->cap = 0;
}

growth_sampler *growth_start(const bb_driver *d, const char *table, bb_pool *pool, growth_watch_fn watch, void *ud)
{
    if (!table || !*table || (!d->growth && !watch)) return NULL; /* a forecast counts rows where sizes are unknown */
    growth_sampler *gs = bb_xcalloc(1, sizeof *gs);
    gs->d = d;
    snprintf(gs->table, sizeof gs->table, "%s", table);
    gs->pool = pool;
    gs->watch = watch;
    gs->ud = ud;
    gs->g.cache_bytes = -1;
    gs->g.indexes = -1;
    return gs;
}

static int64_t rows_sent(const bb_pool *p)
{
    int64_t n = 0;
    for (int i = 0; i < p->threads; i++) n += (int64_t)__atomic_load_n(&p->stats[i].rows, __ATOMIC_RELAXED);
    return n;
}

static void growth_add(bb_growth *g, const bb_growth_point *pt)
{
    if (g->n == g->cap) g->v = bb_xrealloc(g->v, sizeof *g->v * (size_t)(g->cap = g->cap ? 2 * g->cap : 64));
    g->v[g->n++] = *pt;
}

/* The rows-derived figures of every sample from the raw counts: the table's rows (the
 * server's count of rows it took, times scale, where it keeps one; else the rows sent), the
 * rows/s and reads a row since the sample before. */
static void growth_derive(growth_sampler *gs, double scale)
{
    bb_growth *g = &gs->g;
    for (int i = 0; i < g->n; i++) {
        bb_growth_point *pt = &g->v[i], *b = i ? &g->v[i - 1] : NULL;
        pt->table_rows = g->rows_at_start + gs->sent0 + (int64_t)llround((double)gs->raw[i] * scale);
        double t_b = b ? b->t : 0;
        int64_t dr = pt->table_rows - (b ? b->table_rows : g->rows_at_start);
        pt->rows_per_s = pt->t > t_b ? (double)dr / (pt->t - t_b) : 0;
        pt->reads_per_row = -1; /* reads that ran backwards (a session took its counts with it): unknown */
        if (b && dr > 0 && pt->reads >= 0 && b->reads >= 0 && pt->reads >= b->reads)
            pt->reads_per_row = (double)(pt->reads - b->reads) / (double)dr;
    }
}

/* The sample of probe pr at t seconds with sent rows sent so far. */
static void growth_point(growth_sampler *gs, const bb_growth_probe *pr, double t, int64_t sent)
{
    bb_growth *g = &gs->g;
    if (!g->n) { /* the start: what the table held, the counts so far */
        int64_t est = pr->rows_estimate - sent;
        g->rows_at_start = est > 0 ? est : 0;
        gs->sent0 = sent; /* 0 when sampled before the run starts, as the runner does */
        gs->loaded0 = pr->rows_loaded;
        gs->reads0 = pr->reads;
    }
    bb_growth_point pt = { .t = t,
                           .heap_bytes = pr->heap_bytes,
                           .index_bytes = pr->index_bytes,
                           .reads = pr->reads >= 0 && gs->reads0 >= 0 ? pr->reads - gs->reads0 : -1 };
    int64_t raw = gs->loaded0 >= 0 && pr->rows_loaded >= 0 ? pr->rows_loaded - gs->loaded0 : sent - gs->sent0;
    if (g->n && raw < gs->raw[g->n - 1]) raw = gs->raw[g->n - 1]; /* an estimate that wavers: the table never shrinks */
    if (pr->cache_bytes >= 0) g->cache_bytes = pr->cache_bytes;
    g->cache_direct = pr->cache_direct;
    if (pr->indexes >= 0) g->indexes = pr->indexes;
    growth_add(g, &pt);
    if (g->cap != gs->rawcap) gs->raw = bb_xrealloc(gs->raw, sizeof *gs->raw * (size_t)(gs->rawcap = g->cap));
    gs->raw[g->n - 1] = raw;
    gs->sent_last = sent;
}

/* At the end, when every row sent has been taken: the server's count scaled to the rows sent
 * (InnoDB's count is an estimate, a few percent off); 1 when it keeps none or is far off. */
static double growth_scale(const growth_sampler *gs)
{
    int64_t raw = gs->g.n ? gs->raw[gs->g.n - 1] : 0, sent = gs->sent_last - gs->sent0;
    if (gs->loaded0 < 0 || raw <= 0 || sent <= 0) return 1;
    double f = (double)sent / (double)raw;
    return f > 0.8 && f < 1.25 ? f : 1;
}

void growth_tick(void *sampler, bb_conn *mon, const int64_t *ids, int n, int last)
{
    growth_sampler *gs = sampler;
    uint64_t t0 = gs->pool->start_ns; /* 0 before the run starts: the table as it finds it (warm-up rows are the table's too) */
    double t = t0 ? (double)(bb_now_ns() - t0) / 1e9 : 0;
    if (gs->g.n && t < gs->next && !last) return;
    double gap = t / GROWTH_PER_ELAPSED;
    gs->next = t + (gap < GROWTH_MIN_GAP_S ? GROWTH_MIN_GAP_S : gap > GROWTH_MAX_GAP_S ? GROWTH_MAX_GAP_S : gap);
    bb_growth_probe pr = { .heap_bytes = -1, .index_bytes = -1, .rows_estimate = -1, .rows_loaded = -1, .reads = -1, .cache_bytes = -1, .indexes = -1 };
    bb_err err;
    int64_t sent = rows_sent(gs->pool);
    if (gs->d->growth && gs->d->growth(mon, gs->table, ids, n, &pr, &err) < 0) return;
    if (last && gs->g.n > 1 && t - gs->g.v[gs->g.n - 1].t < GROWTH_MIN_GAP_S) gs->g.n--; /* the end replaces a sample just before it */
    growth_point(gs, &pr, t, sent);
    growth_derive(gs, last ? growth_scale(gs) : 1);
    if (!last && !gs->stopped && gs->watch && gs->watch(gs->ud, &gs->g)) {
        gs->stopped = 1;
        pool_stop(gs->pool);
    }
}

void growth_stop(growth_sampler *gs, bb_growth *out)
{
    growth_free(out);
    memset(out, 0, sizeof *out);
    out->cache_bytes = -1;
    out->indexes = -1;
    if (!gs) return;
    *out = gs->g;
    free(gs->raw);
    free(gs);
}
