/* fuzz_chunk.c — the chunk scanner (runtime/chunk.c) against a byte-at-a-time reference.
 * Input: one flag byte (bit 0 CSV, bit 1 header, bits 2-7 the chunk size), then the data.
 * Checked: the chunks are contiguous and cover the data after the header; their rows and
 * first lines equal the reference's; feeding in small pieces gives the same chunks as
 * feeding it whole; an input ending inside quotes is reported, and only then. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/chunk.h"

typedef struct got { int64_t start[4096], end[4096], rows[4096], line[4096]; int n, over; } got;

static void emit(void *ud, int64_t start, int64_t end, int64_t rows, int64_t line, int crlf)
{
    (void)crlf;
    got *g = ud;
    if (g->n == 4096) { g->over = 1; return; }
    g->start[g->n] = start, g->end[g->n] = end, g->rows[g->n] = rows, g->line[g->n] = line;
    g->n++;
}

/* Row ends (offsets after each row's newline) by a plain state machine. */
static int64_t reference(const char *d, size_t n, int csv, int header, int64_t *data_start, int *open_quote)
{
    int in_q = 0, esc = 0, skipping = header;
    int64_t rows = 0, last = 0;
    *data_start = 0;
    for (size_t i = 0; i < n; i++) {
        char c = d[i];
        if (csv) { if (c == '"') { in_q = !in_q; continue; } if (in_q) continue; }
        else {
            if (esc) { esc = 0; continue; }
            if (c == '\\') { esc = 1; continue; }
        }
        if (c != '\n') continue;
        last = (int64_t)i + 1;
        if (skipping) { skipping = 0; *data_start = last; continue; }
        rows++;
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
    if (size < 1) return 0;
    int csv = data[0] & 1, header = (data[0] >> 1) & 1;
    int64_t chunk = 1 + (data[0] >> 2);
    const char *d = (const char *)data + 1;
    size_t n = size - 1;
    static got whole, pieces;
    memset(&whole, 0, sizeof whole);
    memset(&pieces, 0, sizeof pieces);
    chunk_scan a, b;
    chunk_scan_init(&a, csv, header, -1, chunk);
    chunk_scan_init(&b, csv, header, -1, chunk);
    int ra = run(&a, d, n, n ? n : 1, &whole);
    int rb = run(&b, d, n, 1 + n % 7, &pieces);
    if (whole.over || pieces.over) return 0;
    int64_t start;
    int open;
    int64_t rows = reference(d, n, csv, header, &start, &open);
    assert(ra == rb);
    assert((ra < 0) == open);
    assert(whole.n == pieces.n);
    for (int i = 0; i < whole.n; i++)
        assert(whole.start[i] == pieces.start[i] && whole.end[i] == pieces.end[i] &&
               whole.rows[i] == pieces.rows[i] && whole.line[i] == pieces.line[i]);
    if (ra < 0) return 0;
    int64_t sum = 0, at = start;
    for (int i = 0; i < whole.n; i++) {
        assert(whole.start[i] == at && whole.end[i] > whole.start[i]);
        assert(whole.line[i] == line_at(d, whole.start[i]));
        at = whole.end[i];
        sum += whole.rows[i];
    }
    assert(whole.n == 0 || at == (int64_t)n);
    assert(sum == rows);
    return 0;
}
