/* run.h — one run (one combination of a sweep) and its workers. */
#ifndef BB_RUN_H
#define BB_RUN_H

#include <pthread.h>
#include <stdint.h>

#include "../../drivers/driver.h"
#include "../core/opts.h"
#include "../core/pool.h"
#include "../core/stats.h"

typedef struct lua_State lua_State;

#define BB_MAX_SETTINGS 16
#define BB_MAX_METRICS  16
#define BB_MAX_HOSTS    16 /* DSNs in a host list */
#define BB_MAX_RANKS    64 /* MPI ranks whose rows/s a result lists one by one */

/* A figure a script measured itself (bb.metric), reported with the run's result. */
typedef struct bb_metric {
    char   name[48];
    double value;
} bb_metric;

/* What one run does: fixed before the workers start, read-only while they work. */
typedef struct bb_plan {
    const char      *script;      /* path as given */
    const char      *script_src;  /* its text, read once */
    size_t           script_len;
    const char      *scenario;    /* script's name without directory and .lua */
    const bb_driver *drv;
    const char      *dsn;         /* the first (or only) DSN */
    const char      *dsns[BB_MAX_HOSTS]; /* the host list: --dsn given several times */
    int              ndsn;        /* 0: one server, the engine's default or dsn */
    int              shared;      /* --shared: the DSNs reach one database; hooks on the first only */
    int              rank, nranks; /* under MPI: this process's rank and how many; else 0 and 1 */
    const char      *method;      /* NULL for event() scripts that do not load */
    int              threads;
    int64_t          batch;       /* 0: not given (methods pick their default) */
    int64_t          rows;        /* row (or event) target, 0 = none */
    int64_t          events;      /* event() target, 0 = none */
    double           time_s;      /* 0 = none */
    double           rate;        /* events/s across threads, 0 = unlimited */
    double           warmup_s;
    double           report_interval;
    uint64_t         seed;
    int64_t          now_s;       /* wall clock at the start of the run, for "now" generators */
    int              progress;
    int              nsettings;
    const char      *set_name[BB_MAX_SETTINGS], *set_value[BB_MAX_SETTINGS];
    int              set_global[BB_MAX_SETTINGS]; /* server-wide: set once, restored after */
    const char      *target;      /* --target name, or NULL */
    int              reconnect;   /* --reconnect: new sessions a batch may use after losing one */
    char             run_id[24];  /* unique per run: marks of exactly-once batches */
    bb_cli          *cli;         /* script options are read from here */
} bb_plan;

typedef struct bb_run bb_run;

/* A worker owns its Lua state, connection, counters; nothing of it is shared. */
typedef struct bb_worker {
    bb_run       *run;
    pool_thread  *pt;         /* its thread of the run's pool: claims, pacing, stats */
    int           id;
    lua_State    *L;
    bb_conn      *conn;
    bb_target    *target;     /* the server of the host list this worker uses */
    stats_thread *st;
    int           ref_ctx, ref_event, ref_run, ref_init, ref_done, ref_on_connect;
    /* rows/bytes written by db calls inside the current event() */
    int64_t       ev_rows, ev_bytes;
    int64_t       committed;  /* rows this worker knows are committed */
    int64_t       in_doubt;   /* rows whose commit was under way when the session was lost */
    int64_t       reconnects; /* --reconnect: sessions replaced after a loss */
    uint64_t      claim_next, claim_end;
    void         *db;                   /* the db object handed to Lua (api_db_rebind(db, NULL) at the end) */
    int           ready;                /* set-up finished: hooks may run, thread_done is due */
} bb_worker;

struct bb_run {
    const bb_plan *plan;
    bb_pool        pool;           /* its threads are the workers; claims are row or event numbers */
    bb_worker     *workers;
};

#define run_stopping(r) pool_stopping(&(r)->pool)

#endif
