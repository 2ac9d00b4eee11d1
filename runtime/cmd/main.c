/* main.c — which command: the command table (command.c) names them all; main finds the
 * one asked for, parses its options and calls it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/err.h"
#include "../../drivers/driver.h"
#include "../core/method/method.h"
#include "../core/opts.h"
#include "../core/sig.h"
#include "command.h"
#include "output.h"

#ifndef BB_VERSION
#define BB_VERSION "dev"
#endif

static int unknown_command(const char *cmd)
{
    const char *names[32];
    int n = 0;
    for (int i = 0; bb_commands[i] && n < 32; i++) names[n++] = bb_commands[i]->name;
    const char *near = opts_nearest(cmd, names, n);
    bb_err err = { .code = BB_EXIT_USAGE };
    bb_usagef(&err, "unknown command '%s'%s%s%s", cmd, near ? "; did you mean '" : "", near ? near : "",
              near ? "'?" : " (see `bulkbench help`)");
    return output_fail(&err);
}

/* `CMD --help` (or -h) before any `--`: the command's usage, except `run SCRIPT --help`,
 * which is the script's (what `help SCRIPT` prints). 1 when handled. */
static int asks_help(const bb_command *c, int argc, char **argv, int *rc)
{
    int last = c->flags & CMD_RAW ? 3 : argc; /* `lua FILE --help`: the file's own argument */
    for (int i = 2; i < argc && i < last && strcmp(argv[i], "--"); i++) {
        if (strcmp(argv[i], "--help") && strcmp(argv[i], "-h")) continue;
        if ((c->flags & CMD_SCRIPT) && i > 2) {
            char *args[] = { argv[0], (char *)"help", argv[2], NULL };
            bb_cli cli = { .cmd = "help", .pos = args + 2, .npos = 1, .lookup = command_option };
            *rc = help_command.main(&cli);
            return 1;
        }
        command_usage(stdout, c);
        *rc = 0;
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        command_usage(argc < 2 ? stderr : stdout, NULL);
        return argc < 2 ? BB_EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("bulkbench %s\n", BB_VERSION);
        return 0;
    }
    for (int i = 0; bb_drivers[i]; i++) { /* an engine that promises more than it has is our bug: say so now */
        char msg[256];
        if (bb_driver_check(bb_drivers[i], msg, sizeof msg) < 0 ||
            method_check_engine(bb_drivers[i], msg, sizeof msg) < 0) {
            fprintf(stderr, "bulkbench: bug: %s; please report it\n", msg);
            return BB_EXIT_RUNTIME;
        }
    }
    const bb_command *c = command_find(argv[1]);
    if (!c) return unknown_command(argv[1]);
    int rc;
    if (asks_help(c, argc, argv, &rc)) return rc;
    if (c->flags & CMD_SIGNALS) sig_install();
    output_usage_hint(c->name, c->flags & CMD_SCRIPT);
    bb_cli cli = { .cmd = c->name, .uses = c->opts, .own = c->own, .takers = command_takers, .lookup = command_option };
    if (c->flags & CMD_RAW) {
        cli.pos = argv + 2;
        cli.npos = argc - 2;
        return c->main(&cli);
    }
    bb_err err = { .code = BB_EXIT_USAGE };
    /* every option given must be one the command takes; a script's own are known only once
     * it has run, so a command that takes a script checks those itself (opts_check_unused) */
    if (opts_parse(argc - 2, argv + 2, &cli, &err) < 0 || opts_check_common(&cli, &err) < 0 ||
        (!(c->flags & CMD_SCRIPT) && opts_check_unused(&cli, NULL, &err) < 0))
        rc = output_fail(&err);
    else rc = c->main(&cli);
    opts_free(&cli);
    return rc;
}
