/* gen_json.c — json: a JSON document per row, its shape fixed and its values drawn by
 * generators of their own (bb.json { key = generator or nested table, ... }, bb.array for
 * arrays of a drawn length). The library walks the script's table into a program of tokens
 * and a list of generators (lua/bulkbench.lua); here the tokens become a tree once, and each
 * row writes the tree. JSON's escaping is jansson's: a string is copied between its quotes
 * only when it holds nothing JSON escapes. */
#include "gen_priv.h"
#include "../../../base/buf.h"
#include "../../../base/dtoa.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_BYTES (16u << 20) /* a document past this is a mistake in the shape, said at once */

typedef enum { J_LIT, J_LEAF, J_OBJ, J_ARR, J_DRAWN } jop;

typedef struct jnode {
    uint8_t op;   /* jop */
    int n;        /* J_OBJ, J_ARR: members; J_DRAWN: 1, its element */
    struct jnode *kids;
    char **keys; /* J_OBJ: each member's "key": as JSON writes it */
    uint32_t *key_len;
    char *lit; /* J_LIT: its JSON text */
    uint32_t lit_len;
    gen_col *leaf;        /* J_LEAF */
    int64_t min, max;     /* J_DRAWN: its length, uniform on min..max */
    uint64_t salt;        /* J_DRAWN: the length's draw */
    size_t bound;         /* most bytes of JSON the node writes */
} jnode;

struct gen_json {
    jnode root;
    gen_col *leaves;
    int nleaves;
    void (*free_col)(gen_col *c); /* gen.c's (gen_args.free_col) */
    size_t tmp; /* where leaves write their text before it is escaped: after the document's bound */
};

/* ---- compiling ---- */

typedef struct jparse {
    char **tok;
    int ntok, at, leaf;
    gen_col *c;
    struct gen_json *j;
    const gen_args *a;
} jparse;

static void tok_add(void *ud, const char *s, size_t len, double w)
{
    (void)w;
    jparse *p = ud;
    p->tok = bb_xrealloc(p->tok, sizeof *p->tok * (size_t)(p->ntok + 1));
    p->tok[p->ntok] = memcpy(bb_xmalloc(len + 1), s, len);
    p->tok[p->ntok++][len] = 0;
}

/* JSON text of a string (with its quotes) by jansson, fresh; its length in *len. */
static char *json_text(const char *s, size_t n, uint32_t *len)
{
    json_t *v = json_stringn(s, n);
    char *out = v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
    json_decref(v);
    *len = out ? (uint32_t)strlen(out) : 0;
    return out;
}

/* A leaf: the generator's own arguments, and `null` (a share of JSON nulls) besides. */
static int leaf_parse(void *acc, const gen_reader *r, const char *kind, bb_err *err)
{
    jparse *p = acc;
    gen_col *leaf = &p->j->leaves[p->leaf];
    memset(leaf, 0, sizeof *leaf);
    leaf->salt = gen_mix64(p->c->salt ^ gen_mix64((uint64_t)(p->leaf + 1) * 0xD1B54A32D192ED03ULL));
    leaf->type = BB_T_TEXT;
    leaf->clean = 1;
    gen_args a = { r, p->a->col, kind, p->a->now_s, p->a->seed, err, p->a->parse_col, p->a->free_col };
    if (r->has(r->ud, "null", 0)) leaf->null_ratio = r->num(r->ud, "null", 0, 0);
    if (!(leaf->null_ratio >= 0 && leaf->null_ratio < 1))
        return bb_usagef(err, "column %s: a null ratio in bb.json must be in [0, 1)", p->a->col);
    if (a.parse_col(leaf, kind, &a) < 0) {
        memset(leaf, 0, sizeof *leaf); /* freed by the parse: nothing left for gen_json_free */
        return -1;
    }
    p->leaf++;
    return 0;
}

static int node_parse(jparse *p, jnode *out);

/* Members (or elements) until the closing token; an object's each after its key. */
static int members_parse(jparse *p, jnode *out, const char *close)
{
    while (p->at < p->ntok && strcmp(p->tok[p->at], close) != 0) {
        out->kids = bb_xrealloc(out->kids, sizeof *out->kids * (size_t)(out->n + 1));
        if (out->op == J_OBJ) {
            const char *k = p->tok[p->at++];
            out->keys = bb_xrealloc(out->keys, sizeof *out->keys * (size_t)(out->n + 1));
            out->key_len = bb_xrealloc(out->key_len, sizeof *out->key_len * (size_t)(out->n + 1));
            uint32_t len;
            char *text = json_text(k + 2, strlen(k + 2), &len);
            if (!text) return bb_usagef(p->a->err, "column %s: bb.json key '%s' is not UTF-8", p->a->col, k + 2);
            out->keys[out->n] = bb_xmalloc(len + 2);
            memcpy(out->keys[out->n], text, len);
            out->keys[out->n][len] = ':';
            out->key_len[out->n] = len + 1;
            free(text);
        }
        memset(&out->kids[out->n], 0, sizeof *out->kids);
        if (node_parse(p, &out->kids[out->n++]) < 0) return -1;
    }
    if (p->at++ >= p->ntok) return bb_usagef(p->a->err, "column %s: bb.json's shape is cut short", p->a->col);
    return 0;
}

/* A literal: s:text (a string), n:number or b:boolean (their JSON as written). */
static int lit_parse(jparse *p, jnode *out, const char *t)
{
    out->op = J_LIT;
    if (t[0] == 's') {
        if (!(out->lit = json_text(t + 2, strlen(t + 2), &out->lit_len)))
            return bb_usagef(p->a->err, "column %s: bb.json text '%s' is not UTF-8", p->a->col, t + 2);
        return 0;
    }
    out->lit = bb_xstrdup(t + 2);
    out->lit_len = (uint32_t)strlen(t + 2);
    return 0;
}

static int node_parse(jparse *p, jnode *out)
{
    if (p->at >= p->ntok) return bb_usagef(p->a->err, "column %s: bb.json's shape is cut short", p->a->col);
    const char *t = p->tok[p->at++];
    if (strcmp(t, "g") == 0) {
        out->op = J_LEAF;
        if (p->a->r->gen_at(p->a->r->ud, "leaves", p->leaf + 1, p->a->col, leaf_parse, p, p->a->err) < 0) return -1;
        out->leaf = &p->j->leaves[p->leaf - 1];
        return 0;
    }
    if (strcmp(t, "{") == 0 || strcmp(t, "[") == 0) {
        out->op = *t == '{' ? J_OBJ : J_ARR;
        return members_parse(p, out, *t == '{' ? "}" : "]");
    }
    if (t[0] == 'A' && t[1] == ':') { /* A:min:max, the element, /A */
        out->op = J_DRAWN;
        char *end;
        out->min = strtoll(t + 2, &end, 10);
        out->max = *end == ':' ? strtoll(end + 1, NULL, 10) : -1;
        if (out->min < 0 || out->max < out->min || out->max > 100000)
            return bb_usagef(p->a->err, "column %s: bb.array needs 0 <= min <= max <= 100000", p->a->col);
        out->salt = gen_mix64(p->c->salt ^ ((uint64_t)p->at * 0x9E3779B97F4A7C15ULL));
        out->kids = bb_xcalloc(1, sizeof *out->kids);
        out->n = 1;
        if (node_parse(p, out->kids) < 0) return -1;
        if (p->at >= p->ntok || strcmp(p->tok[p->at++], "/A") != 0)
            return bb_usagef(p->a->err, "column %s: bb.array's shape is cut short", p->a->col);
        return 0;
    }
    if ((t[0] == 's' || t[0] == 'n' || t[0] == 'b') && t[1] == ':') return lit_parse(p, out, t);
    return bb_usagef(p->a->err, "column %s: bb.json's shape has '%s', which it does not know", p->a->col, t);
}

/* Most bytes a leaf writes: a string escaped (jansson writes a control byte as \u00XX), a
 * number, true, false or null. */
static size_t leaf_bound(const gen_col *c) { return c->max_len * 6 + 2 > 32 ? c->max_len * 6 + 2 : 32; }

static size_t node_bound(jnode *j, size_t *tmp)
{
    size_t b = 2;
    switch ((jop)j->op) {
    case J_LIT: b = j->lit_len; break;
    case J_LEAF:
        b = leaf_bound(j->leaf);
        if (j->leaf->max_len + GEN_PAD > *tmp) *tmp = j->leaf->max_len + GEN_PAD;
        break;
    case J_OBJ:
    case J_ARR:
        for (int i = 0; i < j->n; i++) b += (j->keys ? j->key_len[i] : 0) + node_bound(&j->kids[i], tmp) + 1;
        break;
    case J_DRAWN: b += (size_t)j->max * (node_bound(j->kids, tmp) + 1); break;
    }
    j->bound = b > JSON_MAX_BYTES ? JSON_MAX_BYTES + 1 : b;
    return j->bound;
}

int gen_json_parse(gen_col *c, const gen_args *a)
{
    struct gen_json *j = c->json = bb_xcalloc(1, sizeof *c->json);
    j->free_col = a->free_col;
    jparse p = { .c = c, .j = j, .a = a };
    int rc = a->r->list(a->r->ud, "program", -1, tok_add, &p) < 0 || p.ntok == 0 || !a->r->gen_at
                 ? bb_usagef(a->err, "column %s: json is made by bb.json { key = generator, ... } or bb.array", a->col)
                 : 0;
    for (int i = 0; rc == 0 && i < p.ntok; i++) j->nleaves += strcmp(p.tok[i], "g") == 0;
    j->leaves = bb_xcalloc((size_t)j->nleaves + 1, sizeof *j->leaves);
    a->r->has(a->r->ud, "leaves", 0); /* read through gen_at */
    if (rc == 0) rc = node_parse(&p, &j->root);
    if (rc == 0 && p.at != p.ntok) rc = bb_usagef(a->err, "column %s: bb.json's shape runs on past its end", a->col);
    for (int i = 0; i < p.ntok; i++) free(p.tok[i]);
    free(p.tok);
    if (rc < 0) return -1;
    size_t bound = node_bound(&j->root, &j->tmp);
    if (bound > JSON_MAX_BYTES)
        return bb_usagef(a->err, "column %s: a document of this shape can reach more than 16 MB (arrays too long?)",
                         a->col);
    c->max_len = bound + j->tmp;
    c->clean = 0; /* quotes and commas: every format looks */
    return 0;
}

static void node_free(jnode *j)
{
    for (int i = 0; i < j->n; i++) {
        node_free(&j->kids[i]);
        if (j->keys) free(j->keys[i]);
    }
    free(j->kids);
    free(j->keys);
    free(j->key_len);
    free(j->lit);
}

void gen_json_free(gen_col *c)
{
    if (!c->json) return;
    node_free(&c->json->root);
    for (int i = 0; i < c->json->nleaves; i++) c->json->free_col(&c->json->leaves[i]);
    free(c->json->leaves);
    free(c->json);
    c->json = NULL;
}

/* ---- writing ---- */

/* Whether JSON takes s as it is between quotes: printable ASCII but for " and \. */
static int json_plain(const char *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\') return 0;
    }
    return 1;
}

static char *put_string(char *p, const char *s, uint32_t n, size_t room)
{
    if (json_plain(s, n)) {
        *p++ = '"';
        memcpy(p, s, n);
        p[n] = '"';
        return p + n + 1;
    }
    json_t *v = json_stringn_nocheck(s, n);
    size_t k = json_dumpb(v, p, room, JSON_ENCODE_ANY);
    json_decref(v);
    return p + (k <= room ? k : 0);
}

/* A choice's value that was a number or a boolean in the script: written bare. */
static int leaf_literal(const gen_col *c, const bb_value *v)
{
    if (c->kind == K_DECIMAL) return 1;
    if (!c->item_lit) return 0;
    for (int i = 0; i < c->nitems; i++)
        if (c->items[i] == v->u.s) return c->item_lit[i];
    return 0;
}

static char *leaf_put(const gen_col *c, uint64_t row, char *p, char *tmp)
{
    if (c->null_ratio > 0 && gen_is_null(c, gen_row_key(row))) return memcpy(p, "null", 4), p + 4;
    bb_value v = { .clean = c->clean };
    c->fill(c, row, &v, tmp);
    switch (v.kind) {
    case BB_V_INT:
        if (c->kind == K_BOOL) return v.u.i ? (memcpy(p, "true", 4), p + 4) : (memcpy(p, "false", 5), p + 5);
        return p + bb_fmt_i64(p, v.u.i);
    case BB_V_DOUBLE:
        if (!isfinite(v.u.d)) return memcpy(p, "null", 4), p + 4;
        return p + bb_fmt_double(p, v.u.d);
    case BB_V_TEXT:
        if (leaf_literal(c, &v)) return memcpy(p, v.u.s, v.len), p + v.len;
        return put_string(p, v.u.s, v.len, leaf_bound(c));
    default: return memcpy(p, "null", 4), p + 4;
    }
}

static char *node_put(const jnode *j, uint64_t row, char *p, char *tmp)
{
    switch ((jop)j->op) {
    case J_LIT: memcpy(p, j->lit, j->lit_len); return p + j->lit_len;
    case J_LEAF: return leaf_put(j->leaf, row, p, tmp);
    case J_OBJ:
    case J_ARR:
        *p++ = j->op == J_OBJ ? '{' : '[';
        for (int i = 0; i < j->n; i++) {
            if (i) *p++ = ',';
            if (j->keys) p = (char *)memcpy(p, j->keys[i], j->key_len[i]) + j->key_len[i];
            p = node_put(&j->kids[i], row, p, tmp);
        }
        *p++ = j->op == J_OBJ ? '}' : ']';
        return p;
    case J_DRAWN: {
        uint64_t span = (uint64_t)(j->max - j->min) + 1, len = (uint64_t)j->min + dist_below(gen_rnd_of(j->salt + gen_row_key(row)), span);
        *p++ = '[';
        for (uint64_t i = 0; i < len; i++) { /* element i of row n: its generators' row n * (max + 1) + i */
            if (i) *p++ = ',';
            p = node_put(j->kids, row * ((uint64_t)j->max + 1) + i, p, tmp);
        }
        *p++ = ']';
        return p;
    }
    }
    return p;
}

char *gen_json_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    const struct gen_json *j = c->json;
    char *end = node_put(&j->root, n, p, p + j->root.bound);
    v->kind = BB_V_TEXT;
    v->u.s = p;
    v->len = (uint32_t)(end - p);
    return end;
}
