/* mysql_bulk.c — the pipeline method on MariaDB: array binding (COM_STMT_BULK_EXECUTE).
 * The prepared single-row INSERT goes to the server once with the values of every row of
 * the batch; the server runs it as one statement, so a batch costs one round trip, one
 * transaction and one parse, and none of multirow's thousands of parameters to set up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mysql_priv.h"
#include "../../base/dtoa.h"
#include "../../base/err.h"
#include "../../base/buf.h"

#ifdef MARIADB_CLIENT_STMT_BULK_OPERATIONS

#define NUM_TEXT 32 /* room for a number as text: bb_fmt_double's or an int64 */
_Static_assert(sizeof(void *) >= sizeof(int64_t), "numbers share the pointer slots");

/* Request bytes a row's values take: an indicator, then 8 bytes or a length and the text. */
static size_t row_bytes(const bb_value *row, int n)
{
    size_t b = 0;
    for (int i = 0; i < n; i++) b += 1 + (row[i].kind == BB_V_TEXT ? 9 + row[i].len : 8);
    return b;
}

/* One column's arrays in s->arr: values or text pointers, lengths, indicators. */
typedef struct column {
    void **vals;
    unsigned long *lens;
    char *ind;
} column;

/* The kind a column is sent as: its values' one kind, text when rows mix kinds. */
static int column_kind(const bb_value *const *rows, int nrows, int i)
{
    int kind = BB_V_NULL;
    for (int r = 0; r < nrows; r++) {
        int k = rows[r][i].kind;
        if (k == BB_V_NULL || k == kind) continue;
        if (kind != BB_V_NULL) return BB_V_TEXT;
        kind = k;
    }
    return kind;
}

/* Binds rows [0, nrows) column by column and executes them as one statement. */
static int bulk_execute(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err)
{
    /* three arrays of nrows per column: values or text pointers, lengths, indicators */
    size_t cells = (size_t)nrows * (size_t)s->n, need = cells * (sizeof(void *) + sizeof(unsigned long) + 1);
    if (need > s->arr_cap) {
        free(s->arr);
        s->arr_cap = need;
        s->arr = bb_xmalloc(need);
    }
    void **vals = (void **)s->arr;
    unsigned long *lens = (unsigned long *)(vals + cells);
    char *inds = (char *)(lens + cells);
    /* numbers in mixed columns are sent as text: room for all of them first, so the
     * pointers into s->text stay put */
    int nmixed = 0;
    for (int i = 0; i < s->n; i++) nmixed += column_kind(rows, nrows, i) == BB_V_TEXT;
    s->text.len = 0;
    bb_buf_reserve(&s->text, (size_t)nrows * (size_t)nmixed * NUM_TEXT);
    for (int i = 0; i < s->n; i++) {
        size_t at = (size_t)i * (size_t)nrows;
        column col = { vals + at, lens + at, inds + at };
        int kind = column_kind(rows, nrows, i);
        MYSQL_BIND *b = &s->bind[i];
        memset(b, 0, sizeof *b);
        b->buffer_type = my_field_type(kind);
        b->buffer = col.vals;
        b->length = col.lens;
        b->u.indicator = col.ind;
        for (int r = 0; r < nrows; r++) {
            const bb_value *v = &rows[r][i];
            col.ind[r] = v->kind == BB_V_NULL ? STMT_INDICATOR_NULL : STMT_INDICATOR_NONE;
            col.lens[r] = 0;
            if (v->kind == BB_V_NULL) continue;
            if (kind == BB_V_INT) ((int64_t *)col.vals)[r] = v->u.i;
            else if (kind == BB_V_DOUBLE) ((double *)col.vals)[r] = v->u.d;
            else if (v->kind == BB_V_TEXT) {
                col.vals[r] = (void *)v->u.s;
                col.lens[r] = v->len;
            } else {
                char *t = s->text.p + s->text.len;
                int len =
                    v->kind == BB_V_INT ? snprintf(t, NUM_TEXT, "%lld", (long long)v->u.i) : bb_fmt_double(t, v->u.d);
                s->text.len += (size_t)len;
                col.vals[r] = t;
                col.lens[r] = (unsigned long)len;
            }
        }
    }
    unsigned int n = (unsigned int)nrows;
    int rc = 0;
    if (mysql_stmt_attr_set(s->st, STMT_ATTR_ARRAY_SIZE, &n) || mysql_stmt_bind_param(s->st, s->bind) ||
        mysql_stmt_execute(s->st) != 0)
        rc = my_stmt_fail(err, s, "pipeline");
    else if (affected) *affected += (int64_t)mysql_stmt_affected_rows(s->st);
    n = 0; /* the statement's other uses bind one row */
    mysql_stmt_attr_set(s->st, STMT_ATTR_ARRAY_SIZE, &n);
    return rc;
}

int my_execute_pipeline(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err)
{
    bb_conn *c = s->c;
    unsigned long ext = 0;
    if (mariadb_get_infov(c->my, MARIADB_CONNECTION_EXTENDED_SERVER_CAPABILITIES, &ext) ||
        (c->my->server_capabilities & CLIENT_MYSQL) || !(ext & (MARIADB_CLIENT_STMT_BULK_OPERATIONS >> 32)))
        return bb_errf(err,
                       "mysql %s: pipeline needs MariaDB's bulk execution (MariaDB 10.2 or later), which this "
                       "server lacks; use --method=multirow",
                       c->t->where);
    /* a batch larger than the server's packet limit goes in pieces, inside one transaction */
    int64_t room = c->max_packet > 0 ? c->max_packet - 1024 - 2 * (int64_t)s->n : (int64_t)1 << 30;
    size_t limit = room > 0 ? (size_t)room : 1; /* at least a row per piece, whatever the limit */
    int64_t dummy = 0;
    if (!affected) affected = &dummy;
    *affected = 0;
    int own_txn = 0, rc = 0, done = 0;
    while (done < nrows && rc == 0) {
        int k = 0;
        size_t bytes = 0;
        while (done + k < nrows) {
            size_t rb = row_bytes(rows[done + k], s->n);
            if (k > 0 && bytes + rb > limit) break;
            bytes += rb;
            k++;
        }
        if (done == 0 && k < nrows && !(c->my->server_status & SERVER_STATUS_IN_TRANS)) {
            if (mysql_query(c->my, "BEGIN") != 0) return my_fail(err, c, "pipeline");
            own_txn = 1;
        }
        rc = bulk_execute(s, k, rows + done, affected, err);
        done += k;
    }
    if (own_txn && rc == 0 && mysql_commit(c->my) != 0) rc = my_fail(err, c, "pipeline commit");
    if (own_txn && rc != 0) mysql_rollback(c->my);
    return rc;
}

#endif
