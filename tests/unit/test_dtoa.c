/* test_dtoa.c — base/dtoa.c as TAP: every double it writes reads back as the same double
 * (edge cases, random bit patterns, the generators' kinds of values), its text is no longer
 * than printf's "%.17g" and laid out the same way, and short decimals come out short. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/dtoa.h"
#include "tap.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* 0 when v's text reads back as v, is no longer than "%.17g"'s and takes its layout
 * (an exponent or not); else says what is wrong */
static int check(double v, char *why, size_t n)
{
    char a[40], b[40];
    int la = bb_fmt_double(a, v);
    a[la] = 0;
    int lb = snprintf(b, sizeof b, "%.17g", v);
    double back = strtod(a, NULL);
    if (memcmp(&back, &v, sizeof v) != 0) return snprintf(why, n, "%s reads back as %.17g, not %s", a, back, b);
    if (la > lb) return snprintf(why, n, "%s is longer than %s", a, b);
    if ((strchr(a, 'e') != NULL) != (strchr(b, 'e') != NULL) && la > 1 && lb > 1)
        return snprintf(why, n, "%s and %s are laid out differently", a, b);
    return 0;
}

static void check_many(const char *what, double (*make)(uint64_t), long n)
{
    char why[200] = "", first[200] = "";
    long bad = 0;
    for (long i = 0; i < n; i++) {
        double v = make(rnd());
        if (!isfinite(v)) continue;
        if (check(v, why, sizeof why) && bad++ == 0) memcpy(first, why, sizeof first);
    }
    char name[300];
    snprintf(name, sizeof name, "%s: %ld values read back exactly%s%s", what, n, bad ? "; first failure: " : "", first);
    ok(bad == 0, name);
}

static double any_bits(uint64_t r)
{
    double v;
    memcpy(&v, &r, sizeof v);
    return v;
}
static double unit(uint64_t r) { return (double)(r >> 11) * 0x1.0p-53; }
static double range(uint64_t r) { return -1000.0 + unit(r) * 3000.0; }
static double gaussian(uint64_t r)
{
    return 50 + 10 * sqrt(-2 * log(unit(r) + 1e-300)) * cos(6.283185307179586 * unit(r * 7));
}
static double pareto(uint64_t r) { return 1.0 / pow(1 - unit(r), 1 / 1.16); }
static double small_int(uint64_t r) { return (double)(int64_t)(r % 20000000) - 1e7; }
static double cents(uint64_t r) { return (double)(r % 1000000) / 100; }
static double denormal(uint64_t r) { return any_bits(r & ((1ULL << 52) - 1)); }
static double near_pow2(uint64_t r) /* a power of two or a neighbour: the uneven intervals */
{
    double v = ldexp(1.0, (int)(r % 2000) - 1000);
    return (r >> 20) % 3 == 0 ? v : (r >> 20) % 3 == 1 ? nextafter(v, 0) : nextafter(v, INFINITY);
}

static void expect(double v, const char *want)
{
    char a[40], name[120];
    int n = bb_fmt_double(a, v);
    a[n] = 0;
    snprintf(name, sizeof name, "%.17g is written %s (got %s)", v, want, a);
    ok(strcmp(a, want) == 0, name);
}

int main(void)
{
    expect(0.0, "0");
    expect(-0.0, "-0");
    expect(1.0, "1");
    expect(0.1, "0.1");
    expect(-123.45, "-123.45");
    expect(1e-4, "0.0001");
    expect(1e-5, "1e-05");
    expect(1.5e-7, "1.5e-07");
    expect(1e16, "10000000000000000");
    expect(1e17, "1e+17");
    expect(123456789012345678.0, "1.2345678901234568e+17");
    expect(1.0 / 3, "0.3333333333333333");
    expect(DBL_MAX, "1.7976931348623157e+308");
    expect(DBL_MIN, "2.2250738585072014e-308");
    expect(5e-324, "5e-324");
    expect(9007199254740993.0, "9007199254740992");
    expect(6336.9, "6336.9");
    char a[40];
    a[bb_fmt_double(a, INFINITY)] = 0;
    ok(strcmp(a, "inf") == 0, "infinity as printf writes it");
    check_many("random bit patterns", any_bits, 400000);
    check_many("uniform in [0, 1)", unit, 200000);
    check_many("uniform in [-1000, 2000)", range, 200000);
    check_many("gaussian(50, 10)", gaussian, 100000);
    check_many("pareto(1.16)", pareto, 100000);
    check_many("integers below 1e7", small_int, 100000);
    check_many("hundredths", cents, 100000);
    check_many("subnormals", denormal, 100000);
    check_many("powers of two and their neighbours", near_pow2, 100000);
    long shortest = 0, n = 100000;
    for (long i = 0; i < n; i++) { /* how often the text is the shortest that reads back */
        double v = range(rnd());
        char b[40];
        int la = bb_fmt_double(a, v), digits = 17;
        for (int p = 1; p <= 17; p++) {
            snprintf(b, sizeof b, "%.*g", p, v);
            if (strtod(b, NULL) == v) {
                digits = p;
                break;
            }
        }
        int ours = 0;
        for (int j = 0; j < la && a[j] != 'e'; j++) ours += a[j] >= '0' && a[j] <= '9';
        a[la] = 0;
        /* fixed notation may hold leading zeros ("0.001"): count significant digits only */
        const char *s = a + (a[0] == '-');
        while (*s == '0' || *s == '.') ours -= *s++ == '0';
        shortest += ours <= digits;
    }
    char name[120];
    snprintf(name, sizeof name, "the shortest digits in %ld of %ld values (at least 99.5%%)", shortest, n);
    ok(shortest >= n * 995 / 1000, name);
    return tap_done();
}
