/* api_fn.c — a script's function in a column's generator slot: called for each row as
 * f(n, rng), n the row's number as bb.seq() writes it (1, 2, ...) and rng that row's own
 * generator, drawn from the column's salt (--seed and the column) and n, so a table is the
 * same at any thread count. The function runs in the Lua state that compiled the table:
 * each worker's own (gen.h: such a table is bound to its thread). Every call is protected;
 * an error names the column, the row and the script's line, with the script's own frames. */
#include "api.h"

#include <jansson.h>
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "host.h"
#include "../core/gen/dist.h"
#include "../../base/buf.h"
#include "../../base/err.h"

#define RNG_MT "bulkbench.rng"

typedef struct fn_rng {
    uint64_t salt, n, k; /* the row's stream: draw k of row n under salt */
} fn_rng;

typedef struct fn_src {
    lua_State *L;
    int fn, rng, msgh; /* registry references: the function, the rng it is handed, the message handler */
    fn_rng *r;
    bb_sqltype type;
    char col[64];
} fn_src;

/* rng() -> [0, 1); rng(m) -> 1..m; rng(m, n) -> m..n, as math.random takes them. */
static int l_rng_call(lua_State *L)
{
    fn_rng *r = luaL_checkudata(L, 1, RNG_MT);
    uint64_t x = gen_draw(r->salt, r->n, r->k++);
    if (lua_gettop(L) == 1) {
        lua_pushnumber(L, dist_unit(x));
        return 1;
    }
    double lo = 1, hi = luaL_checknumber(L, 2);
    if (lua_gettop(L) >= 3) lo = hi, hi = luaL_checknumber(L, 3);
    if (lo != floor(lo) || hi != floor(hi) || lo > hi || hi - lo >= 9007199254740992.0)
        return luaL_error(L, "rng(%s%s%s): want whole numbers, the first no larger", lua_tostring(L, 2),
                          lua_gettop(L) >= 3 ? ", " : "", lua_gettop(L) >= 3 ? lua_tostring(L, 3) : "");
    lua_pushnumber(L, lo + (double)dist_below(x, (uint64_t)(hi - lo) + 1));
    return 1;
}

/* A Lua table as JSON: an array when its keys are 1..n (n > 0), else an object. */
static json_t *to_json(lua_State *L, int idx, int depth);

static json_t *table_json(lua_State *L, int idx, int depth)
{
    int n = (int)lua_objlen(L, idx), count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        count++;
        lua_pop(L, 1);
    }
    json_t *out = n > 0 && count == n ? json_array() : json_object();
    for (int i = 1; n > 0 && count == n && i <= n; i++) {
        lua_rawgeti(L, idx, i);
        json_t *v = to_json(L, lua_gettop(L), depth + 1);
        lua_pop(L, 1);
        if (!v || json_array_append_new(out, v) < 0) return json_decref(out), NULL;
    }
    if (json_is_array(out)) return out;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pushvalue(L, -2); /* a copy to stringify: lua_next needs the key as it was */
        const char *k = lua_tostring(L, -1);
        json_t *v = k ? to_json(L, lua_gettop(L) - 1, depth + 1) : NULL;
        lua_pop(L, 2);
        if (!v || json_object_set_new(out, k, v) < 0) {
            lua_pop(L, 1);
            return json_decref(out), NULL;
        }
    }
    return out;
}

static json_t *to_json(lua_State *L, int idx, int depth)
{
    switch (lua_type(L, idx)) {
    case LUA_TNIL: return json_null();
    case LUA_TBOOLEAN: return json_boolean(lua_toboolean(L, idx));
    case LUA_TNUMBER: {
        double x = lua_tonumber(L, idx);
        return x == floor(x) && fabs(x) < 9.2e18 ? json_integer((json_int_t)x) : json_real(x);
    }
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        return json_stringn(s, len); /* NULL when it is no UTF-8 */
    }
    case LUA_TTABLE: return depth < 32 ? table_json(L, idx, depth) : NULL;
    default: return NULL;
    }
}

/* The text of a value into text, its offset in v (gen_source's contract). */
static void put_text(bb_value *v, bb_buf *text, const char *s, size_t len)
{
    v->kind = BB_V_TEXT;
    v->clean = 0; /* the encoders look */
    v->len = (uint32_t)len;
    v->u.s = (const char *)(uintptr_t)text->len;
    bb_buf_put(text, s, len);
}

static int numeric_type(bb_sqltype t) { return t == BB_T_INT || t == BB_T_DOUBLE || t == BB_T_NUMERIC || t == BB_T_BOOL; }

/* The function's result (at the top of L) into v. */
static int fn_result(fn_src *s, uint64_t n, bb_value *v, bb_buf *text, bb_err *err)
{
    lua_State *L = s->L;
    int t = lua_type(L, -1);
    if (t == LUA_TNIL) v->kind = BB_V_NULL;
    else if (t == LUA_TNUMBER) {
        double x = lua_tonumber(L, -1);
        if (x == floor(x) && fabs(x) < 9.2e18) v->kind = BB_V_INT, v->u.i = (int64_t)x;
        else v->kind = BB_V_DOUBLE, v->u.d = x;
    } else if (t == LUA_TBOOLEAN && numeric_type(s->type)) v->kind = BB_V_INT, v->u.i = lua_toboolean(L, -1);
    else if (t == LUA_TBOOLEAN) put_text(v, text, lua_toboolean(L, -1) ? "true" : "false", lua_toboolean(L, -1) ? 4 : 5);
    else if (t == LUA_TSTRING) {
        size_t len;
        const char *str = lua_tolstring(L, -1, &len);
        if (len > UINT32_MAX / 2) return bb_errf(err, "column %s, row %llu: the function returned %zu bytes", s->col, (unsigned long long)n + 1, len);
        put_text(v, text, str, len);
    } else if (t == LUA_TTABLE) {
        json_t *j = to_json(L, lua_gettop(L), 0);
        char *js = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS) : NULL;
        json_decref(j);
        if (!js)
            return bb_errf(err, "column %s, row %llu: the function returned a table JSON cannot hold (keys, values "
                           "and text must be strings, numbers, booleans or tables, UTF-8, 32 deep at most)",
                           s->col, (unsigned long long)n + 1);
        put_text(v, text, js, strlen(js));
        free(js);
    } else
        return bb_errf(err, "column %s, row %llu: the function returned a %s; return a number, a string, a boolean, "
                       "a table (written as JSON) or nil (NULL)",
                       s->col, (unsigned long long)n + 1, lua_typename(L, t));
    return 0;
}

static int fn_value(void *ud, uint64_t salt, uint64_t n, bb_value *v, bb_buf *text, bb_err *err)
{
    fn_src *s = ud;
    lua_State *L = s->L;
    int base = lua_gettop(L) + 1;
    *s->r = (fn_rng){ salt, n, 0 };
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->msgh); /* kept: pushing a C function makes a closure each time */
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->fn);
    lua_pushnumber(L, (lua_Number)n + 1); /* what bb.seq() writes in row n */
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->rng);
    int rc = 0;
    if (lua_pcall(L, 2, 1, base) != 0) {
        bb_err e;
        host_error(L, &e);
        rc = bb_errf(err, "column %s, row %llu: %s", s->col, (unsigned long long)n + 1, e.msg);
    } else rc = fn_result(s, n, v, text, err);
    lua_settop(L, base - 1);
    return rc;
}

static void fn_release(void *ud)
{
    fn_src *s = ud;
    luaL_unref(s->L, LUA_REGISTRYINDEX, s->fn);
    luaL_unref(s->L, LUA_REGISTRYINDEX, s->rng);
    luaL_unref(s->L, LUA_REGISTRYINDEX, s->msgh);
    free(s);
}

int api_fn_column(lua_State *L, gen_table *t, int fn, const char *col, bb_sqltype type, double null_ratio,
                  bb_err *err)
{
    fn_src *s = bb_xcalloc(1, sizeof *s);
    s->L = L;
    s->type = type;
    snprintf(s->col, sizeof s->col, "%s", col);
    lua_pushvalue(L, fn);
    s->fn = luaL_ref(L, LUA_REGISTRYINDEX);
    s->r = lua_newuserdata(L, sizeof *s->r);
    if (luaL_newmetatable(L, RNG_MT)) {
        lua_pushcfunction(L, l_rng_call);
        lua_setfield(L, -2, "__call");
    }
    lua_setmetatable(L, -2);
    s->rng = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushcfunction(L, host_traceback);
    s->msgh = luaL_ref(L, LUA_REGISTRYINDEX);
    gen_source src = { fn_value, fn_release, s };
    return gen_add_source(t, col, type, null_ratio, &src, err);
}
