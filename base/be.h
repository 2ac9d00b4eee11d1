/* be.h — big-endian integers written at a pointer, as wire formats want them (PostgreSQL's
 * binary COPY); each returns the end. Byte by byte, so any host writes the same bytes (the
 * compiler makes one swapped store of them). */
#ifndef BB_BE_H
#define BB_BE_H

#include <stdint.h>

static inline char *bb_be16(char *p, uint16_t v)
{
    p[0] = (char)(v >> 8);
    p[1] = (char)v;
    return p + 2;
}

static inline char *bb_be32(char *p, uint32_t v)
{
    p[0] = (char)(v >> 24);
    p[1] = (char)(v >> 16);
    p[2] = (char)(v >> 8);
    p[3] = (char)v;
    return p + 4;
}

static inline char *bb_be64(char *p, uint64_t v) { return bb_be32(bb_be32(p, (uint32_t)(v >> 32)), (uint32_t)v); }

#endif
