/* encode.h — rows into bytes: PostgreSQL COPY text, CSV (RFC 4180), MySQL LOAD DATA tab
 * format, and SQL literal tuples for VALUES lists. */
#ifndef BB_ENCODE_H
#define BB_ENCODE_H

#include "../drivers/driver.h"
#include "gen.h"

/* Appends row r of table t to out in format fmt; one line (or one "(...)" tuple for SQL). */
void enc_row(bb_stream_fmt fmt, const bb_dialect *d, const gen_table *t, const gen_row *r, bb_buf *out);

/* Appends one value as an SQL literal in dialect d ('it''s', NULL, 42). */
void enc_sql_value(const bb_dialect *d, bb_sqltype type, const bb_value *v, bb_buf *out);

/* Name of a format for messages and --format; parse returns -1 for an unknown name. */
const char *enc_format_name(bb_stream_fmt f);
int         enc_format_parse(const char *name, bb_stream_fmt *out);

#endif
