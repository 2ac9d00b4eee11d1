/* series.h — a run's time series: one sample per --report-interval, the figures of the
 * interval lines (progress.c computes both from the same snapshots) plus the server's log
 * bytes and CPU over the interval where the engine can tell. */
#ifndef BB_SERIES_H
#define BB_SERIES_H

#include <stdint.h>

typedef struct bb_interval {
    double t;             /* seconds from the run's start to the end of the interval */
    int64_t rows, events; /* written during the interval */
    int64_t errors;       /* events that failed during the interval */
    double rows_per_s, events_per_s, mb_per_s;
    double p50_ms, p95_ms, p99_ms; /* of the events that finished in it; -1: none did */
    int64_t log_bytes;             /* WAL/binlog bytes written by the server; -1: unknown */
    double server_cpu_s;           /* server CPU seconds spent; -1: unknown */
} bb_interval;

typedef struct bb_series {
    bb_interval *v;
    int n, cap;
    int server; /* the server's log bytes and CPU were sampled (else they are left out) */
} bb_series;

void series_add(bb_series *s, const bb_interval *iv);
/* Hands src's samples to dst (whose own are freed); src is left empty. */
void series_move(bb_series *dst, bb_series *src);
void series_free(bb_series *s);

#endif
