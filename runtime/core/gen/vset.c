/* vset.c — value sets and a run's registry of them (see vset.h). */
#include "vset.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../../base/buf.h"

#define VSET_PAD 64 /* readable bytes after every value: encoders copy in 16-byte strides */

struct vset {
    int ncols;
    int refs; /* atomic */
    int64_t rows, cap;
    bb_buf text;      /* every value's bytes, one after another */
    size_t *off;      /* rows * ncols offsets into text */
    uint32_t *len;    /* rows * ncols lengths */
    int64_t *ints;    /* rows * ncols: the values as integers, where column c is all integers */
    uint8_t *not_int; /* per column: some value is not a 64-bit integer */
    double *cum;      /* rows cumulative weights (last = 1) once weighed, else NULL */
    double *w;        /* rows weights as given (not normalized) once weighed, else NULL */
    int64_t keep;     /* vset_keep_rest: how many of the rows no value named keep the rest's weight (0: all) */
};

vset *vset_new(int ncols)
{
    vset *s = bb_xcalloc(1, sizeof *s);
    s->ncols = ncols < 1 ? 1 : ncols > 16 ? 16 : ncols;
    s->refs = 1;
    s->not_int = bb_xcalloc((size_t)s->ncols, 1);
    return s;
}

static int parse_i64(const char *p, size_t n, int64_t *out)
{
    char tmp[32], *end;
    if (n == 0 || n >= sizeof tmp) return -1;
    memcpy(tmp, p, n);
    tmp[n] = 0;
    errno = 0;
    long long v = strtoll(tmp, &end, 10);
    if (*end || errno) return -1;
    *out = v;
    return 0;
}

int vset_add(vset *s, const char *const *vals, const size_t *lens)
{
    for (int c = 0; c < s->ncols; c++)
        if (!vals[c]) return 0;
    if (s->rows == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        size_t n = (size_t)s->cap * (size_t)s->ncols;
        s->off = bb_xrealloc(s->off, n * sizeof *s->off);
        s->len = bb_xrealloc(s->len, n * sizeof *s->len);
        s->ints = bb_xrealloc(s->ints, n * sizeof *s->ints);
    }
    for (int c = 0; c < s->ncols; c++) {
        size_t i = (size_t)s->rows * (size_t)s->ncols + (size_t)c;
        s->off[i] = s->text.len;
        s->len[i] = (uint32_t)lens[c];
        bb_buf_put(&s->text, vals[c], lens[c]);
        bb_buf_putc(&s->text, 0);
        if (!s->not_int[c] && parse_i64(vals[c], lens[c], &s->ints[i]) < 0) s->not_int[c] = 1;
    }
    s->rows++;
    return 1;
}

static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

/* The bucket of h that x falls in, or -1 outside them all. */
static int hist_bucket(const vset_hist *h, int64_t x)
{
    if (x < h->bounds[0] || x > h->bounds[h->n - 1]) return -1;
    int lo = 0, hi = h->n - 2; /* the last bucket whose lower bound is <= x */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (h->bounds[mid] <= x) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* rest shared by the rows no most common value matched (wt[r] == 0 and not matched): by the
 * bucket of h each falls in, each bucket's weight split among its rows. 0, or -1 when no row
 * falls in a bucket (then the caller shares rest equally). */
static int weigh_hist(vset *s, const vset_hist *h, const uint8_t *matched, double *wt, double rest)
{
    int nb = h->n - 1;
    int64_t *count = bb_xcalloc((size_t)nb, sizeof *count), in = 0;
    double bw = 0;
    for (int k = 0; k < nb; k++) bw += h->w ? (h->w[k] > 0 ? h->w[k] : 0) : 1;
    for (int64_t r = 0; r < s->rows; r++) {
        int k = matched[r] ? -1 : hist_bucket(h, vset_int(s, r, 0));
        if (k >= 0) count[k]++, in++;
    }
    if (in > 0 && bw > 0)
        for (int64_t r = 0; r < s->rows; r++) {
            int k = matched[r] ? -1 : hist_bucket(h, vset_int(s, r, 0));
            if (k >= 0) wt[r] += rest * (h->w ? (h->w[k] > 0 ? h->w[k] : 0) : 1) / bw / (double)count[k];
        }
    free(count);
    return in > 0 && bw > 0 ? 0 : -1;
}

void vset_keep_rest(vset *s, int64_t q) { s->keep = q > 0 ? q : 0; }

typedef struct keyed_row {
    uint64_t h;
    int64_t r;
} keyed_row;

static int by_hash(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    return (x->h > y->h) - (x->h < y->h);
}

/* Of the rows no value named that weigh something, only s->keep keep their weight (a fixed
 * choice: the rows whose text hashes lowest), scaled so the rest weighs what it did. */
static void keep_rest(vset *s, const uint8_t *hit, double *wt)
{
    int64_t u = 0;
    for (int64_t r = 0; r < s->rows; r++) u += !hit[r] && wt[r] > 0;
    if (s->keep <= 0 || u <= s->keep) return;
    keyed_row *k = bb_xcalloc((size_t)u, sizeof *k);
    int64_t m = 0;
    double before = 0, after = 0;
    for (int64_t r = 0; r < s->rows; r++)
        if (!hit[r] && wt[r] > 0) {
            uint32_t len;
            const char *t = vset_text(s, r, 0, &len);
            k[m++] = (keyed_row){ hash_bytes(t, len) * 0x9E3779B97F4A7C15ULL + (uint64_t)r, r };
            before += wt[k[m - 1].r];
        }
    qsort(k, (size_t)m, sizeof *k, by_hash);
    for (int64_t i = s->keep; i < m; i++) wt[k[i].r] = 0;
    for (int64_t i = 0; i < s->keep; i++) after += wt[k[i].r];
    for (int64_t i = 0; i < s->keep && after > 0; i++) wt[k[i].r] *= before / after;
    free(k);
}

int vset_weigh(vset *s, const char *const *vals, const size_t *lens, const double *w, int n, double rest,
               const vset_hist *h)
{
    if (s->rows == 0) return 0;
    /* open addressing over the first column: row + 1, 0 = empty */
    size_t cap = 16;
    while (cap < (size_t)s->rows * 2) cap *= 2;
    int64_t *slot = bb_xcalloc(cap, sizeof *slot);
    for (int64_t r = 0; r < s->rows; r++) {
        uint32_t len;
        const char *t = vset_text(s, r, 0, &len);
        size_t h = hash_bytes(t, len) & (cap - 1);
        while (slot[h]) h = (h + 1) & (cap - 1);
        slot[h] = r + 1;
    }
    double *wt = bb_xcalloc((size_t)s->rows, sizeof *wt);
    uint8_t *hit = bb_xcalloc((size_t)s->rows, 1);
    int matched = 0;
    for (int i = 0; i < n; i++) {
        for (size_t k = hash_bytes(vals[i], lens[i]) & (cap - 1); slot[k]; k = (k + 1) & (cap - 1)) {
            uint32_t len;
            const char *t = vset_text(s, slot[k] - 1, 0, &len);
            if (len == lens[i] && memcmp(t, vals[i], len) == 0) {
                if (w[i] > 0) wt[slot[k] - 1] += w[i];
                hit[slot[k] - 1] = 1;
                matched++;
                break;
            }
        }
    }
    free(slot);
    int64_t others = 0;
    for (int64_t r = 0; r < s->rows; r++) others += !hit[r];
    double share = rest > 0 && others > 0 ? rest / (double)others : 0, total = 0;
    if (share > 0 && h && h->n >= 2 && vset_is_int(s, 0) && weigh_hist(s, h, hit, wt, rest) == 0) share = 0;
    for (int64_t r = 0; r < s->rows; r++) wt[r] += hit[r] ? 0 : share;
    keep_rest(s, hit, wt);
    for (int64_t r = 0; r < s->rows; r++) total += wt[r];
    free(hit);
    if (total <= 0) { /* nothing weighs anything: uniform after all */
        free(wt);
        return matched;
    }
    s->w = wt;
    s->cum = bb_xmalloc((size_t)s->rows * sizeof *s->cum);
    total = 0;
    for (int64_t r = 0; r < s->rows; r++) s->cum[r] = total += wt[r];
    for (int64_t r = 0; r < s->rows; r++) s->cum[r] /= total;
    s->cum[s->rows - 1] = 1.0;
    return matched;
}

void vset_ref(vset *s)
{
    if (s) __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
}

void vset_unref(vset *s)
{
    if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
    bb_buf_free(&s->text);
    free(s->off);
    free(s->len);
    free(s->ints);
    free(s->not_int);
    free(s->cum);
    free(s->w);
    free(s);
}

int64_t vset_rows(const vset *s) { return s->rows; }
const double *vset_weights(const vset *s) { return s->w; }
int vset_cols(const vset *s) { return s->ncols; }

const char *vset_text(const vset *s, int64_t r, int c, uint32_t *len)
{
    size_t i = (size_t)r * (size_t)s->ncols + (size_t)c;
    *len = s->len[i];
    return s->text.p + s->off[i];
}

int vset_is_int(const vset *s, int c) { return s->rows > 0 && !s->not_int[c]; }
int64_t vset_int(const vset *s, int64_t r, int c) { return s->ints[(size_t)r * (size_t)s->ncols + (size_t)c]; }

int64_t vset_draw(const vset *s, double u)
{
    if (!s->cum) {
        int64_t r = (int64_t)(u * (double)s->rows);
        return r < s->rows ? r : s->rows - 1;
    }
    int64_t lo = 0, hi = s->rows - 1;
    while (lo < hi) { /* the first row whose cumulative weight passes u */
        int64_t mid = lo + (hi - lo) / 2;
        if (s->cum[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Once published a set is read by other threads: its text must have the padding now. */
static void vset_seal(vset *s)
{
    bb_buf_reserve(&s->text, VSET_PAD);
    memset(s->text.p + s->text.len, 0, VSET_PAD);
}

/* ---- the registry ---- */

struct vset_reg {
    pthread_mutex_t lock;
    int n, cap;
    char **names;
    vset **sets;
};

vset_reg *vset_reg_new(void)
{
    vset_reg *r = bb_xcalloc(1, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    return r;
}

void vset_reg_free(vset_reg *r)
{
    if (!r) return;
    for (int i = 0; i < r->n; i++) {
        free(r->names[i]);
        vset_unref(r->sets[i]);
    }
    free(r->names);
    free(r->sets);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

void vset_reg_put(vset_reg *r, const char *name, vset *s)
{
    vset_seal(s);
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->names[i], name) == 0) {
            vset_unref(r->sets[i]);
            r->sets[i] = s;
            pthread_mutex_unlock(&r->lock);
            return;
        }
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 8;
        r->names = bb_xrealloc(r->names, (size_t)r->cap * sizeof *r->names);
        r->sets = bb_xrealloc(r->sets, (size_t)r->cap * sizeof *r->sets);
    }
    r->names[r->n] = bb_xstrdup(name);
    r->sets[r->n++] = s;
    pthread_mutex_unlock(&r->lock);
}

vset *vset_reg_get(vset_reg *r, const char *name)
{
    vset *s = NULL;
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < r->n && !s; i++)
        if (strcmp(r->names[i], name) == 0) s = r->sets[i];
    vset_ref(s);
    pthread_mutex_unlock(&r->lock);
    return s;
}
