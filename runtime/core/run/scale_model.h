/* scale_model.h — the time a load takes to N rows, from the part of it measured (a run's
 * growth, growth.h): the model docs/scale.md derives and justifies.
 *
 * A row costs a (row_s) while the table's indexes fit the server's memory, and a + s·r(n)
 * once they do not: r(n) storage reads per row (each a page of an index whose keys come in
 * random order, missing the cache), s (read_s) the seconds one costs. r follows
 *
 *     r(n) = k · (1 - (n_M / n)^p)   for n > n_M, 0 below,
 *
 * k the indexes taking keys in random order (one read each once nothing of them is cached),
 * n_M the rows at which they outgrow the memory, p how sharply the cache's hits fall off.
 * Where the server counts its reads (growth's reads_per_row), k, n_M and p are fitted to
 * them and s to the rows' times; where it does not, the same law is fitted to the rows' times
 * above a (k·s as one figure). Where the measured part ends before the knee, n_M comes from
 * the server's memory (its cgroup's limit, its cache setting) and the index bytes per row,
 * and s is assumed (SCALE_READ_S): the interval is then wide. */
#ifndef BB_SCALE_MODEL_H
#define BB_SCALE_MODEL_H

#include <stdint.h>

#include "growth.h"

/* A storage read's cost assumed until one is measured (an SSD's read and the write of the page
 * it evicts), and the range the interval then spans: a fast NVMe to a disk that seeks. */
#define SCALE_READ_S 100e-6
#define SCALE_READ_LO_S 20e-6
#define SCALE_READ_HI_S 2e-3
/* The interval's level: what it is meant to hold (make bench counts how often it does). */
#define SCALE_LEVEL 0.9

typedef enum scale_state {
    SCALE_IN_MEMORY, /* the indexes fit the memory up to N: the rate of the measured part goes on */
    SCALE_AHEAD,     /* they outgrow it before N, after the measured part: the knee and s are assumed */
    SCALE_OUTGROWN,  /* the measured part went past the knee: the law fitted to it */
} scale_state;

/* What is known of the server besides the growth: -1 where unknown. */
typedef struct scale_prior {
    int64_t memory_limit; /* the server's cgroup limit (result's memory_limit) */
    int64_t host_memory;  /* this host's memory, when the server runs here */
} scale_prior;

typedef struct scale_fit {
    scale_state state;
    int64_t rows;          /* N */
    double seconds, lo, hi, level;
    int64_t measured_rows; /* the rows the measured part loaded */
    double spent_s;        /* its seconds */
    double row_s;          /* a: a row's seconds while the indexes fit */
    double read_s;         /* s: a storage read's seconds (assumed unless read_measured) */
    int read_measured;
    int by_reads;          /* k, n_M, p fitted to the server's reads (else to the rows' times) */
    double k, p, knee_rows; /* the law's figures (by_reads 0: k is in seconds per row, s = 1) */
    double index_bytes_per_row, heap_bytes_per_row;
    double memory_bytes;   /* the memory the indexes' pages were assumed to have (SCALE_AHEAD) */
    double rows_per_s_now, rows_per_s_end; /* the rate at the measured part's end and at N */
    double reads_per_row_now, reads_per_row_end; /* -1 when reads are not counted */
} scale_fit;

/* The forecast of a load of rows rows whose first part g measured; 0, or -1 when g has no
 * rows. Fewer than 3 windows of rows (a short run) make one, and the knee then comes from the
 * memory alone. */
int scale_forecast(const bb_growth *g, int64_t rows, const scale_prior *pr, scale_fit *out);
/* A fit's seconds a row costs at n rows in the table (its rate at n is the inverse). */
double scale_row_s_at(const scale_fit *f, double n);
/* The name of a state: "in-memory", "outgrows-ahead", "outgrown". */
const char *scale_state_name(scale_state s);

#endif
