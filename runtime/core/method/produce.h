/* produce.h — overlaps generating with sending: a producer thread per streaming worker
 * claims rows, encodes them into a small ring of buffers, and the worker sends them. */
#ifndef BB_PRODUCE_H
#define BB_PRODUCE_H

#include <pthread.h>

#include "../gen/gen.h"
#include "../run/pool.h"
#include "../../../base/err.h"
#include "../../../base/buf.h"

#define PRODUCE_SLOTS 8
#define PRODUCE_REFILL 4          /* a producer that found the ring full waits for this many free slots */
#define PRODUCE_CHUNK (64 * 1024) /* bytes of encoded rows per buffer, about */

typedef struct produce_buf {
    bb_buf data;
    int64_t rows;     /* rows encoded in data */
    int batch_end;    /* the last buffer of a claimed batch: its stream may close after it */
    uint64_t t_claim; /* when its batch was claimed: the start of the batch's event */
} produce_buf;

/* Appends the stream's encoding of rows first, first+1, ... to out: at most n, stopping
 * once out holds limit bytes or more. Returns how many (at least one when n > 0), or -1
 * with err set. */
typedef int64_t (*produce_encode_fn)(void *ud, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err);

typedef struct producer {
    bb_pool *pool; /* the run's: rows are claimed from it */
    int64_t claim; /* rows per claim (the batch) */
    produce_encode_fn encode;
    void *ud;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t ready, space; /* a buffer came (or the end); slots were freed (or quit) */
    int waiting_ready, waiting_space;
    produce_buf slot[PRODUCE_SLOTS];
    int head, count; /* ring: next to take, how many are full */
    int done;        /* no more buffers will come */
    int quit;        /* the consumer gave up */
    int failed;
    bb_err err;
} producer;

int produce_start(producer *p, bb_pool *pool, int64_t claim, produce_encode_fn encode, void *ud);
/* The next full buffer, or NULL when production ended (p->failed says whether by error).
 * Hand it back with produce_release before taking another. */
produce_buf *produce_take(producer *p);
void produce_release(producer *p);
/* Stops the producer (if still running) and frees its buffers. */
void produce_stop(producer *p);

#endif
