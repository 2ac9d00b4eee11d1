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

/* splitmix64: a generator of its own, so an interval depends on nothing but its inputs */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* x[k] of x in order, reordering x so that nothing before k is above it and nothing after
 * below it (Hoare's selection): O(n), where a sort through a comparison callback is
 * O(n log n) and the bootstrap does this thousands of times per interval. */
static double select_kth(double *x, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = x[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot) i++;
            while (x[j] > pivot) j--;
            if (i <= j) {
                double t = x[i];
                x[i++] = x[j];
                x[j--] = t;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else break; /* x[k] equals the pivot: in place */
    }
    return x[k];
}

/* The median of x (n > 0), reordering it: the number summary_median gives, without the sort. */
static double median_select(double *x, int n)
{
    int k = n / 2;
    double mid = select_kth(x, n, k);
    if (n % 2) return mid;
    double below = x[0]; /* everything before k is <= mid */
    for (int i = 1; i < k; i++)
        if (x[i] > below) below = x[i];
    return (below + mid) / 2;
}

void summary_ci95(const double *x, int n, uint64_t seed, double *lo, double *hi)
{
    double *draw = bb_xmalloc(sizeof *draw * (size_t)n), *med = bb_xmalloc(sizeof *med * SUMMARY_RESAMPLES);
    uint64_t s = seed ^ 0x5DEECE66DULL;
    for (int b = 0; b < SUMMARY_RESAMPLES; b++) {
        for (int i = 0; i < n; i++) draw[i] = x[(uint64_t)((next_u64(&s) >> 11) * 0x1.0p-53 * n)];
        med[b] = median_select(draw, n);
    }
    int klo = (int)(0.025 * SUMMARY_RESAMPLES), khi = (int)ceil(0.975 * SUMMARY_RESAMPLES) - 1;
    *lo = select_kth(med, SUMMARY_RESAMPLES, klo);
    *hi = select_kth(med + klo, SUMMARY_RESAMPLES - klo, khi - klo); /* all after klo are >= *lo */
    free(draw);
    free(med);
}

void summary_of(const double *x, int n, uint64_t seed, bb_summary *out)
{
    *out = (bb_summary){
        .median = -1, .min = -1, .max = -1, .mean = -1, .stddev = -1, .cv = -1, .mad = -1, .lo = -1, .hi = -1
    };
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
        summary_ci95(v, k, seed, &out->lo, &out->hi); /* before the sort below: the draws follow the given order */
        out->median = summary_median(v, k);
        out->min = v[0];
        out->max = v[k - 1];
        out->mad = summary_mad(v, k, out->median);
        /* the percentile ends are order statistics (or, for an even count, midpoints of two):
         * inside [min, max] already; this only guards the median against rounding */
        if (out->lo > out->median) out->lo = out->median;
        if (out->hi < out->median) out->hi = out->median;
    }
    free(v);
}

int summary_zscores(const double *x, int n, double *z)
{
    double *v = bb_xmalloc(sizeof *v * (size_t)(n ? n : 1));
    int k = 0, outliers = 0;
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
        for (int i = 0; i < n && scale > 0; i++) {
            if (x[i] < 0) continue;
            z[i] = (x[i] - m) / scale;
            if (fabs(z[i]) > SUMMARY_OUTLIER_Z) outliers++;
        }
    }
    free(v);
    return outliers;
}
