/* verify.c — counting a table and judging the count (see verify.h). */
#include "verify.h"

#include <stdio.h>

int verify_count(const bb_driver *d, bb_conn *c, const char *table_q, int64_t *n, bb_err *err)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table_q);
    *n = VERIFY_UNKNOWN; /* bb_row_int leaves it so when no row comes back */
    return d->query(c, sql, 0, NULL, bb_row_int, n, err);
}

int64_t verify_grew(int64_t before, int64_t after)
{
    return before == VERIFY_UNKNOWN || after == VERIFY_UNKNOWN ? VERIFY_UNKNOWN : after - before;
}

int verify_agrees(int64_t counted, int64_t committed) { return counted == VERIFY_UNKNOWN || counted == committed; }

bb_verdict verify_judge(int64_t counted, int64_t committed, int refused)
{
    if (refused) return VERDICT_REFUSED;
    if (counted == VERIFY_UNKNOWN) return VERDICT_UNCOUNTED;
    return counted == committed ? VERDICT_OK : VERDICT_COUNT;
}

int verify_failed(bb_verdict v) { return v == VERDICT_COUNT || v == VERDICT_REFUSED || v == VERDICT_CHANGED; }

const char *verify_cell(bb_verdict v)
{
    switch (v) {
    case VERDICT_OK: return "ok";
    case VERDICT_COUNT: return "MISMATCH";
    case VERDICT_REFUSED: return "REFUSED";
    case VERDICT_CHANGED: return "CHANGED";
    default: return "-";
    }
}

const char *verify_why(bb_verdict v)
{
    switch (v) {
    case VERDICT_COUNT: return "rows were lost or duplicated";
    case VERDICT_REFUSED: return "the scenario's check() returned false";
    case VERDICT_CHANGED: return "the table is not as it was found";
    default: return "";
    }
}
