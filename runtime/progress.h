/* progress.h — what the user sees while a run goes on: interval lines and a progress bar. */
#ifndef BB_PROGRESS_H
#define BB_PROGRESS_H

#include <stdio.h>

#include "run.h"
#include "stats.h"

typedef struct progress {
    FILE      *out;
    int        bar;          /* draw a bar (a terminal, and a target to measure against) */
    double     interval;     /* seconds between interval lines, 0 = none */
    uint64_t   last_line_ns, last_bar_ns;
    stats_snap prev, now, delta;
} progress;

void progress_init(progress *p, const bb_run *r);
/* Called often by the runner while workers work; prints what is due. */
void progress_tick(progress *p, const bb_run *r);
/* Clears the bar before the report. */
void progress_done(progress *p);

#endif
