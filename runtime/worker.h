/* worker.h — a worker thread: its Lua state, its connection, its loop. */
#ifndef BB_WORKER_H
#define BB_WORKER_H

#include <math.h>

#include "run.h"
#include "stats.h"

/* The thread body: set up, wait at the start barrier, run event() or run(), tear down. */
void *worker_main(void *arg);
/* Replaces a lost session: connects again, applies --set, rebinds ctx.db, runs on_connect. */
int worker_reconnect(bb_worker *w, bb_err *err);

/* --rate: sleeps until this worker's next Poisson arrival and returns its scheduled time
 * (latency counts from it, so a slow server cannot hide queueing); 0 without --rate. */
static inline uint64_t worker_pace(bb_worker *w)
{
    if (w->run->plan->rate <= 0) return 0;
    double per_thread = w->run->plan->rate / w->run->plan->threads;
    w->pace_rng ^= w->pace_rng << 13; /* xorshift64: pacing needs no reproducibility */
    w->pace_rng ^= w->pace_rng >> 7;
    w->pace_rng ^= w->pace_rng << 17;
    double u = ((double)(w->pace_rng >> 11) + 0.5) / 9007199254740992.0;
    w->pace_next += (uint64_t)(-log(u) / per_thread * 1e9);
    if (w->pace_next > bb_now_ns()) bb_sleep_until_ns(w->pace_next);
    return w->pace_next;
}

/* One event finished now; it started (or was scheduled) at t_start. Events that started
 * during --warmup are not counted; the deadline stops the run. */
static inline void worker_record(bb_worker *w, uint64_t t_start, uint64_t rows, uint64_t bytes)
{
    uint64_t t1 = bb_now_ns();
    if (t_start >= w->run->measure_ns) stats_record(w->st, t1 - t_start, rows, bytes);
    if (t1 >= w->run->deadline_ns) __atomic_store_n(&w->run->stop, 1, __ATOMIC_RELAXED);
}

/* Rows and bytes of an event still going on (one long stream), counted as they are sent. */
static inline void worker_progress(bb_worker *w, uint64_t rows, uint64_t bytes)
{
    uint64_t t1 = bb_now_ns();
    if (t1 >= w->run->measure_ns) stats_add(w->st, rows, bytes);
    if (t1 >= w->run->deadline_ns) __atomic_store_n(&w->run->stop, 1, __ATOMIC_RELAXED);
}

#endif
