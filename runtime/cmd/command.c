/* command.c — the list of commands, and what is printed of them: `bulkbench help` and
 * `bulkbench COMMAND --help`. */
#include "command.h"

#include <stdio.h>
#include <string.h>

const bb_command *const bb_commands[] = {
    &run_command, &gen_command, &load_command, &advise_command, &report_command, &list_command, &help_command, &lua_command, NULL,
};

const bb_command *command_find(const char *name)
{
    for (int i = 0; name && bb_commands[i]; i++)
        if (strcmp(bb_commands[i]->name, name) == 0) return bb_commands[i];
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
static void option_form(const opt_use *u, char *out, size_t n)
{
    const char *arg = opts_arg(u);
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
            option_form(u, form, sizeof form);
            const char *d = opts_default(u);
            fprintf(f, "  %-22s %s%s%s%s\n", form, opts_help(u), d ? " (default " : "", d ? d : "", d ? ")" : "");
        }
    }
    if (c->flags & CMD_SCRIPT) fputs("\nThe script's own options: `bulkbench help SCRIPT.lua`.\n", f);
    fprintf(f, "\nexample:\n    %s\n", c->example);
}
