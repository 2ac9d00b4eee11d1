/* xcode.c — plain TSV and CSV into escaped text (see xcode.h). Runs of ordinary bytes are
 * copied whole; only separators, line ends, quotes, backslashes and the first bytes of a
 * field (which may be the NULL text) are looked at one by one. */
#include "xcode.h"

#include <string.h>

void xcode_init(xcode *x, int csv, char delim, char quote, const char *null, int crlf)
{
    memset(x, 0, sizeof *x);
    x->csv = csv;
    x->delim = delim;
    x->quote = quote;
    x->null = null ? null : "";
    x->null_len = strlen(x->null);
    x->crlf = crlf;
    const unsigned char stops[] = { (unsigned char)delim, '\n', '\r', '\\', '\t' };
    for (size_t i = 0; i < sizeof stops; i++) x->special[stops[i]] = 1;
    if (csv) x->special[(unsigned char)quote] = 1;
}

/* One byte of a value, escaped as COPY text and LOAD DATA read it. */
static inline char *xcode_esc(char *o, char c)
{
    switch (c) {
    case '\\': *o++ = '\\'; *o++ = '\\'; break;
    case '\t': *o++ = '\\'; *o++ = 't'; break;
    case '\n': *o++ = '\\'; *o++ = 'n'; break;
    case '\r': *o++ = '\\'; *o++ = 'r'; break;
    default:   *o++ = c;
    }
    return o;
}

/* The field is not the NULL text after all: the bytes held back go out as data. */
static char *xcode_release(xcode *x, char *o)
{
    for (size_t i = 0; i < x->matched; i++) o = xcode_esc(o, x->null[i]);
    x->matched = 0;
    x->differs = 1;
    return o;
}

/* A byte of the field's value; while the field may still be the NULL text, it is held back. */
static inline char *xcode_data(xcode *x, char *o, char c)
{
    x->open = 1;
    if (!x->differs) {
        if (x->matched < x->null_len && x->null[x->matched] == c) {
            x->matched++;
            return o;
        }
        o = xcode_release(x, o);
    }
    return xcode_esc(o, c);
}

static char *xcode_field_end(xcode *x, char *o)
{
    if (!x->differs && x->matched == x->null_len) { *o++ = '\\'; *o++ = 'N'; }
    else if (!x->differs) o = xcode_release(x, o);
    x->matched = 0;
    x->differs = 0;
    return o;
}

static char *xcode_row_end(xcode *x, char *o)
{
    o = xcode_field_end(x, o);
    *o++ = '\n';
    x->open = 0;
    x->rows++;
    return o;
}

/* CSV as PostgreSQL reads it refuses a line end that is not the file's: say so, once. */
static void xcode_refuse(xcode *x, const char *why)
{
    if (x->bad) return;
    x->bad = why;
    x->bad_row = x->rows + 1;
}

/* CSV inside quotes: everything is data up to a quote, and "" is one quote. Returns the
 * bytes of in taken; stops early when a quote closed the quoted part. */
static size_t xcode_quoted(xcode *x, const char *in, size_t n, char **op)
{
    char *o = *op;
    size_t i = 0;
    while (i < n) {
        if (x->quote_seen) { /* the quote read last closes the quoted part, unless a second follows */
            x->quote_seen = 0;
            if (in[i] != x->quote) {
                x->in_quote = 0;
                break;
            }
            o = xcode_esc(o, in[i++]);
            continue;
        }
        size_t j = i;
        while (j < n && !x->special[(unsigned char)in[j]]) j++;
        memcpy(o, in + i, j - i);
        o += j - i;
        if ((i = j) == n) break;
        char c = in[i++];
        if (c == x->quote) x->quote_seen = 1;
        else o = xcode_esc(o, c);
    }
    *op = o;
    return i;
}

void xcode_feed(xcode *x, const char *in, size_t n, bb_buf *out)
{
    bb_buf_reserve(out, 2 * n + 2 * x->null_len + 8);
    char *o = out->p + out->len;
    size_t i = 0;
    while (i < n) {
        if (x->in_quote) {
            i += xcode_quoted(x, in + i, n - i, &o);
            continue;
        }
        if (x->cr) { /* a \r waits for the byte after it: before a \n it may end the line */
            x->cr = 0;
            if (in[i] == '\n' && x->crlf != 0) {
                x->crlf = 1;
                o = xcode_row_end(x, o);
                i++;
            } else {
                if (x->csv) xcode_refuse(x, "an unquoted carriage return (quote the field that holds it)");
                o = xcode_data(x, o, '\r');
            }
            continue;
        }
        if (x->differs) { /* the common case: a run of plain bytes */
            size_t j = i;
            while (j < n && !x->special[(unsigned char)in[j]]) j++;
            memcpy(o, in + i, j - i);
            o += j - i;
            if ((i = j) == n) break;
        }
        char c = in[i++];
        if (c == x->delim) {
            o = xcode_field_end(x, o);
            *o++ = '\t';
            x->open = 1;
        } else if (c == '\n') {
            if (x->crlf < 0) x->crlf = 0;
            if (x->crlf && x->csv) xcode_refuse(x, "an unquoted newline in a file whose lines end in \\r\\n");
            if (x->crlf && !x->csv) o = xcode_data(x, o, '\n'); /* a lone \n in a \r\n TSV file */
            else o = xcode_row_end(x, o);
        } else if (c == '\r') {
            x->cr = 1;
            x->open = 1;
        } else if (x->csv && c == x->quote) {
            if (!x->differs) o = xcode_release(x, o); /* a field with quotes is never NULL */
            x->in_quote = 1;
            x->open = 1;
        } else {
            o = xcode_data(x, o, c);
        }
    }
    out->len = (size_t)(o - out->p);
}

int xcode_end(xcode *x, bb_buf *out)
{
    bb_buf_reserve(out, 2 * x->null_len + 8);
    char *o = out->p + out->len;
    if (x->quote_seen) x->in_quote = x->quote_seen = 0;
    int rc = x->in_quote ? -1 : 0;
    if (x->cr && x->csv) xcode_refuse(x, "an unquoted carriage return (quote the field that holds it)");
    if (x->cr) o = xcode_data(x, o, '\r');
    x->cr = 0;
    if (x->open) o = xcode_row_end(x, o);
    out->len = (size_t)(o - out->p);
    return rc;
}
