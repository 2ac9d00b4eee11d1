/* api_dialect.c — a dialect as scripts see it: db.dialect and core.dialect(name). Its
 * quoting and parameter spelling are the C ones (drivers/driver_dialect.c), so a script, the
 * library's DDL and the runtime's statements spell names the same way; scripts read the
 * dialect instead of testing the engine's name. Fields: name (the type map's key),
 * ident_quote, param_style ("$1" or "?"), max_params, max_rows, bool_int, lua (the module that
 * describes it, nil: none); methods:
 * quote(ident), param(i), and type(sqltype) (added by lua/bulkbench.lua). */
#include <lauxlib.h>
#include <lua.h>
#include <string.h>

#include "../../base/buf.h"
#include "api.h"

#define DIALECT_MT "bulkbench.dialect"

/* A copy: a target's dialect lives only as long as its target. */
typedef struct api_dialect {
    bb_dialect d;
    char name[32];
} api_dialect;

void api_push_dialect(lua_State *L, const bb_dialect *d)
{
    api_dialect *a = lua_newuserdata(L, sizeof *a);
    a->d = *d;
    strncpy(a->name, d->name, sizeof a->name - 1);
    a->name[sizeof a->name - 1] = 0;
    a->d.name = a->name;
    luaL_getmetatable(L, DIALECT_MT);
    lua_setmetatable(L, -2);
}

static const bb_dialect *check(lua_State *L) { return &((api_dialect *)luaL_checkudata(L, 1, DIALECT_MT))->d; }

static int push_buf(lua_State *L, bb_buf *b)
{
    lua_pushlstring(L, b->p, b->len);
    bb_buf_free(b);
    return 1;
}

static int l_quote(lua_State *L)
{
    bb_buf b = { 0 };
    dialect_quote(check(L), luaL_checkstring(L, 2), &b);
    return push_buf(L, &b);
}

static int l_param(lua_State *L)
{
    bb_buf b = { 0 };
    dialect_param(check(L), (long)luaL_checkinteger(L, 2), &b);
    return push_buf(L, &b);
}

static int l_index(lua_State *L)
{
    const bb_dialect *d = check(L);
    const char *k = luaL_checkstring(L, 2);
    if (!strcmp(k, "name")) lua_pushstring(L, d->name);
    else if (!strcmp(k, "ident_quote")) lua_pushlstring(L, &d->ident_quote, 1);
    else if (!strcmp(k, "param_style")) lua_pushstring(L, d->param_dollar ? "$1" : "?");
    else if (!strcmp(k, "max_params")) lua_pushinteger(L, d->max_params);
    else if (!strcmp(k, "max_rows")) lua_pushinteger(L, d->max_rows);
    else if (!strcmp(k, "bool_int")) lua_pushboolean(L, d->bool_int);
    else if (!strcmp(k, "lua")) lua_pushstring(L, d->lua); /* nil: the standard's */
    else {
        luaL_getmetatable(L, DIALECT_MT);
        lua_getfield(L, -1, "methods");
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int l_tostring(lua_State *L)
{
    lua_pushstring(L, check(L)->name);
    return 1;
}

static int l_eq(lua_State *L)
{
    const bb_dialect *a = check(L), *b = &((api_dialect *)luaL_checkudata(L, 2, DIALECT_MT))->d;
    lua_pushboolean(
        L, !strcmp(a->name, b->name) && a->ident_quote == b->ident_quote && a->param_dollar == b->param_dollar);
    return 1;
}

/* core.dialect(name): a dialect an engine speaks, by name (oracle and mssql among them, which
 * the odbc engine reaches); one no engine knows gets the standard's quoting and '?' markers. */
int api_dialect_find(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const bb_dialect *d = bb_dialect_known(name);
    bb_dialect std = bb_dialect_generic;
    std.name = name;
    api_push_dialect(L, d ? d : &std);
    return 1;
}

void api_dialect_open(lua_State *L)
{
    static const luaL_Reg methods[] = { { "quote", l_quote }, { "param", l_param }, { NULL, NULL } };
    static const luaL_Reg meta[] = {
        { "__index", l_index }, { "__tostring", l_tostring }, { "__eq", l_eq }, { NULL, NULL }
    };
    if (luaL_newmetatable(L, DIALECT_MT)) {
        luaL_register(L, NULL, meta);
        lua_newtable(L);
        luaL_register(L, NULL, methods);
        lua_setfield(L, -2, "methods");
    }
    lua_pop(L, 1);
}
