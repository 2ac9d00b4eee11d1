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
    char    msg[1024];
    int     code; /* BB_EXIT_*: who should be blamed (usage vs runtime) */
    int64_t row;  /* the row of a bulk stream the server named (1-based, as it counts), 0 = none */
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

/* Decimal formatting without printf, inlined into the encoders' hot loops: count the
 * digits, then write two at a time from the right. Returns chars written. */
extern const char bb_digits2[201];
extern const uint64_t bb_pow10[20];

/* digits of v: log2 from the leading zeros, times log10(2) (1233/4096), corrected once */
static inline int bb_ndigits(uint64_t v)
{
    int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;
    return t + (v >= bb_pow10[t]) + (v == 0);
}

/* out needs room for 20 bytes whatever v is: small values are copied 4 bytes at a time. */
extern char bb_digits4[40000];

static inline int bb_fmt_u64(char *out, uint64_t v)
{
    if (v < 10000) { /* ids, counts, small ranges: one table load */
        int k = 1 + (v >= 10) + (v >= 100) + (v >= 1000);
        memcpy(out, bb_digits4 + 4 * v + 4 - k, 4);
        return k;
    }
    int n = bb_ndigits(v);
    char *p = out + n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, bb_digits2 + r * 2, 2);
    }
    if (v >= 10) memcpy(p - 2, bb_digits2 + v * 2, 2);
    else p[-1] = (char)('0' + v);
    return n;
}

static inline int bb_fmt_i64(char *out, int64_t v)
{
    if (v >= 0) return bb_fmt_u64(out, (uint64_t)v);
    out[0] = '-';
    return 1 + bb_fmt_u64(out + 1, (uint64_t)0 - (uint64_t)v);
}

uint64_t bb_now_ns(void);    /* CLOCK_MONOTONIC */
double   bb_wall_s(void);    /* CLOCK_REALTIME, seconds */
void     bb_sleep_until_ns(uint64_t t);

void *bb_xmalloc(size_t n);
void *bb_xcalloc(size_t n, size_t m);
char *bb_xstrdup(const char *s);

/* Days since 1970-01-01 of a proleptic Gregorian date. */
int64_t bb_days_from_civil(int64_t y, unsigned m, unsigned d);
/* "YYYY-MM-DD[ HH:MM:SS]" (UTC) or epoch seconds into epoch seconds; -1 when malformed. */
int     bb_parse_time(const char *s, int64_t *out);

/* Parses "4MB", "64k", "1048576" into bytes; -1 when malformed. */
/* Overwrites with '*' every copy in msg of the password the DSN carries (URI
 * scheme://user:pass@host or key=value password=pass): libpq repeats a URI it cannot parse. */
void bb_redact_password(char *msg, const char *dsn);
int64_t bb_parse_size(const char *s);

#endif
