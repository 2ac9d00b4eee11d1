/* waits.h — what a run's server sessions spent their time on, and the bottleneck named from
 * it (docs/diagnosis.md). The figures are filled by the sampler (diagnose.c), the name by
 * the rules (bottleneck.c). */
#ifndef BB_WAITS_H
#define BB_WAITS_H

#include <stdint.h>

#include "../../../drivers/driver.h"

#define BB_MAX_WAIT_EVENTS 16

typedef struct bb_waits {
    int64_t samples; /* session samples taken (sessions sampled × ticks); 0: not sampled (null) */
    int ticks;       /* samples of the whole run */
    double weight;   /* the samples' summed weights (diagnose.c): the shares' denominator */
    double hz;       /* ticks per second achieved */
    double kind_share[BB_WK_N];
    int nevents; /* events by share, largest first; "cpu", "client" or the engine's wait event */
    char event[BB_MAX_WAIT_EVENTS][48];
    double share[BB_MAX_WAIT_EVENTS];
    unsigned char event_kind[BB_MAX_WAIT_EVENTS];
    int64_t log_syncs, checkpoints; /* during the run, -1 unknown */
    double cpu_s;                   /* CPU the sampler's thread used (left out of client_cpu_s) */
    char kind[16];                  /* the bottleneck: "" = not named (null) */
    char evidence[192];
} bb_waits;

/* The bottleneck's kind and one line of evidence into w from its shares, the client's CPU per
 * worker as a fraction of wall time (< 0 unknown). The rules: docs/diagnosis.md. */
void bottleneck_name(bb_waits *w, double client_cpu_frac);
/* A run paced by the user (--rate, --rate-limit) that kept its pace (got at 90% or more of
 * asked, in the unit named) is bound by that pace, not by what the sessions waited on while
 * idle between its events: kind "paced", the waits' own verdict kept in the evidence as the
 * headroom the server had. Nothing for a run that fell behind its pace or sampled no waits. */
void bottleneck_paced(bb_waits *w, const char *option, double asked, double got, const char *unit);
/* The names of the kinds: "cpu", "client", "wal", "lock", "io", "checkpoint", "other". */
const char *bottleneck_kind_name(bb_wait_kind k);

#endif
