/* load_priv.h — what load.c, loadstream.c and reject.c share: the chunks of the input files and the job. */
#ifndef BB_LOAD_PRIV_H
#define BB_LOAD_PRIV_H

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#include "chunk.h"
#include "load.h"
#include "../run/pool.h"
#include "../run/stats.h"
#include "../../../base/err.h"

#define READ_PIECE (256 * 1024)

typedef enum { CODEC_NONE, CODEC_GZIP, CODEC_ZSTD } codec;

typedef struct chunk {
    int file;
    off_t start, end;
    int64_t rows, first_line; /* rows in it (-1: not scanned, the server counts); the file line it starts at */
    int crlf;                 /* the file ends its lines with \r\n (-1: not known) */
    codec codec;              /* a compressed file is one chunk, decompressed as it streams */
    int64_t skip;             /* compressed: rows of what it decompresses to that are not data */
} chunk;

typedef struct load_job {
    const load_opts *o;
    const bb_driver *drv;
    bb_target *target;
    const char **paths;
    int *fds;
    chunk *chunks;
    int nchunks;
    bb_pool pool;                   /* its claims are chunk numbers */
    bb_conn **conns;                /* each pool thread's session */
    int64_t *session_ids;           /* each one's server id (atomic), -1 unknown: what the sampler watches */
    int nthreads;
    bb_stream_fmt fmt;              /* the files' format: csv, tsv (plain) or copy */
    const struct bb_method *method; /* the stream method the files go by (method_for_file) */
    bb_stream_fmt wire;             /* what the engine is sent: its encoding (csv, copy or load-text) */
    int xcode;                      /* the files are rewritten into the wire format as they stream */
    char *table_q, *columns;
    const char *table;
    pthread_mutex_t mu; /* guards the reject files */
    int64_t committed;  /* atomic */
    int64_t rejected;   /* --on-error=skip: rows refused (atomic) */
    FILE *reject, *reject_log;
    int64_t sent; /* bytes handed to the server so far (atomic), for --rate-limit */
    uint64_t t0;
    double rate_bps;   /* --rate-limit in bytes/s, 0 = none */
    int64_t file_rows; /* rows of the files, scanned or counted by the server (atomic) */
} load_job;

/* Adds a chunk to the job; asserts it is a range of its file after the file's chunk before. */
void load_add_chunk(load_job *j, chunk k);

/* One COPY / LOAD DATA of bytes [start, end) of the chunk's file (all of a compressed one),
 * the last row ended with a newline in the file's style: opened, sent, closed; a stream
 * the client cannot finish is aborted, so the session can go on. *rows: what the server
 * took (-1 unknown; on failure, what LOAD DATA kept). */
int load_stream(load_job *j, bb_conn *c, const chunk *k, off_t start, off_t end, stats_thread *st, int64_t *rows,
                bb_err *err);

/* How the files' rows end, for the chunk scanner. */
static inline chunk_mode load_chunk_mode(const load_job *j)
{
    return j->fmt == BB_FMT_CSV ? CHUNK_CSV : j->fmt == BB_FMT_TSV ? CHUNK_TSV : CHUNK_COPY;
}

/* --on-error=skip: loads a chunk the server refused, row ranges in their own transactions,
 * bisecting down to the rows it refuses, which go to the reject file (reject.c). */
int load_chunk_skipping(load_job *j, bb_conn *c, const chunk *k, stats_thread *st, bb_err *err);
/* The file line where the chunk's row-th row (1-based, as the server counts) starts; -1
 * when unknown (reject.c). */
int64_t load_row_line(load_job *j, const chunk *k, int64_t row);

#endif
