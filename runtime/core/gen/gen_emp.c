/* gen_emp.c — empirical, the kind drawn from what a table already holds: the law a server's
 * statistics or a sample describe (most common values with their frequencies, and a
 * histogram for the rest), its repeats from a pool of the observed size; unique (a pattern
 * each row fills with a different number) is gen_unique.c, pick (a row of a value set, a
 * parent table's keys) gen_pick.c. `bulkbench new` writes them; each has an argument parser
 * and a filler (gen_priv.h). */
#include "gen_priv.h"
#include "../../../base/buf.h"
#include "../../../base/calendar.h"
#include "../../../base/digits.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How an empirical column's values are read and made, by its SQL type. */
enum { F_INT, F_DEC, F_DBL, F_TIME, F_DATE, F_TEXT };

struct gen_obs {
    int form;
    double p_mcv; /* the chance that a value is one of the most common ones */
    /* the most common values: their text and cumulative weights are c->items and c->cum */
    int64_t *mi;   /* as numbers (int, unscaled decimal, microseconds, days) */
    double *md;    /* as doubles */
    int64_t *excl; /* the numbers, sorted: a histogram draw of a discrete form avoids them */
    int nexcl;
    /* the histogram: nb bounds; bucket k spans bounds k and k+1, cumulative weight bcum[k] */
    int nb;
    int64_t *bi;
    double *bd;
    uint32_t *blen; /* text: the bounds' lengths, a sample of the lengths values have */
    double *bcum;
    int frac; /* time: some value has a fraction of a second */
    /* distinct = D: the histogram's values come from a pool of D (pool member j the value a
     * row keyed OBS_POOL + j would get), each member once a pass of `pass` rows, the column's
     * NULLs (`nulls` a pass) and most common values in the pass's other places, shuffled */
    uint64_t pool, pass, nulls;
};

#define OBS_POOL 0x5DEECE66DULL /* pool member j draws as the row key gen_row_key(j) + this */

static const char gen_obs_alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

void gen_obs_free(gen_col *c)
{
    struct gen_obs *o = c->obs;
    if (!o) return;
    free(o->mi);
    free(o->md);
    free(o->excl);
    free(o->bi);
    free(o->bd);
    free(o->blen);
    free(o->bcum);
    free(o);
    c->obs = NULL;
}

/* The first of n cumulative weights that passes u. */
static int gen_obs_search(const double *cum, int n, double u)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cum[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* ---- empirical: reading the values ---- */

typedef struct obs_list {
    char **s;
    uint32_t *len;
    double *w;
    int n, cap;
} obs_list;

static void obs_list_add(void *ud, const char *s, size_t len, double weight)
{
    obs_list *l = ud;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->s = bb_xrealloc(l->s, (size_t)l->cap * sizeof *l->s);
        l->len = bb_xrealloc(l->len, (size_t)l->cap * sizeof *l->len);
        l->w = bb_xrealloc(l->w, (size_t)l->cap * sizeof *l->w);
    }
    l->s[l->n] = memcpy(bb_xmalloc(len + 1), s, len);
    l->s[l->n][len] = 0;
    l->len[l->n] = (uint32_t)len;
    l->w[l->n++] = weight;
}

static void obs_list_free(obs_list *l)
{
    for (int i = 0; i < l->n; i++) free(l->s[i]);
    free(l->s);
    free(l->len);
    free(l->w);
}

static int obs_form(bb_sqltype t)
{
    switch (t) {
    case BB_T_INT: return F_INT;
    case BB_T_NUMERIC: return F_DEC;
    case BB_T_DOUBLE: return F_DBL;
    case BB_T_TIMESTAMP: return F_TIME;
    case BB_T_DATE: return F_DATE;
    default: return F_TEXT;
    }
}

/* Digits after the point of a decimal's text. */
static int obs_frac_digits(const char *s)
{
    const char *dot = strchr(s, '.');
    if (!dot) return 0;
    int k = 0;
    while (dot[1 + k] >= '0' && dot[1 + k] <= '9') k++;
    return k;
}

/* "-12.345" at scale 2 into -1235 (rounded half away from zero); -1 when not a decimal. */
static int obs_scaled(const char *s, int scale, int64_t *out)
{
    int neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    int64_t v = 0;
    int digits = 0, seen = 0, round = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        if (v > (INT64_MAX - 9) / 10) return -1;
        v = v * 10 + (*s - '0');
    }
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
            if (seen >= scale) { /* past the scale: the first digit rounds, the others are dropped */
                if (seen++ == scale) round = *s >= '5';
                continue;
            }
            if (v > (INT64_MAX - 9) / 10) return -1;
            v = v * 10 + (*s - '0');
            seen++;
        }
    if (*s || !digits) return -1;
    for (; seen < scale; seen++) {
        if (v > INT64_MAX / 10) return -1;
        v *= 10;
    }
    v += round;
    *out = neg ? -v : v;
    return 0;
}

/* One value in the column's form: its number (or double); 0, or -1 when it is not one. */
static int obs_value(int form, int scale, const char *s, uint32_t len, int64_t *i, double *d, int *frac)
{
    char *end;
    switch (form) {
    case F_INT:
        errno = 0;
        *i = strtoll(s, &end, 10);
        if (errno == ERANGE) return -1; /* beyond 64 bits (a BIGINT UNSIGNED): not clamped */
        if (end == s || *end) { /* "t"/"f" of a boolean read as an integer column */
            if (!strcmp(s, "t") || !strcmp(s, "true")) *i = 1;
            else if (!strcmp(s, "f") || !strcmp(s, "false")) *i = 0;
            else return -1;
        }
        *d = (double)*i;
        return 0;
    case F_DEC:
        if (obs_scaled(s, scale, i) < 0) return -1;
        *d = (double)*i;
        return 0;
    case F_DBL: *d = strtod(s, &end); return end == s || *end ? -1 : 0;
    case F_TIME: {
        int f;
        if (bb_parse_micros(s, len, i, &f) < 0) return -1;
        *frac |= f;
        return 0;
    }
    case F_DATE:
        if (bb_parse_micros(s, len, i, NULL) < 0) return -1;
        *i = *i >= 0 ? *i / 86400000000LL : -((-*i + 86400000000LL - 1) / 86400000000LL);
        return 0;
    }
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* A most common value's text as the column's form writes it (timestamps in UTC without an
 * offset, decimals at the column's scale), so the value a row gets is the same whichever
 * way it was drawn. */
static char *obs_canonical(const gen_col *c, int form, int64_t i, const char *s, uint32_t *len)
{
    char *out = bb_xmalloc(40 + GEN_PAD);
    switch (form) {
    case F_DEC: *len = (uint32_t)bb_fmt_scaled(out, i, c->scale); break;
    case F_TIME: {
        int64_t sec = i >= 0 ? i / 1000000 : -((-i + 999999) / 1000000);
        *len = (uint32_t)fmt_timestamp(out, sec, i - sec * 1000000, c->obs->frac ? 6 : 0);
        break;
    }
    case F_DATE: *len = (uint32_t)fmt_date(out, i); break;
    default:
        free(out);
        out = bb_xmalloc(*len + GEN_PAD);
        memcpy(out, s, *len);
        out[*len] = 0;
    }
    return out;
}

static int obs_bad(const gen_args *a, const char *what, const char *s)
{
    return bb_usagef(a->err, "column %s: %s '%.40s' is not a value of the column's type", a->col, what, s);
}

/* The most common values into c->items/cum and o->mi/md/excl. */
static int obs_mcv(gen_col *c, struct gen_obs *o, const obs_list *m, const gen_args *a)
{
    double total = 0;
    c->items = bb_xcalloc((size_t)m->n + 1, sizeof *c->items);
    c->item_len = bb_xcalloc((size_t)m->n + 1, sizeof *c->item_len);
    c->cum = bb_xcalloc((size_t)m->n + 1, sizeof *c->cum);
    o->mi = bb_xcalloc((size_t)m->n + 1, sizeof *o->mi);
    o->md = bb_xcalloc((size_t)m->n + 1, sizeof *o->md);
    o->excl = bb_xcalloc((size_t)m->n + 1, sizeof *o->excl);
    for (int k = 0; k < m->n; k++) {
        if (o->form != F_TEXT && obs_value(o->form, c->scale, m->s[k], m->len[k], &o->mi[k], &o->md[k], &o->frac) < 0)
            return obs_bad(a, "most common value", m->s[k]);
        total += m->w[k] > 0 ? m->w[k] : 0;
        c->cum[k] = total;
        c->nitems = k + 1;
    }
    for (int k = 0; k < m->n; k++) {
        uint32_t len = m->len[k];
        c->items[k] = obs_canonical(c, o->form, o->mi[k], m->s[k], &len);
        c->item_len[k] = len;
        if (len > c->max_len) c->max_len = len;
        if (!gen_clean_text(c->items[k], len)) c->clean = 0;
        c->cum[k] = total > 0 ? c->cum[k] / total : (double)(k + 1) / m->n;
        if (o->form == F_INT || o->form == F_DEC || o->form == F_DATE) o->excl[o->nexcl++] = o->mi[k];
    }
    if (m->n) c->cum[m->n - 1] = 1.0;
    qsort(o->excl, (size_t)o->nexcl, sizeof *o->excl, cmp_i64);
    return 0;
}

/* Characters of UTF-8 text: a text column's limit counts them, not bytes. */
static uint32_t obs_chars(const char *s, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++) n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* The histogram's bounds into o->bi/bd/blen and the buckets' cumulative weights. */
static int obs_bounds(gen_col *c, struct gen_obs *o, const obs_list *b, const gen_args *a)
{
    o->nb = b->n;
    o->bi = bb_xcalloc((size_t)b->n, sizeof *o->bi);
    o->bd = bb_xcalloc((size_t)b->n, sizeof *o->bd);
    o->blen = bb_xcalloc((size_t)b->n, sizeof *o->blen);
    o->bcum = bb_xcalloc((size_t)b->n, sizeof *o->bcum);
    double total = 0;
    for (int k = 0; k < b->n; k++) {
        if (o->form != F_TEXT && obs_value(o->form, c->scale, b->s[k], b->len[k], &o->bi[k], &o->bd[k], &o->frac) < 0)
            return obs_bad(a, "histogram bound", b->s[k]);
        if (k > 0 && o->form != F_TEXT && o->bd[k] < o->bd[k - 1])
            return bb_usagef(a->err, "column %s: histogram bounds must not decrease ('%.40s' after '%.40s')", a->col,
                             b->s[k], b->s[k - 1]);
        o->blen[k] = o->form == F_TEXT ? obs_chars(b->s[k], b->len[k]) : b->len[k];
        if (o->form == F_TEXT && b->len[k] > c->max_len) c->max_len = b->len[k];
        if (k > 0) o->bcum[k - 1] = total += b->w[k] > 0 ? b->w[k] : 0;
    }
    if (total <= 0) return bb_usagef(a->err, "column %s: the histogram's buckets weigh nothing", a->col);
    for (int k = 0; k + 1 < b->n; k++) o->bcum[k] /= total;
    o->bcum[b->n - 2] = 1.0;
    return 0;
}

/* A text column's lengths in place of a histogram: the rest's values are random text, each
 * as long as one of them drawn uniformly (a sample of the values' lengths, in characters). */
static int obs_lengths(gen_col *c, struct gen_obs *o, const obs_list *l, const gen_args *a)
{
    if (o->form != F_TEXT) return bb_usagef(a->err, "column %s: lengths are for text columns", a->col);
    o->nb = l->n;
    o->blen = bb_xcalloc((size_t)l->n, sizeof *o->blen);
    o->bcum = bb_xcalloc((size_t)l->n, sizeof *o->bcum);
    for (int k = 0; k < l->n; k++) {
        char *end;
        long v = strtol(l->s[k], &end, 10);
        if (end == l->s[k] || *end || v < 0 || v > (1L << 24))
            return bb_usagef(a->err, "column %s: length '%.40s' is not a whole number from 0 to 16777216", a->col,
                             l->s[k]);
        o->blen[k] = (uint32_t)v;
        if ((size_t)v > c->max_len) c->max_len = (size_t)v;
        o->bcum[k] = 1.0; /* one bucket: the length is what is drawn */
    }
    return 0;
}

/* distinct = D (a histogram's or lengths' column): the pool and its pass, NULLs in it (the
 * column's null ratio then drawn here, not apart, so each pass holds them too). */
static int obs_pool(gen_col *c, struct gen_obs *o, const gen_args *a)
{
    double d = gen_num(a, "distinct", 0, 0), z = c->null_ratio > 0 ? c->null_ratio : 0;
    if (!(d >= 0) || d > 1e15) return bb_usagef(a->err, "column %s: distinct must be a count from 1 up, not %g", a->col, d);
    double live = (1 - z) * (1 - o->p_mcv);
    if (d < 1 || o->nb < 2 || live < 1e-9) return 0;
    o->pool = (uint64_t)llround(d);
    double pass = (double)o->pool / live;
    o->pass = pass < 1e18 ? (uint64_t)llround(pass) : (uint64_t)1e18;
    if (o->pass < o->pool) o->pass = o->pool;
    o->nulls = (uint64_t)llround((double)o->pass * z);
    if (o->nulls > o->pass - o->pool || c->nitems == 0) o->nulls = o->pass - o->pool; /* no common values: the rest is NULL */
    c->null_ratio = 0;
    return 0;
}

/* bb.empirical{ mcv = {{value, weight}, ...}, rest = mass, bounds = {b0, {b1, w1}, ...}, scale }:
 * a most common value with probability sum(weights) / (sum(weights) + rest), each by its
 * weight; otherwise a histogram bucket by its weight (bucket k ends at bound k; weight 1
 * unless given: equal-depth) and a value uniform within it. A text column may give
 * lengths = {l1, l2, ...} instead of bounds: the rest is random text of those lengths.
 * distinct = D: the rest is D values, each once a pass (obs_pool), as a column of D distinct
 * values repeats them; without it every row draws afresh. */
int gen_emp_parse(gen_col *c, const gen_args *a)
{
    struct gen_obs *o = c->obs = bb_xcalloc(1, sizeof *o);
    o->form = obs_form(c->type);
    obs_list m = { 0 }, b = { 0 }, l = { 0 };
    int rc = -1;
    a->r->list(a->r->ud, "mcv", -1, obs_list_add, &m);
    a->r->list(a->r->ud, "bounds", -1, obs_list_add, &b);
    a->r->list(a->r->ud, "lengths", -1, obs_list_add, &l);
    int hist = b.n >= 2 || l.n > 0;
    double rest = gen_num(a, "rest", 0, hist ? 1 : 0), wm = 0;
    if (b.n == 1) {
        bb_usagef(a->err, "column %s: a histogram needs at least two bounds", a->col);
        goto out;
    }
    if (b.n && l.n) {
        bb_usagef(a->err, "column %s: empirical takes bounds or lengths, not both", a->col);
        goto out;
    }
    if (!hist) rest = 0;
    for (int k = 0; k < m.n; k++) wm += m.w[k] > 0 ? m.w[k] : 0;
    if (!(rest >= 0) || wm + rest <= 0) {
        bb_usagef(a->err, "column %s: empirical needs most common values (mcv) or a histogram (bounds)", a->col);
        goto out;
    }
    c->scale = (int)gen_num(a, "scale", 0, -1);
    if (c->scale < 0 && o->form == F_DEC) { /* as many digits as the values have */
        c->scale = 0;
        for (int k = 0; k < m.n; k++)
            c->scale = obs_frac_digits(m.s[k]) > c->scale ? obs_frac_digits(m.s[k]) : c->scale;
        for (int k = 0; k < b.n; k++)
            c->scale = obs_frac_digits(b.s[k]) > c->scale ? obs_frac_digits(b.s[k]) : c->scale;
    }
    if (c->scale > 18) c->scale = 18;
    c->max_len = o->form == F_TEXT ? 0 : 40;
    if ((b.n >= 2 && obs_bounds(c, o, &b, a) < 0) || (l.n && obs_lengths(c, o, &l, a) < 0) || obs_mcv(c, o, &m, a) < 0)
        goto out;
    o->p_mcv = wm / (wm + rest);
    rc = obs_pool(c, o, a);
out:
    obs_list_free(&m);
    obs_list_free(&b);
    obs_list_free(&l);
    return rc;
}

static int obs_excluded(const struct gen_obs *o, int64_t x)
{
    int lo = 0, hi = o->nexcl;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (o->excl[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo < o->nexcl && o->excl[lo] == x;
}

/* Uniform on [lo, hi] (key: the row's, gen_row_key); a discrete form redraws (a few times) a
 * value that is one of the most common, whose share the most common values' weights already
 * hold; at >= 0: the value at that share of the way (a pool member's). A bucket's discrete
 * values are [lo, hi) but for the last one, so a bound shared by two buckets is not drawn
 * twice as often as the values between. */
static int64_t obs_between(const gen_col *c, const struct gen_obs *o, uint64_t key, int k, int64_t lo, int64_t hi,
                           double at)
{
    if (k + 2 < o->nb && hi > lo) hi--;
    if (at >= 0) return (int64_t)((uint64_t)lo + (uint64_t)(at * (double)gen_span(lo, hi))); /* a pool's place */
    int64_t x = lo;
    for (uint64_t t = 1; t <= 8; t++) {
        x = (int64_t)((uint64_t)lo + dist_below(gen_rnd_key(c, key, t), gen_span(lo, hi)));
        if (!obs_excluded(o, x)) break;
    }
    return x;
}

static char *obs_put_text(bb_value *v, char *p, uint32_t len, int native, int64_t aux)
{
    v->kind = BB_V_TEXT;
    v->u.s = p;
    v->len = len;
    v->native = (uint8_t)native;
    v->aux = aux;
    return p + len;
}

/* The k-th most common value, as the column's form holds it. */
static char *obs_put_mcv(const gen_col *c, const struct gen_obs *o, int k, bb_value *v, char *p)
{
    if (o->form == F_INT) {
        v->kind = BB_V_INT;
        v->u.i = o->mi[k];
        return p;
    }
    if (o->form == F_DBL) {
        v->kind = BB_V_DOUBLE;
        v->u.d = o->md[k];
        return p;
    }
    v->kind = BB_V_TEXT;
    v->u.s = c->items[k];
    v->len = c->item_len[k];
    v->native = o->form == F_DEC ? BB_N_SCALED
        : o->form == F_TIME      ? BB_N_MICROS
        : o->form == F_DATE      ? BB_N_DAYS
                                 : 0;
    v->aux = o->mi[k];
    v->scale = (uint8_t)c->scale;
    return p;
}

/* A value of the histogram (or lengths), in the bucket ub (uniform on [0, 1)) falls on, drawn
 * with the randomness of row key `key`; a pool member's (pool > 0) at its place in the bucket
 * instead, so that members are as different as the values allow (a range of D integers: D). */
static char *obs_rest_fill(const gen_col *c, const struct gen_obs *o, uint64_t key, double ub, bb_value *v, char *p)
{
    int k = gen_obs_search(o->bcum, o->nb - 1, ub);
    double at = -1; /* the share of the bucket's way a pool member is at */
    if (o->pool && o->form != F_TEXT) {
        double lo = k > 0 ? o->bcum[k - 1] : 0, w = o->bcum[k] - lo;
        at = w > 0 ? (ub - lo) / w : 0;
        if (at >= 1) at = nextafter(1, 0);
    }
    switch (o->form) {
    case F_INT:
        v->kind = BB_V_INT;
        v->u.i = obs_between(c, o, key, k, o->bi[k], o->bi[k + 1], at);
        return p;
    case F_DBL:
        v->kind = BB_V_DOUBLE;
        v->u.d = o->bd[k] + (at >= 0 ? at : dist_unit(gen_rnd_key(c, key, 1))) * (o->bd[k + 1] - o->bd[k]);
        return p;
    case F_DEC: {
        int64_t x = obs_between(c, o, key, k, o->bi[k], o->bi[k + 1], at);
        v->scale = (uint8_t)c->scale;
        return obs_put_text(v, p, (uint32_t)bb_fmt_scaled(p, x, c->scale), BB_N_SCALED, x);
    }
    case F_DATE: {
        int64_t x = obs_between(c, o, key, k, o->bi[k], o->bi[k + 1], at);
        return obs_put_text(v, p, (uint32_t)fmt_date(p, x), BB_N_DAYS, x);
    }
    case F_TIME: {
        int64_t lo = o->bi[k], hi = o->bi[k + 1], us;
        if (o->frac) us = at >= 0 ? (int64_t)((uint64_t)lo + (uint64_t)(at * (double)gen_span(lo, hi)))
                                  : (int64_t)((uint64_t)lo + dist_below(gen_rnd_key(c, key, 1), gen_span(lo, hi)));
        else { /* whole seconds, as the values were; [lo, hi) but in the last bucket */
            int64_t s0 = lo / 1000000, s1 = hi / 1000000;
            if (k + 2 < o->nb && s1 > s0) s1--;
            uint64_t r = at >= 0 ? (uint64_t)(at * (double)gen_span(s0, s1)) : dist_below(gen_rnd_key(c, key, 1), gen_span(s0, s1));
            us = (int64_t)((uint64_t)s0 + r) * 1000000;
        }
        int64_t sec = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
        return obs_put_text(v, p, (uint32_t)fmt_timestamp(p, sec, us - sec * 1000000, o->frac ? 6 : 0), BB_N_MICROS,
                            us);
    }
    default: { /* a random string as long as a bound picked at random */
        uint32_t len = o->blen[dist_below(gen_rnd_key(c, key, 1), (uint64_t)o->nb)];
        uint64_t x = 0;
        for (uint32_t i = 0; i < len; i++) {
            if (i % 9 == 0) x = gen_rnd_key(c, key, 2 + i / 9);
            unsigned __int128 m = (unsigned __int128)x * 62;
            x = (uint64_t)m;
            p[i] = gen_obs_alnum[(uint64_t)(m >> 64)];
        }
        return obs_put_text(v, p, len, BB_N_NONE, 0);
    }
    }
}

/* distinct = D: row n's place in its pass (a shuffle of the pass's places, each pass its own):
 * one of the pool's members, a NULL, or a most common value. */
static char *obs_pool_fill(const gen_col *c, const struct gen_obs *o, uint64_t n, bb_value *v, char *p)
{
    uint64_t at = gen_perm_keyed(gen_mix64(c->salt ^ ((n / o->pass + 1) * GEN_GOLDEN)), n % o->pass, o->pass);
    if (at < o->pool) /* member `at`: at its quantile of the histogram, (at + 1/2) / pool */
        return obs_rest_fill(c, o, gen_row_key(at) + OBS_POOL, ((double)at + 0.5) / (double)o->pool, v, p);
    if (at < o->pool + o->nulls) {
        v->kind = BB_V_NULL;
        return p;
    }
    return obs_put_mcv(c, o, gen_obs_search(c->cum, c->nitems, dist_unit(gen_rnd(c, n, 0))), v, p);
}

char *gen_emp_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    const struct gen_obs *o = c->obs;
    if (o->pool) return obs_pool_fill(c, o, n, v, p);
    double u = dist_unit(gen_rnd(c, n, 0));
    if (u < o->p_mcv) return obs_put_mcv(c, o, gen_obs_search(c->cum, c->nitems, u / o->p_mcv), v, p);
    return obs_rest_fill(c, o, gen_row_key(n), (u - o->p_mcv) / (1 - o->p_mcv), v, p);
}
