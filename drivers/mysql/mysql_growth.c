/* mysql_growth.c — growth for MariaDB/MySQL (docs/scale.md): the table's sizes from InnoDB's
 * statistics, scaled to its tablespace file as it is now (the statistics are refreshed only
 * after a tenth of the table changed: a load's sizes would move in steps), and the buffer
 * pool's misses (Innodb_buffer_pool_reads: the server's, not one session's; with O_DIRECT each
 * one a read from storage). */
#include <stdlib.h>
#include <string.h>

#include "mysql_priv.h"

typedef struct my_sizes {
    int64_t v[5]; /* data_length, index_length, table_rows, indexes, buffer pool bytes */
    int direct;
    int rows;
} my_sizes;

static int my_sizes_row(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    my_sizes *s = ud;
    (void)names, (void)lens;
    for (int i = 0; i < 5 && i < n; i++) s->v[i] = vals[i] ? strtoll(vals[i], NULL, 10) : -1;
    s->direct = n > 5 && vals[5] && strncmp(vals[5], "O_DIRECT", 8) == 0;
    s->rows++;
    return 1;
}

int my_growth(bb_conn *mon, const char *table, const int64_t *ids, int n, bb_growth_probe *out, bb_err *err)
{
    (void)ids, (void)n; /* the buffer pool's misses are counted for the server as a whole */
    const char *p[1] = { table };
    my_sizes s = { { -1, -1, -1, -1, -1 }, 0, 0 };
    if (my_query(mon,
                 "SELECT t.DATA_LENGTH, t.INDEX_LENGTH, t.TABLE_ROWS, (SELECT COUNT(DISTINCT s.INDEX_NAME) FROM "
                 "information_schema.STATISTICS s WHERE s.TABLE_SCHEMA = t.TABLE_SCHEMA AND s.TABLE_NAME = "
                 "t.TABLE_NAME), @@innodb_buffer_pool_size, @@innodb_flush_method FROM information_schema.TABLES t "
                 "WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_NAME = ?",
                 1, p, my_sizes_row, &s, err) < 0)
        return -1;
    if (!s.rows) return 0;
    int64_t file = -1, reads = -1;
    bb_err ignore; /* MariaDB's view of the tablespaces: elsewhere the statistics stand as they are */
    if (my_query(mon,
                 "SELECT FILE_SIZE FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME = CONCAT(DATABASE(), "
                 "'/', ?)",
                 1, p, bb_row_int, &file, &ignore) < 0)
        file = -1;
    if (my_query(mon, "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'", 0, NULL, bb_row_int2, &reads, &ignore) < 0)
        reads = -1;
    int64_t dl = s.v[0], il = s.v[1];
    if (file > 0 && dl >= 0 && il >= 0 && dl + il > 0) {
        out->heap_bytes = (int64_t)((double)file * (double)dl / (double)(dl + il));
        out->index_bytes = file - out->heap_bytes;
    } else {
        out->heap_bytes = dl;
        out->index_bytes = il;
    }
    out->rows_estimate = out->rows_loaded = s.v[2]; /* InnoDB counts its rows as they come */
    out->indexes = (int)s.v[3];
    out->cache_bytes = s.v[4];
    out->cache_direct = s.direct;
    out->reads = reads;
    return 0;
}
