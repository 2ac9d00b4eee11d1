/* err.c — errors, and the masking of passwords in them. */
#define _GNU_SOURCE /* memmem */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
