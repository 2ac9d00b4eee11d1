/* lib.c — the commands' way into scripts and the Lua library (see lib.h). */
#include "lib.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
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

/* Calls module.fn(...) with the nargs values on the stack below; leaves its result. */
static int call_module(lua_State *L, const char *module, const char *fn, int nargs, bb_err *err)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    if (host_pcall(L, 1, 1, err) < 0) return -1;
    lua_getfield(L, -1, fn);
    lua_remove(L, -2);
    lua_insert(L, -1 - nargs);
    return host_pcall(L, nargs, 1, err);
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
    if (call_module(L, "bulkbench", "help_text", 0, err) < 0) return NULL;
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
    if (!lua_istable(L, -1)) bb_usagef(err, "%s defines no table '%s' (bb.table)", script, name);
    else if (!(t = api_to_gen(L, lua_gettop(L)))) bb_errf(err, "table '%s' has no generators", name);
    lua_pop(L, 3);
    return t;
}

char *lib_report(bb_cli *cli, const char *const *files, int nfiles, const char *format, const char *svg, int log,
                 bb_err *err)
{
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return NULL;
    lua_newtable(L);
    for (int i = 0; i < nfiles; i++) {
        lua_pushstring(L, files[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_newtable(L);
    lua_pushstring(L, format);
    lua_setfield(L, -2, "format");
    if (svg) {
        lua_pushstring(L, svg);
        lua_setfield(L, -2, "svg");
    }
    lua_pushboolean(L, log);
    lua_setfield(L, -2, "log");
    char *text = call_module(L, "bulkbench.report", "main", 2, err) < 0 ? NULL : pop_string(L);
    state_close(L);
    return text;
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
