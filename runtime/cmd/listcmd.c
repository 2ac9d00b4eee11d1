/* listcmd.c — `bulkbench list`: the workloads, then each engine with the methods it offers. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/driver.h"
#include "../core/method/method.h"
#include "command.h"

/* Workloads first, then each engine with the methods it offers, so every method line
 * stands under its engine until the end. */
static int list_main(bb_cli *cli)
{
    (void)cli;
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

const bb_command list_command = {
    "list",
    "(no arguments)",
    "the workloads, then the engines and the methods each offers",
    "bulkbench list",
    NULL,
    NULL,
    list_main,
    0,
};
