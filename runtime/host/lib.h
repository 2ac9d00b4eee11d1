/* lib.h — what the commands ask of a script and of the bulkbench Lua library, without
 * touching Lua themselves: whether a script has work, its help, a table's generator,
 * the report of past results, and `bulkbench lua`. */
#ifndef BB_LIB_H
#define BB_LIB_H

#include "../../base/err.h"
#include "../core/gen/gen.h"
#include "../core/load/csvinfer.h"
#include "../core/opts.h"
#include "host.h"

/* Whether the loaded script defines event(ctx) or run(ctx). */
int lib_has_work(lua_State *L);
/* Whether it defines run(ctx), where ctx:load writes rows with the run's method (bb.load's). */
int lib_has_run(lua_State *L);
int lib_loads_table(lua_State *L);
/* The loaded script's help text (its description and options); the caller frees it. */
char *lib_help(lua_State *L, bb_err *err);
/* The generator of table `name` the loaded script declared (bb.table); NULL with err. */
gen_table *lib_gen_table(lua_State *L, const char *script, const char *name, bb_err *err);
/* The report (lua/report/report.lua) of result files, with the report options of cli: its text
 * (the caller frees it), or NULL with err. *code is the exit code the report asks for
 * after its text is shown (BB_EXIT_THRESHOLD when --fail-if-slower failed), with err
 * saying why. */
char *lib_report(bb_cli *cli, const char *const *files, int nfiles, int *code, bb_err *err);
/* advise: the loaded script's tables by their declared names (NULL-terminated, sorted; free
 * with lib_free_names), *main the one bb.load loads (NULL when none). */
char **lib_table_names(lua_State *L, const char **main, bb_err *err);
void lib_free_names(char **names);
/* advise --table: the loaded script's run becomes the load of its table `name` (bb.focus). */
int lib_focus(lua_State *L, const char *name, bb_err *err);
/* advise: drops the loaded script's scratch tables (bb.drop_scratch); how many, -1 with err. */
int lib_drop_scratch(lua_State *L, const char *engine, const char *dsn, bb_err *err);
/* advise on a file: an empty table `name` shaped like `original` (db:recreate_like), or with
 * drop set, `name` dropped; 0 or -1 with err. */
int lib_scratch_like(const char *engine, const char *dsn, const char *name, const char *original, int drop,
                     bb_err *err);
/* The ratio of cand's median to base's and its interval, as `report --compare` computes it
 * (lua/report/stats.lua: from the ratios of every run of one to every run of the other, Mann-Whitney):
 * out = { ratio, lo, hi }, lo and hi -1 when the runs are too few for a 95% interval. */
/* The scratch tables runs no longer running left (bb.scratch_orphans): said on standard
 * error, or with cleanup dropped; how many, or -1 with err. */
int lib_scratch_orphans(const char *engine, const char *dsn, int cleanup, bb_err *err);
/* "table T does not exist in database D (...); did you mean ...?" when table is no table the
 * engine's server at dsn holds (lua/scratch.lua's missing), fresh; NULL when it is one, or
 * when the server cannot say. */
char *lib_missing_table(const char *engine, const char *dsn, const char *table);
/* The sessions the server takes and those open now (bb.sessions): -1 each where the engine's
 * catalog cannot say; -1 with err when the server cannot be reached. */
int lib_sessions(const char *engine, const char *dsn, int *max, int *used, bb_err *err);
/* advise: the engine's strategies that address the bound `kind` and would change something
 * for table `name` (bulkbench.strategies_for), ", "-joined into out ("" for none); L a
 * script's state (its own tables declared there), or NULL for a state of its own. -1 when
 * the server cannot be asked. */
int lib_strategies_for(lua_State *L, const char *engine, const char *dsn, const char *name, const char *kind, char *out,
                       size_t n, bb_err *err);
int lib_ratio_interval(lua_State *L, const double *base, int nb, const double *cand, int nc, double out[3],
                       bb_err *err);

/* `bulkbench new` (lua/new/new.lua) with the options of OC_NEW and the engine's dsn: of the
 * table(s) --table names, or of a file csvinfer read (file != NULL; file->r NULL: a scenario
 * `new --check FILE.lua` holds against --table). Returns the text for
 * standard output (the scenario, or a summary when -o wrote it; a file's CREATE TABLE) and
 * in *note what goes to standard error (a summary, warnings) or NULL; NULL with err. */
typedef struct lib_new_file {
    const char *path;
    int tsv, header;
    const csvi_result *r;
} lib_new_file;
char *lib_new(bb_cli *cli, const char *dsn, const lib_new_file *file, char **note, bb_err *err);
/* --html: the HTML report (lua/report/html.lua) of results given as JSON texts, written to the
 * file the option names; 0, or -1 with err. */
int lib_html(bb_cli *cli, const char *const *results, int n, bb_err *err);
/* Runs a Lua file with the library and arg = { [0] = file, ... }; 0 or -1 with err. */
int lib_run_file(int argc, char **argv, bb_err *err);

#endif
