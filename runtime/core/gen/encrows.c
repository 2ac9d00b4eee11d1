/* encrows.c — rows into bytes by the way their format takes (see encrows.h). */
#include "encrows.h"
#include "../../../drivers/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binplan.h"
#include "encode.h"
#include "encplan.h"

struct encrows {
    const gen_table *t;
    bb_stream_fmt fmt;
    encrows_opts o;
    encplan *plan;  /* COPY text, LOAD DATA text, CSV */
    binplan *bplan; /* binary where the engine lays rows out: made once its stream is open */
    int no_layout;  /* the engine gives no layout: binary rows are encoded one by one */
    gen_row *row;   /* the row by row ways */
    int null_clash;
};

encrows *encrows_new(const gen_table *t, bb_stream_fmt fmt, const encrows_opts *o)
{
    static const encrows_opts none;
    if (!o) o = &none;
    if (fmt == BB_FMT_BINARY && !(o->drv && o->conn)) return NULL;
    encrows *e = bb_xcalloc(1, sizeof *e);
    e->t = t;
    e->fmt = fmt;
    e->o = *o;
    if (!e->o.dia) e->o.dia = &bb_dialect_generic;
    if (!e->o.null) e->o.null = "";
    if (!o->by_values) e->plan = encplan_new(t, fmt);
    if (!e->plan) e->row = gen_row_new(t);
    return e;
}

void encrows_free(encrows *e)
{
    if (!e) return;
    encplan_free(e->plan);
    binplan_free(e->bplan);
    gen_row_free(e->row);
    free(e);
}

void encrows_reset(encrows *e)
{
    binplan_free(e->bplan); /* it points at the old session's stream layout */
    e->bplan = NULL;
    e->no_layout = 0;
}

int encrows_null_clash(const encrows *e) { return e->null_clash; }

/* Row n, generated into e->row, as one line of plain TSV; -1 (err) when a value cannot be one of its fields. */
static int put_tsv(encrows *e, uint64_t n, bb_buf *out, bb_err *err)
{
    const char *why;
    int col = enc_row_tsv(e->t, e->row, e->o.null, out, &why);
    if (col == 0) return 0;
    e->null_clash = strncmp(why, "text with", 9) != 0; /* else it holds a tab or a line end */
    return bb_errf(err, "row %llu, column %s: the value is %s, which plain TSV %s", (unsigned long long)n + 1,
                   e->t->colnames[col - 1], why,
                   e->null_clash ? "cannot tell from NULL" : "cannot hold (it has no escapes)");
}

/* Row n as an SQL tuple, inside the statements of o.sql_head, or on a line of its own. */
static void put_sql(encrows *e, uint64_t n, bb_buf *out)
{
    const encrows_opts *o = &e->o;
    if (!o->sql_head) {
        enc_row(BB_FMT_SQL, o->dia, e->t, e->row, out);
        bb_buf_putc(out, '\n');
        return;
    }
    if ((int64_t)n % o->sql_rows == 0) bb_buf_puts(out, o->sql_head);
    enc_row(BB_FMT_SQL, o->dia, e->t, e->row, out);
    bb_buf_puts(out, ((int64_t)n + 1) % o->sql_rows == 0 || (int64_t)n + 1 == o->sql_end ? ";\n" : ",\n");
}

int64_t encrows_put(encrows *e, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err)
{
    if (n <= 0) return 0;
    if (e->plan) return encplan_rows(e->plan, first, n, out, limit);
    const encrows_opts *o = &e->o;
    if (e->fmt == BB_FMT_BINARY && !e->bplan && !e->no_layout) {
        bb_stream_layout lay; /* the stream is open: its layout is known, and stays the session's */
        int rc = db_stream_layout(o->drv, *o->conn, &lay, err);
        if (rc < 0) return -1;
        if (rc == 0 && !e->t->bound) e->bplan = binplan_new(e->t, &lay);
        else e->no_layout = 1; /* the engine has none to give, or a script's values: row by row */
    }
    if (e->bplan) return binplan_rows(e->bplan, first, n, out, limit, err);
    int64_t i = 0;
    while (i < n) {
        uint64_t r = first + (uint64_t)i;
        if (gen_fill(e->t, r, e->row, err) < 0) return -1;
        if (e->fmt == BB_FMT_TSV) {
            if (put_tsv(e, r, out, err) < 0) return -1;
        } else if (e->fmt == BB_FMT_SQL) put_sql(e, r, out);
        else if (e->fmt != BB_FMT_BINARY) enc_row(e->fmt, o->dia, e->t, e->row, out);
        else if (o->drv->stream_encode(*o->conn, e->row->v, out, err) < 0) return -1;
        i++;
        if (out->len >= limit) break;
    }
    return i;
}
