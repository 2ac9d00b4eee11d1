/* util.h — small things every module needs: errors, growable buffers, clocks. */
#ifndef BB_UTIL_H
#define BB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Exit codes (ARCHITECTURE.md "Contracts"). */
enum { BB_EXIT_OK = 0, BB_EXIT_RUNTIME = 1, BB_EXIT_USAGE = 2, BB_EXIT_VERIFY = 3 };

/* An error travels up as a message; the caller decides the exit code. */
typedef struct bb_err {
    char msg[1024];
    int  code; /* BB_EXIT_*: who should be blamed (usage vs runtime) */
} bb_err;

int  bb_errf(bb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int  bb_usagef(bb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable byte buffer; the hot paths append into one and reuse it. */
typedef struct bb_buf {
    char  *p;
    size_t len, cap;
} bb_buf;

void bb_buf_grow(bb_buf *b, size_t need);
static inline void bb_buf_reserve(bb_buf *b, size_t extra)
{
    if (b->len + extra > b->cap) bb_buf_grow(b, b->len + extra);
}
static inline void bb_buf_put(bb_buf *b, const void *s, size_t n)
{
    bb_buf_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}
static inline void bb_buf_putc(bb_buf *b, char c)
{
    bb_buf_reserve(b, 1);
    b->p[b->len++] = c;
}
static inline void bb_buf_puts(bb_buf *b, const char *s) { bb_buf_put(b, s, strlen(s)); }
void bb_buf_printf(bb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bb_buf_free(bb_buf *b);

/* Decimal formatting without printf: returns chars written. */
int bb_fmt_i64(char *out, int64_t v);
int bb_fmt_u64(char *out, uint64_t v);

uint64_t bb_now_ns(void);    /* CLOCK_MONOTONIC */
double   bb_wall_s(void);    /* CLOCK_REALTIME, seconds */
void     bb_sleep_until_ns(uint64_t t);

void *bb_xmalloc(size_t n);
void *bb_xcalloc(size_t n, size_t m);
char *bb_xstrdup(const char *s);

/* Parses "4MB", "64k", "1048576" into bytes; -1 when malformed. */
int64_t bb_parse_size(const char *s);

#endif
