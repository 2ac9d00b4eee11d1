/* chunk.h — row boundaries of CSV, plain TSV and COPY text input, found in one pass,
 * so a file can be cut into chunks of whole rows. The input may come in pieces of any
 * size: the scanner carries what a piece's end means for the next one (an open quote, a
 * run of backslashes, the last byte), so the chunks do not depend on how it was read. */
#ifndef BB_CHUNK_H
#define BB_CHUNK_H

#include <stddef.h>
#include <stdint.h>

/* What ends a row: a newline outside quotes (CSV), a newline after an even run of
 * backslashes (COPY text), or a newline, and in a file whose first line ends in \r\n only a
 * \r\n (plain TSV: no escapes, no quotes). */
typedef enum chunk_mode { CHUNK_COPY, CHUNK_CSV, CHUNK_TSV } chunk_mode;

typedef struct chunk_scan {
    int64_t size; /* close a chunk after the row that brings it to this many bytes */
    chunk_mode mode;
    char quote;                     /* CSV's quote character */
    int in_quote, crlf;             /* crlf: the first line end's style, -1 until one is seen */
    int64_t skipping;               /* rows still to skip (a header, --skip-rows): they belong to no chunk */
    int64_t left;                   /* rows still to take (--limit), -1 = all; at 0 the rest is ignored */
    int64_t rows, line, chunk_line; /* rows in the open chunk; the current line; its first line */
    int64_t pos, start;             /* bytes fed so far; where the open chunk starts */
    int64_t row_end;                /* where the last row (or the header) ended */
    char prev;                      /* the last byte fed */
    int backslashes;                /* run of backslashes at the end of what was fed */
} chunk_scan;

/* A finished chunk: bytes [start, end), its rows, the input line it starts at (1-based),
 * whether the input's first line ended with \r\n. */
typedef void (*chunk_emit_fn)(void *ud, int64_t start, int64_t end, int64_t rows, int64_t first_line, int crlf);

/* skip: rows at the start that belong to no chunk (a header, --skip-rows); limit: the
 * most rows to take, -1 for all. The quote character is '"' until set in s->quote; a scan
 * that starts past a file's first line sets s->crlf to the file's style. */
void chunk_scan_init(chunk_scan *s, chunk_mode mode, int64_t skip, int64_t limit, int64_t size);
void chunk_scan_feed(chunk_scan *s, const char *buf, size_t n, chunk_emit_fn emit, void *ud);
/* The end of the input: emits the open chunk (a last row without a newline counts).
 * Returns -1 when the input ends inside a quoted field (s->chunk_line: where it began). */
int chunk_scan_end(chunk_scan *s, chunk_emit_fn emit, void *ud);

#endif
