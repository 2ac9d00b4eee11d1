/* mysql_priv.h — what mysql.c and mysql_infile.c share. */
#ifndef BB_MYSQL_PRIV_H
#define BB_MYSQL_PRIV_H

#include <mysql.h>
#include <pthread.h>

#include "driver.h"

struct bb_target {
    char host[256], user[128], pass[256], db[128], socket[512];
    unsigned port;
    char where[600];
};

/* The hand-over between stream_write (the worker) and the LOCAL INFILE read callback,
 * which runs inside the LOAD DATA statement on a helper thread. */
typedef struct my_infile {
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    const char     *data;     /* what stream_write offers, not yet read */
    size_t          len;
    int             eof;      /* stream_close: no more data */
    int             aborted;  /* the statement ended early: writers must not wait */
    char            name[64]; /* the one file name the handler serves */
    pthread_t       thread;
    int             rc;       /* the LOAD statement's outcome */
    char            info[256], error[512];
    unsigned        errnum;
} my_infile;

struct bb_conn {
    MYSQL           *my;
    const bb_target *t;
    int64_t          max_packet;
    my_infile       *load;    /* the LOAD DATA in progress */
    int              nload;
};

int  my_fail(bb_err *err, bb_conn *c, const char *what);
/* Installs the handler that serves only bulkbench's own streams. */
void my_infile_install(bb_conn *c);
int  my_stream_open(bb_conn *c, const bb_stream_spec *spec, bb_err *err);
int  my_stream_write(bb_conn *c, const char *data, size_t len, bb_err *err);
int  my_stream_close(bb_conn *c, int64_t *rows, bb_err *err);

#endif
