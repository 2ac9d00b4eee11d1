/* encplan.c — rows straight into text (see encplan.h). gen_fill + enc_row pay per value
 * for a bb_value written and read back, a switch on its kind, and a second copy of every
 * text; here each column's way to the output is chosen once, so a row costs little more
 * than drawing its random numbers and writing its digits. */
#include "encplan.h"
#include "encode.h"
#include "gen_priv.h"

#include <stdlib.h>

typedef enum {
    ST_SEQ,    /* seq: its digits */
    ST_INT,    /* int: its digits */
    ST_MONEY,  /* decimal of scale 2: its text */
    ST_STRING, /* random characters of a clean charset */
    ST_FIXED,  /* the same clean text every row (const, a fixed timestamp): copied */
    ST_FILL,   /* clean values: the filler writes its text where the field goes */
    ST_VALUE   /* may need escaping: the filler's value through the encoder */
} step_op;

typedef struct step {
    uint8_t op;    /* step_op */
    uint8_t nulls; /* the column has NULLs */
    const gen_col *c;
} step;

struct encplan {
    const gen_table *t;
    bb_stream_fmt fmt;
    char sep;
    int csv;
    step *steps;
    char *scratch; /* ST_VALUE's text before it is escaped */
};

static step_op plan_op(const gen_col *c, int csv)
{
    if (c->kind == K_SEQ && c->fill == gen_seq_fill) return ST_SEQ;
    if (c->kind == K_INT && c->fill == gen_int_fill) return ST_INT;
    if (!c->clean) return ST_VALUE;
    if (c->fill == gen_money_fill) return ST_MONEY;
    if (csv && (c->fixed ? c->text_len == 0 : c->a == 0)) return ST_FILL; /* CSV quotes an empty string */
    if (c->fill == gen_string_fill) return ST_STRING;
    if (c->fixed) return ST_FIXED;
    return ST_FILL;
}

encplan *encplan_new(const gen_table *t, bb_stream_fmt fmt)
{
    if (fmt != BB_FMT_COPY && fmt != BB_FMT_LOAD_TEXT && fmt != BB_FMT_CSV) return NULL;
    if (t->bound) return NULL; /* a script's values have no bound on their length: row by row */
    encplan *pl = bb_xcalloc(1, sizeof *pl);
    pl->t = t;
    pl->fmt = fmt;
    pl->csv = fmt == BB_FMT_CSV;
    pl->sep = pl->csv ? ',' : '\t';
    pl->steps = bb_xcalloc((size_t)t->ncols + 1, sizeof *pl->steps);
    for (int i = 0; i < t->ncols; i++) {
        const gen_col *c = &t->cols[i];
        pl->steps[i] = (step){ .op = (uint8_t)plan_op(c, pl->csv), .nulls = c->null_ratio > 0, .c = c };
    }
    pl->scratch = bb_xmalloc(t->scratch + GEN_PAD);
    return pl;
}

void encplan_free(encplan *pl)
{
    if (!pl) return;
    free(pl->steps);
    free(pl->scratch);
    free(pl);
}

/* A clean column's value written at p by its own filler; text that lives elsewhere (a
 * choice, a constant) is copied, a number formatted. */
static inline char *fill_here(const encplan *pl, const gen_col *c, uint64_t n, char *p)
{
    bb_value v;
    v.clean = 1;
    v.native = BB_N_NONE;
    c->fill(c, n, &v, p);
    if (v.kind != BB_V_TEXT) return enc_field(pl->fmt, &v, p);
    if (pl->csv && v.len == 0) { /* an empty string, told from NULL by its quotes */
        p[0] = p[1] = '"';
        return p + 2;
    }
    return v.u.s == p ? p + v.len : enc_copy_text(p, v.u.s, v.len);
}

static inline char *plan_row(const encplan *pl, uint64_t n, char *p)
{
    char sep = pl->sep, *start = p;
    uint64_t key = gen_row_key(n);
    int64_t x;
    for (const step *st = pl->steps, *end = st + pl->t->ncols; st < end; st++) {
        const gen_col *c = st->c;
        if (st->nulls && gen_is_null(c, key)) {
            if (!pl->csv) { /* CSV's NULL is an empty unquoted field */
                p[0] = '\\';
                p[1] = 'N';
                p += 2;
            }
        } else {
            switch ((step_op)st->op) { /* every op has its case: no range check */
            case ST_SEQ: p += bb_fmt_i64(p, gen_seq_value(c, n)); break;
            case ST_INT: p += bb_fmt_i64(p, gen_int_value(c, key)); break;
            case ST_MONEY: p = gen_money_text(c, key, p, &x); break;
            case ST_STRING: p += gen_string_text(c, n, p); break;
            case ST_FIXED: p = enc_copy_text(p, c->text, c->text_len); break;
            case ST_FILL: p = fill_here(pl, c, n, p); break;
            case ST_VALUE: {
                bb_value v;
                v.clean = 0;
                v.native = BB_N_NONE;
                c->fill(c, n, &v, pl->scratch);
                p = enc_field(pl->fmt, &v, p);
                break;
            }
            default: __builtin_unreachable();
            }
        }
        *p++ = sep; /* the last becomes the line end */
    }
    if (p == start) *p++ = '\n'; /* no columns: an empty line, as enc_row writes */
    else p[-1] = '\n';
    return p;
}

int64_t encplan_rows(const encplan *pl, uint64_t first, int64_t n, bb_buf *out, size_t limit)
{
    size_t line = pl->t->max_line;
    int64_t i = 0;
    while (i < n) {
        bb_buf_reserve(out, line); /* one check per row, none per value */
        out->len = (size_t)(plan_row(pl, first + (uint64_t)i, out->p + out->len) - out->p);
        i++;
        if (out->len >= limit) break;
    }
    return i;
}
