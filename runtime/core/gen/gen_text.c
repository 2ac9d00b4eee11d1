/* gen_text.c — the kinds that make text: string, blob, template, const, choice, uuid,
 * uuid7. Each has an argument parser and a filler (gen_priv.h). */
#include "gen_priv.h"
#include "../../../base/buf.h"
#include "../../../base/dtoa.h"

#include <stdlib.h>
#include <string.h>

static const char gen_alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* Free of every character some format escapes: values made only of such text can be
 * copied as they are. */
int gen_clean_text(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strchr("\t\n\r\\,\"'", s[i]) || s[i] == 0) return 0;
    return 1;
}

/* ---- string and blob: random characters of a charset ---- */

int gen_string_parse(gen_col *c, const gen_args *a)
{
    if (gen_has(a, "len", 0)) c->a = c->b = (int64_t)gen_num(a, "len", 0, 0);
    else if (c->kind == K_BLOB) c->a = c->b = (int64_t)gen_num(a, "bytes", 1, 1024);
    else {
        c->a = (int64_t)gen_num(a, "min", 1, 10);
        c->b = (int64_t)gen_num(a, "max", 2, (double)c->a);
    }
    if (c->a < 0 || c->b < c->a) return bb_usagef(a->err, "column %s: string lengths need 0 <= min <= max", a->col);
    size_t len;
    const char *s = gen_str(a, "charset", 0, &len);
    if (!s || !len) {
        s = gen_alnum;
        len = sizeof gen_alnum - 1;
    }
    c->text = memcpy(bb_xmalloc(len + 1), s, len);
    c->text[len] = 0;
    c->text_len = (uint32_t)len;
    c->clean = (uint8_t)gen_clean_text(c->text, len);
    c->max_len = (size_t)c->b;
    if (len <= 90) { /* the pair table stays within 16 KB: in L1 */
        c->pairs = bb_xmalloc(len * len * 2);
        for (size_t i = 0; i < len * len; i++) {
            c->pairs[2 * i] = s[i / len];
            c->pairs[2 * i + 1] = s[i % len];
        }
    }
    return 0;
}

/* Draws per 64-bit word for base-`base` digits, keeping the bias of the last one small. */
static inline int gen_per_word(unsigned base) { return base <= 16 ? 15 : base <= 64 ? 9 : base <= 256 ? 7 : 4; }

/* Two characters of the pair table per multiply, the next base^2 digit of x. */
static inline uint64_t gen_pair(uint64_t x, uint64_t base2, const char *pairs, char *p)
{
    unsigned __int128 m = (unsigned __int128)x * base2;
    memcpy(p, pairs + 2 * (uint64_t)(m >> 64), 2);
    return (uint64_t)m;
}

uint32_t gen_string_text(const gen_col *c, uint64_t n, char *p)
{
    uint32_t len = (uint32_t)c->a;
    if (c->b > c->a) len += (uint32_t)dist_below(gen_rnd(c, n, 1), gen_span(c->a, c->b));
    /* successive base-|charset| digits of random fractions; with a pair table two
     * characters per multiply, 4 pairs per 64-bit word so the bias stays near 1e-5 */
    const char *cs = c->text, *pairs = c->pairs; /* locals: the stores to p could alias c */
    uint64_t base = c->text_len, x = 0, k = 2;
    uint32_t i = 0;
    int left = 0;
    if (pairs) {
        uint64_t base2 = base * base;
        for (; i + 8 <= len; i += 8) { /* a whole word: 4 pairs */
            x = gen_rnd(c, n, k++);
            x = gen_pair(x, base2, pairs, p + i);
            x = gen_pair(x, base2, pairs, p + i + 2);
            x = gen_pair(x, base2, pairs, p + i + 4);
            gen_pair(x, base2, pairs, p + i + 6);
        }
        if (i + 1 < len) { /* the last 1 to 3 pairs from a word of their own */
            x = gen_rnd(c, n, k++);
            for (; i + 1 < len; i += 2) x = gen_pair(x, base2, pairs, p + i);
        }
    }
    int pw = gen_per_word((unsigned)base);
    for (; i < len; i++) {
        if (left == 0) {
            x = gen_rnd(c, n, k++);
            left = pw;
        }
        unsigned __int128 m = (unsigned __int128)x * base;
        x = (uint64_t)m;
        left--;
        p[i] = cs[(uint64_t)(m >> 64)];
    }
    return len;
}

char *gen_string_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_TEXT;
    v->u.s = p;
    v->len = gen_string_text(c, n, p);
    return p + v->len;
}

/* ---- template ('#' a digit, '@' a letter) and const: one text argument ---- */

int gen_text_parse(gen_col *c, const gen_args *a)
{
    const char *key = c->kind == K_CONST ? "value" : "pattern";
    size_t len;
    const char *s = gen_str(a, key, 1, &len);
    if (!s) return bb_usagef(a->err, "column %s: %s needs a %s", a->col, a->kind, key);
    c->text = memcpy(bb_xmalloc(len + GEN_PAD), s, len);
    c->text[len] = 0;
    c->text_len = (uint32_t)len;
    c->clean = (uint8_t)gen_clean_text(c->text, len);
    c->fixed = c->kind == K_CONST;
    c->max_len = len;
    return 0;
}

/* Successive base-`base` digits of a random fraction: ~64/log2(base) draws per 64 bits. */
typedef struct {
    uint64_t x;
    int left;
    const gen_col *c;
    uint64_t n, k;
} gen_digits;

static inline unsigned gen_next_digit(gen_digits *d, unsigned base, int per_word)
{
    if (d->left == 0) {
        d->x = gen_rnd(d->c, d->n, d->k++);
        d->left = per_word;
    }
    unsigned __int128 m = (unsigned __int128)d->x * base;
    d->x = (uint64_t)m;
    d->left--;
    return (unsigned)(m >> 64);
}

char *gen_template_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    const char *pattern = c->text; /* locals: the stores to p could alias c, so c's fields would be reloaded */
    uint32_t len = c->text_len;
    gen_digits d = { 0, 0, c, n, 2 };
    for (uint32_t i = 0; i < len; i++) {
        char ch = pattern[i];
        p[i] = ch == '#' ? (char)('0' + gen_next_digit(&d, 10, 15))
            : ch == '@'  ? (char)('a' + gen_next_digit(&d, 26, 9))
                         : ch;
    }
    v->kind = BB_V_TEXT;
    v->u.s = p;
    v->len = len;
    return p + len;
}

char *gen_const_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    (void)n;
    v->kind = BB_V_TEXT;
    v->u.s = c->text;
    v->len = c->text_len;
    return p;
}

static char *gen_const_int_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    (void)n;
    v->kind = BB_V_INT;
    v->u.i = c->a;
    return p;
}

static char *gen_const_double_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    (void)n;
    v->kind = BB_V_DOUBLE;
    v->u.d = c->da;
    return p;
}

/* Whether a column of this type takes a boolean as the number 0 or 1 (a text column takes its word). */
static int gen_takes_number(bb_sqltype t) { return t == BB_T_INT || t == BB_T_DOUBLE || t == BB_T_NUMERIC || t == BB_T_BOOL; }

/* const: any value. A number (or a boolean a number column takes) is that number, its text
 * (what the encoders would write of it) kept for the plans that copy a fixed field. */
int gen_const_parse(gen_col *c, const gen_args *a)
{
    int ty = a->r->type ? a->r->type(a->r->ud, "value", 1, 0) : GEN_ARG_STR;
    if (ty == GEN_ARG_OTHER)
        return bb_usagef(a->err, "column %s: const takes a number, a string or a boolean", a->col);
    if (ty == GEN_ARG_BOOL && !gen_takes_number(c->type)) {
        int on = gen_num(a, "value", 1, 0) != 0;
        c->text = bb_xcalloc(1, 8 + GEN_PAD);
        memcpy(c->text, on ? "true" : "false", on ? 4 : 5);
        c->text_len = on ? 4 : 5;
        c->fixed = 1;
        c->max_len = c->text_len;
        return 0;
    }
    if (ty != GEN_ARG_NUM && ty != GEN_ARG_BOOL) return gen_text_parse(c, a);
    double x = gen_num(a, "value", 1, 0);
    c->text = bb_xcalloc(1, 32 + GEN_PAD);
    if (x == (double)(int64_t)x && x > -9.2e18 && x < 9.2e18) {
        c->a = (int64_t)x;
        c->fill = gen_const_int_fill;
        c->text_len = (uint32_t)bb_fmt_i64(c->text, c->a);
    } else {
        c->da = x;
        c->fill = gen_const_double_fill;
        c->text_len = (uint32_t)bb_fmt_double(c->text, x);
    }
    c->fixed = 1;
    c->max_len = c->text_len;
    return 0;
}

/* ---- choice: one of a list, by weight ---- */

struct gen_list_acc {
    gen_col *c;
    double total;
    int cap;
    const gen_args *a;
    const char *key;
    int pos;
};

static void gen_add_item(void *ud, const char *s, size_t len, double weight)
{
    struct gen_list_acc *a = ud;
    gen_col *c = a->c;
    if (c->nitems == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 8;
        c->items = bb_xrealloc(c->items, (size_t)a->cap * sizeof *c->items);
        c->item_len = bb_xrealloc(c->item_len, (size_t)a->cap * sizeof *c->item_len);
        c->cum = bb_xrealloc(c->cum, (size_t)a->cap * sizeof *c->cum);
        if (c->item_lit) {
            c->item_lit = bb_xrealloc(c->item_lit, (size_t)a->cap);
            memset(c->item_lit + c->nitems, 0, (size_t)(a->cap - c->nitems));
        }
    }
    int ty = a->a->r->type ? a->a->r->type(a->a->r->ud, a->key, a->pos, c->nitems + 1) : GEN_ARG_STR;
    if (ty == GEN_ARG_NUM || ty == GEN_ARG_BOOL) { /* a literal, not a string: JSON writes it bare */
        if (!c->item_lit) c->item_lit = bb_xcalloc((size_t)a->cap, 1);
        c->item_lit[c->nitems] = 1;
    }
    c->items[c->nitems] = memcpy(bb_xmalloc(len + GEN_PAD), s, len);
    c->items[c->nitems][len] = 0;
    c->item_len[c->nitems] = (uint32_t)len;
    a->total += weight > 0 ? weight : 0;
    c->cum[c->nitems] = a->total;
    if (len > c->max_len) c->max_len = len;
    c->nitems++;
}

int gen_choice_items(gen_col *c, const gen_args *a, const char *key, int pos)
{
    struct gen_list_acc acc = { c, 0, 0, a, key, pos };
    if (a->r->list(a->r->ud, key, pos, gen_add_item, &acc) < 0 || c->nitems == 0 || acc.total <= 0) return -1;
    for (int i = 0; i < c->nitems; i++) c->cum[i] /= acc.total;
    c->cum[c->nitems - 1] = 1.0;
    for (int i = 0; i < c->nitems; i++)
        if (!gen_clean_text(c->items[i], c->item_len[i])) c->clean = 0;
    return 0;
}

/* The item row n draws: the first whose cumulative weight passes a uniform number. */
static int gen_choice_at(const gen_col *c, uint64_t n)
{
    double u = dist_unit(gen_rnd(c, n, 0));
    int lo = 0, hi = c->nitems - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->cum[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

char *gen_choice_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    int k = gen_choice_at(c, n);
    v->kind = BB_V_TEXT;
    v->u.s = c->items[k];
    v->len = c->item_len[k];
    return p;
}

/* choice { true, false } into a boolean column: the number 1 or 0, as bool makes */
static char *gen_choice_bool_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_INT;
    v->u.i = c->items[gen_choice_at(c, n)][0] == 't';
    return p;
}

int gen_choice_parse(gen_col *c, const gen_args *a)
{
    if (gen_choice_items(c, a, "from", 0) < 0)
        return bb_usagef(a->err, "column %s: choice needs a non-empty list of values", a->col);
    int bools = c->type == BB_T_BOOL && c->item_lit;
    for (int i = 0; bools && i < c->nitems; i++)
        bools = c->item_lit[i] && (strcmp(c->items[i], "true") == 0 || strcmp(c->items[i], "false") == 0);
    if (bools) c->fill = gen_choice_bool_fill;
    return 0;
}

/* ---- uuid (version 4, random) and uuid7 (time-ordered) ---- */

/* uuid{ distinct = D }: D different UUIDs, each once a pass of D rows in a shuffled order (a
 * column whose values repeat, as `bulkbench new` reads it); without it each row its own. */
int gen_uuid_parse(gen_col *c, const gen_args *a)
{
    double version = gen_num(a, "version", 0, c->kind == K_UUID7 ? 7 : 4); /* bb.uuid { version = 7 } is uuid7 */
    if (version != 4 && version != 7) return bb_usagef(a->err, "column %s: uuid version is 4 (random) or 7 (time-ordered)", a->col);
    if (version == 7) c->kind = K_UUID7;
    c->max_len = 36;
    c->a = a->now_s * 1000; /* v7: the run's now in ms, plus the row number */
    double d = gen_num(a, "distinct", 0, 0);
    if (!(d >= 0 && d <= 1e18)) return bb_usagef(a->err, "column %s: distinct must be a count from 1 up", a->col);
    c->b = (int64_t)(d + 0.5); /* the pool's size, 0: none */
    return 0;
}

char *gen_uuid_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t b[16];
    uint64_t r = n;
    if (c->b > 0) { /* a pool: row n draws as member `at` does, a row number past any run's */
        uint64_t d = (uint64_t)c->b;
        r = gen_perm_keyed(gen_mix64(c->salt ^ ((n / d + 1) * GEN_GOLDEN)), n % d, d) | (1ULL << 62);
    }
    uint64_t hi = gen_rnd(c, r, 0), lo = gen_rnd(c, r, 1);
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(hi >> (56 - 8 * i));
        b[8 + i] = (uint8_t)(lo >> (56 - 8 * i));
    }
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
    v->kind = BB_V_TEXT;
    v->u.s = s;
    v->len = 36;
    return p;
}
