/* race_noise.c — how a race's runs spread, where a re-run of its pick lands and what a drop
 * risked (see race.h: race_noise_of, race_rerun, race_drop_risk, race_scale_raise). Apart
 * from the race's rules: statistics on its recorded runs, which the rules call. */
#include "race.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../../base/buf.h"

/* summary_log_ss of k's runs at `rows`, of one round (round > 0) or of all, gathered in v
 * (room for all of k's runs): the log mean into *mean, the sum of squares into *ss; how many. */
static int log_group(const race_cand *c, int64_t rows, int round, double *v, double *mean, double *ss)
{
    int n = 0, m;
    for (int i = 0; i < c->ns; i++)
        if (c->s[i].rows == rows && (round <= 0 || c->s[i].round == round)) v[n++] = c->s[i].rows_per_s;
    *ss = summary_log_ss(v, n, &m, mean);
    return m;
}

/* Whether sample i is the first of its scale, or (by_round) of its scale and round. */
static int first_of(const race_cand *c, int i, int by_round)
{
    for (int j = 0; j < i; j++)
        if (c->s[j].rows == c->s[i].rows && (!by_round || c->s[j].round == c->s[i].round)) return 0;
    return 1;
}

/* Welch-Satterthwaite: the degrees of freedom of a + b, variance estimates with da and db of
 * their own (a term of no degrees of freedom or of 0 counts for none). */
static double welch_dof(double a, int da, double b, int db)
{
    double d = (da > 0 ? a * a / da : 0) + (db > 0 ? b * b / db : 0);
    return d > 0 ? (a + b) * (a + b) / d : 0;
}

/* The sums race_noise_of gathers over the candidates. */
typedef struct noise_sums {
    double ssw, ssp, var_sum, inv_sum; /* within rounds, about each level, of round means, 1/runs */
    int dw, dp, db;                    /* their degrees of freedom */
    double *esum;                      /* per round: the sum of its groups' strays, */
    int *ecount;                       /* and how many */
} noise_sums;

/* Candidate c's part of the sums: per scale its runs about its level, per round at that scale
 * its runs about the round's mean, and the round means about their mean (each round's stray
 * also added to that round's sum). means, round_of, v: room for c's runs. */
static void noise_of_cand(const race_cand *c, noise_sums *z, double *means, int *round_of, double *v)
{
    double mean, ss;
    for (int i = 0; i < c->ns; i++) {
        if (!first_of(c, i, 0)) continue;
        int m = log_group(c, c->s[i].rows, 0, v, &mean, &ss), rounds = 0;
        if (m >= 2) z->ssp += ss, z->dp += m - 1;
        double inv = 0, grand = 0;
        for (int j = i; j < c->ns; j++) { /* its rounds at this scale */
            if (c->s[j].rows != c->s[i].rows || !first_of(c, j, 1)) continue;
            int mj = log_group(c, c->s[j].rows, c->s[j].round, v, &means[rounds], &ss);
            if (mj == 0) continue;
            if (mj >= 2) z->ssw += ss, z->dw += mj - 1;
            inv += 1.0 / mj;
            round_of[rounds] = c->s[j].round;
            grand += means[rounds++];
        }
        if (rounds < 2) continue;
        grand /= rounds;
        double var = 0;
        for (int j = 0; j < rounds; j++) {
            var += (means[j] - grand) * (means[j] - grand);
            z->esum[round_of[j]] += means[j] - grand, z->ecount[round_of[j]]++;
        }
        z->var_sum += var;                         /* (rounds - 1) times the variance of the round means */
        z->inv_sum += (rounds - 1) * inv / rounds; /* what runs' own spread adds to it, per within variance */
        z->db += rounds - 1;
    }
}

int race_noise_of(const race *r, race_noise *out)
{
    int maxround = 0, most = 1;
    for (int k = 0; k < r->n; k++) {
        if (r->c[k].ns > most) most = r->c[k].ns;
        for (int i = 0; i < r->c[k].ns; i++)
            if (r->c[k].s[i].round > maxround) maxround = r->c[k].s[i].round;
    }
    noise_sums z = { .esum = bb_xmalloc(sizeof *z.esum * ((size_t)maxround + 1)),
                     .ecount = bb_xmalloc(sizeof *z.ecount * ((size_t)maxround + 1)) };
    memset(z.esum, 0, sizeof *z.esum * ((size_t)maxround + 1));
    memset(z.ecount, 0, sizeof *z.ecount * ((size_t)maxround + 1));
    double *means = bb_xmalloc(sizeof *means * (size_t)most), *v = bb_xmalloc(sizeof *v * (size_t)most);
    int *round_of = bb_xmalloc(sizeof *round_of * (size_t)most);
    for (int k = 0; k < r->n; k++) noise_of_cand(&r->c[k], &z, means, round_of, v);
    free(means);
    free(v);
    free(round_of);
    /* A round's stray is partly every candidate's in it (the machine's state: its draws are the
     * rounds, rounds less one degrees of freedom) and partly each one's own (the groups'): the
     * between part's degrees of freedom are Welch-Satterthwaite's of the two sums of squares. */
    int nrounds = 0;
    double ss_common = 0;
    for (int j = 0; j <= maxround; j++)
        if (z.ecount[j]) nrounds++, ss_common += z.esum[j] * z.esum[j] / z.ecount[j];
    free(z.esum);
    free(z.ecount);
    int dc = nrounds - 1, dn = z.db - dc;
    double bdof = dc > 0 && z.var_sum > 0 ? welch_dof(ss_common, dc, z.var_sum - ss_common, dn) : z.db;
    out->pooled = z.dp > 0 ? sqrt(z.ssp / z.dp) : -1;
    out->pooled_dof = z.dp;
    out->within = z.dw > 0 ? sqrt(z.ssw / z.dw) : -1;
    out->within_dof = z.dw;
    double b = z.dw > 0 && z.db > 0 ? (z.var_sum - z.ssw / z.dw * z.inv_sum) / z.db : 0; /* method of moments */
    out->between = b > 0 ? sqrt(b) : 0;
    out->between_dof = z.db > 0 ? bdof < 1 ? 1 : bdof > z.db ? z.db : (int)bdof : 0;
    return z.dp > 0;
}

double race_scale_raise(const race *r, int64_t rows) { return rows < r->cfg.rows ? 1 + r->cfg.bias : 1; }

/* The variance in logs of one run about its candidate's level: within and between rounds
 * when both are known, else the pooled spread; -1 when none is. */
double race_run_var(const race_noise *z)
{
    if (z->within >= 0) return z->within * z->within + z->between * z->between;
    return z->pooled >= 0 ? z->pooled * z->pooled : -1;
}

/* The variance of the median of n runs, per run's variance: the mean's 1/n for one or two,
 * wider for more (the median of normals: 1.35/n at 3, toward pi/2 / n). */
static double median_var(int n) { return n <= 2 ? 1.0 / n : (M_PI / 2 - 0.66 / n) / n; }

double race_drop_risk(const race *r, int k, int pick)
{
    race_noise z;
    const race_cand *c = &r->c[k], *p = pick >= 0 ? &r->c[pick] : NULL;
    if (!p || k == pick || !c->stat.n || !p->stat.n || !race_noise_of(r, &z)) return -1;
    int64_t rows = c->nmark ? c->mark[c->nmark - 1].rows : 0;
    double var = race_run_var(&z), raise = rows ? race_scale_raise(r, rows) : 1;
    if (var < 0 || c->stat.median <= 0) return -1;
    /* against the pick at the scale k stood at, where it ran there (a race that grew its rows
     * after the drop measured the pick at a scale k never saw) */
    const bb_summary *ps = &p->stat;
    for (int m = p->nmark - 1; m >= 0; m--)
        if (p->mark[m].rows == rows) {
            ps = &p->mark[m].rps;
            break;
        }
    double d = log(ps->median * (1 + r->cfg.tie)) - log(c->stat.median * raise);
    /* the spread is itself estimated: Student's tails, as a normal widened to t's 95% point */
    int dof = z.within >= 0 ? z.within_dof + z.between_dof : z.pooled_dof;
    double se = sqrt(var * (median_var(c->stat.n) + median_var(ps->n))) * summary_t95(dof > 0 ? dof : 1) / 1.96;
    return se > 0 ? 0.5 * erfc(d / (se * sqrt(2.0))) : d < 0;
}

/* The rounds k ran at `rows` in. */
static int rounds_at(const race_cand *c, int64_t rows)
{
    int n = 0;
    for (int i = 0; i < c->ns; i++) n += c->s[i].rows == rows && first_of(c, i, 1);
    return n;
}

double race_rerun(const race *r, int k, double *lo, double *hi)
{
    race_noise z;
    *lo = *hi = -1;
    if (k < 0 || !r->c[k].stat.n || !race_noise_of(r, &z)) return -1;
    const race_cand *c = &r->c[k];
    int n = c->stat.n;
    /* too little to tell the parts apart (a between part from two or three strays would take
     * t at one degree of freedom: an interval of 4x): the rounds pooled, as one spread */
    if (z.within_dof < 2 || (z.between_dof > 0 && z.between_dof < 2))
        return summary_predict(c->stat.median, n, z.pooled, z.pooled_dof, lo, hi);
    /* a re-run is a new round: its own run's spread, and its round's stray from the rounds measured */
    int nr = c->nmark ? rounds_at(c, c->mark[c->nmark - 1].rows) : 1;
    double a = z.within * z.within * (1 + 1.0 / n), b = z.between * z.between * (1 + 1.0 / (nr > 0 ? nr : 1));
    double dof = b > 0 && z.between_dof > 0 ? welch_dof(a, z.within_dof, b, z.between_dof) : z.within_dof;
    return summary_predict_var(c->stat.median, a + b, dof >= 1 ? (int)dof : 1, lo, hi);
}
