/* verify.h — what "verified" means, the same for `run` and `load`: the table is counted
 * after the load (and before it, when it held rows), and what it grew by must be exactly
 * the rows the runner committed. An engine that answers no count (null: its queries return
 * no rows) leaves the count unknown; an unknown count is no mismatch, and the result says
 * verified null. */
#ifndef BB_VERIFY_H
#define BB_VERIFY_H

#include <stdint.h>

#include "../../../base/err.h"
#include "../../../drivers/driver.h"

#define VERIFY_UNKNOWN (-1) /* a count the engine did not give (prints as null) */

/* The rows of table_q (quoted for the engine) into *n: VERIFY_UNKNOWN when the engine
 * answers no count; -1 only when the query failed (err says why). */
int verify_count(const bb_driver *d, bb_conn *c, const char *table_q, int64_t *n, bb_err *err);
/* What a table grew by between two counts: VERIFY_UNKNOWN when either is unknown. */
int64_t verify_grew(int64_t before, int64_t after);
/* Whether counted rows (VERIFY_UNKNOWN: not counted) agree with the committed rows. */
int verify_agrees(int64_t counted, int64_t committed);

/* The verdict on a run's or a load's rows: reached once, where the rows are judged, and
 * carried by the result (bb_result.verdict) to whoever says it (the text table's column, the
 * error, the exit's words), so nobody judges again or reads it back from a message. */
typedef enum bb_verdict {
    VERDICT_NONE = 0,  /* not judged: the script has no check(), or the run failed before it */
    VERDICT_OK,        /* the count agrees with the rows committed */
    VERDICT_UNCOUNTED, /* the engine answers no count (null): no mismatch, verified null */
    VERDICT_COUNT,     /* the count differs from the rows committed: rows were lost or duplicated */
    VERDICT_REFUSED,   /* the script's check() returned false */
    VERDICT_CHANGED,   /* a strategy left the table other than it found it (its indexes, say) */
} bb_verdict;
/* The verdict on counted rows against committed ones; refused: check() said false. */
bb_verdict verify_judge(int64_t counted, int64_t committed, int refused);
/* Whether the verdict fails the run (exit BB_EXIT_VERIFY). */
int verify_failed(bb_verdict v);
/* The text table's "verified" cell: ok, -, MISMATCH, REFUSED, CHANGED. */
const char *verify_cell(bb_verdict v);
/* Why a failing verdict fails, in the user's words ("rows were lost or duplicated"); "" for
 * one that does not. */
const char *verify_why(bb_verdict v);

#endif
