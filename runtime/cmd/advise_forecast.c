/* advise_forecast.c — advise for --rows beyond what its budget can run (docs/scale.md,
 * docs/advise.md): the race runs at the rows it can, the fastest of each strategy kept in it
 * (what loses at 200,000 rows, dropping the indexes, may win by far once they outgrow the
 * server's memory), and each survivor is forecast to --rows: its load by the scale model
 * (core/run/scale_model.h) from its runs' growth, a strategy's before-step as it was, its
 * after-step (an index rebuild: a sort) grown as n log n. The confirmation at --rows the
 * budget cannot run is spent on one run of each strategy's fastest toward --rows instead. The answer is then the fastest at
 * --rows, said to be a forecast, with the choice at the rows raced when that differs. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "../../base/clock.h"
#include "../core/run/scale_model.h"
#include "advise.h"
#include "output.h"

/* The confirmation would run the leaders this many times at --rows: what the budget must fit
 * for the answer to be measured there rather than forecast. */
#define FC_CONFIRM_RUNS 6
/* A sort that spills to disk at --rows where it fit in memory at the rows raced runs slower
 * than n log n says: the after-step's interval reaches this factor above it. */
#define FC_AFTER_SPILL 1.5
/* A strategy's run toward --rows loads for this share of its time: its after-step follows. */
#define FC_LOAD_SHARE 0.6
/* As advisecmd.c keeps back from the race for what follows it. */
#define FC_RESERVE_S 1.0

typedef struct fc_cand {
    int k;
    double seconds, lo, hi; /* at --rows: before + load + after, and its interval */
    double before_s, load_s, after_s;
    int64_t from_rows; /* the rows of the runs it is forecast from */
    scale_fit fit;     /* its load's model (the median run's) */
} fc_cand;

struct adv_forecast {
    int on;          /* the answer is a forecast: --rows is beyond the budget */
    int decided;     /* whether it is has been decided (after the first round) */
    int pick;        /* the fastest at --rows, -1 none */
    int raced_pick;  /* the race's own pick at the rows it raced */
    int64_t raced_rows;
    fc_cand *c;
    int n;
};

static int n_groups(advise *a)
{
    int groups = 0;
    for (int k = 0; k < a->n; k++) {
        const char *s = a->c[k].combo && a->c[k].combo->strategy ? a->c[k].combo->strategy : "none";
        int g = -1;
        for (int j = 0; j < k && g < 0; j++) {
            const char *t = a->c[j].combo && a->c[j].combo->strategy ? a->c[j].combo->strategy : "none";
            if (!strcmp(s, t)) g = a->rc[j].group;
        }
        a->rc[k].group = g >= 0 ? g : groups++;
    }
    return groups;
}

void advise_forecast_begin(advise *a)
{
    a->fc = bb_xcalloc(1, sizeof *a->fc);
    a->fc->pick = a->fc->raced_pick = -1;
    /* strategies raced: what wins at the rows raced may lose at --rows (the others' ranking
     * moves little with the scale: the race's rules answer for them); until the first round
     * says whether the answer is a forecast, each strategy's fastest stays */
    a->fc->decided = n_groups(a) < 2 || a->rows <= a->r.cfg.rows_first;
    a->r.cfg.keep_groups = !a->fc->decided;
}

void advise_forecast_round(advise *a, double elapsed_s)
{
    adv_forecast *fc = a->fc;
    if (!fc || fc->decided) return;
    fc->decided = 1;
    int l = race_leader(&a->r);
    double rps = l >= 0 ? a->rc[l].stat.median : 0, left = a->budget_s - FC_RESERVE_S - elapsed_s;
    /* the leaders' confirmation at --rows, at the leader's rate so far (a larger table is
     * only slower): beyond what is left, the answer at --rows can only be a forecast */
    fc->on = rps > 0 && FC_CONFIRM_RUNS * (double)a->rows / rps > left;
    if (!fc->on) {
        a->r.cfg.keep_groups = 0;
        return;
    }
    fprintf(stderr,
            "advise: --rows=%lld is beyond the budget (a run of the leader there: about %.0f s); the race goes as "
            "far as it can, the fastest of each strategy kept; then the confirmation's share of the budget runs "
            "each strategy's fastest toward --rows, and each survivor is forecast there (docs/scale.md)\n",
            (long long)a->rows, (double)a->rows / rps);
}

int advise_forecast_on(const advise *a) { return a->fc && a->fc->on; }

/* The work of a sort of n rows. */
static double nlogn(double n) { return n > 2 ? n * log(n) : 2; }

/* The after-step's seconds at n rows: c0 + c1·n log n, fitted to the candidate's runs (least
 * squares, both at least 0) where they ran at scales twice apart or more; else from this run,
 * its fixed part taken as long as the before-step (the catalog's work: dropping an index costs
 * about what making one costs apart from its sort), the rest grown as n log n. */
static double after_at(const advise *a, const adv_run *run, double n)
{
    const adv_cand *c = NULL;
    for (int k = 0; k < a->n && !c; k++)
        if (run >= a->c[k].runs && run < a->c[k].runs + a->c[k].nruns) c = &a->c[k];
    double sx = 0, sy = 0, sxx = 0, sxy = 0, lo = INFINITY, hi = 0;
    int m = 0;
    for (int i = 0; c && i < c->nruns; i++) {
        const bb_result *r = &c->runs[i].res;
        if (r->error[0] || r->rows <= 0) continue;
        double x = nlogn((double)r->rows);
        sx += x, sy += r->after_s, sxx += x * x, sxy += x * r->after_s, m++;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    double d = m * sxx - sx * sx;
    if (m >= 2 && hi >= 2 * lo && d > 0) {
        double c1 = (m * sxy - sx * sy) / d, c0 = (sy - c1 * sx) / m;
        if (c1 > 0) return (c0 > 0 ? c0 : 0) + c1 * nlogn(n);
    }
    const bb_result *r = &run->res;
    double c0 = r->before_s < r->after_s ? r->before_s : r->after_s;
    return c0 + (r->after_s - c0) * nlogn(n) / nlogn((double)r->rows);
}

/* One run's forecast to --rows into out: its load by the model (its own rate where it has no
 * growth), its before-step as it was, its after-step grown as n log n; -1 when the run failed. */
static int run_forecast(const advise *a, const adv_run *run, fc_cand *out)
{
    const bb_result *r = &run->res;
    if (r->error[0] || r->rows <= 0 || r->seconds <= 0) return -1;
    scale_prior pr = { .memory_limit = r->memory_limit,
                       .host_memory = r->server_cpu_s >= 0 ? a->host.memory_bytes : -1 }; /* measured: it runs here */
    scale_fit *f = &out->fit;
    if (scale_forecast(&r->growth, a->rows, &pr, f) < 0) {
        memset(f, 0, sizeof *f);
        f->state = SCALE_IN_MEMORY;
        f->rows = a->rows;
        f->measured_rows = r->rows;
        f->spent_s = r->seconds;
        f->row_s = r->seconds / (double)r->rows;
        f->seconds = f->row_s * (double)a->rows;
        f->lo = 0.85 * f->seconds, f->hi = 1.2 * f->seconds, f->level = SCALE_LEVEL;
        f->knee_rows = -1;
    }
    out->before_s = r->before_s;
    out->load_s = f->seconds;
    out->after_s = after_at(a, run, (double)a->rows);
    out->seconds = out->before_s + out->load_s + out->after_s;
    out->lo = out->before_s + f->lo + out->after_s;
    out->hi = out->before_s + f->hi + out->after_s * FC_AFTER_SPILL;
    out->from_rows = r->rows;
    return 0;
}

static int by_seconds(const void *x, const void *y)
{
    double a = ((const fc_cand *)x)->seconds, b = ((const fc_cand *)y)->seconds;
    return a < b ? -1 : a > b;
}

/* Candidate k's forecast: its runs at the largest scale it ran, each forecast, the median. */
static int cand_forecast(const advise *a, int k, fc_cand *out)
{
    const adv_cand *c = &a->c[k];
    int64_t most = 0;
    for (int i = 0; i < c->nruns; i++)
        if (!c->runs[i].res.error[0] && c->runs[i].rows_asked > most) most = c->runs[i].rows_asked;
    fc_cand *v = bb_xmalloc(sizeof *v * (size_t)(c->nruns ? c->nruns : 1));
    int n = 0;
    for (int i = 0; i < c->nruns; i++)
        if (c->runs[i].rows_asked == most && run_forecast(a, &c->runs[i], &v[n]) == 0) n++;
    if (n) {
        qsort(v, (size_t)n, sizeof *v, by_seconds);
        *out = v[(n - 1) / 2];
        out->k = k;
    }
    free(v);
    return n ? 0 : -1;
}

/* The fastest of group g in the race, -1 none. */
static int group_best(const advise *a, int g)
{
    int best = -1;
    for (int k = 0; k < a->n; k++)
        if (a->rc[k].group == g && a->rc[k].state == RACE_ALIVE && a->rc[k].stat.n &&
            (best < 0 || a->rc[k].stat.median > a->rc[best].stat.median))
            best = k;
    return best;
}

/* What the confirmation would have had: one run of each strategy's fastest toward --rows, as
 * far as its share of what is left takes it (a strategy's after-step on the rows loaded comes
 * after its cut: a share of its time is kept for it), so each is forecast from a long growth
 * rather than from the race's short runs. */
static void runs_toward_rows(advise *a, advise_run_fn run, double elapsed_s)
{
    int groups = 0, best[64];
    for (int k = 0; k < a->n; k++)
        if (a->rc[k].group + 1 > groups) groups = a->rc[k].group + 1;
    int m = 0;
    for (int g = 0; g < groups && m < 64; g++)
        if ((best[m] = group_best(a, g)) >= 0) m++;
    double left = a->budget_s - FC_RESERVE_S - elapsed_s;
    for (int i = 0; i < m && !a->interrupted; i++) {
        double share = left / (m - i), t0 = bb_now_ns() / 1e9, over = race_overhead(&a->r);
        const adv_cand *c = &a->c[best[i]];
        double cap = (share - over) * (c->combo && c->combo->strategy ? FC_LOAD_SHARE : 0.9);
        const adv_run *last = c->nruns ? &c->runs[c->nruns - 1] : NULL;
        if (last && !last->res.error[0] && last->res.seconds > 0) { /* its after-step at the rows it will reach */
            double after = after_at(a, last, (double)last->res.rows / last->res.seconds * cap);
            if (cap + after > share - over) cap = share - over - after;
        }
        if (cap < 1) continue; /* too little: the race's runs stand */
        fprintf(stderr, "toward --rows: %s, one run cut at %.0f s\n", c->key, cap);
        bb_err err = { .code = BB_EXIT_RUNTIME };
        int rc = run(a, best[i], a->rows, cap, &err);
        if (rc >= 128) a->interrupted = rc - 128;
        left -= bb_now_ns() / 1e9 - t0;
    }
}

/* Whether k ran toward --rows (a run asked for them, outside the rounds). */
static int toward_rows(const advise *a, int k)
{
    for (int i = 0; i < a->c[k].nruns; i++)
        if (a->c[k].runs[i].rows_asked == a->rows && !a->c[k].runs[i].res.error[0]) return 1;
    return 0;
}

void advise_forecast_end(advise *a, advise_run_fn run, double elapsed_s)
{
    adv_forecast *fc = a->fc;
    if (!fc || !fc->on || a->interrupted) return;
    runs_toward_rows(a, run, elapsed_s);
    if (a->interrupted) return;
    fc->raced_pick = race_pick(&a->r);
    fc->raced_rows = fc->raced_pick >= 0 ? advise_standing_rows(a, fc->raced_pick) : 0;
    if (fc->raced_pick < 0 || fc->raced_rows >= a->rows) { /* measured at --rows after all */
        fc->on = 0;
        return;
    }
    /* the survivors that ran toward --rows (each strategy's fastest), and the race's own pick:
     * the others' runs are the race's, too short to forecast from (a half second's start) */
    fc->c = bb_xmalloc(sizeof *fc->c * (size_t)a->n);
    for (int k = 0; k < a->n; k++)
        if (a->rc[k].state == RACE_ALIVE && (toward_rows(a, k) || k == fc->raced_pick) &&
            cand_forecast(a, k, &fc->c[fc->n]) == 0)
            fc->n++;
    qsort(fc->c, (size_t)fc->n, sizeof *fc->c, by_seconds);
    fc->pick = fc->n ? fc->c[0].k : -1;
}

void advise_forecast_free(advise *a)
{
    if (!a->fc) return;
    free(a->fc->c);
    free(a->fc);
    a->fc = NULL;
}

int advise_forecast_pick(const advise *a) { return a->fc && a->fc->on ? a->fc->pick : -1; }

const char *advise_forecast_why(const advise *a, int pick)
{
    if (!advise_forecast_on(a) || pick != a->fc->pick) return NULL;
    return pick == a->fc->raced_pick ? "the fastest at --rows by the forecast below, as at the rows raced"
                                     : "the fastest at --rows by the forecast below, not the fastest at the rows raced";
}

static const fc_cand *fc_of(const adv_forecast *fc, int k)
{
    for (int i = 0; i < fc->n; i++)
        if (fc->c[i].k == k) return &fc->c[i];
    return NULL;
}

static const char *strategy_of(const adv_cand *c) { return c->combo && c->combo->strategy ? c->combo->strategy : "none"; }

void advise_forecast_text(const advise *a)
{
    const adv_forecast *fc = a->fc;
    if (!advise_forecast_on(a) || fc->pick < 0) return;
    const fc_cand *p = fc_of(fc, fc->pick);
    double N = (double)a->rows;
    printf("  at %lld rows, a forecast (the race reached %lld; docs/scale.md): %s: %.0f rows/s (%.0f to %.0f, %.0f%% "
           "interval)\n",
           (long long)a->rows, (long long)fc->raced_rows, a->c[fc->pick].key, N / p->seconds, N / p->hi, N / p->lo,
           p->fit.level * 100);
    printf("    the load %.0f s (%s", p->load_s, scale_state_name(p->fit.state));
    if (p->fit.state != SCALE_IN_MEMORY) printf(" past %.0f rows", p->fit.knee_rows);
    printf("), the strategy's steps %.1f s before and %.1f s after (n log n from %lld rows)\n", p->before_s,
           p->after_s, (long long)p->from_rows);
    if (fc->raced_pick != fc->pick) {
        const fc_cand *q = fc_of(fc, fc->raced_pick);
        printf("  at the %lld rows raced the choice was %s (%.0f rows/s there", (long long)fc->raced_rows,
               a->c[fc->raced_pick].key, a->rc[fc->raced_pick].stat.median);
        if (q) printf("; %.0f rows/s at %lld rows", N / q->seconds, (long long)a->rows);
        printf(")\n");
    }
    printf("  forecasts at %lld rows:", (long long)a->rows);
    for (int i = 0; i < fc->n; i++) printf("%s %s %.0f rows/s", i ? ";" : "", a->c[fc->c[i].k].key, N / fc->c[i].seconds);
    printf("\n");
}

static json_t *fc_cand_json(const advise *a, const fc_cand *c)
{
    const adv_cand *ac = &a->c[c->k];
    double N = (double)a->rows;
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(ac->key));
    json_object_set_new(o, "strategy", json_string(strategy_of(ac)));
    json_object_set_new(o, "rows_per_s", json_real(N / c->seconds));
    json_object_set_new(o, "interval", json_pack("[ff]", N / c->hi, N / c->lo));
    json_object_set_new(o, "seconds", json_real(c->seconds));
    json_object_set_new(o, "seconds_interval", json_pack("[ff]", c->lo, c->hi));
    json_object_set_new(o, "load_s", json_real(c->load_s));
    json_object_set_new(o, "before_s", json_real(c->before_s));
    json_object_set_new(o, "after_s", json_real(c->after_s));
    json_object_set_new(o, "from_rows", json_integer(c->from_rows));
    json_object_set_new(o, "model", forecast_model_json(&c->fit));
    return o;
}

void advise_forecast_json(const advise *a, json_t *rec)
{
    const adv_forecast *fc = a->fc;
    if (!advise_forecast_on(a) || fc->pick < 0) return;
    const fc_cand *p = fc_of(fc, fc->pick);
    json_t *f = fc_cand_json(a, p), *all = json_array();
    json_object_set_new(rec, "rows_per_s", json_real((double)a->rows / p->seconds));
    json_object_set_new(f, "rows", json_integer(a->rows));
    json_object_set_new(f, "level", json_real(p->fit.level));
    json_object_set_new(f, "raced_rows", json_integer(fc->raced_rows));
    json_object_set_new(f, "after_scaling", json_string("n log n"));
    json_t *raced = json_null();
    if (fc->raced_pick != fc->pick) {
        const fc_cand *q = fc_of(fc, fc->raced_pick);
        raced = json_pack("{s:s, s:s, s:f}", "key", a->c[fc->raced_pick].key, "strategy",
                          strategy_of(&a->c[fc->raced_pick]), "rows_per_s", a->rc[fc->raced_pick].stat.median);
        json_object_set_new(raced, "rows_per_s_at_rows", q ? json_real((double)a->rows / q->seconds) : json_null());
    }
    json_object_set_new(f, "choice_at_raced_rows", raced);
    for (int i = 0; i < fc->n; i++) json_array_append_new(all, fc_cand_json(a, &fc->c[i]));
    json_object_set_new(f, "candidates", all);
    json_object_set_new(rec, "forecast", f);
}
