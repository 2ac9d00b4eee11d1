/* err.c — errors, and the masking of passwords in them. */
#define _GNU_SOURCE /* memmem */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

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

/* Every copy in text of pw (n bytes) as "***": the same mask whatever the password's length,
 * which would otherwise show. Returns a fresh string; frees text. */
static char *redact(char *text, const char *pw, size_t n)
{
    if (n == 0) return text;
    bb_buf b = { 0 };
    const char *at = text, *hit;
    while ((hit = memmem(at, strlen(at), pw, n))) {
        bb_buf_put(&b, at, (size_t)(hit - at));
        bb_buf_puts(&b, "***");
        at = hit + n;
    }
    bb_buf_puts(&b, at);
    bb_buf_putc(&b, 0);
    free(text);
    return b.p;
}

char *bb_redacted(const char *msg, const char *dsn)
{
    if (!msg) return NULL;
    char *out = bb_xstrdup(msg);
    if (!dsn) return out;
    const char *p = strstr(dsn, "://");
    if (p) { /* the password runs from the user's ':' to the '@' (the last one, as it may hold '@') */
        p += 3;
        const char *colon = strchr(p, ':'), *first = strchr(p, '@'), *last = strrchr(p, '@');
        if (colon && last && colon < last) out = redact(out, colon + 1, (size_t)(last - colon - 1));
        if (colon && first && colon < first) out = redact(out, colon + 1, (size_t)(first - colon - 1));
    }
    for (const char *k = dsn; (k = strstr(k, "password")); k += 8) {
        const char *v = k + 8;
        while (*v == ' ') v++;
        if (*v++ != '=') continue;
        while (*v == ' ') v++;
        size_t n = *v == '\'' ? strcspn(v + 1, "'") : strcspn(v, " ");
        out = redact(out, *v == '\'' ? v + 1 : v, n);
    }
    return out;
}
