/* progress.h — what the user sees while a pool works: interval lines (like sysbench's) and
 * a progress bar with ETA on standard error, for runs (rows claimed of a target) and file
 * loads (bytes read of the files) alike. */
#ifndef BB_PROGRESS_H
#define BB_PROGRESS_H

#include <stdio.h>

#include "pool.h"
#include "series.h"
#include "stats.h"

typedef struct progress {
    FILE *out;
    int bar;         /* draw a bar: a terminal (or --progress), a total, no interval lines */
    int by_bytes;    /* the bar counts bytes of the stats (file loads), else claimed numbers */
    int64_t total;   /* what the bar counts up to; <= 0: no bar */
    double interval; /* seconds between interval lines, 0 = none */
    uint64_t last_line_ns, last_bar_ns;
    stats_snap prev, now, delta;
    /* progress_record: samples into series every `every` seconds (the lines' interval when
     * lines are printed), with the server's CPU and log position from server() */
    bb_series *series;
    double every;
    int (*server)(void *ud, double *cpu_s, int64_t *log_pos);
    void *server_ud;
    double srv_cpu;
    int64_t srv_log;
} progress;

/* want_bar: 1 on, 0 off, -1 when standard error is a terminal. */
void progress_init(progress *p, const bb_pool *pl, double interval, int want_bar, int64_t total, int by_bytes);
/* Also records a sample into out every `every` seconds (ignored when lines are printed:
 * samples then hold the lines' figures). server, when not NULL, reads the server's CPU
 * seconds and log position (-1 each when unknown) in this, the waiting, thread; it is
 * dropped when it knows neither. */
void progress_record(progress *p, bb_series *out, double every,
                     int (*server)(void *ud, double *cpu_s, int64_t *log_pos), void *server_ud);
/* Called often while the pool works; prints and records what is due. */
void progress_tick(progress *p, const bb_pool *pl);
/* Clears the bar before the report. */
void progress_done(progress *p);

#endif
