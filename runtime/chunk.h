/* chunk.h — row boundaries of CSV, tab-separated and COPY text input, found in one pass,
 * so a file can be cut into chunks of whole rows. The input may come in pieces of any
 * size: the scanner carries what a piece's end means for the next one (an open quote, a
 * run of backslashes, the last byte), so the chunks do not depend on how it was read. */
#ifndef BB_CHUNK_H
#define BB_CHUNK_H

#include <stddef.h>
#include <stdint.h>

typedef struct chunk_scan {
    int64_t size;        /* close a chunk after the row that brings it to this many bytes */
    int     csv;         /* quotes matter (CSV); else backslash escapes do (tab, COPY text) */
    int     in_quote, skipping, crlf;
    int64_t rows, line, chunk_line; /* rows in the open chunk; the current line; its first line */
    int64_t pos, start;  /* bytes fed so far; where the open chunk starts */
    int64_t row_end;     /* where the last row (or the header) ended */
    char    prev;        /* the last byte fed */
    int     backslashes; /* run of backslashes at the end of what was fed */
} chunk_scan;

/* A finished chunk: bytes [start, end), its rows, the input line it starts at (1-based),
 * whether the input's first line ended with \r\n. */
typedef void (*chunk_emit_fn)(void *ud, int64_t start, int64_t end, int64_t rows, int64_t first_line, int crlf);

/* header: the first row names columns and belongs to no chunk. */
void chunk_scan_init(chunk_scan *s, int csv, int header, int64_t size);
void chunk_scan_feed(chunk_scan *s, const char *buf, size_t n, chunk_emit_fn emit, void *ud);
/* The end of the input: emits the open chunk (a last row without a newline counts).
 * Returns -1 when the input ends inside a quoted field (s->chunk_line: where it began). */
int  chunk_scan_end(chunk_scan *s, chunk_emit_fn emit, void *ud);

#endif
