/* race.c — the rules of a budgeted race between load configurations (see race.h). */
#include "race.h"

#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../../base/buf.h"

void race_defaults(race_cfg *cfg, double budget_s, int64_t rows)
{
    *cfg = (race_cfg){ .budget_s = budget_s,
                       .rows = rows,
                       .rows_first = rows,
                       .growth = 4,
                       .reps_first = 2,
                       .reps = 3,
                       .tie = 0.05,
                       .bias = 0.15,
                       .far = 2,
                       .overhead_s = 0.5,
                       .min_cap_s = 0.5,
                       .slow = 4,
                       .first_share = 0.4,
                       .max_risk = 0.02,
                       .seed = 1 };
}

void race_init(race *r, const race_cfg *cfg, race_cand *c, int n)
{
    memset(r, 0, sizeof *r);
    r->cfg = *cfg;
    if (r->cfg.rows_first <= 0 || r->cfg.rows_first > r->cfg.rows) r->cfg.rows_first = r->cfg.rows;
    r->c = c;
    r->n = n;
    for (int k = 0; k < n; k++) {
        c[k].state = RACE_ALIVE;
        c[k].out_round = 0;
        c[k].s = NULL;
        c[k].ns = 0;
        c[k].mark = NULL;
        c[k].nmark = 0;
        memset(&c[k].stat, 0, sizeof c[k].stat);
    }
}

void race_free(race *r)
{
    for (int k = 0; k < r->n; k++) {
        free(r->c[k].s);
        free(r->c[k].mark);
        r->c[k].s = NULL;
        r->c[k].mark = NULL;
    }
    free(r->over);
    r->over = NULL;
}

/* Who runs in a round: every candidate in the race, and the baseline unless it failed. */
static int contests(const race_cand *c) { return c->state == RACE_ALIVE || (c->baseline && c->state != RACE_FAILED); }

int race_contestants(const race *r, int *idx)
{
    int m = 0;
    for (int k = 0; k < r->n; k++)
        if (contests(&r->c[k])) idx[m++] = k;
    return m;
}

double race_overhead(const race *r)
{
    if (!r->nover) return r->cfg.overhead_s;
    double *v = bb_xmalloc(sizeof *v * (size_t)r->nover);
    memcpy(v, r->over, sizeof *v * (size_t)r->nover);
    double m = summary_median(v, r->nover);
    free(v);
    return m;
}

int race_leader(const race *r)
{
    int best = -1;
    for (int k = 0; k < r->n; k++) {
        const race_cand *c = &r->c[k];
        if (c->state == RACE_ALIVE && c->stat.n > 0 && (best < 0 || c->stat.median > r->c[best].stat.median)) best = k;
    }
    return best;
}

/* A run's estimated wall seconds: the fixed cost, then its rows at the candidate's last
 * rows/s, at most the cap (the whole cap when its rate is not known yet); padded by 10%,
 * the spread of runs on a busy machine. */
static double run_estimate(const race_cand *c, int64_t rows, double cap, double over)
{
    double load = c->stat.n > 0 && c->stat.median > 0 ? (double)rows / c->stat.median : cap;
    return 1.1 * (over + (load < cap ? load : cap));
}

/* Later rounds cut a run at cfg.slow times the leader's time, never below cfg.min_cap_s. */
static double cap_for(const race *r, int64_t rows)
{
    int l = race_leader(r);
    double cap = l >= 0 && r->c[l].stat.median > 0 ? r->cfg.slow * (double)rows / r->c[l].stat.median : 0;
    return cap > r->cfg.min_cap_s ? cap : r->cfg.min_cap_s;
}

static double round_estimate(const race *r, int64_t rows, int reps, double cap)
{
    double over = race_overhead(r), sum = 0;
    for (int k = 0; k < r->n; k++)
        if (contests(&r->c[k])) sum += run_estimate(&r->c[k], rows, cap, over);
    return reps * sum;
}

/* Rows shown to people: whole thousands above a thousand. */
static int64_t tidy_rows(int64_t n) { return n > 1000 ? n / 1000 * 1000 : n; }

static int go(race *r, race_round *out, int64_t rows, int reps, double cap)
{
    r->cur = (race_round){
        .round = ++r->round, .rows = rows, .reps = reps, .cap_s = cap, .est_s = round_estimate(r, rows, reps, cap)
    };
    r->cut = 0;
    *out = r->cur;
    return 1;
}

static int stop(race *r, const char *why)
{
    r->stop = why;
    return 0;
}

/* The first round: nothing measured yet, so every run may take its whole cap; the cap is
 * what cfg.first_share of the budget allows, at least cfg.min_cap_s. */
static int plan_first(race *r, double left, int nc, race_round *out)
{
    double over = race_overhead(r);
    for (int reps = r->cfg.reps_first; reps >= 1; reps--) {
        double cap = r->cfg.first_share * left / (nc * reps) - over;
        if (cap < r->cfg.min_cap_s) cap = r->cfg.min_cap_s;
        if (reps * nc * 1.1 * (over + cap) <= left) return go(r, out, r->cfg.rows_first, reps, cap);
    }
    return stop(r, "budget");
}

int race_plan(race *r, double elapsed_s, race_round *out)
{
    if (r->stop) return 0;
    int *idx = bb_xmalloc(sizeof *idx * (size_t)(r->n ? r->n : 1)), nc = race_contestants(r, idx), fewest = INT_MAX;
    for (int i = 0; i < nc; i++)
        if (r->c[idx[i]].stat.n < fewest) fewest = r->c[idx[i]].stat.n;
    free(idx);
    if (nc == 0) return stop(r, "every candidate failed");
    double left = r->cfg.budget_s - elapsed_s;
    if (r->round == 0) return plan_first(r, left, nc, out);
    int64_t prev = r->cur.rows, next = (int64_t)((double)prev * r->cfg.growth);
    if (next > r->cfg.rows || next < prev || 4 * next >= 3 * r->cfg.rows)
        next = r->cfg.rows; /* near enough: the final scale */
    /* A larger scale before more runs at this one, three runs each if they fit, else two (an
     * interval still). Below the final scale a round takes at most half of what is left, so
     * a larger one can follow; failing the next scale, the most rows that fit, if 1.5 times
     * this round's. */
    double share = next == r->cfg.rows ? 1 : 0.5;
    for (int reps = r->cfg.reps; reps >= 2 && next > prev; reps--)
        if (round_estimate(r, next, reps, cap_for(r, next)) <= share * left)
            return go(r, out, next, reps, cap_for(r, next));
    for (int reps = r->cfg.reps; reps >= 2 && next > prev; reps--) {
        int64_t lo = prev, hi = next;
        while (hi - lo > 1 && hi - lo > lo / 100) {
            int64_t mid = lo + (hi - lo) / 2;
            if (round_estimate(r, mid, reps, cap_for(r, mid)) <= 0.5 * left) lo = mid;
            else hi = mid;
        }
        if ((double)lo >= 1.5 * (double)prev) return go(r, out, tidy_rows(lo), reps, cap_for(r, tidy_rows(lo)));
    }
    /* No larger scale fits: more runs at this one. While some contestant has a single run
     * (no interval, so nothing can drop), one more run each, if it fits in half of what is
     * left: the drops it allows may make room for a larger scale. Else as many as fit, unless
     * the confirmation follows: it runs what is left at cfg.rows. */
    if (fewest < 2 && prev < r->cfg.rows && round_estimate(r, prev, 1, cap_for(r, prev)) <= 0.5 * left)
        return go(r, out, prev, 1, cap_for(r, prev));
    if (r->cfg.confirm && prev < r->cfg.rows) return stop(r, "budget");
    for (int reps = r->cfg.reps; reps >= 1; reps--)
        if (round_estimate(r, prev, reps, cap_for(r, prev)) <= left) return go(r, out, prev, reps, cap_for(r, prev));
    return stop(r, "budget");
}

double race_estimate(const race *r, int k)
{
    return run_estimate(&r->c[k], r->cur.rows, r->cur.cap_s, race_overhead(r));
}

int race_may_start(const race *r, int k, double elapsed_s)
{
    return elapsed_s + race_estimate(r, k) <= r->cfg.budget_s;
}

void race_record(race *r, int k, double rows_per_s, double wall_s, double load_s)
{
    race_cand *c = &r->c[k];
    c->s = bb_xrealloc(c->s, sizeof *c->s * (size_t)(c->ns + 1));
    c->s[c->ns++] =
        (race_sample){ .round = r->cur.round, .rows = r->cur.rows, .rows_per_s = rows_per_s, .wall_s = wall_s };
    r->over = bb_xrealloc(r->over, sizeof *r->over * (size_t)(r->nover + 1));
    r->over[r->nover++] = wall_s > load_s ? wall_s - load_s : 0;
}

void race_fail(race *r, int k)
{
    r->c[k].state = RACE_FAILED;
    r->c[k].out_round = r->cur.round;
}

void race_cut(race *r) { r->cut = 1; }

static int has_rows(const race_cand *c, int64_t rows)
{
    for (int i = 0; i < c->ns; i++)
        if (c->s[i].rows == rows) return 1;
    return 0;
}

/* The largest scale every candidate in the race has run at (a round cut short leaves
 * some without a run at its own). */
static int64_t common_rows(const race *r)
{
    int64_t best = 0;
    for (int k = 0; k < r->n; k++)
        for (int i = 0; i < r->c[k].ns; i++) {
            int64_t rows = r->c[k].s[i].rows;
            if (rows <= best) continue;
            int all = 1;
            for (int j = 0; j < r->n && all; j++)
                if (r->c[j].state == RACE_ALIVE && !has_rows(&r->c[j], rows)) all = 0;
            if (all) best = rows;
        }
    return best ? best : r->cur.rows;
}

static void standing(race *r, int k, int64_t rows)
{
    race_cand *c = &r->c[k];
    double *v = bb_xmalloc(sizeof *v * (size_t)(c->ns ? c->ns : 1));
    int m = 0;
    for (int i = 0; i < c->ns; i++)
        if (c->s[i].rows == rows) v[m++] = c->s[i].rows_per_s;
    if (m) {
        summary_of(v, m, r->cfg.seed + (uint64_t)k, &c->stat);
        c->mark = bb_xrealloc(c->mark, sizeof *c->mark * (size_t)(c->nmark + 1));
        c->mark[c->nmark++] = (race_mark){ .round = r->cur.round, .rows = rows, .rps = c->stat };
    }
    free(v);
}


/* Whether k is the fastest of its group still in the race (cfg.keep_groups: at a smaller
 * scale than the answer's, what loses now may win there; advise forecasts each to rows). */
static int group_best(const race *r, int k)
{
    const race_cand *c = &r->c[k];
    if (!r->cfg.keep_groups || !c->stat.n) return 0;
    for (int j = 0; j < r->n; j++)
        if (j != k && r->c[j].group == c->group && r->c[j].state == RACE_ALIVE && r->c[j].stat.n &&
            r->c[j].stat.median > c->stat.median)
            return 0;
    return 1;
}

void race_end_round(race *r)
{
    int64_t rows = common_rows(r);
    for (int k = 0; k < r->n; k++)
        if (contests(&r->c[k])) standing(r, k, rows);
    int l = race_leader(r), alive = 0;
    const bb_summary *ls = l >= 0 ? &r->c[l].stat : NULL;
    double raise = race_scale_raise(r, rows);
    for (int k = 0; k < r->n; k++) {
        race_cand *c = &r->c[k];
        if (c->state != RACE_ALIVE) continue;
        int apart = ls && ls->n >= 2 && c->stat.n >= 2 && c->stat.hi * raise < ls->lo;
        double risk = apart ? race_drop_risk(r, k, l) : -1; /* and its chance of winning small, when known */
        if (risk > r->cfg.max_risk) apart = 0;
        int far = ls && c->stat.n == 1 && c->stat.median * raise * r->cfg.far < ls->median;
        if (k != l && (apart || far) && !group_best(r, k)) {
            c->state = RACE_DROPPED;
            c->out_round = r->cur.round;
        } else alive++;
    }
    if (alive == 0) r->stop = "every candidate failed";
    else if (alive == 1) r->stop = "one survivor";
    else if (r->cut) r->stop = "budget";
    else if (rows == r->cfg.rows) {
        int tied = 1;
        for (int k = 0; k < r->n && tied; k++) {
            const race_cand *c = &r->c[k];
            /* as fast as the leader, and known well enough to say so: the whole interval within tie */
            if (c->state == RACE_ALIVE &&
                (c->stat.n < 2 || c->stat.lo < (1 - r->cfg.tie) * ls->median ||
                 c->stat.hi > (1 + r->cfg.tie) * ls->median))
                tied = 0;
        }
        if (tied) r->stop = "indistinguishable";
    }
}

/* As fast as the leader: a median within cfg.tie of its, raised first for a standing from
 * below cfg.rows as the drops raise an interval; the confirmation at cfg.rows then decides. */
static int is_tied(const race *r, int k, int leader)
{
    const race_cand *c = &r->c[k];
    double raise = c->nmark ? race_scale_raise(r, c->mark[c->nmark - 1].rows) : 1;
    return c->state == RACE_ALIVE && c->stat.n && c->stat.median * raise >= (1 - r->cfg.tie) * r->c[leader].stat.median;
}

int race_tied(const race *r, int *idx)
{
    int l = race_leader(r), m = 0, base = -1;
    if (l < 0) return 0;
    for (int k = 0; k < r->n; k++) {
        const race_cand *c = &r->c[k];
        if (is_tied(r, k, l)) {
            int j = m++; /* insertion by median, fastest first: a few dozen candidates */
            for (; j > 0 && r->c[idx[j - 1]].stat.median < c->stat.median; j--) idx[j] = idx[j - 1];
            idx[j] = k;
        } else if (c->baseline && c->state != RACE_FAILED) base = k;
    }
    if (base >= 0) idx[m++] = base;
    return m;
}

static int runs_at(const race *r, int k, int64_t rows)
{
    int n = 0;
    for (int i = 0; i < r->c[k].ns; i++) n += r->c[k].s[i].rows == rows;
    return n;
}

int race_runs_at_scale(const race *r, int k) { return runs_at(r, k, r->cfg.rows); }

/* Seconds of one more run each, at rows, for the first `take` of idx and the baseline;
 * *have gets the fewest runs at rows among them (at most want). */
static double confirm_rep(const race *r, const int *idx, int m, int take, int want, int64_t rows, double cap, int *have)
{
    double over = race_overhead(r), per_rep = 0;
    *have = want;
    for (int i = 0; i < m; i++) {
        if (i >= take && !r->c[idx[i]].baseline) continue;
        int h = runs_at(r, idx[i], rows);
        if (h < *have) *have = h;
        per_rep += run_estimate(&r->c[idx[i]], rows, cap, over);
    }
    return per_rep;
}

/* race_confirm_plan at one scale. */
static int plan_at(const race *r, double elapsed_s, int want, int64_t rows, race_confirmation *p)
{
    int *idx = bb_xmalloc(sizeof *idx * (size_t)(r->n ? r->n : 1)), m = race_tied(r, idx), have;
    int l = race_leader(r), base = m > 0 && !is_tied(r, idx[m - 1], l); /* the baseline, last */
    int tied = m - base, fewest = tied < 2 ? tied : base ? 1 : 2; /* the leader and the baseline, or the first two */
    double cap = cap_for(r, rows), left = r->cfg.budget_s - elapsed_s;
    if (base && r->c[idx[m - 1]].stat.median > 0) { /* the baseline's runs whole too: a ratio needs them */
        double b = 2 * (double)rows / r->c[idx[m - 1]].stat.median;
        if (b > cap) cap = b;
    }
    double per_rep = confirm_rep(r, idx, m, tied, want, rows, cap, &have);
    *p = (race_confirmation){
        .rows = rows, .take = tied, .tied = tied, .have = have, .cap_s = cap, .need_s = (want - have) * per_rep
    };
    if (l < 0 || have >= want) {
        free(idx);
        return 0;
    }
    /* the most of the tied (fastest first) that three runs each fit, then the most runs that fit */
    for (int t = tied; t >= fewest; t--) {
        per_rep = confirm_rep(r, idx, m, t, want, rows, cap, &have);
        int least = have >= 3 ? 1 : 3 - have;
        if (have >= want || least * per_rep > left) continue;
        for (int k = want - have; k >= least; k--)
            if (k * per_rep <= left) {
                p->reps = k;
                p->take = t;
                p->have = have;
                free(idx);
                return 1;
            }
    }
    free(idx);
    p->reps = -1;
    return 0;
}

int race_confirm_plan(const race *r, double elapsed_s, int want, race_confirmation *p)
{
    int64_t lo = r->cur.rows, hi = r->cfg.rows;
    int ok = plan_at(r, elapsed_s, want, hi, p);
    if (ok || p->reps == 0 || lo <= 0 || lo >= hi) return ok;
    race_confirmation q;
    double need_s = p->need_s;                          /* what --rows would take, said whatever scale runs */
    if (!plan_at(r, elapsed_s, want, lo, &q)) return 0; /* *p: as at cfg.rows */
    if (q.take == q.tied)                               /* the largest scale at which every tied one gets its runs */
        while (hi - lo > 1 && hi - lo > lo / 100) {
            int64_t mid = lo + (hi - lo) / 2;
            race_confirmation t;
            if (plan_at(r, elapsed_s, want, mid, &t) && t.take == t.tied) lo = mid, q = t;
            else hi = mid;
        }
    race_confirmation tidy;
    if (q.rows > r->cur.rows && plan_at(r, elapsed_s, want, tidy_rows(q.rows), &tidy) && tidy.take == q.take) q = tidy;
    *p = q;
    p->need_s = need_s;
    return 1;
}

int race_confirm(race *r, const race_confirmation *p, race_round *out)
{
    int l = race_leader(r);
    if (l < 0 || p->reps < 1) return 0;
    int *idx = bb_xmalloc(sizeof *idx * (size_t)(r->n ? r->n : 1)), m = race_tied(r, idx);
    for (int k = 0; k < r->n; k++) { /* behind the tie band, or past what the budget confirms: out in this round */
        race_cand *c = &r->c[k];
        int in = 0;
        for (int i = 0; i < m && i < p->take; i++) in |= idx[i] == k;
        if (c->state == RACE_ALIVE && !in) {
            c->state = RACE_DROPPED;
            c->out_round = r->round + 1;
        }
    }
    free(idx);
    r->stop = NULL;
    go(r, out, p->rows, p->reps, p->cap_s);
    return 1;
}

/* Orders batches by size with 0 (one stream per worker) the largest. */
static int64_t batch_size(int64_t b) { return b > 0 ? b : INT64_MAX; }

/* Of the candidates as fast as the leader (median within cfg.tie of its), the one whose
 * interval's low end is highest (the faster of equals): the configuration most surely fast
 * when the runs spread, at no real cost in speed. A survivor further behind is not picked
 * for its narrow interval: the leader's median is the better bet. */
static int surest(const race *r, int leader)
{
    int best = -1;
    for (int k = 0; k < r->n; k++) {
        const race_cand *c = &r->c[k], *b = best >= 0 ? &r->c[best] : NULL;
        if (c->state != RACE_ALIVE || c->stat.n == 0) continue;
        if (leader >= 0 && c->stat.median < (1 - r->cfg.tie) * r->c[leader].stat.median) continue;
        if (!b || c->stat.lo > b->stat.lo || (c->stat.lo == b->stat.lo && c->stat.median > b->stat.median)) best = k;
    }
    return best;
}

int race_by_simplicity(const race *r)
{
    int l = race_leader(r);
    const race_cand *c = l >= 0 ? &r->c[l] : NULL;
    return c && c->nmark && c->mark[c->nmark - 1].rows >= r->cfg.rows && r->stop &&
        (!strcmp(r->stop, "indistinguishable") || !strcmp(r->stop, "confirmed"));
}

int race_pick(const race *r)
{
    int l = race_leader(r), best = l;
    if (l < 0 || !race_by_simplicity(r)) return surest(r, l);
    const bb_summary *ls = &r->c[l].stat;
    for (int k = 0; k < r->n; k++) {
        const race_cand *c = &r->c[k], *b = &r->c[best];
        if (c->state != RACE_ALIVE || c->stat.n == 0 || k == best) continue;
        if (c->stat.median < (1 - r->cfg.tie) * ls->median || c->stat.hi < ls->lo) continue;
        int cmp = c->threads != b->threads                 ? (c->threads < b->threads ? -1 : 1)
            : batch_size(c->batch) != batch_size(b->batch) ? (batch_size(c->batch) < batch_size(b->batch) ? -1 : 1)
            : c->nset_away != b->nset_away                 ? (c->nset_away < b->nset_away ? -1 : 1)
            : c->stat.median > b->stat.median              ? -1
                                                           : 1;
        if (cmp < 0) best = k;
    }
    return best;
}

/* Whether candidate a ranks before b: those in the race first, then those dropped, then
 * those failed; within each by their figure (the median of their standing), fastest first. */
static int ranks_before(const race *r, int a, int b)
{
    const race_cand *x = &r->c[a], *y = &r->c[b];
    if (x->state != y->state) return x->state < y->state; /* RACE_ALIVE, RACE_DROPPED, RACE_FAILED */
    double xm = x->stat.n ? x->stat.median : -1, ym = y->stat.n ? y->stat.median : -1;
    if (xm != ym) return xm > ym;
    return a < b;
}

int race_ranking(const race *r, int *idx)
{
    for (int k = 0; k < r->n; k++) { /* insertion sort: a few dozen candidates */
        int j = k;
        for (; j > 0 && ranks_before(r, k, idx[j - 1]); j--) idx[j] = idx[j - 1];
        idx[j] = k;
    }
    return r->n;
}
