/* summary.h — the spread of a few repeated measurements: median, extremes, standard
 * deviation, coefficient of variation, median absolute deviation, a 95% confidence
 * interval of the median (percentile bootstrap with its own seeded generator, so the same
 * values and seed give the same interval) and outliers by modified Z-score. */
#ifndef BB_SUMMARY_H
#define BB_SUMMARY_H

#include <stdint.h>

#define SUMMARY_RESAMPLES 4000 /* bootstrap resamples: the interval's ends move < 1% of its width */
#define SUMMARY_OUTLIER_Z 3.5  /* modified Z-score beyond which a value is an outlier (Iglewicz-Hoaglin) */

typedef struct bb_summary {
    int n; /* values summarised (unknown ones left out); 0: nothing known, the rest is -1 */
    double median, min, max, mean;
    double stddev, cv; /* sample standard deviation and stddev/mean; -1 below two values or for a mean of 0 */
    double mad;        /* median absolute deviation from the median */
    double lo, hi;     /* 95% confidence interval of the median: min <= lo <= median <= hi <= max */
} bb_summary;

/* The median of n values (n > 0); x is left sorted. */
double summary_median(double *x, int n);
/* The median of |x[i] - m|. */
double summary_mad(const double *x, int n, double m);
/* A 95% interval of the median of x: the 2.5th and 97.5th percentiles of the medians of
 * SUMMARY_RESAMPLES resamples drawn with replacement (a fixed stream from seed). */
void summary_ci95(const double *x, int n, uint64_t seed, double *lo, double *hi);
/* Summarises the known values of x (< 0 means unknown, left out). */
void summary_of(const double *x, int n, uint64_t seed, bb_summary *out);
/* Modified Z-score of each value, 0.6745 (x - median) / MAD (the mean absolute deviation
 * scaled by 1.2533 stands in when the MAD is 0; 0 when every known value is equal); unknown
 * values get 0. Returns how many exceed SUMMARY_OUTLIER_Z in magnitude. */
int summary_zscores(const double *x, int n, double *z);

#endif
