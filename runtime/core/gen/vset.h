/* vset.h — value sets: rows of values read once from a database (a parent table's keys at
 * prepare, or between the phases of a multi-table load) and then shared read-only by every
 * worker's generators (the `pick` kind). A run keeps its sets in a registry, by name.
 *
 * A set is built by one thread (vset_add, then vset_weigh), published with vset_reg_put,
 * and never changes after: readers need no lock. Generators hold references (vset_ref),
 * so a set outlives the run that made it for as long as a compiled table uses it. */
#ifndef BB_VSET_H
#define BB_VSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct vset vset;

/* An empty set of rows with ncols values each (1..16). */
vset *vset_new(int ncols);
/* Appends one row: vals[i] of lens[i] bytes. A row with a NULL value is skipped (a key
 * that is NULL cannot be referenced); returns 1 when added, 0 when skipped. */
int vset_add(vset *s, const char *const *vals, const size_t *lens);
/* How the references that are not among the most common ones spread over the keys: n
 * integer bounds in order, bucket k holding [bounds[k], bounds[k+1]) (the last one closed)
 * and weighing w[k] (w NULL: every bucket alike), as a histogram of a child's column says. */
typedef struct vset_hist {
    const int64_t *bounds;
    const double *w;
    int n;
} vset_hist;

/* Weights of single-column values (a child's most common references): value vals[i]
 * gets w[i]; rest is shared by the rows no value named: equally, or with h (and integer
 * keys) by the bucket of h each falls in, so that rows outside every bucket get none.
 * Values not in the set are ignored; returns how many matched. Call before publishing. */
int vset_weigh(vset *s, const char *const *vals, const size_t *lens, const double *w, int n, double rest,
               const vset_hist *h);
/* Before vset_weigh: only q of the rows no value names share the rest (a fixed choice of
 * them, by their text's hash), so a reference keeps as many distinct parents as it had. */
void vset_keep_rest(vset *s, int64_t q);
/* Every row's weight as vset_weigh gave it (not normalized), or NULL when the set was not weighed. */
const double *vset_weights(const vset *s);

void vset_ref(vset *s);
void vset_unref(vset *s);

int64_t vset_rows(const vset *s);
int vset_cols(const vset *s);
/* Row r's column c: its text (followed by at least 64 readable bytes) and length. */
const char *vset_text(const vset *s, int64_t r, int c, uint32_t *len);
/* Whether every value of column c is a 64-bit integer; then vset_int gives it. */
int vset_is_int(const vset *s, int c);
int64_t vset_int(const vset *s, int64_t r, int c);
/* The row a uniform u in [0, 1) falls on: by weight when the set was weighed, else uniform. */
int64_t vset_draw(const vset *s, double u);

/* ---- a run's sets, by name ---- */

typedef struct vset_reg vset_reg;

vset_reg *vset_reg_new(void);
void vset_reg_free(vset_reg *r);
/* Publishes s under name (taking the caller's reference), replacing a set of that name. */
void vset_reg_put(vset_reg *r, const char *name, vset *s);
/* A new reference to the set called name, or NULL. */
vset *vset_reg_get(vset_reg *r, const char *name);

#endif
