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

/* Writes one value as a field of COPY text, LOAD DATA text or CSV (fmt) at p, escaped
 * as the format needs; returns the end. p has room for every byte doubled plus 32. */
char *enc_field(bb_stream_fmt fmt, const bb_value *v, char *p);

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

/* Copies a generated string: both ends have GEN_PAD bytes of slack, so short strings go
 * in whole 16-byte moves instead of a call to memcpy. */
static inline char *enc_copy_text(char *p, const char *s, uint32_t n)
{
    if (n > 48) {
        memcpy(p, s, n);
        return p + n;
    }
    for (uint32_t i = 0; i < n; i += 16) memcpy(p + i, s + i, 16);
    return p + n;
}

/* The format a --format name means ("text" is "copy"); -1 for an unknown name. */
int enc_format_parse(const char *name, bb_stream_fmt *out);

#endif
