/* result.c — a fresh result (every figure unknown until measured), its latency figures, and freeing what it owns. */
#include "result.h"

#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "../../../base/buf.h"

void result_init(bb_result *r)
{
    memset(r, 0, sizeof *r);
    r->p50 = r->p95 = r->p99 = r->max = -1;
    r->server_cpu_s = r->measure_cpu_s = -1;
    r->rss_growth = r->log_bytes = r->redo_bytes = r->table_bytes = r->verified_rows = -1;
    r->batch = -1;
    r->rows_rejected = -1;
    r->tls_on = -1;
    r->memory_limit = -1;
    r->growth.cache_bytes = -1;
    r->growth.indexes = -1;
}

void result_free(bb_result *r)
{
    series_free(&r->intervals);
    growth_free(&r->growth);
    free(r->hist);
    r->hist = NULL;
    for (int i = 0; r->rep && i < r->rep->n; i++) series_free(&r->rep->runs[i].intervals);
    if (r->rep) free(r->rep->runs);
    if (r->rep) free(r->rep->whole);
    free(r->rep);
    r->rep = NULL;
}

void result_latency(bb_result *r, const stats_snap *s)
{
    if (!s->events) return;
    r->p50 = stats_quantile(s, 0.50) / 1e6;
    r->p95 = stats_quantile(s, 0.95) / 1e6;
    r->p99 = stats_quantile(s, 0.99) / 1e6;
    r->max = (double)s->lat_max / 1e6;
}

static double per_s(double x, double s) { return s > 0 ? x / s : -1; }

/* A failed run's rates are null: a partial run measures nothing of its point. */
double result_rows_per_s(const bb_result *r)
{
    if (r->error[0]) return -1;
    return r->rep ? r->rep->rows_per_s.median : per_s((double)r->rows, r->seconds + r->before_s + r->after_s);
}

double result_events_per_s(const bb_result *r)
{
    if (r->error[0]) return -1;
    return r->rep ? r->rep->events_per_s : per_s((double)r->events, r->seconds);
}

double result_mb_per_s(const bb_result *r)
{
    if (r->error[0]) return -1;
    return r->rep ? r->rep->mb_per_s : per_s((double)r->bytes / 1e6, r->seconds);
}

void result_keep_hist(bb_result *r, const stats_snap *s)
{
    free(r->hist);
    r->hist = bb_xmalloc(sizeof *r->hist * STATS_NBUCKETS);
    memcpy(r->hist, s->hist, sizeof *r->hist * STATS_NBUCKETS);
}
