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
