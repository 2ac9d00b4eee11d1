/* db.h — the driver layer: the runtime calls an engine's optional operations through these,
 * each giving the default the operation stands for when the engine leaves it out, so no
 * caller tests for one (driver.h says which are optional; bb_driver_check holds an engine to
 * the ones its capabilities promise, and those are called directly). */
#ifndef BB_DB_H
#define BB_DB_H

#include "driver.h"

/* Whether the session still reaches its server; without `alive`, yes (an embedded engine). */
int db_alive(const bb_driver *d, bb_conn *c);
/* What a failed operation means, decided here for every caller: the server refused it and the
 * session goes on (DB_REFUSED; with in_txn, the open transaction is rolled back here, so the
 * session's next statement starts clean), or the session is lost (DB_LOST: whatever it was
 * committing may have landed, and only a new session can tell). */
typedef enum { DB_REFUSED = 1, DB_LOST } db_failure;
db_failure db_failed(const bb_driver *d, bb_conn *c, int in_txn);
/* The largest statement the server takes in bytes; 0 = no limit (and without the operation). */
int64_t db_max_statement_bytes(const bb_driver *d, bb_conn *c);
/* The member of the engine's family the server is (db.system); NULL for the stock server. */
const char *db_system(const bb_driver *d, bb_conn *c);
/* Whether statements can be sent and their answers awaited apart (execute_send/_wait). */
int db_async(const bb_driver *d);
/* A cluster's table bytes per node into bytes[0..n-1] (driver.h); without the operation
 * (no clusters) nothing is filled and 0 returned. */
int db_node_table_bytes(const bb_driver *d, bb_conn *c, const char *table, int n, int64_t *bytes, bb_err *err);
/* The open binary stream's row layout: 0 filled, 1 the engine has none to give, -1 error. */
int db_stream_layout(const bb_driver *d, bb_conn *c, bb_stream_layout *out, bb_err *err);
/* Whether the engine streams rows at all (COPY, LOAD DATA), by either transport. */
int db_streams(const bb_driver *d);
/* Whether it takes rows pushed into an open stream (stream_open/_write/_close), so that a
 * producer thread can make the next batch while this one goes; an engine that only pulls
 * is driven through db_stream_pull. */
int db_stream_pushes(const bb_driver *d);
/* One whole stream of spec, pulled from next, whatever the engine's transport: the engine's
 * stream_pull when it has one, else its push operations on the calling thread (open, a write
 * per piece, close; next returning -1 aborts). Returns and *rows as stream_pull's in driver.h:
 * an abandoned or refused stream commits nothing (-1, *rows = 0 or as stream_abort holds). */
int db_stream_pull(const bb_driver *d, bb_conn *c, const bb_stream_spec *spec, bb_stream_next_fn next, void *ud,
                   int64_t *rows, bb_err *err);

#endif
