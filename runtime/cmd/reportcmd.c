/* reportcmd.c — `bulkbench report RESULTS.jsonl...`: tables, comparisons, timelines and
 * charts of past runs (lua/report.lua), then the failure they ask for, if any. */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/err.h"
#include "../host/lib.h"
#include "command.h"
#include "output.h"

static int report_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    int code = 0;
    char *text = lib_report(cli, (const char *const *)cli->pos, cli->npos, &code, &err);
    if (!text) return output_fail(&err);
    fputs(text, stdout);
    free(text);
    if (!code) return 0;
    fflush(stdout); /* the figures stand above the failure that names them */
    err.code = code;
    return output_fail(&err);
}

// clang-format off
static const opt_use report_opts[] = {
    { "format", "how the tables print: text, markdown or csv", "text", "FORMAT" },
    { "svg", NULL, NULL, "FILE" },
    { "log", NULL, NULL, NULL },
    { "compare", NULL, NULL, NULL },
    { "fail-if-slower", NULL, NULL, "PCT" },
    { "timeline", NULL, NULL, NULL },
    { "cdf", NULL, NULL, NULL },
    { "html", NULL, NULL, "FILE" },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command report_command = {
    "report",
    "RESULTS.jsonl... [--compare BASE CAND] [--timeline | --cdf] [options]",
    "tables and charts of past runs; --compare: is the candidate faster, and how sure",
    "bulkbench report results.jsonl --svg=sweep.svg",
    report_opts,
    report_main,
    0,
};
