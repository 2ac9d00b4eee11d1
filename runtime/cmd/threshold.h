/* threshold.h — --threshold='FIELD OP NUMBER': a condition on one figure of each result,
 * named by its JSON path (rows_per_s, latency_ms.p99, server.cpu_s, stats.rows_per_s.cv,
 * metrics.NAME, ...), OP one of < <= > >= == !=. Under --repeat the top-level figures are
 * the medians, so a threshold holds the median to it. */
#ifndef BB_THRESHOLD_H
#define BB_THRESHOLD_H

#include <stdio.h>

#include "../core/run/result.h"
#include "../core/run/sysmon.h"
#include "../../base/err.h"

typedef struct bb_threshold {
    char expr[256]; /* as given, without spaces */
    char path[128];
    char op[3];
    double value;
} bb_threshold;

/* Parses one expression; a malformed one, or one naming no numeric field of a result, is a
 * usage error that lists the fields one can name. */
int threshold_parse(const char *expr, bb_threshold *t, bb_err *err);
/* Checks t against r and prints "threshold EXPR: passed (V)" or "... failed (why)" (and,
 * when who is not NULL, which point it was) to f; 1 when it holds, else 0. A figure that
 * is null or absent fails. */
int threshold_check(const bb_threshold *t, const bb_result *r, const sysmon_host *h, const char *who, FILE *f);

#endif
