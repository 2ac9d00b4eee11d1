/* pool.h — the one worker pool that run, load and gen share; the head of the run wing
 * (runtime/core/run: the pool, stats and their samples, results and the statistics of
 * repeated runs, server and host measurements).
 *
 * The run wing's invariants: the pool's counter is the only shared work state (claims are
 * atomic); each thread counts into its own stats (padded, never shared) and the caller's
 * thread merges them only after pool_wait; a stop (error, deadline, signal) stops new
 * claims and never interrupts a claim half done; a bb_result belongs to its caller, who
 * frees it with result_free; a figure nobody measured stays unset (null), never zero.
 *
 * The pool itself:
 *
 * Threads claim numbered work (rows, events, chunks) from one shared counter, pace
 * themselves under --rate, count into their own stats, and stop on the first error, the
 * deadline or a signal. The caller's thread waits in pool_wait, which turns a caught
 * SIGINT/SIGTERM into a stop and calls a tick (progress lines) while it waits.
 *
 * Life of a pool: pool_start (threads run setup) → pool_ready → pool_go (clocks set,
 * work starts) → pool_wait → pool_end (teardown, joined) → pool_free. Between pool_wait
 * and pool_end the threads still hold their sessions, so server costs can be read.
 *
 * Asserted (pool.c): that life in its order, every thread out of its work when pool_wait
 * returns (so the merge that follows reads stats nobody writes), and every claim a
 * non-empty range inside [first, limit). */
#ifndef BB_POOL_H
#define BB_POOL_H

#include <math.h>
#include <pthread.h>
#include <stdint.h>

#include "stats.h"
#include "../../../base/err.h"
#include "../../../base/clock.h"

typedef struct bb_pool bb_pool;

/* What one thread owns: nothing of it is shared but the stats the reporter reads. */
typedef struct pool_thread {
    bb_pool *pool;
    int id;
    stats_thread *st;
    uint64_t pace_next, pace_rng; /* --rate: the next scheduled start, its random stream */
    pthread_t thread;
} pool_thread;

typedef struct pool_ops {
    void *ud;
    /* Before work starts (connect, load a script); NULL = nothing. An error fails the pool. */
    int (*setup)(void *ud, pool_thread *t, bb_err *err);
    /* The work: claims with pool_claim until it gets 0 or the pool stops. */
    int (*work)(void *ud, pool_thread *t, bb_err *err);
    /* After pool_end; runs whether setup succeeded or not; NULL = nothing. */
    void (*teardown)(void *ud, pool_thread *t);
} pool_ops;

struct bb_pool {
    int threads;
    pool_thread *t;
    stats_thread *stats;
    pool_ops ops;
    double rate;          /* events/s across threads, 0 = unpaced */
    int64_t first, limit; /* claim numbers in [first, limit); INT64_MAX = until time or stop */
    int64_t next;         /* the next number to claim (atomic) */
    uint64_t start_ns, measure_ns, deadline_ns, end_ns;
    int stop;     /* atomic: errors, the deadline, signals */
    int failed;   /* a thread failed; first_err says how */
    int signal;   /* the signal that stopped the pool, 0 = none */
    int finished; /* threads that left their work */
    bb_err first_err;
    pthread_mutex_t lock; /* guards first_err, failed, finished, the phase */
    pthread_cond_t finished_cv;
    pthread_cond_t phase_cv; /* pool_phase: threads wait here for the last to arrive */
    pthread_cond_t gate_cv;  /* threads wait here until pool_start has started them all */
    int gate_open;
    int phase_in;       /* threads at the current phase's barrier */
    uint64_t phase_gen; /* phases passed */
    pthread_barrier_t ready, go, done;
    enum { POOL_STARTED = 1, POOL_READY, POOL_GOING, POOL_WAITED, POOL_ENDED } stage; /* the caller's, asserted */
};

/* Starts threads (each runs ops->setup, then waits for pool_go). */
void pool_start(bb_pool *p, int threads, int64_t first, int64_t limit, double rate, const pool_ops *ops);
/* Waits until every thread is set up; 0, or -1 when one failed (first_err). */
int pool_ready(bb_pool *p);
/* Sets the clocks (measuring starts after warmup_s, stops after time_s if > 0) and lets work begin. */
void pool_go(bb_pool *p, double warmup_s, double time_s);
/* Waits for every thread to leave its work, calling tick(ud) about every 50 ms (may be NULL). */
void pool_wait(bb_pool *p, void (*tick)(void *ud, bb_pool *p), void *ud);
/* Lets the threads tear down and joins them. */
void pool_end(bb_pool *p);
void pool_free(bb_pool *p);

/* Claims up to want numbers; returns how many, from *first. 0 when the work is done or the pool stops. */
int64_t pool_claim(bb_pool *p, int64_t want, int64_t *first);
/* A phase boundary of the work (a multi-table load: parents before children). Every thread
 * calls it at the same point with the same arguments; the last to arrive runs fn (when not
 * NULL; a failure fails the pool), then the claims restart at [first, limit) and all go
 * on. Returns 0, or -1 when the pool stopped meanwhile (an error, a signal, the deadline):
 * the caller leaves its work. */
int pool_phase(bb_pool *p, int64_t first, int64_t limit, int (*fn)(void *ud, bb_err *err), void *ud);
/* Records the first error and stops every thread. */
void pool_fail(bb_pool *p, const bb_err *e);
void pool_stop(bb_pool *p);
static inline int pool_stopping(const bb_pool *p) { return __atomic_load_n(&p->stop, __ATOMIC_RELAXED); }
static inline int pool_failed(const bb_pool *p) { return __atomic_load_n(&p->failed, __ATOMIC_RELAXED); }
/* Measured seconds: from the end of the warm-up (or the start) to the last thread's end. */
double pool_seconds(const bb_pool *p);

/* --rate: sleeps until this thread's next Poisson arrival and returns its scheduled time
 * (latency counts from it, so a slow server cannot hide queueing); 0 without --rate. */
static inline uint64_t pool_pace(pool_thread *t)
{
    const bb_pool *p = t->pool;
    if (p->rate <= 0) return 0;
    double per_thread = p->rate / p->threads;
    t->pace_rng ^= t->pace_rng << 13; /* xorshift64: pacing needs no reproducibility */
    t->pace_rng ^= t->pace_rng >> 7;
    t->pace_rng ^= t->pace_rng << 17;
    double u = ((double)(t->pace_rng >> 11) + 0.5) / 9007199254740992.0;
    t->pace_next += (uint64_t)(-log(u) / per_thread * 1e9);
    if (t->pace_next > bb_now_ns()) bb_sleep_until_ns(t->pace_next);
    return t->pace_next;
}

/* One event finished now; it started (or was scheduled) at t_start. Events that started
 * during the warm-up are not counted; the deadline stops the pool. Returns now. */
static inline uint64_t pool_record(pool_thread *t, uint64_t t_start, uint64_t rows, uint64_t bytes)
{
    uint64_t t1 = bb_now_ns();
    if (t_start >= t->pool->measure_ns) stats_record(t->st, t1 - t_start, rows, bytes);
    if (t1 >= t->pool->deadline_ns) __atomic_store_n(&t->pool->stop, 1, __ATOMIC_RELAXED);
    return t1;
}

/* Rows and bytes of an event still going on (one long stream), counted as they are sent. */
static inline void pool_progress(pool_thread *t, uint64_t rows, uint64_t bytes)
{
    uint64_t t1 = bb_now_ns();
    if (t1 >= t->pool->measure_ns) stats_add(t->st, rows, bytes);
    if (t1 >= t->pool->deadline_ns) __atomic_store_n(&t->pool->stop, 1, __ATOMIC_RELAXED);
}

#endif
