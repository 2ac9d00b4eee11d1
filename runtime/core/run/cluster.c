/* cluster.c — MPI glue for runs spread over ranks (see cluster.h). */
#include "cluster.h"
#include "../../../base/err.h"

#include <stdio.h>
#include <string.h>

#ifdef BB_MPI
#include <mpi.h>

#define TAG_STOP 7
static int rank, size = 1, active;

void cluster_init(void)
{
    int provided;
    /* only the main thread calls MPI; workers never do */
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided); /* MPI-2: argv is not needed */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    active = 1;
}

void cluster_finish(void)
{
    if (!active) return;
    cluster_stop_told(); /* drain stop messages nobody read */
    MPI_Finalize();
    active = 0;
}

int cluster_rank(void) { return rank; }
int cluster_size(void) { return size; }

int cluster_agree(int code, bb_err *err)
{
    if (size == 1) return code;
    /* the failing rank with the lowest number speaks for all */
    int key = code ? rank : size, first;
    MPI_Allreduce(&key, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size) return 0;
    char msg[sizeof err->msg];
    int got = code;
    if (rank == first && strncmp(err->msg, "rank ", 5) == 0) memcpy(msg, err->msg, sizeof msg); /* already agreed on */
    else if (rank == first) snprintf(msg, sizeof msg, "rank %d: %.1000s", rank, err->msg);
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, MPI_COMM_WORLD);
    MPI_Bcast(&got, 1, MPI_INT, first, MPI_COMM_WORLD);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    err->code = got;
    return got;
}

void cluster_bcast(void *buf, int n)
{
    if (size > 1) MPI_Bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void cluster_tell_stop(void)
{
    static int told;
    if (size == 1 || told) return;
    told = 1;           /* once: a failed run ends the sweep */
    static int one = 1; /* the buffer outlives the sends, which nobody waits for */
    for (int r = 0; r < size; r++) {
        if (r == rank) continue;
        MPI_Request req;
        MPI_Isend(&one, 1, MPI_INT, r, TAG_STOP, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
    }
}

int cluster_stop_told(void)
{
    int told = 0, flag = 1;
    while (size > 1 && flag) {
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int v;
            MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            told = 1;
        }
    }
    return told;
}

void cluster_reduce(stats_snap *snap, cluster_sums *sums, double *rank_rps, int64_t *rank_rows, int max_rps, int *code,
                    bb_err *err)
{
    double rps = sums->seconds > 0 ? (double)snap->rows / sums->seconds : 0;
    if (size == 1) {
        if (max_rps > 0) rank_rps[0] = rps, rank_rows[0] = sums->committed;
        return;
    }
    /* counters and histogram buckets are sums; the slowest rank's time is the run's */
    enum { N0 = 5 };
    static uint64_t mine[N0 + STATS_NBUCKETS], total[N0 + STATS_NBUCKETS];
    mine[0] = snap->events, mine[1] = snap->rows, mine[2] = snap->bytes, mine[3] = snap->errors,
    mine[4] = snap->lat_sum;
    memcpy(mine + N0, snap->hist, sizeof snap->hist);
    MPI_Reduce(mine, total, N0 + STATS_NBUCKETS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    uint64_t lat_max;
    MPI_Reduce(&snap->lat_max, &lat_max, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    int64_t c[3] = { sums->committed, sums->in_doubt, sums->reconnects }, ct[3];
    MPI_Reduce(c, ct, 3, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    double cpu;
    MPI_Reduce(&sums->client_cpu_s, &cpu, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double secs;
    MPI_Reduce(&sums->seconds, &secs, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double all_rps[size];
    MPI_Gather(&rps, 1, MPI_DOUBLE, all_rps, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int64_t all_rows[size];
    MPI_Gather(&sums->committed, 1, MPI_INT64_T, all_rows, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    int c2 = cluster_agree(*code, err); /* a failure anywhere is the run's */
    if (rank != 0) return;
    snap->events = total[0], snap->rows = total[1], snap->bytes = total[2], snap->errors = total[3],
    snap->lat_sum = total[4];
    memcpy(snap->hist, total + N0, sizeof snap->hist);
    snap->lat_max = lat_max;
    sums->committed = ct[0], sums->in_doubt = ct[1], sums->reconnects = ct[2];
    sums->client_cpu_s = cpu;
    sums->seconds = secs;
    for (int i = 0; i < size && i < max_rps; i++) {
        rank_rps[i] = all_rps[i];
        rank_rows[i] = all_rows[i];
    }
    *code = c2;
}

#else /* one process, one rank */

void cluster_init(void) {}
void cluster_finish(void) {}
int cluster_rank(void) { return 0; }
int cluster_size(void) { return 1; }
int cluster_agree(int code, bb_err *err)
{
    (void)err;
    return code;
}
void cluster_bcast(void *buf, int n) { (void)buf, (void)n; }
void cluster_tell_stop(void) {}
int cluster_stop_told(void) { return 0; }

void cluster_reduce(stats_snap *snap, cluster_sums *sums, double *rank_rps, int64_t *rank_rows, int max_rps, int *code,
                    bb_err *err)
{
    (void)code, (void)err;
    if (max_rps > 0) {
        rank_rps[0] = sums->seconds > 0 ? (double)snap->rows / sums->seconds : 0;
        rank_rows[0] = sums->committed;
    }
}

#endif
