/* command.h — the command table: every command bulkbench has, in one list that main(),
 * the option parser, `help` and each command's --help all read.
 *
 * Adding a command: a file runtime/cmd/NAMEcmd.c that defines `const bb_command
 * NAME_command` (its options, usage and main function beside the code that reads them),
 * its declaration below, and its line in bb_commands[] (command.c). */
#ifndef BB_COMMAND_H
#define BB_COMMAND_H

#include <stdio.h>

#include "../core/opts.h"

enum {
    CMD_SIGNALS = 1, /* SIGINT/SIGTERM stop its pool (core/sig.c) instead of killing it */
    CMD_RAW = 2,     /* takes its arguments as they are (no option parsing): `lua` */
    CMD_SCRIPT = 4   /* its first argument is a scenario whose own options it also takes */
};

typedef struct bb_command {
    const char *name;
    const char *args;          /* what follows the name in its synopsis */
    const char *summary;       /* one line: what it is for */
    const char *example;       /* one command line that runs as written (from the project's root) */
    const opt_use *opts;       /* the options it takes, each as it means them; NULL: none */
    const opt_def *const *own; /* the definitions of those only it takes (NULL-terminated; NULL: none) */
    int (*main)(bb_cli *cli);
    unsigned flags; /* CMD_* */
} bb_command;

/* In the order `bulkbench help` lists them; NULL-terminated. */
extern const bb_command *const bb_commands[];

/* Each defined in its own file (help in command.c), one line each. */
extern const bb_command run_command;
extern const bb_command gen_command;
extern const bb_command load_command;
extern const bb_command new_command;
extern const bb_command advise_command;
extern const bb_command forecast_command;
extern const bb_command report_command;
extern const bb_command list_command;
extern const bb_command help_command;
extern const bb_command lua_command;

/* Options two commands take, each defined beside the command it is first of. */
extern const opt_def report_opt_html; /* report --html, run --html */

const bb_command *command_find(const char *name);
/* A command's own option (bb_command.own) by name, or NULL (bb_cli.lookup). */
const opt_def *command_option(const char *name);
/* `bulkbench help`: the commands; `bulkbench CMD --help`: that command's synopsis, options and example. */
void command_usage(FILE *f, const bb_command *c);
/* Fills out with "`bulkbench a` and `bulkbench b`": the commands that take an option (bb_cli.takers). */
void command_takers(const char *option, char *out, size_t n);

#endif
