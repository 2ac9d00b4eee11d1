/* encplan.h — a table's rows straight into COPY text, LOAD DATA text or CSV. The plan
 * looks at each column once and picks how its values reach the output: integers are
 * written as digits where they are drawn, clean text is written by its generator right
 * where it goes, a fixed value is copied; only a value that may need escaping passes
 * through a bb_value and the encoder. The bytes are exactly those of gen_fill + enc_row
 * (tests/spec/encode_spec.lua compares them), made in a fraction of the time. */
#ifndef BB_ENCPLAN_H
#define BB_ENCPLAN_H

#include <stdint.h>

#include "gen.h"
#include "../../../base/buf.h"
#include "../../../drivers/driver.h"

typedef struct encplan encplan;

/* A plan for table t in fmt: BB_FMT_COPY, BB_FMT_LOAD_TEXT or BB_FMT_CSV (NULL for any
 * other format, and for a table with a script's values: those go row by row). One plan per thread: it holds the scratch of the values it encodes. */
encplan *encplan_new(const gen_table *t, bb_stream_fmt fmt);
void encplan_free(encplan *pl);
/* Appends rows first, first+1, ... to out: at most n, stopping once out holds limit bytes
 * or more; returns how many (at least one when n > 0). */
int64_t encplan_rows(const encplan *pl, uint64_t first, int64_t n, bb_buf *out, size_t limit);

#endif
