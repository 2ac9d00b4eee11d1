/* once.h — exactly-once batches for --reconnect.
 *
 * Each batch runs in one transaction that also inserts a mark: a token unique to the run
 * and the batch (run id and the batch's first row number) into the table bulkbench_marks.
 * When the session is lost, a new session asks whether the mark is there: if it is, the
 * batch committed and is counted; if not, it never will be (a server that restarted rolled
 * it back) and the batch runs again. A retry that races a late commit of the lost attempt
 * waits on the mark's primary key and then fails on it, so a batch never lands twice.
 * This needs a transactional table: MyISAM tables are not covered (docs/reliability.md). */
#ifndef BB_ONCE_H
#define BB_ONCE_H

#include <stddef.h>
#include <stdint.h>

#include "../../../drivers/driver.h"
#include "loader.h"
#include "../../../base/err.h"

#define ONCE_TABLE "bulkbench_marks"

typedef struct once_ops {
    void *ud;
    /* The batch's work inside the open transaction; adds the payload bytes to *bytes. */
    int (*body)(void *ud, int64_t first, int64_t n, size_t *bytes, bb_err *err);
    /* The session was replaced: drop what belonged to the old one (prepared statements). */
    void (*reset)(void *ud);
} once_ops;

/* Creates the marks table when missing (runner, before the workers start). */
int once_setup(const bb_driver *drv, bb_conn *c, bb_err *err);
/* Deletes this run's marks (runner, after the workers ended); errors are ignored. */
void once_finish(const bb_driver *drv, bb_conn *c, const char *run_id);
/* Runs rows [first, first+n) once: retries on a new session (up to plan->reconnect
 * times) when the session is lost. 0 when the batch is committed, -1 with err otherwise;
 * then l->in_doubt says whether an attempt may have committed. */
int once_batch(bb_loader *l, const once_ops *ops, int64_t first, int64_t n, size_t *bytes, bb_err *err);

#endif
