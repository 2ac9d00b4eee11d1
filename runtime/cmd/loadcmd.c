/* loadcmd.c — `bulkbench load FILE...`: the options read (core/load/loadopts.c, the same for
 * db:load_file), the load run (core/load/load.c), its result printed and appended to --out. */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../base/err.h"
#include "../../drivers/driver.h"
#include "../core/method/method.h"
#include "../core/load/load.h"
#include "../core/run/result.h"
#include "../host/lib.h"
#include "../core/run/sysmon.h"
#include "output.h"

static const char *option(void *cli, const char *name) { return opts_get(cli, name); }

/* bulkbench load FILE... --engine=E --table=T [--threads=N] [--chunk=4MB] [--format=csv|tsv|copy] */
static int load_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    load_opts o = { .paths = (const char **)cli->pos, .npaths = cli->npos };
    if (load_opts_read(&o, option, cli, &err) < 0) return output_fail(&err);
    if (!opts_get(cli, "engine")) {
        char can[256];
        bb_usagef(&err, "load needs --engine=E: an engine that streams files (%s)",
                  bb_engine_words(method_streams_files, ", ", can, sizeof can));
        return output_fail(&err);
    }
    if (!(o.drv = opts_engine(opts_get(cli, "engine"), &err))) return output_fail(&err);
    o.dsn = opts_dsn(cli, o.drv);
    output_set_command(cli);

    bb_result res;
    result_init(&res);
    snprintf(res.scenario, sizeof res.scenario, "load");
    snprintf(res.engine, sizeof res.engine, "%s", o.drv->name);
    res.threads = o.threads;
    time_t now = time(NULL);
    strftime(res.started_at, sizeof res.started_at, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    int rc = load_files(&o, &res, &err) < 0 ? (err.code ? err.code : BB_EXIT_RUNTIME) : 0;
    if (rc == BB_EXIT_RUNTIME && res.committed == 0) { /* a table that is not there: say so, and which is near */
        char *missing = lib_missing_table(o.drv->name, o.dsn, o.table);
        if (missing) {
            snprintf(err.msg, sizeof err.msg, "%s", missing);
            snprintf(res.error, sizeof res.error, "%s", missing);
        }
        free(missing);
    }
    sysmon_host host;
    sysmon_host_info(&host);
    /* --format names the data here, so the result is the table; --out appends it as JSON */
    const char *out = opts_get(cli, "out");
    if (out && result_append_jsonl(out, &res, &host) < 0) fprintf(stderr, "bulkbench: cannot append to %s\n", out);
    result_print_table(stdout, &res, 1);
    if (o.skip_bad) /* nothing lost: what loaded and what was refused add up to the input */
        printf("loaded %lld rows + rejected %lld%s%s%s = %lld rows %s\n", (long long)res.committed,
               (long long)res.rows_rejected, o.reject_path ? " (in " : "", o.reject_path ? o.reject_path : "",
               o.reject_path ? ", why in its .log)" : "", (long long)(res.committed + res.rows_rejected),
               rc ? "before the load stopped" : "in the input");
    if (rc) { /* the error once: in the table's row when the result holds it */
        if (!res.error[0]) output_fail_message(&err);
        fprintf(stderr, "bulkbench: %lld rows were committed before the load stopped\n", (long long)res.committed);
        output_hint(rc, 0);
    }
    result_free(&res);
    return rc;
}

// clang-format off
static const opt_use load_opts_cli[] = {
    { "engine", "the engine whose server takes the files: one that streams them (a COPY or LOAD DATA method)", "", "E" },
    { "dsn", "the server, in the engine's form: {file-dsns}", NULL, "DSN" },
    { "table", "the table to load into (it must exist)", NULL, "NAME" },
    { "format", "the files' format: csv, tsv or copy (default: from the first file's extension)", NULL, "FORMAT" },
    { "threads", "workers, one connection each, each loading one chunk at a time", NULL, NULL },
    { "chunk", NULL, NULL, NULL },
    { "header", NULL, NULL, NULL },
    { "columns", NULL, NULL, "a,b,c" },
    { "truncate", NULL, NULL, NULL },
    { "rate-limit", NULL, NULL, "MB/s" },
    { "delimiter", NULL, NULL, "CHAR" },
    { "quote", NULL, NULL, "CHAR" },
    { "null", "the field text that means NULL (tsv default: an empty field; csv: an unquoted empty field)", NULL, "TEXT" },
    { "skip-rows", NULL, NULL, NULL },
    { "limit", NULL, NULL, NULL },
    { "on-error", NULL, NULL, "stop|skip" },
    { "reject-file", NULL, NULL, "FILE" },
    { "reject-limit", NULL, NULL, NULL },
    { "out", NULL, NULL, "FILE.jsonl" },
    { "progress", NULL, NULL, NULL },
    { "waits", NULL, NULL, "on|off|HZ" },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command load_command = {
    "load",
    "FILE... --engine=E --table=T [options]",
    "load existing CSV, TSV or COPY files (also .gz, .zst) in parallel row-aligned chunks",
    "bulkbench load h.csv --engine=pg --dsn=postgresql://bench@127.0.0.1/bench --table=bmsql_history --threads=2",
    load_opts_cli,
    NULL,
    load_main,
    CMD_SIGNALS,
};
