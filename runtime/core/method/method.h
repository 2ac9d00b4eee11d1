/* method.h — the load methods as data: how a worker turns claimed row numbers into writes;
 * the head of the method wing (runtime/core/method: the table and its loops, each
 * method's functions in send.c, the producer thread of streams, exactly-once batches).
 *
 * The method wing's invariants:
 *   - threads: a worker's mstate and session are its own; a stream's producer thread only
 *     generates and encodes (no I/O), handing buffers over a ring (produce.c).
 *   - committing: rows are added to the worker's committed count only after the server
 *     acknowledged their commit (a statement in autocommit, a COMMIT, a stream's end);
 *     while a commit is under way `committing` holds its rows, and if the session dies
 *     then they are reported in doubt, never guessed either way.
 *   - a failed batch is rolled back or its stream abandoned, so nothing partial commits.
 * Asserted (send.c): rows count only once no commit is under way (send_counted), and a
 * worker's session has one stream open at a time; its batches are the pool's claims
 * (asserted in pool.c). 
 *
 * A method is one row of bb_methods: its name, the capability flags an engine needs to
 * offer it, how its batches are driven (the loop), and every function that loop calls for
 * it (send.c). Adding a method is a row in method.c and its functions in send.c. */
#ifndef BB_METHOD_H
#define BB_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "../../../drivers/driver.h"
#include "../gen/gen.h"
#include "loader.h"
#include "../run/plan.h"
#include "../../../base/buf.h"
#include "../../../base/err.h"

typedef struct mstate mstate; /* a worker's state while it loads with one method (send.h) */

/* How the normal path drives a method's batches. With --reconnect every loop but
 * LOOP_ROW runs each batch in one marked transaction around send instead (once.h). */
typedef enum {
    LOOP_ROW,     /* every row its own statement and transaction, and its own event */
    LOOP_TXN,     /* begin, send, commit per batch */
    LOOP_BATCH,   /* send is the batch's transaction (one pipeline sync) */
    LOOP_OVERLAP, /* as LOOP_BATCH, the next batch generated while the server works on this one */
    LOOP_STREAM   /* one stream per worker made as it is sent, or per batch with a producer thread making the next */
} method_loop;

typedef struct bb_method {
    const char *name;
    const char *summary;
    unsigned needs;        /* BB_CAP_* flags the engine must have */
    int64_t default_batch; /* used when --batch is not given; 0 = one stream per worker */
    method_loop loop;
    bb_stream_fmt fmt; /* LOOP_STREAM: the stream's encoding */
    /* Every loop's unit, and the exactly-once path's: sends rows [first, first+n) of one
     * batch inside whatever transaction the loop holds (none for LOOP_ROW's autocommit)
     * and waits for the answer; adds the payload bytes to *bytes. */
    int (*send)(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
    /* LOOP_OVERLAP: generates rows [first, first+n) (no I/O, while the previous batch is
     * at the server), then sends them without waiting: *pending is the statement whose
     * answer is the batch's commit, or NULL when the batch had to run synchronously
     * (split into pieces in one transaction) and is committed already. fill fails only
     * where a script's function makes values (gen_fill). */
    int (*fill)(mstate *ms, int64_t first, int64_t n, size_t *bytes, bb_err *err);
    int (*start)(mstate *ms, int64_t n, size_t bytes, bb_stmt **pending, bb_err *err);
    /* LOOP_STREAM: opens a stream; encodes rows [first, first+n) into out until it holds
     * about limit bytes, returning the rows encoded (on the worker's thread, or a producer
     * thread's with --batch: no I/O); closes it, which is its commit (rows counted only once
     * the server took them all). pull runs one whole stream instead when the engine reads
     * its rows itself (bb_driver.stream_pull), asking next for each piece. */
    int (*open)(mstate *ms, bb_err *err);
    int64_t (*encode)(void *ms, uint64_t first, int64_t n, bb_buf *out, size_t limit, bb_err *err);
    int (*close)(mstate *ms, bb_err *err);
    int (*pull)(mstate *ms, bb_stream_next_fn next, void *ud, bb_err *err);
    /* NULL, or -1 with err saying why the method cannot run on this session's target
     * (a dialect without multi-row VALUES lists). */
    int (*usable)(const mstate *ms, bb_err *err);
} bb_method;

extern const bb_method bb_methods[]; /* NULL-terminated by name */

const bb_method *method_find(const char *name);
int method_offered(const bb_method *m, const bb_driver *d);
/* 0 when the engine's default method is one it offers; else -1 and msg says which is not
 * (an engine's bug, caught at start-up beside bb_driver_check). */
int method_check_engine(const bb_driver *d, char *msg, size_t n);
/* "a, b, c": the names of the methods the engine offers (once_only: those --reconnect
 * can make exactly-once), for messages. */
void method_names(const bb_driver *d, int once_only, char *out, size_t n);
/* The stream method a file load of format fmt (csv, tsv or copy) uses on the engine: COPY
 * CSV for CSV where there is one, else COPY text, else LOAD DATA; NULL when it has none. */
const bb_method *method_for_file(const bb_driver *d, bb_stream_fmt fmt);
/* Whether `load` can stream a file (of any format it reads) into the engine. */
int method_streams_files(const bb_driver *d);
/* Whether --reconnect can make the method exactly-once (a batch needs a transaction to mark). */
int method_once_capable(const bb_method *m);
/* The one rule for a run's batch, which its workers use, its script sees (ctx.batch,
 * bb.run_info().batch), its result records and advise races: a row-at-a-time method
 * (LOOP_ROW) has batch 1 whatever was given; else the given batch (> 0); else, under
 * --reconnect (reconnect > 0), a stream's 10,000 (only a batch can be retried); else the
 * method's default (0 for a stream: one per worker). Without a method (an event() script)
 * the given batch, as the script may read it. */
int64_t method_batch(const bb_method *m, int64_t given, int reconnect);
/* Whether --batch changes what the method does: a sweep over batches makes one point of a
 * method that does not take one. */
int method_takes_batch(const bb_method *m);
/* Loads rows claimed from the run's pool with the plan's method until the target, the
 * deadline or a stop; commits as the method says and counts committed rows in l->committed. */
int method_load(bb_loader *l, gen_table *t, bb_err *err);

#endif
