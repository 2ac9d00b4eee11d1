/* fuzz_chunk.c — the chunk scanner (runtime/core/load/chunk.c) against a byte-at-a-time reference.
 * Input: a flag byte (bits 0-1 the mode: 0 COPY text, 1 CSV, 2 and 3 plain TSV; bit 2 header,
 * bits 3-7 the chunk size), a second (bits 0-6 a --limit, 0 = none; bit 7 quote with '
 * instead of "), then the data.
 * Checked: the chunks are contiguous and cover the data after the header, up to the
 * limit's last row; their rows and first lines equal the reference's; feeding in small
 * pieces gives the same chunks as feeding it whole; an input ending inside quotes is
 * reported, and only then. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/load/chunk.h"

typedef struct got {
    int64_t start[4096], end[4096], rows[4096], line[4096];
    int n, over;
} got;

static void emit(void *ud, int64_t start, int64_t end, int64_t rows, int64_t line, int crlf)
{
    (void)crlf;
    got *g = ud;
    if (g->n == 4096) {
        g->over = 1;
        return;
    }
    g->start[g->n] = start, g->end[g->n] = end, g->rows[g->n] = rows, g->line[g->n] = line;
    g->n++;
}

/* Rows by a plain state machine: how many (at most limit, -1 = all), where the data
 * starts (after a header) and where the last row taken ends. Plain TSV: the first line
 * end says whether rows end in \r\n; then a lone \n is data. */
static int64_t reference(const char *d, size_t n, int mode, char quote, int header, int64_t limit, int64_t *data_start,
                         int64_t *data_end, int *open_quote)
{
    int in_q = 0, esc = 0, skipping = header, crlf = -1;
    int64_t rows = 0, last = 0;
    *data_start = 0;
    *data_end = (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        char c = d[i];
        if (mode == CHUNK_CSV) {
            if (c == quote) {
                in_q = !in_q;
                continue;
            }
            if (in_q) continue;
        } else if (mode == CHUNK_COPY) {
            if (esc) {
                esc = 0;
                continue;
            }
            if (c == '\\') {
                esc = 1;
                continue;
            }
        }
        if (c != '\n') continue;
        int cr = i > 0 && d[i - 1] == '\r';
        if (crlf < 0) crlf = cr;
        if (mode == CHUNK_TSV && crlf && !cr) continue;
        last = (int64_t)i + 1;
        if (skipping) {
            skipping = 0;
            *data_start = last;
            continue;
        }
        rows++;
        if (rows == limit) {
            *data_end = last;
            *open_quote = 0;
            return rows;
        }
    }
    *open_quote = in_q;
    if (!skipping && (int64_t)n > last) rows++; /* a last row without a newline */
    return rows;
}

static int64_t line_at(const char *d, int64_t off)
{
    int64_t l = 1;
    for (int64_t i = 0; i < off; i++) l += d[i] == '\n';
    return l;
}

static int run(chunk_scan *s, const char *d, size_t n, size_t piece, got *g)
{
    for (size_t at = 0; at < n; at += piece) chunk_scan_feed(s, d + at, n - at < piece ? n - at : piece, emit, g);
    return chunk_scan_end(s, emit, g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    int mode = data[0] & 3 ? (data[0] & 3) == 1 ? CHUNK_CSV : CHUNK_TSV : CHUNK_COPY, header = (data[0] >> 2) & 1;
    int64_t chunk = 1 + (data[0] >> 3), limit = data[1] & 0x7f ? data[1] & 0x7f : -1;
    char quote = data[1] & 0x80 ? '\'' : '"';
    const char *d = (const char *)data + 2;
    size_t n = size - 2;
    static got whole, pieces;
    memset(&whole, 0, sizeof whole);
    memset(&pieces, 0, sizeof pieces);
    chunk_scan a, b;
    chunk_scan_init(&a, mode, header, limit, chunk);
    chunk_scan_init(&b, mode, header, limit, chunk);
    a.quote = b.quote = quote;
    int ra = run(&a, d, n, n ? n : 1, &whole);
    int rb = run(&b, d, n, 1 + n % 7, &pieces);
    if (whole.over || pieces.over) return 0;
    int64_t start, end;
    int open;
    int64_t rows = reference(d, n, mode, quote, header, limit, &start, &end, &open);
    assert(ra == rb);
    assert((ra < 0) == open);
    assert(whole.n == pieces.n);
    for (int i = 0; i < whole.n; i++)
        assert(whole.start[i] == pieces.start[i] && whole.end[i] == pieces.end[i] && whole.rows[i] == pieces.rows[i] &&
               whole.line[i] == pieces.line[i]);
    if (ra < 0) return 0;
    int64_t sum = 0, at = start;
    for (int i = 0; i < whole.n; i++) {
        assert(whole.start[i] == at && whole.end[i] > whole.start[i]);
        assert(whole.line[i] == line_at(d, whole.start[i]));
        at = whole.end[i];
        sum += whole.rows[i];
    }
    assert(whole.n == 0 || at == end);
    assert(sum == rows);
    return 0;
}
