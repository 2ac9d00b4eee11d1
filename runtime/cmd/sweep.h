/* sweep.h — a run's dimensions and their cross product: engines × methods × threads ×
 * batches × each --set and --set-global × --target, one combination per run. */
#ifndef BB_SWEEP_H
#define BB_SWEEP_H

#include "../host/run.h"
#include "../../base/buf.h"
#include "../../base/err.h"

typedef struct sweep_combo {
    const bb_driver *drv;
    const struct bb_method *method; /* NULL: the script's event() decides */
    int threads;
    int64_t batch;        /* the run's batch (method_batch): what its workers use and its result records */
    const char *target;   /* --target name, or NULL */
    const char *strategy; /* --strategy: one of its list, or NULL (none) */
    const char *dsn;
    int nset;
    const char *set_name[BB_MAX_SETTINGS], *set_value[BB_MAX_SETTINGS];
    int set_global[BB_MAX_SETTINGS];
} sweep_combo;

typedef struct sweep {
    sweep_combo *combo;
    int n;
    char **owned; /* strings the combinations point into */
    int nowned;
    bb_buf skipped; /* the engine/method pairs of a several-engine sweep left out ("pg/load, mysql/copy"); NUL-terminated when len > 0 */
} sweep;

/* Expands the command line (and the script's defaults) into combinations; checks that each
 * engine exists and offers each method, suggesting the nearest names. */
int sweep_build(bb_cli *cli, sweep *s, bb_err *err);
/* The same with the methods, threads and batches lists given (NULL: from the command line
 * as sweep_build takes them); advise builds its space of candidates so. */
typedef struct sweep_lists {
    const char *methods, *threads, *batches;
} sweep_lists;
int sweep_build_from(bb_cli *cli, const sweep_lists *l, sweep *s, bb_err *err);
void sweep_free(sweep *s);
/* The identity of a combination (and the script's options) in a results file, for --resume. */
char *sweep_key(const char *scenario, const sweep_combo *c, int nopts, const char *const *opt_name,
                const char *const *opt_value);
/* Keys of the successful results already in a JSONL file (NULL-terminated; NULL if none). */
char **sweep_done_keys(const char *path);
int sweep_has_key(char *const *keys, const char *key);

#endif
