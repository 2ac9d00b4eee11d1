/* stats.h — per-thread counters and latency histograms.
 *
 * Each worker owns one stats_thread and is its only writer; the reporter reads them while
 * the run goes on. Counters are updated with relaxed atomic load+store (no lock prefix:
 * a single writer needs none) so reads are torn-free. Histogram buckets are log-linear
 * with 128 sub-buckets per power of two: any reported percentile is within 0.4% of a
 * recorded latency, and never above the recorded maximum. */
#ifndef BB_STATS_H
#define BB_STATS_H

#include <stdint.h>

#define STATS_SUB 128    /* sub-buckets per octave */
#define STATS_OCTAVES 36 /* up to 2^43 ns, about 2.4 hours */
#define STATS_NBUCKETS ((STATS_OCTAVES + 1) * STATS_SUB)

typedef struct stats_thread {
    _Alignas(64) uint64_t events, rows, bytes, errors;
    uint64_t lat_max, lat_sum;
    _Alignas(64) uint64_t hist[STATS_NBUCKETS];
} stats_thread;

/* Sum over threads at one instant. */
typedef struct stats_snap {
    uint64_t events, rows, bytes, errors, lat_max, lat_sum;
    uint64_t hist[STATS_NBUCKETS];
} stats_snap;

#define STATS_BUMP(p, d) __atomic_store_n((p), __atomic_load_n((p), __ATOMIC_RELAXED) + (d), __ATOMIC_RELAXED)

static inline unsigned stats_bucket(uint64_t v)
{
    if (v < 2 * STATS_SUB) return (unsigned)v;
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* e >= 8 */
    if (e > STATS_OCTAVES + 6) return STATS_NBUCKETS - 1;
    return (e - 6) * STATS_SUB + (unsigned)((v >> (e - 7)) & (STATS_SUB - 1));
}

/* Rows and bytes written, counted as they go (a long stream reports progress before its end). */
static inline void stats_add(stats_thread *s, uint64_t rows, uint64_t bytes)
{
    STATS_BUMP(&s->rows, rows);
    STATS_BUMP(&s->bytes, bytes);
}

/* One finished event and its latency in ns. */
static inline void stats_event(stats_thread *s, uint64_t lat_ns)
{
    STATS_BUMP(&s->events, 1);
    STATS_BUMP(&s->lat_sum, lat_ns);
    STATS_BUMP(&s->hist[stats_bucket(lat_ns)], 1);
    if (lat_ns > s->lat_max) __atomic_store_n(&s->lat_max, lat_ns, __ATOMIC_RELAXED);
}

/* One finished event that wrote rows and bytes. */
static inline void stats_record(stats_thread *s, uint64_t lat_ns, uint64_t rows, uint64_t bytes)
{
    stats_add(s, rows, bytes);
    stats_event(s, lat_ns);
}

static inline void stats_error(stats_thread *s) { STATS_BUMP(&s->errors, 1); }

stats_thread *stats_alloc(int n);
void stats_free(stats_thread *s);
void stats_take(const stats_thread *s, int n, stats_snap *out);
/* out = now - before, for interval lines (lat_max is the whole run's). */
void stats_diff(const stats_snap *now, const stats_snap *before, stats_snap *out);
/* The latencies bucket i holds: low <= ns < high (the last bucket also holds anything longer). */
void stats_bucket_range(unsigned i, uint64_t *low, uint64_t *high);
/* Latency at quantile q in [0,1], in ns; -1 when nothing was recorded. */
double stats_quantile(const stats_snap *s, double q);

#endif
