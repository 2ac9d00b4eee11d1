/* servers.h — the servers of one run. --dsn may be given several times (a host list):
 * workers are spread over the servers round-robin (under MPI: rank r uses server r mod N).
 * For each server the runner keeps a target, an admin session with the --set and
 * --set-global settings, a db object for the script's hooks, and the server's costs
 * before and after. prepare/check/cleanup run on every server (shards, independent
 * servers) or, with --shared, on the first only (coordinators of one database). */
#ifndef BB_SERVERS_H
#define BB_SERVERS_H

#include "../core/run/result.h"
#include "run.h"
#include "../../base/err.h"

typedef struct bb_server {
    const char *dsn;
    bb_target *target;
    bb_conn *c0; /* admin session: hooks, settings, costs */
    void *db0;   /* the db object hooks get */
    int db_ref;
    char old_global[BB_MAX_SETTINGS][256];
    int nglobal; /* --set-global settings to restore */
    bb_server_info si0, si1;
    double cpu0, cpu1; /* a cluster's: every node's, -1 when one is unknown */
    int64_t rss0, rss1;
    double own_cpu[2], node_cpu[2][BB_MAX_NODES]; /* a cluster's by node, before and after */
    int64_t own_rss[2], node_rss[2][BB_MAX_NODES];
} bb_server;

typedef struct bb_servers {
    double measure_cpu_s; /* CPU spent reading the servers' counters and memory (on the caller's thread) */
    int n;
    int hooks; /* servers the hooks run on: n, or 1 with --shared */
    int admin; /* admin sessions are open (rank 0) */
    bb_server s[BB_MAX_HOSTS];
} bb_servers;

/* Resolves every DSN of the plan (no connection yet). */
int servers_open(bb_servers *sv, const bb_plan *p, bb_err *err);
/* Opens the admin sessions, applies the settings, makes the hooks' db objects. */
int servers_connect(bb_servers *sv, lua_State *L, const bb_plan *p, bb_err *err);
/* Calls the script's hook NAME(db), if it has one, on each hook server. */
int servers_hook(bb_servers *sv, lua_State *L, const char *name, bb_err *err);
/* check(db) on each hook server: *rows gets the sum of the numbers it returned
 * (VERIFY_UNKNOWN when one returned none: not counted), *refused is set when it returned
 * false anywhere. */
int servers_check(bb_servers *sv, lua_State *L, int64_t *rows, int *refused, bb_err *err);
/* Server costs now (after = 0 before the workers start, 1 when they have finished): the
 * servers' own figures, and the CPU and memory of those running on this host. */
void servers_snapshot(bb_servers *sv, const bb_plan *p, int after);
/* The servers' CPU seconds and log position summed now, for the interval samples (each
 * -1 when a server cannot tell); asks on the admin sessions, which are idle while the
 * workers work, so the workers' path is untouched. Memory is read by the snapshots only:
 * summing a server's PSS costs more CPU than an interval's worth of counters. */
void servers_sample(bb_servers *sv, const bb_plan *p, double *cpu_s, int64_t *log_pos);
/* --reconnect: renews admin sessions lost with a server's restart; returns how many were
 * renewed, -1 when one cannot be. */
int servers_renew(bb_servers *sv, const bb_plan *p);
/* Puts the costs into res: per server when there are several, per node of a cluster
 * (its coordinator first), and their sums. */
void servers_costs(bb_servers *sv, const bb_plan *p, const char *table, bb_result *res);
/* Restores --set-global settings, closes sessions and targets. */
void servers_close(bb_servers *sv, lua_State *L, const bb_plan *p);

#endif
