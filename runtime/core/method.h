/* method.h — the load methods: how a worker turns claimed row numbers into writes. A
 * method lists the capability flags it needs; an engine offers it when it has them all. */
#ifndef BB_METHOD_H
#define BB_METHOD_H

#include "gen.h"
#include "../host/run.h"
#include "../../base/err.h"

typedef enum {
    MK_ROW,      /* one statement and transaction per row: every row is an event */
    MK_TXN,      /* prepared single-row statements, one transaction per batch */
    MK_MULTIROW, /* one multi-row INSERT per batch */
    MK_PIPELINE, /* prepared single-row statements, a batch per round trip and transaction */
    MK_STREAM    /* a COPY / LOAD DATA stream per batch, or per worker without --batch */
} bb_method_kind;

typedef struct bb_method {
    const char     *name;
    const char     *summary;
    unsigned        needs;          /* BB_CAP_* flags the engine must have */
    int64_t         default_batch;  /* used when --batch is not given; 0 = one stream per worker */
    bb_method_kind  kind;
    int             prepared;       /* MK_ROW: bound parameters (1) or literal SQL (0) */
    bb_stream_fmt   fmt;            /* MK_STREAM: encoding of the stream */
} bb_method;

extern const bb_method bb_methods[];   /* NULL-terminated by name */

const bb_method *method_find(const char *name);
int  method_offered(const bb_method *m, const bb_driver *d);
/* Effective batch of a plan for its method. */
int64_t method_batch(const bb_plan *p);
/* Loads rows claimed from the run with the plan's method until the target, the deadline
 * or a stop; commits as the method says and counts committed rows in w->committed. */
int  method_load(bb_worker *w, gen_table *t, bb_err *err);

#endif
