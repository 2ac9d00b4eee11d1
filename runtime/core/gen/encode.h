/* encode.h — rows into bytes: PostgreSQL COPY text and LOAD DATA's default text (the same
 * backslash escapes), CSV (RFC 4180), plain TSV (no escapes), and SQL literal tuples for
 * VALUES lists. */
#ifndef BB_ENCODE_H
#define BB_ENCODE_H

#include "../../../drivers/driver.h"
#include "gen.h"
#include "../../../base/buf.h"

/* Appends row r of table t to out in format fmt; one line (or one "(...)" tuple for SQL).
 * Plain TSV writes NULL as an empty field and leaves out a row it cannot write. */
void enc_row(bb_stream_fmt fmt, const bb_dialect *d, const gen_table *t, const gen_row *r, bb_buf *out);

/* Plain TSV, NULL written as the text null: 0, or the 1-based column whose value no TSV
 * field can hold (why says what it holds: a tab, a line end, the NULL text); then nothing
 * of the row is appended. */
int enc_row_tsv(const gen_table *t, const gen_row *r, const char *null, bb_buf *out, const char **why);

/* Appends one value as an SQL literal in dialect d ('it''s', NULL, 42). */
void enc_sql_value(const bb_dialect *d, bb_sqltype type, const bb_value *v, bb_buf *out);

/* One byte of a value as COPY text and LOAD DATA's default text escape it (\\ \t \n \r);
 * returns the end. */
static inline char *enc_copy_escape(char *p, char c)
{
    static const char esc[256] = { ['\\'] = '\\', ['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r' };
    if (!esc[(unsigned char)c]) {
        *p++ = c;
        return p;
    }
    *p++ = '\\';
    *p++ = esc[(unsigned char)c];
    return p;
}

/* The format a --format name means ("text" is "copy"); -1 for an unknown name. */
int enc_format_parse(const char *name, bb_stream_fmt *out);

#endif
