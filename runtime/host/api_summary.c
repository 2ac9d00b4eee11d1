/* api_summary.c — core.summary(values [, seed]): the statistics --repeat reports, for
 * scripts and for the specs that pin them down (runtime/core/run/summary.c). */
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>

#include "api.h"
#include "../core/run/summary.h"
#include "../../base/buf.h"

static void set_num(lua_State *L, const char *name, double v)
{
    if (v < 0) return; /* unknown: left nil */
    lua_pushnumber(L, v);
    lua_setfield(L, -2, name);
}

/* -> { n, median, min, max, mean, stddev, cv, mad, ci95 = { lo, hi }, ci_level (what ci95
 *      holds), z = { per value }, outliers = 0 or 1, outlier = its index, q and q_crit (Dixon's) };
 *      figures that cannot be known (stddev of one value, Q of two) are nil. The seed is taken
 *      and ignored: the interval is exact. */
int api_summary(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    uint64_t seed = (uint64_t)luaL_optnumber(L, 2, 1);
    int n = (int)lua_objlen(L, 1);
    double *x = bb_xmalloc(sizeof *x * (size_t)(n ? n : 1)), *z = bb_xmalloc(sizeof *z * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, 1, i + 1);
        x[i] = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : -1;
        lua_pop(L, 1);
        if (!(x[i] >= 0)) {
            free(x);
            free(z);
            return luaL_error(L, "summary: value %d is not a number >= 0 (rates, times, counts)", i + 1);
        }
    }
    bb_summary s;
    summary_of(x, n, seed, &s);
    summary_zscores(x, n, z);
    double q, crit;
    int at = summary_dixon(x, n, &q, &crit);
    lua_createtable(L, 0, 16);
    lua_pushinteger(L, s.n);
    lua_setfield(L, -2, "n");
    set_num(L, "median", s.median);
    set_num(L, "min", s.min);
    set_num(L, "max", s.max);
    set_num(L, "mean", s.mean);
    set_num(L, "stddev", s.stddev);
    set_num(L, "cv", s.cv);
    set_num(L, "mad", s.mad);
    if (s.n) {
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, s.lo);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, s.hi);
        lua_rawseti(L, -2, 2);
        lua_setfield(L, -2, "ci95");
        set_num(L, "ci_level", s.level);
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, z[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "z");
    lua_pushinteger(L, at >= 0);
    lua_setfield(L, -2, "outliers");
    if (at >= 0) {
        lua_pushinteger(L, at + 1);
        lua_setfield(L, -2, "outlier");
    }
    set_num(L, "q", q);
    set_num(L, "q_crit", crit);
    free(x);
    free(z);
    return 1;
}
