/* chunk.c — row boundaries in one pass (see chunk.h). The scan jumps with memchr from one
 * quote or newline to the next: a newline ends a row unless it is inside quotes (CSV),
 * escaped by an odd run of backslashes (COPY text), or a lone \n in a \r\n file (plain TSV). */
#include "chunk.h"

#include <string.h>

void chunk_scan_init(chunk_scan *s, chunk_mode mode, int64_t skip, int64_t limit, int64_t size)
{
    memset(s, 0, sizeof *s);
    s->size = size > 0 ? size : 1;
    s->mode = mode;
    s->quote = '"';
    s->skipping = skip;
    s->left = limit;
    s->crlf = -1;
    s->line = s->chunk_line = 1;
    s->prev = '\n';
}

/* Whether the newline at nl ends a row: not one escaped by an odd run of backslashes right
 * before it (COPY text), nor a lone \n in a \r\n file (plain TSV: data, as LOAD DATA reads
 * it). The first line end sets the file's style. */
static inline int ends_row(chunk_scan *s, const char *buf, const char *nl)
{
    if (s->mode == CHUNK_COPY) {
        int k = 0;
        for (const char *b = nl - 1; b >= buf && *b == '\\'; b--) k++;
        if (nl - k == buf) k += s->backslashes;
        if (k % 2) return 0;
    }
    char before = nl > buf ? nl[-1] : s->prev;
    if (s->crlf < 0) s->crlf = before == '\r';
    return !(s->mode == CHUNK_TSV && s->crlf && before != '\r');
}

/* A row ended at row_end: a header or skipped row is not data; a row is counted, and a chunk
 * emitted once it is big enough. 1 when --limit is reached: the last chunk ends here, the
 * rest is ignored. */
static inline int row_ended(chunk_scan *s, int64_t row_end, chunk_emit_fn emit, void *ud)
{
    if (s->skipping) {
        s->skipping--;
        s->start = row_end;
        s->chunk_line = s->line;
        return 0;
    }
    s->rows++;
    if (s->left > 0 && --s->left == 0) {
        emit(ud, s->start, row_end, s->rows, s->chunk_line, s->crlf > 0);
        s->start = s->pos = row_end;
        s->rows = 0;
        return 1;
    }
    if (row_end - s->start >= s->size) {
        emit(ud, s->start, row_end, s->rows, s->chunk_line, s->crlf > 0);
        s->start = row_end;
        s->rows = 0;
        s->chunk_line = s->line;
    }
    return 0;
}

void chunk_scan_feed(chunk_scan *s, const char *buf, size_t n, chunk_emit_fn emit, void *ud)
{
    if (n == 0 || s->left == 0) return;
    const char *p = buf, *end = buf + n;
    int csv = s->mode == CHUNK_CSV;
    while (p < end) {
        if (csv && s->in_quote) { /* inside quotes only the closing quote matters; count lines on the way */
            const char *q = memchr(p, s->quote, (size_t)(end - p));
            const char *stop = q ? q : end;
            for (const char *nl = p; (nl = memchr(nl, '\n', (size_t)(stop - nl))); nl++) s->line++;
            if (!q) break;
            s->in_quote = 0;
            p = q + 1;
            continue;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        if (csv) {
            const char *q = memchr(p, s->quote, (size_t)(stop - p));
            if (q) {
                s->in_quote = 1;
                p = q + 1;
                continue;
            }
        }
        if (!nl) break;
        s->line++;
        p = nl + 1;
        if (!ends_row(s, buf, nl)) continue;
        if (row_ended(s, s->row_end = s->pos + (nl - buf) + 1, emit, ud)) return;
    }
    int k = 0;
    for (const char *b = end - 1; b >= buf && *b == '\\'; b--) k++;
    s->backslashes = (size_t)k == n ? s->backslashes + k : k;
    s->prev = end[-1];
    s->pos += (int64_t)n;
}

int chunk_scan_end(chunk_scan *s, chunk_emit_fn emit, void *ud)
{
    if (s->in_quote) return -1;
    if (s->pos > s->start && !s->skipping) {
        if (s->pos > s->row_end) { /* bytes after the last row end: one more row */
            s->rows++;
            if (s->left > 0) s->left--;
        }
        emit(ud, s->start, s->pos, s->rows, s->chunk_line, s->crlf > 0);
    }
    return 0;
}
