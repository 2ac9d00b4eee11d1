/* dist.h — the laws behind the column generators, exact rather than approximate: bounded
 * integers without multiply-shift bias, Zipf by rejection-inversion, uniform shuffles.
 * Every draw is a pure function of the random words it is given, so a value stays a pure
 * function of (seed, column, row) even when a law needs several words (rejection). */
#ifndef BB_DIST_H
#define BB_DIST_H

#include <stdint.h>

/* splitmix64: a stream of further words grown from one word (the state), for draws that
 * may need more than the one the generator hands them. */
static inline uint64_t dist_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The top 53 bits of r as a double in [0, 1): every value on that grid equally likely. */
static inline double dist_unit(uint64_t r) { return (double)(r >> 11) * (1.0 / 9007199254740992.0); }

uint64_t dist_below_redraw(uint64_t r, uint64_t range);

/* Uniform on [0, range) exactly; range 0 stands for all 2^64 words. Lemire's multiply-shift
 * is biased by up to range/2^64; the words that cause it (low product below range, about
 * range/2^64 of them) go the slow way, which redraws the few that must be refused. */
static inline uint64_t dist_below(uint64_t r, uint64_t range)
{
    unsigned __int128 m = (unsigned __int128)r * range;
    if ((uint64_t)m < range) return dist_below_redraw(r, range);
    if (range == 0) return r;
    return (uint64_t)(m >> 64);
}

/* Bounded Zipf, P(k) = k^-s / H(n, s) for k in 1..n, any s > 0 and n >= 1, by
 * rejection-inversion (Hörmann & Derflinger 1996): O(1) expected per value, no tables. */
typedef struct {
    double n;       /* ranks 1..n */
    double s, q;    /* exponent, and q = 1 - s */
    double h_x1;    /* H(x1): the first cell [x1, 1.5] holds exactly h(1) of the hat */
    double h_n;     /* H(n + 1/2): the hat's end */
    double squeeze; /* a rank k drawn with k - x at most this is accepted at once */
} dist_zipf;

void dist_zipf_init(dist_zipf *z, uint64_t n, double s);
uint64_t dist_zipf_draw(const dist_zipf *z, uint64_t r);

/* A uniformly random permutation of 0..n-1 (Fisher–Yates) from the stream of `key`. */
void dist_shuffle(uint32_t *out, uint32_t n, uint64_t key);

#endif
