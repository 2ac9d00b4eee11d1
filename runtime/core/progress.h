/* progress.h — what the user sees while a pool works: interval lines (like sysbench's) and
 * a progress bar with ETA on standard error, for runs (rows claimed of a target) and file
 * loads (bytes read of the files) alike. */
#ifndef BB_PROGRESS_H
#define BB_PROGRESS_H

#include <stdio.h>

#include "pool.h"
#include "stats.h"

typedef struct progress {
    FILE *out;
    int bar;         /* draw a bar: a terminal (or --progress), a total, no interval lines */
    int by_bytes;    /* the bar counts bytes of the stats (file loads), else claimed numbers */
    int64_t total;   /* what the bar counts up to; <= 0: no bar */
    double interval; /* seconds between interval lines, 0 = none */
    uint64_t last_line_ns, last_bar_ns;
    stats_snap prev, now, delta;
} progress;

/* want_bar: 1 on, 0 off, -1 when standard error is a terminal. */
void progress_init(progress *p, const bb_pool *pl, double interval, int want_bar, int64_t total, int by_bytes);
/* Called often while the pool works; prints what is due. */
void progress_tick(progress *p, const bb_pool *pl);
/* Clears the bar before the report. */
void progress_done(progress *p);

#endif
