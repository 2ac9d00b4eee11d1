/* xcode.h — a file's rows rewritten, as they stream, into the escaped text that COPY text
 * and LOAD DATA's default both read (tab-separated; \\ \t \n \r escapes; \N alone is NULL;
 * rows end in \n), so that which field is NULL and which bytes are data is decided here,
 * by one rule, and not by each server's own. Two inputs:
 *   plain TSV: no escapes and no quotes; a field equal to the NULL text (default: empty) is
 *     NULL; rows end at \n, or at \r\n in a file whose first line ends so (a lone \r or \n
 *     there is data);
 *   CSV, read as PostgreSQL reads it: a quote anywhere outside quotes opens a quoted part,
 *     "" inside one is a quote; an unquoted field equal to the NULL text (default: empty) is
 *     NULL, a field with quotes never is; rows end at a \n outside quotes, which in a \r\n
 *     file must follow a \r (any other \r outside quotes is refused, as COPY refuses it).
 * The rows stay one for one, so the servers' row numbers are the file's. The input may come
 * in pieces of any size. */
#ifndef BB_XCODE_H
#define BB_XCODE_H

#include <stddef.h>

#include "../../../base/buf.h"

typedef struct xcode {
    int csv;
    char delim, quote;
    const char *null; /* the field text that means NULL */
    size_t null_len;
    int crlf;                   /* rows end in \r\n: 1, in \n: 0, -1: the first line end decides */
    unsigned char special[256]; /* bytes the copying loop stops at */
    /* where the input is */
    int cr;                   /* a \r was read outside quotes and not yet placed */
    int in_quote, quote_seen; /* CSV: inside quotes; a quote inside them was just read */
    int quoted;               /* CSV: the field has a quoted part, so it is not NULL */
    size_t matched;           /* bytes of the field read so far, all equal to the NULL text's start */
    int differs;              /* the field is not the NULL text: its bytes go out as they come */
    int open;                 /* a row has begun and not ended */
    long long rows;           /* rows ended so far */
    const char *bad;          /* CSV: why the input is refused (NULL: it is not), and from which row (1-based) */
    long long bad_row;
} xcode;

/* csv: the input is CSV (quote: its quote character), else plain TSV; delim: the input's
 * field separator; null: the NULL text (NULL = empty); crlf: the file's line ends if known. */
void xcode_init(xcode *x, int csv, char delim, char quote, const char *null, int crlf);
/* Appends the escaped text of n more input bytes to out. */
void xcode_feed(xcode *x, const char *in, size_t n, bb_buf *out);
/* The end of the input: ends a row left open. -1 when it ends inside quotes (CSV). */
int xcode_end(xcode *x, bb_buf *out);

#endif
