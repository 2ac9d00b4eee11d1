/* growth.h — the rate against the table's size (docs/scale.md): a run's table sampled as it
 * grows — its rows, heap and index bytes, the server's reads from storage — on the run's
 * monitoring session (diagnose.c's thread calls growth_tick between its requests), each sample
 * with the rows/s and reads per row since the one before. What a forecast (scale_model.h)
 * reads, and what the page draws as rows/s against rows with the server's memory marked. */
#ifndef BB_GROWTH_H
#define BB_GROWTH_H

#include <stdint.h>

#include "../../../drivers/driver.h"

typedef struct bb_growth_point {
    double t;            /* seconds from the start of the measured run */
    int64_t table_rows;  /* the rows the table held at the start (the server's estimate) and those sent since */
    double rows_per_s;   /* since the sample before (the first: since the start) */
    int64_t heap_bytes;  /* -1 unknown */
    int64_t index_bytes; /* -1 unknown */
    int64_t reads;       /* blocks read from storage since the start, -1 unknown */
    double reads_per_row; /* since the sample before, -1 unknown (no rows, or reads unknown) */
} bb_growth_point;

typedef struct bb_growth {
    bb_growth_point *v; /* owned: growth_free */
    int n, cap;
    int64_t rows_at_start; /* the table's rows when the run began (the server's estimate) */
    int64_t cache_bytes;   /* the server's own cache of pages (-1 unknown) */
    int cache_direct;      /* its data files bypass the OS page cache */
    int indexes;           /* the table's indexes, -1 unknown */
} bb_growth;

void growth_free(bb_growth *g);

struct bb_pool;
typedef struct growth_sampler growth_sampler;
/* Called on the monitor's thread after each sample with the series so far; non-zero stops the
 * run's pool (a forecast that has measured enough). */
typedef int (*growth_watch_fn)(void *ud, const bb_growth *g);

/* A sampler of table (its name unquoted) for the rows pool's workers send; NULL when the
 * engine cannot tell (no growth operation) or there is no table. */
growth_sampler *growth_start(const bb_driver *d, const char *table, struct bb_pool *pool, growth_watch_fn watch,
                             void *ud);
/* On the monitor's thread, with its session and the run's sessions: a sample when one is due
 * (more often early: every elapsed/30 s, from 0.25 s to 10 s), and always when last is set. The
 * first, before the pool starts (on any idle session of the run), is the table as the run finds
 * it: the rows counted from there are the run's. */
void growth_tick(void *sampler, bb_conn *mon, const int64_t *ids, int n, int last);
/* The series into out (which it then owns), the sampler freed; NULL gives an empty series. */
void growth_stop(growth_sampler *gs, bb_growth *out);

#endif
