/* result.c — a fresh result (every figure unknown until measured) and its latency figures. */
#include "result.h"

#include <stdlib.h>
#include <string.h>

#include "stats.h"

void result_init(bb_result *r)
{
    memset(r, 0, sizeof *r);
    r->p50 = r->p95 = r->p99 = r->max = -1;
    r->server_cpu_s = -1;
    r->rss_growth = r->log_bytes = r->redo_bytes = r->table_bytes = r->verified_rows = -1;
    r->batch = -1;
    r->rows_rejected = -1;
}

void result_latency(bb_result *r, const stats_snap *s)
{
    if (!s->events) return;
    r->p50 = stats_quantile(s, 0.50) / 1e6;
    r->p95 = stats_quantile(s, 0.95) / 1e6;
    r->p99 = stats_quantile(s, 0.99) / 1e6;
    r->max = (double)s->lat_max / 1e6;
}
