/* plan.h — what one run (one combination of a sweep) does: fixed before its workers
 * start, read-only while they work. */
#ifndef BB_PLAN_H
#define BB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../../../drivers/driver.h"

#define BB_MAX_SETTINGS 16
#define BB_MAX_METRICS 16
#define BB_MAX_HOSTS 16 /* DSNs in a host list */
#define BB_MAX_RANKS 64 /* MPI ranks whose rows/s a result lists one by one */

/* A figure a script measured itself (bb.metric), reported with the run's result. */
typedef struct bb_metric {
    char name[48];
    double value;
} bb_metric;

struct bb_growth;

/* What one run does: fixed before the workers start, read-only while they work. */
typedef struct bb_plan {
    const char *script;     /* path as given */
    const char *script_src; /* its text, read once */
    size_t script_len;
    const char *scenario; /* script's name without directory and .lua */
    const bb_driver *drv;
    const char *dsn;                /* the first (or only) DSN */
    const char *dsns[BB_MAX_HOSTS]; /* the host list: --dsn given several times */
    int ndsn;                       /* 0: one server, the engine's default or dsn */
    int shared;                     /* --shared: the DSNs reach one database; hooks on the first only */
    int rank, nranks;               /* under MPI: this process's rank and how many; else 0 and 1 */
    const struct bb_method *method; /* the method's row (method.h); NULL for event() scripts that do not load */
    int threads;
    int64_t batch;  /* the run's batch as method_batch (method.h) settles it; 0 for a stream: one per worker */
    int64_t rows;   /* row (or event) target, 0 = none */
    int64_t events; /* event() target, 0 = none */
    double time_s;  /* 0 = none */
    double rate;    /* events/s across threads, 0 = unlimited */
    double warmup_s;
    /* interval lines and samples every this many seconds; 0: neither; < 0 (not given):
     * samples each second, no lines, kept when the run is of 5 s or more */
    double report_interval;
    int latency_hist; /* --latency-hist: the result keeps the whole histogram */
    double waits_hz;  /* --waits: samples per second of the server sessions' waits, 0 = off (docs/diagnosis.md) */
    uint64_t seed;
    int64_t now_s; /* wall clock at the start of the run, for "now" generators */
    int progress;
    int nsettings;
    const char *set_name[BB_MAX_SETTINGS], *set_value[BB_MAX_SETTINGS];
    int set_global[BB_MAX_SETTINGS]; /* server-wide: set once, restored after */
    const char *target;              /* --target name, or NULL */
    const char *strategy;            /* --strategy: what is done around the load (lua/strategy.lua); NULL: none */
    /* A strategy's shape of the load (freeze): each worker's whole load is one transaction
     * that begins with txn_first (TRUNCATE), and each stream opens with stream_option
     * (FREEZE); "" for neither. Engine SQL, written by the engine's strategy module. */
    char txn_first[512];
    char stream_option[32];
    int reconnect;                   /* --reconnect: new sessions a batch may use after losing one */
    const char *scratch;             /* appended to every table's SQL name (advise: scratch tables), or NULL */
    const char *focus; /* the script's table the run loads instead of its own scenario (bb.focus), or NULL */
    char run_id[24];   /* unique per run: marks of exactly-once batches */
    /* forecast: called with the table's growth as it is sampled (growth.h); non-zero stops
     * the run, which then ends as under --time; NULL: the run goes on to its end */
    int (*growth_watch)(void *ud, const struct bb_growth *g);
    void *growth_ud;
} bb_plan;

#endif
