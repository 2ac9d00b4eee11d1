/* pg_waits.c — diagnosis for PostgreSQL (docs/diagnosis.md): what the run's backends are
 * doing, from pg_stat_activity, and the WAL and checkpoint counters. Read on a session of
 * its own, so the workers' path is untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pg_priv.h"

int64_t pg_session_id(bb_conn *c) { return c && c->pg ? (int64_t)PQbackendPID(c->pg) : -1; }

/* The class of a backend's wait event (wait_event_type/wait_event as PostgreSQL 10 and later
 * name them); none: at work. */
static bb_wait_kind pg_wait_kind(const char *type, const char *ev)
{
    if (!*type) return BB_WK_CPU;
    if (!strcmp(type, "Client")) return BB_WK_CLIENT; /* ClientRead, ClientWrite */
    if (!strncmp(ev, "WAL", 3) || !strncmp(ev, "Wal", 3) || !strcmp(ev, "SyncRep")) return BB_WK_WAL;
    if (strstr(ev, "Checkpoint")) return BB_WK_CHECKPOINT;
    if (!strcmp(type, "Lock") || !strcmp(type, "LWLock") || !strcmp(type, "BufferPin")) return BB_WK_LOCK;
    if (!strcmp(type, "IO")) return BB_WK_IO;
    return BB_WK_OTHER;
}

int pg_waits(bb_conn *mon, const int64_t *ids, int n, int looks, double gap_s, bb_wait_cb cb, void *ud, bb_err *err)
{
    char arr[2048];
    size_t at = 0;
    arr[at++] = '{';
    for (int i = 0; i < n && at < sizeof arr - 24; i++)
        if (ids[i] > 0)
            at += (size_t)snprintf(arr + at, sizeof arr - at, "%s%lld", at > 1 ? "," : "", (long long)ids[i]);
    snprintf(arr + at, sizeof arr - at, "}");
    char nlooks[16], gap[32];
    if (looks < 1) looks = 1;
    snprintf(nlooks, sizeof nlooks, "%d", looks);
    snprintf(gap, sizeof gap, "%.6f", gap_s > 0 ? gap_s : 0);
    const char *params[3] = { arr, nlooks, gap };
    /* Each look after a pg_sleep on the server (the lateral chain orders them: sleep, then
     * look), of gap_s on average but drawn from [0.5, 1.5) of it, so the looks never keep
     * step with anything periodic in the run; pg_stat_get_activity is the function under the
     * view, without its joins (0.06 ms of the server's time against 0.45 on PostgreSQL 15). Within one query the backends'
     * state is read once, their wait events at each look: the class comes from the wait
     * event (an idle backend waits in ClientRead; none is a backend at work). */
    PGresult *r = PQexecParams(
        mon->pg,
        "select s.g, coalesce(a.wait_event_type, ''), coalesce(a.wait_event, '') "
        "from generate_series(1, $2::int) g, lateral (select g, pg_sleep($3::float8 * (0.5 + random()))) s, "
        "lateral pg_stat_get_activity(case when s.g > 0 then null::int end) a "
        "where a.pid = any($1::int[]) order by s.g",
        3, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return pg_res_fail(err, mon, r, "pg_stat_activity");
    for (int i = 0; i < PQntuples(r); i++) {
        const char *type = PQgetvalue(r, i, 1), *ev = PQgetvalue(r, i, 2);
        bb_wait_kind k = pg_wait_kind(type, ev);
        cb(ud, atoi(PQgetvalue(r, i, 0)) - 1, k == BB_WK_CPU ? "cpu" : k == BB_WK_CLIENT ? "client" : ev, k);
    }
    PQclear(r);
    return looks;
}

/* One number from sql, -1 when the server has no such view (the names moved between versions). */
static int64_t pg_counter(bb_conn *c, const char *sql)
{
    PGresult *r = PQexec(c->pg, sql);
    int64_t v = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0))
        v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return v;
}

/* A backend sends what it counted (its WAL syncs among it) to the shared statistics at most
 * once a second, and one that goes idle within that second only ten seconds later; one that
 * exits sends it all first. After a run the caller closes its sessions and asks again
 * (out->ended): this waits, 2 s at most, until their backends are gone. */
static void pg_await_exit(bb_conn *mon, const int64_t *ids, int n)
{
    char sql[4096] = "select count(*) from pg_stat_activity where pid in (0";
    size_t len = strlen(sql);
    for (int i = 0; i < n && len < sizeof sql - 32; i++)
        if (ids[i] > 0) len += (size_t)snprintf(sql + len, sizeof sql - len, ",%lld", (long long)ids[i]);
    snprintf(sql + len, sizeof sql - len, ")");
    for (int tries = 0; tries < 200 && pg_counter(mon, sql) > 0; tries++) {
        struct timespec ten_ms = { 0, 10 * 1000 * 1000 };
        nanosleep(&ten_ms, NULL);
    }
}

int pg_wait_counters(bb_conn *mon, const int64_t *ids, int n, bb_wait_counters *out, bb_err *err)
{
    (void)err; /* PostgreSQL times no waits: the samples say it all */
    if (out->ended) pg_await_exit(mon, ids, n);
    int ver = PQserverVersion(mon->pg);
    /* pg_stat_wal's sync count: 14 to 17; 18 counts WAL fsyncs in pg_stat_io */
    out->log_syncs = ver >= 180000 ? pg_counter(mon, "select sum(fsyncs)::bigint from pg_stat_io where object = 'wal'")
        : ver >= 140000            ? pg_counter(mon, "select wal_sync from pg_stat_wal")
                                   : -1;
    out->checkpoints = ver >= 170000
        ? pg_counter(mon, "select num_timed + num_requested from pg_stat_checkpointer")
        : pg_counter(mon, "select checkpoints_timed + checkpoints_req from pg_stat_bgwriter");
    return 0;
}
