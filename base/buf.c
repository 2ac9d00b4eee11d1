/* buf.c — allocation and growable buffers. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The one answer to out of memory: say so and stop (buf.h says why). */
static void *checked(void *p)
{
    if (!p) {
        fputs("bulkbench: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *bb_xmalloc(size_t n) { return checked(malloc(n ? n : 1)); }

void *bb_xcalloc(size_t n, size_t m) { return checked(calloc(n ? n : 1, m ? m : 1)); }

void *bb_xrealloc(void *p, size_t n) { return checked(realloc(p, n ? n : 1)); }

char *bb_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(bb_xmalloc(n), s, n);
}

char *bb_xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = memcpy(bb_xmalloc(len + 1), s, len);
    p[len] = 0;
    return p;
}

void bb_buf_grow(bb_buf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < need) cap *= 2;
    b->p = bb_xrealloc(b->p, cap);
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
