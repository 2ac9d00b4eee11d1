/* binplan.h — a table's rows straight into an engine's binary stream (PostgreSQL's
 * binary COPY): the engine lays the row out (bb_stream_layout: a prefix, a writer per
 * column) and the plan feeds each writer straight from the generator, integers drawn in
 * place, instants and decimals as their native integers only, with no row of bb_values
 * in between and no text made for a value that goes out in binary. */
#ifndef BB_BINPLAN_H
#define BB_BINPLAN_H

#include <stdint.h>

#include "gen.h"
#include "../../../base/buf.h"
#include "../../../base/err.h"
#include "../../../drivers/driver.h"

typedef struct binplan binplan;

/* A plan for table t in the layout lay (which must stay valid while the plan is used).
 * One plan per thread: it holds the scratch of the values it encodes. */
binplan *binplan_new(const gen_table *t, const bb_stream_layout *lay);
void binplan_free(binplan *pl);
/* As encplan_rows; -1 with err set when a value does not fit its column. */
int64_t binplan_rows(const binplan *pl, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err);

#endif
