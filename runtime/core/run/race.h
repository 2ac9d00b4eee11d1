/* race.h — a budgeted race between load configurations: the rules of `bulkbench advise`,
 * with no clock, database or Lua of its own, so they can be tested with made-up numbers.
 *
 * The contract:
 * - Candidates race in rounds. race_plan gives the next round: every contestant (each
 *   candidate still in the race, and the baseline always) runs `reps` times at `rows` rows,
 *   each run cut after `cap_s` seconds; the caller runs them interleaved (every contestant
 *   once, then again, as --repeat does) and hands each outcome to race_record or race_fail.
 * - The first round runs every candidate cfg.reps_first times at cfg.rows_first rows, each
 *   run cut at what cfg.first_share of the budget allows (cfg.min_cap_s at least); later
 *   rounds run cfg.reps times, cut at cfg.slow times the leader's time. A round's rows grow
 *   by cfg.growth until cfg.rows, the scale the answer is for (taken at once when the next
 *   round would be within 3/4 of it); then rounds add runs at that scale. A candidate's standing (median rows/s and the 95%
 *   bootstrap interval of summary.h) is taken over its runs at the round's scale, earlier
 *   rounds at the same scale included.
 * - After a round (race_end_round) a candidate whose interval lies wholly below the
 *   leader's (each with two runs or more) is dropped, unless the chance that it would win
 *   (race_drop_risk against the leader, from the race's spread so far) is cfg.max_risk or
 *   more; the leader has the highest median.
 *   Below cfg.rows the interval's top is first raised by cfg.bias: a smaller scale judges
 *   big batches and many threads on fewer batches per worker than the answer is for.
 *   With a single run (no interval yet) a candidate falls only when that run, so raised, is
 *   under 1/cfg.far of the leader's rows/s: far beyond the spread of runs, and it frees the
 *   next rounds for the candidates that might win.
 * - The race stops (r->stop says why) at one survivor, when the survivors cannot be told
 *   apart (at cfg.rows, every survivor's interval within cfg.tie of the leader's median),
 *   or when the budget
 *   cannot fit another round. A round is planned so its estimated wall time fits what is
 *   left: each run costs the measured per-run overhead plus its rows at its candidate's last
 *   rows/s (its cap when unknown), padded by 10%; a round below cfg.rows takes at most half
 *   of what is left (the first, cfg.first_share), so a larger scale still follows. A larger
 *   scale comes before more runs at the current one: the next scale with three runs each,
 *   else two; else the most rows (1.5 times the current at least) that fit with three, else
 *   two; else more runs at the current scale: one each while a contestant has a single
 *   run and that fits in half of what is left (its drops may make room for a larger scale),
 *   else as many as fit; but when cfg.confirm says a confirmation at cfg.rows follows, a race
 *   below cfg.rows stops there instead (r->stop "budget"): what is left buys runs at the scale
 *   the answer is for, not more of a smaller one. race_may_start refuses a
 *   run whose estimate would overshoot; the caller then calls race_cut.
 * - The recommendation (race_pick) is, of the survivors as fast as the leader (median within
 *   cfg.tie), the one whose interval's low end is highest (the one most surely fast; with
 *   one run each, the leader); when the race stopped because the
 *   survivors cannot be told apart (or the caller's confirmation round decided: r->stop
 *   "confirmed") at cfg.rows, it is the simplest of the survivors as fast as the
 *   leader (median within cfg.tie, intervals overlapping): fewer threads, then a smaller
 *   batch (0, one stream per worker, counts as the largest), then fewer settings away from
 *   their first listed value; the faster of equals. */
#ifndef BB_RACE_H
#define BB_RACE_H

#include <stdint.h>

#include "summary.h"

typedef enum { RACE_ALIVE, RACE_DROPPED, RACE_FAILED } race_state;

/* One run's outcome. */
typedef struct race_sample {
    int round;
    int64_t rows; /* the rows the round asked for (a run cut by its cap loads fewer) */
    double rows_per_s, wall_s;
} race_sample;

/* A candidate's standing at the end of a round. */
typedef struct race_mark {
    int round;
    int64_t rows; /* the scale of the runs it summarises */
    bb_summary rps;
} race_mark;

typedef struct race_cand {
    /* the caller's: what makes a candidate simpler, and whether it is the baseline */
    int threads;
    int64_t batch; /* 0: one stream per worker (the largest) */
    int nset_away; /* settings away from the first value listed */
    int baseline;  /* runs every round, in the race or not */
    int group;     /* with cfg.keep_groups, the fastest of each group (a strategy) stays in the race */
    /* the race's */
    race_state state;
    int out_round;  /* the round it was dropped in or failed in; 0 while in the race */
    race_sample *s; /* its runs */
    int ns;
    race_mark *mark; /* its standing after each round it ran in */
    int nmark;
    bb_summary stat; /* its current standing (n == 0: none yet) */
} race_cand;

typedef struct race_cfg {
    double budget_s;    /* wall seconds for every run together */
    int64_t rows;       /* the scale the answer is for */
    int64_t rows_first; /* the first round's rows (at most rows) */
    double growth;      /* rows multiply by this from round to round (4) */
    int reps_first;     /* runs per contestant in the first round (2) */
    int reps;           /* and in later rounds (3) */
    double tie;         /* medians within this fraction of the leader's are as fast (0.05) */
    double bias;        /* below rows, how much a smaller scale may understate a candidate (0.15) */
    double far;         /* with one run, a candidate this many times slower than the leader falls (2) */
    double overhead_s;  /* a run's fixed cost (connect, prepare, check) until one is measured (0.5) */
    double min_cap_s;   /* the shortest cut of a run (0.5) */
    double slow;        /* later rounds cut a run at this many times the leader's time (4) */
    double first_share; /* of the budget the first round may take (0.4) */
    double max_risk;    /* an interval wholly below the leader's drops only with race_drop_risk under this (0.02) */
    int confirm;        /* a confirmation at rows follows (race_confirm): below rows, no runs for their own sake (0) */
    int keep_groups;    /* the answer is a forecast to rows (advise_forecast.c): each group's fastest stays (0) */
    uint64_t seed;      /* of the bootstrap */
} race_cfg;

/* A round to run. */
typedef struct race_round {
    int round; /* from 1 */
    int64_t rows;
    int reps;
    double cap_s; /* each run stops after this many seconds */
    double est_s; /* its estimated wall time */
} race_round;

typedef struct race {
    race_cfg cfg;
    race_cand *c; /* the caller's array; the race fills its own members */
    int n;
    int round; /* rounds planned so far */
    race_round cur;
    int cut;      /* the current round was cut short */
    double *over; /* each run's overhead: wall time less rows / rows_per_s */
    int nover;
    const char *stop; /* why the race ended: NULL while it goes on */
} race;

/* Fills cfg with the defaults above for a budget and a scale. */
void race_defaults(race_cfg *cfg, double budget_s, int64_t rows);
/* Starts a race over n candidates (their caller's members set, the rest zeroed). */
void race_init(race *r, const race_cfg *cfg, race_cand *c, int n);
void race_free(race *r);

/* The next round, given the wall seconds spent so far: 1 with *out, or 0 when the race is
 * over (r->stop says why). */
int race_plan(race *r, double elapsed_s, race_round *out);
/* The contestants of the current round, in running order, into idx (n entries at most);
 * returns how many. */
int race_contestants(const race *r, int *idx);
/* The estimated wall seconds of candidate k's run in the current round. */
double race_estimate(const race *r, int k);
/* Whether k's run may start at elapsed_s without its estimate overshooting the budget. */
int race_may_start(const race *r, int k, double elapsed_s);
/* A run of k in the current round: its rows/s, its wall seconds and the seconds it loaded
 * for (the rest is the run's fixed cost). */
void race_record(race *r, int k, double rows_per_s, double wall_s, double load_s);
/* k's run failed: it leaves the race (the baseline too). */
void race_fail(race *r, int k);
/* The current round ends early: the budget is spent. */
void race_cut(race *r);
/* Standings, drops and the stop rules after the current round. */
void race_end_round(race *r);

/* A confirmation round's plan (race_confirm_plan). */
typedef struct race_confirmation {
    int64_t rows;  /* its scale: cfg.rows, or the largest the budget reaches (see race_confirm_plan) */
    int reps;      /* more runs each at rows: 0 none needed, -1 the budget cannot */
    int take;      /* of the tied (race_tied's first entries, fastest first), how many run */
    int tied;      /* how many are tied (the baseline, when it is not, comes after them) */
    int have;      /* the fewest runs at rows any of them has already (of want) */
    double cap_s;  /* each run's cut: cfg.slow times the leader's time, or twice the baseline's if longer */
    double need_s; /* the seconds that `want` runs of every tied one at cfg.rows would take from now */
} race_confirmation;

/* The confirmation round, after the race: the first p->take survivors race_tied names (those
 * within cfg.tie of the leader's median, a median from below cfg.rows first raised by
 * cfg.bias; fastest first: the others leave the race in this round), and the baseline, run
 * p->reps more times at p->rows, each cut at p->cap_s; the caller runs it as any round and
 * ends it with race_end_round, whose standings then are at p->rows. 0 when no candidate has
 * a standing. */
int race_confirm(race *r, const race_confirmation *p, race_round *out);
/* Plans the confirmation at elapsed_s into *p: of the tied, the most (fastest first; at least
 * the leader and the baseline, or the leader and the next without one) whose three runs each
 * at cfg.rows fit the budget (counting those they have); then the most runs, up to `want`
 * each, that fit. When not even that fits at cfg.rows, the largest scale from the race's last
 * round's up at which every tied one gets its three runs (at the race's last scale, the most
 * of them that do): better a decision between the leaders at a smaller scale than none, with
 * the budget's remainder unspent. 1 with p->reps and p->rows, 0 when they have them already
 * (reps 0) or when the budget cannot (reps -1). */
int race_confirm_plan(const race *r, double elapsed_s, int want, race_confirmation *p);
/* The survivors the confirmation would run, fastest first, then the baseline (once), into
 * idx; how many. */
int race_tied(const race *r, int *idx);
/* The runs k has at cfg.rows so far. */
int race_runs_at_scale(const race *r, int k);

/* How a run spreads about its candidate's level, from the whole race, in logs of rows/s (rates
 * spread by factors). A round is one window of the machine's state, shared by its runs:
 *   within:  about the mean of its own round's runs at one scale, pooled over every candidate,
 *            scale and round with two runs or more;
 *   between: how far a round's mean strays from the other rounds' of the same candidate and
 *            scale, less what `within` explains of it (method of moments; 0 when it explains all);
 *   pooled:  about the candidate's mean at one scale, its rounds together (a single run tells
 *            nothing of spread).
 * Standard deviations (-1 unknown) and their degrees of freedom; returns 0 when not even
 * `pooled` is known. */
typedef struct race_noise {
    double within, between, pooled;
    int within_dof, between_dof, pooled_dof;
} race_noise;
int race_noise_of(const race *r, race_noise *out);
/* Where a re-run of k lands, 95% of the time (summary_predict_var): a re-run is one run in a
 * new round, so its variance is within^2 (1 + 1/n) + between^2 (1 + 1/rounds), n and rounds
 * k's runs and rounds at its standing's scale, with the Welch-Satterthwaite degrees of freedom;
 * with fewer than two degrees of freedom within rounds or between them, the pooled spread
 * (summary_predict).
 * The level, or -1 (lo = hi = -1) without a spread or a standing. */
double race_rerun(const race *r, int k, double *lo, double *hi);

/* The variance in logs of one run about its candidate's level (within^2 + between^2, else
 * pooled^2); -1 when unknown. */
double race_run_var(const race_noise *z);
/* The risk a drop took: the chance that candidate k, out of the race, is faster than `pick`
 * by more than cfg.tie (what would have made it the winner) at the scale the answer is for,
 * from k's standing (raised by race_scale_raise when it stood below cfg.rows) and the pick's
 * at that same scale (its standing there after the round it last ran in there) and the
 * spread of a run in this race (race_run_var; the variance of a median of n runs), normal in
 * logs with Student's tails for the spread's degrees of freedom, as if any difference were
 * as likely as any other beforehand; -1 when no spread or standing is known. */
double race_drop_risk(const race *r, int k, int pick);

/* The leader: the candidate in the race with the highest median; -1 when none. */
int race_leader(const race *r);
/* The recommendation (see above); -1 when no candidate has a standing. */
int race_pick(const race *r);
/* Whether race_pick takes the simplest of those as fast (the race stopped on survivors that
 * cannot be told apart, or a confirmation decided, and the standings are at cfg.rows); else
 * it takes the surest. Below cfg.rows never: a smaller scale understates more threads and
 * bigger batches, the very ways in which the simpler differ. */
int race_by_simplicity(const race *r);
/* Every candidate ranked, the one order of the standings: those in the race, then those
 * dropped, then those failed, each by median, fastest first; returns n. */
int race_ranking(const race *r, int *idx);
/* What a standing at `rows` may understate a candidate by, as a factor: below cfg.rows a
 * smaller scale judges big batches and many threads on fewer batches per worker (1 +
 * cfg.bias); at cfg.rows 1. The drops and the tie at the confirmation allow for it. */
double race_scale_raise(const race *r, int64_t rows);
/* The wall seconds of one run's fixed cost as measured so far (cfg.overhead_s before any). */
double race_overhead(const race *r);

#endif
