/* calendar.c — dates from text and back (see calendar.h). */
#include "calendar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Reads exactly k digits at *p (advancing it); -1 when they are not there. */
static int read_digits(const char **p, const char *end, int k)
{
    int v = 0;
    for (int i = 0; i < k; i++, (*p)++) {
        if (*p >= end || **p < '0' || **p > '9') return -1;
        v = v * 10 + (**p - '0');
    }
    return v;
}

int bb_parse_micros(const char *s, size_t n, int64_t *out, int *frac)
{
    const char *p = s, *end = s + n;
    int neg = p < end && *p == '-';
    p += neg;
    const char *y0 = p;
    while (p < end && *p >= '0' && *p <= '9') p++;
    if (p - y0 < 4 || p - y0 > 6 || p >= end || *p != '-') return -1;
    int64_t y = strtoll(y0, NULL, 10) * (neg ? -1 : 1);
    p++;
    int mo = read_digits(&p, end, 2), h = 0, mi = 0, se = 0;
    if (mo < 1 || mo > 12 || p >= end || *p++ != '-') return -1;
    int d = read_digits(&p, end, 2);
    if (d < 1 || d > 31) return -1;
    int64_t us = 0, off = 0;
    if (frac) *frac = 0;
    if (p < end && (*p == ' ' || *p == 'T')) {
        p++;
        if ((h = read_digits(&p, end, 2)) < 0 || h > 24 || p >= end || *p++ != ':') return -1;
        if ((mi = read_digits(&p, end, 2)) < 0 || mi > 59) return -1;
        if (p < end && *p == ':') {
            p++;
            if ((se = read_digits(&p, end, 2)) < 0 || se > 60) return -1;
            if (p < end && *p == '.') {
                int64_t scale = 100000;
                for (p++; p < end && *p >= '0' && *p <= '9'; p++, scale /= 10) us += (*p - '0') * scale;
                if (frac) *frac = 1;
            }
        }
        if (p < end && *p == 'Z') p++;
        else if (p < end && (*p == '+' || *p == '-')) {
            int sign = *p++ == '-' ? -1 : 1, oh = read_digits(&p, end, 2), om = 0;
            if (oh < 0) return -1;
            if (p < end && *p == ':') p++;
            if (p < end && (om = read_digits(&p, end, 2)) < 0) return -1;
            off = sign * ((int64_t)oh * 3600 + om * 60);
        }
    }
    if (p != end || y < -290000 || y > 290000) return -1;
    int64_t sec = bb_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se - off;
    *out = sec * 1000000 + us;
    return 0;
}
