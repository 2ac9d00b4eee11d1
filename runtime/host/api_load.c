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
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "host.h"
#include "../core/load.h"
#include "run.h"
#include "../core/stats.h"
#include "../../base/err.h"

static const char *str_field(lua_State *L, const char *k)
{
    lua_getfield(L, 2, k);
    const char *s = lua_isstring(L, -1) ? lua_tostring(L, -1) : NULL; /* stays alive: the table holds it */
    lua_pop(L, 1);
    return s;
}

static int64_t int_field(lua_State *L, const char *k, int64_t dflt)
{
    lua_getfield(L, 2, k);
    int64_t v = lua_isnumber(L, -1) ? (int64_t)lua_tonumber(L, -1) : dflt;
    lua_pop(L, 1);
    return v;
}

static int bool_field(lua_State *L, const char *k)
{
    lua_getfield(L, 2, k);
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

int api_load_file(lua_State *L, const bb_driver *drv, bb_target *target)
{
    luaL_checktype(L, 2, LUA_TTABLE);
    static const char *const known[] = { "path", "paths", "table", "format", "threads", "chunk", "header", "columns",
                                         "truncate", "delimiter", "quote", "null", "skip_rows", "limit", "on_error",
                                         "reject_file", "reject_limit", NULL };
    lua_pushnil(L);
    while (lua_next(L, 2)) { /* a misspelled field is an error, as a misspelled option is */
        lua_pop(L, 1);
        const char *k = lua_isstring(L, -1) ? lua_tostring(L, -1) : "?";
        int found = 0;
        for (int i = 0; known[i]; i++) found |= !strcmp(known[i], k);
        if (!found) {
            const char *near = opts_nearest(k, known, (int)(sizeof known / sizeof *known) - 1);
            return luaL_error(L, "load_file: unknown field '%s'%s%s%s", k, near ? "; did you mean '" : "",
                              near ? near : "", near ? "'?" : "");
        }
    }
    const char *paths[256];
    int np = 0;
    if (str_field(L, "path")) paths[np++] = str_field(L, "path");
    lua_getfield(L, 2, "paths");
    for (int i = 1; lua_istable(L, -1) && np < 256; i++) {
        lua_rawgeti(L, -1, i);
        if (!lua_isstring(L, -1)) { lua_pop(L, 1); break; }
        paths[np++] = lua_tostring(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    load_opts o = { .drv = drv, .target = target, .paths = paths, .npaths = np, .table = str_field(L, "table"),
                    .threads = (int)int_field(L, "threads", 1), .header = bool_field(L, "header"),
                    .columns = str_field(L, "columns"), .truncate = bool_field(L, "truncate"), .progress = 0,
                    .skip_rows = int_field(L, "skip_rows", 0), .limit = int_field(L, "limit", -1),
                    .reject_path = str_field(L, "reject_file"), .reject_limit = int_field(L, "reject_limit", -1),
                    .null = str_field(L, "null") };
    if (np == 0 || !o.table) return luaL_error(L, "load_file needs path (or paths) and table");
    bb_err err = { .code = BB_EXIT_USAGE };
    const char *chunk = str_field(L, "chunk"), *oe = str_field(L, "on_error");
    o.chunk = chunk ? opts_parse_size(chunk) : 0;
    if (o.chunk < 0) return luaL_error(L, "load_file: chunk '%s' is not a size such as 4MB", chunk);
    if (!(o.format = load_format_of(paths[0], str_field(L, "format"))))
        return luaL_error(L, "load_file: say format = \"csv\", \"tsv\" or \"copy\" for %s", paths[0]);
    if (oe && strcmp(oe, "stop") && strcmp(oe, "skip")) return luaL_error(L, "load_file: on_error is \"stop\" or \"skip\"");
    o.skip_bad = oe && !strcmp(oe, "skip");
    if (load_char_opt("delimiter", str_field(L, "delimiter"), &o.delimiter, &err) < 0 ||
        load_char_opt("quote", str_field(L, "quote"), &o.quote, &err) < 0)
        return luaL_error(L, "load_file: %s", err.msg);

    bb_result res;
    result_init(&res);
    if (load_files(&o, &res, &err) < 0) {
        luaL_where(L, 1);
        lua_pushfstring(L, "load_file: %s (%f rows were committed)", err.msg, (lua_Number)res.committed);
        lua_concat(L, 2);
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
    lua_pushnumber(L, (lua_Number)res.verified_rows);
    lua_setfield(L, -2, "verified");
    return 1;
}
