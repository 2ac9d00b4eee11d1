/* gen_pick.c — pick: a row of a value set (a parent table's keys, read once by the run),
 * in the order a reference needs:
 *   draw    each row by the set's weights, independently (with replacement);
 *   spread  without replacement: every row that weighs something in turn, as often as its
 *           weight says, a new shuffle each pass (references as evenly spread as the child's);
 *   unique  each row at most once, heavier rows first, shuffled among equals; with
 *           key = {set1, set2, ...} each combination of the key's sets' rows at most once
 *           (a junction table: the first set's rows by weight, each with the other sets'
 *           rows in a shuffled order of its own, so N rows are N different combinations as
 *           long as the product of the sets' sizes allows).
 * Every column that names the same sets computes the same combination for a row, so the
 * columns of one key agree. Values are a pure function of (seed, the sets, row n). */
#include "gen_priv.h"
#include "vset.h"
#include "../../../base/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PICK_KEY_MAX 16
#define PICK_EVENTS_MAX (1u << 20) /* unique over weighted groups: groups x partners events at most */
#define PICK_ROUND (1u << 16)      /* spread over weighted groups: the rows of one round of the schedule */

enum { PICK_DRAW, PICK_SPREAD, PICK_UNIQUE };

struct pick_plan {
    int mode;
    vset *set; /* the column's own set */
    int col, ints;
    int nkey, place; /* the key's sets (key[0] leads) and the column's among them */
    vset *key[PICK_KEY_MAX];
    uint64_t size[PICK_KEY_MAX];
    uint64_t partners; /* combinations of key[1..]: 1 when alone */
    uint64_t pass;     /* pass_nulls: a unique pass of the set's rows and the column's NULLs (0: none) */
    /* the leading set's rows that weigh something (NULL: all of them, in order), grouped by
     * equal weight, heaviest first: group g is rows[gstart[g] .. gstart[g + 1]) */
    int64_t *rows;
    uint64_t nrows;
    int ngroups;
    uint64_t *gstart;
    double *gw; /* a row's weight in group g */
    /* unique over several groups: event e is the k-th partner (ev_k) of every row of group ev_g,
     * in order of (k + 1/2) / weight; ev_at[e] combinations come before it */
    uint64_t nev, *ev_at;
    uint32_t *ev_g, *ev_k;
    /* spread over several groups: a round of PICK_ROUND rows gives group g q[g] of them; slot s
     * of a round is group slot_g[s]'s slot_k[s]-th */
    uint64_t *q;
    uint32_t *slot_g, *slot_k, nslot;
    uint64_t salt;
};

void gen_pick_free(gen_col *c)
{
    struct pick_plan *p = c->pick;
    if (!p) return;
    vset_unref(p->set);
    for (int i = 0; i < p->nkey; i++) vset_unref(p->key[i]);
    free(p->rows);
    free(p->gstart);
    free(p->gw);
    free(p->ev_at);
    free(p->ev_g);
    free(p->ev_k);
    free(p->q);
    free(p->slot_g);
    free(p->slot_k);
    free(p);
    c->pick = NULL;
}

static uint64_t pick_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

/* ---- the leading set's rows, grouped by weight ---- */

typedef struct weighed_row {
    double w;
    int64_t r;
} weighed_row;

static int by_weight_desc(const void *a, const void *b)
{
    const weighed_row *x = a, *y = b;
    if (x->w != y->w) return x->w < y->w ? 1 : -1;
    return (x->r > y->r) - (x->r < y->r);
}

/* One group of every row (rows NULL), or the rows that weigh something, grouped by weight. */
static void pick_groups(struct pick_plan *p, const vset *s)
{
    const double *w = vset_weights(s);
    int64_t n = vset_rows(s);
    if (!w) {
        p->nrows = (uint64_t)n;
        p->ngroups = 1;
        p->gstart = bb_xcalloc(2, sizeof *p->gstart);
        p->gstart[1] = p->nrows;
        p->gw = bb_xcalloc(1, sizeof *p->gw);
        p->gw[0] = 1;
        return;
    }
    weighed_row *all = bb_xcalloc((size_t)n, sizeof *all);
    uint64_t m = 0;
    for (int64_t r = 0; r < n; r++)
        if (w[r] > 0) all[m++] = (weighed_row){ w[r], r };
    qsort(all, (size_t)m, sizeof *all, by_weight_desc);
    p->rows = bb_xcalloc(m ? m : 1, sizeof *p->rows);
    p->gstart = bb_xcalloc(m + 2, sizeof *p->gstart);
    p->gw = bb_xcalloc(m + 1, sizeof *p->gw);
    p->nrows = m;
    int g = -1;
    for (uint64_t i = 0; i < m; i++) {
        if (g < 0 || all[i].w != p->gw[g]) {
            p->gstart[++g] = i;
            p->gw[g] = all[i].w;
        }
        p->rows[i] = all[i].r;
    }
    p->ngroups = g + 1;
    p->gstart[p->ngroups] = m;
    free(all);
}

static uint64_t group_size(const struct pick_plan *p, int g) { return p->gstart[g + 1] - p->gstart[g]; }
static int64_t group_row(const struct pick_plan *p, int g, uint64_t j)
{
    uint64_t i = p->gstart[g] + j;
    return p->rows ? p->rows[i] : (int64_t)i;
}

/* ---- events of several groups in order of (k + 1/2) / rate[g], k < limit[g] ---- */

typedef struct merge_heap {
    int *g;
    int n;
    const double *rate;
    uint64_t *k;
} merge_heap;

static int merge_before(const merge_heap *h, int a, int b)
{
    double x = ((double)h->k[a] + 0.5) * h->rate[b], y = ((double)h->k[b] + 0.5) * h->rate[a];
    return x < y || (x == y && a < b);
}

static void merge_down(merge_heap *h, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && merge_before(h, h->g[l], h->g[m])) m = l;
        if (r < h->n && merge_before(h, h->g[r], h->g[m])) m = r;
        if (m == i) return;
        int t = h->g[i];
        h->g[i] = h->g[m];
        h->g[m] = t;
        i = m;
    }
}

/* Calls each(g, k) for every event in order; groups with rate 0 or limit 0 have none. */
static void pick_merge(int ngroups, const double *rate, const uint64_t *limit, void (*each)(void *, int, uint64_t),
                       void *ud)
{
    merge_heap h = { bb_xcalloc((size_t)ngroups, sizeof(int)), 0, rate, bb_xcalloc((size_t)ngroups, sizeof(uint64_t)) };
    for (int g = 0; g < ngroups; g++)
        if (rate[g] > 0 && limit[g] > 0) h.g[h.n++] = g;
    for (int i = h.n / 2; i-- > 0;) merge_down(&h, i);
    while (h.n > 0) {
        int g = h.g[0];
        each(ud, g, h.k[g]);
        if (++h.k[g] == limit[g]) h.g[0] = h.g[--h.n];
        merge_down(&h, 0);
    }
    free(h.g);
    free(h.k);
}

static void add_event(void *ud, int g, uint64_t k)
{
    struct pick_plan *p = ud;
    p->ev_g[p->nev] = (uint32_t)g;
    p->ev_k[p->nev] = (uint32_t)k;
    p->ev_at[p->nev + 1] = p->ev_at[p->nev] + group_size(p, g);
    p->nev++;
}

static void add_slot(void *ud, int g, uint64_t k)
{
    struct pick_plan *p = ud;
    p->slot_g[p->nslot] = (uint32_t)g;
    p->slot_k[p->nslot++] = (uint32_t)k;
}

/* Several groups whose events would not fit: one group of every row that weighs something. */
static void pick_one_group(struct pick_plan *p)
{
    p->ngroups = 1;
    p->gstart[1] = p->nrows;
}

/* unique: each row of a group once with each partner, groups by weight */
static void pick_unique_plan(struct pick_plan *p)
{
    if (p->ngroups > 1 && p->partners > PICK_EVENTS_MAX / (uint64_t)p->ngroups) pick_one_group(p);
    if (p->ngroups == 1) return;
    uint64_t *limit = bb_xcalloc((size_t)p->ngroups, sizeof *limit);
    for (int g = 0; g < p->ngroups; g++) limit[g] = p->partners;
    size_t n = (size_t)p->ngroups * p->partners;
    p->ev_at = bb_xcalloc(n + 1, sizeof *p->ev_at);
    p->ev_g = bb_xcalloc(n, sizeof *p->ev_g);
    p->ev_k = bb_xcalloc(n, sizeof *p->ev_k);
    pick_merge(p->ngroups, p->gw, limit, add_event, p);
    free(limit);
}

/* spread: a round's rows apportioned among the groups by their weight (every group at least one) */
static void pick_spread_plan(struct pick_plan *p)
{
    if (p->ngroups > 1 && p->ngroups > (int)(PICK_ROUND / 4)) pick_one_group(p);
    if (p->ngroups == 1) return;
    int G = p->ngroups;
    double total = 0, *share = bb_xcalloc((size_t)G, sizeof *share), *rate = bb_xcalloc((size_t)G, sizeof *rate);
    for (int g = 0; g < G; g++) total += p->gw[g] * (double)group_size(p, g);
    p->q = bb_xcalloc((size_t)G, sizeof *p->q);
    uint64_t given = 0;
    for (int g = 0; g < G; g++) {
        share[g] = p->gw[g] * (double)group_size(p, g) / total * (PICK_ROUND - (uint64_t)G);
        p->q[g] = 1 + (uint64_t)share[g];
        share[g] -= (double)(p->q[g] - 1);
        given += p->q[g];
    }
    while (given < PICK_ROUND) { /* largest remainders */
        int best = 0;
        for (int g = 1; g < G; g++)
            if (share[g] > share[best]) best = g;
        p->q[best]++;
        share[best] = -1;
        given++;
    }
    for (int g = 0; g < G; g++) rate[g] = (double)p->q[g];
    p->slot_g = bb_xcalloc(PICK_ROUND, sizeof *p->slot_g);
    p->slot_k = bb_xcalloc(PICK_ROUND, sizeof *p->slot_k);
    pick_merge(G, rate, p->q, add_slot, p);
    free(share);
    free(rate);
}

/* ---- the row a column draws for row n ---- */

static uint64_t pick_key(const struct pick_plan *p, uint64_t a, uint64_t b)
{
    return gen_mix64(p->salt ^ gen_mix64(a * GEN_GOLDEN + b));
}

/* unique: the leading row and the index of its partners' combination for row n */
static int64_t pick_unique_at(const struct pick_plan *p, uint64_t n, uint64_t *partner)
{
    unsigned __int128 all = (unsigned __int128)p->nrows * p->partners;
    if (all && all <= UINT64_MAX) n %= (uint64_t)all;
    int g = 0;
    uint64_t k, j;
    if (p->ngroups == 1) {
        k = n / p->nrows;
        j = n % p->nrows;
    } else {
        uint64_t lo = 0, hi = p->nev - 1; /* the last event that starts at or before n */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if (p->ev_at[mid] <= n) lo = mid;
            else hi = mid - 1;
        }
        g = (int)p->ev_g[lo];
        k = p->ev_k[lo];
        j = n - p->ev_at[lo];
    }
    int64_t r = group_row(p, g, gen_perm_keyed(pick_key(p, (uint64_t)g, k), j, group_size(p, g)));
    *partner = p->partners > 1 ? gen_perm_keyed(pick_key(p, ~(uint64_t)r, 0), k % p->partners, p->partners) : 0;
    return r;
}

static int64_t pick_spread_at(const struct pick_plan *p, uint64_t n)
{
    int g = 0;
    uint64_t u = n;
    if (p->ngroups > 1) {
        uint64_t pos = n % PICK_ROUND;
        g = (int)p->slot_g[pos];
        u = n / PICK_ROUND * p->q[g] + p->slot_k[pos];
    }
    uint64_t size = group_size(p, g);
    return group_row(p, g, gen_perm_keyed(pick_key(p, (uint64_t)g, u / size), u % size, size));
}

char *gen_pick_fill(const gen_col *c, uint64_t n, bb_value *v, char *out)
{
    const struct pick_plan *p = c->pick;
    int64_t r;
    if (p->pass) { /* each row once a pass, the column's NULLs shuffled in among them */
        uint64_t i = gen_perm_keyed(pick_key(p, 0, n / p->pass), n % p->pass, p->pass);
        if (i >= p->nrows) {
            v->kind = BB_V_NULL;
            return out;
        }
        r = group_row(p, 0, i);
    } else if (p->mode == PICK_DRAW) r = vset_draw(p->set, dist_unit(gen_rnd(c, n, 0)));
    else if (p->mode == PICK_SPREAD) r = pick_spread_at(p, n);
    else {
        uint64_t x;
        r = pick_unique_at(p, n, &x);
        if (p->place > 0) { /* this column's set among the partners: its digit, in mixed radix */
            for (int i = p->nkey - 1; i > p->place; i--) x /= p->size[i];
            r = (int64_t)(x % p->size[p->place]);
        }
    }
    if (p->ints) {
        v->kind = BB_V_INT;
        v->u.i = vset_int(p->set, r, p->col);
        return out;
    }
    v->kind = BB_V_TEXT;
    v->u.s = vset_text(p->set, r, p->col, &v->len);
    return out;
}

/* ---- arguments ---- */

typedef struct name_list {
    char *s[PICK_KEY_MAX];
    int n, over;
} name_list;

static void name_add(void *ud, const char *s, size_t len, double weight)
{
    (void)weight;
    name_list *l = ud;
    if (l->n == PICK_KEY_MAX) {
        l->over = 1;
        return;
    }
    l->s[l->n] = memcpy(bb_xmalloc(len + 1), s, len);
    l->s[l->n++][len] = 0;
}

/* The key's sets into p (key[0] leads): the column's own set must be one of them. */
static int pick_key_sets(struct pick_plan *p, const gen_args *a, const char *name, name_list *names)
{
    if (names->over) return bb_usagef(a->err, "column %s: a pick key names at most %d sets", a->col, PICK_KEY_MAX);
    p->place = -1;
    for (int i = 0; i < names->n; i++) {
        p->key[i] = a->r->set_named ? a->r->set_named(a->r->ud, names->s[i]) : NULL;
        p->nkey = i + 1;
        if (!p->key[i])
            return bb_usagef(a->err, "column %s: pick key set '%s' has not been read by this run", a->col, names->s[i]);
        if (vset_rows(p->key[i]) == 0)
            return bb_usagef(a->err, "column %s: value set '%s' is empty: there is nothing to draw from", a->col,
                             names->s[i]);
        p->size[i] = (uint64_t)vset_rows(p->key[i]);
        if (strcmp(names->s[i], name) == 0 && p->place < 0) p->place = i;
    }
    if (p->place < 0) return bb_usagef(a->err, "column %s: pick key does not name its own set '%s'", a->col, name);
    return 0;
}

/* The values a file wrote down for a set stand in for it (no run read it, or it is empty):
 * one of values = {{value, weight}, ...} by weight, drawn by the set's name as the set's rows
 * are, so the columns of one set, given their values in the same order, take one row's. */
static int pick_written(gen_col *c, const gen_args *a, const char *name)
{
    if (gen_choice_items(c, a, "values", -1) < 0)
        return bb_usagef(a->err, "column %s: pick's values must be a non-empty list of {value, weight}", a->col);
    c->salt = gen_mix64(a->seed ^ gen_mix64(pick_hash(name, strlen(name))));
    c->fill = gen_choice_fill;
    return 0;
}

/* pass_nulls with unique: a pass is the set's rows and the column's share of NULLs, shuffled
 * together, so every row comes once among the values (NULLs drawn apart would leave rows out
 * and repeat others). One set, unweighted: the form `new` writes for a table's own values. */
static int pick_pass_nulls(gen_col *c, struct pick_plan *p, const gen_args *a)
{
    if (!(gen_has(a, "pass_nulls", 0) && gen_num(a, "pass_nulls", 0, 0)) || c->null_ratio <= 0) return 0;
    if (p->mode != PICK_UNIQUE || p->nkey != 1 || p->ngroups != 1)
        return bb_usagef(a->err, "column %s: pass_nulls is for a unique pick of one unweighted set", a->col);
    p->pass = (uint64_t)llround((double)p->nrows / (1 - c->null_ratio));
    if (p->pass < p->nrows) p->pass = p->nrows;
    c->null_ratio = 0;
    return 0;
}

/* A pick whose set no run has read (`bulkbench gen`): an integer uniform on [min, max] when
 * those are given, else an error saying where the set comes from. */
static int pick_stand_in(gen_col *c, const gen_args *a, const char *name)
{
    if (gen_has(a, "min", 0) && gen_has(a, "max", 0)) {
        c->a = (int64_t)gen_num(a, "min", 0, 0);
        c->b = (int64_t)gen_num(a, "max", 0, 0);
        if (c->b < c->a) return bb_usagef(a->err, "column %s: pick max < min", a->col);
        c->fill = gen_int_fill;
        return 0;
    }
    return bb_usagef(a->err,
                     "column %s: pick draws from the value set '%s', which this run has not read (prepare() "
                     "reads it from the database; give min and max for a stand-in range)",
                     a->col, name);
}

/* bb.pick{ set = NAME, col = 1, unique = false, spread = false, key = {NAME, ...},
 * pass_nulls = false, min, max, values }: column col of a row of the run's value set NAME
 * (see the top of this file for the orders). Without the set (no run read it: `bulkbench
 * gen`), or with it empty: the values written down (pick_written), or an integer uniform on
 * [min, max] when those are given. */
int gen_pick_parse(gen_col *c, const gen_args *a)
{
    size_t len;
    const char *name = gen_str(a, "set", 1, &len);
    /* each form reads only some of these; both look at all, which is what tells a typo from them */
    static const char *const takes[] = { "col", "unique", "spread", "key", "min", "max", "values", "pass_nulls" };
    for (size_t i = 0; i < sizeof takes / sizeof *takes; i++) (void)gen_has(a, takes[i], 0);
    if (!name) return bb_usagef(a->err, "column %s: pick needs the name of a value set (set = ...)", a->col);
    vset *s = a->r->set ? a->r->set(a->r->ud, "set") : NULL;
    if (gen_has(a, "values", 0) && (!s || vset_rows(s) == 0)) {
        vset_unref(s);
        return pick_written(c, a, name);
    }
    if (!s) return pick_stand_in(c, a, name);
    struct pick_plan *p = c->pick = bb_xcalloc(1, sizeof *p);
    p->set = s;
    p->col = (int)gen_num(a, "col", 0, 1) - 1;
    if (p->col < 0 || p->col >= vset_cols(s))
        return bb_usagef(a->err, "column %s: value set '%s' has %d columns, not %d", a->col, name, vset_cols(s),
                         p->col + 1);
    if (vset_rows(s) == 0)
        return bb_usagef(a->err, "column %s: value set '%s' is empty: there is nothing to draw from", a->col, name);
    p->ints = c->type == BB_T_INT && vset_is_int(s, p->col);
    c->clean = 0;
    c->max_len = 0;
    int unique = gen_has(a, "unique", 0) && gen_num(a, "unique", 0, 0);
    int spread = gen_has(a, "spread", 0) && gen_num(a, "spread", 0, 0);
    if (unique && spread) return bb_usagef(a->err, "column %s: pick is unique or spread, not both", a->col);
    name_list names = { 0 };
    a->r->list(a->r->ud, "key", -1, name_add, &names);
    int rc = 0;
    if (names.n && !unique)
        rc = bb_usagef(a->err, "column %s: a pick key makes each combination once: it needs unique = true", a->col);
    else if (names.n) rc = pick_key_sets(p, a, name, &names);
    else {
        p->nkey = 1;
        p->key[0] = s;
        vset_ref(s);
        p->size[0] = (uint64_t)vset_rows(s);
    }
    const char *lead = names.n ? names.s[0] : name;
    /* the columns of one set (or one key) share their salt: they draw the same row */
    c->salt = p->salt = gen_mix64(a->seed ^ gen_mix64(pick_hash(lead, strlen(lead))));
    for (int i = 0; i < names.n; i++) free(names.s[i]);
    if (rc < 0) return rc;
    p->mode = unique ? PICK_UNIQUE : spread ? PICK_SPREAD : PICK_DRAW;
    if (p->mode == PICK_DRAW) return 0;
    pick_groups(p, p->key[0]);
    if (p->nrows == 0) return bb_usagef(a->err, "column %s: no row of value set '%s' weighs anything", a->col, lead);
    p->partners = 1;
    for (int i = 1; i < p->nkey; i++)
        p->partners = p->partners > UINT64_MAX / p->size[i] ? UINT64_MAX : p->partners * p->size[i];
    if (p->mode == PICK_UNIQUE) pick_unique_plan(p);
    else pick_spread_plan(p);
    return pick_pass_nulls(c, p, a);
}
