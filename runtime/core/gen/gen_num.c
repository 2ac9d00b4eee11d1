/* gen_num.c — the kinds that make numbers: seq, int, permutation, double, decimal, bool,
 * gaussian, zipf, pareto. Each has an argument parser and a filler (gen_priv.h). */
#include "gen_priv.h"
#include "../../../base/buf.h"
#include "../../../base/digits.h"

#include <math.h>
#include <string.h>

/* An integer parameter, saturated to int64 (a double past 2^63 would not convert). */
static int64_t gen_num_i64(const gen_args *a, const char *key, int pos, double dflt)
{
    double v = gen_num(a, key, pos, dflt);
    if (!(v > -9223372036854775808.0)) return v != v ? 0 : INT64_MIN;
    return v >= 9223372036854775808.0 ? INT64_MAX : (int64_t)v;
}

/* A double-valued kind in an integer column is rounded to the nearest integer. */
static inline void gen_set_num(bb_value *v, bb_sqltype type, double d)
{
    if (type == BB_T_INT) {
        v->kind = BB_V_INT;
        v->u.i = llround(d);
    } else {
        v->kind = BB_V_DOUBLE;
        v->u.d = d;
    }
}

/* ---- seq: start + n * step ---- */

int gen_seq_parse(gen_col *c, const gen_args *a)
{
    c->a = (int64_t)gen_num(a, "start", 1, 1);
    c->b = (int64_t)gen_num(a, "step", 2, 1);
    return 0;
}

char *gen_seq_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_INT;
    v->u.i = gen_seq_value(c, n);
    return p;
}

/* ---- int and permutation: [min, max] ---- */

/* A range of up to 2^16 values is shuffled whole at compile time: exactly uniform over
 * every ordering. A small Feistel network is not: with 2-bit halves it makes only a few
 * orderings, and only even ones. Wider ranges use the keyed Feistel network. */
#define GEN_PERM_TABLE_MAX 65536
void gen_perm_compile(gen_col *c)
{
    uint64_t n = gen_span(c->a, c->b);
    if (n != 0 && n <= GEN_PERM_TABLE_MAX) {
        c->perm = bb_xmalloc(n * sizeof *c->perm);
        dist_shuffle(c->perm, (uint32_t)n, c->salt);
        return;
    }
    c->perm_bits = 2;
    while (c->perm_bits < 64 && (n == 0 || (1ULL << c->perm_bits) < n)) c->perm_bits += 2; /* even: balanced Feistel */
}

int gen_range_parse(gen_col *c, const gen_args *a)
{
    c->a = gen_num_i64(a, "min", 1, 0);
    c->b = gen_num_i64(a, "max", 2, 2147483647);
    if (c->b < c->a) return bb_usagef(a->err, "column %s: %s max < min", a->col, a->kind);
    if (c->kind == K_PERMUTATION) gen_perm_compile(c);
    return 0;
}

char *gen_int_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_INT;
    v->u.i = gen_int_value(c, gen_row_key(n));
    return p;
}

/* Feistel permutation of [0, 2^bits) keyed by key, cycle-walked into [0, span). */
static uint64_t gen_feistel(uint64_t key, unsigned bits, uint64_t i, uint64_t span)
{
    unsigned half = bits / 2;
    uint64_t mask = (half == 32) ? 0xffffffffULL : ((1ULL << half) - 1);
    do {
        uint64_t l = i >> half, rr = i & mask;
        for (int round = 0; round < 4; round++) {
            uint64_t f = gen_mix64(key ^ (rr * GEN_GOLDEN) ^ (uint64_t)round) & mask;
            uint64_t nl = rr;
            rr = l ^ f;
            l = nl;
        }
        i = (l << half) | rr;
    } while (span && i >= span);
    return i;
}

static uint64_t gen_permute(const gen_col *c, uint64_t i, uint64_t span)
{
    return gen_feistel(c->salt, (unsigned)c->perm_bits, i, span);
}

uint64_t gen_perm_keyed(uint64_t key, uint64_t i, uint64_t span)
{
    if (span <= GEN_PERM_KEYED_SHUFFLE) { /* a small network makes few orderings: a whole shuffle */
        uint32_t order[GEN_PERM_KEYED_SHUFFLE];
        dist_shuffle(order, (uint32_t)span, key);
        return order[i];
    }
    unsigned bits = 2;
    while (bits < 64 && (1ULL << bits) < span) bits += 2;
    return gen_feistel(key, bits, i, span);
}

int64_t gen_perm_at(const gen_col *c, uint64_t n)
{
    uint64_t sp = gen_span(c->a, c->b), i = sp ? n % sp : n;
    return (int64_t)((uint64_t)c->a + (c->perm ? c->perm[i] : gen_permute(c, i, sp)));
}

char *gen_perm_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_INT;
    v->u.i = gen_perm_at(c, n);
    return p;
}

/* ---- double: uniform on [min, max) ---- */

int gen_double_parse(gen_col *c, const gen_args *a)
{
    c->da = gen_num(a, "min", 1, 0);
    c->db = gen_num(a, "max", 2, 1);
    c->max_len = 32;
    return 0;
}

char *gen_double_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    gen_set_num(v, c->type, c->da + dist_unit(gen_rnd(c, n, 0)) * (c->db - c->da));
    return p;
}

/* ---- decimal: a uniform integer of hundredths (or 10^-scale), written with its point ---- */

/* Scale 2, money, the common case: constant divisors, two digits from a table. */
char *gen_money_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    char *end = gen_money_text(c, gen_row_key(n), p, &v->aux);
    v->native = BB_N_SCALED;
    v->scale = 2;
    v->kind = BB_V_TEXT;
    v->u.s = p;
    v->len = (uint32_t)(end - p);
    return end;
}

/* Only the native form: the unscaled integer and its scale, for writers that take it
 * alone (binary COPY's numeric); no text. */
char *gen_decimal_native(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_TEXT;
    v->u.s = NULL;
    v->len = 0;
    v->native = BB_N_SCALED;
    v->scale = (uint8_t)c->scale;
    v->aux = gen_int_value(c, gen_row_key(n)); /* the draw gen_money_fill's and gen_decimal_fill's */
    return p;
}

int gen_decimal_parse(gen_col *c, const gen_args *a)
{
    c->scale = (int)gen_num(a, "scale", 3, 2);
    if (c->scale < 0 || c->scale > 18) return bb_usagef(a->err, "column %s: decimal scale must be 0..18", a->col);
    double m = pow(10, c->scale), lo = gen_num(a, "min", 1, 0) * m, hi = gen_num(a, "max", 2, 9999) * m;
    if (!(fabs(lo) < 9e18 && fabs(hi) < 9e18))
        return bb_usagef(a->err, "column %s: decimal range too wide for its scale", a->col);
    c->a = (int64_t)llround(lo);
    c->b = (int64_t)llround(hi);
    if (c->b < c->a) return bb_usagef(a->err, "column %s: decimal max < min", a->col);
    c->max_len = 24;
    if (c->scale == 2) c->fill = gen_money_fill;
    c->fill_native = gen_decimal_native;
    c->native = BB_N_SCALED;
    return 0;
}

/* Any scale: the digits of the unscaled value, zero-padded past the scale, then the point
 * moved in. */
char *gen_decimal_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    int64_t x = gen_pick(c, gen_rnd(c, n, 0));
    int sc = c->scale;
    char *s = p;
    v->native = BB_N_SCALED;
    v->aux = x;
    v->scale = (uint8_t)sc;
    if (x < 0) {
        *p++ = '-';
        x = -x;
    }
    int nd = bb_fmt_u64(p, (uint64_t)x);
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
    v->kind = BB_V_TEXT;
    v->u.s = s;
    v->len = (uint32_t)(p - s);
    return p;
}

/* ---- bool: 1 with probability p ---- */

int gen_bool_parse(gen_col *c, const gen_args *a)
{
    c->da = gen_num(a, "p", 1, 0.5);
    if (!(c->da >= 0 && c->da <= 1)) return bb_usagef(a->err, "column %s: bool p must be in [0, 1]", a->col);
    return 0;
}

char *gen_bool_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_INT;
    v->u.i = dist_unit(gen_rnd(c, n, 0)) < c->da;
    return p;
}

/* ---- gaussian: mean, stddev ---- */

int gen_gaussian_parse(gen_col *c, const gen_args *a)
{
    c->da = gen_num(a, "mean", 1, 0);
    c->db = gen_num(a, "stddev", 2, 1);
    c->max_len = 32;
    return 0;
}

char *gen_gaussian_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    /* Box–Muller; u1 in (0, 1] keeps log finite */
    double u1 = 1.0 - dist_unit(gen_rnd(c, n, 0)), u2 = dist_unit(gen_rnd(c, n, 1));
    gen_set_num(v, c->type, c->da + c->db * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    return p;
}

/* ---- zipf: ranks min..max, exponent s ---- */

int gen_zipf_parse(gen_col *c, const gen_args *a)
{
    c->a = gen_num_i64(a, "min", 1, 1);
    c->b = gen_num_i64(a, "max", 2, 1000);
    c->da = gen_num(a, "s", 3, 1.0);
    if (c->b < c->a || !(c->da > 0 && isfinite(c->da)))
        return bb_usagef(a->err, "column %s: zipf needs min <= max and s > 0", a->col);
    if (gen_span(c->a, c->b) - 1 >= (1ULL << 53))
        return bb_usagef(a->err, "column %s: zipf ranges hold at most 2^53 values", a->col);
    dist_zipf_init(&c->zipf, gen_span(c->a, c->b), c->da);
    return 0;
}

char *gen_zipf_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_INT;
    v->u.i = (int64_t)((uint64_t)c->a + dist_zipf_draw(&c->zipf, gen_rnd(c, n, 0)) - 1);
    return p;
}

/* ---- pareto: scale, shape ---- */

int gen_pareto_parse(gen_col *c, const gen_args *a)
{
    c->da = gen_num(a, "scale", 1, 1);
    c->db = gen_num(a, "shape", 2, 1.16); /* 80/20 */
    c->max_len = 32;
    if (c->da <= 0 || c->db <= 0) return bb_usagef(a->err, "column %s: pareto needs scale > 0 and shape > 0", a->col);
    return 0;
}

char *gen_pareto_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    gen_set_num(v, c->type, c->da / pow(1.0 - dist_unit(gen_rnd(c, n, 0)), 1.0 / c->db));
    return p;
}
