/* fuzz_xcode.c — the rewriting of plain TSV and CSV into escaped text (runtime/core/load/xcode.c)
 * against a byte-at-a-time reference reader of the input and a COPY-text reader of the
 * output. Input: a flag byte (bit 0 CSV; bit 1 ',' as the separator, else tab; bit 2 '
 * as the quote; bits 3-4 the NULL text: "", "\N", "NULL", "a"; bits 5-6 the line ends:
 * 0 and 3 the first one decides, 1 \n, 2 \r\n), then the data.
 * Checked: the output read as COPY text holds exactly the rows, fields, NULLs and bytes
 * the reference reads from the input; it uses no escape but \\ \t \n \r \N; feeding the
 * input in small pieces gives the same bytes as feeding it whole; an input that ends
 * inside quotes is reported, and only then; so is a CSV line end that is not the file's
 * (an unquoted \r not before \n, a \r\n in a \n file, a lone \n in a \r\n one), with its row. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/load/xcode.h"
#include "../../base/buf.h"

/* A read row set, canonical: per field 'N' (NULL) or 'V', 4 length bytes and the bytes;
 * 'R' after each row. */
static void put_field(bb_buf *b, int null, const char *s, size_t n)
{
    bb_buf_putc(b, null ? 'N' : 'V');
    if (null) return;
    uint32_t l = (uint32_t)n;
    bb_buf_put(b, &l, 4);
    if (n) bb_buf_put(b, s, n);
}

/* The input by the rules xcode.h states; returns -1 when it ends inside quotes. *bad: the
 * first row with a CSV line end that is not the file's, 0 for none. */
static int reference(const char *d, size_t n, int csv, char delim, char quote, const char *null, int crlf, bb_buf *rows,
                     long long *bad)
{
    bb_buf f = { 0 };
    bb_buf_reserve(&f, 16);
    int in_q = 0, quoted = 0, open = 0;
    long long nrows = 0;
    *bad = 0;
    size_t nl = strlen(null);
    for (size_t i = 0; i < n; i++) {
        char c = d[i];
        open = 1;
        if (in_q) {
            if (c != quote) bb_buf_putc(&f, c);
            else if (i + 1 < n && d[i + 1] == quote) {
                bb_buf_putc(&f, quote);
                i++;
            } else in_q = 0;
            continue;
        }
        if (csv && c == quote) {
            in_q = quoted = 1;
            continue;
        }
        if (csv && c == '\r' && (i + 1 == n || d[i + 1] != '\n') && !*bad) *bad = nrows + 1;
        if (c == delim || c == '\n') {
            int cr = c == '\n' && i > 0 && d[i - 1] == '\r';
            if (c == '\n' && crlf < 0) crlf = cr;
            if (c == '\n' && csv && crlf != cr && !*bad) *bad = nrows + 1;
            if (c == '\n' && crlf && !cr && !csv) {
                bb_buf_putc(&f, '\n');
                continue;
            }                                     /* a lone \n in a \r\n TSV file */
            if (c == '\n' && crlf && cr) f.len--; /* the \r belongs to the line end */
            put_field(rows, !quoted && f.len == nl && memcmp(f.p, null, nl) == 0, f.p, f.len);
            f.len = 0;
            quoted = 0;
            if (c == '\n') {
                bb_buf_putc(rows, 'R');
                open = 0;
                nrows++;
            }
            continue;
        }
        bb_buf_putc(&f, c);
    }
    if (open && !in_q) {
        put_field(rows, !quoted && f.len == nl && memcmp(f.p, null, nl) == 0, f.p, f.len);
        bb_buf_putc(rows, 'R');
    }
    bb_buf_free(&f);
    return in_q ? -1 : 0;
}

/* The output read as COPY text: rows end at \n, fields at tab, \N alone is NULL. */
static void read_copy(const char *d, size_t n, bb_buf *rows)
{
    bb_buf f = { 0 };
    bb_buf_reserve(&f, 16);
    assert(n == 0 || d[n - 1] == '\n');
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        char c = d[i];
        if (c == '\t' || c == '\n') {
            int null = i - start == 2 && d[start] == '\\' && d[start + 1] == 'N';
            put_field(rows, null, f.p, f.len);
            f.len = 0;
            start = i + 1;
            if (c == '\n') bb_buf_putc(rows, 'R');
            continue;
        }
        assert(c != '\r'); /* a carriage return in a value is always escaped */
        if (c == '\\') {
            assert(i + 1 < n);
            char e = d[++i];
            if (e == 'N') {
                assert(i - 1 == start && i + 1 < n && (d[i + 1] == '\t' || d[i + 1] == '\n'));
                continue;
            }
            assert(e == '\\' || e == 't' || e == 'n' || e == 'r');
            c = e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\\';
        }
        bb_buf_putc(&f, c);
    }
    bb_buf_free(&f);
}

static int run(const char *d, size_t n, size_t piece, int csv, char delim, char quote, const char *null, int crlf,
               bb_buf *out, long long *bad)
{
    xcode x;
    xcode_init(&x, csv, delim, quote, null, crlf);
    for (size_t at = 0; at < n; at += piece) xcode_feed(&x, d + at, n - at < piece ? n - at : piece, out);
    int rc = xcode_end(&x, out);
    *bad = x.bad ? x.bad_row : 0;
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    static const char *const nulls[] = { "", "\\N", "NULL", "a" };
    static const int crlfs[] = { -1, 0, 1, -1 };
    int csv = data[0] & 1;
    char delim = data[0] & 2 ? ',' : '\t', quote = data[0] & 4 ? '\'' : '"';
    const char *null = nulls[(data[0] >> 3) & 3];
    int crlf = crlfs[(data[0] >> 5) & 3];
    const char *d = (const char *)data + 1;
    size_t n = size - 1;
    bb_buf whole = { 0 }, pieces = { 0 }, want = { 0 }, got = { 0 };
    long long ba, bb, br;
    int ra = run(d, n, n ? n : 1, csv, delim, quote, null, crlf, &whole, &ba);
    int rb = run(d, n, 1 + n % 7, csv, delim, quote, null, crlf, &pieces, &bb);
    int rr = reference(d, n, csv, delim, quote, null, crlf, &want, &br);
    assert(ra == rb && ra == rr);
    assert(ba == bb && ba == br);
    assert(whole.len == pieces.len && (whole.len == 0 || memcmp(whole.p, pieces.p, whole.len) == 0));
    if (ra == 0 && ba == 0) {
        read_copy(whole.p, whole.len, &got);
        assert(got.len == want.len && (got.len == 0 || memcmp(got.p, want.p, got.len) == 0));
    }
    bb_buf_free(&whole);
    bb_buf_free(&pieces);
    bb_buf_free(&want);
    bb_buf_free(&got);
    return 0;
}
