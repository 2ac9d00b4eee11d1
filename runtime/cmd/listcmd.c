/* listcmd.c — `bulkbench list`: the workloads, then each engine with the methods it offers;
 * `--engines --format=json` the engines' descriptors, for scripts and tests. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "../../base/err.h"
#include "../../drivers/driver.h"
#include "../core/method/method.h"
#include "command.h"
#include "output.h"

static void list_workloads(void)
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
}

/* Each engine with the methods it offers, so every method line stands under its engine; a
 * names' column as wide as the longest name and two spaces, whatever its length. */
static void list_engines(void)
{
    int w = 0, mw = 0;
    for (int i = 0; bb_drivers[i]; i++) w = (int)strlen(bb_drivers[i]->name) > w ? (int)strlen(bb_drivers[i]->name) : w;
    for (const bb_method *m = bb_methods; m->name; m++) mw = (int)strlen(m->name) > mw ? (int)strlen(m->name) : mw;
    puts("engines and the methods each offers:");
    for (int i = 0; bb_drivers[i]; i++) {
        const bb_driver *d = bb_drivers[i];
        printf("  %-*s %s%s%s\n", w + 1, d->name, d->summary, d->dsn_help ? "; --dsn=" : "", d->dsn_help ? d->dsn_help : "");
        for (const bb_method *m = bb_methods; m->name; m++)
            if (method_offered(m, d)) printf("      %-*s %s\n", mw + 1, m->name, m->summary);
    }
}

/* The descriptors as one JSON array, each with the methods the engine offers. */
static int list_json(void)
{
    json_t *all = json_array();
    for (int i = 0; bb_drivers[i]; i++) {
        json_t *o = bb_driver_json(bb_drivers[i]), *ms = json_array();
        for (const bb_method *m = bb_methods; m->name; m++)
            if (method_offered(m, bb_drivers[i])) json_array_append_new(ms, json_string(m->name));
        json_object_set_new(o, "methods", ms);
        json_array_append_new(all, o);
    }
    json_dumpf(all, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(all);
    return 0;
}

static int list_main(bb_cli *cli)
{
    const char *fmt = opts_get(cli, "format");
    int engines = opts_is_on(opts_get(cli, "engines"));
    if (fmt && strcmp(fmt, "text") && strcmp(fmt, "json")) {
        bb_err err = { .code = BB_EXIT_USAGE };
        bb_usagef(&err, "--format=%s: list prints text or json", fmt);
        return output_fail(&err);
    }
    if (fmt && !strcmp(fmt, "json")) {
        if (engines) return list_json();
        bb_err err = { .code = BB_EXIT_USAGE };
        bb_usagef(&err, "--format=json goes with --engines: the engines' descriptors");
        return output_fail(&err);
    }
    if (!engines) {
        list_workloads();
        putchar('\n');
    }
    list_engines();
    return 0;
}

// clang-format off
/* list's own option, defined here (opts.h) */
static const opt_def engines_opt = { "engines", OT_BOOL, NULL, 0, 0, "the engines alone (with --format=json: their descriptors)" };
static const opt_def *const list_own[] = { &engines_opt, NULL };

static const opt_use list_opts[] = {
    { "engines", NULL, NULL, NULL },
    { "format", "text, or with --engines json: each engine's descriptor (what the tests and docs read)", "text", "FORMAT" },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command list_command = {
    "list",
    "[--engines [--format=json]]",
    "the workloads, then the engines and the methods each offers",
    "bulkbench list",
    list_opts,
    list_own,
    list_main,
    0,
};
