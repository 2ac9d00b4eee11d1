/* encode.c — the text encoders. Text values are scanned once; clean ones (the common
 * case) are copied with memcpy, only dirty ones go through the escaping loop. */
#include "encode.h"
#include "../../../base/dtoa.h"
#include "../../../base/buf.h"
#include "../../../base/digits.h"

#include <csv.h>
#include <stdio.h>

/* in bb_stream_fmt's order (drivers/driver.h says what each is) */
static const char *const fmt_names[] = { "copy", "csv", "tsv", "binary", "sql", "load-text" };

int enc_format_parse(const char *name, bb_stream_fmt *out)
{
    for (int i = 0; i < (int)(sizeof fmt_names / sizeof *fmt_names); i++)
        if (strcmp(name, fmt_names[i]) == 0) {
            *out = (bb_stream_fmt)i;
            return 0;
        }
    if (strcmp(name, "text") == 0) {
        *out = BB_FMT_COPY;
        return 0;
    }
    return -1;
}

/* Characters that need escaping, per format. */
static unsigned char dirty_copy[256], dirty_csv[256], dirty_sql[256], dirty_sql_bs[256];

__attribute__((constructor)) static void enc_tables(void)
{
    dirty_copy['\\'] = dirty_copy['\t'] = dirty_copy['\n'] = dirty_copy['\r'] = dirty_copy[0] = 1;
    dirty_csv[','] = dirty_csv['"'] = dirty_csv['\n'] = dirty_csv['\r'] = 1;
    dirty_sql['\''] = dirty_sql[0] = 1;
    dirty_sql_bs['\''] = dirty_sql_bs['\\'] = dirty_sql_bs[0] = 1;
}

static inline int is_clean(const unsigned char *tab, const char *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (tab[(unsigned char)s[i]]) return 0;
    return 1;
}

static inline char *put_number(const bb_value *v, char *p)
{
    if (v->kind == BB_V_INT) return p + bb_fmt_i64(p, v->u.i);
    return p + bb_fmt_double(p, v->u.d);
}

/* COPY text and LOAD DATA's default text share their escapes: \\ \t \n \r, and \N for NULL.
 * p has room for every byte doubled (gen_table.max_line). */
static inline char *put_copy_text(const char *s, uint32_t n, int clean, char *p)
{
    if (clean || is_clean(dirty_copy, s, n)) return enc_copy_text(p, s, n);
    for (uint32_t i = 0; i < n; i++) {
        if (s[i]) {
            p = enc_copy_escape(p, s[i]);
            continue;
        }
        *p++ = '\\'; /* MySQL reads \0 as NUL; COPY text cannot carry NUL at all */
        *p++ = '0';
    }
    return p;
}

static inline char *put_csv_text(const char *s, uint32_t n, int clean, char *p)
{
    /* Empty strings are quoted so they differ from NULL (an empty unquoted field). */
    if (n > 0 && (clean || is_clean(dirty_csv, s, n))) return enc_copy_text(p, s, n);
    return p + csv_write(p, (size_t)n * 2 + 2, s, n);
}

/* One field of COPY text, LOAD DATA text or CSV. */
static inline char *put_field(bb_stream_fmt fmt, const bb_value *v, char *p)
{
    switch (v->kind) {
    case BB_V_TEXT:
        return fmt == BB_FMT_CSV ? put_csv_text(v->u.s, v->len, v->clean, p)
                                 : put_copy_text(v->u.s, v->len, v->clean, p);
    case BB_V_NULL:
        if (fmt == BB_FMT_CSV) return p;
        p[0] = '\\';
        p[1] = 'N';
        return p + 2;
    default: return put_number(v, p);
    }
}

char *enc_field(bb_stream_fmt fmt, const bb_value *v, char *p) { return put_field(fmt, v, p); }

void enc_sql_value(const bb_dialect *d, bb_sqltype type, const bb_value *v, bb_buf *out)
{
    if (v->kind == BB_V_NULL) {
        bb_buf_put(out, "NULL", 4);
        return;
    }
    if (type == BB_T_BOOL && v->kind == BB_V_INT && !d->bool_int) { /* 1 is no boolean to PostgreSQL */
        if (v->u.i) bb_buf_put(out, "TRUE", 4);
        else bb_buf_put(out, "FALSE", 5);
        return;
    }
    if (v->kind != BB_V_TEXT) {
        bb_buf_reserve(out, 32);
        out->len = (size_t)(put_number(v, out->p + out->len) - out->p);
        return;
    }
    if (type == BB_T_NUMERIC) {
        bb_buf_put(out, v->u.s, v->len);
        return;
    } /* digits only */
    const unsigned char *tab = d->backslash_esc ? dirty_sql_bs : dirty_sql;
    bb_buf_reserve(out, (size_t)v->len * 2 + 2);
    char *p = out->p + out->len;
    *p++ = '\'';
    if (v->clean || is_clean(tab, v->u.s, v->len)) {
        memcpy(p, v->u.s, v->len);
        p += v->len;
    } else {
        for (uint32_t i = 0; i < v->len; i++) {
            char c = v->u.s[i];
            if (c == '\'') *p++ = '\'';
            else if (c == '\\' && d->backslash_esc) *p++ = '\\';
            else if (c == 0) {
                if (d->backslash_esc) {
                    *p++ = '\\';
                    c = '0';
                } else continue;
            }
            *p++ = c;
        }
    }
    *p++ = '\'';
    out->len = (size_t)(p - out->p);
}

/* Plain TSV has no escapes: a value holding a tab, a line end, or the text that stands for
 * NULL cannot be written, and the row is left out. */
int enc_row_tsv(const gen_table *t, const gen_row *r, const char *null, bb_buf *out, const char **why)
{
    size_t nl = strlen(null), at = out->len;
    bb_buf_reserve(out, gen_row_line(t, r) + (size_t)t->ncols * nl);
    char *p = out->p + out->len;
    for (int i = 0; i < t->ncols; i++) {
        const bb_value *v = &r->v[i];
        if (i) *p++ = '\t';
        if (v->kind == BB_V_NULL) {
            memcpy(p, null, nl);
            p += nl;
        } else if (v->kind != BB_V_TEXT) {
            p = put_number(v, p);
        } else {
            const char *bad = v->clean         ? NULL
                : memchr(v->u.s, '\t', v->len) ? "text with a tab"
                : memchr(v->u.s, '\n', v->len) ? "text with a newline"
                : memchr(v->u.s, '\r', v->len) ? "text with a carriage return"
                                               : NULL;
            if (!bad && v->len == nl && memcmp(v->u.s, null, nl) == 0) bad = nl ? "the NULL text" : "an empty string";
            if (bad) {
                out->len = at;
                *why = bad;
                return i + 1;
            }
            p = enc_copy_text(p, v->u.s, v->len);
        }
    }
    *p++ = '\n';
    out->len = (size_t)(p - out->p);
    return 0;
}

void enc_row(bb_stream_fmt fmt, const bb_dialect *d, const gen_table *t, const gen_row *r, bb_buf *out)
{
    int n = t->ncols;
    if (fmt == BB_FMT_TSV) { /* callers that may meet values TSV cannot hold use enc_row_tsv */
        const char *why;
        enc_row_tsv(t, r, "", out, &why);
        return;
    }
    if (fmt == BB_FMT_SQL) {
        bb_buf_putc(out, '(');
        for (int i = 0; i < n; i++) {
            if (i) bb_buf_putc(out, ',');
            enc_sql_value(d, t->types[i], &r->v[i], out);
        }
        bb_buf_putc(out, ')');
        return;
    }
    if (fmt == BB_FMT_BINARY) return; /* needs the server's exact column types: the pg engine encodes it */
    bb_buf_reserve(out, gen_row_line(t, r)); /* one check per row, none per value */
    char *p = out->p + out->len;
    char sep = fmt == BB_FMT_CSV ? ',' : '\t';
    for (int i = 0; i < n; i++) {
        if (i) *p++ = sep;
        p = put_field(fmt, &r->v[i], p);
    }
    *p++ = '\n';
    out->len = (size_t)(p - out->p);
}
