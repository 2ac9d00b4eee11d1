/* buf.c — allocation and growable buffers. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void *bb_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("bulkbench: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *bb_xcalloc(size_t n, size_t m)
{
    void *p = calloc(n ? n : 1, m ? m : 1);
    if (!p) {
        fputs("bulkbench: out of memory\n", stderr);
        abort();
    }
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
    if (!p) {
        fputs("bulkbench: out of memory\n", stderr);
        abort();
    }
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
