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

#endif
