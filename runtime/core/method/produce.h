/* produce.h — overlaps generating with sending: a producer thread per streaming worker
 * claims rows, encodes them into a small ring of buffers, and the worker sends them. */
#ifndef BB_PRODUCE_H
#define BB_PRODUCE_H

#include <pthread.h>

#include "../gen/gen.h"
#include "../run/pool.h"
#include "../../../base/err.h"
#include "../../../base/buf.h"

#define PRODUCE_SLOTS 4
#define PRODUCE_CHUNK (64 * 1024) /* bytes of encoded rows per buffer, about */

typedef struct produce_buf {
    bb_buf data;
    int64_t rows;     /* rows encoded in data */
    int batch_end;    /* the last buffer of a claimed batch: its stream may close after it */
    uint64_t t_claim; /* when its batch was claimed: the start of the batch's event */
} produce_buf;

/* Encodes one generated row into out for the stream; returns -1 with err set. */
typedef int (*produce_encode_fn)(void *ud, const gen_row *row, bb_buf *out, bb_err *err);

typedef struct producer {
    bb_pool *pool; /* the run's: rows are claimed from it */
    gen_table *t;
    int64_t claim; /* rows per claim (the batch) */
    produce_encode_fn encode;
    void *ud;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    produce_buf slot[PRODUCE_SLOTS];
    int head, count; /* ring: next to take, how many are full */
    int done;        /* no more buffers will come */
    int quit;        /* the consumer gave up */
    int failed;
    bb_err err;
} producer;

int produce_start(producer *p, bb_pool *pool, gen_table *t, int64_t claim, produce_encode_fn encode, void *ud);
/* The next full buffer, or NULL when production ended (p->failed says whether by error).
 * Hand it back with produce_release before taking another. */
produce_buf *produce_take(producer *p);
void produce_release(producer *p);
/* Stops the producer (if still running) and frees its buffers. */
void produce_stop(producer *p);

#endif
