/* odbc_bind.c — prepared statements through ODBC: single rows bound from stable per-slot
 * storage, and the pipeline method as array binding (SQL_ATTR_PARAMSET_SIZE): the INSERT
 * executed once per batch with its values bound column-wise, ODBC's executeBatch. What the
 * driver makes of an array is its own business (one statement, a multi-statement text, or
 * a loop of executions); the batch is one transaction whatever it does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/calendar.h"
#include "odbc_priv.h"
#include "../../base/dtoa.h"
#include "../../base/err.h"
#include "../../base/buf.h"

#define NUM_TEXT 32                  /* a number as text: bb_fmt_double's or an int64 */
#define ARENA_MAX ((size_t)64 << 20) /* bytes of arrays per execution: a longer batch goes in pieces */

/* How a value is handed to the driver. */
typedef enum { OF_NULL, OF_INT, OF_DOUBLE, OF_TS, OF_DATE, OF_TEXT, OF_BIN } odbc_form;

/* Timestamps and dates go as ODBC structs to a DBMS with such types; SQLite stores the
 * text, so it gets the text the other engines write there. MariaDB Connector/ODBC (3.1)
 * loses an allocation per value of a struct array (40 bytes a row and column, for good),
 * so arrays carry the text there, as the mysql engine's own array binding does. */
static odbc_form form_of(const bb_conn *c, bb_sqltype type, const bb_value *v, int array)
{
    int structs = c->t->kind != ODBC_SQLITE && !(array && c->t->kind == ODBC_MYSQL);
    switch (v->kind) {
    case BB_V_NULL: return OF_NULL;
    case BB_V_INT: return type == BB_T_INT || type == BB_T_BOOL || type == BB_T_DOUBLE ? OF_INT : OF_TEXT;
    case BB_V_DOUBLE: return type == BB_T_DOUBLE || type == BB_T_INT ? OF_DOUBLE : OF_TEXT;
    default:
        if (type == BB_T_BYTES) return OF_BIN;
        if (type == BB_T_TIMESTAMP && v->native == BB_N_MICROS && structs) return OF_TS;
        if (type == BB_T_DATE && v->native == BB_N_DAYS && structs) return OF_DATE;
        return OF_TEXT;
    }
}

static SQLSMALLINT c_type(odbc_form f)
{
    static const SQLSMALLINT ct[] = { SQL_C_CHAR,      SQL_C_SBIGINT, SQL_C_DOUBLE, SQL_C_TYPE_TIMESTAMP,
                                      SQL_C_TYPE_DATE, SQL_C_CHAR,    SQL_C_BINARY };
    return ct[f];
}

/* The SQL type a parameter is declared as; colsize is stable across values of similar
 * size, so drivers that declare typed parameters (SQL Server) need not prepare again. */
static SQLSMALLINT sql_type(const bb_conn *c, odbc_form f, bb_sqltype type, size_t len, SQLULEN *colsize,
                            SQLSMALLINT *digits)
{
    *colsize = 0;
    *digits = 0;
    if (f == OF_NULL) {
        switch (type) {
        case BB_T_INT: f = OF_INT; break;
        case BB_T_BOOL: f = OF_INT; break;
        case BB_T_DOUBLE: f = OF_DOUBLE; break;
        case BB_T_TIMESTAMP: f = c->t->kind == ODBC_SQLITE ? OF_TEXT : OF_TS; break;
        case BB_T_DATE: f = c->t->kind == ODBC_SQLITE ? OF_TEXT : OF_DATE; break;
        case BB_T_BYTES: f = OF_BIN; break;
        default: f = OF_TEXT; break;
        }
    }
    switch (f) {
    case OF_INT:
        if (type == BB_T_BOOL) return c->t->kind == ODBC_ORACLE ? SQL_INTEGER : SQL_BIT; /* NUMBER(1) on Oracle */
        return type == BB_T_DOUBLE ? SQL_DOUBLE : SQL_BIGINT;
    case OF_DOUBLE: return SQL_DOUBLE;
    case OF_TS:
        *colsize = 26;
        *digits = 6;
        return SQL_TYPE_TIMESTAMP;
    case OF_DATE: *colsize = 10; return SQL_TYPE_DATE;
    case OF_BIN: *colsize = len <= 8000 ? 8000 : len; return len <= 8000 ? SQL_VARBINARY : SQL_LONGVARBINARY;
    default: *colsize = len <= 4000 ? 4000 : len; return len <= 4000 ? SQL_VARCHAR : SQL_LONGVARCHAR;
    }
}

static void ts_of(int64_t us, SQL_TIMESTAMP_STRUCT *ts)
{
    int64_t sec = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
    int64_t days = sec >= 0 ? sec / 86400 : (sec - 86399) / 86400, rem = sec - days * 86400;
    int y, m, d;
    civil_from_days(days, &y, &m, &d);
    ts->year = (SQLSMALLINT)y;
    ts->month = (SQLUSMALLINT)m;
    ts->day = (SQLUSMALLINT)d;
    ts->hour = (SQLUSMALLINT)(rem / 3600);
    ts->minute = (SQLUSMALLINT)(rem / 60 % 60);
    ts->second = (SQLUSMALLINT)(rem % 60);
    ts->fraction = (SQLUINTEGER)((us - sec * 1000000) * 1000); /* nanoseconds */
}

static void date_of(int64_t days, SQL_DATE_STRUCT *dt)
{
    int y, m, d;
    civil_from_days(days, &y, &m, &d);
    dt->year = (SQLSMALLINT)y;
    dt->month = (SQLUSMALLINT)m;
    dt->day = (SQLUSMALLINT)d;
}

/* A value's bytes as text: its own, or a number written out into num. */
static const char *text_of(const bb_value *v, char *num, size_t *len)
{
    if (v->kind == BB_V_TEXT) {
        *len = v->len;
        return v->u.s;
    }
    int n = v->kind == BB_V_INT ? snprintf(num, NUM_TEXT, "%lld", (long long)v->u.i) : bb_fmt_double(num, v->u.d);
    *len = (size_t)n;
    return num;
}

/* ---- single rows ---- */

int odbc_prepare(bb_conn *c, const char *sql, int nparams, const bb_sqltype *types, bb_stmt **out, bb_err *err)
{
    bb_stmt *s = bb_xcalloc(1, sizeof *s);
    s->c = c;
    if (!odbc_ok(SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &s->st))) {
        free(s);
        return odbc_fail(err, c, SQL_HANDLE_DBC, c->dbc, "prepare");
    }
    (void)SQLSetStmtAttr(s->st, SQL_ATTR_NOSCAN, (SQLPOINTER)SQL_NOSCAN_ON, 0); /* a hint, as in odbc.c */
    if (!odbc_ok(SQLPrepare(s->st, (SQLCHAR *)sql, SQL_NTS))) {
        odbc_fail(err, c, SQL_HANDLE_STMT, s->st, "prepare");
        (void)SQLFreeHandle(SQL_HANDLE_STMT, s->st);
        free(s);
        return -1;
    }
    SQLSMALLINT n = 0;
    if (odbc_ok(SQLNumParams(s->st, &n)) && n != nparams) { /* a driver that cannot count says nothing */
        bb_errf(err, "odbc %s: prepare: the driver counts %d parameters, %d given", c->t->where, n, nparams);
        (void)SQLFreeHandle(SQL_HANDLE_STMT, s->st);
        free(s);
        return -1;
    }
    s->sql = bb_xstrdup(sql);
    s->n = nparams;
    s->types = bb_xmalloc(sizeof *s->types * (size_t)(nparams ? nparams : 1));
    if (nparams) memcpy(s->types, types, sizeof *s->types * (size_t)nparams);
    s->slot = bb_xcalloc((size_t)(nparams ? nparams : 1), sizeof *s->slot);
    *out = s;
    return 0;
}

/* Copies v into its slot and rebinds the slot only when its shape changed. */
static int bind_slot(bb_stmt *s, int i, const bb_value *v, bb_err *err)
{
    odbc_slot *sl = &s->slot[i];
    odbc_form f = form_of(s->c, s->types[i], v, 0);
    if (f == OF_NULL && sl->bound) { /* the driver reads no value: any binding of the column will do */
        sl->ind = SQL_NULL_DATA;
        return 0;
    }
    char num[NUM_TEXT];
    size_t len = 0;
    void *ptr = &sl->u;
    int moved = 0;
    sl->ind = 0;
    switch (f) {
    case OF_NULL: sl->ind = SQL_NULL_DATA; break;
    case OF_INT: sl->u.i = v->u.i; break;
    case OF_DOUBLE: sl->u.d = v->u.d; break;
    case OF_TS: ts_of(v->aux, &sl->u.ts); break;
    case OF_DATE: date_of(v->aux, &sl->u.dt); break;
    default: {
        const char *t = text_of(v, num, &len);
        if (len + 1 > sl->cap) {
            free(sl->buf);
            sl->cap = len < 64 ? 64 : len * 2;
            sl->buf = bb_xmalloc(sl->cap);
            moved = 1;
        }
        memcpy(sl->buf, t, len);
        sl->ind = (SQLLEN)len;
        ptr = sl->buf;
    }
    }
    SQLULEN colsize;
    SQLSMALLINT digits, ct = c_type(f), st = sql_type(s->c, f, s->types[i], len, &colsize, &digits);
    if (sl->bound && !moved && sl->ctype == ct && sl->sqltype == st && sl->colsize == colsize && sl->digits == digits)
        return 0;
    SQLLEN buflen = (f == OF_TEXT || f == OF_BIN) ? (SQLLEN)sl->cap : f == OF_NULL ? (SQLLEN)sizeof sl->u : 0;
    if (!odbc_ok(SQLBindParameter(s->st, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, ct, st, colsize, digits, ptr, buflen,
                                  &sl->ind)))
        return odbc_fail(err, s->c, SQL_HANDLE_STMT, s->st, "bind");
    sl->ctype = ct;
    sl->sqltype = st;
    sl->colsize = colsize;
    sl->digits = digits;
    sl->bound = 1;
    return 0;
}

/* Back to one row per execution after array binding: the driver must forget the arrays. */
static int unarray(bb_stmt *s, bb_err *err)
{
    if (!odbc_ok(SQLSetStmtAttr(s->st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0)) ||
        !odbc_ok(SQLSetStmtAttr(s->st, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0)) ||
        !odbc_ok(SQLSetStmtAttr(s->st, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0)) ||
        !odbc_ok(SQLFreeStmt(s->st, SQL_RESET_PARAMS)))
        return odbc_fail(err, s->c, SQL_HANDLE_STMT, s->st, "execute: back to single rows");
    for (int i = 0; i < s->n; i++) s->slot[i].bound = 0;
    s->arrayed = 0;
    return 0;
}

int odbc_execute(bb_stmt *s, const bb_value *p, int64_t *affected, bb_err *err)
{
    if (odbc_outside_txn(s->c, err) < 0) return -1;
    if (s->arrayed && unarray(s, err) < 0) return -1;
    for (int i = 0; i < s->n; i++)
        if (bind_slot(s, i, &p[i], err) < 0) return -1;
    SQLRETURN rc = SQLExecute(s->st);
    if (rc != SQL_NO_DATA && !odbc_ok(rc)) return odbc_fail(err, s->c, SQL_HANDLE_STMT, s->st, "execute");
    SQLLEN n = 0;
    if (affected) *affected = rc != SQL_NO_DATA && odbc_ok(SQLRowCount(s->st, &n)) && n > 0 ? n : 0;
    SQLSMALLINT cols = 0;
    if (rc != SQL_NO_DATA && odbc_ok(SQLNumResultCols(s->st, &cols)) && cols > 0) (void)SQLFreeStmt(s->st, SQL_CLOSE);
    return 0;
}

void odbc_finalize(bb_stmt *s)
{
    if (!s) return;
    (void)SQLFreeHandle(SQL_HANDLE_STMT, s->st);
    for (int i = 0; i < s->n; i++) free(s->slot[i].buf);
    free(s->slot);
    free(s->types);
    free(s->sql);
    free(s->arena);
    free(s->status);
    free(s);
}

/* ---- arrays ---- */

/* One column of a piece: its form, and where its values and indicators lie in the arena. */
typedef struct col_plan {
    odbc_form form;
    size_t stride, at, ind_at;
} col_plan;

/* A column's form over the batch: its values' one form, text when they mix. */
static odbc_form column_form(const bb_stmt *s, const bb_value *const *rows, int nrows, int i)
{
    odbc_form f = OF_NULL;
    for (int r = 0; r < nrows; r++) {
        odbc_form g = form_of(s->c, s->types[i], &rows[r][i], 1);
        if (g == OF_NULL || g == f) continue;
        if (f != OF_NULL) return s->types[i] == BB_T_BYTES ? OF_BIN : OF_TEXT;
        f = g;
    }
    return f;
}

static size_t fixed_size(odbc_form f)
{
    switch (f) {
    case OF_INT: return sizeof(SQLBIGINT);
    case OF_DOUBLE: return sizeof(double);
    case OF_TS: return sizeof(SQL_TIMESTAMP_STRUCT);
    case OF_DATE: return sizeof(SQL_DATE_STRUCT);
    default: return 1;
    }
}

static size_t value_len(const bb_value *v)
{
    return v->kind == BB_V_TEXT ? v->len : v->kind == BB_V_NULL ? 0 : NUM_TEXT;
}

/* How many rows from rows[0] fit one execution: the arena's cap, and on MySQL the server's
 * packet limit (a value costs its bytes plus ~9 bytes of framing). At least one. */
static int piece_rows(const bb_stmt *s, const bb_value *const *rows, int nrows, const odbc_form *forms, size_t *maxlen)
{
    int64_t packet = s->c->max_packet > 0 ? s->c->max_packet - 1024 - 2 * (int64_t)s->n : INT64_MAX;
    size_t fixed = 0, wire = 0;
    for (int i = 0; i < s->n; i++) {
        maxlen[i] = 1;
        fixed += (forms[i] == OF_TEXT || forms[i] == OF_BIN ? 0 : fixed_size(forms[i])) + sizeof(SQLLEN);
    }
    int k = 0;
    for (; k < nrows; k++) {
        size_t var = 0, rowwire = 0;
        for (int i = 0; i < s->n; i++) {
            size_t l = value_len(&rows[k][i]);
            rowwire += 9 + l;
            if (forms[i] != OF_TEXT && forms[i] != OF_BIN) continue;
            var += l > maxlen[i] ? l : maxlen[i];
        }
        if (k > 0 && ((size_t)(k + 1) * (fixed + var) > ARENA_MAX || (int64_t)(wire + rowwire) > packet)) break;
        for (int i = 0; i < s->n; i++) {
            size_t l = value_len(&rows[k][i]);
            if (l > maxlen[i]) maxlen[i] = l;
        }
        wire += rowwire;
    }
    return k;
}

/* Writes one value into its cell of a column's array in the column's form; its indicator:
 * SQL_NULL_DATA, the text's length, or 0 for a fixed-size form. */
static SQLLEN put_cell(odbc_form form, const bb_value *v, char *cell, char *num)
{
    if (v->kind == BB_V_NULL) return SQL_NULL_DATA;
    switch (form) {
    case OF_INT: memcpy(cell, &v->u.i, sizeof(SQLBIGINT)); return 0;
    case OF_DOUBLE: memcpy(cell, &v->u.d, sizeof(double)); return 0;
    case OF_TS: {
        SQL_TIMESTAMP_STRUCT ts;
        ts_of(v->aux, &ts);
        memcpy(cell, &ts, sizeof ts);
        return 0;
    }
    case OF_DATE: {
        SQL_DATE_STRUCT dt;
        date_of(v->aux, &dt);
        memcpy(cell, &dt, sizeof dt);
        return 0;
    }
    default: {
        size_t len;
        const char *t = text_of(v, num, &len);
        memcpy(cell, t, len);
        return (SQLLEN)len;
    }
    }
}

/* Lays rows [0,k) out column by column in the arena and binds the arrays. */
static int bind_arrays(bb_stmt *s, const bb_value *const *rows, int k, const odbc_form *forms, const size_t *maxlen,
                       bb_err *err)
{
    col_plan plan[s->n];
    size_t total = 0;
    for (int i = 0; i < s->n; i++) {
        plan[i].form = forms[i];
        plan[i].stride = forms[i] == OF_TEXT || forms[i] == OF_BIN ? maxlen[i] : fixed_size(forms[i]);
        plan[i].at = total;
        total += (plan[i].stride * (size_t)k + 7) & ~(size_t)7; /* keeps every array 8-aligned */
        plan[i].ind_at = total;
        total += sizeof(SQLLEN) * (size_t)k;
    }
    if (total > s->arena_cap) {
        free(s->arena);
        s->arena_cap = total + total / 4;
        s->arena = bb_xmalloc(s->arena_cap);
    }
    for (int i = 0; i < s->n; i++) {
        col_plan *p = &plan[i];
        char *base = s->arena + p->at, num[NUM_TEXT];
        SQLLEN *ind = (SQLLEN *)(void *)(s->arena + p->ind_at);
        for (int r = 0; r < k; r++) ind[r] = put_cell(p->form, &rows[r][i], base + (size_t)r * p->stride, num);
        SQLULEN colsize;
        SQLSMALLINT digits, st = sql_type(s->c, p->form, s->types[i], maxlen[i], &colsize, &digits);
        /* character arrays step by BufferLength: all-NULL columns are such arrays too */
        SQLLEN buflen = p->form == OF_TEXT || p->form == OF_BIN || p->form == OF_NULL ? (SQLLEN)p->stride : 0;
        if (!odbc_ok(SQLBindParameter(s->st, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, c_type(p->form), st, colsize,
                                      digits, base, buflen, ind)))
            return odbc_fail(err, s->c, SQL_HANDLE_STMT, s->st, "pipeline bind");
    }
    return 0;
}

/* Executes rows [0,k) as one array. */
static int exec_piece(bb_stmt *s, const bb_value *const *rows, int k, const odbc_form *forms, const size_t *maxlen,
                      bb_err *err)
{
    if (k > s->status_cap) {
        free(s->status);
        s->status_cap = k;
        s->status = bb_xmalloc(sizeof *s->status * (size_t)k);
    }
    for (int r = 0; r < k; r++) s->status[r] = SQL_PARAM_UNUSED;
    s->processed = 0;
    s->arrayed = 1;
    for (int i = 0; i < s->n; i++) s->slot[i].bound = 0;
    if (!odbc_ok(SQLSetStmtAttr(s->st, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0)) ||
        !odbc_ok(SQLSetStmtAttr(s->st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)k, 0)) ||
        !odbc_ok(SQLSetStmtAttr(s->st, SQL_ATTR_PARAM_STATUS_PTR, s->status, 0)) ||
        !odbc_ok(SQLSetStmtAttr(s->st, SQL_ATTR_PARAMS_PROCESSED_PTR, &s->processed, 0)))
        return odbc_fail(err, s->c, SQL_HANDLE_STMT, s->st, "pipeline: array binding");
    if (bind_arrays(s, rows, k, forms, maxlen, err) < 0) return -1;
    SQLRETURN rc = SQLExecute(s->st);
    if (rc != SQL_NO_DATA && !odbc_ok(rc)) return odbc_fail(err, s->c, SQL_HANDLE_STMT, s->st, "pipeline");
    /* a driver may report a refused row as a warning on the whole execution */
    for (int r = 0; r < k; r++)
        if (s->status[r] == SQL_PARAM_ERROR) return odbc_fail(err, s->c, SQL_HANDLE_STMT, s->st, "pipeline");
    SQLSMALLINT cols = 0;
    if (rc != SQL_NO_DATA && odbc_ok(SQLNumResultCols(s->st, &cols)) && cols > 0) (void)SQLFreeStmt(s->st, SQL_CLOSE);
    return 0;
}

/* ---- a refused row ---- */

/* Whether rows can be run again to find the refused one: the replay is rolled back, which
 * a MySQL table that is not InnoDB would ignore (its rows would stay). The table is the
 * one the runtime's INSERT INTO `name` names. */
static int replay_safe(bb_stmt *s)
{
    if (s->c->t->kind != ODBC_MYSQL) return 1;
    const char *p = s->sql;
    if (strncmp(p, "INSERT INTO `", 13) != 0) return 0;
    char name[256];
    size_t n = 0;
    for (p += 13; *p && n + 1 < sizeof name; p++) {
        if (*p == '`' && p[1] != '`') break;
        if (*p == '`') p++;
        name[n++] = *p;
    }
    name[n] = 0;
    const char *params[1] = { name };
    int64_t innodb = 0;
    bb_err ignore;
    return odbc_query(s->c,
                      "SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND "
                      "table_name = ? AND engine = 'InnoDB'",
                      1, params, bb_row_int, &innodb, &ignore) == 0 &&
        innodb > 0;
}

/* Runs rows [0,upto) one by one in a transaction that is rolled back; the index of the
 * first the server refuses (its reason in *why), or -1. */
static int replay(bb_stmt *s, const bb_value *const *rows, int upto, bb_err *why)
{
    bb_conn *c = s->c;
    bb_err ignore;
    int in = c->in_txn, found = -1;
    if (odbc_autocommit(c, 0, &ignore) < 0) return -1;
    c->in_txn = 1;
    if (replay_safe(s))
        for (int r = 0; r < upto && found < 0; r++)
            if (odbc_execute(s, rows[r], NULL, why) < 0) found = r;
    if (!odbc_ok(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK)))
        found = -1; /* the replay's rows may stand: name none */
    c->in_txn = in;
    return found;
}

static void first_value(const bb_value *v, char *out, size_t n)
{
    char num[NUM_TEXT];
    size_t len;
    if (v->kind == BB_V_NULL) {
        snprintf(out, n, "NULL");
        return;
    }
    const char *t = text_of(v, num, &len);
    snprintf(out, n, "%.*s%s", (int)(len > 40 ? 40 : len), t, len > 40 ? "..." : "");
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < ' ') *p = ' ';
}

/* After a failed batch, rolled back: names the row the server refused. The driver's row
 * marks are used when they point at one row; drivers that send several rows as one
 * statement mark them all (or none), and then the rows are replayed to find it. */
static void name_refused(bb_stmt *s, const bb_value *const *rows, int nrows, int base, int k, bb_err *err)
{
    int marked = 0, row = -1;
    for (int r = 0; r < k; r++)
        if (s->status[r] == SQL_PARAM_ERROR && marked++ == 0) row = base + r;
    bb_err why = *err;
    if (marked != 1) row = replay(s, rows, base + k, &why);
    if (row < 0) return;
    char fv[64], msg[sizeof err->msg];
    first_value(&rows[row][0], fv, sizeof fv);
    const char *reason = strstr(why.msg, ": [");
    snprintf(msg, sizeof msg, "odbc %s: pipeline: row %d of %d in the batch (first value %s) refused%s", s->c->t->where,
             row + 1, nrows, fv, reason ? reason : "");
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    odbc_mask_msg(s->c->t, err->msg);
    err->row = row + 1;
}

int odbc_execute_pipeline(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err)
{
    bb_conn *c = s->c;
    int own = !c->in_txn; /* else the caller's transaction (--reconnect marks) holds the batch */
    if (own && odbc_autocommit(c, 0, err) < 0) return -1;
    odbc_form forms[s->n ? s->n : 1];
    size_t maxlen[s->n ? s->n : 1];
    for (int i = 0; i < s->n; i++) forms[i] = column_form(s, rows, nrows, i);
    int done = 0, k = 0, rc = 0;
    while (done < nrows && rc == 0) {
        k = piece_rows(s, rows + done, nrows - done, forms, maxlen);
        if ((rc = exec_piece(s, rows + done, k, forms, maxlen, err)) == 0) done += k;
    }
    if (rc == 0 && own && !odbc_ok(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT)))
        return odbc_fail(err, c, SQL_HANDLE_DBC, c->dbc, "pipeline commit");
    if (rc < 0) {
        (void)SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK); /* the batch's own error is the one to report */
        name_refused(s, rows, nrows, done, k, err);
        return -1;
    }
    if (affected) *affected = nrows;
    return 0;
}
