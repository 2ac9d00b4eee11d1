/* command.c — the list of commands, and what is printed of them: `bulkbench help` (the
 * table's own reader, so it lives here), `bulkbench help SCRIPT.lua` and `bulkbench COMMAND --help`. */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../base/err.h"
#include "../../drivers/driver.h"
#include "../core/method/method.h"
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
    &forecast_command,
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
/* help with {dialects}, {dsns} (each engine's DSN forms) and {file-dsns} (those of the engines
 * `load` streams into) spelled out from the registry, into out. Help names no engine by
 * itself: an engine is in a help text through what it adds (a DSN form, a dialect), so an
 * engine that adds none (the null engine under another name) changes no command's help, nor
 * docs/commands.md, made from it. */
static const char *command_help_words(const char *help, char *out, size_t n)
{
    static const struct {
        const char *token;
        int (*keep)(const bb_driver *d);
        int dialects;
    } words[] = { { "{dialects}", NULL, 1 }, { "{dsns}", NULL, 0 }, { "{file-dsns}", method_streams_files, 0 } };
    snprintf(out, n, "%s", help);
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        char *at = strstr(out, words[i].token), names[1024], rest[1024];
        if (!at) continue;
        if (words[i].dialects) bb_dialect_words(" or ", names, sizeof names);
        else bb_dsn_words(words[i].keep, names, sizeof names);
        snprintf(rest, sizeof rest, "%s", at + strlen(words[i].token));
        if (snprintf(at, n - (size_t)(at - out), "%s%s", names, rest) >= (int)(n - (size_t)(at - out)))
            break; /* cut at the buffer's end: a help text is far shorter */
    }
    return out;
}

static void option_form(const opt_use *u, const opt_def *d, char *out, size_t n)
{
    const char *arg = opts_arg(u, d);
    if (strlen(u->name) == 1) snprintf(out, n, "-%s%s%s", u->name, *arg ? " " : "", arg);
    else snprintf(out, n, "--%s%s%s", u->name, *arg ? "=" : "", arg);
}

#define HELP_WIDTH 100 /* columns a help line takes at most (a word longer than a line stands alone) */

/* the columns n bytes of UTF-8 take */
static int columns(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

/* text from column col (where the line already is), its words wrapped before HELP_WIDTH onto
 * lines that start at column indent; cont: what ends a line that continues (" \\" for a
 * command a shell reads) */
static void wrap(FILE *f, const char *text, int col, int indent, const char *cont)
{
    int first = 1, reserve = columns(cont, strlen(cont));
    for (const char *p = text; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        size_t n = strcspn(p, " ");
        int w = columns(p, n);
        if (!first && col + 1 + w + reserve > HELP_WIDTH) {
            fprintf(f, "%s\n%*s", cont, indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, n, f);
        col += w;
        p += n;
        first = 0;
    }
    fputc('\n', f);
}

void command_usage(FILE *f, const bb_command *c)
{
    if (!c) {
        fputs("usage: bulkbench COMMAND [arguments] [options]\n\ncommands:\n", f);
        for (int i = 0; bb_commands[i]; i++) {
            const bb_command *k = bb_commands[i];
            fprintf(f, "  %-7s ", k->name);
            wrap(f, k->args, 10, 12, "");
            fputs("          ", f);
            wrap(f, k->summary, 10, 10, "");
        }
        fputs("\n`bulkbench COMMAND --help` lists a command's options; `bulkbench --version` prints the version.\n", f);
        return;
    }
    fprintf(f, "usage: bulkbench %s ", c->name);
    wrap(f, c->args, 17 + (int)strlen(c->name), 19 + (int)strlen(c->name), "");
    fputs("  ", f);
    wrap(f, c->summary, 2, 2, "");
    if (c->opts && c->opts->name) {
        fputs("\noptions:\n", f);
        for (const opt_use *u = c->opts; u->name; u++) {
            char form[48], text[1280];
            const opt_def *def = opts_def(c->own, u->name);
            option_form(u, def, form, sizeof form);
            const char *d = opts_default(u, def);
            char help[1024];
            snprintf(text, sizeof text, "%s%s%s%s", command_help_words(opts_help(u, def), help, sizeof help),
                     d ? " (default " : "", d ? d : "", d ? ")" : "");
            fprintf(f, "  %-22s ", form);
            wrap(f, text, 3 + (strlen(form) > 22 ? (int)strlen(form) : 22), 25, "");
        }
    }
    if (c->flags & CMD_SCRIPT) fputs("\nThe script's own options: `bulkbench help SCRIPT.lua`.\n", f);
    fputs("\nexample:\n    ", f);
    wrap(f, c->example, 4, 6, " \\");
}

static int help_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    const bb_command *c = cli->npos == 1 ? command_find(cli->pos[0]) : NULL;
    if (cli->npos < 1 || c) {
        command_usage(stdout, c);
        return 0;
    }
    const char *what = cli->pos[0];
    if (cli->npos > 1) return bb_usagef(&err, "help takes one command or script, not %d", cli->npos), output_fail(&err);
    if (!strchr(what, '/') && !strstr(what, ".lua") && access(what, F_OK) != 0) {
        /* a word that is no file: a command mistyped, not a script */
        const char *names[32];
        int n = 0;
        for (int i = 0; bb_commands[i] && n < 32; i++) names[n++] = bb_commands[i]->name;
        const char *near = opts_nearest(what, names, n);
        bb_usagef(&err, "help: '%s' is neither a command nor a script%s%s%s", what, near ? "; did you mean '" : "",
                  near ? near : "", near ? "'?" : " (`bulkbench help` lists the commands)");
        return output_fail(&err);
    }
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, what, &err);
    char *text = L && host_run_script(L, cli->pos[0], &err) == 0 ? lib_help(L, &err) : NULL;
    state_close(L);
    if (!text) return output_fail(&err);
    fputs(text, stdout);
    free(text);
    return 0;
}

static const opt_use help_opts[] = {
    { "engine", "a script's help: the engines whose options it lists besides the script's own", NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

const bb_command help_command = {
    "help",
    "[COMMAND | SCRIPT.lua [--engine=E]]",
    "the commands; a command's options; or a script's own options with their defaults",
    "bulkbench help workloads/quickstart.lua",
    help_opts,
    NULL,
    help_main,
    0,
};
