/* mysql_waits.c — diagnosis for MariaDB/MySQL (docs/diagnosis.md): what the run's sessions
 * are doing, sampled from the process list's command and state (there whether or not
 * performance_schema is on: a default MariaDB has it off); where it is on, the sessions'
 * timed waits from its summaries refine the samples; and the redo log's write counter
 * (MariaDB 10.11 counts no redo fsyncs apart). Read on a session of its own. */
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
    /* "Reading file" is LOAD DATA's state all through the statement, parsing and inserting
     * what the client sends (LOCAL: no file of the server's is read): working, not I/O */
    if (strcasestr(state, "waiting for i/o")) return BB_WK_IO;
    return BB_WK_CPU;
}

typedef struct my_wait_ctx {
    const int64_t *ids;
    int n;
    bb_wait_cb cb;
    void *ud;
} my_wait_ctx;

static int my_col(int n, const char *const *names, const char *name)
{
    for (int i = 0; i < n; i++)
        if (names[i] && !strcasecmp(names[i], name)) return i;
    return -1;
}

static int my_wait_row(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)lens;
    my_wait_ctx *w = ud;
    int id = my_col(n, names, "Id"), ci = my_col(n, names, "Command"), si = my_col(n, names, "State");
    if (id < 0 || ci < 0 || si < 0 || !vals[id]) return 1;
    long long tid = atoll(vals[id]);
    int ours = 0;
    for (int i = 0; i < w->n && !ours; i++) ours = w->ids[i] == tid;
    if (!ours) return 0;
    const char *cmd = vals[ci] ? vals[ci] : "", *state = vals[si] ? vals[si] : "";
    bb_wait_kind k = my_wait_kind(cmd, state);
    w->cb(w->ud, 0, k == BB_WK_CPU ? "cpu" : k == BB_WK_CLIENT ? "client" : state, k);
    return 0;
}

/* SHOW PROCESSLIST, filtered here: information_schema.PROCESSLIST fills a temporary table
 * at each query, five times the server time (0.27 ms against 0.05 on MariaDB 10.11), and
 * the sampler asks 20 times a second. */
int my_waits(bb_conn *mon, const int64_t *ids, int n, int looks, double gap_s, bb_wait_cb cb, void *ud, bb_err *err)
{
    (void)looks, (void)gap_s; /* one look, now: MariaDB has no sleep between rows of one query */
    my_wait_ctx w = { ids, n, cb, ud };
    return my_query(mon, "SHOW PROCESSLIST", 0, NULL, my_wait_row, &w, err) < 0 ? -1 : 1;
}

/* A performance_schema wait instrument's class and its name as shown (its prefix left out). */
static bb_wait_kind my_timed_kind(const char *name, const char **shown)
{
    *shown = name;
    if (!strncmp(name, "wait/io/file/", 13)) {
        *shown = name + 13;
        return strstr(name, "log_file") || strstr(name, "/binlog") ? BB_WK_WAL : BB_WK_IO;
    }
    if (!strncmp(name, "wait/", 5)) *shown = name + 5;
    return BB_WK_LOCK;
}

static int my_timed_row(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names, (void)lens;
    bb_wait_counters *out = ud;
    if (n < 2 || !vals[0] || !vals[1] || out->ntimed == BB_MAX_TIMED_WAITS) return 0;
    int i = out->ntimed++;
    const char *shown;
    out->timed_kind[i] = (unsigned char)my_timed_kind(vals[0], &shown);
    snprintf(out->timed_event[i], sizeof out->timed_event[i], "%s", shown);
    out->timed_s[i] = atof(vals[1]) / 1e12; /* picoseconds */
    return 0;
}

/* The sessions' timed waits, where performance_schema is on (its tables are empty when it is
 * off): file I/O (the redo log and binlog are the log's, the rest data files), table locks
 * and latches. Table I/O instruments time the handler's own work, not a wait: left out. */
static void my_timed_waits(bb_conn *mon, const int64_t *ids, int n, bb_wait_counters *out)
{
    char sql[2048];
    size_t at = (size_t)snprintf(sql, sizeof sql,
                                 "SELECT w.EVENT_NAME, SUM(w.SUM_TIMER_WAIT) FROM "
                                 "performance_schema.events_waits_summary_by_thread_by_event_name w JOIN "
                                 "performance_schema.threads t ON t.THREAD_ID = w.THREAD_ID WHERE w.SUM_TIMER_WAIT > 0 "
                                 "AND (w.EVENT_NAME LIKE 'wait/io/file/%%' OR w.EVENT_NAME LIKE 'wait/lock/%%' OR "
                                 "w.EVENT_NAME LIKE 'wait/synch/%%') AND t.PROCESSLIST_ID IN (");
    int any = 0;
    for (int i = 0; i < n && at < sizeof sql - 64; i++)
        if (ids[i] > 0) at += (size_t)snprintf(sql + at, sizeof sql - at, "%s%lld", any++ ? "," : "", (long long)ids[i]);
    if (!any) return;
    snprintf(sql + at, sizeof sql - at, ") GROUP BY w.EVENT_NAME ORDER BY w.EVENT_NAME");
    bb_err ignore;
    if (my_query(mon, sql, 0, NULL, my_timed_row, out, &ignore) < 0) out->ntimed = 0; /* not allowed: none timed */
}

int my_wait_counters(bb_conn *mon, const int64_t *ids, int n, bb_wait_counters *out, bb_err *err)
{
    bb_err ignore;
    (void)err;
    out->log_syncs = out->checkpoints = -1;
    if (my_query(mon, "SHOW GLOBAL STATUS LIKE 'Innodb_log_writes'", 0, NULL, bb_row_int2, &out->log_syncs, &ignore) <
        0)
        out->log_syncs = -1;
    my_timed_waits(mon, ids, n, out);
    return 0;
}
