/* load.h — loading existing files: `bulkbench load`; the head of the load wing
 * (runtime/core/load: chunking at row boundaries, streaming ranges with rewriting and
 * pacing, rejected rows).
 *
 * The load wing's invariants: the files are opened once and read with pread by the pool's
 * threads, each claiming one chunk at a time; every chunk is one COPY / LOAD DATA in its
 * own session, so a chunk is committed whole or not at all; the job's counts are atomic
 * and the reject files are written under the job's lock; the table is counted before and
 * after, and the load fails (exit 3) when the difference is not what the server said it took.
 * assert()ed in every build (base/invariant.h): a file's chunks are ranges of it, in order,
 * none overlapping the one before (each byte is loaded by one statement at most). */
#ifndef BB_LOAD_H
#define BB_LOAD_H

#include "../../../drivers/driver.h"
#include "../run/result.h"
#include "../../../base/err.h"

typedef struct load_opts {
    const bb_driver *drv;
    const char *dsn;
    const char *table;
    const char **paths;
    int npaths;
    int threads;
    int64_t chunk;       /* bytes per chunk, about */
    const char *format;  /* csv, tsv (plain: no escapes) or copy (COPY text) */
    const char *null;    /* the field text that means NULL (tsv, csv unquoted), NULL = empty */
    int header;          /* the first row of each file names columns */
    const char *columns; /* "a,b,c" or NULL: the file's columns in the table */
    int truncate;
    double rate_mb;          /* --rate-limit in MB/s across workers, 0 = none */
    int progress;            /* -1 = on a terminal */
    char delimiter, quote;   /* 0 = the format's own */
    int64_t skip_rows;       /* rows after the header of each file that are not loaded */
    int64_t limit;           /* the most rows to load from all files together, -1 = all */
    int skip_bad;            /* --on-error=skip: refused rows go to the reject file, the rest loads */
    const char *reject_path; /* where refused rows go (and PATH.log: why), NULL = nowhere */
    int64_t reject_limit;    /* fail once more rows than this are refused, -1 = no limit */
    bb_target *target;       /* an open target to load into (db:load_file), else dsn is opened */
    double waits_hz;         /* --waits: the sessions' waits sampled this often, 0 = not (docs/diagnosis.md) */
} load_opts;

/* Loads the files in parallel chunks and verifies the table grew by their rows (less the
 * rejected ones). Fills res; returns 0, or -1 with err (code 3 when verification failed). */
int load_files(const load_opts *o, bb_result *res, bb_err *err);

/* Where load options come from: the command line (names as options: "skip-rows") or a
 * script's table (the same names with '_'). get returns a value as text, NULL when not
 * given. load_opt_names lists every name it is asked for. */
typedef const char *(*load_opt_get)(void *ud, const char *name);
extern const char *const load_opt_names[];
/* Reads every option but drv, dsn, target and paths (set those first) into o, with the
 * option table's types; -1 with a usage error that names the option. */
int load_opts_read(load_opts *o, load_opt_get get, void *ud, bb_err *err);

/* The rows of one plain (uncompressed) file as a load of it with o's format, quote, header
 * and --skip-rows counts them: its records, a newline inside a quoted CSV field ending none;
 * -1 with err when the file cannot be read, is compressed or ends inside a quoted field. */
int64_t load_count_rows(const load_opts *o, const char *path, bb_err *err);

/* The format of a file: given (csv, tsv, copy), else from its extension under any .gz or
 * .zst; NULL when neither says. */
const char *load_format_of(const char *path, const char *given);
/* --delimiter / --quote: one character, or "tab"; NULL leaves *out 0 (the default). */
int load_char_opt(const char *name, const char *v, char *out, bb_err *err);

#endif
