/* encrows.h — "encode rows in format F": the one way generated rows become bytes, for run's
 * streams (method/send.c), `bulkbench gen` and gen:encode() in Lua alike. It picks the way
 * once per format: the table's plan for COPY text, LOAD DATA text and CSV (encplan.c), the
 * engine's row layout for binary COPY (binplan.c) or else the engine's own row encoder, and
 * row by row through encode.c for plain TSV and SQL literals. */
#ifndef BB_ENCROWS_H
#define BB_ENCROWS_H

#include <stdint.h>

#include "gen.h"
#include "../../../base/buf.h"
#include "../../../base/err.h"
#include "../../../drivers/driver.h"

typedef struct encrows encrows;

typedef struct encrows_opts {
    const bb_dialect *dia; /* SQL literals: whose (NULL: generic) */
    const char *null;      /* plain TSV: how NULL is written (NULL: an empty field) */
    /* SQL: "INSERT INTO t (...) VALUES\n" opening a statement at every sql_rows-th row
     * number, each ending ";\n" after sql_rows rows or at row sql_end - 1; NULL: each tuple on
     * a line of its own */
    const char *sql_head;
    int64_t sql_rows, sql_end;
    int by_values; /* every row through bb_values and encode.c: the reference the plan's bytes equal */
    /* binary COPY: the engine, and where its session is (it may be replaced: encrows_reset) */
    const bb_driver *drv;
    bb_conn *const *conn;
} encrows_opts;

/* Rows of table t in fmt; NULL for binary without an engine. One per thread: it holds the
 * scratch of the values it encodes. */
encrows *encrows_new(const gen_table *t, bb_stream_fmt fmt, const encrows_opts *o);
void encrows_free(encrows *e);
/* Appends rows first, first+1, ... to out: at most n, stopping once out holds limit bytes or
 * more; returns how many (at least one when n > 0), or -1 with err set: a value the format
 * cannot hold ("row R, column C: the value is ..., which plain TSV cannot ...", R counted
 * from 1) or the engine's refusal. */
int64_t encrows_put(encrows *e, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err);
/* After a failure of encrows_put: whether the value was one plain TSV cannot tell from NULL
 * (another --null would do), rather than one it cannot hold at all. */
int encrows_null_clash(const encrows *e);
/* The session was replaced: the binary layout is asked of the new one when next needed. */
void encrows_reset(encrows *e);

#endif
