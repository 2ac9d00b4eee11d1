/* reportcmd.c — `bulkbench report RESULTS.jsonl...`: tables, comparisons, timelines and
 * charts of past runs (lua/report/report.lua), then the failure they ask for, if any. */
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
/* report's own options, defined here (opts.h); run takes --html too */
const opt_def report_opt_html = { "html", OT_STR, NULL, 0, 0, "also write every report of the results (tables, charts, comparison, timelines, CDFs, environment) into this self-contained HTML file" };
static const opt_def svg = { "svg", OT_STR, NULL, 0, 0, "also draw a chart into this SVG file" };
static const opt_def log_scale = { "log", OT_BOOL, NULL, 0, 0, "log scale for rows/s in the chart" };
static const opt_def compare = { "compare", OT_BOOL, NULL, 0, 0, "two results files, BASE then CANDIDATE: points paired across what differs between the files (a --set, an option, versions: said), each one's rows/s ratio, its interval and a verdict; exit 4 when a point cannot be paired" };
static const opt_def fail_if_slower = { "fail-if-slower", OT_NUM, NULL, 0, 0, "with --compare: exit 4 when a point is slower by more than this many percent, its interval clear of it" };
static const opt_def timeline = { "timeline", OT_BOOL, NULL, 0, 0, "rows/s and p99 over time of each run with intervals, and its stalls (--svg draws it)" };
static const opt_def cdf = { "cdf", OT_BOOL, NULL, 0, 0, "the latency CDF of each point with a latency_hist (--svg draws it, log-scaled)" };
static const opt_def *const report_own[] = { &svg, &log_scale, &compare, &fail_if_slower, &timeline, &cdf, &report_opt_html, NULL };

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
    report_own,
    report_main,
    0,
};
