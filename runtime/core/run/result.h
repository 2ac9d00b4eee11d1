/* result.h — the result of one run or load, every field the user sees (its printed forms: cmd/output.h). */
#ifndef BB_RESULT_H
#define BB_RESULT_H

#include <stdint.h>

#include "growth.h"
#include "plan.h"
#include "series.h"
#include "summary.h"
#include "waits.h"

/* Unknown figures: doubles < 0 and int64s == -1 print as null. */
/* One server of a host list: where it is and what the run cost it (-1 = not measured). */
typedef struct bb_host_cost {
    char where[96];
    char role[16]; /* a cluster's node: "coordinator", "worker", "segment"; "" for a host of a list */
    double cpu_s;
    int64_t rss_growth, log_bytes, redo_bytes, table_bytes;
} bb_host_cost;

/* --repeat: one counted run of a point, as the result lists it (-1 = null). */
typedef struct bb_run_figs {
    double rows_per_s, events_per_s, mb_per_s, seconds, p50, p95, p99, max;
    int64_t rows;
    int outlier; /* Dixon's Q sees it stand out from the point's other runs in rows/s (summary_dixon) */
    bb_series intervals;
} bb_run_figs;

/* --repeat: a point's counted runs and their spread (filled by repeat.c). */
typedef struct bb_repeat {
    int repeats, warmup_runs;
    int n;
    bb_run_figs *runs;
    bb_summary rows_per_s, seconds, p50, p99;
    double events_per_s, mb_per_s; /* medians of the runs' */
    int outliers;                  /* runs that are outliers: 0 or 1 */
    double q, q_crit;              /* Dixon's Q of the runs' rows/s and its critical value (-1: below 3 runs) */
    struct bb_result *whole;       /* each counted run's whole result, owning nothing */
} bb_repeat;

typedef struct bb_result {
    char scenario[128], engine[32], method[32];
    char scenario_sha256[65]; /* of the script's text, in hex; "" = null (no script: a load) */
    const char *scenario_text; /* the script's text, written with this result when set (once per --out file); not owned */
    int threads;
    int64_t batch; /* -1: not applicable (event scripts) */
    int64_t rows, bytes, events, errors;
    double seconds;
    double p50, p95, p99, max; /* ms */
    double client_cpu_s;       /* this process's CPU during the run, less measure_cpu_s's part in it */
    double measure_cpu_s;      /* CPU this process spent reading the servers' counters and memory; -1 = none read */
    double server_cpu_s;
    int64_t rss_growth, log_bytes, redo_bytes, table_bytes;
    char version[128];
    char driver[128];      /* the client library or ODBC driver and its version, "" = null */
    char settings[1024];   /* JSON object text, "" = null */
    int tls_on;            /* the runner's session was encrypted: 1, 0, -1 = not measurable (null) */
    char tls_version[32], tls_cipher[64]; /* "" = null */
    int64_t verified_rows; /* -1: the script has no check() */
    int verdict;           /* bb_verdict (verify.h): what the check found, judged once */
    int64_t committed;
    int64_t rows_in_doubt; /* rows whose commit was under way when a session was lost */
    int64_t rows_rejected; /* load --on-error=skip: rows the server refused, -1 otherwise */
    int64_t reconnects;    /* --reconnect: sessions replaced after a loss */
    char started_at[40];
    int nset;
    char set_name[BB_MAX_SETTINGS][64], set_value[BB_MAX_SETTINGS][128];
    char target[64]; /* --target name, "" = none */
    /* --strategy (lua/strategy.lua): its name ("" = none), why it was skipped ("" = it ran),
     * and the seconds of its before- and after-steps; rows/s is over before + load + after */
    char strategy[64], strategy_skipped[256], strategy_gives_up[256];
    double before_s, after_s;
    int nopts; /* the script's options as they took effect */
    const char *const *opt_name, *const *opt_value;
    bb_metric metric[BB_MAX_METRICS];
    int nmetrics;
    int nhosts; /* servers of a host list, 0 for one server */
    bb_host_cost host[BB_MAX_HOSTS];
    int nnodes; /* the nodes of the clusters run on (Citus, Greenplum), coordinators included; 0: none */
    bb_host_cost node[BB_MAX_NODES + 1];
    int ranks; /* MPI ranks that ran it, 0 without MPI */
    double rank_rows_per_s[BB_MAX_RANKS];
    int64_t rank_rows[BB_MAX_RANKS];
    bb_waits waits;   /* what the server sessions waited on and the bottleneck (samples == 0: not sampled) */
    int64_t memory_limit; /* the memory the server is held to (its cgroup's limit), -1 none known */
    char error[1024]; /* "" when the run succeeded */
    /* Owned by the result (result_free): */
    bb_series intervals; /* samples every --report-interval; n == 0: none recorded */
    uint64_t *hist;      /* --latency-hist: the STATS_NBUCKETS latency counts; NULL: not asked */
    bb_repeat *rep;      /* --repeat: the point's runs and their spread; NULL: one run */
    bb_growth growth;    /* the table as it grew (n == 0: not sampled, null) */
} bb_result;

void result_init(bb_result *r);
void result_free(bb_result *r);
/* p50/p95/p99/max in ms from a histogram snapshot (left null when nothing was recorded). */
struct stats_snap;
void result_latency(bb_result *r, const struct stats_snap *s);
/* The rates the result reports: the runs' medians under --repeat, else figure / seconds;
 * -1 when unknown. */
double result_rows_per_s(const bb_result *r);
double result_events_per_s(const bb_result *r);
double result_mb_per_s(const bb_result *r);
/* --latency-hist: keeps a copy of the snapshot's histogram in r->hist. */
void result_keep_hist(bb_result *r, const struct stats_snap *s);
#endif
