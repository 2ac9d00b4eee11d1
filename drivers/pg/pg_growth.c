/* pg_growth.c — growth for PostgreSQL (docs/scale.md): the table's heap and index bytes and
 * shared_buffers from the catalog, and the storage reads of the run's backends from the
 * operating system where the server runs here. PostgreSQL 15 counts a backend's block reads
 * only when its transaction ends, so a load that is one COPY would show none until its last
 * row; the kernel counts them as they happen, and counts only the reads that missed the page
 * cache too (a shared_buffers miss the page cache serves costs a copy, not a read). */
#include <stdio.h>
#include <stdlib.h>

#include "pg_priv.h"
#include "../server_sql.h"

/* The n backends' reads in blocks of bs bytes, when every one of them is a child of the
 * postmaster pm here; -1 otherwise. */
static int64_t pg_backend_reads(int pm, const int64_t *ids, int n, int64_t bs)
{
    int64_t sum = 0;
    int any = 0;
    for (int i = 0; i < n; i++) {
        if (ids[i] <= 0) continue;
        int64_t b = driver_local_parent((int)ids[i], "postgres") == pm ? driver_read_bytes((int)ids[i]) : -1;
        if (b < 0) return -1;
        sum += b;
        any = 1;
    }
    return any && bs > 0 ? sum / bs : -1;
}

static int64_t pg_num(PGresult *r, int col)
{
    return PQgetisnull(r, 0, col) ? -1 : strtoll(PQgetvalue(r, 0, col), NULL, 10);
}

/* The ids as a PostgreSQL array literal, {1,2,3}, into arr. */
static void pg_id_array(const int64_t *ids, int n, char *arr, size_t size)
{
    size_t at = 0;
    arr[at++] = '{';
    for (int i = 0; i < n && at < size - 24; i++)
        if (ids[i] > 0) at += (size_t)snprintf(arr + at, size - at, "%s%lld", at > 1 ? "," : "", (long long)ids[i]);
    snprintf(arr + at, size - at, "}");
}

/* The rows taken: the inserts counted at each transaction's end, and those of the run's COPYs
 * under way (pg_stat_progress_copy, PostgreSQL 14 on). */
#define PG_GROWTH_SQL(copying)                                                                                          \
    "select pg_relation_size(c.oid), pg_indexes_size(c.oid), "                                                        \
    "case when c.reltuples >= 0 then c.reltuples::bigint end, "                                                       \
    "(select count(*) from pg_index i where i.indrelid = c.oid), pg_size_bytes(current_setting('shared_buffers')), " \
    "current_setting('block_size')::bigint, pg_stat_get_tuples_inserted(c.oid)" copying " "                           \
    "from pg_class c where c.oid = to_regclass('\"' || replace($1, '\"', '\"\"') || '\"')"

int pg_growth(bb_conn *mon, const char *table, const int64_t *ids, int n, bb_growth_probe *out, bb_err *err)
{
    char arr[2048];
    pg_id_array(ids, n, arr, sizeof arr);
    const char *p[2] = { table, arr };
    int copying = PQserverVersion(mon->pg) >= 140000;
    PGresult *r = PQexecParams(mon->pg,
                               copying ? PG_GROWTH_SQL(" + coalesce((select sum(p.tuples_processed) from "
                                                       "pg_stat_progress_copy p where p.relid = c.oid and p.pid = "
                                                       "any($2::int[])), 0)")
                                       : PG_GROWTH_SQL(" + 0 * cardinality($2::int[])"),
                               2, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return pg_res_fail(err, mon, r, "the table's size");
    if (PQntuples(r) == 1) {
        out->heap_bytes = pg_num(r, 0);
        out->index_bytes = pg_num(r, 1);
        out->rows_estimate = pg_num(r, 2);
        out->indexes = (int)pg_num(r, 3);
        out->cache_bytes = pg_num(r, 4);
        out->cache_direct = 0;
        out->rows_loaded = pg_num(r, 6);
        int pm = driver_local_parent(PQbackendPID(mon->pg), "postgres");
        out->reads = pm > 0 ? pg_backend_reads(pm, ids, n, pg_num(r, 5)) : -1;
    }
    PQclear(r);
    return 0;
}
