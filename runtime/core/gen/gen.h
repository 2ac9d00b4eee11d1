/* gen.h — native column generators. A table's columns compile once into a program; row n's
 * values are a pure function of (seed, column, n), so any thread can make any row and the
 * output is the same whatever the thread count.
 *
 * The gen wing (runtime/core/gen: this program, the laws in dist.c, the encoders in
 * encode.c) holds these invariants:
 *   - threads: a gen_table is built by one thread (gen_new, gen_add, gen_finish) and is
 *     read-only afterwards, shared by every worker; a gen_row belongs to one thread.
 *   - memory: a row's text values point into the row's own scratch, the table's constants,
 *     or a value set (vset.h) the table holds a reference to, and stay valid until the
 *     row is filled again; the caller frees rows (gen_row_free) before the table
 *     (gen_free); encoders only append to the caller's buffer.
 *   - no I/O and no clock: "now" is fixed at gen_new, so a table is reproducible.
 * The first two are assert()ed (gen.c): columns are added only before gen_finish and rows
 * made only after it, a row is filled only for the table it was made for, and its text
 * stays inside its scratch. */
#ifndef BB_GEN_H
#define BB_GEN_H

#include <stdint.h>

#include "../../../base/err.h"
#include "../../../drivers/value.h"

typedef struct gen_col gen_col;

typedef struct gen_table {
    char *name;
    char *schema; /* NULL: the session's own search; else the rows go to schema.name */
    int ncols; /* columns that get values (auto-increment ones without a generator are left out) */
    char **colnames;
    bb_sqltype *types;
    gen_col *cols;
    uint64_t seed;
    int64_t now_s;   /* the run's "now": every thread formats the same instant */
    size_t scratch;  /* most text bytes one row can need */
    size_t max_line; /* most bytes one encoded text row can take (every byte escaped) */
    int finished;    /* gen_finish ran: read-only from here on */
} gen_table;

/* Text a row's values point at has this many readable bytes after it, so encoders may
 * copy short strings in fixed 16-byte strides. */
#define GEN_PAD 64

typedef struct gen_row {
    bb_value *v;        /* ncols values */
    char *scratch;      /* text of this row's generated values */
    const gen_table *t; /* the table it was made for: the only one that fills it */
} gen_row;

/* How gen_add reads one column's generator spec without knowing where it came from
 * (the Lua API passes a Lua table). Each getter takes a key and a positional index
 * (0 = none) so {min=1,max=9} and {1,9} both work. A kind's parser asks for every key it
 * takes, even one a form of it ignores (has() is enough): a key no getter asked for is an
 * error naming the nearest one asked for (runtime/host/api_args.c). */
typedef struct gen_reader {
    void *ud;
    int (*has)(void *ud, const char *key, int pos);
    double (*num)(void *ud, const char *key, int pos, double dflt);
    /* string at key/pos or NULL; *len gets its length; stays valid during compile */
    const char *(*str)(void *ud, const char *key, int pos, size_t *len);
    /* list at key (pos 0: the spec's own array part, so choice{"a","b"} works): calls
     * back once per element with its value as a string and its weight ({"a", 3}) */
    int (*list)(void *ud, const char *key, int pos, void (*each)(void *acc, const char *s, size_t len, double weight),
                void *acc);
    /* the run's value set named by the string at key (vset.h), a new reference, or NULL
     * when there is none (no run, or not read yet); may itself be NULL */
    struct vset *(*set)(void *ud, const char *key);
    /* the run's value set called name (one a list names), as set() gives it */
    struct vset *(*set_named)(void *ud, const char *name);
} gen_reader;

/* The generator kinds' names, NULL-terminated, made from the list of kinds (GEN_KINDS in
 * gen_priv.h): the Lua API makes one constructor per name. */
extern const char *const gen_kind_names[];

/* Starts a program for a table; add its columns, then gen_finish. now_s is the run's
 * "now", shared by every thread so timestamps agree. */
gen_table *gen_new(const char *name, uint64_t seed, int64_t now_s);
/* Adds one column: kind is one of gen_kind_names, null_ratio in [0,1). */
int gen_add(gen_table *t, const char *colname, bb_sqltype type, const char *kind, double null_ratio,
            const gen_reader *r, bb_err *err);
void gen_finish(gen_table *t);
void gen_free(gen_table *t);

gen_row *gen_row_new(const gen_table *t);
void gen_row_free(gen_row *r);
/* Fills r with the values of row n (0-based, global across threads). */
void gen_fill(const gen_table *t, uint64_t n, gen_row *r);

/* Maps an SQL type name ("varchar(24)", "bigint", "decimal(6,2)") to its storage class. */
bb_sqltype gen_sqltype(const char *sql);

#endif
