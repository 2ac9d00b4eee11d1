/* util.c — errors, buffers, clocks, number formatting. */
#define _GNU_SOURCE /* memmem */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int errv(bb_err *e, int code, const char *fmt, va_list ap)
{
    if (e) {
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        e->code = code;
        e->row = 0;
    }
    return -1;
}

int bb_errf(bb_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errv(e, BB_EXIT_RUNTIME, fmt, ap);
    va_end(ap);
    return -1;
}

int bb_usagef(bb_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errv(e, BB_EXIT_USAGE, fmt, ap);
    va_end(ap);
    return -1;
}

void *bb_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) { fputs("bulkbench: out of memory\n", stderr); abort(); }
    return p;
}

void *bb_xcalloc(size_t n, size_t m)
{
    void *p = calloc(n ? n : 1, m ? m : 1);
    if (!p) { fputs("bulkbench: out of memory\n", stderr); abort(); }
    return p;
}

char *bb_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(bb_xmalloc(n), s, n);
}

void bb_buf_grow(bb_buf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < need) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) { fputs("bulkbench: out of memory\n", stderr); abort(); }
    b->p = p;
    b->cap = cap;
}

void bb_buf_printf(bb_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    bb_buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void bb_buf_free(bb_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

const uint64_t bb_pow10[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
    10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
    1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
    10000000000000000000ULL
};

const char bb_digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char bb_digits4[40000];

__attribute__((constructor)) static void util_tables(void)
{
    for (int v = 0; v < 10000; v++) {
        bb_digits4[4 * v] = (char)('0' + v / 1000);
        bb_digits4[4 * v + 1] = (char)('0' + v / 100 % 10);
        bb_digits4[4 * v + 2] = (char)('0' + v / 10 % 10);
        bb_digits4[4 * v + 3] = (char)('0' + v % 10);
    }
}

uint64_t bb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double bb_wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void bb_sleep_until_ns(uint64_t t)
{
    struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

static void redact(char *msg, const char *pw, size_t n)
{
    if (n == 0) return;
    for (char *at = msg; (at = memmem(at, strlen(at), pw, n)); at += n) memset(at, '*', n);
}

void bb_redact_password(char *msg, const char *dsn)
{
    if (!msg || !dsn) return;
    const char *p = strstr(dsn, "://");
    if (p) { /* the password runs from the user's ':' to the '@' (the last one, as it may hold '@') */
        p += 3;
        const char *colon = strchr(p, ':'), *first = strchr(p, '@'), *last = strrchr(p, '@');
        if (colon && first && colon < first) redact(msg, colon + 1, (size_t)(first - colon - 1));
        if (colon && last && colon < last) redact(msg, colon + 1, (size_t)(last - colon - 1));
    }
    for (const char *k = dsn; (k = strstr(k, "password")); k += 8) {
        const char *v = k + 8;
        while (*v == ' ') v++;
        if (*v++ != '=') continue;
        while (*v == ' ') v++;
        size_t n = *v == '\'' ? strcspn(v + 1, "'") : strcspn(v, " ");
        redact(msg, *v == '\'' ? v + 1 : v, n);
    }
}

int64_t bb_parse_size(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v >= 0)) return -1;
    while (isspace((unsigned char)*end)) end++;
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 0: break;
    case 'K': mul = 1024.0; end++; break;
    case 'M': mul = 1024.0 * 1024; end++; break;
    case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 'B': break;
    default: return -1;
    }
    if (toupper((unsigned char)*end) == 'I') end++;
    if (toupper((unsigned char)*end) == 'B') end++;
    if (*end || !(v * mul < 9.0e18)) return -1; /* NaN and what int64 cannot hold */
    return (int64_t)(v * mul);
}

int64_t bb_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

int bb_parse_time(const char *s, int64_t *out)
{
    int y, mo, d, h = 0, mi = 0, se = 0;
    char *end;
    double v = strtod(s, &end);
    if (end != s && *end == 0 && !strchr(s, '-')) {
        if (!(v < 9.0e18 && v > -9.0e18)) return -1; /* epoch seconds, within int64 (not NaN) */
        *out = (int64_t)v;
        return 0;
    }
    int n = sscanf(s, "%d-%d-%d%*[ T]%d:%d:%d", &y, &mo, &d, &h, &mi, &se);
    if (n != 3 && n != 6) return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return -1;
    *out = bb_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se;
    return 0;
}
