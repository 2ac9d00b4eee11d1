/* dist.c — the slow paths and set-up of the exact laws in dist.h. */
#include "dist.h"

#include <math.h>

uint64_t dist_below_redraw(uint64_t r, uint64_t range)
{
    if (range == 0) return r;
    /* 2^64 mod range: refusing the products whose low word falls below it leaves every
     * result with exactly floor(2^64 / range) words */
    uint64_t refuse = (0 - range) % range, state = r;
    unsigned __int128 m = (unsigned __int128)r * range;
    while ((uint64_t)m < refuse) m = (unsigned __int128)dist_next(&state) * range;
    return (uint64_t)(m >> 64);
}

/* ---- Zipf by rejection-inversion ----
 * h(x) = x^-s is convex and decreasing, so the integral of h over [k - 1/2, k + 1/2] is at
 * least h(k): those cells, laid end to end, make a hat over the pmf. A point u drawn
 * uniformly under the hat's integral H and mapped back by H^-1 falls in the cell of rank
 * k = round(x); keeping it only when u lies in the top h(k) of that cell's share of H
 * makes each rank's chance exactly proportional to h(k). The first cell is shortened to
 * [x1, 1.5] with exactly h(1) in it, so rank 1 is never refused and x never nears 0. */

/* log1p(y)/y and expm1(y)/y, carried smoothly through y = 0, where s = 1 turns the power
 * integral into a logarithm: one formula for every s, no cancellation near s = 1. */
static double dist_log1p_over(double y) { return fabs(y) > 1e-8 ? log1p(y) / y : 1.0 - y * (0.5 - y / 3.0); }
static double dist_expm1_over(double y) { return fabs(y) > 1e-8 ? expm1(y) / y : 1.0 + y * (0.5 + y / 6.0); }

/* H(x) = integral of t^-s over [1, x] = (x^q - 1) / q, or log x when q = 0 */
static double dist_zipf_H(const dist_zipf *z, double x)
{
    double l = log(x);
    return dist_expm1_over(z->q * l) * l;
}

/* H^-1(y) = (1 + q y)^(1/q), or e^y when q = 0 */
static double dist_zipf_Hinv(const dist_zipf *z, double y) { return exp(y * dist_log1p_over(z->q * y)); }

static double dist_zipf_h(const dist_zipf *z, double x) { return exp(-z->s * log(x)); }

void dist_zipf_init(dist_zipf *z, uint64_t n, double s)
{
    z->n = (double)n;
    z->s = s;
    z->q = 1.0 - s;
    z->h_x1 = dist_zipf_H(z, 1.5) - 1.0;
    z->h_n = dist_zipf_H(z, z->n + 0.5);
    /* k minus the left end y of rank k's acceptance interval is smallest at k = 2 (the
     * paper's squeeze): an x within that distance below k is accepted without computing H.
     * Not as 2 - H^-1(H(2.5) - h(2)), which cancels for large s: the interval's integral
     * being h(2) gives (y/2)^q = 1.25^q - q/2, so log(y/2) = log1p(q t)/q with t below. */
    double t = log(1.25) * dist_expm1_over(z->q * log(1.25)) - 0.5;
    z->squeeze = 2.0 - 2.0 * exp(t * dist_log1p_over(z->q * t));
}

uint64_t dist_zipf_draw(const dist_zipf *z, uint64_t r)
{
    uint64_t state = r;
    for (;;) {
        /* u uniform on (H(x1), H(n + 1/2)]: from the top so that r's 0 stays inside */
        double u = z->h_n + dist_unit(r) * (z->h_x1 - z->h_n);
        double x = dist_zipf_Hinv(z, u);
        double k = floor(x + 0.5);
        if (k < 1.0) k = 1.0; /* rounding at the ends only */
        else if (k > z->n) k = z->n;
        if (k - x <= z->squeeze || u >= dist_zipf_H(z, k + 0.5) - dist_zipf_h(z, k)) return (uint64_t)k;
        r = dist_next(&state);
    }
}

/* ---- shuffles ---- */

void dist_shuffle(uint32_t *out, uint32_t n, uint64_t key)
{
    uint64_t state = key;
    for (uint32_t i = 0; i < n; i++) out[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)dist_below(dist_next(&state), i);
        uint32_t t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
}
