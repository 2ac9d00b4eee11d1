/* pool.c — the one worker pool (see pool.h). */
#include "pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../sig.h"
#include "../../../base/invariant.h"
#include "../../../base/err.h"
#include "../../../base/buf.h"
#include "../../../base/clock.h"

int64_t pool_claim(bb_pool *p, int64_t want, int64_t *first)
{
    assert(want > 0);
    if (sig_caught()) pool_stop(p);
    if (pool_stopping(p)) return 0;
    int64_t f = __atomic_fetch_add(&p->next, want, __ATOMIC_RELAXED);
    if (f >= p->limit) return 0;
    *first = f;
    int64_t n = f + want > p->limit ? p->limit - f : want;
    assert(n > 0 && f >= p->first && f + n <= p->limit); /* a claim is a non-empty range of the work */
    return n;
}

void pool_stop(bb_pool *p) { __atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED); }

int pool_phase(bb_pool *p, int64_t first, int64_t limit, int (*fn)(void *ud, bb_err *err), void *ud)
{
    assert(first <= limit);
    if (sig_caught()) pool_stop(p);
    pthread_mutex_lock(&p->lock);
    uint64_t gen = p->phase_gen;
    p->phase_in++;
    while (gen == p->phase_gen && !pool_stopping(p)) { /* wakes for a stop: a thread that failed never arrives */
        if (p->phase_in > 0 && p->phase_in >= p->threads - p->finished) { /* every working thread is here */
            p->phase_in = -1; /* this one runs the phase's work; nobody else becomes the last */
            pthread_mutex_unlock(&p->lock);
            bb_err err = { .code = BB_EXIT_RUNTIME };
            if (fn && fn(ud, &err) < 0) pool_fail(p, &err);
            pthread_mutex_lock(&p->lock);
            p->first = p->next = first;
            p->limit = limit;
            p->phase_in = 0;
            p->phase_gen++;
            pthread_cond_broadcast(&p->phase_cv);
            break;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->phase_cv, &p->lock, &until);
        if (sig_caught()) pool_stop(p);
    }
    pthread_mutex_unlock(&p->lock);
    return pool_stopping(p) ? -1 : 0;
}

void pool_fail(bb_pool *p, const bb_err *e)
{
    pthread_mutex_lock(&p->lock);
    if (!p->failed) {
        p->first_err = *e;
        __atomic_store_n(&p->failed, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&p->lock);
    pool_stop(p);
}

static void *pool_main(void *arg)
{
    pool_thread *t = arg;
    bb_pool *p = t->pool;
    pthread_mutex_lock(&p->lock); /* the gate: every thread started, or the pool made smaller */
    while (!p->gate_open) pthread_cond_wait(&p->gate_cv, &p->lock);
    pthread_mutex_unlock(&p->lock);
    bb_err err = { .code = BB_EXIT_RUNTIME };
    int ok = !p->ops.setup || p->ops.setup(p->ops.ud, t, &err) == 0;
    if (!ok) pool_fail(p, &err);
    pthread_barrier_wait(&p->ready);
    pthread_barrier_wait(&p->go); /* pool_go set the clocks in between */
    t->pace_next = p->start_ns;
    if (ok && !pool_stopping(p) && p->ops.work(p->ops.ud, t, &err) < 0) pool_fail(p, &err);
    uint64_t now = bb_now_ns();
    pthread_mutex_lock(&p->lock);
    if (now > p->end_ns) p->end_ns = now; /* the work ends when its last thread does */
    if (++p->finished == p->threads) pthread_cond_signal(&p->finished_cv);
    pthread_cond_broadcast(&p->phase_cv); /* threads at a phase need not wait for this one */
    pthread_mutex_unlock(&p->lock);
    pthread_barrier_wait(&p->done);
    if (p->ops.teardown) p->ops.teardown(p->ops.ud, t);
    return NULL;
}

/* Test failpoint BULKBENCH_FAILPOINT=thread-refused:K: the K-th worker thread of a pool is
 * refused as the system refuses one (EAGAIN), where an address-space limit cannot make it so
 * (a sanitized build reserves terabytes of it). */
static int thread_refused(int k)
{
    const char *f = getenv("BULKBENCH_FAILPOINT");
    return f && !strncmp(f, "thread-refused:", 15) && atoi(f + 15) == k;
}

void pool_start(bb_pool *p, int threads, int64_t first, int64_t limit, double rate, const pool_ops *ops)
{
    assert(threads >= 1 && first <= limit);
    memset(p, 0, sizeof *p);
    p->stage = POOL_STARTED;
    p->threads = threads;
    p->first = p->next = first;
    p->limit = limit;
    p->rate = rate;
    p->ops = *ops;
    p->deadline_ns = UINT64_MAX;
    p->stats = stats_alloc(threads);
    p->t = bb_xcalloc((size_t)threads, sizeof *p->t);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->finished_cv, NULL);
    pthread_cond_init(&p->phase_cv, NULL);
    pthread_cond_init(&p->gate_cv, NULL);
    /* Threads wait at a gate until all are started: a thread the system refuses leaves the
     * pool to those started, failed (its barriers made for them while none waits at one). */
    int started = 0, why = 0;
    pthread_mutex_lock(&p->lock);
    for (; started < threads; started++) {
        pool_thread *t = &p->t[started];
        t->pool = p;
        t->id = started;
        t->st = &p->stats[started];
        t->pace_rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(started + 1);
        if ((why = thread_refused(started + 1) ? EAGAIN : pthread_create(&t->thread, NULL, pool_main, t)) != 0) break;
    }
    p->threads = started;
    pthread_barrier_init(&p->ready, NULL, (unsigned)started + 1);
    pthread_barrier_init(&p->go, NULL, (unsigned)started + 1);
    pthread_barrier_init(&p->done, NULL, (unsigned)started + 1);
    p->gate_open = 1;
    pthread_cond_broadcast(&p->gate_cv);
    pthread_mutex_unlock(&p->lock);
    if (started < threads) {
        bb_err e = { .code = BB_EXIT_RUNTIME };
        bb_errf(&e, "cannot start worker thread %d of %d: %s", started + 1, threads, strerror(why));
        e.code = BB_EXIT_RUNTIME;
        pool_fail(p, &e);
    }
}

int pool_ready(bb_pool *p)
{
    assert(p->stage == POOL_STARTED);
    p->stage = POOL_READY;
    pthread_barrier_wait(&p->ready);
    if (sig_caught()) pool_stop(p);
    return pool_failed(p) ? -1 : 0;
}

void pool_go(bb_pool *p, double warmup_s, double time_s)
{
    assert(p->stage == POOL_READY);
    p->stage = POOL_GOING;
    p->start_ns = bb_now_ns();
    p->measure_ns = p->start_ns + (uint64_t)(warmup_s * 1e9);
    p->deadline_ns = time_s > 0 ? p->measure_ns + (uint64_t)(time_s * 1e9) : UINT64_MAX;
    pthread_barrier_wait(&p->go);
}

void pool_wait(bb_pool *p, void (*tick)(void *ud, bb_pool *p), void *ud)
{
    assert(p->stage == POOL_GOING);
    pthread_mutex_lock(&p->lock);
    while (p->finished < p->threads) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000000L; /* wake for signals and ticks; the last thread wakes us at once */
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->finished_cv, &p->lock, &until);
        pthread_mutex_unlock(&p->lock);
        if (sig_caught() && !p->signal) {
            p->signal = sig_caught();
            pool_stop(p);
        }
        if (tick) tick(ud, p);
        pthread_mutex_lock(&p->lock);
    }
    assert(p->finished == p->threads); /* nobody writes its stats any more: the caller may merge them */
    pthread_mutex_unlock(&p->lock);
    if (sig_caught() && !p->signal) p->signal = sig_caught();
    p->stage = POOL_WAITED;
}

void pool_end(bb_pool *p)
{
    assert(p->stage == POOL_WAITED);
    p->stage = POOL_ENDED;
    pthread_barrier_wait(&p->done);
    for (int i = 0; i < p->threads; i++) pthread_join(p->t[i].thread, NULL);
}

double pool_seconds(const bb_pool *p)
{
    uint64_t from = p->measure_ns < p->end_ns ? p->measure_ns : p->start_ns;
    return p->end_ns > from ? (double)(p->end_ns - from) / 1e9 : 0;
}

void pool_free(bb_pool *p)
{
    if (!p->t) return;
    assert(p->stage == POOL_ENDED); /* its threads are joined */
    pthread_barrier_destroy(&p->ready);
    pthread_barrier_destroy(&p->go);
    pthread_barrier_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->finished_cv);
    pthread_cond_destroy(&p->phase_cv);
    pthread_cond_destroy(&p->gate_cv);
    stats_free(p->stats);
    free(p->t);
    p->t = NULL;
    p->stats = NULL;
}
