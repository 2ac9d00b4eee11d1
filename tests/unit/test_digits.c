/* test_digits.c — base/digits.h as TAP: every integer writer gives printf's digits, at the
 * edges of each branch (powers of ten and their neighbours, the extremes) and at random. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../base/digits.h"

static int ntest, nfail;

static void ok(int cond, const char *what)
{
    ntest++;
    if (!cond) nfail++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", ntest, what);
}

/* 0 when bb_fmt_i64 writes what printf does; else the first difference in why */
static int check(int64_t v, char *why, size_t n)
{
    char a[32], b[32];
    int la = bb_fmt_i64(a, v), lb = snprintf(b, sizeof b, "%" PRId64, v);
    a[la] = 0;
    return la == lb && strcmp(a, b) == 0 ? 0 : snprintf(why, n, "%s written as %s", b, a);
}

static int check_u(uint64_t v, char *why, size_t n)
{
    char a[32], b[32];
    int la = bb_fmt_u64(a, v), lb = snprintf(b, sizeof b, "%" PRIu64, v);
    a[la] = 0;
    return la == lb && strcmp(a, b) == 0 ? 0 : snprintf(why, n, "%s written as %s", b, a);
}

int main(void)
{
    char why[120] = "", first[120] = "";
    long bad = 0;
    uint64_t p = 1;
    for (int k = 0; k <= 19; k++, p *= 10) { /* every branch's edges */
        uint64_t edge[] = { p - 1, p, p + 1 };
        for (int i = 0; i < 3; i++) {
            if (check_u(edge[i], why, sizeof why) && bad++ == 0) memcpy(first, why, sizeof first);
            if (edge[i] <= INT64_MAX && check(-(int64_t)edge[i], why, sizeof why) && bad++ == 0)
                memcpy(first, why, sizeof first);
        }
    }
    if (check_u(UINT64_MAX, why, sizeof why) && bad++ == 0) memcpy(first, why, sizeof first);
    if (check(INT64_MIN, why, sizeof why) && bad++ == 0) memcpy(first, why, sizeof first);
    if (check(INT64_MAX, why, sizeof why) && bad++ == 0) memcpy(first, why, sizeof first);
    ok(bad == 0, bad ? first : "powers of ten, their neighbours and the extremes");
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    bad = 0;
    for (long i = 0; i < 1000000; i++) { /* random widths: every digit count alike */
        s += 0x9E3779B97F4A7C15ULL;
        uint64_t z = (s ^ (s >> 31)) * 0xbf58476d1ce4e5b9ULL;
        z ^= z >> 29;
        int64_t v = (int64_t)(z >> (z % 64));
        if ((check(v, why, sizeof why) || check(-v, why, sizeof why)) && bad++ == 0) memcpy(first, why, sizeof first);
    }
    ok(bad == 0, bad ? first : "a million random integers of every width, both signs");
    printf("1..%d\n", ntest);
    return nfail ? 1 : 0;
}
