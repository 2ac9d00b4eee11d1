/* digits.h — decimal formatting without printf, inlined into the encoders' hot loops. */
#ifndef BB_DIGITS_H
#define BB_DIGITS_H

#include <stdint.h>
#include <string.h>

/* Four digits per table load; the few callers that want two use bb_digits2. */
extern const char bb_digits2[201];

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

/* v < 10^8 in exactly 8 digits, zeros in front */
static inline void bb_fmt_8(char *out, uint32_t v)
{
    memcpy(out, bb_digits4 + 4 * (v / 10000), 4);
    memcpy(out + 4, bb_digits4 + 4 * (v % 10000), 4);
}

/* v < 10^8: ids, counts, row numbers; one table load per four digits */
static inline int bb_fmt_below_1e8(char *out, uint64_t v)
{
    if (v < 10000) return bb_fmt_small(out, v);
    int k = bb_fmt_small(out, v / 10000);
    memcpy(out + k, bb_digits4 + 4 * (v % 10000), 4);
    return k + 4;
}

/* v >= 10^8 (digits.c): out of line, because inlining it into every encoder's loop made the
 * common case below 40% slower (bmsql_history's rows into COPY text) */
__attribute__((cold)) int bb_fmt_wide(char *out, uint64_t v);

static inline int bb_fmt_u64(char *out, uint64_t v)
{
    return __builtin_expect(v < 100000000, 1) ? bb_fmt_below_1e8(out, v) : bb_fmt_wide(out, v);
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
