/* runcmd.h — what `bulkbench advise` shares of `bulkbench run` (run_command itself is in
 * command.h): a script loaded into its set-up state, and the plan of one combination. */
#ifndef BB_RUNCMD_H
#define BB_RUNCMD_H

#include "../core/opts.h"
#include "../host/host.h"
#include "sweep.h"

/* A script loaded once into its set-up state. */
typedef struct run_script {
    const char *path;
    host_ctx hc; /* set hc.scratch before runcmd_load to load the script's tables under scratch names */
    char *src;
    size_t srclen;
    lua_State *L;
} run_script;

/* Reads and runs the script (its options checked, its work found); 0, or -1 with err.
 * runcmd_unload frees what it made, whichever way it went. */
int runcmd_load(bb_cli *cli, const char *path, run_script *rs, bb_err *err);
void runcmd_unload(run_script *rs);
/* A scenario's name, as results and reports carry it: its file's name without the folder and
 * the .lua (workloads/quickstart.lua is "quickstart"); into buf, returned. */
const char *runcmd_scenario(const char *path, char *buf, size_t n);
/* The plan of one combination: the sweep's dimensions plus the options every run shares
 * (the script fields are the caller's). */
void runcmd_plan(bb_plan *p, const sweep_combo *c, bb_cli *cli, const host_ctx *hc);

#endif
