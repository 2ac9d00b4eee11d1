/* api.c — Lua bindings: options, generators, db and statement objects, worker context. */
#include "api.h"
#include "api_args.h"

#include <jansson.h>
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/gen/encode.h"
#include "../core/gen/encrows.h"
#include "host.h"
#include "../core/method/method.h"
#include "../core/opts.h"
#include "../core/run/stats.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../../base/clock.h"

#ifndef BB_VERSION
#define BB_VERSION "dev"
#endif

#define GEN_MT "bulkbench.gen"
#define HIST_MT "bulkbench.histogram"

/* ---- options and run information ---- */

static int l_version(lua_State *L)
{
    lua_pushstring(L, BB_VERSION);
    return 1;
}

static int l_gen_kinds(lua_State *L)
{
    lua_newtable(L);
    for (int i = 0; gen_kind_names[i]; i++) {
        lua_pushstring(L, gen_kind_names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_cli_option(lua_State *L)
{
    host_ctx *h = host_get(L);
    const char *name = luaL_checkstring(L, 1);
    if (!h->cli) return 0;
    for (int i = h->cli->nkv - 1; i >= 0; i--)
        if (strcmp(h->cli->kv[i].name, name) == 0) {
            lua_pushstring(L, h->cli->kv[i].value);
            return 1;
        }
    return 0;
}

/* core.scratch() -> the suffix of every table's SQL name in this run ("" for the tables as named) */
static int l_scratch(lua_State *L)
{
    host_ctx *h = host_get(L);
    lua_pushstring(L, h->scratch ? h->scratch : "");
    return 1;
}

static int l_declare_option(lua_State *L)
{
    host_ctx *h = host_get(L);
    const char *name = luaL_checkstring(L, 1);
    const char *value = luaL_optstring(L, 2, "");
    if (!h->setup) return 0;
    h->opt_name = bb_xrealloc(h->opt_name, sizeof *h->opt_name * (size_t)(h->nopts + 1));
    h->opt_value = bb_xrealloc(h->opt_value, sizeof *h->opt_value * (size_t)(h->nopts + 1));
    h->opt_name[h->nopts] = bb_xstrdup(name);
    h->opt_value[h->nopts++] = bb_xstrdup(value);
    if (opts_find(h->cli, name)) {
        lua_pushfstring(L, "script option --%s clashes with bulkbench's option of that name", name);
        return host_usage_error(L, lua_tostring(L, -1));
    }
    h->declared = bb_xrealloc(h->declared, sizeof *h->declared * (size_t)(h->ndeclared + 2));
    h->declared[h->ndeclared++] = bb_xstrdup(name);
    h->declared[h->ndeclared] = NULL;
    return 0;
}

/* "; did you mean 'x'?" for the nearest of names to word, or "" (kept in buf). */
static const char *did_you_mean(const char *word, const char *const *names, int n, char *buf, size_t len)
{
    const char *near = opts_nearest(word, names, n);
    snprintf(buf, len, "%s%s%s", near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    return buf;
}

/* core.nearest(word, {names}) -> the name nearest to word by the rule every "did you mean"
 * follows (opts_nearest), or nil. */
static int l_nearest(lua_State *L)
{
    const char *word = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    const char *names[128];
    int n = 0;
    for (int i = 1; n < 128; i++) {
        lua_rawgeti(L, 2, i);
        if (!lua_isstring(L, -1)) {
            lua_pop(L, 1);
            break;
        }
        names[n++] = lua_tostring(L, -1); /* the table holds the strings while they are read */
        lua_pop(L, 1);
    }
    const char *near = opts_nearest(word, names, n);
    if (near) lua_pushstring(L, near);
    else lua_pushnil(L);
    return 1;
}

static int l_set_default(lua_State *L)
{
    host_ctx *h = host_get(L);
    const char *name = luaL_checkstring(L, 1);
    const char *value = luaL_checkstring(L, 2);
    const char *at = strchr(name, '@'); /* "method@pg": a default for one engine */
    char base[64], hint[96];
    const char *names[128];
    int n = 0;
    snprintf(base, sizeof base, "%.*s", at ? (int)(at - name) : (int)strlen(name), name);
    bb_err err;
    if (at && !opts_engine(at + 1, &err)) {
        lua_pushfstring(L, "bb.defaults: %s", err.msg);
        return host_usage_error(L, lua_tostring(L, -1));
    }
    const opt_def *d = opts_find(h->cli, base);
    if (!d) {
        for (int i = 0; opts_common[i].name && n < 128; i++) names[n++] = opts_common[i].name;
        lua_pushfstring(L, "bb.defaults: '%s' is not a common option%s", name, did_you_mean(base, names, n, hint, sizeof hint));
        return host_usage_error(L, lua_tostring(L, -1));
    }
    if (opts_check_value(base, d->type, value, d->min, &err) < 0 && !d->list) return host_usage_error(L, err.msg);
    if (h->setup && h->cli) opts_set_default(h->cli, name, value);
    return 0;
}

static int l_usage_error(lua_State *L) { return host_usage_error(L, luaL_checkstring(L, 1)); }
static int l_fail(lua_State *L) { return host_fail(L, luaL_checkstring(L, 1)); }

static int l_run_info(lua_State *L)
{
    host_ctx *h = host_get(L);
    lua_newtable(L);
    lua_pushstring(L, (h->dialect ? h->dialect : &bb_dialect_generic)->name);
    lua_setfield(L, -2, "dialect");
    lua_pushnumber(L, (lua_Number)h->seed);
    lua_setfield(L, -2, "seed");
    if (!h->plan && h->cli && opts_get(h->cli, "engine")) { /* before a run: the engines asked for (help) */
        lua_pushstring(L, opts_get(h->cli, "engine"));
        lua_setfield(L, -2, "engines");
    }
    if (!h->plan) return 1;
    const bb_plan *p = h->plan;
    lua_pushstring(L, p->drv->name);
    lua_setfield(L, -2, "engine");
    if (p->method) {
        lua_pushstring(L, p->method->name);
        lua_setfield(L, -2, "method");
    }
    lua_pushinteger(L, p->threads);
    lua_setfield(L, -2, "threads");
    lua_pushnumber(L, (lua_Number)p->batch);
    lua_setfield(L, -2, "batch");
    lua_pushnumber(L, (lua_Number)p->rows);
    lua_setfield(L, -2, "rows");
    lua_pushstring(L, p->scenario);
    lua_setfield(L, -2, "scenario");
    lua_pushstring(L, p->run_id);
    lua_setfield(L, -2, "run_id");
    lua_pushinteger(L, (lua_Integer)getpid()); /* scratch names carry it: lua/scratch.lua */
    lua_setfield(L, -2, "pid");
    if (h->worker) {
        lua_pushinteger(L, h->worker->ld.id);
        lua_setfield(L, -2, "thread_id");
    }
    return 1;
}

static int l_now_ns(lua_State *L)
{
    lua_pushnumber(L, (lua_Number)bb_now_ns());
    return 1;
}

/* core.metric(name, value): a figure the script measured itself, into this run's result */
static int l_metric(lua_State *L)
{
    host_ctx *h = host_get(L);
    const char *name = luaL_checkstring(L, 1);
    double v = luaL_checknumber(L, 2);
    if (h->worker) return luaL_error(L, "bb.metric() reports from prepare/check/cleanup, not from a worker");
    for (int i = 0; i < h->nmetrics; i++)
        if (strcmp(h->metric[i].name, name) == 0) {
            h->metric[i].value = v;
            return 0;
        }
    if (h->nmetrics == BB_MAX_METRICS) return luaL_error(L, "more than %d metrics in one run", BB_MAX_METRICS);
    snprintf(h->metric[h->nmetrics].name, sizeof h->metric[0].name, "%s", name);
    h->metric[h->nmetrics++].value = v;
    return 0;
}

static int l_stop(lua_State *L)
{
    host_ctx *h = host_get(L);
    if (h->run) pool_stop(&h->run->pool);
    return 0;
}

/* ---- generators ---- */

/* One column of core.compile's list (the table at index col) into g: a native kind's, or a
 * script's function's (gen.fn); a column with no generator (the server's default) is left out. */
static int compile_column(lua_State *L, gen_table *g, int col, bb_err *err)
{
    lua_getfield(L, col, "gen");
    if (!lua_istable(L, -1)) return 0;
    lua_getfield(L, col, "name");
    lua_getfield(L, col, "type");
    lua_getfield(L, col + 1, "kind");
    lua_getfield(L, col, "null");
    lua_getfield(L, col + 1, "fn");
    const char *cname = lua_tostring(L, col + 2), *ctype = lua_tostring(L, col + 3);
    const char *kind = lua_tostring(L, col + 4);
    double null_ratio = lua_isnumber(L, col + 5) ? lua_tonumber(L, col + 5) : 0;
    bb_sqltype type = gen_sqltype(ctype ? ctype : "text");
    if (lua_isfunction(L, col + 6)) return api_fn_column(L, g, col + 6, cname ? cname : "?", type, null_ratio, err);
    api_args args;
    gen_reader r;
    api_args_reader(&args, L, col + 1, api_sets_lookup, &r);
    int failed = gen_add(g, cname ? cname : "?", type, kind ? kind : "?", null_ratio, &r, err) < 0;
    return api_args_check(&args, cname ? cname : "?", kind ? kind : "?", failed, err) < 0 || failed ? -1 : 0;
}

/* core.compile{ name=, columns={ {name=, type=, gen={kind=...} or {fn=function}, null=} } } -> native generator */
static int l_compile(lua_State *L)
{
    host_ctx *h = host_get(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "name");
    const char *name = luaL_checkstring(L, -1);
    lua_getfield(L, 1, "seed");
    uint64_t seed = lua_isnumber(L, -1) ? (uint64_t)lua_tonumber(L, -1) : h->seed;
    lua_pop(L, 1);
    gen_table **ud = lua_newuserdata(L, sizeof *ud);
    *ud = gen_new(name, seed, h->now_s);
    lua_getfield(L, 1, "schema"); /* where the table is, when not in the search path */
    if (lua_isstring(L, -1)) (*ud)->schema = bb_xstrdup(lua_tostring(L, -1));
    lua_pop(L, 1);
    luaL_getmetatable(L, GEN_MT);
    lua_setmetatable(L, -2);
    int self = lua_gettop(L);

    lua_getfield(L, 1, "columns");
    int ncols = (int)lua_objlen(L, -1);
    for (int i = 1; i <= ncols; i++) {
        lua_rawgeti(L, -1, i);
        int col = lua_gettop(L);
        bb_err err;
        if (compile_column(L, *ud, col, &err) < 0) return host_usage_error(L, err.msg);
        lua_settop(L, col - 1);
    }
    lua_settop(L, self);
    gen_finish(*ud);
    return 1;
}

gen_table *api_to_gen(lua_State *L, int idx)
{
    if (lua_istable(L, idx)) { /* a table object: its cached native generator */
        lua_getfield(L, idx, "native");
        if (lua_isfunction(L, -1)) {
            lua_pushvalue(L, idx);
            lua_call(L, 1, 1);
        }
        gen_table **g = luaL_testudata(L, -1, GEN_MT);
        lua_pop(L, 1);
        return g ? *g : NULL;
    }
    gen_table **g = luaL_testudata(L, idx, GEN_MT);
    return g ? *g : NULL;
}

static gen_table *check_gen(lua_State *L, int idx)
{
    gen_table **ud = luaL_testudata(L, idx, GEN_MT);
    if (ud && !*ud)
        luaL_error(L,
                   "this generator was released: Table:native keeps only its last seeds' generators; ask "
                   "t:native(seed) again");
    gen_table *g = api_to_gen(L, idx);
    if (!g) luaL_argerror(L, idx, "a table from bb.table or its native generator expected");
    return g;
}

/* __gc, and release: the C memory freed now (a generator holds ~50 KB the Lua collector does
 * not see, so one dropped from a cache waits long for __gc); using it afterwards is an error */
static int l_gen_release(lua_State *L)
{
    gen_table **g = luaL_checkudata(L, 1, GEN_MT);
    gen_free(*g);
    *g = NULL;
    return 0;
}

static void push_value(lua_State *L, const bb_value *v)
{
    switch (v->kind) {
    case BB_V_NULL: lua_pushnil(L); break;
    case BB_V_INT: lua_pushnumber(L, (lua_Number)v->u.i); break;
    case BB_V_DOUBLE: lua_pushnumber(L, v->u.d); break;
    case BB_V_TEXT: lua_pushlstring(L, v->u.s, v->len); break;
    }
}

/* gen:row(n) -> array of the values of row n (nil for NULL), and the column count */
static int l_gen_row(lua_State *L)
{
    gen_table *g = check_gen(L, 1);
    uint64_t n = (uint64_t)luaL_checknumber(L, 2);
    gen_row *row = gen_row_new(g);
    bb_err err;
    if (gen_fill(g, n, row, &err) < 0) {
        gen_row_free(row);
        return host_fail(L, err.msg);
    }
    lua_createtable(L, g->ncols, 0);
    for (int i = 0; i < g->ncols; i++) {
        push_value(L, &row->v[i]);
        lua_rawseti(L, -2, i + 1);
    }
    gen_row_free(row);
    lua_pushinteger(L, g->ncols);
    return 2;
}

/* gen:encode(first, count, format[, by_values]) -> string of count encoded rows, made the
 * one way streams and `gen` make them (encrows.h); by_values sends every row through
 * bb_values and encode.c instead, the reference the plan's bytes must equal. SQL tuples
 * come one a line. */
static int l_gen_encode(lua_State *L)
{
    gen_table *g = check_gen(L, 1);
    uint64_t first = (uint64_t)luaL_checknumber(L, 2);
    int64_t count = (int64_t)luaL_checknumber(L, 3);
    bb_stream_fmt fmt;
    if (enc_format_parse(luaL_optstring(L, 4, "copy"), &fmt) < 0) return luaL_argerror(L, 4, "unknown format");
    host_ctx *h = host_get(L);
    encrows *e = encrows_new(g, fmt, &(encrows_opts){ .dia = h->dialect, .by_values = lua_toboolean(L, 5) });
    if (!e) return luaL_argerror(L, 4, "binary rows are the engine's: they need its session");
    bb_buf b = { 0 };
    bb_err err;
    int64_t rc = encrows_put(e, first, count, &b, SIZE_MAX, &err);
    encrows_free(e);
    if (rc >= 0) lua_pushlstring(L, b.p ? b.p : "", b.len);
    bb_buf_free(&b);
    return rc < 0 ? luaL_error(L, "encode: %s", err.msg) : 1;
}

static int l_gen_columns(lua_State *L)
{
    gen_table *g = check_gen(L, 1);
    lua_createtable(L, g->ncols, 0);
    for (int i = 0; i < g->ncols; i++) {
        lua_pushstring(L, g->colnames[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* ---- histograms for scripts that time their own phases ---- */

static int l_histogram(lua_State *L)
{
    stats_thread *h = lua_newuserdata(L, sizeof *h + 64);
    h = (stats_thread *)(((uintptr_t)h + 63) & ~(uintptr_t)63);
    memset(h, 0, sizeof *h);
    luaL_getmetatable(L, HIST_MT);
    lua_setmetatable(L, -2);
    return 1;
}

static stats_thread *check_hist(lua_State *L)
{
    void *p = luaL_checkudata(L, 1, HIST_MT);
    return (stats_thread *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

/* h:record(ns) */
static int l_hist_record(lua_State *L)
{
    double v = luaL_checknumber(L, 2);
    stats_record(check_hist(L), v < 0 ? 0 : (uint64_t)v, 0, 0);
    return 0;
}

/* h:quantile(q) -> ns (nil when empty); h:max(); h:count() */
static int l_hist_quantile(lua_State *L)
{
    stats_thread *h = check_hist(L);
    stats_snap *s = lua_newuserdata(L, sizeof *s);
    stats_take(h, 1, s);
    double v = stats_quantile(s, luaL_checknumber(L, 2));
    if (v < 0) lua_pushnil(L);
    else lua_pushnumber(L, v);
    return 1;
}

static int l_hist_max(lua_State *L)
{
    lua_pushnumber(L, (lua_Number)check_hist(L)->lat_max);
    return 1;
}
static int l_hist_count(lua_State *L)
{
    lua_pushnumber(L, (lua_Number)check_hist(L)->events);
    return 1;
}

/* ---- the worker context ---- */

/* core.load(table) — the worker loads its share of rows with the run's method. */
static int l_load(lua_State *L)
{
    host_ctx *h = host_get(L);
    gen_table *g = check_gen(L, 1);
    if (!h->worker) return luaL_error(L, "ctx:load() runs inside run(ctx) on a worker");
    bb_err err;
    if (method_load(&h->worker->ld, g, &err) < 0) {
        if (err.code == BB_EXIT_USAGE) return host_usage_error(L, err.msg);
        /* the run already records the error; unwind the script quietly */
        lua_pushstring(L, err.msg);
        return lua_error(L);
    }
    return 0;
}

/* core.methods(engine) — the methods the engine offers, from the method table, in its
 * order: { {name=, summary=, stream=bool, once=bool, default_batch=N}, ... }; nil for an unknown engine. */
static int l_methods(lua_State *L)
{
    const bb_driver *d = bb_driver_find(luaL_checkstring(L, 1));
    if (!d) return 0;
    lua_newtable(L);
    int k = 0;
    for (const bb_method *m = bb_methods; m->name; m++) {
        if (!method_offered(m, d)) continue;
        lua_createtable(L, 0, 5);
        lua_pushstring(L, m->name);
        lua_setfield(L, -2, "name");
        lua_pushstring(L, m->summary);
        lua_setfield(L, -2, "summary");
        lua_pushboolean(L, m->loop == LOOP_STREAM);
        lua_setfield(L, -2, "stream");
        lua_pushboolean(L, method_once_capable(m));
        lua_setfield(L, -2, "once");
        lua_pushnumber(L, (lua_Number)m->default_batch);
        lua_setfield(L, -2, "default_batch");
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

/* core.engines() -> the names of the engines compiled in, in the registry's order */
static int l_engines(lua_State *L)
{
    lua_newtable(L);
    for (int i = 0; bb_drivers[i]; i++) {
        lua_pushstring(L, bb_drivers[i]->name);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* core.engine(name) -> what the engine's descriptor says of it (drivers/driver.h), the same
 * fields `bulkbench list --engines --format=json` prints (bb_driver_json); nil for an unknown
 * engine. */
static int l_engine(lua_State *L)
{
    const bb_driver *d = bb_driver_find(luaL_checkstring(L, 1));
    if (!d) return 0;
    json_t *o = bb_driver_json(d);
    api_push_json(L, o);
    json_decref(o);
    return 1;
}

static const luaL_Reg core_fns[] = { { "version", l_version },
                                     { "engines", l_engines },
                                     { "engine", l_engine },
                                     { "methods", l_methods },
                                     { "gen_kinds", l_gen_kinds },
                                     { "cli_option", l_cli_option },
                                     { "declare_option", l_declare_option },
                                     { "set_default", l_set_default },
                                     { "usage_error", l_usage_error },
                                     { "nearest", l_nearest },
                                     { "fail", l_fail },
                                     { "run_info", l_run_info },
                                     { "scratch", l_scratch },
                                     { "compile", l_compile },
                                     { "load", l_load },
                                     { "stop", l_stop },
                                     { "connect", api_db_connect },
                                     { "histogram", l_histogram },
                                     { "metric", l_metric },
                                     { "now_ns", l_now_ns },
                                     { "json_decode", api_json_decode },
                                     { "summary", api_summary },
                                     { "spawn", api_spawn },
                                     { "dialect", api_dialect_find },
                                     { NULL, NULL } };

static const luaL_Reg gen_methods[] = { { "row", l_gen_row },
                                        { "encode", l_gen_encode },
                                        { "columns", l_gen_columns },
                                        { "release", l_gen_release },
                                        { NULL, NULL } };

int api_open(lua_State *L)
{
    if (luaL_newmetatable(L, GEN_MT)) {
        lua_pushcfunction(L, l_gen_release);
        lua_setfield(L, -2, "__gc");
        lua_newtable(L);
        luaL_register(L, NULL, gen_methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    api_db_open(L);
    if (luaL_newmetatable(L, HIST_MT)) {
        static const luaL_Reg hist_methods[] = { { "record", l_hist_record },
                                                 { "quantile", l_hist_quantile },
                                                 { "max", l_hist_max },
                                                 { "count", l_hist_count },
                                                 { NULL, NULL } };
        lua_newtable(L);
        luaL_register(L, NULL, hist_methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    lua_newtable(L);
    luaL_register(L, NULL, core_fns);
    api_sets_register(L);
    api_phase_register(L);
    return 1;
}
