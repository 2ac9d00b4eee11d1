/* gen.c — column generators. Every value comes from a counter-based hash of (seed, column,
 * row), so there is no generator state to share between threads and row n is the same
 * whichever thread makes it. */
#include "gen.h"
#include "../../base/digits.h"
#include "../../base/calendar.h"
#include "dist.h"
#include "../../base/err.h"
#include "../../base/buf.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    K_SEQ, K_INT, K_DOUBLE, K_DECIMAL, K_STRING, K_TEMPLATE, K_TIMESTAMP, K_DATE, K_BOOL, K_UUID, K_UUID7,
    K_CHOICE, K_CONST, K_GAUSSIAN, K_ZIPF, K_PARETO, K_PERMUTATION, K_BLOB, K_NKINDS
} gen_kind;

const char *const gen_kind_names[] = {
    "seq", "int", "double", "decimal", "string", "template", "timestamp", "date", "bool", "uuid", "uuid7",
    "choice", "const", "gaussian", "zipf", "pareto", "permutation", "blob", NULL
};

enum { TS_NOW, TS_FIXED, TS_RANGE, TS_INCREASING };

struct gen_col {
    gen_kind   kind;
    bb_sqltype type;
    uint64_t   salt;       /* per-column seed */
    double     null_ratio;
    int64_t    a, b;       /* int/seq/len/time ranges */
    double     da, db;     /* double ranges, gaussian mean/stddev, zipf exponent */
    int        scale;      /* decimal digits after the point; timestamp fraction digits */
    int        mode;       /* timestamp mode */
    char      *text;       /* const value, template, character set */
    uint32_t   text_len;
    char     **items;      /* choice */
    uint32_t  *item_len;
    double    *cum;        /* choice: cumulative weights, last = 1 */
    int        nitems;
    uint64_t   perm_bits;  /* permutation: Feistel domain is 2^perm_bits */
    uint32_t  *perm;       /* permutation of a short range: the whole shuffle */
    dist_zipf  zipf;
    char      *pairs;      /* string: every two-character combination of the charset, for two draws at once */
    uint8_t    clean;      /* every value it makes is free of characters any format escapes */
    size_t     max_len;    /* most text bytes one value needs */
};

/* ---- randomness ---- */

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
#define GOLDEN 0x9E3779B97F4A7C15ULL

/* The k-th random number of value (col, row n): wyrand's output function applied to a
 * counter made of (column salt, row, k). One 128-bit multiply per number. */
static inline uint64_t rnd(const gen_col *c, uint64_t n, uint64_t k)
{
    uint64_t x = c->salt + n * GOLDEN + k * 0xD1B54A32D192ED03ULL + 0xa0761d6478bd642fULL;
    unsigned __int128 m = (unsigned __int128)x * (x ^ 0xe7037ed1a0b428dbULL);
    return (uint64_t)(m >> 64) ^ (uint64_t)m;
}
static inline double unit(uint64_t r) { return dist_unit(r); }
static inline uint64_t below(uint64_t r, uint64_t range) { return dist_below(r, range); }
/* how many integers [a, b] holds; 0 stands for all 2^64 (which dist_below takes as such) */
static inline uint64_t span(int64_t a, int64_t b) { return (uint64_t)b - (uint64_t)a + 1; }
/* uniform on [c->a, c->b], both ends, in unsigned arithmetic so the widest range cannot overflow */
static inline int64_t pick(const gen_col *c, uint64_t r) { return (int64_t)((uint64_t)c->a + below(r, span(c->a, c->b))); }

/* ---- compiling ---- */

static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

bb_sqltype gen_sqltype(const char *sql)
{
    char t[64];
    size_t i = 0;
    for (; sql[i] && i < sizeof t - 1; i++) t[i] = (char)tolower((unsigned char)sql[i]);
    t[i] = 0;
#define HAS(s) (strstr(t, s) != NULL)
    if (HAS("int") || HAS("serial")) return BB_T_INT;
    if (HAS("bool")) return BB_T_BOOL;
    if (HAS("dec") || HAS("numeric")) return BB_T_NUMERIC;
    if (HAS("double") || HAS("float") || HAS("real")) return BB_T_DOUBLE;
    if (HAS("timestamp") || HAS("datetime")) return BB_T_TIMESTAMP;
    if (HAS("date")) return BB_T_DATE;
    if (HAS("uuid")) return BB_T_UUID;
    if (HAS("bytea") || HAS("blob") || HAS("binary")) return BB_T_BYTES;
#undef HAS
    return BB_T_TEXT;
}

gen_table *gen_new(const char *name, uint64_t seed, int64_t now_s)
{
    gen_table *t = bb_xcalloc(1, sizeof *t);
    t->name = bb_xstrdup(name);
    t->seed = seed;
    t->cols = bb_xcalloc(256, sizeof *t->cols);
    t->colnames = bb_xcalloc(256, sizeof *t->colnames);
    t->types = bb_xcalloc(256, sizeof *t->types);
    t->now_s = now_s;
    return t;
}

struct list_acc { gen_col *c; double total; int cap; };

static void add_item(void *ud, const char *s, size_t len, double weight)
{
    struct list_acc *a = ud;
    gen_col *c = a->c;
    if (c->nitems == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 8;
        c->items = realloc(c->items, (size_t)a->cap * sizeof *c->items);
        c->item_len = realloc(c->item_len, (size_t)a->cap * sizeof *c->item_len);
        c->cum = realloc(c->cum, (size_t)a->cap * sizeof *c->cum);
    }
    c->items[c->nitems] = memcpy(bb_xmalloc(len + GEN_PAD), s, len);
    c->items[c->nitems][len] = 0;
    c->item_len[c->nitems] = (uint32_t)len;
    a->total += weight > 0 ? weight : 0;
    c->cum[c->nitems] = a->total;
    if (len > c->max_len) c->max_len = len;
    c->nitems++;
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b < 0); }

/* An integer parameter, saturated to int64 (a double past 2^63 would not convert). */
static int64_t num_i64(const gen_reader *r, const char *key, int pos, double dflt)
{
    double v = r->num(r->ud, key, pos, dflt);
    if (!(v > -9223372036854775808.0)) return v != v ? 0 : INT64_MIN;
    return v >= 9223372036854775808.0 ? INT64_MAX : (int64_t)v;
}

/* A range of up to 2^16 values is shuffled whole at compile time: exactly uniform over
 * every ordering. A small Feistel network is not: with 2-bit halves it makes only a few
 * orderings, and only even ones. Wider ranges use the keyed Feistel network. */
#define PERM_TABLE_MAX 65536
static void perm_compile(gen_col *c)
{
    uint64_t n = span(c->a, c->b);
    if (n != 0 && n <= PERM_TABLE_MAX) {
        c->perm = bb_xmalloc(n * sizeof *c->perm);
        dist_shuffle(c->perm, (uint32_t)n, c->salt);
        return;
    }
    c->perm_bits = 2;
    while (c->perm_bits < 64 && (n == 0 || (1ULL << c->perm_bits) < n)) c->perm_bits += 2; /* even: balanced Feistel */
}

static int time_arg(const gen_reader *r, const char *key, int pos, int64_t *out, bb_err *err)
{
    size_t len;
    const char *s = r->str(r->ud, key, pos, &len);
    if (s && bb_parse_time(s, out) == 0) return 0;
    if (!s && r->has(r->ud, key, pos)) { *out = (int64_t)r->num(r->ud, key, pos, 0); return 0; }
    return bb_usagef(err, "timestamp '%s' is not 'YYYY-MM-DD[ HH:MM:SS]' or epoch seconds", s ? s : key);
}

int gen_add(gen_table *t, const char *colname, bb_sqltype type, const char *kind, double null_ratio,
            const gen_reader *r, bb_err *err)
{
    int k = 0;
    while (gen_kind_names[k] && strcmp(gen_kind_names[k], kind) != 0) k++;
    if (!gen_kind_names[k]) return bb_usagef(err, "column %s: unknown generator '%s'", colname, kind);
    if (t->ncols == 256) return bb_usagef(err, "table %s: more than 256 generated columns", t->name);
    if (null_ratio < 0 || null_ratio >= 1) return bb_usagef(err, "column %s: null ratio must be in [0, 1)", colname);

    gen_col *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->kind = (gen_kind)k;
    c->type = type;
    c->null_ratio = null_ratio;
    c->salt = mix64(t->seed ^ mix64((uint64_t)(t->ncols + 1) * GOLDEN));
    size_t len;
    const char *s;

    switch (c->kind) {
    case K_SEQ:
        c->a = (int64_t)r->num(r->ud, "start", 1, 1);
        c->b = (int64_t)r->num(r->ud, "step", 2, 1);
        break;
    case K_INT: case K_PERMUTATION:
        c->a = num_i64(r, "min", 1, 0);
        c->b = num_i64(r, "max", 2, 2147483647);
        if (c->b < c->a) return bb_usagef(err, "column %s: %s max < min", colname, kind);
        if (c->kind == K_PERMUTATION) perm_compile(c);
        break;
    case K_DOUBLE:
        c->da = r->num(r->ud, "min", 1, 0);
        c->db = r->num(r->ud, "max", 2, 1);
        c->max_len = 32;
        break;
    case K_DECIMAL: {
        c->scale = (int)r->num(r->ud, "scale", 3, 2);
        if (c->scale < 0 || c->scale > 18) return bb_usagef(err, "column %s: decimal scale must be 0..18", colname);
        double m = pow(10, c->scale), lo = r->num(r->ud, "min", 1, 0) * m, hi = r->num(r->ud, "max", 2, 9999) * m;
        if (!(fabs(lo) < 9e18 && fabs(hi) < 9e18)) return bb_usagef(err, "column %s: decimal range too wide for its scale", colname);
        c->a = (int64_t)llround(lo);
        c->b = (int64_t)llround(hi);
        if (c->b < c->a) return bb_usagef(err, "column %s: decimal max < min", colname);
        c->max_len = 24;
        break;
    }
    case K_STRING: case K_BLOB:
        if (r->has(r->ud, "len", 0)) c->a = c->b = (int64_t)r->num(r->ud, "len", 0, 0);
        else if (c->kind == K_BLOB) c->a = c->b = (int64_t)r->num(r->ud, "bytes", 1, 1024);
        else {
            c->a = (int64_t)r->num(r->ud, "min", 1, 10);
            c->b = (int64_t)r->num(r->ud, "max", 2, (double)c->a);
        }
        if (c->a < 0 || c->b < c->a) return bb_usagef(err, "column %s: string lengths need 0 <= min <= max", colname);
        s = r->str(r->ud, "charset", 0, &len);
        if (!s || !len) { s = alnum; len = sizeof alnum - 1; }
        c->text = memcpy(bb_xmalloc(len + 1), s, len);
        c->text[len] = 0;
        c->text_len = (uint32_t)len;
        c->max_len = (size_t)c->b;
        if (len <= 90) { /* the pair table stays within 16 KB: in L1 */
            c->pairs = bb_xmalloc(len * len * 2);
            for (size_t i = 0; i < len * len; i++) {
                c->pairs[2 * i] = s[i / len];
                c->pairs[2 * i + 1] = s[i % len];
            }
        }
        break;
    case K_TEMPLATE: case K_CONST:
        s = r->str(r->ud, c->kind == K_CONST ? "value" : "pattern", 1, &len);
        if (!s) return bb_usagef(err, "column %s: %s needs a %s", colname, kind, c->kind == K_CONST ? "value" : "pattern");
        c->text = memcpy(bb_xmalloc(len + GEN_PAD), s, len);
        c->text[len] = 0;
        c->text_len = (uint32_t)len;
        c->max_len = len;
        break;
    case K_TIMESTAMP:
        c->scale = r->has(r->ud, "micros", 0) && r->num(r->ud, "micros", 0, 0) ? 6 : 0;
        c->max_len = 27;
        if (r->has(r->ud, "from", 0)) {
            c->mode = TS_RANGE;
            if (time_arg(r, "from", 0, &c->a, err) || time_arg(r, "to", 0, &c->b, err)) return -1;
            if (c->b < c->a) return bb_usagef(err, "column %s: timestamp to < from", colname);
        } else if (r->has(r->ud, "start", 0)) {
            c->mode = TS_INCREASING; /* start + n*step seconds, plus up to jitter seconds */
            if (time_arg(r, "start", 0, &c->a, err)) return -1;
            c->da = r->num(r->ud, "step", 0, 1);
            c->db = r->num(r->ud, "jitter", 0, 0);
        } else if ((s = r->str(r->ud, "at", 1, &len)) && strcmp(s, "now") == 0) {
            c->mode = TS_NOW;
            c->a = t->now_s;
        } else if (r->has(r->ud, "at", 1)) {
            c->mode = TS_FIXED;
            if (time_arg(r, "at", 1, &c->a, err)) return -1;
        } else {
            c->mode = TS_NOW;
            c->a = t->now_s;
        }
        break;
    case K_DATE:
        c->max_len = 10;
        c->a = t->now_s - 365 * 86400;
        c->b = t->now_s;
        if (r->has(r->ud, "from", 1) && time_arg(r, "from", 1, &c->a, err)) return -1;
        if (r->has(r->ud, "to", 2) && time_arg(r, "to", 2, &c->b, err)) return -1;
        c->a = floor_div(c->a, 86400); c->b = floor_div(c->b, 86400); /* an instant before 1970 is on the day before */
        if (c->b < c->a) return bb_usagef(err, "column %s: date to < from", colname);
        break;
    case K_BOOL:
        c->da = r->num(r->ud, "p", 1, 0.5);
        if (!(c->da >= 0 && c->da <= 1)) return bb_usagef(err, "column %s: bool p must be in [0, 1]", colname);
        break;
    case K_UUID: case K_UUID7:
        c->max_len = 36;
        c->a = t->now_s * 1000; /* v7: the run's now in ms, plus the row number */
        break;
    case K_CHOICE: {
        struct list_acc acc = { c, 0, 0 };
        if (r->list(r->ud, "from", 0, add_item, &acc) < 0 || c->nitems == 0 || acc.total <= 0)
            return bb_usagef(err, "column %s: choice needs a non-empty list of values", colname);
        for (int i = 0; i < c->nitems; i++) c->cum[i] /= acc.total;
        c->cum[c->nitems - 1] = 1.0;
        break;
    }
    case K_GAUSSIAN:
        c->da = r->num(r->ud, "mean", 1, 0);
        c->db = r->num(r->ud, "stddev", 2, 1);
        c->max_len = 32;
        break;
    case K_ZIPF:
        c->a = num_i64(r, "min", 1, 1);
        c->b = num_i64(r, "max", 2, 1000);
        c->da = r->num(r->ud, "s", 3, 1.0);
        if (c->b < c->a || !(c->da > 0 && isfinite(c->da))) return bb_usagef(err, "column %s: zipf needs min <= max and s > 0", colname);
        if (span(c->a, c->b) - 1 >= (1ULL << 53)) return bb_usagef(err, "column %s: zipf ranges hold at most 2^53 values", colname);
        dist_zipf_init(&c->zipf, span(c->a, c->b), c->da);
        break;
    case K_PARETO:
        c->da = r->num(r->ud, "scale", 1, 1);
        c->db = r->num(r->ud, "shape", 2, 1.16); /* 80/20 */
        c->max_len = 32;
        if (c->da <= 0 || c->db <= 0) return bb_usagef(err, "column %s: pareto needs scale > 0 and shape > 0", colname);
        break;
    default: break;
    }
    t->colnames[t->ncols] = bb_xstrdup(colname);
    t->types[t->ncols] = type;
    t->ncols++;
    return 0;
}

static int clean_text(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strchr("\t\n\r\\,\"'", s[i]) || s[i] == 0) return 0;
    return 1;
}

/* Can any value of c need escaping in some format? Numbers, dates, UUIDs never do. */
static int col_clean(const gen_col *c)
{
    switch (c->kind) {
    case K_STRING: case K_BLOB: case K_CONST: return clean_text(c->text, c->text_len);
    case K_TEMPLATE: return clean_text(c->text, c->text_len);
    case K_CHOICE:
        for (int i = 0; i < c->nitems; i++)
            if (!clean_text(c->items[i], c->item_len[i])) return 0;
        return 1;
    default: return 1;
    }
}

void gen_finish(gen_table *t)
{
    for (int i = 0; i < t->ncols; i++) t->cols[i].clean = (uint8_t)col_clean(&t->cols[i]);
    for (int i = 0; i < t->ncols; i++) { /* a timestamp that never changes is formatted once */
        gen_col *c = &t->cols[i];
        if (c->kind == K_TIMESTAMP && (c->mode == TS_NOW || c->mode == TS_FIXED)) {
            c->text = bb_xmalloc(32 + GEN_PAD);
            c->text_len = (uint32_t)fmt_timestamp(c->text, c->a, 0, c->scale);
        }
    }
    size_t total = 0;
    for (int i = 0; i < t->ncols; i++) total += t->cols[i].max_len + 1;
    t->scratch = total;
    t->max_line = 2 * total + 32 * (size_t)t->ncols + 8 + GEN_PAD;
}

void gen_free(gen_table *t)
{
    if (!t) return;
    for (int i = 0; i < t->ncols; i++) {
        gen_col *c = &t->cols[i];
        free(c->text);
        free(c->pairs);
        free(c->perm);
        for (int j = 0; j < c->nitems; j++) free(c->items[j]);
        free(c->items); free(c->item_len); free(c->cum);
        free(t->colnames[i]);
    }
    free(t->cols); free(t->colnames); free(t->types); free(t->name);
    free(t);
}

gen_row *gen_row_new(const gen_table *t)
{
    gen_row *r = bb_xcalloc(1, sizeof *r);
    r->v = bb_xcalloc((size_t)t->ncols + 1, sizeof *r->v);
    r->scratch = bb_xmalloc(t->scratch + GEN_PAD);
    return r;
}

void gen_row_free(gen_row *r)
{
    if (!r) return;
    free(r->v);
    free(r->scratch);
    free(r);
}

/* ---- producing values ---- */

/* Successive base-`base` digits of a random fraction: ~64/log2(base) draws per 64 bits. */
typedef struct { uint64_t x; int left; const gen_col *c; uint64_t n, k; } digits;

static inline unsigned next_digit(digits *d, unsigned base, int per_word)
{
    if (d->left == 0) { d->x = rnd(d->c, d->n, d->k++); d->left = per_word; }
    unsigned __int128 m = (unsigned __int128)d->x * base;
    d->x = (uint64_t)m;
    d->left--;
    return (unsigned)(m >> 64);
}

static inline int per_word(unsigned base) { return base <= 16 ? 15 : base <= 64 ? 9 : base <= 256 ? 7 : 4; }

/* Feistel permutation of [0, 2^bits) keyed by the column, cycle-walked into [0, span). */
static uint64_t permute(const gen_col *c, uint64_t i, uint64_t span)
{
    unsigned half = (unsigned)(c->perm_bits / 2);
    uint64_t mask = (half == 32) ? 0xffffffffULL : ((1ULL << half) - 1);
    do {
        uint64_t l = i >> half, rr = i & mask;
        for (int round = 0; round < 4; round++) {
            uint64_t f = mix64(c->salt ^ (rr * GOLDEN) ^ (uint64_t)round) & mask;
            uint64_t nl = rr;
            rr = l ^ f;
            l = nl;
        }
        i = (l << half) | rr;
    } while (span && i >= span);
    return i;
}

static void set_num(bb_value *v, bb_sqltype type, double d)
{
    if (type == BB_T_INT) { v->kind = BB_V_INT; v->u.i = llround(d); }
    else { v->kind = BB_V_DOUBLE; v->u.d = d; }
}

void gen_fill(const gen_table *t, uint64_t n, gen_row *row)
{
    char *p = row->scratch;
    for (int ci = 0; ci < t->ncols; ci++) {
        const gen_col *c = &t->cols[ci];
        bb_value *v = &row->v[ci];
        if (c->null_ratio > 0 && unit(rnd(c, n, 1000)) < c->null_ratio) { v->kind = BB_V_NULL; continue; }
        uint64_t r0 = rnd(c, n, 0);
        v->clean = c->clean;
        v->native = BB_N_NONE;
        switch (c->kind) {
        case K_SEQ: v->kind = BB_V_INT; v->u.i = c->a + (int64_t)n * c->b; break;
        case K_INT: v->kind = BB_V_INT; v->u.i = pick(c, r0); break;
        case K_PERMUTATION: {
            uint64_t sp = span(c->a, c->b), i = sp ? n % sp : n;
            v->kind = BB_V_INT;
            v->u.i = (int64_t)((uint64_t)c->a + (c->perm ? c->perm[i] : permute(c, i, sp)));
            break;
        }
        case K_DOUBLE: set_num(v, c->type, c->da + unit(r0) * (c->db - c->da)); break;
        case K_GAUSSIAN: {
            double u1 = 1.0 - unit(r0), u2 = unit(rnd(c, n, 1)); /* Box–Muller; u1 in (0, 1] keeps log finite */
            set_num(v, c->type, c->da + c->db * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
            break;
        }
        case K_PARETO: set_num(v, c->type, c->da / pow(1.0 - unit(r0), 1.0 / c->db)); break;
        case K_ZIPF: v->kind = BB_V_INT; v->u.i = (int64_t)((uint64_t)c->a + dist_zipf_draw(&c->zipf, r0) - 1); break;
        case K_BOOL: v->kind = BB_V_INT; v->u.i = unit(r0) < c->da; break;
        case K_DECIMAL: {
            int64_t x = pick(c, r0);
            char *s = p;
            v->native = BB_N_SCALED; v->aux = x; v->scale = (uint8_t)c->scale;
            if (x < 0) { *p++ = '-'; x = -x; }
            /* the digits of the unscaled value, zero-padded past the scale, then the point moved in */
            int nd, sc = c->scale;
            if (sc == 2) { /* money: the common case, with constant divisors */
                p += bb_fmt_u64(p, (uint64_t)x / 100);
                *p++ = '.';
                memcpy(p, bb_digits2 + 2 * ((uint64_t)x % 100), 2);
                p += 2;
                v->kind = BB_V_TEXT; v->u.s = s; v->len = (uint32_t)(p - s);
                break;
            }
            nd = bb_fmt_u64(p, (uint64_t)x);
            if (sc) {
                if (nd <= sc) {
                    memmove(p + (sc + 1 - nd), p, (size_t)nd);
                    memset(p, '0', (size_t)(sc + 1 - nd));
                    nd = sc + 1;
                }
                memmove(p + nd - sc + 1, p + nd - sc, (size_t)sc);
                p[nd - sc] = '.';
                nd++;
            }
            p += nd;
            v->kind = BB_V_TEXT; v->u.s = s; v->len = (uint32_t)(p - s);
            break;
        }
        case K_STRING: case K_BLOB: {
            uint32_t len = (uint32_t)c->a;
            if (c->b > c->a) len += (uint32_t)below(rnd(c, n, 1), span(c->a, c->b));
            /* successive base-|charset| digits of random fractions, kept in registers; with a
             * pair table two characters per multiply, at most 4 pairs per 64-bit word so the
             * bias stays near 1e-5 */
            const char *cs = c->text;
            uint64_t base = c->text_len, x = 0, k = 2;
            uint32_t i = 0;
            int left = 0;
            if (c->pairs) {
                uint64_t base2 = base * base;
                for (; i + 1 < len; i += 2) {
                    if (left == 0) { x = rnd(c, n, k++); left = 4; }
                    unsigned __int128 m = (unsigned __int128)x * base2;
                    x = (uint64_t)m;
                    left--;
                    memcpy(p + i, c->pairs + 2 * (uint64_t)(m >> 64), 2);
                }
                left = 0;
            }
            int pw = per_word(c->text_len);
            for (; i < len; i++) {
                if (left == 0) { x = rnd(c, n, k++); left = pw; }
                unsigned __int128 m = (unsigned __int128)x * base;
                x = (uint64_t)m;
                left--;
                p[i] = cs[(uint64_t)(m >> 64)];
            }
            v->kind = BB_V_TEXT; v->u.s = p; v->len = len;
            p += len;
            break;
        }
        case K_TEMPLATE: {
            digits d = { 0, 0, c, n, 2 };
            for (uint32_t i = 0; i < c->text_len; i++) {
                char ch = c->text[i];
                p[i] = ch == '#' ? (char)('0' + next_digit(&d, 10, 15))
                     : ch == '@' ? (char)('a' + next_digit(&d, 26, 9)) : ch;
            }
            v->kind = BB_V_TEXT; v->u.s = p; v->len = c->text_len;
            p += c->text_len;
            break;
        }
        case K_CONST: v->kind = BB_V_TEXT; v->u.s = c->text; v->len = c->text_len; break;
        case K_CHOICE: {
            double u = unit(r0);
            int lo = 0, hi = c->nitems - 1;
            while (lo < hi) { int mid = (lo + hi) / 2; if (c->cum[mid] > u) hi = mid; else lo = mid + 1; }
            v->kind = BB_V_TEXT; v->u.s = c->items[lo]; v->len = c->item_len[lo];
            break;
        }
        case K_TIMESTAMP: {
            if (c->text) { /* now, at */
                v->kind = BB_V_TEXT; v->u.s = c->text; v->len = c->text_len;
                v->native = BB_N_MICROS; v->aux = c->a * 1000000;
                break;
            }
            int64_t sec = c->a, usec = 0;
            if (c->mode == TS_RANGE) sec = pick(c, r0);
            else if (c->mode == TS_INCREASING) {
                double at = (double)n * c->da + unit(r0) * c->db;
                sec = c->a + (int64_t)floor(at);
                usec = (int64_t)((at - floor(at)) * 1e6);
            }
            if (c->scale && c->mode == TS_RANGE) usec = (int64_t)below(rnd(c, n, 1), 1000000);
            v->kind = BB_V_TEXT; v->u.s = p; v->len = (uint32_t)fmt_timestamp(p, sec, usec, c->scale);
            v->native = BB_N_MICROS; v->aux = sec * 1000000 + (c->scale ? usec : 0);
            p += v->len;
            break;
        }
        case K_DATE:
            v->kind = BB_V_TEXT; v->u.s = p;
            v->aux = pick(c, r0);
            v->native = BB_N_DAYS;
            v->len = (uint32_t)fmt_date(p, v->aux);
            p += v->len;
            break;
        case K_UUID: case K_UUID7: {
            static const char hex[] = "0123456789abcdef";
            uint8_t b[16];
            uint64_t hi = r0, lo = rnd(c, n, 1);
            for (int i = 0; i < 8; i++) { b[i] = (uint8_t)(hi >> (56 - 8 * i)); b[8 + i] = (uint8_t)(lo >> (56 - 8 * i)); }
            if (c->kind == K_UUID7) { /* 48-bit ms timestamp: the run's now plus the row number, so v7 sorts by row */
                uint64_t ms = (uint64_t)c->a + n;
                for (int i = 0; i < 6; i++) b[i] = (uint8_t)(ms >> (40 - 8 * i));
                b[6] = (uint8_t)(0x70 | (b[6] & 0x0f));
            } else b[6] = (uint8_t)(0x40 | (b[6] & 0x0f));
            b[8] = (uint8_t)(0x80 | (b[8] & 0x3f));
            char *s = p;
            for (int i = 0; i < 16; i++) {
                if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
                *p++ = hex[b[i] >> 4];
                *p++ = hex[b[i] & 15];
            }
            v->kind = BB_V_TEXT; v->u.s = s; v->len = 36;
            break;
        }
        default: v->kind = BB_V_NULL; break;
        }
    }
}
