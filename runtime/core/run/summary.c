/* summary.c — the spread of repeated measurements (see summary.h). */
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../../base/buf.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double summary_median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double summary_mad(const double *x, int n, double m)
{
    double *d = bb_xmalloc(sizeof *d * (size_t)n);
    for (int i = 0; i < n; i++) d[i] = fabs(x[i] - m);
    double mad = summary_median(d, n);
    free(d);
    return mad;
}

/* P(B <= j), B ~ Binomial(n, 1/2), summed in logs so that no term underflows on the way */
static double binom_half_cdf(int n, int j)
{
    if (j < 0) return 0;
    if (j >= n) return 1;
    double logt = -n * log(2.0), sum = 0;
    for (int i = 0; i <= j; i++) {
        if (i > 0) logt += log((double)(n - i + 1) / i);
        sum += exp(logt);
    }
    return sum < 1 ? sum : 1;
}

/* [x(k), x(n+1-k)] misses the median when fewer than k values fall below it, or above */
static double coverage(int n, int k) { return 1 - 2 * binom_half_cdf(n, k - 1); }

double summary_median_rank(int n, int *k)
{
    *k = 1;
    if (n <= 0) return 0;
    while (*k + 1 <= n - *k && coverage(n, *k + 1) >= SUMMARY_LEVEL) (*k)++;
    return coverage(n, *k);
}

void summary_of(const double *x, int n, uint64_t seed, bb_summary *out)
{
    (void)seed;
    *out = (bb_summary){ .median = -1,
                         .min = -1,
                         .max = -1,
                         .mean = -1,
                         .stddev = -1,
                         .cv = -1,
                         .mad = -1,
                         .lo = -1,
                         .hi = -1,
                         .level = -1 };
    double *v = bb_xmalloc(sizeof *v * (size_t)(n ? n : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (x[i] >= 0) v[k++] = x[i];
    out->n = k;
    if (k) {
        double sum = 0;
        for (int i = 0; i < k; i++) sum += v[i];
        out->mean = sum / k;
        if (k > 1) {
            double ss = 0;
            for (int i = 0; i < k; i++) ss += (v[i] - out->mean) * (v[i] - out->mean);
            out->stddev = sqrt(ss / (k - 1));
            out->cv = out->mean > 0 ? out->stddev / out->mean : -1;
        }
        out->median = summary_median(v, k); /* sorts v */
        out->min = v[0];
        out->max = v[k - 1];
        int r;
        out->level = summary_median_rank(k, &r);
        out->lo = v[r - 1];
        out->hi = v[k - r];
        out->mad = summary_mad(v, k, out->median);
    }
    free(v);
}

double summary_log_ss(const double *x, int n, int *m, double *mean_out)
{
    double sum = 0, ss = 0;
    *m = 0;
    for (int i = 0; i < n; i++)
        if (x[i] > 0) sum += log(x[i]), (*m)++;
    double mean = *m ? sum / *m : 0;
    for (int i = 0; i < n; i++)
        if (x[i] > 0) ss += (log(x[i]) - mean) * (log(x[i]) - mean);
    if (mean_out) *mean_out = mean;
    return ss;
}

double summary_t95(int dof)
{
    static const double t[31] = { 0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                                  2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
    if (dof < 1) return INFINITY;
    if (dof <= 30) return t[dof];
    double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * dof) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * dof * dof);
}

double summary_predict_var(double median, double var, int dof, double *lo, double *hi)
{
    *lo = *hi = -1;
    if (dof < 1 || !(median > 0) || !(var >= 0)) return -1;
    double half = summary_t95(dof) * sqrt(var);
    *lo = median * exp(-half);
    *hi = median * exp(half);
    return 0.95;
}

double summary_predict(double median, int n, double s, int dof, double *lo, double *hi)
{
    if (n < 1 || !(s >= 0)) {
        *lo = *hi = -1;
        return -1;
    }
    return summary_predict_var(median, s * s * (1 + 1.0 / n), dof, lo, hi);
}

void summary_zscores(const double *x, int n, double *z)
{
    double *v = bb_xmalloc(sizeof *v * (size_t)(n ? n : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (x[i] >= 0) v[k++] = x[i];
    memset(z, 0, sizeof *z * (size_t)n);
    if (k > 0) {
        double m = summary_median(v, k), mad = summary_mad(v, k, m), scale = mad / 0.6745;
        if (mad == 0) { /* more than half the values are equal: the mean deviation still sees the rest */
            double sum = 0;
            for (int i = 0; i < k; i++) sum += fabs(v[i] - m);
            scale = 1.253314 * sum / k;
        }
        for (int i = 0; i < n && scale > 0; i++)
            if (x[i] >= 0) z[i] = (x[i] - m) / scale;
    }
    free(v);
}

/* Dixon's r10 at 95%, two-sided, for 3..30 values: Rorabacher (1991), Anal. Chem. 63, 139, for
 * 3..10; 11..30 by the same simulation of normal samples (2 million each, which gives his
 * values for 3..10 to within 0.002). More values use 30's: stricter than their own. */
static const double dixon_q[31] = { 0,     0,     0,     0.970, 0.829, 0.710, 0.625, 0.568, 0.526, 0.493, 0.466,
                                    0.444, 0.426, 0.410, 0.397, 0.385, 0.375, 0.366, 0.358, 0.350, 0.343, 0.337,
                                    0.332, 0.326, 0.321, 0.317, 0.313, 0.308, 0.305, 0.301, 0.298 };

int summary_dixon(const double *x, int n, double *q, double *crit)
{
    *q = *crit = -1;
    int lo = -1, lo2 = -1, hi = -1, hi2 = -1, k = 0; /* the two smallest and the two largest known values */
    for (int i = 0; i < n; i++) {
        if (!(x[i] > 0)) continue;
        k++;
        if (lo < 0 || x[i] < x[lo]) lo2 = lo, lo = i;
        else if (lo2 < 0 || x[i] < x[lo2]) lo2 = i;
        if (hi < 0 || x[i] > x[hi]) hi2 = hi, hi = i;
        else if (hi2 < 0 || x[i] > x[hi2]) hi2 = i;
    }
    if (k < 3) return -1;
    /* in logs: rates spread by factors, and one run five times slower stands as far out as one
     * five times faster (in rows/s, which cannot go below 0, it would hide in the others' spread) */
    double range = log(x[hi]) - log(x[lo]);
    if (range <= 0) return -1;
    double ql = (log(x[lo2]) - log(x[lo])) / range, qh = (log(x[hi]) - log(x[hi2])) / range;
    int at = qh > ql ? hi : lo;
    *q = qh > ql ? qh : ql;
    *crit = dixon_q[k < 30 ? k : 30];
    /* and only a run that stands apart by what a reader would call a difference: runs paced to
     * within 0.05% of each other have a Q near 1 for the one 0.05% off, and that is no outlier */
    double gap = qh > ql ? log(x[hi]) - log(x[hi2]) : log(x[lo2]) - log(x[lo]);
    return *q > *crit && gap >= log(1 + SUMMARY_OUTLIER_GAP) ? at : -1;
}
