/* newcmd.c — `bulkbench new`: the catalog and statistics of a table, or the whole of a file
 * (core/load/csvinfer.c), into a scenario that loads rows like them (lua/new/new.lua writes it). */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/err.h"
#include "../../drivers/driver.h"
#include "../core/load/csvinfer.h"
#include "../core/load/load.h"
#include "../core/sig.h"
#include "../host/lib.h"
#include "output.h"

/* The file's columns and types, read from end to end. */
static int read_file(bb_cli *cli, const char *path, csvi_result *r, lib_new_file *f, bb_err *err)
{
    const char *fmt = load_format_of(path, opts_get(cli, "delimiter") ? "csv" : NULL);
    char delim = 0, quote = 0;
    if (load_char_opt("delimiter", opts_get(cli, "delimiter"), &delim, err) < 0 ||
        load_char_opt("quote", opts_get(cli, "quote"), &quote, err) < 0)
        return -1;
    if (!fmt || !strcmp(fmt, "copy"))
        return bb_usagef(err, "new reads a .csv or .tsv file (or --delimiter=C), not %s", path);
    f->path = path;
    f->tsv = !strcmp(fmt, "tsv") || delim == '\t';
    f->header = opts_is_on(opts_get(cli, "header"));
    f->r = r;
    csvi_opts o = { .tsv = !strcmp(fmt, "tsv"),
                    .delim = delim,
                    .quote = quote,
                    .header = f->header,
                    .null = opts_get(cli, "null"),
                    .sample = atoi(opts_get(cli, "sample")),
                    .seed = 1 };
    return csvi_read_file(path, &o, r, err);
}

/* Whether a path names a Lua scenario. */
static int is_lua(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && !strcmp(path + n - 4, ".lua");
}

/* What new is asked to do, or -1 with a usage error: 0 scaffold (a table, or a data file),
 * 1 --check FILE.lua --table=T (a scenario, edited say, held against the table). */
static int new_mode(bb_cli *cli, bb_err *err)
{
    if (cli->npos > 1) return bb_usagef(err, "new reads one file (or a --table), not %d", cli->npos);
    if (cli->npos == 0 && !opts_get(cli, "table"))
        return bb_usagef(err, "new needs --table=NAME (with --engine and --dsn) or a file: bulkbench new FILE.csv --header");
    int checking = opts_is_on(opts_get(cli, "check"));
    int scenario = checking && cli->npos == 1 && is_lua(cli->pos[0]);
    if (cli->npos == 1 && opts_get(cli, "table") && !scenario)
        return bb_usagef(err, "new scaffolds from a file or from --table, not both");
    if (checking && cli->npos == 1 && !scenario)
        return bb_usagef(err, "--check compares a table with its scenario: give --table (and a scenario FILE.lua to check "
                              "one you edited), not a data file");
    if (scenario && !opts_get(cli, "table"))
        return bb_usagef(err, "new --check %s holds a scenario against a table: name it with --table", cli->pos[0]);
    if (scenario && opts_get(cli, "o"))
        return bb_usagef(err, "new --check %s checks the scenario as it is: -o writes a new one, leave it out",
                         cli->pos[0]);
    return scenario;
}

static int new_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    const bb_driver *d = opts_engine(opts_get(cli, "engine"), &err);
    if (!d) return output_fail(&err);
    int scenario = new_mode(cli, &err);
    if (scenario < 0) return output_fail(&err);
    if (opts_is_on(opts_get(cli, "check"))) sig_install(); /* Ctrl-C: the scratch copy is dropped before we leave */
    csvi_result r = { 0 };
    lib_new_file f;
    char *note = NULL, *text = NULL;
    err.code = BB_EXIT_RUNTIME;
    if (scenario) {
        f = (lib_new_file){ .path = cli->pos[0] };
        text = lib_new(cli, opts_dsn(cli, d), &f, &note, &err);
    } else if (cli->npos == 1) {
        if (read_file(cli, cli->pos[0], &r, &f, &err) == 0) text = lib_new(cli, NULL, &f, &note, &err);
    } else {
        text = lib_new(cli, opts_dsn(cli, d), NULL, &note, &err);
    }
    csvi_free(&r);
    if (!text && sig_caught()) {
        free(note);
        fprintf(stderr, "bulkbench: interrupted; the scratch copy was dropped\n");
        return 128 + sig_caught();
    }
    if (!text) {
        free(note);
        return output_fail(&err);
    }
    fputs(text, stdout);
    fflush(stdout);
    if (note) fputs(note, stderr);
    free(text);
    free(note);
    return 0;
}

// clang-format off
/* new's own option, defined here (opts.h) */
static const opt_def sample = { "sample", OT_INT, "30000", 0, 0, "rows read for the distributions a server keeps no statistics of" };
static const opt_def check = { "check", OT_BOOL, NULL, 0, 0, "load the scenario's rows into a scratch copy and compare each column with the table's" };
static const opt_def check_rows = { "check-rows", OT_INT, "200000", 0, 1, "rows --check loads at most (as many as the table holds, up to this); it compares samples of 10,000 rows of each" };
static const opt_def *const new_own[] = { &sample, &check, &check_rows, NULL };

static const opt_use new_opts[] = {
    { "engine", "for a table, whose catalog to read; for a file, whose CREATE TABLE to print", NULL, "E" },
    { "dsn", NULL, NULL, "DSN" },
    { "table", "the table(s) to scaffold from: [schema.]NAME, a comma list, or a LIKE pattern (bmsql_%): parents load before children", NULL, "NAME" },
    { "o", "the scenario file to write (default: standard output for a table; for a file, NAME.lua unless it is there)", NULL, "FILE.lua" },
    { "sample", "rows read for what the server keeps no statistics of (TABLESAMPLE where the engine has it); of a file, rows kept for the distributions", NULL, NULL },
    { "header", "a file's first row names its columns", NULL, NULL },
    { "delimiter", NULL, NULL, "CHAR" },
    { "quote", NULL, NULL, "CHAR" },
    { "null", "a file's field text that means NULL (default: an empty field, or \\N or NULL when the file uses them)", NULL, "TEXT" },
    { "check", "then load the scenario's rows into a scratch copy of the table (dropped after) and print, column by column and worst first, how far they are from the table's: null fraction, distinct ratio, top-5 frequencies, Kolmogorov-Smirnov, and what is off; with FILE.lua, that scenario (edited, say) instead of a new one", NULL, NULL },
    { "check-rows", NULL, NULL, "N" },
    { "format", "--check: text, or one JSON object", "text", "FORMAT" },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command new_command = {
    "new",
    "--engine=E --dsn=D --table=[schema.]T [-o FILE.lua] [--check] | FILE.csv [--header] [--engine=E] [-o FILE.lua] | FILE.lua --check --table=T",
    "a scenario of rows like an existing table's (catalog, keys, statistics) or a CSV's (and its CREATE TABLE)",
    "bulkbench new tests/fixtures/new_mixed.csv --header --engine=sqlite -o /tmp/new_mixed.lua",
    new_opts,
    new_own,
    new_main,
    0,
};
