/* main.c — the command line: which command, its usage, and the small commands (list,
 * help, report, lua); run, load and gen have files of their own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../base/err.h"
#include "../../drivers/driver.h"
#include "../core/cluster.h"
#include "../core/method.h"
#include "../core/opts.h"
#include "../core/sig.h"
#include "../host/host.h"
#include "../host/lib.h"
#include "../host/state.h"
#include "advisecmd.h"
#include "gencmd.h"
#include "loadcmd.h"
#include "output.h"
#include "runcmd.h"

#ifndef BB_VERSION
#define BB_VERSION "dev"
#endif

/* In the order of the option table's command bits (core/opts.h: OC_RUN is 1 << 0, ...). */
static const char *const usage_cmds[] = { "run", "gen", "load", "report", "advise" };
static const char *const usage_lines[] = {
    "  run SCRIPT.lua [options] [script options]   run a scenario (under mpirun, built with make MPI=1: one run "
    "over all ranks)\n",
    "  gen SCRIPT.lua --table=NAME --rows=N [--format=copy|csv|tsv|sql] [-o FILE] [--threads=N]\n",
    "  load FILE... --engine=E --table=T [--threads=N] [--chunk=4MB] [--format=csv|tsv|copy] [load options below]\n",
    "  report RESULTS.jsonl [--svg=FILE] [--format=text|markdown|csv] [--log]   tables and a chart of past runs\n"
    "  report --compare BASE.jsonl CANDIDATE.jsonl [--fail-if-slower=PCT]     is the candidate faster?\n"
    "  report --timeline|--cdf RESULTS.jsonl [--svg=FILE]  rows/s and p99 over time; latency CDF\n",
    "  advise SCRIPT.lua|FILE --engine=E [--table=T] [--budget=5m] [--method=..] [--threads=..] [--batch=..]\n"
    "         [--baseline=METHOD:BATCH:THREADS] [--format=text|json] [--out=RUNS.jsonl]   the fastest way to load it\n",
};

static void usage_options(FILE *f, unsigned c)
{
    fprintf(f, "\n%s options:\n", usage_cmds[c]);
    for (const opt_def *d = opts_common; d->name; d++)
        if (d->cmds & (1u << c))
            fprintf(f, "  --%-16s %s%s%s%s\n", d->name, d->help, d->dflt ? " (default " : "", d->dflt ? d->dflt : "",
                    d->dflt ? ")" : "");
}

/* Every command, or only CMD's synopsis and options (`bulkbench load --help`). */
static void usage(FILE *f, const char *cmd)
{
    for (unsigned c = 0; cmd && c < 5; c++)
        if (!strcmp(cmd, usage_cmds[c])) {
            fprintf(f, "usage: bulkbench\n%s", usage_lines[c]);
            if (c == 0)
                fputs("  help SCRIPT.lua                             the script's own options with defaults\n", f);
            usage_options(f, c);
            return;
        }
    fputs("usage: bulkbench COMMAND ...\n", f);
    for (unsigned c = 0; c < 3; c++) fputs(usage_lines[c], f);
    fputs("  list                                        engines, the methods each offers, workloads\n"
          "  help SCRIPT.lua                             the script's own options with defaults\n",
          f);
    fputs(usage_lines[3], f);
    fputs(usage_lines[4], f);
    fputs("  lua FILE.lua [args]                         run Lua with the bulkbench library (tools, tests)\n"
          "  --version\n",
          f);
    for (unsigned c = 0; c < 5; c++) usage_options(f, c);
}

/* Workloads first, then each engine with the methods it offers, so every method line
 * stands under its engine until the end. */
static int cmd_list(void)
{
    puts("workloads (workloads/*.lua):");
    FILE *f = popen("ls workloads/*.lua 2>/dev/null", "r");
    char path[1024];
    while (f && fgets(path, sizeof path, f)) {
        path[strcspn(path, "\n")] = 0;
        FILE *w = fopen(path, "r");
        char line[512] = "";
        if (w) {
            if (!fgets(line, sizeof line, w)) line[0] = 0;
            fclose(w);
        }
        line[strcspn(line, "\n")] = 0;
        printf("  %-36s %s\n", path, strncmp(line, "--", 2) == 0 ? line + 2 + (line[2] == ' ') : "");
    }
    if (f) pclose(f);
    puts("\nengines and the methods each offers:");
    for (int i = 0; bb_drivers[i]; i++) {
        const bb_driver *d = bb_drivers[i];
        printf("  %-8s %s\n", d->name, d->summary);
        for (const bb_method *m = bb_methods; m->name; m++)
            if (method_offered(m, d)) printf("      %-14s %s\n", m->name, m->summary);
    }
    return 0;
}

static int cmd_help(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (cli->npos < 1) {
        usage(stdout, NULL);
        return 0;
    }
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, cli->pos[0], &err);
    char *text = L && host_run_script(L, cli->pos[0], &err) == 0 ? lib_help(L, &err) : NULL;
    state_close(L);
    if (!text) return output_fail(&err);
    fputs(text, stdout);
    free(text);
    return 0;
}

/* bulkbench report FILE... (lua/report.lua): its text, then the failure it asks for, if any */
static int cmd_report(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (opts_check_common(cli, &err) < 0 || opts_check_unused(cli, NULL, &err) < 0) return output_fail(&err);
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

static int cmd_lua(int argc, char **argv)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (argc < 1) {
        bb_usagef(&err, "lua needs a file");
        return output_fail(&err);
    }
    return lib_run_file(argc, argv, &err) < 0 ? output_fail(&err) : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout, NULL);
        return argc < 2 ? BB_EXIT_USAGE : 0;
    }
    for (int i = 2; i < argc && strcmp(argv[1], "lua") && strcmp(argv[i], "--"); i++) /* `load --help`: its usage */
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (strcmp(argv[1], "run") || i == 2) {
                usage(stdout, argv[1]);
                return 0;
            }
            static char help[] = "help"; /* run SCRIPT --help: what `help SCRIPT` prints */
            argv[1] = help;
            argc = 3;
            break;
        }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("bulkbench %s\n", BB_VERSION);
        return 0;
    }
    for (int i = 0; bb_drivers[i]; i++) { /* an engine that promises more than it has is our bug: say so now */
        char msg[256];
        if (bb_driver_check(bb_drivers[i], msg, sizeof msg) < 0) {
            fprintf(stderr, "bulkbench: bug: %s; please report it\n", msg);
            return BB_EXIT_RUNTIME;
        }
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run") || !strcmp(cmd, "load") || !strcmp(cmd, "gen") || !strcmp(cmd, "advise")) sig_install();
    if (!strcmp(cmd, "lua")) return cmd_lua(argc - 2, argv + 2);
    bb_cli cli = { .cmd = cmd, .cmdbit = opts_command_bit(cmd) };
    bb_err err = { .code = BB_EXIT_USAGE };
    if (opts_parse(argc - 2, argv + 2, &cli, &err) < 0) {
        opts_free(&cli);
        return output_fail(&err);
    }
    int rc;
    if (!strcmp(cmd, "run")) {
        cluster_init(&argc, &argv); /* under mpirun: one rank of a spread run; else a no-op */
        rc = runcmd_main(&cli);
        cluster_finish();
    } else if (!strcmp(cmd, "gen")) rc = gencmd_main(&cli);
    else if (!strcmp(cmd, "list")) rc = cmd_list();
    else if (!strcmp(cmd, "help")) rc = cmd_help(&cli);
    else if (!strcmp(cmd, "report")) rc = cmd_report(&cli);
    else if (!strcmp(cmd, "load")) rc = loadcmd_main(&cli);
    else if (!strcmp(cmd, "advise")) rc = advisecmd_main(&cli);
    else {
        const char *cmds[] = { "run", "gen", "list", "help", "lua", "load", "report", "advise" };
        const char *near = opts_nearest(cmd, cmds, 8);
        bb_usagef(&err, "unknown command '%s'%s%s%s", cmd, near ? "; did you mean '" : "", near ? near : "",
                  near ? "'?" : "");
        rc = output_fail(&err);
    }
    opts_free(&cli);
    return rc;
}
