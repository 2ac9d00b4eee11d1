/* lib.c — the commands' way into scripts and the Lua library (see lib.h). */
#include "lib.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../base/buf.h"
#include "api.h"
#include "state.h"
#include "../../base/err.h"

int lib_has_work(lua_State *L)
{
    lua_getglobal(L, "event");
    lua_getglobal(L, "run");
    int has = lua_isfunction(L, -1) || lua_isfunction(L, -2);
    lua_pop(L, 2);
    return has;
}

/* Calls module.fn(...) with the nargs values on the stack below; leaves its nres results. */
static int call_module(lua_State *L, const char *module, const char *fn, int nargs, int nres, bb_err *err)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    if (host_pcall(L, 1, 1, err) < 0) return -1;
    lua_getfield(L, -1, fn);
    lua_remove(L, -2);
    lua_insert(L, -1 - nargs);
    return host_pcall(L, nargs, nres, err);
}

/* The string on top of the stack as a fresh copy, popped. */
static char *pop_string(lua_State *L)
{
    const char *s = lua_tostring(L, -1);
    char *out = bb_xstrdup(s ? s : "");
    lua_pop(L, 1);
    return out;
}

char *lib_help(lua_State *L, bb_err *err)
{
    if (call_module(L, "bulkbench", "help_text", 0, 1, err) < 0) return NULL;
    return pop_string(L);
}

gen_table *lib_gen_table(lua_State *L, const char *script, const char *name, bb_err *err)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    if (host_pcall(L, 1, 1, err) < 0) return NULL;
    lua_getfield(L, -1, "tables");
    lua_getfield(L, -1, name);
    gen_table *t = NULL;
    if (!lua_istable(L, -1)) {
        bb_usagef(err, "%s defines no table '%s' (bb.table)", script, name);
        lua_pop(L, 3);
        return NULL;
    }
    /* compiling the generators raises usage errors for bad arguments: protected, so they
     * name the script's line and exit 2 as in `run` */
    lua_getfield(L, -1, "native");
    lua_pushvalue(L, -2);
    if (host_pcall(L, 1, 1, err) < 0) {
        lua_pop(L, 3);
        return NULL;
    }
    if (!(t = api_to_gen(L, lua_gettop(L)))) bb_errf(err, "table '%s' has no generators", name);
    lua_pop(L, 4);
    return t;
}

/* The command's options (those given or with a default) as a table keyed by name with
 * '_' for '-': booleans, numbers and strings as their types say. */
static void push_report_opts(lua_State *L, bb_cli *cli)
{
    lua_newtable(L);
    for (const opt_use *u = cli->uses; u && u->name; u++) {
        const opt_def *d = opts_find_common(u->name);
        const char *v = d ? opts_get(cli, d->name) : NULL;
        if (!v) continue;
        if (d->type == OT_BOOL) lua_pushboolean(L, opts_is_on(v));
        else if (d->type == OT_NUM || d->type == OT_INT) lua_pushnumber(L, strtod(v, NULL));
        else lua_pushstring(L, v);
        char key[64];
        snprintf(key, sizeof key, "%s", d->name);
        for (char *c = key; *c; c++)
            if (*c == '-') *c = '_';
        lua_setfield(L, -2, key);
    }
}

char *lib_report(bb_cli *cli, const char *const *files, int nfiles, int *code, bb_err *err)
{
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return NULL;
    lua_newtable(L);
    for (int i = 0; i < nfiles; i++) {
        lua_pushstring(L, files[i]);
        lua_rawseti(L, -2, i + 1);
    }
    push_report_opts(L, cli);
    char *text = NULL;
    if (call_module(L, "bulkbench.report", "main", 2, 3, err) == 0) { /* text, exit code, why */
        *code = (int)lua_tointeger(L, -2);
        if (*code) bb_errf(err, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "the report failed");
        lua_pop(L, 2);
        text = pop_string(L);
    }
    state_close(L);
    return text;
}

int lib_html(bb_cli *cli, const char *const *results, int n, bb_err *err)
{
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return -1;
    lua_newtable(L);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, results[i]);
        lua_rawseti(L, -2, i + 1);
    }
    push_report_opts(L, cli);
    int rc = call_module(L, "bulkbench.html", "from_json", 2, 0, err);
    state_close(L);
    return rc;
}

int lib_run_file(int argc, char **argv, bb_err *err)
{
    bb_cli cli = { 0 };
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, argv[0], err);
    if (!L) return -1;
    lua_newtable(L);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setglobal(L, "arg");
    int rc = host_run_script(L, argv[0], err);
    state_close(L);
    return rc;
}
