/* summary.h — the spread of a few repeated measurements: median, extremes, standard
 * deviation, coefficient of variation, median absolute deviation, the interval of the median
 * with the probability it really holds the median (order statistics, exact binomial
 * coverage), modified Z-scores, and the one outlier Dixon's Q finds where the values can show
 * one. docs/statistics.md states each rule and its source; the reports (lua/report/stats.lua) take
 * the interval and the outlier from here through core.summary. */
#ifndef BB_SUMMARY_H
#define BB_SUMMARY_H

#include <stdint.h>

#define SUMMARY_LEVEL 0.95 /* the coverage an interval of the median is made to reach, when the values allow */
#define SUMMARY_OUTLIER_GAP 0.10 /* an outlier also stands this far (10%) from its nearest run */

typedef struct bb_summary {
    int n; /* values summarised (unknown ones left out); 0: nothing known, the rest is -1 */
    double median, min, max, mean;
    double stddev, cv; /* sample standard deviation and stddev/mean; -1 below two values or for a mean of 0 */
    double mad;        /* median absolute deviation from the median */
    double lo, hi;     /* the interval of the median, x(k) and x(n+1-k) of the sorted values: the narrowest
                        * such pair that holds the median with probability >= SUMMARY_LEVEL, else [min, max] */
    double level;      /* that probability, exactly: 1 - 2 P(Binomial(n, 1/2) <= k-1); 0.75 for 3 values */
} bb_summary;

/* The median of n values (n > 0); x is left sorted. */
double summary_median(double *x, int n);
/* The median of |x[i] - m|. */
double summary_mad(const double *x, int n, double m);
/* The interval of the median of n values: sets *k (x(k) and x(n+1-k)) and returns its coverage. */
double summary_median_rank(int n, int *k);
/* Summarises the known values of x (< 0 means unknown, left out). The interval is exact and
 * needs no seed: seed is ignored (it stays for the callers that pass one). */
void summary_of(const double *x, int n, uint64_t seed, bb_summary *out);
/* The sum of squared deviations of the natural logs of x's positive values from their mean;
 * *m gets how many there were, *mean (unless NULL) that mean. (Rates spread by factors: a
 * spread in logs.) */
double summary_log_ss(const double *x, int n, int *m, double *mean);
/* The two-sided 95% quantile of Student's t with dof degrees of freedom (dof >= 1): the table
 * to 30, then the Cornish-Fisher expansion (within 0.003 of the exact value there on). */
double summary_t95(int dof);
/* Where a re-run's rows/s lands, 95% of the time (a prediction interval, not the interval of
 * the median): the median of n runs times exp(+/- t95(dof) s sqrt(1 + 1/n)), s the standard
 * deviation of runs in natural logs with dof degrees of freedom. A re-run is counted as one
 * new draw: its runs share the machine's state at the time, so averaging them removes little
 * of the drift between one window and the next. Returns 0.95, or -1 (lo = hi = -1) when
 * dof < 1 or n < 1. */
double summary_predict(double median, int n, double s, int dof, double *lo, double *hi);
/* The same from the variance in logs of a re-run about the median (var), its degrees of freedom
 * given: for a spread of more than one part (see race_rerun). */
double summary_predict_var(double median, double var, int dof, double *lo, double *hi);
/* Modified Z-score of each value, 0.6745 (x - median) / MAD (the mean absolute deviation
 * scaled by 1.2533 stands in when the MAD is 0; 0 when every known value is equal); unknown
 * values get 0. A description of each value's distance, not a test: see summary_dixon. */
void summary_zscores(const double *x, int n, double *z);
/* Dixon's Q test (r10, 95%, two-sided) of the logarithms of the values of x above 0: the index
 * of the extreme value farther from its neighbour when that gap over the range exceeds the
 * critical Q for their number, else -1; also -1 below 3 values, which cannot show an outlier.
 * *q and *crit get the statistic and its critical value (-1 when there is none). */
int summary_dixon(const double *x, int n, double *q, double *crit);

#endif
