/* send.h — what every method's batch is made of (send.c): the worker's state while it
 * loads, the statements and rows it reuses, and each method's send function. */
#ifndef BB_SEND_H
#define BB_SEND_H

#include <stddef.h>
#include <stdint.h>

#include "../../../base/buf.h"
#include "../../../base/err.h"
#include "../../../drivers/driver.h"
#include "../gen/gen.h"
#include "../gen/encrows.h"
#include "loader.h"

typedef struct mstate mstate;

struct mstate {
    bb_loader *ld;
    bb_stream_fmt fmt; /* streams: the encoding */
    const bb_driver *drv;
    const bb_dialect *dia;
    gen_table *t;
    gen_row *row;
    encrows *enc; /* streams: their rows' way into the stream's format (the producer's thread) */
    bb_buf buf;
    bb_buf insert_head; /* "INSERT INTO t (a,b) VALUES " */
    bb_stmt *stmt;      /* the prepared single-row INSERT, once needed */
    gen_row **rows;     /* pipeline, multirow: the generated rows of a batch */
    bb_value **vals;    /* their value arrays */
    bb_value *flat;     /* multirow: all their values in one array */
    int64_t nrows;
    bb_stmt *multi, *tail; /* multirow: statements for full pieces and the odd last one */
    int64_t multi_rows, tail_rows;
    int stream_open;
    int64_t stream_rows; /* rows written into the open stream */
    int64_t committing;  /* rows whose commit is under way: in doubt if the session dies now */
};

/* n rows whose commit the server acknowledged count now, as committed (method.h: never
 * before; asserted that no commit is under way). */
void send_counted(mstate *ms, int64_t n);
/* Sets up ms on the loader's session (fmt: a stream's encoding); send_done frees it. */
void send_init(mstate *ms, bb_loader *l, bb_stream_fmt fmt, gen_table *t);
void send_done(mstate *ms);
/* The statements belonged to a session that was replaced: drop them. */
void send_reset(mstate *ms);

/* The functions of bb_methods' rows; each has the contract of the member it fills
 * (method.h: send, fill, start, open, encode, close, usable). */
int send_literal(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
int send_rows(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
int send_pipeline(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
int send_multirow(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
int send_fill(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
int send_multirow_start(mstate *ms, int64_t n, size_t bytes, bb_stmt **pending, bb_err *err);
int send_multirow_usable(const mstate *ms, bb_err *err);
int send_stream(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
int send_stream_begin(mstate *ms, bb_err *err);
int send_stream_end(mstate *ms, bb_err *err);

/* multirow's rows per statement at the engine's limits, and its statements. */
int64_t send_multirow_per(mstate *ms, int64_t n, size_t bytes);
int send_multirow_stmt(mstate *ms, int64_t k, bb_stmt **out, bb_err *err);
int send_multirow_pieces(mstate *ms, int64_t n, int64_t per, bb_err *err);
/* One stream the engine pulls (bb_driver.stream_pull) from next: next must set
 * ms->stream_rows to the rows it handed over and ms->committing to them when it ends the
 * stream (the end is the commit). */
int send_stream_pull(mstate *ms, bb_stream_next_fn next, void *ud, bb_err *err);
/* Rows [first, first+n) into the open stream, made and written on this thread a piece
 * (PRODUCE_CHUNK) at a time; adds the bytes written to *bytes. */
int send_stream_rows(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
int64_t send_stream_encode(void *ud, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err);

#endif
