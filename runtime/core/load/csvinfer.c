/* csvinfer.c — a CSV or TSV file's columns and types, streaming (see csvinfer.h). */
#include "csvinfer.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../../../base/buf.h"
#include "../../../base/calendar.h"

const char *const csvi_type_names[] = {
    "empty", "bool", "int", "decimal", "double", "date", "timestamp", "uuid", "text"
};

#define M(t) (1u << (t))
#define CSVI_ALL                                                                                                       \
    (M(CSVI_BOOL) | M(CSVI_INT) | M(CSVI_DECIMAL) | M(CSVI_DOUBLE) | M(CSVI_DATE) | M(CSVI_TIMESTAMP) | M(CSVI_UUID) | \
     M(CSVI_TEXT))
#define CSVI_MAX_COLS 1600

/* NULL markers a file may use besides an empty field: counted apart, decided at the end */
enum { NM_BSN, NM_WORD, NM_N };
static const char *const nm_text[NM_N] = { "\\N", "NULL" };

typedef struct st {
    const csvi_opts *o;
    csvi_result *r;
    int field;
    int64_t records; /* rows read, header included */
    char **row;      /* the current row's values, for the reservoir (NULL: empty field) */
    int row_cap;
    int64_t *marks;   /* ncols * NM_N: fields equal to each marker */
    int64_t *empties; /* ncols: empty fields */
    uint64_t rng;
    bb_err *err;
    int failed;
} st;

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int lower_eq(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    if (n != k) return 0;
    for (size_t i = 0; i < n; i++)
        if ((s[i] | 0x20) != w[i]) return 0;
    return 1;
}

static int is_hex(char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }

/* A value of digits alone: INT when it fits in 64 bits, its range and order recorded. */
static unsigned int_type(csvi_col *c, const char *s, size_t n)
{
    char tmp[32];
    if (n >= sizeof tmp) return 0;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    errno = 0;
    long long v = strtoll(tmp, NULL, 10);
    if (errno) return 0;
    c->increasing = c->values == 0 || (c->increasing && v > c->last);
    c->last = v;
    if (c->values == 0 || (c->may & M(CSVI_INT)) == 0 || v < c->imin) c->imin = v;
    if (c->values == 0 || (c->may & M(CSVI_INT)) == 0 || v > c->imax) c->imax = v;
    return M(CSVI_INT);
}

/* DATE and TIMESTAMP (fractions and a zone recorded), or UUID, when s reads as one. */
static unsigned time_uuid_types(csvi_col *c, const char *s, size_t n)
{
    unsigned may = 0;
    int64_t us;
    int frac;
    if (n >= 10 && n <= 40 && bb_parse_micros(s, n, &us, &frac) == 0) {
        if (n == 10) may |= M(CSVI_DATE);
        may |= M(CSVI_TIMESTAMP);
        if (frac) c->has_frac = 1;
        if (n > 19 && (s[n - 1] == 'Z' || memchr(s + 19, '+', n - 19) || memchr(s + 19, '-', n - 19))) c->has_zone = 1;
    }
    if (n == 36) {
        int ok = 1;
        for (size_t k = 0; k < 36 && ok; k++)
            ok = (k == 8 || k == 13 || k == 18 || k == 23) ? s[k] == '-' : is_hex(s[k]);
        if (ok) may |= M(CSVI_UUID);
    }
    return may;
}

/* The types value s could be read as; also records the column's ranges and digits. */
static unsigned value_types(csvi_col *c, const char *s, size_t n)
{
    unsigned may = M(CSVI_TEXT);
    static const char *const words[] = { "true", "false", "t", "f", "yes", "no", "y", "n" };
    for (int i = 0; i < 8; i++)
        if (lower_eq(s, n, words[i])) return may | M(CSVI_BOOL);
    size_t i = 0, idig = 0, fdig = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    size_t lead = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    idig = i - lead;
    if (i == n && idig > 0) may |= int_type(c, s, n);
    if (i < n && s[i] == '.') {
        size_t f0 = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        fdig = i - f0;
    }
    if (i == n && idig + fdig > 0) {
        size_t sig = idig; /* digits before the point, leading zeros aside */
        for (size_t k = lead; k < lead + idig && s[k] == '0' && sig > 0; k++) sig--;
        if ((int)sig > c->int_digits) c->int_digits = (int)sig;
        if ((int)fdig > c->frac_digits) c->frac_digits = (int)fdig;
        may |= M(CSVI_DECIMAL) | M(CSVI_DOUBLE);
    } else if (n > 0 && n < 64) {
        char tmp[64], *end;
        memcpy(tmp, s, n);
        tmp[n] = 0;
        if (strpbrk(tmp, "eE") && !strpbrk(tmp, "xXnN")) {
            strtod(tmp, &end);
            if (*end == 0) may |= M(CSVI_DOUBLE);
        }
    }
    return may | time_uuid_types(c, s, n);
}

static size_t utf8_chars(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

static csvi_col *column(st *x, int i)
{
    csvi_result *r = x->r;
    if (i < r->ncols) return &r->cols[i];
    return NULL;
}

static void on_field(void *s, size_t n, void *ud)
{
    st *x = ud;
    if (x->failed) return;
    int i = x->field++;
    if (i >= CSVI_MAX_COLS) {
        x->failed = 1;
        bb_errf(x->err, "row %lld has more than %d fields", (long long)x->records + 1, CSVI_MAX_COLS);
        return;
    }
    if (i >= x->row_cap) {
        x->row_cap = x->row_cap ? 2 * x->row_cap : 64;
        x->row = bb_xrealloc(x->row, (size_t)x->row_cap * sizeof *x->row);
    }
    x->row[i] = s ? memcpy(bb_xmalloc(n + 1), s, n) : NULL;
    if (s) x->row[i][n] = 0;
}

static void grow_cols(st *x, int ncols)
{
    csvi_result *r = x->r;
    r->cols = bb_xcalloc((size_t)ncols, sizeof *r->cols);
    r->ncols = ncols;
    x->marks = bb_xcalloc((size_t)ncols * NM_N, sizeof *x->marks);
    x->empties = bb_xcalloc((size_t)ncols, sizeof *x->empties);
    for (int i = 0; i < ncols; i++) r->cols[i].may = CSVI_ALL;
}

static void free_row(char **row, int n)
{
    for (int i = 0; i < n; i++) free(row[i]);
}

/* One data row: every value typed, and the row kept in the reservoir (Algorithm R). */
static void data_row(st *x)
{
    csvi_result *r = x->r;
    for (int i = 0; i < r->ncols; i++) {
        csvi_col *c = column(x, i);
        const char *v = x->row[i];
        size_t n = v ? strlen(v) : 0;
        if (x->o->null) { /* the NULL text is given: NULL is decided now */
            if (v ? strcmp(v, x->o->null) == 0 : x->o->null[0] == 0) {
                c->nulls++;
                continue;
            }
            if (!v) v = "", n = 0;
        } else {
            if (!v) { /* an empty field: NULL, unless the file turns out to use a marker */
                x->empties[i]++;
                c->nulls++;
                continue;
            }
            int marker = -1;
            for (int k = 0; k < NM_N; k++)
                if (strcmp(v, nm_text[k]) == 0) marker = k;
            if (marker >= 0) { /* a NULL unless the end decides otherwise */
                x->marks[i * NM_N + marker]++;
                continue;
            }
        }
        c->may &= value_types(c, v, n);
        c->values++;
        size_t len = utf8_chars(v, n);
        if (len > c->max_len) c->max_len = len;
    }
    int64_t k = r->rows++;
    int keep = x->o->sample;
    if (keep <= 0) {
        free_row(x->row, r->ncols);
        return;
    }
    int64_t slot = k < keep ? k : (int64_t)(next_rand(&x->rng) % (uint64_t)(k + 1));
    if (slot >= keep) {
        free_row(x->row, r->ncols);
        return;
    }
    if (k < keep) {
        r->sample = bb_xrealloc(r->sample, (size_t)(k + 1) * sizeof *r->sample);
        r->nsample = (int)k + 1;
    } else {
        free_row(r->sample[slot], r->ncols);
        free(r->sample[slot]);
    }
    r->sample[slot] = bb_xmalloc((size_t)r->ncols * sizeof(char *));
    memcpy(r->sample[slot], x->row, (size_t)r->ncols * sizeof(char *));
}

static void on_row(int term, void *ud)
{
    (void)term;
    st *x = ud;
    if (x->failed) return;
    int n = x->field;
    x->field = 0;
    x->records++;
    csvi_result *r = x->r;
    if (!r->cols) { /* the first row: names, or the count of the fields */
        grow_cols(x, n);
        for (int i = 0; i < n; i++) {
            char name[32];
            snprintf(name, sizeof name, "c%d", i + 1);
            r->cols[i].name = bb_xstrdup(x->o->header && x->row[i] && x->row[i][0] ? x->row[i] : name);
        }
        if (x->o->header) {
            free_row(x->row, n);
            return;
        }
    }
    if (n != r->ncols) {
        free_row(x->row, n);
        x->failed = 1;
        bb_errf(x->err, "row %lld has %d fields, the %s has %d", (long long)x->records, n,
                x->o->header ? "header" : "first row", r->ncols);
        return;
    }
    data_row(x);
}

/* The marker the file uses for NULL, and what the others mean then: a column where another
 * marker or an empty field stands for a value is text. */
static void decide_nulls(st *x)
{
    csvi_result *r = x->r;
    int best = -1;
    int64_t most = 0;
    for (int k = 0; k < NM_N && !x->o->null; k++) {
        int64_t t = 0;
        for (int i = 0; i < r->ncols; i++) t += x->marks[i * NM_N + k];
        if (t > most) most = t, best = k;
    }
    /* an empty field more often than any marker: the file's NULL is the empty field, and a
     * word such as NULL in a few fields is text (three summaries reading "NULL" must not turn
     * 871k empty integers into empty strings) */
    int64_t empties = 0;
    for (int i = 0; i < r->ncols; i++) empties += x->empties[i];
    if (best >= 0 && empties > most) best = -1;
    r->null = x->o->null ? x->o->null : best >= 0 ? nm_text[best] : "";
    for (int i = 0; i < r->ncols; i++) {
        csvi_col *c = &r->cols[i];
        for (int k = 0; k < NM_N; k++) {
            int64_t m = x->marks[i * NM_N + k];
            if (!m) continue;
            if (k == best) c->nulls += m;
            else {
                c->may &= M(CSVI_TEXT);
                c->values += m;
                if (strlen(nm_text[k]) > c->max_len) c->max_len = strlen(nm_text[k]);
            }
        }
        if (best >= 0 && x->empties[i]) { /* with --null=MARKER an empty field is an empty string */
            c->nulls -= x->empties[i];
            c->values += x->empties[i];
            c->may &= M(CSVI_TEXT);
        }
        c->type = CSVI_TEXT;
        if (c->values == 0) c->type = CSVI_EMPTY;
        else
            for (int t = CSVI_BOOL; t <= CSVI_TEXT; t++)
                if (c->may & M(t)) {
                    c->type = (csvi_type)t;
                    break;
                }
        if (c->type == CSVI_DECIMAL && c->int_digits + c->frac_digits > 38) c->type = CSVI_DOUBLE;
        if (c->type == CSVI_DECIMAL && c->frac_digits == 0) c->type = CSVI_TEXT; /* integers too wide for 64 bits */
    }
    for (int s = 0; s < r->nsample; s++) /* the reservoir's NULLs as the marker says */
        for (int i = 0; i < r->ncols; i++) {
            char *v = r->sample[s][i];
            int null = v ? r->null[0] && strcmp(v, r->null) == 0 : r->null[0] == 0;
            if (null) {
                free(v);
                r->sample[s][i] = NULL;
            } else if (!v) r->sample[s][i] = bb_xstrdup("");
        }
}

static int setup(struct csv_parser *p, const csvi_opts *o)
{
    if (csv_init(p, CSV_EMPTY_IS_NULL | CSV_APPEND_NULL | CSV_STRICT_FINI) != 0) return -1;
    csv_set_delim(p, (unsigned char)(o->delim ? o->delim : o->tsv ? '\t' : ','));
    csv_set_quote(p, (unsigned char)(o->tsv ? 0 : o->quote ? o->quote : '"'));
    return 0;
}

static int no_space(unsigned char c)
{
    (void)c;
    return 0; /* fields keep their spaces, as COPY and LOAD DATA keep them */
}

static int finish(st *x, struct csv_parser *p, int rc)
{
    if (rc == 0 && !x->failed && csv_fini(p, on_field, on_row, x) != 0 && !x->failed) {
        x->failed = 1;
        bb_errf(x->err, "the file ends inside a quoted field (row %lld)", (long long)x->records + 1);
    }
    csv_free(p);
    if (!x->failed && rc == 0) {
        if (!x->r->cols) grow_cols(x, 0);
        decide_nulls(x);
    }
    if (x->field) free_row(x->row, x->field);
    free(x->row);
    free(x->marks);
    free(x->empties);
    if (!x->failed && !rc) return 0;
    csvi_free(x->r); /* a file that cannot be read leaves nothing to free */
    return -1;
}

int csvi_read_mem(const char *data, size_t n, const csvi_opts *o, csvi_result *r, bb_err *err)
{
    memset(r, 0, sizeof *r);
    st x = { .o = o, .r = r, .rng = o->seed ^ 0x5eed, .err = err };
    struct csv_parser p;
    if (setup(&p, o) < 0) return bb_errf(err, "cannot start the CSV parser");
    csv_set_space_func(&p, no_space);
    if (csv_parse(&p, data, n, on_field, on_row, &x) != n && !x.failed) {
        x.failed = 1;
        bb_errf(err, "%s", csv_strerror(csv_error(&p)));
    }
    return finish(&x, &p, 0);
}

int csvi_read_file(const char *path, const csvi_opts *o, csvi_result *r, bb_err *err)
{
    memset(r, 0, sizeof *r);
    gzFile f = gzopen(path, "rb"); /* gzip or plain */
    if (!f) return bb_errf(err, "cannot read %s: %s", path, strerror(errno));
    st x = { .o = o, .r = r, .rng = o->seed ^ 0x5eed, .err = err };
    struct csv_parser p;
    if (setup(&p, o) < 0) {
        gzclose(f);
        return bb_errf(err, "cannot start the CSV parser");
    }
    csv_set_space_func(&p, no_space);
    char buf[1 << 16];
    int n, rc = 0;
    while (!x.failed && (n = gzread(f, buf, sizeof buf)) > 0)
        if (csv_parse(&p, buf, (size_t)n, on_field, on_row, &x) != (size_t)n && !x.failed) {
            x.failed = 1;
            bb_errf(err, "%s: %s", path, csv_strerror(csv_error(&p)));
        }
    if (n < 0 && !x.failed) {
        int zerr;
        rc = bb_errf(err, "cannot read %s: %s", path, gzerror(f, &zerr));
    }
    gzclose(f);
    if (finish(&x, &p, rc) < 0) {
        if (x.failed && strncmp(err->msg, path, strlen(path)) != 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            bb_errf(err, "%s: %s", path, msg);
        }
        return -1;
    }
    return 0;
}

void csvi_free(csvi_result *r)
{
    for (int i = 0; i < r->ncols; i++) free(r->cols[i].name);
    for (int s = 0; s < r->nsample; s++) {
        free_row(r->sample[s], r->ncols);
        free(r->sample[s]);
    }
    free(r->sample);
    free(r->cols);
    memset(r, 0, sizeof *r);
}
