/* loader.h — what a method needs of the worker that runs it: its session, its thread of
 * the run's pool, its counts, and a way to replace a lost session. The host's worker
 * embeds one and adds its Lua state; core code sees only this. */
#ifndef BB_LOADER_H
#define BB_LOADER_H

#include <stdint.h>

#include "../../../drivers/driver.h"
#include "../run/plan.h"
#include "../run/pool.h"
#include "../../../base/err.h"

typedef struct bb_loader {
    const bb_plan *plan;
    bb_pool *pool;   /* the run's: claims, stop, first error */
    pool_thread *pt; /* this worker's thread of it: pacing, stats */
    int id;
    bb_conn *conn;
    bb_target *target;  /* the server of the host list this worker uses */
    int64_t committed;  /* rows this worker knows are committed */
    int64_t in_doubt;   /* rows whose commit was under way when the session was lost */
    int64_t reconnects; /* --reconnect: sessions replaced after a loss */
    /* Replaces a lost session: connects again, applies --set, runs the script's on_connect;
     * conn is the new session afterwards. */
    int (*reconnect)(struct bb_loader *l, bb_err *err);
} bb_loader;

#endif
