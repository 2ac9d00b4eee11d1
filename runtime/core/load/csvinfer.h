/* csvinfer.h — what a CSV or TSV file holds, read once from end to end (libcsv, streaming):
 * each column's name (from a header) and the narrowest type that holds every value (an
 * integer by its range, a decimal by its digits, a double, a boolean, a date, a timestamp, a
 * UUID, else text with its longest length), how many values are NULL, and a reservoir
 * sample of rows for the values' distribution. `bulkbench new FILE.csv` scaffolds from it;
 * nothing here knows an engine. */
#ifndef BB_CSVINFER_H
#define BB_CSVINFER_H

#include <stddef.h>
#include <stdint.h>

#include "../../../base/err.h"

/* The types a column can be read as, narrowest first. */
typedef enum {
    CSVI_EMPTY, /* no value at all: every field NULL */
    CSVI_BOOL,
    CSVI_INT,
    CSVI_DECIMAL,
    CSVI_DOUBLE,
    CSVI_DATE,
    CSVI_TIMESTAMP,
    CSVI_UUID,
    CSVI_TEXT
} csvi_type;

extern const char *const csvi_type_names[]; /* "empty", "bool", "int", ... by csvi_type */

typedef struct csvi_col {
    char *name;
    csvi_type type;
    int64_t values, nulls;
    int64_t imin, imax;          /* CSVI_INT: the range */
    int int_digits, frac_digits; /* CSVI_DECIMAL: most digits before and after the point */
    int has_frac, has_zone;      /* CSVI_TIMESTAMP: a fraction of a second; an offset or Z */
    int increasing;              /* CSVI_INT: every value greater than the one before (a key, likely) */
    size_t max_len;              /* the longest value, in characters (UTF-8) */
    unsigned may;                /* internal: the types every value so far could still be */
    int64_t last;                /* internal: the last integer read */
} csvi_col;

typedef struct csvi_opts {
    int tsv;          /* plain TSV (no quotes) instead of CSV */
    char delim;       /* 0: ',' for CSV, tab for TSV */
    char quote;       /* CSV's quote, 0: '"' */
    int header;       /* the first row names the columns */
    const char *null; /* the field text meaning NULL; NULL: an empty field (and \N or NULL if the file uses them) */
    int sample;       /* rows kept in the reservoir (0: none) */
    uint64_t seed;    /* of the reservoir's choices */
} csvi_opts;

typedef struct csvi_result {
    int ncols;
    csvi_col *cols;
    int64_t rows;     /* data rows (the header not counted) */
    const char *null; /* the NULL marker the file uses ("" for empty fields), static */
    int nsample;      /* rows in the reservoir */
    char ***sample;   /* nsample rows of ncols values, NULL for NULL */
} csvi_result;

/* Reads a file (plain or gzip) into r; 0, or -1 with err naming the row (r then holds
 * nothing). csvi_free frees what a successful read made. */
int csvi_read_file(const char *path, const csvi_opts *o, csvi_result *r, bb_err *err);
/* The same from memory (the fuzz target). */
int csvi_read_mem(const char *data, size_t n, const csvi_opts *o, csvi_result *r, bb_err *err);
void csvi_free(csvi_result *r);

#endif
