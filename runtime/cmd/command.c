/* command.c — the list of commands, and what is printed of them: `bulkbench help` (the
 * table's own reader, so it lives here), `bulkbench help SCRIPT.lua` and `bulkbench COMMAND --help`. */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../base/err.h"
#include "../host/host.h"
#include "../host/lib.h"
#include "../host/state.h"
#include "output.h"

// clang-format off
const bb_command *const bb_commands[] = {
    &run_command,
    &gen_command,
    &load_command,
    &new_command,
    &advise_command,
    &report_command,
    &list_command,
    &help_command,
    &lua_command,
    NULL,
};
// clang-format on

const bb_command *command_find(const char *name)
{
    for (int i = 0; name && bb_commands[i]; i++)
        if (strcmp(bb_commands[i]->name, name) == 0) return bb_commands[i];
    return NULL;
}

const opt_def *command_option(const char *name)
{
    for (int i = 0; bb_commands[i]; i++)
        for (int k = 0; bb_commands[i]->own && bb_commands[i]->own[k]; k++)
            if (strcmp(bb_commands[i]->own[k]->name, name) == 0) return bb_commands[i]->own[k];
    return NULL;
}

void command_takers(const char *option, char *out, size_t n)
{
    int total = 0, k = 0;
    size_t len = 0;
    for (int i = 0; bb_commands[i]; i++)
        for (const opt_use *u = bb_commands[i]->opts; u && u->name; u++) total += strcmp(u->name, option) == 0;
    out[0] = 0;
    for (int i = 0; bb_commands[i] && len < n; i++)
        for (const opt_use *u = bb_commands[i]->opts; u && u->name && len < n; u++)
            if (strcmp(u->name, option) == 0) {
                k++;
                len += (size_t)snprintf(out + len, n - len, "%s`bulkbench %s`",
                                        k == 1           ? ""
                                            : k == total ? " and "
                                                         : ", ",
                                        bb_commands[i]->name);
            }
}

/* "--rows=N", "--header", "-o FILE": how an option is written on the command line. */
static void option_form(const opt_use *u, const opt_def *d, char *out, size_t n)
{
    const char *arg = opts_arg(u, d);
    if (strlen(u->name) == 1) snprintf(out, n, "-%s%s%s", u->name, *arg ? " " : "", arg);
    else snprintf(out, n, "--%s%s%s", u->name, *arg ? "=" : "", arg);
}

void command_usage(FILE *f, const bb_command *c)
{
    if (!c) {
        fputs("usage: bulkbench COMMAND [arguments] [options]\n\ncommands:\n", f);
        for (int i = 0; bb_commands[i]; i++) {
            const bb_command *k = bb_commands[i];
            fprintf(f, "  %-7s %s\n          %s\n", k->name, k->args, k->summary);
        }
        fputs("\n`bulkbench COMMAND --help` lists a command's options; `bulkbench --version` prints the version.\n", f);
        return;
    }
    fprintf(f, "usage: bulkbench %s %s\n  %s\n", c->name, c->args, c->summary);
    if (c->opts && c->opts->name) {
        fputs("\noptions:\n", f);
        for (const opt_use *u = c->opts; u->name; u++) {
            char form[48];
            const opt_def *def = opts_def(c->own, u->name);
            option_form(u, def, form, sizeof form);
            const char *d = opts_default(u, def);
            fprintf(f, "  %-22s %s%s%s%s\n", form, opts_help(u, def), d ? " (default " : "", d ? d : "", d ? ")" : "");
        }
    }
    if (c->flags & CMD_SCRIPT) fputs("\nThe script's own options: `bulkbench help SCRIPT.lua`.\n", f);
    fprintf(f, "\nexample:\n    %s\n", c->example);
}

static int help_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    const bb_command *c = cli->npos == 1 ? command_find(cli->pos[0]) : NULL;
    if (cli->npos < 1 || c) {
        command_usage(stdout, c);
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

const bb_command help_command = {
    "help",
    "[COMMAND | SCRIPT.lua]",
    "the commands; a command's options; or a script's own options with their defaults",
    "bulkbench help workloads/quickstart.lua",
    NULL,
    NULL,
    help_main,
    0,
};
