/* gen_priv.h — what gen.c and the kinds' files (gen_num.c, gen_text.c, gen_time.c) share:
 * the list of kinds, a compiled column, and the counter-based randomness every value is
 * drawn from. */
#ifndef BB_GEN_PRIV_H
#define BB_GEN_PRIV_H

#include <stdint.h>
#include <string.h>

#include "gen.h"
#include "dist.h"
#include "../../../base/digits.h"
#include "../../../base/err.h"

/* The generator kinds, one row each: { name, enum, argument parser, value filler }. The
 * enum, gen_kind_names (one Lua constructor per name, in this order) and the dispatch
 * table are all made from it, so a new kind is one row plus its two functions. */
#define GEN_KINDS(X)                                                                                                   \
    X("seq", K_SEQ, gen_seq_parse, gen_seq_fill)                                                                       \
    X("int", K_INT, gen_range_parse, gen_int_fill)                                                                     \
    X("double", K_DOUBLE, gen_double_parse, gen_double_fill)                                                           \
    X("decimal", K_DECIMAL, gen_decimal_parse, gen_decimal_fill)                                                       \
    X("string", K_STRING, gen_string_parse, gen_string_fill)                                                           \
    X("template", K_TEMPLATE, gen_text_parse, gen_template_fill)                                                       \
    X("timestamp", K_TIMESTAMP, gen_ts_parse, gen_ts_fill)                                                             \
    X("date", K_DATE, gen_date_parse, gen_date_fill)                                                                   \
    X("bool", K_BOOL, gen_bool_parse, gen_bool_fill)                                                                   \
    X("uuid", K_UUID, gen_uuid_parse, gen_uuid_fill)                                                                   \
    X("uuid7", K_UUID7, gen_uuid_parse, gen_uuid_fill)                                                                 \
    X("choice", K_CHOICE, gen_choice_parse, gen_choice_fill)                                                           \
    X("const", K_CONST, gen_const_parse, gen_const_fill)                                                                \
    X("gaussian", K_GAUSSIAN, gen_gaussian_parse, gen_gaussian_fill)                                                   \
    X("zipf", K_ZIPF, gen_zipf_parse, gen_zipf_fill)                                                                   \
    X("pareto", K_PARETO, gen_pareto_parse, gen_pareto_fill)                                                           \
    X("permutation", K_PERMUTATION, gen_range_parse, gen_perm_fill)                                                    \
    X("blob", K_BLOB, gen_string_parse, gen_string_fill)                                                               \
    X("empirical", K_EMPIRICAL, gen_emp_parse, gen_emp_fill)                                                           \
    X("pick", K_PICK, gen_pick_parse, gen_pick_fill)                                                                   \
    X("unique", K_UNIQUE, gen_unique_parse, gen_unique_fill)                                                           \
    X("json", K_JSON, gen_json_parse, gen_json_fill)

#define GEN_KIND_ENUM(name, kind, parse, fill) kind,
typedef enum { GEN_KINDS(GEN_KIND_ENUM) K_NKINDS } gen_kind;
#undef GEN_KIND_ENUM

/* What a kind's parser reads its arguments with and names in its messages. */
typedef struct gen_args {
    const gen_reader *r;
    const char *col;  /* the column's name */
    const char *kind; /* the kind's name, as the script spelled it */
    int64_t now_s;    /* the run's "now" */
    uint64_t seed;    /* the table's seed: kinds whose columns draw together derive their salt from it */
    bb_err *err;
    /* how a kind that holds generators of its own (json) reads each of kind `kind` into a
     * cleared column (its type and salt set), and frees one: gen.c's, handed down so the
     * kinds' files never call back into it */
    int (*parse_col)(gen_col *c, const char *kind, const struct gen_args *a);
    void (*free_col)(gen_col *c);
} gen_args;

/* Reads a column's arguments into c; 0, or -1 with a usage error in a->err. It may put a
 * variant of the kind's filler in c->fill, made for the form its arguments take (a fixed
 * timestamp, money decimals), so the per-row call does not test the form again. */
typedef int gen_parse_fn(gen_col *c, const gen_args *a);
/* Sets v to column c's value in row n; text a value makes goes at p. Returns p past it. */
typedef char *gen_fill_fn(const gen_col *c, uint64_t n, bb_value *v, char *p);

#define GEN_KIND_DECLARE(name, kind, parse, fill)                                                                      \
    gen_parse_fn parse;                                                                                                \
    gen_fill_fn fill;
GEN_KINDS(GEN_KIND_DECLARE)
#undef GEN_KIND_DECLARE

struct gen_col {
    /* what gen_fill reads of every column, every row, together at the front */
    gen_fill_fn *fill;        /* the kind's filler, or the variant its parser chose */
    gen_fill_fn *fill_native; /* one that makes only the native form (no text), NULL when none */
    uint8_t native;           /* the bb_native fill_native makes */
    double null_ratio;
    uint64_t salt; /* per-column seed */
    uint8_t clean; /* every value it makes is free of characters any format escapes */
    uint8_t fixed; /* every value it makes is the text at c->text (const, a fixed timestamp) */
    gen_kind kind;
    bb_sqltype type;
    int64_t a, b;  /* int/seq/len/time ranges */
    uint64_t span; /* gen_span(a, b), made once the parser is done */
    double da, db; /* double ranges, gaussian mean/stddev, zipf exponent */
    int scale;     /* decimal digits after the point; timestamp fraction digits */
    char *text;    /* const value, template, character set, a fixed timestamp */
    uint32_t text_len;
    char **items; /* choice */
    uint32_t *item_len;
    uint8_t *item_lit; /* choice: the item was a number or a boolean, not a string (NULL: none was) */
    double *cum;       /* choice: cumulative weights, last = 1 */
    int nitems;
    uint64_t perm_bits; /* permutation: Feistel domain is 2^perm_bits */
    uint32_t *perm;     /* permutation of a short range: the whole shuffle */
    dist_zipf zipf;
    char *pairs;         /* string: every two-character combination of the charset, for two draws at once */
    size_t max_len;      /* most text bytes one value needs */
    struct gen_obs *obs; /* empirical: what it was given (gen_emp.c) */
    uint32_t lit_from;   /* unique: text from here on is literal (its suffix: '@' of an e-mail; gen_unique.c) */
    /* pick: its value sets and the order it draws their rows in (gen_pick.c) */
    struct pick_plan *pick;
    gen_source src;         /* src.value: the column's values come from there (gen_add_source) */
    struct gen_json *json;  /* json: the document's shape and its generators (gen_json.c) */
};

/* Frees what json (gen_json.c) hung on c->json. */
void gen_json_free(gen_col *c);

/* Whether text is free of every character some format escapes (gen_text.c). */
int gen_clean_text(const char *s, size_t n);
/* The list at key (pos: its position, 0 the spec's own array part; -1 by key alone) of
 * values or {value, weight} into c's items as choice draws them (gen_text.c); -1 when the
 * list is missing, empty or weighs nothing. */
int gen_choice_items(gen_col *c, const gen_args *a, const char *key, int pos);
/* Frees what gen_emp.c's kinds hung on c->obs. */
void gen_obs_free(gen_col *c);
/* A permutation of [c->a, c->b] keyed by c->salt (gen_num.c): set up once, then the value
 * at row n, every value once per span of rows. */
void gen_perm_compile(gen_col *c);
int64_t gen_perm_at(const gen_col *c, uint64_t n);
/* Position i (< span, span > 0) of a permutation of [0, span) keyed by key (gen_num.c): each key
 * its own ordering, a whole shuffle up to GEN_PERM_KEYED_SHUFFLE values, a Feistel network beyond. */
#define GEN_PERM_KEYED_SHUFFLE 64
uint64_t gen_perm_keyed(uint64_t key, uint64_t i, uint64_t span);
/* Frees what pick (gen_pick.c) hung on c->pick. */
void gen_pick_free(gen_col *c);

/* ---- argument reading ---- */

static inline int gen_has(const gen_args *a, const char *key, int pos) { return a->r->has(a->r->ud, key, pos); }
static inline double gen_num(const gen_args *a, const char *key, int pos, double dflt)
{
    return a->r->num(a->r->ud, key, pos, dflt);
}
static inline const char *gen_str(const gen_args *a, const char *key, int pos, size_t *len)
{
    return a->r->str(a->r->ud, key, pos, len);
}

/* ---- randomness ---- */

#define GEN_GOLDEN 0x9E3779B97F4A7C15ULL

static inline uint64_t gen_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The k-th random number of value (col, row n): wyrand's output function applied to a
 * counter made of (column salt, row, k). One 128-bit multiply per number. The row's part
 * of the counter (its key) is the same for every column, so a row's writer makes it once. */
static inline uint64_t gen_row_key(uint64_t n) { return n * GEN_GOLDEN + 0xa0761d6478bd642fULL; }
static inline uint64_t gen_rnd_of(uint64_t x)
{
    unsigned __int128 m = (unsigned __int128)x * (x ^ 0xe7037ed1a0b428dbULL);
    return (uint64_t)(m >> 64) ^ (uint64_t)m;
}
static inline uint64_t gen_rnd_key(const gen_col *c, uint64_t key, uint64_t k)
{
    return gen_rnd_of(c->salt + key + k * 0xD1B54A32D192ED03ULL);
}
static inline uint64_t gen_rnd(const gen_col *c, uint64_t n, uint64_t k) { return gen_rnd_key(c, gen_row_key(n), k); }

/* how many integers [a, b] holds; 0 stands for all 2^64 (which dist_below takes as such) */
static inline uint64_t gen_span(int64_t a, int64_t b) { return (uint64_t)b - (uint64_t)a + 1; }

/* uniform on [c->a, c->b], both ends, in unsigned arithmetic so the widest range cannot overflow */
static inline int64_t gen_pick(const gen_col *c, uint64_t r)
{
    return (int64_t)((uint64_t)c->a + dist_below(r, c->span));
}

/* ---- values the fillers and the encoding plans (encplan.c) share; key is gen_row_key(n) ---- */

/* Whether row n's value of c is NULL: the same draw for every kind. */
static inline int gen_is_null(const gen_col *c, uint64_t key)
{
    return c->null_ratio > 0 && dist_unit(gen_rnd_key(c, key, 1000)) < c->null_ratio;
}

static inline int64_t gen_seq_value(const gen_col *c, uint64_t n) { return c->a + (int64_t)n * c->b; }
static inline int64_t gen_int_value(const gen_col *c, uint64_t key) { return gen_pick(c, gen_rnd_key(c, key, 0)); }

/* decimal of scale 2 (money): the text of a uniform number of hundredths at p, the number
 * in *x; returns the text's end */
gen_fill_fn gen_money_fill;
static inline char *gen_money_text(const gen_col *c, uint64_t key, char *p, int64_t *x)
{
    int64_t v = gen_pick(c, gen_rnd_key(c, key, 0));
    *x = v;
    if (v < 0) {
        *p++ = '-';
        v = -v;
    }
    p += bb_fmt_u64(p, (uint64_t)v / 100);
    *p++ = '.';
    memcpy(p, bb_digits2 + 2 * ((uint64_t)v % 100), 2);
    return p + 2;
}

/* decimal: only the native form (the unscaled integer is gen_int_value's), no text */
gen_fill_fn gen_decimal_native;

/* string and blob: the characters of row n's value at p; returns how many */
uint32_t gen_string_text(const gen_col *c, uint64_t n, char *p);

#endif
