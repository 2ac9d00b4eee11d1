/* race_sim.h — what the race's unit tests share: a race started with the defaults, and the
 * noise they simulate runs with. */
#ifndef BB_RACE_SIM_H
#define BB_RACE_SIM_H

#include <math.h>
#include <stdint.h>

#include "../../runtime/core/run/race.h"

/* A race over c[0..n-1] with the defaults but its budget, its rows and its first round's rows. */
static inline void start_at(race *r, race_cand *c, int n, double budget_s, int64_t rows, int64_t first)
{
    race_cfg cfg;
    race_defaults(&cfg, budget_s, rows);
    cfg.rows_first = first;
    race_init(r, &cfg, c, n);
}

/* splitmix64 for the simulated noise */
static inline double noise(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* A standard normal draw (Box-Muller) from noise(). */
static inline double gauss(uint64_t *s)
{
    double u = noise(s), v = noise(s);
    return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

#endif
