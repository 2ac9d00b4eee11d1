/* pg_copy.c — COPY FROM STDIN in text, CSV and binary: the stream the runtime writes
 * encoded rows into, and the binary encoder that needs the server's column types. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_priv.h"

#include <poll.h>
#include "pg_types.h"
#include "../../base/be.h"
#include "../../base/err.h"
#include "../../base/buf.h"

/* Learns the target columns' types once per table: later streams of the same table reuse
 * them, since a producer thread may be encoding with them while the next COPY opens. */
static int copy_types(bb_conn *c, const bb_stream_spec *spec, bb_err *err)
{
    if (c->copy_types && c->copy_ncols == spec->ncols && strcmp(c->copy_table, spec->name) == 0) return 0;
    c->copy_table[0] = 0; /* named once all its columns are known: a failure here is not remembered */
    free(c->copy_types);
    free(c->copy_fields);
    free(c->copy_natives);
    free(c->copy_forms);
    c->copy_types = bb_xcalloc((size_t)spec->ncols + 1, sizeof *c->copy_types);
    c->copy_fields = bb_xcalloc((size_t)spec->ncols + 1, sizeof *c->copy_fields);
    c->copy_natives = bb_xcalloc((size_t)spec->ncols + 1, 1);
    c->copy_forms = bb_xcalloc((size_t)spec->ncols + 1, 1);
    c->copy_ncols = spec->ncols;
    /* the table's columns in one round trip, matched by name here; the table by its quoted
     * identifier, as COPY names it: regclass folds a bare name to lower case */
    /* an enum's binary form is its label's text; a domain's is its base type's */
    const char *p[1] = { spec->table };
    PGresult *r = PQexecParams(c->pg,
                               "SELECT a.attname, CASE t.typtype WHEN 'e' THEN 'text'::regtype::oid WHEN 'd' THEN "
                               "t.typbasetype ELSE a.atttypid END, format_type(a.atttypid, a.atttypmod) "
                               "FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid "
                               "WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped",
                               1, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return pg_res_fail(err, c, r, "copy-binary");
    for (int i = 0; i < spec->ncols; i++) {
        int row = -1;
        for (int k = 0; k < PQntuples(r) && row < 0; k++)
            if (strcmp(PQgetvalue(r, k, 0), spec->colnames[i]) == 0) row = k;
        if (row < 0) {
            PQclear(r);
            return bb_errf(err, "pg %s: copy-binary: table %s has no column %s", c->t->where, spec->name,
                           spec->colnames[i]);
        }
        c->copy_types[i] = (Oid)strtoul(PQgetvalue(r, row, 1), NULL, 10);
        c->copy_fields[i] = pgt_field(c->copy_types[i], &c->copy_natives[i], &c->copy_forms[i]);
        if (!pgt_binary(c->copy_types[i])) {
            int rc = bb_errf(err,
                             "pg %s: copy-binary: column %s is of type %s, which the binary encoder does not write; "
                             "use --method=copy",
                             c->t->where, spec->colnames[i], PQgetvalue(r, row, 2));
            PQclear(r);
            return rc;
        }
    }
    PQclear(r);
    snprintf(c->copy_table, sizeof c->copy_table, "%s", spec->name);
    return 0;
}

int pg_stream_open(bb_conn *c, const bb_stream_spec *spec, bb_err *err)
{
    c->copy_binary = spec->format == BB_FMT_BINARY;
    if (c->copy_binary && copy_types(c, spec, err) < 0) return -1;
    bb_buf sql = { 0 };
    bb_buf_printf(&sql, "COPY %s %s FROM STDIN WITH (FORMAT %s", spec->table, spec->columns,
                  spec->format == BB_FMT_CSV          ? "csv"
                      : spec->format == BB_FMT_BINARY ? "binary"
                                                      : "text");
    /* one-byte options as E'' literals, so a quote or backslash is spelled safely */
    if (spec->delimiter) bb_buf_printf(&sql, ", DELIMITER E'\\x%02x'", (unsigned char)spec->delimiter);
    if (spec->quote && spec->format == BB_FMT_CSV)
        bb_buf_printf(&sql, ", QUOTE E'\\x%02x'", (unsigned char)spec->quote);
    if (spec->null && spec->format == BB_FMT_CSV) { /* byte by byte too: it may hold a quote or a backslash */
        bb_buf_puts(&sql, ", NULL E'");
        for (const char *p = spec->null; *p; p++) bb_buf_printf(&sql, "\\x%02x", (unsigned char)*p);
        bb_buf_puts(&sql, "'");
    }
    if (spec->option) bb_buf_printf(&sql, ", %s", spec->option);
    bb_buf_puts(&sql, ")");
    bb_buf_putc(&sql, 0);
    PGresult *r = PQexec(c->pg, sql.p);
    bb_buf_free(&sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) return pg_res_fail(err, c, r, "COPY");
    PQclear(r);
    if (c->copy_binary) { /* signature, flags, header extension length */
        static const char head[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";
        return pg_stream_write(c, head, sizeof head, err);
    }
    return 0;
}

int pg_stream_layout(bb_conn *c, bb_stream_layout *out, bb_err *err)
{
    if (!c->copy_fields) return bb_errf(err, "pg: no binary COPY is open");
    memset(out, 0, sizeof *out);
    out->prefix[0] = (char)(c->copy_ncols >> 8);
    out->prefix[1] = (char)c->copy_ncols;
    out->prefix_len = 2;
    memset(out->null_field, 0xff, 4); /* length -1 */
    out->null_len = 4;
    out->fields = c->copy_fields;
    out->natives = c->copy_natives;
    out->forms = c->copy_forms;
    return 0;
}

/* A row as binary COPY: the field count, then each field's length and bytes. */
int pg_stream_encode(bb_conn *c, const bb_value *row, bb_buf *out, bb_err *err)
{
    size_t fixed = 2 + (size_t)c->copy_ncols * BB_FIELD_ROOM;
    bb_buf_reserve(out, fixed);
    char *p = out->p + out->len;
    *p++ = (char)(c->copy_ncols >> 8);
    *p++ = (char)c->copy_ncols;
    for (int i = 0; i < c->copy_ncols; i++) {
        const bb_value *v = &row[i];
        if (v->kind == BB_V_NULL) {
            p = bb_be32(p, 0xffffffffu);
            continue;
        }
        if (v->kind == BB_V_TEXT) { /* room for its bytes too */
            out->len = (size_t)(p - out->p);
            bb_buf_reserve(out, v->len + fixed);
            p = out->p + out->len;
        }
        if (!(p = c->copy_fields[i](p, v, err))) return -1;
    }
    out->len = (size_t)(p - out->p);
    return 0;
}

int pg_stream_write(bb_conn *c, const char *data, size_t len, bb_err *err)
{
    while (len) { /* PQputCopyData takes an int length */
        int n = len > (1u << 30) ? (1 << 30) : (int)len;
        if (PQputCopyData(c->pg, data, n) != 1) return pg_fail(err, c, "COPY");
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

void pg_stream_abort(bb_conn *c, const char *why, int64_t *rows)
{
    *rows = 0;
    PQputCopyEnd(c->pg, why);
    PGresult *r;
    while ((r = PQgetResult(c->pg))) { /* the COPY's error, as asked */
        ExecStatusType st = PQresultStatus(r);
        PQclear(r);
        if (st == PGRES_COPY_IN) break; /* the end could not be sent: the session is lost, and the COPY with it */
    }
}

/* Reads what the server has sent so far, without waiting: true when the session is gone
 * or its last words (a notice of class 57: shutting down) said it is going. */
static int pg_copy_lost(bb_conn *c)
{
    for (int i = 0; i < 8 && !c->ending; i++) {
        if (!PQconsumeInput(c->pg) || PQstatus(c->pg) == CONNECTION_BAD) return 1;
        PQisBusy(c->pg); /* parses what came: a notice reaches pg_notice */
        struct pollfd p = { .fd = PQsocket(c->pg), .events = POLLIN };
        if (poll(&p, 1, 0) <= 0) break; /* nothing more to read: the session looks alive */
    }
    return c->ending;
}

int pg_stream_close(bb_conn *c, int64_t *rows, bb_err *err)
{
    /* libpq keeps a failed write quiet until it has read the server's last words, so a
     * server that died in the middle of the stream shows only here: the session closed,
     * or its last words said it is ending. Then the end was never taken and the COPY
     * cannot have committed: say so (*rows = 0), rather than leave its rows in doubt. */
    *rows = -1;
    if (pg_copy_lost(c)) {
        *rows = 0;
        if (!c->ending) return pg_fail(err, c, "COPY");
        return bb_errf(err, "pg %s: COPY: the server is shutting down and ends the session", c->t->where);
    }
    if (c->copy_binary && pg_stream_write(c, "\377\377", 2, err) < 0) return -1;
    if (PQputCopyEnd(c->pg, NULL) != 1) return pg_fail(err, c, "COPY end");
    PGresult *r;
    int rc = 0;
    while ((r = PQgetResult(c->pg))) {
        if (PQresultStatus(r) == PGRES_COMMAND_OK) *rows = pg_cmd_tuples(r);
        else if (rc == 0) {
            rc = pg_res_fail(err, c, r, "COPY");
            continue;
        }
        PQclear(r);
    }
    return rc;
}
