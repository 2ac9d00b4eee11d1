/* repeat.h — --repeat: the runs of one sweep point folded into the point's one result.
 * Its top-level rows/s, seconds and latencies become the medians of the runs'; its other
 * figures (rows, bytes, costs, verification) are those of the median run, the one whose
 * rows/s is the median (of an even number, the lower of the middle two), so a table row
 * reads as one run; each counted run's own figures and samples are kept in rep->runs,
 * their spread in rep's summaries. */
#ifndef BB_REPEAT_H
#define BB_REPEAT_H

#include <stdint.h>

#include "result.h"

/* Adds a counted run to the point (the first run starts it). The point takes over the
 * run's samples and histogram (summed with the earlier runs'); run is left owning nothing. */
void repeat_add(bb_result *point, bb_result *run, int repeats, int warmup_runs);
/* The medians and summaries of the runs added so far (seed: passed on to summary_of). */
void repeat_finish(bb_result *point, uint64_t seed);

#endif
