/* xcode.c — plain TSV and CSV into escaped text (see xcode.h). Runs of ordinary bytes are
 * copied whole; only separators, line ends, quotes, backslashes and the first bytes of a
 * field (which may be the NULL text) are looked at one by one. */
#include "xcode.h"
#include "../gen/encode.h"
#include "../../../base/buf.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* The field is not the NULL text after all: the bytes held back go out as data. */
static char *xcode_release(xcode *x, char *o)
{
    for (size_t i = 0; i < x->matched; i++) o = enc_copy_escape(o, x->null[i]);
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
    return enc_copy_escape(o, c);
}

static char *xcode_field_end(xcode *x, char *o)
{
    if (!x->differs && x->matched == x->null_len) {
        *o++ = '\\';
        *o++ = 'N';
    } else if (!x->differs) o = xcode_release(x, o);
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
            o = enc_copy_escape(o, in[i++]);
            continue;
        }
        size_t j = i;
        while (j < n && !x->special[(unsigned char)in[j]]) j++;
        memcpy(o, in + i, j - i);
        o += j - i;
        if ((i = j) == n) break;
        char c = in[i++];
        if (c == x->quote) x->quote_seen = 1;
        else o = enc_copy_escape(o, c);
    }
    *op = o;
    return i;
}

#ifdef __SSE2__
/* The common case 16 bytes at a time: a block with nothing to escape, no quote, no \r and
 * no empty field goes out as it is, its separators made tabs. Only where an empty field is
 * NULL and rows end in \n (a \r\n file, or --null, takes the byte-wise path). Returns the
 * bytes taken; it stops before the first block that needs a closer look. */
static size_t xcode_blocks(xcode *x, const char *in, size_t n, char **op)
{
    if (x->null_len || x->crlf != 0 || x->cr || x->in_quote || x->quote_seen || n < 16) return 0;
    const __m128i delim = _mm_set1_epi8(x->delim), nl = _mm_set1_epi8('\n'), tab = _mm_set1_epi8('\t'),
                  bs = _mm_set1_epi8('\\'), cr = _mm_set1_epi8('\r'), quote = _mm_set1_epi8(x->csv ? x->quote : '\\');
    const __m128i tab_is_data = _mm_set1_epi8(x->delim == '\t' ? 0 : -1);
    char *o = *op;
    size_t i = 0;
    int differs = x->differs, open = x->open; /* kept here: the stores below may alias *x */
    long long rows = x->rows;
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(in + i));
        __m128i is_delim = _mm_cmpeq_epi8(v, delim), is_nl = _mm_cmpeq_epi8(v, nl);
        __m128i rare = _mm_or_si128(_mm_cmpeq_epi8(v, bs), _mm_cmpeq_epi8(v, cr));
        rare = _mm_or_si128(rare,
                            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_and_si128(_mm_cmpeq_epi8(v, tab), tab_is_data)));
        unsigned sep = (unsigned)_mm_movemask_epi8(_mm_or_si128(is_delim, is_nl));
        if (_mm_movemask_epi8(rare) || (sep & ((sep << 1) | !differs))) break; /* an escape, a quote, an empty field */
        v = _mm_or_si128(_mm_andnot_si128(is_delim, v), _mm_and_si128(is_delim, tab));
        _mm_storeu_si128((__m128i *)(o + i), v);
        for (unsigned m = (unsigned)_mm_movemask_epi8(is_nl); m; m &= m - 1) rows++;
        differs = !(sep & 0x8000); /* a block that ends with a separator leaves a field to begin */
        open = in[i + 15] != '\n';
    }
    x->differs = differs;
    x->open = open;
    x->rows = rows;
    *op = o + i;
    return i;
}
#else
static size_t xcode_blocks(xcode *x, const char *in, size_t n, char **op)
{
    (void)x, (void)in, (void)n, (void)op;
    return 0;
}
#endif

/* One byte outside the fast paths: a separator, a line end, a \r, an opening quote or data. */
static inline char *xcode_byte(xcode *x, char c, char *o)
{
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
    return o;
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
        size_t fast = xcode_blocks(x, in + i, n - i, &o);
        if (fast && (i += fast) == n) break;
        const unsigned char *sp = x->special;
        if (!x->differs && x->matched == 0 && !sp[(unsigned char)in[i]] && (x->null_len == 0 || in[i] != x->null[0])) {
            x->differs = 1; /* the field's first byte tells it is not the NULL text */
            x->open = 1;
        }
        if (x->differs) { /* the common case: a run of plain bytes, then a separator or a line end */
            while (i < n && !sp[(unsigned char)in[i]]) *o++ = in[i++];
            if (i == n) break;
            if (in[i] == x->delim) {
                *o++ = '\t';
                x->differs = 0;
                i++;
                continue;
            }
            if (in[i] == '\n' && x->crlf == 0) {
                *o++ = '\n';
                x->differs = x->open = 0;
                x->rows++;
                i++;
                continue;
            }
        }
        o = xcode_byte(x, in[i++], o);
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
