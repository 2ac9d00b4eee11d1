/* run.h — one run (one combination of a sweep) and its workers. */
#ifndef BB_RUN_H
#define BB_RUN_H

#include <pthread.h>
#include <stdint.h>

#include "../drivers/driver.h"
#include "opts.h"
#include "stats.h"

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
    int           id;
    lua_State    *L;
    bb_conn      *conn;
    bb_target    *target;     /* the server of the host list this worker uses */
    stats_thread *st;
    pthread_t     thread;
    int           ref_ctx, ref_event, ref_run, ref_init, ref_done, ref_on_connect;
    /* rows/bytes written by db calls inside the current event() */
    int64_t       ev_rows, ev_bytes;
    int64_t       committed;  /* rows this worker knows are committed */
    int64_t       in_doubt;   /* rows whose commit was under way when the session was lost */
    int64_t       reconnects; /* --reconnect: sessions replaced after a loss */
    uint64_t      claim_next, claim_end;
    uint64_t      pace_next, pace_rng;  /* --rate: next scheduled start, its random stream */
    void         *db;                   /* the db object handed to Lua (api_db_rebind(db, NULL) at the end) */
    int           ready;                /* set-up finished: hooks may run, thread_done is due */
} bb_worker;

struct bb_run {
    const bb_plan *plan;
    int64_t        limit;          /* claim numbers below this (this rank's share), INT64_MAX = until time/stop */
    int64_t        next;           /* next row/event number: claimed with atomic fetch_add */
    uint64_t       start_ns, measure_ns, deadline_ns, end_ns;
    int            stop;           /* atomic: set by errors, the deadline, signals */
    int            failed;         /* a worker hit an error; first_err says which */
    int            finished;       /* workers that left their loop */
    pthread_mutex_t err_lock;      /* guards first_err, and finished for the runner's wait */
    pthread_cond_t  finished_cv;   /* signalled when the last worker leaves its loop */
    bb_err         first_err;
    pthread_barrier_t ready, go, done; /* done: workers keep their sessions until server costs are read */
    stats_thread  *stats;
    bb_worker     *workers;
};

/* Claims up to want numbers from the shared counter; returns how many ([*first, *first+n)). */
int64_t run_claim(bb_run *r, int64_t want, int64_t *first);
/* Records the first error of the run and asks every worker to stop. */
void    run_fail(bb_run *r, const bb_err *e);
static inline int run_stopping(const bb_run *r) { return __atomic_load_n(&r->stop, __ATOMIC_RELAXED); }

#endif
