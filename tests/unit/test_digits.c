/* test_digits.c — base/digits.h as TAP: every integer writer gives printf's digits, at the
 * edges of each branch (powers of ten and their neighbours, the extremes) and at random. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../base/digits.h"
#include "tap.h"

static long bad;        /* writers' texts that differ from printf's in this check */
static char first[120]; /* the first of them */

static void agree(const char *got, int ngot, const char *want)
{
    if (ngot == (int)strlen(want) && memcmp(got, want, (size_t)ngot) == 0) return;
    if (bad++ == 0) snprintf(first, sizeof first, "%s written as %.*s", want, ngot, got);
}

static void check(int64_t v)
{
    char a[32], b[32];
    snprintf(b, sizeof b, "%" PRId64, v);
    agree(a, bb_fmt_i64(a, v), b);
}

static void check_u(uint64_t v)
{
    char a[32], b[32];
    snprintf(b, sizeof b, "%" PRIu64, v);
    agree(a, bb_fmt_u64(a, v), b);
}

int main(void)
{
    uint64_t p = 1;
    for (int k = 0; k <= 19; k++, p *= 10) { /* every branch's edges */
        uint64_t edge[] = { p - 1, p, p + 1 };
        for (int i = 0; i < 3; i++) {
            check_u(edge[i]);
            if (edge[i] <= INT64_MAX) check(-(int64_t)edge[i]);
        }
    }
    check_u(UINT64_MAX);
    check(INT64_MIN);
    check(INT64_MAX);
    ok(bad == 0, bad ? first : "powers of ten, their neighbours and the extremes");
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    bad = 0;
    for (long i = 0; i < 1000000; i++) { /* random widths: every digit count alike */
        s += 0x9E3779B97F4A7C15ULL;
        uint64_t z = (s ^ (s >> 31)) * 0xbf58476d1ce4e5b9ULL;
        z ^= z >> 29;
        int64_t v = (int64_t)(z >> (z % 64));
        check(v);
        check(-v);
    }
    ok(bad == 0, bad ? first : "a million random integers of every width, both signs");
    return tap_done();
}
