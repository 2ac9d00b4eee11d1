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
 * A table with a column from a source (a script's function) is the exception to sharing:
 * it is bound to the thread whose Lua state made it (gen_table.bound).
 * The first two are assert()ed (gen.c): columns are added only before gen_finish and rows
 * made only after it, a row is filled only for the table it was made for, and its text
 * stays inside its scratch. */
#ifndef BB_GEN_H
#define BB_GEN_H

#include <stdint.h>

#include "../../../base/buf.h"
#include "../../../base/err.h"
#include "../../../drivers/value.h"

typedef struct gen_col gen_col;

/* Where a column's values come from when no kind here makes them: a script's function
 * (runtime/host/api_fn.c), called for each row on the thread that fills it. value sets row
 * n's value in v; text it makes is appended to *text, and v->u.s holds its offset there (the
 * row moves it into place). salt is the column's, for the row's own random numbers
 * (gen_draw). 0, or -1 with err. release frees ud with the table. */
typedef struct gen_source {
    int (*value)(void *ud, uint64_t salt, uint64_t n, bb_value *v, bb_buf *text, bb_err *err);
    void (*release)(void *ud);
    void *ud;
} gen_source;

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
    /* columns whose values come from a source (gen_add_source): a script's function runs in
     * one Lua state, so such a table is bound to the thread that made it, and only that
     * thread fills its rows (no producer thread, no sharing between workers) */
    int bound;
} gen_table;

/* Text a row's values point at has this many readable bytes after it, so encoders may
 * copy short strings in fixed 16-byte strides. */
#define GEN_PAD 64

typedef struct gen_row {
    bb_value *v;        /* ncols values */
    char *scratch;      /* text of this row's generated values */
    const gen_table *t; /* the table it was made for: the only one that fills it */
    bb_buf ext;         /* the text of values from a source: any length, GEN_PAD readable after it */
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
    /* what the value at key/pos is (gen_argtype); element `elem` (from 1) of the list there
     * when elem > 0, as list() reads it. NULL: a reader of strings and numbers alone. */
    int (*type)(void *ud, const char *key, int pos, int elem);
    /* the generator (a table with a kind) at element elem (from 1) of the list at key, handed
     * to fn with a reader of its own, whose arguments nobody read are then refused as a
     * column's are (col names it); -1 with err when it is missing or fn failed. NULL: none. */
    int (*gen_at)(void *ud, const char *key, int elem, const char *col,
                  int (*fn)(void *acc, const struct gen_reader *r, const char *kind, bb_err *err), void *acc,
                  bb_err *err);
} gen_reader;

/* What gen_reader.type says of an argument: a boolean is read by num() as 0 or 1 and by
 * list() as "true" or "false"; the kinds that take any value (const, choice) keep its type. */
typedef enum { GEN_ARG_NONE, GEN_ARG_NUM, GEN_ARG_STR, GEN_ARG_BOOL, GEN_ARG_OTHER } gen_argtype;

/* The generator kinds' names, NULL-terminated, made from the list of kinds (GEN_KINDS in
 * gen_priv.h): the Lua API makes one constructor per name. */
extern const char *const gen_kind_names[];

/* Starts a program for a table; add its columns, then gen_finish. now_s is the run's
 * "now", shared by every thread so timestamps agree. */
gen_table *gen_new(const char *name, uint64_t seed, int64_t now_s);
/* Adds one column: kind is one of gen_kind_names, null_ratio in [0,1). */
int gen_add(gen_table *t, const char *colname, bb_sqltype type, const char *kind, double null_ratio,
            const gen_reader *r, bb_err *err);
/* Adds a column whose values come from src (copied; its release runs with gen_free). */
int gen_add_source(gen_table *t, const char *colname, bb_sqltype type, double null_ratio, const gen_source *src,
                   bb_err *err);
void gen_finish(gen_table *t);
void gen_free(gen_table *t);

gen_row *gen_row_new(const gen_table *t);
void gen_row_free(gen_row *r);
/* Fills r with the values of row n (0-based, global across threads). Fails (-1, err) only
 * for a column from a source: a script's function that raised an error or returned what
 * no column holds. */
int gen_fill(const gen_table *t, uint64_t n, gen_row *r, bb_err *err);
/* Bytes one encoded text row of r can take at most (every byte escaped): the table's
 * bound, plus what its values from a source hold. */
static inline size_t gen_row_line(const gen_table *t, const gen_row *r) { return t->max_line + 2 * r->ext.len; }

/* The k-th random number of row n under salt: what the kinds draw from, for a source's
 * per-row generator. */
uint64_t gen_draw(uint64_t salt, uint64_t n, uint64_t k);

/* Maps an SQL type name ("varchar(24)", "bigint", "decimal(6,2)") to its storage class. */
bb_sqltype gen_sqltype(const char *sql);

#endif
