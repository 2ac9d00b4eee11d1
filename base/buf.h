/* buf.h — memory that cannot fail quietly, and the growable byte buffer the hot paths
 * append into and reuse. */
#ifndef BB_BUF_H
#define BB_BUF_H

#include <stddef.h>
#include <string.h>

/* Every allocation of the tree goes through these (base/buf.c alone calls malloc and its
 * kin): out of memory aborts with one message, the one policy, since no caller has a better
 * plan and an unchecked NULL would crash later, further from the cause. */
void *bb_xmalloc(size_t n);
void *bb_xcalloc(size_t n, size_t m);
void *bb_xrealloc(void *p, size_t n);
char *bb_xstrdup(const char *s);
char *bb_xstrndup(const char *s, size_t n); /* at most n bytes of s, NUL-terminated */

/* A growable byte buffer; the hot paths append into one and reuse it. */
typedef struct bb_buf {
    char *p;
    size_t len, cap;
} bb_buf;

void bb_buf_grow(bb_buf *b, size_t need);
static inline void bb_buf_reserve(bb_buf *b, size_t extra)
{
    if (b->len + extra > b->cap) bb_buf_grow(b, b->len + extra);
}
static inline void bb_buf_put(bb_buf *b, const void *s, size_t n)
{
    bb_buf_reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}
static inline void bb_buf_putc(bb_buf *b, char c)
{
    bb_buf_reserve(b, 1);
    b->p[b->len++] = c;
}
static inline void bb_buf_puts(bb_buf *b, const char *s) { bb_buf_put(b, s, strlen(s)); }
void bb_buf_printf(bb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bb_buf_free(bb_buf *b);

#endif
