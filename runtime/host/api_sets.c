/* api_sets.c — value sets for Lua (runtime/core/gen/vset.h): db:read_set streams a query's rows
 * into a set without making Lua tables of them; core.value_set builds one from Lua rows
 * (tests, tools); the generators' reader finds a set by name in the state's registry,
 * which is the run's while a run is on. */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "api.h"
#include "host.h"
#include "../core/gen/vset.h"
#include "../../base/err.h"

static vset_reg *registry(lua_State *L)
{
    vset_reg *r = host_get(L)->values;
    if (!r) luaL_error(L, "value sets exist only during a run (or in `bulkbench lua`)");
    return r;
}

/* opts.bounds = {b0, b1, ...} (integers) and opts.bound_weights = {w1, ...} (one a bucket):
 * how rest spreads over the keys. Fills h (its arrays to be freed) when the bounds are all
 * integers, else leaves h->n at 0. */
static void hist_of(lua_State *L, int opts, vset_hist *h, int64_t **bounds, double **w)
{
    *bounds = NULL;
    *w = NULL;
    h->n = 0;
    lua_getfield(L, opts, "bounds");
    int n = lua_istable(L, -1) ? (int)lua_objlen(L, -1) : 0;
    if (n >= 2) {
        *bounds = bb_xcalloc((size_t)n, sizeof **bounds);
        int ok = *bounds != NULL;
        for (int i = 0; ok && i < n; i++) {
            lua_rawgeti(L, -1, i + 1);
            const char *v = lua_tostring(L, -1);
            char *end = NULL;
            (*bounds)[i] = v ? strtoll(v, &end, 10) : 0;
            ok = v && end != v && *end == 0 && (i == 0 || (*bounds)[i] >= (*bounds)[i - 1]);
            lua_pop(L, 1);
        }
        if (ok) h->n = n;
    }
    lua_pop(L, 1);
    lua_getfield(L, opts, "bound_weights");
    if (h->n && lua_istable(L, -1) && (int)lua_objlen(L, -1) >= n - 1) {
        *w = bb_xcalloc((size_t)n, sizeof **w);
        for (int i = 0; *w && i < n - 1; i++) {
            lua_rawgeti(L, -1, i + 1);
            (*w)[i] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    h->bounds = *bounds;
    h->w = *w;
}

/* opts.weights = {{value, weight}, ...}, opts.rest = mass spread over the other rows (by
 * opts.bounds when given; over only opts.rest_rows of them when given): weighed before the set
 * is published, since readers take it as it is. */
static void weigh(lua_State *L, int opts, vset *s)
{
    if (!lua_istable(L, opts)) return;
    vset_hist h;
    int64_t *bounds;
    double *bw;
    hist_of(L, opts, &h, &bounds, &bw);
    lua_getfield(L, opts, "rest_rows");
    vset_keep_rest(s, lua_isnumber(L, -1) ? (int64_t)lua_tonumber(L, -1) : 0);
    lua_pop(L, 1);
    lua_getfield(L, opts, "weights");
    lua_getfield(L, opts, "rest");
    double rest = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : 0;
    lua_pop(L, 1);
    if (lua_istable(L, -1)) {
        int n = (int)lua_objlen(L, -1);
        const char **vals = bb_xcalloc((size_t)n + 1, sizeof *vals);
        size_t *lens = bb_xcalloc((size_t)n + 1, sizeof *lens);
        double *w = bb_xcalloc((size_t)n + 1, sizeof *w);
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, -1, i + 1);
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            vals[i] = lua_tolstring(L, -2, &lens[i]); /* the weights table keeps it alive */
            w[i] = lua_tonumber(L, -1);
            lua_pop(L, 3);
        }
        vset_weigh(s, vals, lens, w, n, rest, &h);
        free(vals);
        free(lens);
        free(w);
    }
    lua_pop(L, 1);
    free(bounds);
    free(bw);
}

typedef struct read_acc {
    vset *s;
    int64_t seen;
} read_acc;

static int read_row(void *ud, int ncols, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names;
    read_acc *a = ud;
    if (!a->s) a->s = vset_new(ncols);
    a->seen++;
    vset_add(a->s, vals, lens);
    return 0;
}

/* db:read_set(name, sql [, {weights=, rest=}]) -> rows in the set (rows with a NULL are left out) */
int api_sets_read(lua_State *L, const bb_driver *drv, bb_conn *conn)
{
    const char *name = luaL_checkstring(L, 2), *sql = luaL_checkstring(L, 3);
    vset_reg *r = registry(L);
    read_acc a = { NULL, 0 };
    bb_err err;
    if (drv->query(conn, sql, 0, NULL, read_row, &a, &err) < 0) {
        vset_unref(a.s);
        luaL_where(L, 1);
        lua_pushstring(L, err.msg);
        lua_concat(L, 2);
        return lua_error(L);
    }
    if (!a.s) a.s = vset_new(1);
    weigh(L, 4, a.s);
    lua_pushnumber(L, (lua_Number)vset_rows(a.s));
    vset_reg_put(r, name, a.s);
    return 1;
}

/* core.value_set(name, {{v1, v2}, ...} [, {weights=, rest=}]) -> rows in the set */
static int l_value_set(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    vset_reg *r = registry(L);
    int n = (int)lua_objlen(L, 2), ncols = 1;
    if (n > 0) {
        lua_rawgeti(L, 2, 1);
        ncols = lua_istable(L, -1) ? (int)lua_objlen(L, -1) : 1;
        lua_pop(L, 1);
    }
    if (ncols < 1 || ncols > 16) return luaL_error(L, "value_set: rows of 1 to 16 values, not %d", ncols);
    vset *s = vset_new(ncols);
    for (int i = 1; i <= n; i++) {
        const char *vals[16] = { 0 };
        size_t lens[16] = { 0 };
        lua_rawgeti(L, 2, i);
        int row = lua_gettop(L);
        for (int c = 0; c < ncols; c++) {
            if (lua_istable(L, row)) lua_rawgeti(L, row, c + 1);
            else lua_pushvalue(L, row);
            if (!lua_isnil(L, -1)) vals[c] = lua_tolstring(L, -1, &lens[c]);
        }
        vset_add(s, vals, lens);
        lua_settop(L, row - 1);
    }
    weigh(L, 3, s);
    lua_pushnumber(L, (lua_Number)vset_rows(s));
    vset_reg_put(r, name, s);
    return 1;
}

/* core.value_set_range(name, first, step, count [, {weights=, rest=, bounds=}]) -> rows: the
 * integers first, first + step, ... (count of them), as the keys a sequence or an identity
 * will give the rows a run has not loaded yet (a table's references to itself) */
static int l_value_set_range(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    int64_t first = (int64_t)luaL_checknumber(L, 2), step = (int64_t)luaL_checknumber(L, 3);
    double count = luaL_checknumber(L, 4);
    if (!(count >= 0 && count <= 1e9)) return luaL_error(L, "value_set_range: count %f is not in [0, 1e9]", count);
    vset_reg *r = registry(L);
    vset *s = vset_new(1);
    char buf[32];
    for (int64_t i = 0; i < (int64_t)count; i++) {
        const char *vals[1] = { buf };
        size_t lens[1] = { (size_t)snprintf(buf, sizeof buf, "%lld", (long long)(first + i * step)) };
        vset_add(s, vals, lens);
    }
    weigh(L, 5, s);
    lua_pushnumber(L, (lua_Number)vset_rows(s));
    vset_reg_put(r, name, s);
    return 1;
}

/* core.value_set_info(name) -> rows, columns; nil when there is no such set */
static int l_value_set_info(lua_State *L)
{
    vset *s = vset_reg_get(registry(L), luaL_checkstring(L, 1));
    if (!s) return 0;
    lua_pushnumber(L, (lua_Number)vset_rows(s));
    lua_pushinteger(L, vset_cols(s));
    vset_unref(s);
    return 2;
}

/* core.value_set_get(name, row, col) -> the value (rows and columns from 1), or nil */
static int l_value_set_get(lua_State *L)
{
    vset *s = vset_reg_get(registry(L), luaL_checkstring(L, 1));
    int64_t r = (int64_t)luaL_checknumber(L, 2) - 1;
    int c = (int)luaL_checkinteger(L, 3) - 1;
    int found = s && r >= 0 && r < vset_rows(s) && c >= 0 && c < vset_cols(s);
    if (found) {
        uint32_t len;
        const char *t = vset_text(s, r, c, &len);
        lua_pushlstring(L, t, len);
    }
    vset_unref(s);
    return found;
}

struct vset *api_sets_lookup(lua_State *L, const char *name)
{
    vset_reg *r = host_get(L)->values;
    return r && name ? vset_reg_get(r, name) : NULL;
}

void api_sets_register(lua_State *L)
{
    static const luaL_Reg fns[] = { { "value_set", l_value_set },
                                    { "value_set_range", l_value_set_range },
                                    { "value_set_info", l_value_set_info },
                                    { "value_set_get", l_value_set_get },
                                    { NULL, NULL } };
    luaL_register(L, NULL, fns);
}
