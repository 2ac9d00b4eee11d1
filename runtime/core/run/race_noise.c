/* race_noise.c — how a race's runs spread, and where a re-run of its pick lands (see race.h:
 * race_noise_of, race_rerun). Apart from the race's rules: statistics on its recorded runs. */
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

int race_noise_of(const race *r, race_noise *out)
{
    double ssw = 0, ssp = 0, var_sum = 0, inv_sum = 0, mean, ss;
    int dw = 0, dp = 0, db = 0, maxround = 0;
    for (int k = 0; k < r->n; k++)
        for (int i = 0; i < r->c[k].ns; i++)
            if (r->c[k].s[i].round > maxround) maxround = r->c[k].s[i].round;
    /* per round: the sum and count of its groups' strays (mean of the round less the group's) */
    double *esum = bb_xmalloc(sizeof *esum * ((size_t)maxround + 1));
    int *ecount = bb_xmalloc(sizeof *ecount * ((size_t)maxround + 1));
    memset(esum, 0, sizeof *esum * ((size_t)maxround + 1));
    memset(ecount, 0, sizeof *ecount * ((size_t)maxround + 1));
    for (int k = 0; k < r->n; k++) {
        const race_cand *c = &r->c[k];
        double *means = bb_xmalloc(sizeof *means * (size_t)(c->ns ? c->ns : 1));
        int *round_of = bb_xmalloc(sizeof *round_of * (size_t)(c->ns ? c->ns : 1));
        double *v = bb_xmalloc(sizeof *v * (size_t)(c->ns ? c->ns : 1));
        for (int i = 0; i < c->ns; i++) {
            if (!first_of(c, i, 0)) continue;
            int m = log_group(c, c->s[i].rows, 0, v, &mean, &ss), rounds = 0;
            if (m >= 2) ssp += ss, dp += m - 1;
            double inv = 0, grand = 0;
            for (int j = i; j < c->ns; j++) { /* its rounds at this scale */
                if (c->s[j].rows != c->s[i].rows || !first_of(c, j, 1)) continue;
                int mj = log_group(c, c->s[j].rows, c->s[j].round, v, &means[rounds], &ss);
                if (mj == 0) continue;
                if (mj >= 2) ssw += ss, dw += mj - 1;
                inv += 1.0 / mj;
                round_of[rounds] = c->s[j].round;
                grand += means[rounds++];
            }
            if (rounds < 2) continue;
            grand /= rounds;
            double var = 0;
            for (int j = 0; j < rounds; j++) {
                var += (means[j] - grand) * (means[j] - grand);
                if (round_of[j] >= 0) esum[round_of[j]] += means[j] - grand, ecount[round_of[j]]++;
            }
            var_sum += var;                         /* (rounds - 1) times the variance of the round means */
            inv_sum += (rounds - 1) * inv / rounds; /* what runs' own spread adds to it, per within variance */
            db += rounds - 1;
        }
        free(means);
        free(round_of);
        free(v);
    }
    /* A round's stray is partly every candidate's in it (the machine's state: its draws are the
     * rounds, rounds less one degrees of freedom) and partly each one's own (the groups'): the
     * between part's degrees of freedom are Welch-Satterthwaite's of the two sums of squares. */
    int nrounds = 0;
    double ss_common = 0;
    for (int j = 0; j <= maxround; j++)
        if (ecount[j]) nrounds++, ss_common += esum[j] * esum[j] / ecount[j];
    free(esum);
    free(ecount);
    double ss_own = var_sum - ss_common;
    int dc = nrounds - 1, dn = db - dc;
    double bdof = dc > 0 && var_sum > 0 ? welch_dof(ss_common, dc, ss_own, dn) : db;
    out->pooled = dp > 0 ? sqrt(ssp / dp) : -1;
    out->pooled_dof = dp;
    out->within = dw > 0 ? sqrt(ssw / dw) : -1;
    out->within_dof = dw;
    double b = dw > 0 && db > 0 ? (var_sum - ssw / dw * inv_sum) / db : 0; /* method of moments */
    out->between = b > 0 ? sqrt(b) : 0;
    out->between_dof = db > 0 ? bdof < 1 ? 1 : bdof > db ? db : (int)bdof : 0;
    return dp > 0;
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
