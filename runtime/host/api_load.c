/* api_load.c — db:load_file{...}: `bulkbench load` from a script, so a scenario can put a
 * file load beside generated loads. The fields are the command's options:
 *   db:load_file{ path = "a.csv" (or paths = {...}), table = "t", format = "csv"|"tsv"|"copy",
 *                 threads = 1, chunk = "4MB", header = false, columns = "a,b", truncate = false,
 *                 delimiter = ",", quote = '"', null = nil, skip_rows = 0, limit = nil,
 *                 on_error = "stop"|"skip", reject_file = nil, reject_limit = nil }
 * and it returns { rows, rejected, bytes, seconds, verified } or raises the load's error.
 * Inside event() or run() the loaded rows count as the run's committed rows. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "host.h"
#include "../core/load/load.h"
#include "run.h"
#include "../core/run/stats.h"
#include "../core/run/verify.h"
#include "../../base/err.h"

/* A field of the table at index 2, read as the command line would give it: the option's
 * name with '_' for '-', numbers and booleans as text (kept in buf: Lua owns no copy). */
typedef struct lfields {
    lua_State *L;
    char buf[24][64];
    int used;
} lfields;

static const char *field(void *ud, const char *name)
{
    lfields *f = ud;
    char key[64];
    snprintf(key, sizeof key, "%s", name);
    for (char *p = key; *p; p++)
        if (*p == '-') *p = '_';
    lua_getfield(f->L, 2, key);
    const char *v = NULL;
    if (lua_type(f->L, -1) == LUA_TSTRING) {
        v = lua_tostring(f->L, -1); /* stays alive: the table holds it */
    } else if ((lua_type(f->L, -1) == LUA_TNUMBER || lua_type(f->L, -1) == LUA_TBOOLEAN) && f->used < 24) {
        char *b = f->buf[f->used++];
        if (lua_type(f->L, -1) == LUA_TBOOLEAN) snprintf(b, 64, "%s", lua_toboolean(f->L, -1) ? "on" : "off");
        else snprintf(b, 64, "%.17g", (double)lua_tonumber(f->L, -1));
        v = b;
    }
    lua_pop(f->L, 1);
    return v;
}

/* A misspelled field is an error, as a misspelled option is. */
static int check_fields(lua_State *L)
{
    const char *known[32] = { "path", "paths" };
    char names[24][32];
    int n = 2;
    for (int i = 0; load_opt_names[i] && n < 26; i++, n++) {
        snprintf(names[i], sizeof names[i], "%s", load_opt_names[i]);
        for (char *p = names[i]; *p; p++)
            if (*p == '-') *p = '_';
        known[n] = names[i];
    }
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        lua_pop(L, 1);
        const char *k = lua_isstring(L, -1) ? lua_tostring(L, -1) : "?";
        int found = 0;
        for (int i = 0; i < n; i++) found |= !strcmp(known[i], k);
        if (!found) {
            const char *near = opts_nearest(k, known, n);
            lua_pushfstring(L, "load_file: unknown field '%s'%s%s%s", k, near ? "; did you mean '" : "",
                            near ? near : "", near ? "'?" : "");
            return host_usage_error(L, lua_tostring(L, -1));
        }
    }
    return 0;
}

int api_load_file(lua_State *L, const bb_driver *drv, bb_target *target)
{
    luaL_checktype(L, 2, LUA_TTABLE);
    check_fields(L);
    const char *paths[256];
    int np = 0;
    lua_getfield(L, 2, "path");
    if (lua_isstring(L, -1)) paths[np++] = lua_tostring(L, -1); /* the table holds the strings */
    lua_pop(L, 1);
    lua_getfield(L, 2, "paths");
    for (int i = 1; lua_istable(L, -1) && np < 256; i++) {
        lua_rawgeti(L, -1, i);
        if (!lua_isstring(L, -1)) {
            lua_pop(L, 1);
            break;
        }
        paths[np++] = lua_tostring(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    load_opts o = { .drv = drv, .target = target, .paths = paths, .npaths = np };
    lfields f = { .L = L };
    bb_err err = { .code = BB_EXIT_USAGE };
    if (load_opts_read(&o, field, &f, &err) < 0) {
        lua_pushfstring(L, "load_file: %s", err.msg);
        return host_usage_error(L, lua_tostring(L, -1));
    }
    if (!field(&f, "progress")) o.progress = 0; /* a script's load draws no bar unless asked */

    bb_result res;
    result_init(&res);
    if (load_files(&o, &res, &err) < 0) {
        luaL_where(L, 1);
        lua_pushfstring(L, "load_file: %s (%f rows were committed)", err.msg, (lua_Number)res.committed);
        lua_concat(L, 2);
        result_free(&res);
        return lua_error(L);
    }
    host_ctx *h = host_get(L);
    if (h->worker) { /* inside event() or run(): the run committed these rows, as ctx:load() counts its own */
        h->worker->ld.committed += res.committed;
        stats_add(h->worker->ld.pt->st, (uint64_t)res.committed, (uint64_t)res.bytes);
    }
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, (lua_Number)res.committed);
    lua_setfield(L, -2, "rows");
    lua_pushnumber(L, (lua_Number)(res.rows_rejected > 0 ? res.rows_rejected : 0));
    lua_setfield(L, -2, "rejected");
    lua_pushnumber(L, (lua_Number)res.bytes);
    lua_setfield(L, -2, "bytes");
    lua_pushnumber(L, res.seconds);
    lua_setfield(L, -2, "seconds");
    if (res.verified_rows != VERIFY_UNKNOWN) { /* nil: the engine cannot count (verify.h) */
        lua_pushnumber(L, (lua_Number)res.verified_rows);
        lua_setfield(L, -2, "verified");
    }
    result_free(&res); /* the growth series it holds: a script's load reports none */
    return 1;
}
