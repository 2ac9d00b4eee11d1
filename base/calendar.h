/* calendar.h — UTC dates and timestamps (proleptic Gregorian) as text, written digit by
 * digit: the generator formats one per row, so no strftime, no locale, no division loops. */
#ifndef BB_CALENDAR_H
#define BB_CALENDAR_H

#include <stddef.h>
#include <stdint.h>

/* Days since 1970-01-01 of a proleptic Gregorian date. */
int64_t bb_days_from_civil(int64_t y, unsigned m, unsigned d);
/* "YYYY-MM-DD[ HH:MM:SS]" (UTC) or epoch seconds into epoch seconds; -1 when malformed. */
int bb_parse_time(const char *s, int64_t *out);
/* "YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][Z|+HH[:MM]|-HH[:MM]]" into microseconds since the
 * epoch, UTC (an offset is taken away); *frac gets whether a fraction of a second was
 * written (NULL: not wanted). -1 when malformed or out of range. */
int bb_parse_micros(const char *s, size_t n, int64_t *out, int *frac);

static inline void civil_from_days(int64_t z, int *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

static inline void put2(char *p, int v)
{
    p[0] = (char)('0' + v / 10);
    p[1] = (char)('0' + v % 10);
}

static inline int fmt_date(char *p, int64_t days)
{
    int y, m, d;
    civil_from_days(days, &y, &m, &d);
    put2(p, y / 100);
    put2(p + 2, y % 100);
    p[4] = '-';
    put2(p + 5, m);
    p[7] = '-';
    put2(p + 8, d);
    return 10;
}

static inline int fmt_timestamp(char *p, int64_t sec, int64_t usec, int frac)
{
    int64_t days = sec >= 0 ? sec / 86400 : (sec - 86399) / 86400;
    int64_t rem = sec - days * 86400;
    fmt_date(p, days);
    p[10] = ' ';
    put2(p + 11, (int)(rem / 3600));
    p[13] = ':';
    put2(p + 14, (int)(rem / 60 % 60));
    p[16] = ':';
    put2(p + 17, (int)(rem % 60));
    if (!frac) return 19;
    p[19] = '.';
    for (int i = 5; i >= 0; i--) {
        p[20 + i] = (char)('0' + usec % 10);
        usec /= 10;
    }
    return 20 + frac;
}

#endif
