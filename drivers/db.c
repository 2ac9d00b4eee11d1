/* db.c — the driver layer: an engine's optional operations, or the default each stands for
 * (db.h). */
#include "db.h"

int db_alive(const bb_driver *d, bb_conn *c) { return !d->alive || d->alive(c); }

int64_t db_max_statement_bytes(const bb_driver *d, bb_conn *c)
{
    return d->max_statement_bytes ? d->max_statement_bytes(c) : 0;
}

const char *db_system(const bb_driver *d, bb_conn *c) { return d->system && c ? d->system(c) : NULL; }

int db_async(const bb_driver *d) { return d->execute_send && d->execute_wait; }

int db_node_table_bytes(const bb_driver *d, bb_conn *c, const char *table, int n, int64_t *bytes, bb_err *err)
{
    return d->node_table_bytes ? d->node_table_bytes(c, table, n, bytes, err) : 0;
}

int db_stream_layout(const bb_driver *d, bb_conn *c, bb_stream_layout *out, bb_err *err)
{
    return d->stream_layout ? d->stream_layout(c, out, err) : 1;
}
