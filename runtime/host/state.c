/* state.c — a new Lua state: the embedded lua/ library preloaded (the bb library's C side
 * as "bulkbench.core"), the script's directory on package.path, the traceback handler in
 * place and the library loaded, so db objects have their methods whatever the script does. */
#include "state.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "embed.h"
#include "host.h"
#include "../../base/err.h"

static int load_embedded(lua_State *L)
{
    const bb_lua_module *m = lua_touserdata(L, lua_upvalueindex(1));
    if (luaL_loadbuffer(L, (const char *)m->data, m->size, m->chunkname) != 0) return lua_error(L);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    return 1;
}

static void set_path(lua_State *L, const char *script)
{
    char dir[4096] = ".";
    const char *slash = script ? strrchr(script, '/') : NULL;
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - script), script);
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;%s", dir, dir, lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
}

lua_State *state_new(host_ctx *ctx, const char *script, bb_err *err)
{
    lua_State *L = luaL_newstate();
    if (!L) {
        bb_errf(err, "cannot create a Lua state: out of memory");
        return NULL;
    }
    luaL_openlibs(L);
    lua_pushcfunction(L, host_traceback); /* stays at slot 1 for every host_pcall */
    host_set_ctx(L, ctx);

    lua_getglobal(L, "package");
    lua_getfield(L, -1, "preload");
    for (const bb_lua_module *m = bb_lua_modules; m->name; m++) {
        lua_pushlightuserdata(L, (void *)m);
        lua_pushcclosure(L, load_embedded, 1);
        lua_setfield(L, -2, m->name);
    }
    lua_pushcfunction(L, api_open);
    lua_setfield(L, -2, "bulkbench.core");
    lua_pop(L, 2);
    set_path(L, script);
    /* the library is loaded before the script, so db objects have their methods even when
     * a script never requires it */
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    if (host_pcall(L, 1, 0, err) < 0) {
        lua_close(L);
        return NULL;
    }
    return L;
}

void state_close(lua_State *L)
{
    if (!L) return;
    host_ctx *c = host_get(L);
    lua_close(L);
    if (!c) return;
    /* what the set-up state recorded is the state's: every command that runs a script
     * frees it here, not each on its own */
    for (int i = 0; i < c->ndeclared; i++) free(c->declared[i]);
    free(c->declared);
    for (int i = 0; i < c->nopts; i++) {
        free(c->opt_name[i]);
        free(c->opt_value[i]);
    }
    free(c->opt_name);
    free(c->opt_value);
    c->declared = c->opt_name = c->opt_value = NULL;
    c->ndeclared = c->nopts = 0;
    if (c->owned) free(c);
}
