/* worker.h — a worker of a run: its Lua state, its connection, its loop. The run's pool
 * (pool.h) owns the thread; these are the pool's operations for it. */
#ifndef BB_WORKER_H
#define BB_WORKER_H

#include "run.h"
#include "../../base/err.h"

/* Pool operations over the run's workers (ud is the bb_run). setup: Lua state, session,
 * hooks, thread_init; work: run(ctx), or event() until the claims end; teardown:
 * thread_done, session closed. */
int worker_setup(void *run, pool_thread *t, bb_err *err);
int worker_work(void *run, pool_thread *t, bb_err *err);
void worker_teardown(void *run, pool_thread *t);

#endif
