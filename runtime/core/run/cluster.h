/* cluster.h — one run spread over MPI ranks (built with make MPI=1, started by mpirun).
 *
 * Every rank runs the same sweep in step. Rank 0 alone runs the hooks (prepare, check,
 * cleanup) and reads server costs; all ranks start timing after one barrier; at the end
 * counters and latency histograms are summed into rank 0, which reports. A rank that
 * fails during set-up makes every rank give up at the next agreement; one that fails
 * mid-run tells the others to stop (they poll), so nobody waits for a dead peer.
 * Built without MPI, these are the obvious one-rank no-ops: callers never say "if MPI". */
#ifndef BB_CLUSTER_H
#define BB_CLUSTER_H

#include "stats.h"
#include "../../../base/err.h"

void cluster_init(void);
void cluster_finish(void);
int cluster_rank(void);
int cluster_size(void);
/* Every rank passes its state (0 fine, else an exit code and err); all get the first
 * failing rank's code, and err its message prefixed with the rank. */
int cluster_agree(int code, bb_err *err);
/* Rank 0's n bytes at buf, copied to every rank. */
void cluster_bcast(void *buf, int n);
/* Mid-run failure: tell every other rank to stop; and: has another rank said so? */
void cluster_tell_stop(void);
int cluster_stop_told(void);

/* What one rank measured, summed (max for seconds and lat_max) into rank 0. */
typedef struct cluster_sums {
    int64_t committed, in_doubt, reconnects;
    double client_cpu_s, seconds;
} cluster_sums;
/* Collective. On rank 0, snap and sums become the totals, rank_rps[i] and rank_rows[i]
 * rank i's rows/s and committed rows (the first max_rps ranks); on every rank code and
 * err become the first failure of any rank. */
void cluster_reduce(stats_snap *snap, cluster_sums *sums, double *rank_rps, int64_t *rank_rows, int max_rps, int *code,
                    bb_err *err);

#endif
