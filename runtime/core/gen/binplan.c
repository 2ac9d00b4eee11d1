/* binplan.c — rows straight into a binary stream (see binplan.h). */
#include "binplan.h"
#include "gen_priv.h"
#include "../../../base/be.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
    BS_INT,     /* seq, int: the integer, in the form the engine gave (else its writer) */
    BS_INT4,    /* an int whose whole range fits the engine's int4: no check per value */
    BS_DECIMAL, /* a decimal into a writer that takes its integer and scale alone */
    BS_NATIVE,  /* the writer takes the native form alone: the filler that makes only that */
    BS_FIXED,   /* the same value every row: its field, made once */
    BS_STRING,  /* random characters into a column that takes their bytes: made in place after their length */
    BS_BYTES,   /* text into a column that takes its bytes: made in place after its length */
    BS_FILL     /* anything else: the filler's value through the writer */
} bstep_op;

typedef struct bstep {
    uint8_t op;    /* bstep_op */
    uint8_t nulls; /* the column has NULLs */
    uint8_t form;  /* bb_field_form */
    uint8_t fixed_len;
    const gen_col *c;
    bb_field_fn put;
    char fixed[32]; /* BS_FIXED: the field */
} bstep;

struct binplan {
    const gen_table *t;
    bb_stream_layout lay;
    bstep *steps;
    size_t room; /* most bytes one row can take */
    char *scratch;
};

/* A fixed column's field, written once into st; 0 when it does not fit there. */
static int fixed_field(binplan *pl, bstep *st)
{
    bb_value v = { .clean = st->c->clean };
    bb_err err;
    char tmp[BB_FIELD_ROOM + 64];
    if (st->c->text_len > 64) return 0;
    st->c->fill(st->c, 0, &v, pl->scratch);
    char *end = st->put(tmp, &v, &err);
    if (!end || end - tmp > (long)sizeof st->fixed) return 0; /* a misfit: let each row say so */
    st->fixed_len = (uint8_t)(end - tmp);
    memcpy(st->fixed, tmp, st->fixed_len);
    return 1;
}

/* An int column every value of which fits the engine's int4: written with no check per value. */
static int fits_int4(const gen_col *c, int form)
{
    return form == BB_FORM_INT4 && c->kind == K_INT && c->a >= INT32_MIN && c->b <= INT32_MAX;
}

binplan *binplan_new(const gen_table *t, const bb_stream_layout *lay)
{
    binplan *pl = bb_xcalloc(1, sizeof *pl);
    pl->t = t;
    pl->lay = *lay;
    pl->steps = bb_xcalloc((size_t)t->ncols + 1, sizeof *pl->steps);
    pl->scratch = bb_xmalloc(t->scratch + GEN_PAD);
    for (int i = 0; i < t->ncols; i++) {
        const gen_col *c = &t->cols[i];
        bstep *st = &pl->steps[i];
        *st = (bstep){
            .nulls = c->null_ratio > 0, .form = lay->forms ? lay->forms[i] : 0, .c = c, .put = lay->fields[i]
        };
        if ((c->kind == K_SEQ && c->fill == gen_seq_fill) || (c->kind == K_INT && c->fill == gen_int_fill))
            st->op = fits_int4(c, st->form) ? BS_INT4 : BS_INT;
        else if (c->fill_native && lay->natives && lay->natives[i] == c->native)
            st->op = c->fill_native == gen_decimal_native ? BS_DECIMAL : BS_NATIVE;
        else if (c->fixed && fixed_field(pl, st)) st->op = BS_FIXED;
        else if (st->form == BB_FORM_BYTES) st->op = c->fill == gen_string_fill ? BS_STRING : BS_BYTES;
        else st->op = BS_FILL;
    }
    pl->room = (size_t)lay->prefix_len + (size_t)t->ncols * BB_FIELD_ROOM + t->scratch;
    return pl;
}

void binplan_free(binplan *pl)
{
    if (!pl) return;
    free(pl->steps);
    free(pl->scratch);
    free(pl);
}

/* An integer in the engine's form for it (BB_FORM_INT4, BB_FORM_INT8); NULL when the
 * column has no such form or the integer does not fit it, for the writer to deal with. */
static inline char *put_int(char *p, int form, int64_t i)
{
    if (form == BB_FORM_INT8) return bb_be64(bb_be32(p, 8), (uint64_t)i);
    if (form != BB_FORM_INT4 || i < INT32_MIN || i > INT32_MAX) return NULL;
    return bb_be32(bb_be32(p, 4), (uint32_t)(int32_t)i);
}

static inline char *plan_row(const binplan *pl, uint64_t n, char *p, bb_err *err)
{
    uint64_t key = gen_row_key(n);
    memcpy(p, pl->lay.prefix, 8);
    p += pl->lay.prefix_len;
    for (const bstep *st = pl->steps, *end = st + pl->t->ncols; st < end; st++) {
        const gen_col *c = st->c;
        if (st->nulls && gen_is_null(c, key)) {
            memcpy(p, pl->lay.null_field, 8);
            p += pl->lay.null_len;
            continue;
        }
        bb_value v;
        char *e;
        switch ((bstep_op)st->op) {
        case BS_INT4: p = bb_be32(bb_be32(p, 4), (uint32_t)(int32_t)gen_int_value(c, key)); continue;
        case BS_INT:
            v.kind = BB_V_INT;
            v.u.i = c->kind == K_SEQ ? gen_seq_value(c, n) : gen_int_value(c, key);
            if ((e = put_int(p, st->form, v.u.i))) {
                p = e;
                continue;
            }
            break;
        case BS_DECIMAL:
            v.kind = BB_V_TEXT;
            v.u.s = NULL;
            v.len = 0;
            v.native = BB_N_SCALED;
            v.scale = (uint8_t)c->scale;
            v.aux = gen_int_value(c, key);
            break;
        case BS_NATIVE: c->fill_native(c, n, &v, pl->scratch); break;
        case BS_STRING: {
            uint32_t len = gen_string_text(c, n, p + 4);
            p = bb_be32(p, len) + len;
            continue;
        }
        case BS_FIXED:
            memcpy(p, st->fixed, sizeof st->fixed);
            p += st->fixed_len;
            continue;
        case BS_BYTES: /* the filler writes its text where the field's bytes go */
            v.clean = c->clean;
            v.native = BB_N_NONE;
            c->fill(c, n, &v, p + 4);
            if (v.kind != BB_V_TEXT) break;
            if (v.u.s != p + 4) memcpy(p + 4, v.u.s, v.len);
            p = bb_be32(p, v.len) + v.len;
            continue;
        case BS_FILL:
            v.clean = c->clean;
            v.native = BB_N_NONE;
            c->fill(c, n, &v, pl->scratch);
            break;
        }
        if (!(p = st->put(p, &v, err))) return NULL;
    }
    return p;
}

int64_t binplan_rows(const binplan *pl, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err)
{
    int64_t i = 0;
    while (i < n) {
        bb_buf_reserve(out, pl->room);
        char *end = plan_row(pl, first + (uint64_t)i, out->p + out->len, err);
        if (!end) return -1;
        out->len = (size_t)(end - out->p);
        i++;
        if (out->len >= limit) break;
    }
    return i;
}
