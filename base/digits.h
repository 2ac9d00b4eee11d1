/* digits.h — decimal formatting without printf, inlined into the encoders' hot loops. */
#ifndef BB_DIGITS_H
#define BB_DIGITS_H

#include <stdint.h>
#include <string.h>

/* Count the digits, then write two at a time from the right; each returns the chars written. */
extern const char bb_digits2[201];
extern const uint64_t bb_pow10[20];

/* digits of v: log2 from the leading zeros, times log10(2) (1233/4096), corrected once */
static inline int bb_ndigits(uint64_t v)
{
    int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;
    return t + (v >= bb_pow10[t]) + (v == 0);
}

/* out needs room for 20 bytes whatever v is: small values are copied 4 bytes at a time. */
extern char bb_digits4[40000];       /* 0000 to 9999 */
extern unsigned char bb_len4[10000]; /* how many digits each has */

/* v < 10000: its digits from the table's right end, one load for the count */
static inline int bb_fmt_small(char *out, uint64_t v)
{
    int k = bb_len4[v];
    memcpy(out, bb_digits4 + 4 * v + 4 - k, 4);
    return k;
}

static inline int bb_fmt_u64(char *out, uint64_t v)
{
    if (v < 10000) return bb_fmt_small(out, v); /* ids, counts, small ranges */
    if (v < 100000000) {                        /* row numbers: two table loads */
        int k = bb_fmt_small(out, v / 10000);
        memcpy(out + k, bb_digits4 + 4 * (v % 10000), 4);
        return k + 4;
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

/* x / 10^scale as decimal text ("-0.05" for x = -5, scale 2); out needs 24 bytes. */
static inline int bb_fmt_scaled(char *out, int64_t x, int scale)
{
    char *p = out;
    uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    if (x < 0) *p++ = '-';
    if (!scale) return (int)(p - out) + bb_fmt_u64(p, u);
    int nd = bb_fmt_u64(p, u);
    if (nd <= scale) { /* at least one digit before the point */
        memmove(p + (scale + 1 - nd), p, (size_t)nd);
        memset(p, '0', (size_t)(scale + 1 - nd));
        nd = scale + 1;
    }
    memmove(p + nd - scale + 1, p + nd - scale, (size_t)scale);
    p[nd - scale] = '.';
    return (int)(p - out) + nd + 1;
}

#endif
