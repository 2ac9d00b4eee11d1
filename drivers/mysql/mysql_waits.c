/* mysql_waits.c — diagnosis for MariaDB/MySQL (docs/diagnosis.md): what the run's sessions
 * are doing, from the process list's command and state (a default MariaDB has
 * performance_schema off, and the process list is there either way), and the redo log's
 * write counter (MariaDB 10.11 counts no redo fsyncs apart). Read on a session of its own. */
#define _GNU_SOURCE /* strcasestr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mysql_priv.h"

int64_t my_session_id(bb_conn *c) { return c && c->my ? (int64_t)mysql_thread_id(c->my) : -1; }

/* The class of a session's command and thread state (the stage names of MariaDB 10 and MySQL 8). */
static bb_wait_kind my_wait_kind(const char *cmd, const char *state)
{
    if (!strcasecmp(cmd, "Sleep")) return BB_WK_CLIENT;
    if (strcasestr(state, "from net") || strcasestr(state, "to net") || strcasestr(state, "from client"))
        return BB_WK_CLIENT;
    if (strcasestr(state, "lock") && strcasestr(state, "wait")) return BB_WK_LOCK;
    if (strcasestr(state, "commit") || strcasestr(state, "query end") || strcasestr(state, "binlog") ||
        strcasestr(state, "log flush") || strcasestr(state, "sync"))
        return BB_WK_WAL;
    if (strcasestr(state, "checkpoint")) return BB_WK_CHECKPOINT;
    if (strcasestr(state, "reading file") || strcasestr(state, "waiting for i/o")) return BB_WK_IO;
    return BB_WK_CPU;
}

typedef struct my_wait_ctx {
    bb_wait_cb cb;
    void *ud;
} my_wait_ctx;

static int my_wait_row(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names, (void)lens;
    my_wait_ctx *w = ud;
    if (n < 2) return 1;
    const char *cmd = vals[0] ? vals[0] : "", *state = vals[1] ? vals[1] : "";
    bb_wait_kind k = my_wait_kind(cmd, state);
    w->cb(w->ud, k == BB_WK_CPU ? "cpu" : k == BB_WK_CLIENT ? "client" : state, k);
    return 0;
}

int my_waits(bb_conn *mon, const int64_t *ids, int n, bb_wait_cb cb, void *ud, bb_err *err)
{
    char sql[2048];
    size_t at =
        (size_t)snprintf(sql, sizeof sql, "SELECT COMMAND, STATE FROM information_schema.PROCESSLIST WHERE ID IN (");
    int any = 0;
    for (int i = 0; i < n && at < sizeof sql - 24; i++)
        if (ids[i] > 0)
            at += (size_t)snprintf(sql + at, sizeof sql - at, "%s%lld", any++ ? "," : "", (long long)ids[i]);
    if (!any) return 0;
    snprintf(sql + at, sizeof sql - at, ")");
    my_wait_ctx w = { cb, ud };
    return my_query(mon, sql, 0, NULL, my_wait_row, &w, err);
}

int my_wait_counters(bb_conn *mon, bb_wait_counters *out, bb_err *err)
{
    bb_err ignore;
    (void)err;
    out->log_syncs = out->checkpoints = -1;
    if (my_query(mon, "SHOW GLOBAL STATUS LIKE 'Innodb_log_writes'", 0, NULL, bb_row_int2, &out->log_syncs, &ignore) <
        0)
        out->log_syncs = -1;
    return 0;
}
