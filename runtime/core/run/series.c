/* series.c — a run's time series (see series.h). */
#include "series.h"

#include <stdlib.h>
#include <string.h>

#include "../../../base/buf.h"

void series_add(bb_series *s, const bb_interval *iv)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        bb_interval *v = bb_xmalloc(sizeof *v * (size_t)cap);
        if (s->n) memcpy(v, s->v, sizeof *v * (size_t)s->n);
        free(s->v);
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = *iv;
}

void series_move(bb_series *dst, bb_series *src)
{
    series_free(dst);
    *dst = *src;
    memset(src, 0, sizeof *src);
}

void series_free(bb_series *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}
