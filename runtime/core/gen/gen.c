/* gen.c — column generators. Every value comes from a counter-based hash of (seed, column,
 * row), so there is no generator state to share between threads and row n is the same
 * whichever thread makes it. This file holds the table of kinds and what every kind goes
 * through alike; each kind's parser and filler live in gen_num.c, gen_text.c, gen_time.c. */
#include "gen_priv.h"
#include "../../../base/buf.h"
#include "../../../base/invariant.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define GEN_KIND_NAME(name, kind, parse, fill) name,
const char *const gen_kind_names[] = { GEN_KINDS(GEN_KIND_NAME) NULL };
#undef GEN_KIND_NAME

/* Indexed by gen_kind, as gen_kind_names is. */
static const struct gen_kind_fns {
    gen_parse_fn *parse;
    gen_fill_fn *fill;
} gen_kinds[] = {
#define GEN_KIND_FNS(name, kind, parse, fill) [kind] = { parse, fill },
    GEN_KINDS(GEN_KIND_FNS)
#undef GEN_KIND_FNS
};

#define GEN_MAX_COLS 256

/* ---- compiling ---- */

bb_sqltype gen_sqltype(const char *sql)
{
    char t[64];
    size_t i = 0;
    /* the type's name, not what its brackets hold: enum('print', 'ok') is no int */
    for (; sql[i] && sql[i] != '(' && i < sizeof t - 1; i++) t[i] = (char)tolower((unsigned char)sql[i]);
    t[i] = 0;
#define HAS(s) (strstr(t, s) != NULL)
    if (HAS("enum") || HAS("json") || HAS("interval") || HAS("point")) return BB_T_TEXT;
    if (HAS("int") || HAS("serial")) return BB_T_INT;
    if (HAS("bool")) return BB_T_BOOL;
    if (HAS("dec") || HAS("numeric")) return BB_T_NUMERIC;
    if (HAS("double") || HAS("float") || HAS("real")) return BB_T_DOUBLE;
    if (HAS("timestamp") || HAS("datetime")) return BB_T_TIMESTAMP;
    if (HAS("date")) return BB_T_DATE;
    if (HAS("uuid")) return BB_T_UUID;
    if (HAS("bytea") || HAS("blob") || HAS("binary") || HAS("bytes")) return BB_T_BYTES;
#undef HAS
    return BB_T_TEXT;
}

gen_table *gen_new(const char *name, uint64_t seed, int64_t now_s)
{
    gen_table *t = bb_xcalloc(1, sizeof *t);
    t->name = bb_xstrdup(name);
    t->seed = seed;
    t->cols = bb_xcalloc(GEN_MAX_COLS, sizeof *t->cols);
    t->colnames = bb_xcalloc(GEN_MAX_COLS, sizeof *t->colnames);
    t->types = bb_xcalloc(GEN_MAX_COLS, sizeof *t->types);
    t->now_s = now_s;
    return t;
}

static void gen_col_free(gen_col *c)
{
    free(c->text);
    free(c->pairs);
    free(c->perm);
    for (int j = 0; j < c->nitems; j++) free(c->items[j]);
    free(c->items);
    free(c->item_len);
    free(c->item_lit);
    free(c->cum);
    gen_obs_free(c);
    gen_pick_free(c);
    gen_json_free(c);
    if (c->src.release) c->src.release(c->src.ud);
}

/* The kind called `name`, or -1. */
static int gen_kind_find(const char *name)
{
    for (int k = 0; gen_kind_names[k]; k++)
        if (strcmp(gen_kind_names[k], name) == 0) return k;
    return -1;
}

/* The next column of t, cleared, after the checks every column passes; NULL with err. */
static gen_col *gen_col_next(gen_table *t, const char *colname, bb_sqltype type, double null_ratio, bb_err *err)
{
    assert(!t->finished); /* a finished table is shared read-only (gen.h) */
    if (t->ncols == GEN_MAX_COLS) {
        bb_usagef(err, "table %s: more than 256 generated columns", t->name);
        return NULL;
    }
    if (null_ratio < 0 || null_ratio >= 1) {
        bb_usagef(err, "column %s: null ratio must be in [0, 1)", colname);
        return NULL;
    }
    gen_col *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->type = type;
    c->null_ratio = null_ratio;
    c->salt = gen_mix64(t->seed ^ gen_mix64((uint64_t)(t->ncols + 1) * GEN_GOLDEN));
    c->clean = 1; /* numbers, dates, UUIDs never need escaping; the text kinds' parsers look */
    return c;
}

static void gen_col_keep(gen_table *t, gen_col *c, const char *colname)
{
    c->span = gen_span(c->a, c->b);
    t->colnames[t->ncols] = bb_xstrdup(colname);
    t->types[t->ncols] = c->type;
    t->ncols++;
}

/* A column of kind `kind` (its name) read into c (cleared; its type and salt set): a table's
 * column, or a generator inside another's (json's, through gen_args.parse_col). */
static int gen_col_parse(gen_col *c, const char *kind, const gen_args *a)
{
    int k = gen_kind_find(kind);
    if (k < 0) return bb_usagef(a->err, "column %s: unknown generator '%s'", a->col, kind);
    c->kind = (gen_kind)k;
    c->fill = gen_kinds[k].fill;
    if (gen_kinds[k].parse(c, a) < 0) {
        gen_col_free(c);
        return -1;
    }
    c->span = gen_span(c->a, c->b);
    return 0;
}

int gen_add(gen_table *t, const char *colname, bb_sqltype type, const char *kind, double null_ratio,
            const gen_reader *r, bb_err *err)
{
    if (gen_kind_find(kind) < 0) return bb_usagef(err, "column %s: unknown generator '%s'", colname, kind);
    gen_col *c = gen_col_next(t, colname, type, null_ratio, err);
    if (!c) return -1;
    gen_args a = { r, colname, kind, t->now_s, t->seed, err, gen_col_parse, gen_col_free };
    if (gen_col_parse(c, kind, &a) < 0) return -1;
    gen_col_keep(t, c, colname);
    return 0;
}

/* A source's column in the row loop: nothing here (NULL until the source fills it after). */
static char *gen_source_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    (void)c, (void)n;
    v->kind = BB_V_NULL;
    return p;
}

int gen_add_source(gen_table *t, const char *colname, bb_sqltype type, double null_ratio, const gen_source *src,
                   bb_err *err)
{
    gen_col *c = gen_col_next(t, colname, type, null_ratio, err);
    if (!c) {
        if (src->release) src->release(src->ud);
        return -1;
    }
    c->kind = K_CONST; /* only for what asks a column its kind: its fill is the source's */
    c->fill = gen_source_fill;
    c->src = *src;
    c->clean = 0; /* the script's text may hold anything */
    t->bound = 1;
    gen_col_keep(t, c, colname);
    return 0;
}

void gen_finish(gen_table *t)
{
    size_t total = 0;
    for (int i = 0; i < t->ncols; i++) total += t->cols[i].max_len + 1;
    t->scratch = total;
    t->max_line = 2 * total + 32 * (size_t)t->ncols + 8 + GEN_PAD;
    t->finished = 1;
}

void gen_free(gen_table *t)
{
    if (!t) return;
    for (int i = 0; i < t->ncols; i++) {
        gen_col_free(&t->cols[i]);
        free(t->colnames[i]);
    }
    free(t->cols);
    free(t->colnames);
    free(t->schema);
    free(t->types);
    free(t->name);
    free(t);
}

gen_row *gen_row_new(const gen_table *t)
{
    assert(t->finished); /* the scratch is sized by gen_finish */
    gen_row *r = bb_xcalloc(1, sizeof *r);
    r->t = t;
    r->v = bb_xcalloc((size_t)t->ncols + 1, sizeof *r->v);
    r->scratch = bb_xmalloc(t->scratch + GEN_PAD);
    return r;
}

void gen_row_free(gen_row *r)
{
    if (!r) return;
    bb_buf_free(&r->ext);
    free(r->v);
    free(r->scratch);
    free(r);
}

/* ---- producing values ---- */

uint64_t gen_draw(uint64_t salt, uint64_t n, uint64_t k) { return gen_rnd_of(salt + gen_row_key(n) + k * 0xD1B54A32D192ED03ULL); }

/* The columns from a source, after the others: their text goes to the row's ext buffer,
 * which may move as it grows, so the values point into it once all are there. */
static int gen_fill_sources(const gen_table *t, uint64_t n, gen_row *row, bb_err *err)
{
    row->ext.len = 0;
    for (int i = 0; i < t->ncols; i++) {
        const gen_col *c = &t->cols[i];
        bb_value *v = &row->v[i];
        if (!c->src.value || (c->null_ratio > 0 && gen_is_null(c, gen_row_key(n)))) continue;
        if (c->src.value(c->src.ud, c->salt, n, v, &row->ext, err) < 0) return -1;
    }
    bb_buf_reserve(&row->ext, GEN_PAD); /* encoders read past a value's end (GEN_PAD) */
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].src.value && row->v[i].kind == BB_V_TEXT)
            row->v[i].u.s = row->ext.p + (uintptr_t)row->v[i].u.s;
    return 0;
}

/* The hot path: once per row, through every column. The NULL draw is the same for every
 * kind, so it stays here; the rest is the column's filler. */
int gen_fill(const gen_table *t, uint64_t n, gen_row *row, bb_err *err)
{
    assert(row->t == t); /* a row's scratch fits the table it was made for */
    char *p = row->scratch;
    bb_value *v = row->v;
    uint64_t key = gen_row_key(n);
    for (const gen_col *c = t->cols, *end = c + t->ncols; c < end; c++, v++) {
        if (gen_is_null(c, key)) {
            v->kind = BB_V_NULL;
            continue;
        }
        v->clean = c->clean;
        v->native = BB_N_NONE;
        p = c->fill(c, n, v, p);
    }
    assert((size_t)(p - row->scratch) <= t->scratch); /* text stays inside the row's scratch (gen.h) */
    return t->bound ? gen_fill_sources(t, n, row, err) : 0;
}
