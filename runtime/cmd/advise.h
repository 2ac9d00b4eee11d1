/* advise.h — what the parts of `bulkbench advise` share: the candidates (a sweep
 * combination or a file load's workers and chunk), their runs, and the race between them
 * (core/run/race.h). advisecmd.c runs the race, advise_space.c builds the candidates,
 * advise_out.c prints the outcome and writes the runs. */
#ifndef BB_ADVISE_H
#define BB_ADVISE_H

#include <stdint.h>

#include "../core/load/load.h"
#include "../core/run/race.h"
#include "../core/run/result.h"
#include "../core/run/sysmon.h"
#include "runcmd.h"
#include "sweep.h"

#define ADV_MAX_SWEEPS 4

/* One run of a candidate. */
typedef struct adv_run {
    int round, rep; /* rep: its turn in the round, pairing runs of one turn */
    int64_t rows_asked;
    double cap_s, wall_s;
    bb_result res;
} adv_run;

typedef struct adv_cand {
    const sweep_combo *combo; /* a script's candidate; NULL for a file's */
    char key[192];            /* method:batch:threads[:name=value,...] */
    const char *method;
    int64_t batch; /* the effective batch (a file: the chunk in bytes); 0 = one stream per worker */
    int threads;
    int per_row; /* the method takes no batch */
    adv_run *runs;
    int nruns;
    char error[1024];      /* why its run failed twice in a row, "" when none did */
    int retries;           /* failed runs run once more (a failure the next run did not repeat is not the candidate's) */
    int recovered;         /* of those, the ones whose second run went through */
    char retry_note[600]; /* the first failure run again: "round N: why" */
} adv_cand;

/* One round as it went. */
typedef struct adv_round {
    race_round plan;
    int contestants, runs;
    double started_s, seconds;
} adv_round;

typedef struct adv_forecast adv_forecast; /* advise_forecast.c's */

typedef struct advise {
    bb_cli *cli;
    const char *input; /* the script or the file */
    int file;          /* input is a data file (bulkbench load's road) */
    const bb_driver *drv;
    const char *dsn;
    const char *table;       /* the script's table raced (its declared name), or the file's model table */
    const char *focus;       /* --table names a script's table other than the one bb.load loads: this one */
    char scratch[40];        /* suffix of the scratch tables' names */
    char scratch_table[256]; /* a file's: the scratch table loaded */
    char scenario[128];
    int cores;
    const char *cores_from; /* how the server's cores were learnt */
    double budget_s, elapsed_s;
    int64_t rows;       /* the scale the answer is for */
    int64_t file_bytes; /* a file's size */
    sysmon_host host;
    run_script rs; /* a script's set-up state */
    load_opts lo;  /* a file's load, its workers and chunk set per run */
    sweep sw[ADV_MAX_SWEEPS];
    int nsw;
    adv_cand *c;
    race_cand *rc;
    int n;
    int baseline; /* index of the --baseline candidate, -1 when none */
    race r;
    adv_round *rounds;
    int nrounds;
    int interrupted;
    char left[2048];       /* scratch tables that could not be dropped, and why; "" when none */
    int confirm_round;     /* the round that confirmed the leaders at --rows; 0 when none ran */
    double short_budget_s; /* > 0: the budget that would have confirmed them at --rows */
    int progress;          /* one line per run on standard error, rewritten in place */
    adv_forecast *fc;      /* --rows beyond the budget: the survivors forecast there (advise_forecast.c) */
} advise;

/* advise_space.c: the candidates from the engine's methods (or --method), the thread ladder
 * (or --threads), the batch ladder of each method's kind (or --batch), the --set values, and
 * the --baseline; a file's from its workers and chunk sizes. 0, or -1 with a usage error. */
int advise_space(advise *a, bb_err *err);
int advise_file_space(advise *a, int64_t file_bytes, bb_err *err);
/* The server's cores: the local count for a server on this host or an embedded engine,
 * else this client's (no engine tells its own). */
void advise_cores(advise *a);
void advise_space_free(advise *a);

/* advise_out.c: the outcome as text, or (advise_json.c) one JSON object, on standard
 * output; every run into --out with its `advise` object. */
void advise_print_text(const advise *a);
void advise_print_json(const advise *a);
int advise_write_runs(advise *a, bb_err *err);
/* The candidate recommended: the race's pick, -1 when none or the race was interrupted. */
int advise_pick(const advise *a);
/* The pieces both print from: a candidate's fate (winner, kept, dropped, failed); why the race
 * ended; whether the pick was confirmed at --rows (stopped "confirmed" at --rows, nothing
 * else); the drop rule in words; why the pick is not simply the leader (NULL when it is);
 * the survivors it cannot be told apart from (", "-joined; how many); what a row costs with
 * k (client CPU s, server CPU s, log bytes per row; -1 unknown); the command that reproduces
 * k; the bottleneck of the pick's last run that named one (NULL none). */
const char *advise_fate(const advise *a, int k);
const char *advise_stopped(const advise *a);
int advise_confirmed_at_rows(const advise *a, int pick);
const char *advise_drop_rule(const advise *a);
const char *advise_why_picked(const advise *a, int pick);
int advise_alike(const advise *a, int pick, char *out, size_t n);
void advise_cost_per_row(const advise *a, int k, double out[3]);
void advise_command_line(const advise *a, int k, char *out, size_t n);
const bb_waits *advise_bound(const advise *a, int pick);
/* 4194304 -> "4MB" */
const char *advise_size_text(int64_t bytes, char *out, size_t n);
/* "copy, batch 10000, 2 threads" */
void advise_describe(const adv_cand *c, char *out, size_t n);

/* advise_judge.c: the pick against the baseline, from the runs of both in one turn of one
 * round (paired: the machine's state shared) at the scale the pick was decided at. */
typedef struct adv_ratio {
    double ratio;         /* pick / baseline: the geometric mean of the paired ratios (-1 none) */
    double lo, hi, level; /* its interval (Student's t over the pairs' logs); -1 with under two pairs */
    int pairs;            /* paired runs */
    int64_t rows;         /* the scale they ran at: the pick's standing's */
    double base_rps;      /* the baseline's figure: the median of its standing, as the standings give it */
    const char *verdict;  /* faster, slower, no difference (within the race's tie), not a verdict... */
    int more;             /* not a verdict: paired runs more that would settle it, -1 too many */
} adv_ratio;
/* 1 with *out when there is a baseline and a pick, else 0. */
int advise_baseline(const advise *a, int pick, adv_ratio *out);
/* The verdict in words: "faster", "no difference (within 5%)", "not a verdict: about 4 more
 * paired runs would settle it". */
void advise_verdict_text(const adv_ratio *r, double tie, char *out, size_t n);
/* The risk the race's drops took (race_drop_risk): the chance that one of the dropped would
 * have beaten the pick, their sum at most 1; the largest in *max, its candidate in *worst;
 * -1 when the race's spread is unknown. */
double advise_drop_risk(const advise *a, int pick, int *worst, double *max);
/* What would move the pick's bound `kind`, from its method (a stream needs no fewer round
 * trips), batch and threads, the server's cores and the engine's strategies that change
 * something for the raced table; "" when nothing is known to. */
void advise_move(const advise *a, int pick, const char *kind, char *out, size_t n);
/* The scale of k's standing: the rows of its last mark (0: none). */
int64_t advise_standing_rows(const advise *a, int k);

/* advise_setup.c: before the race. check_options: the options, the engine and the input's
 * kind (a usage error, exit 2, for anything advise cannot do); setup_input: the script and its
 * table, or the file and its scratch table, and the space they need; check_threads: the most
 * threads of any candidate fit the server's free sessions and this client. */
int advise_check_options(advise *a, bb_err *err);
int advise_setup_input(advise *a, bb_err *err);
int advise_check_threads(advise *a, bb_err *err);

/* advise_forecast.c: advise for --rows beyond what the budget can run (docs/scale.md). begin:
 * before the race (the candidates grouped by strategy, each group's fastest kept in it until
 * the first round tells); round: after each round (decides, once, whether the answer is a
 * forecast, and then no confirmation follows); end: after the race, the confirmation's share
 * spent on one run of each strategy's fastest toward --rows (run: one run of k at rows, cut at
 * cap_s), each survivor forecast to --rows. pick: the fastest there (-1: the answer is no forecast); why:
 * the words for it; text and json: the forecast in the outcome (json: recommendation.forecast,
 * its rows_per_s the forecast's). */
typedef int (*advise_run_fn)(advise *a, int k, int64_t rows, double cap_s, bb_err *err);
void advise_forecast_begin(advise *a);
void advise_forecast_round(advise *a, double elapsed_s);
void advise_forecast_end(advise *a, advise_run_fn run, double elapsed_s);
void advise_forecast_free(advise *a);
int advise_forecast_on(const advise *a);
int advise_forecast_pick(const advise *a);
const char *advise_forecast_why(const advise *a, int pick);
void advise_forecast_text(const advise *a);
struct json_t;
void advise_forecast_json(const advise *a, struct json_t *rec);

#endif
