/* mysql_priv.h — what mysql.c and mysql_infile.c share. */
#ifndef BB_MYSQL_PRIV_H
#define BB_MYSQL_PRIV_H

#include <mysql.h>
#include <pthread.h>

#include "../driver.h"
#include "../../base/err.h"
#include "../../base/buf.h"

enum { MY_SSL_DEFAULT, MY_SSL_DISABLED, MY_SSL_PREFERRED, MY_SSL_REQUIRED, MY_SSL_VERIFY_CA, MY_SSL_VERIFY_IDENTITY };

struct bb_target {
    char host[256], user[128], pass[256], db[128];
    char socket[512], ssl_ca[512], ssl_cert[512], ssl_key[512]; /* files, "" = none */
    int ssl_mode; /* MY_SSL_*: --dsn's ssl-mode */
    int verify;   /* ssl-verify-server-cert: 1, 0, -1 = not given */
    unsigned port;
    char where[600];
};

/* mysql_dsn.c: the DSN as a target; the TLS options a session takes from it, and after it
 * connected, whether it got the TLS asked (0, or -1 with err); what TLS the session has. */
int my_target_open(const char *dsn, bb_target **out, bb_err *err);
void my_tls_options(MYSQL *my, const bb_target *t);
int my_tls_check(MYSQL *my, const bb_target *t, bb_err *err);
void my_tls_info(MYSQL *my, int *on, char *version, size_t vn, char *cipher, size_t cn);

/* A LOAD DATA LOCAL stream (stream_pull): the source the read callback asks for pieces on
 * the statement's own thread, the piece in hand, and the statement's outcome. */
typedef struct my_infile {
    bb_stream_next_fn next; /* where its pieces come from */
    void *next_ud;
    int abandoned;    /* next said to abandon: the stream must not commit */
    const char *data; /* the piece in hand, not yet read */
    size_t len;
    int eof;       /* next said it ended */
    char name[64]; /* the one file name the handler serves */
    int rc;        /* the LOAD statement's outcome */
    char info[256], error[512];
    unsigned errnum;
} my_infile;

struct bb_conn {
    MYSQL *my;
    const bb_target *t;
    int64_t max_packet;
    my_infile *load; /* the LOAD DATA in progress */
    int nload;
    int in_txn; /* between begin and commit/rollback: a LOAD DATA may end gracefully */
};

struct bb_stmt {
    bb_conn *c;
    MYSQL_STMT *st;
    int n;
    MYSQL_BIND *bind;
    unsigned long *lens;
    my_bool *nulls;
    int pending, ret; /* execute_send/wait: what the non-blocking call waits for */
    char *arr;        /* pipeline: the batch's values column by column (mysql_bulk.c) */
    size_t arr_cap;
    bb_buf text; /* pipeline: numbers sent as text in columns that mix kinds */
};

int my_fail(bb_err *err, bb_conn *c, const char *what);
int my_stmt_fail(bb_err *err, bb_stmt *s, const char *what);

/* The wire type a value of this kind is bound as. */
static inline enum enum_field_types my_field_type(int kind)
{
    return kind == BB_V_INT   ? MYSQL_TYPE_LONGLONG
        : kind == BB_V_DOUBLE ? MYSQL_TYPE_DOUBLE
        : kind == BB_V_TEXT   ? MYSQL_TYPE_STRING
                              : MYSQL_TYPE_NULL;
}

/* Array binding is MariaDB's (Connector/C and server 10.2+); other client libraries
 * build without the pipeline method. */
#ifdef MARIADB_CLIENT_STMT_BULK_OPERATIONS
int my_execute_pipeline(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err);
#define MY_CAP_BULK BB_CAP_PIPELINE
#define MY_EXECUTE_PIPELINE my_execute_pipeline
#else
#define MY_CAP_BULK 0
#define MY_EXECUTE_PIPELINE NULL
#endif
/* Installs the handler that serves only bulkbench's own streams. */
void my_infile_install(bb_conn *c);
int my_stream_pull(bb_conn *c, const bb_stream_spec *spec, bb_stream_next_fn next, void *ud, int64_t *rows,
                   bb_err *err);

/* mysql.c's query, for the diagnosis queries of mysql_waits.c */
int my_query(bb_conn *c, const char *sql, int nparams, const char *const *params, bb_row_cb cb, void *ud, bb_err *err);
int64_t my_session_id(bb_conn *c);
int my_waits(bb_conn *mon, const int64_t *ids, int n, int looks, double gap_s, bb_wait_cb cb, void *ud, bb_err *err);
int my_wait_counters(bb_conn *mon, const int64_t *ids, int n, bb_wait_counters *out, bb_err *err);
/* growth: the table's sizes and the buffer pool's misses (mysql_growth.c) */
int my_growth(bb_conn *mon, const char *table, const int64_t *ids, int n, bb_growth_probe *out, bb_err *err);

#endif
