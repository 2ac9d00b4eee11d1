/* pg_priv.h — what pg.c and pg_copy.c share. */
#ifndef BB_PG_PRIV_H
#define BB_PG_PRIV_H

#include <libpq-fe.h>

#include "../driver.h"
#include "pg_lib.h"
#include "../../base/err.h"
#include "../../base/buf.h"

#define PG_MAX_KEYS 64

struct bb_target {
    const char *keys[PG_MAX_KEYS + 1], *vals[PG_MAX_KEYS + 1];
    PQconninfoOption *opts;
    char where[300];
};

struct bb_conn {
    PGconn *pg;
    const bb_target *t;
    int nstmt;  /* names of prepared statements: bb1, bb2, ... */
    int ending; /* the server said it is ending the session (SQLSTATE class 57, a shutdown) */
    /* open COPY */
    int copy_binary;
    Oid *copy_types;
    bb_field_fn *copy_fields;    /* the writer of each column's binary field */
    unsigned char *copy_natives; /* ... and the bb_native it takes alone */
    unsigned char *copy_forms;   /* ... and what of it the runtime may write itself */
    int copy_ncols;
    char copy_table[128];
    bb_buf rowbuf;
    /* which system the server is (pg_system.c), told on first use; a cluster's nodes as last listed */
    const struct pg_system *sys;
    char sys_version[64];
    int nnodes;
    char node_where[BB_MAX_NODES][96];
};

struct bb_stmt {
    bb_conn *c;
    char name[16];
    int n;
    Oid *types; /* as declared or as the server inferred them; 0 = unknown, sent as text */
    const char **vals;
    int *lens, *fmts;
    bb_buf scratch; /* binary or NUL-terminated text forms of this execution's values */
    size_t *offs;
};

int pg_fail(bb_err *err, bb_conn *c, const char *what);
/* Fails with the server's message (and its COPY context) from r, which it clears. */
int pg_res_fail(bb_err *err, bb_conn *c, PGresult *r, const char *what);
int64_t pg_cmd_tuples(PGresult *r);

/* diagnosis (pg_waits.c) */
int64_t pg_session_id(bb_conn *c);
int pg_waits(bb_conn *mon, const int64_t *ids, int n, int looks, double gap_s, bb_wait_cb cb, void *ud, bb_err *err);
int pg_wait_counters(bb_conn *mon, const int64_t *ids, int n, bb_wait_counters *out, bb_err *err);

/* growth: the table's sizes and the run's reads (pg_growth.c) */
int pg_growth(bb_conn *mon, const char *table, const int64_t *ids, int n, bb_growth_probe *out, bb_err *err);

/* COPY FROM STDIN streams (pg_copy.c) */
int pg_stream_open(bb_conn *c, const bb_stream_spec *spec, bb_err *err);
int pg_stream_encode(bb_conn *c, const bb_value *row, bb_buf *out, bb_err *err);
int pg_stream_layout(bb_conn *c, bb_stream_layout *out, bb_err *err);
int pg_stream_write(bb_conn *c, const char *data, size_t len, bb_err *err);
int pg_stream_close(bb_conn *c, int64_t *rows, bb_err *err);
void pg_stream_abort(bb_conn *c, const char *why, int64_t *rows);

/* The system the session talks to (pg_system.c): its name for scripts ("" = stock
 * PostgreSQL), its version as results show it, its WAL (every node's, with the nodes
 * listed) and a table's bytes by node (bytes[0] here, bytes[1 + i] on node i). */
const char *pg_system_name(bb_conn *c);
const char *pg_system_settings_sql(bb_conn *c);
void pg_system_version(bb_conn *c, char *out, size_t n);
void pg_system_costs(bb_conn *c, bb_server_info *out);
int pg_system_table_nodes(bb_conn *c, const char *table, int n, int64_t *bytes);

#endif
