/* load.h — loading existing files: `bulkbench load`. */
#ifndef BB_LOAD_H
#define BB_LOAD_H

#include "../drivers/driver.h"
#include "result.h"

typedef struct load_opts {
    const bb_driver *drv;
    const char      *dsn;
    const char      *table;
    const char     **paths;
    int              npaths;
    int              threads;
    int64_t          chunk;    /* bytes per chunk, about */
    const char      *format;   /* csv, tsv or copy */
    int              header;   /* the first row of each file names columns */
    const char      *columns;  /* "a,b,c" or NULL: the file's columns in the table */
    int              truncate;
    double           rate_mb;  /* --rate-limit in MB/s across workers, 0 = none */
    int              progress; /* -1 = on a terminal */
} load_opts;

/* Loads the files in parallel chunks and verifies the table grew by their rows. Fills res;
 * returns 0, or -1 with err (code 3 when verification failed). */
int load_files(const load_opts *o, bb_result *res, bb_err *err);

#endif
