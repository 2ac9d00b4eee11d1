/* pg_system.c — which PostgreSQL-family system a session talks to, told once per session
 * from the server's own answers: stock PostgreSQL, a fork that names itself in version()
 * (IvorySQL, Greenplum), or a cluster an extension runs (Citus). Each system is one row of
 * systems[] saying how results name it and what it is asked for its costs: its WAL
 * position and, for a cluster, every other node's WAL and a table's bytes on each node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_priv.h"
#include "../server_sql.h"

typedef struct pg_system {
    const char *name;     /* db.system in scripts; "" for stock PostgreSQL */
    const char *product;  /* how results name it */
    const char *detect;   /* a value when the server is this system, else no row or NULL (reads that cannot fail) */
    const char *version;  /* the system's own version; NULL: detect's answer is it */
    const char *wal;      /* this server's WAL position in bytes */
    const char *nodes;    /* the other nodes: (host:port, role, WAL position, a pid whose parent is the node's
                          * server, or the node's data directory); NULL: none */
    const char *table;    /* $1's bytes by node: (host:port, bytes); NULL: the table lives here only */
    int size_sums_nodes;  /* pg_total_relation_size here already adds the nodes' (Greenplum's coordinator) */
    const char *settings; /* the write-path settings as (name, value) rows; NULL: PG_SETTINGS_SQL */
} pg_system;

/* $1 as a quoted identifier, as bulkbench's DDL spells it: quote_ident leaves a lower-case
 * name bare, which IvorySQL's Oracle mode takes for another table (it keeps a quoted
 * lower-case name in upper case, a bare one in lower case) */
#define QUOTED_1 "('\"' || replace($1, '\"', '\"\"') || '\"')"

/* WAL functions were renamed in PostgreSQL 10; Greenplum 6 is 9.4 */
#define WAL_94 "SELECT pg_xlog_location_diff(pg_current_xlog_location(), '0/0')::bigint"

/* A Citus worker's WAL and the pid of its checkpointer, whose parent is the worker's postmaster */
#define CITUS_NODES                                                                                                    \
    "SELECT nodename || ':' || nodeport, 'worker', split_part(result, ' ', 1), split_part(result, ' ', 2) "            \
    "FROM run_command_on_workers($$SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint || ' ' || "             \
    "coalesce((SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'), 0)$$) WHERE success "            \
    "ORDER BY nodename, nodeport"
/* shards, not the coordinator's empty shell: citus_shards sizes each placement where it lives */
#define CITUS_TABLE                                                                                                    \
    "SELECT nodename || ':' || nodeport, sum(shard_size)::bigint FROM citus_shards "                                   \
    "WHERE table_name = " QUOTED_1 "::regclass GROUP BY 1"

/* Each primary segment's WAL, from a query that runs once on every segment, and its data
 * directory (its postmaster.pid names its server). Joining the coordinator's catalog makes
 * Greenplum read it through an "entry db" session, over the default socket directory. */
#define GP_NODES                                                                                                       \
    "SELECT c.address || ':' || c.port, 'segment', s.wal, c.datadir FROM gp_segment_configuration c JOIN ("            \
    "SELECT gp_segment_id AS content, pg_xlog_location_diff(pg_current_xlog_location(), '0/0')::bigint AS wal "        \
    "FROM gp_dist_random('gp_id')) s ON s.content = c.content WHERE c.role = 'p' AND c.content >= 0 ORDER BY "         \
    "c.content"
#define GP_TABLE                                                                                                       \
    "SELECT c.address || ':' || c.port, s.bytes FROM gp_segment_configuration c JOIN ("                                \
    "SELECT gp_segment_id AS content, pg_total_relation_size(" QUOTED_1 "::regclass) AS bytes "                        \
    "FROM gp_dist_random('gp_id')) s ON s.content = c.content WHERE c.role = 'p'"

/* Greenplum keeps these out of pg_settings, and has checkpoint_segments for max_wal_size */
#define GP_SETTINGS                                                                                                    \
    "SELECT n, current_setting(n) FROM unnest(ARRAY['checkpoint_segments', 'checkpoint_timeout', 'commit_delay', "     \
    "'fsync', 'full_page_writes', 'shared_buffers', 'synchronous_commit', 'wal_level']) n ORDER BY n"

static const pg_system systems[] = {
    /* the extension's version is its SQL schema's ("13.0-1"); the library's is a setting */
    { "citus", "Citus", "SELECT extname FROM pg_extension WHERE extname = 'citus'",
      "SELECT current_setting('citus.version')", PG_WAL_SQL, CITUS_NODES, CITUS_TABLE, 0, NULL },
    { "greenplum", "Greenplum", "SELECT substring(version() from 'Greenplum Database ([0-9][0-9.]*)')", NULL, WAL_94,
      GP_NODES, GP_TABLE, 1, GP_SETTINGS },
    { "ivorysql", "IvorySQL", "SELECT substring(version() from 'IvorySQL ([0-9][0-9.]*)')", NULL, PG_WAL_SQL, NULL,
      NULL, 0, NULL },
    { "", "PostgreSQL", NULL, NULL, PG_WAL_SQL, NULL, NULL, 0, NULL },
};

/* Asks sql for one text value; "" when it has none or fails (a system's catalog missing). */
static void ask(bb_conn *c, const char *sql, int np, const char *const *p, char *out, size_t n)
{
    PGresult *r = PQexecParams(c->pg, sql, np, NULL, p, NULL, NULL, 0);
    out[0] = 0;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
        snprintf(out, n, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
}

/* The session's system, told on first use. The detect queries are reads that cannot fail
 * on a working session, so an open transaction is no obstacle; an aborted one is. */
static const pg_system *pg_system_of(bb_conn *c)
{
    if (c->sys) return c->sys;
    if (PQtransactionStatus(c->pg) == PQTRANS_INERROR) return &systems[sizeof systems / sizeof *systems - 1];
    char v[64];
    for (const pg_system *s = systems;; s++) {
        if (s->detect) ask(c, s->detect, 0, NULL, v, sizeof v);
        if (!s->detect || v[0]) {
            if (s->version) ask(c, s->version, 0, NULL, v, sizeof v);
            snprintf(c->sys_version, sizeof c->sys_version, "%s", v);
            return c->sys = s;
        }
    }
}

const char *pg_system_name(bb_conn *c) { return pg_system_of(c)->name; }

const char *pg_system_settings_sql(bb_conn *c)
{
    const pg_system *s = pg_system_of(c);
    return s->settings ? s->settings : PG_SETTINGS_SQL;
}

void pg_system_version(bb_conn *c, char *out, size_t n)
{
    const pg_system *s = pg_system_of(c);
    char pv[64];
    ask(c, "SELECT current_setting('server_version')", 0, NULL, pv, sizeof pv);
    if (!s->name[0]) {
        snprintf(out, n, "PostgreSQL %s", pv);
        return;
    }
    pv[strcspn(pv, " ")] = 0; /* "15.18 (Debian 15.18-0+deb12u1)": the number is enough inside the brackets */
    snprintf(out, n, "%s %s (PostgreSQL %s)", s->product, c->sys_version, pv);
}

/* Fills log_pos (every node's WAL) and the nodes, remembered for pg_system_table_nodes. */
void pg_system_costs(bb_conn *c, bb_server_info *out)
{
    const pg_system *s = pg_system_of(c);
    char v[64];
    ask(c, s->wal, 0, NULL, v, sizeof v);
    out->log_pos = v[0] ? strtoll(v, NULL, 10) : -1;
    if (!s->nodes) return;
    out->own_log_pos = out->log_pos;
    PGresult *r = PQexec(c->pg, s->nodes);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        PQclear(r);
        out->log_pos = -1; /* a node's WAL unknown: the cluster's too */
        return;
    }
    int n = PQntuples(r) < BB_MAX_NODES ? PQntuples(r) : BB_MAX_NODES;
    for (int i = 0; i < n; i++) {
        bb_node_info *nd = &out->node[i];
        snprintf(nd->where, sizeof nd->where, "%s", PQgetvalue(r, i, 0));
        snprintf(nd->role, sizeof nd->role, "%s", PQgetvalue(r, i, 1));
        nd->log_pos = PQgetisnull(r, i, 2) || !*PQgetvalue(r, i, 2) ? -1 : strtoll(PQgetvalue(r, i, 2), NULL, 10);
        const char *who = PQgetvalue(r, i, 3);
        if (who[0] == '/') { /* a data directory */
            char path[512];
            snprintf(path, sizeof path, "%s/postmaster.pid", who);
            nd->local_pid = driver_local_pidfile(path, (const char *const[]){ "postgres", NULL });
        } else {
            nd->local_pid = driver_local_parent(atoi(who), "postgres");
        }
        out->log_pos = out->log_pos < 0 || nd->log_pos < 0 ? -1 : out->log_pos + nd->log_pos;
    }
    out->nnodes = c->nnodes = n;
    for (int i = 0; i < n; i++) snprintf(c->node_where[i], sizeof c->node_where[i], "%s", out->node[i].where);
    PQclear(r);
}

int pg_system_table_nodes(bb_conn *c, const char *table, int n, int64_t *bytes)
{
    const pg_system *s = pg_system_of(c);
    const char *p[1] = { table };
    char v[64];
    for (int i = 0; i < n; i++) bytes[i] = -1;
    if (n < 1) return 0;
    ask(c, "SELECT pg_total_relation_size(" QUOTED_1 "::regclass)", 1, p, v, sizeof v);
    bytes[0] = v[0] ? strtoll(v, NULL, 10) : -1;
    if (!s->table || bytes[0] < 0) return 0;
    PGresult *r = PQexecParams(c->pg, s->table, 1, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        PQclear(r);
        return 0;
    }
    for (int i = 1; i < n && i <= c->nnodes; i++) bytes[i] = 0; /* a node that holds none of it */
    for (int k = 0; k < PQntuples(r); k++) {
        int at = 0; /* a placement on a node the list lacks (the coordinator's own) counts as this server's */
        int64_t b = strtoll(PQgetvalue(r, k, 1), NULL, 10);
        for (int i = 0; i < c->nnodes && i + 1 < n; i++)
            if (strcmp(c->node_where[i], PQgetvalue(r, k, 0)) == 0) at = i + 1;
        bytes[at] += b;
        if (at && s->size_sums_nodes) bytes[0] -= b; /* what is left is the coordinator's own */
    }
    PQclear(r);
    return 0;
}
