/* stats.c — snapshots and percentiles of the per-thread histograms. */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

stats_thread *stats_alloc(int n)
{
    stats_thread *s = aligned_alloc(64, sizeof *s * (size_t)(n ? n : 1));
    if (!s) abort();
    memset(s, 0, sizeof *s * (size_t)(n ? n : 1));
    return s;
}

void stats_free(stats_thread *s) { free(s); }

void stats_take(const stats_thread *s, int n, stats_snap *out)
{
    memset(out, 0, sizeof *out);
    for (int t = 0; t < n; t++) {
        const stats_thread *x = &s[t];
        out->events += __atomic_load_n(&x->events, __ATOMIC_RELAXED);
        out->rows += __atomic_load_n(&x->rows, __ATOMIC_RELAXED);
        out->bytes += __atomic_load_n(&x->bytes, __ATOMIC_RELAXED);
        out->errors += __atomic_load_n(&x->errors, __ATOMIC_RELAXED);
        out->lat_sum += __atomic_load_n(&x->lat_sum, __ATOMIC_RELAXED);
        uint64_t m = __atomic_load_n(&x->lat_max, __ATOMIC_RELAXED);
        if (m > out->lat_max) out->lat_max = m;
        for (unsigned i = 0; i < STATS_NBUCKETS; i++) out->hist[i] += __atomic_load_n(&x->hist[i], __ATOMIC_RELAXED);
    }
}

void stats_diff(const stats_snap *now, const stats_snap *before, stats_snap *out)
{
    out->events = now->events - before->events;
    out->rows = now->rows - before->rows;
    out->bytes = now->bytes - before->bytes;
    out->errors = now->errors - before->errors;
    out->lat_sum = now->lat_sum - before->lat_sum;
    out->lat_max = now->lat_max;
    for (unsigned i = 0; i < STATS_NBUCKETS; i++) out->hist[i] = now->hist[i] - before->hist[i];
}

/* The smallest latency of bucket i, and how many nanoseconds the bucket spans. */
static uint64_t bucket_low(unsigned i)
{
    if (i < 2 * STATS_SUB) return i;
    unsigned e = i / STATS_SUB + 6;
    return ((uint64_t)STATS_SUB + i % STATS_SUB) << (e - 7);
}

static uint64_t bucket_width(unsigned i) { return i < 2 * STATS_SUB ? 1 : 1ULL << (i / STATS_SUB - 1); }

void stats_bucket_range(unsigned i, uint64_t *low, uint64_t *high)
{
    *low = bucket_low(i);
    *high = *low + bucket_width(i);
}

double stats_quantile(const stats_snap *s, double q)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < STATS_NBUCKETS; i++) total += s->hist[i];
    if (total == 0) return -1;
    if (q < 0) q = 0;
    if (q > 1) q = 1;
    uint64_t rank = (uint64_t)(q * (double)total + 0.999999999);
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < STATS_NBUCKETS; i++) {
        seen += s->hist[i];
        if (seen >= rank) {
            double mid = (double)bucket_low(i) + (double)(bucket_width(i) - 1) / 2.0;
            /* a bucket's midpoint can lie above the largest value in it */
            return mid > (double)s->lat_max ? (double)s->lat_max : mid;
        }
    }
    return (double)s->lat_max;
}
