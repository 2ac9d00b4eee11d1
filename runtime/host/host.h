/* host.h — calling into a Lua state safely: what the state may reach (its context), protected
 * calls whose errors name the script's file:line with a traceback (the handler sits at
 * stack slot 1 of every state), usage errors raised from C, and the script's text and hooks. */
#ifndef BB_HOST_H
#define BB_HOST_H

#include "run.h"
#include "../../base/err.h"

/* What a Lua state may reach; lives in its registry, read by runtime/host/api.c. */
typedef struct host_ctx {
    const bb_plan *plan; /* NULL in states that only declare (help, gen) */
    bb_cli *cli;
    bb_run *run;       /* NULL in the set-up state before a run */
    bb_worker *worker; /* NULL in the set-up state */
    int setup;         /* 1 in the set-up state: declarations are recorded */
    int owned;         /* allocated for the state alone: state_close frees it */
    uint64_t seed;
    int64_t now_s;
    const char *scratch; /* appended to the SQL name of every bb.table (scratch tables), or NULL */
    const bb_dialect *dialect;
    /* options the script declared (set-up state), for help and the unknown-option check */
    char **declared;
    int ndeclared;
    /* the script's options as they took effect (set-up state), for results */
    char **opt_name, **opt_value;
    int nopts;
    /* figures the script measured itself (bb.metric), for the current run's result */
    bb_metric metric[BB_MAX_METRICS];
    int nmetrics;
    /* value sets generators may draw from (core/gen/vset.h): the run's while one is on */
    struct vset_reg *values;
} host_ctx;

host_ctx *host_get(lua_State *L);
void host_set_ctx(lua_State *L, host_ctx *ctx);
/* The message handler every host_pcall uses (slot 1 of each state): strings get a
 * traceback, usage errors (tables) pass through untouched. */
int host_traceback(lua_State *L);

/* Reads a script once; every state of the run loads it from memory (so a script on a
 * pipe such as <(...) works, and the file is not read once per thread). */
int host_read_script(const char *path, char **src, size_t *len, bb_err *err);
/* Runs the script's top level (declarations, tables, hooks); path names it in messages. */
int host_run_source(lua_State *L, const char *src, size_t len, const char *path, bb_err *err);
/* host_read_script + host_run_source, for states that load it once. */
int host_run_script(lua_State *L, const char *path, bb_err *err);
/* Pushes the hook `name` as the library resolves it (bb.hook: the script's own global
 * function, else the one the library registered) and returns 1; pushes nil and returns 0
 * when there is none. The one way the runtime finds a hook. */
int host_push_hook(lua_State *L, const char *name);
/* A registry reference to the hook `name` (host_push_hook), or LUA_NOREF when there is none. */
int host_hook(lua_State *L, const char *name);
/* Calls the function under nargs arguments on the stack, protected; on error fills err
 * with "file:line: message" and the traceback (code 2 for usage errors raised by the
 * library, 1 otherwise). */
int host_pcall(lua_State *L, int nargs, int nresults, bb_err *err);

/* The error object a failed lua_pcall left on the stack, popped into err (as host_pcall). */
int host_error(lua_State *L, bb_err *err);

/* core.fail(msg): a failure of what the script was given (no such table, no privilege) that
 * exits 1 with msg alone, without a traceback. */
int host_fail(lua_State *L, const char *msg);

/* Raised from C functions for a usage error (exit 2) instead of a script failure; the
 * message gets the script's file:line that led to it. */
int host_usage_error(lua_State *L, const char *msg);

#endif
