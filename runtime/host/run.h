/* run.h — one run (one combination of a sweep) and its workers, as the host sees them. */
#ifndef BB_RUN_H
#define BB_RUN_H

#include <stdint.h>

#include "../core/method/loader.h"
#include "../core/opts.h"
#include "../core/run/plan.h"
#include "../core/run/pool.h"

typedef struct lua_State lua_State;
typedef struct bb_run bb_run;

/* A worker: the core's loader (session, counts, pool thread) plus its Lua state. */
typedef struct bb_worker {
    bb_loader ld;
    bb_run *run;
    lua_State *L;
    int ref_ctx, ref_event, ref_run, ref_init, ref_done, ref_on_connect;
    /* rows/bytes written by db calls inside the current event() */
    int64_t ev_rows, ev_bytes;
    uint64_t claim_next, claim_end;
    void *db;  /* the db object handed to Lua (api_db_rebind(db, NULL) at the end) */
    int ready; /* set-up finished: hooks may run, thread_done is due */
    int64_t session_id; /* the server's id of ld.conn, -1 none; read by the diagnosis sampler (atomic) */
} bb_worker;

struct bb_run {
    const bb_plan *plan;
    bb_cli *cli;             /* the script's options are read from here */
    struct vset_reg *values; /* value sets read by prepare() or a phase, for every state's generators */
    int prepared;            /* prepare() was called: teardown() is due, whatever happens */
    bb_pool pool;            /* its threads are the workers; claims are row or event numbers */
    bb_worker *workers;
};

#endif
