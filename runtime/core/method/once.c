/* once.c — exactly-once batches for --reconnect (see once.h). */
#include "once.h"
#include "../../../drivers/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../base/err.h"
#include "../../../base/clock.h"

int once_setup(const bb_driver *drv, bb_conn *c, bb_err *err)
{
    return drv->exec(c, "CREATE TABLE IF NOT EXISTS " ONCE_TABLE " (token VARCHAR(64) PRIMARY KEY)", NULL, err);
}

void once_finish(const bb_driver *drv, bb_conn *c, const char *run_id)
{
    char sql[160];
    bb_err ignore;
    snprintf(sql, sizeof sql, "DELETE FROM " ONCE_TABLE " WHERE token LIKE '%s-%%'", run_id);
    drv->exec(c, sql, NULL, &ignore);
}

/* 1 when the batch's mark committed, 0 when not, -1 when the session failed asking. */
static int marked(bb_loader *l, const char *tok, bb_err *err)
{
    const bb_driver *d = l->plan->drv;
    char sql[160];
    int64_t n = -1;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM " ONCE_TABLE " WHERE token = '%s'", tok);
    if (d->query(l->conn, sql, 0, NULL, bb_row_int, &n, err) < 0) return -1;
    return n > 0;
}

/* One attempt: begin, mark, the work, commit. *committing is set once the commit is sent. */
static int attempt(bb_loader *l, const once_ops *ops, const char *tok, int64_t first, int64_t n, size_t *bytes,
                   int *committing, bb_err *err)
{
    const bb_driver *d = l->plan->drv;
    char sql[160];
    snprintf(sql, sizeof sql, "INSERT INTO " ONCE_TABLE " (token) VALUES ('%s')", tok);
    *bytes = 0;
    if (d->begin(l->conn, err) < 0) return -1;
    if (d->exec(l->conn, sql, NULL, err) < 0 || ops->body(ops->ud, first, n, bytes, err) < 0) {
        db_failed(d, l->conn, 1);
        return -1;
    }
    *committing = 1;
    return d->commit(l->conn, err);
}

/* Test failpoint BULKBENCH_FAILPOINT=ack-lost:K: the K-th commit of the process lands but
 * its acknowledgement is treated as lost, so the "had committed" path runs for real. */
static int ack_lost(void)
{
    static int64_t k = -1, seen;
    if (k < 0) {
        const char *f = getenv("BULKBENCH_FAILPOINT");
        k = f && !strncmp(f, "ack-lost:", 9) ? atoll(f + 9) : 0;
    }
    return k > 0 && __atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED) == k;
}

int once_batch(bb_loader *l, const once_ops *ops, int64_t first, int64_t n, size_t *bytes, bb_err *err)
{
    const bb_plan *p = l->plan;
    const bb_driver *d = p->drv;
    char tok[64];
    snprintf(tok, sizeof tok, "%s-%lld", p->run_id, (long long)first);
    int tries = 0, doubt = 0;
    for (;;) {
        int committing = 0, rc = attempt(l, ops, tok, first, n, bytes, &committing, err), fake = rc == 0 && ack_lost();
        if (rc == 0 && !fake) return 0;
        if (fake)
            bb_errf(err, "failpoint: the acknowledgement of the commit of the batch at row %lld was lost",
                    (long long)first);
        doubt |= committing;
        if (!fake && db_failed(d, l->conn, 0) == DB_REFUSED) {
            /* the server said no; after a lost attempt that may be the mark's key, when
             * the lost attempt's commit landed after all */
            bb_err ignore;
            if (tries > 0 && marked(l, tok, &ignore) == 1) return 0;
            return -1;
        }
        bb_err lost = *err;
        for (;;) { /* a new session, and the batch's fate */
            if (tries++ >= p->reconnect || pool_stopping(l->pool)) {
                *err = lost;
                if (doubt) l->in_doubt = n;
                return -1;
            }
            double wait_s = 0.25 * (double)(1 << (tries < 4 ? tries - 1 : 3)); /* 0.25, 0.5, 1, 2, 2, ... */
            bb_sleep_until_ns(bb_now_ns() + (uint64_t)(wait_s * 1e9));
            ops->reset(ops->ud);
            bb_err e2;
            if (l->reconnect(l, &e2) < 0) continue;
            int m = marked(l, tok, &e2);
            if (m < 0) continue;
            l->reconnects++;
            fprintf(stderr,
                    "bulkbench: worker %d: %s\nbulkbench: worker %d: reconnected (try %d); the batch at row %lld %s\n",
                    l->id, lost.msg, l->id, tries, (long long)first,
                    m ? "had committed" : "had not committed: running it again");
            if (m) return 0;
            doubt = 0; /* settled: it did not commit */
            break;
        }
    }
}
