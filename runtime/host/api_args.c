/* api_args.c — a generator's Lua table read for gen_add, and what it holds that nobody read
 * (see api_args.h). */
#include "api_args.h"
#include "../core/opts.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* Pushes the value at key, else at pos (0: none); 0 and nothing pushed when neither holds one. */
static int push_field(lua_State *L, int idx, const char *key, int pos)
{
    if (key) {
        lua_getfield(L, idx, key);
        if (!lua_isnil(L, -1)) return 1;
        lua_pop(L, 1);
    }
    if (pos > 0) {
        lua_rawgeti(L, idx, pos);
        if (!lua_isnil(L, -1)) return 1;
        lua_pop(L, 1);
    }
    return 0;
}

static void note(api_args *r, const char *key, int pos)
{
    if (pos > r->max_pos) r->max_pos = pos;
    if (!key) return;
    for (int i = 0; i < r->nasked; i++)
        if (strcmp(r->asked[i], key) == 0) return;
    if (r->nasked < (int)(sizeof r->asked / sizeof r->asked[0])) r->asked[r->nasked++] = key;
}

static int lr_has(void *ud, const char *key, int pos)
{
    api_args *r = ud;
    note(r, key, pos);
    if (!push_field(r->L, r->idx, key, pos)) return 0;
    lua_pop(r->L, 1);
    return 1;
}

static double lr_num(void *ud, const char *key, int pos, double dflt)
{
    api_args *r = ud;
    note(r, key, pos);
    if (!push_field(r->L, r->idx, key, pos)) return dflt;
    double v =
        lua_isnumber(r->L, -1) ? lua_tonumber(r->L, -1) : (lua_isboolean(r->L, -1) ? lua_toboolean(r->L, -1) : dflt);
    lua_pop(r->L, 1);
    return v;
}

static const char *lr_str(void *ud, const char *key, int pos, size_t *len)
{
    api_args *r = ud;
    note(r, key, pos);
    if (!push_field(r->L, r->idx, key, pos)) return NULL;
    const char *s = lua_type(r->L, -1) == LUA_TSTRING ? lua_tolstring(r->L, -1, len) : NULL;
    lua_pop(r->L, 1); /* the spec table keeps the string alive */
    return s;
}

static int lr_list(void *ud, const char *key, int pos, void (*each)(void *, const char *, size_t, double), void *acc)
{
    api_args *r = ud;
    lua_State *L = r->L;
    note(r, key, pos);
    if (!push_field(L, r->idx, key, pos)) {
        if (pos != 0) return -1;
        lua_pushvalue(L, r->idx); /* the spec itself is the list */
        r->max_pos = INT_MAX;
    }
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return -1;
    }
    int n = (int)lua_objlen(L, -1);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        double w = 1;
        if (lua_istable(L, -1)) {
            lua_rawgeti(L, -1, 2);
            w = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : 1;
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 1);
            lua_remove(L, -2);
        }
        size_t len;
        const char *s = lua_isboolean(L, -1) ? (lua_toboolean(L, -1) ? "true" : "false") : lua_tolstring(L, -1, &len);
        if (lua_isboolean(L, -1)) len = strlen(s);
        if (s) each(acc, s, len, w);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

static struct vset *lr_set(void *ud, const char *key)
{
    api_args *r = ud;
    note(r, key, 1);
    if (!push_field(r->L, r->idx, key, 1)) return NULL;
    const char *name = lua_tostring(r->L, -1);
    struct vset *s = r->sets(r->L, name);
    lua_pop(r->L, 1);
    return s;
}

static struct vset *lr_set_named(void *ud, const char *name)
{
    api_args *r = ud;
    return r->sets(r->L, name);
}

static int arg_type(lua_State *L, int idx)
{
    switch (lua_type(L, idx)) {
    case LUA_TNONE:
    case LUA_TNIL: return GEN_ARG_NONE;
    case LUA_TNUMBER: return GEN_ARG_NUM;
    case LUA_TSTRING: return GEN_ARG_STR;
    case LUA_TBOOLEAN: return GEN_ARG_BOOL;
    default: return GEN_ARG_OTHER;
    }
}

static int lr_type(void *ud, const char *key, int pos, int elem)
{
    api_args *r = ud;
    lua_State *L = r->L;
    if (!push_field(L, r->idx, key, pos)) {
        if (elem <= 0 || pos != 0) return GEN_ARG_NONE;
        lua_pushvalue(L, r->idx); /* the spec itself is the list, as lr_list reads it */
    }
    if (elem > 0) {
        if (!lua_istable(L, -1)) {
            lua_pop(L, 1);
            return GEN_ARG_NONE;
        }
        lua_rawgeti(L, -1, elem);
        if (lua_istable(L, -1)) { /* {value, weight} */
            lua_rawgeti(L, -1, 1);
            lua_remove(L, -2);
        }
        lua_remove(L, -2);
    }
    int t = arg_type(L, -1);
    lua_pop(L, 1);
    return t;
}

static int lr_gen_at(void *ud, const char *key, int elem, const char *col,
                     int (*fn)(void *acc, const gen_reader *r, const char *kind, bb_err *err), void *acc, bb_err *err)
{
    api_args *r = ud;
    lua_State *L = r->L;
    note(r, key, 0);
    if (!push_field(L, r->idx, key, 0)) return bb_usagef(err, "column %s: no generators at '%s'", col, key);
    lua_rawgeti(L, -1, elem);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 2);
        return bb_usagef(err, "column %s: generator %d of '%s' is missing", col, elem, key);
    }
    lua_getfield(L, -1, "kind");
    const char *kind = lua_isstring(L, -1) ? lua_tostring(L, -1) : "?"; /* the table keeps it */
    lua_pop(L, 1);
    api_args sub;
    gen_reader sr;
    api_args_reader(&sub, L, lua_gettop(L), r->sets, &sr);
    int failed = fn(acc, &sr, kind, err) < 0;
    int rc = api_args_check(&sub, col, kind, failed, err) < 0 || failed ? -1 : 0;
    lua_pop(L, 2);
    return rc;
}

void api_args_reader(api_args *a, lua_State *L, int idx, struct vset *(*sets)(lua_State *, const char *), gen_reader *r)
{
    memset(a, 0, sizeof *a);
    a->L = L;
    a->idx = idx;
    a->sets = sets;
    *r = (gen_reader){ a, lr_has, lr_num, lr_str, lr_list, lr_set, lr_set_named, lr_type, lr_gen_at };
}

int api_args_check(const api_args *a, const char *col, const char *kind, int failed, bb_err *err)
{
    lua_State *L = a->L;
    int rc = 0;
    lua_pushnil(L);
    while (rc == 0 && lua_next(L, a->idx) != 0) {
        lua_pop(L, 1); /* the value; the key stays for lua_next */
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *key = lua_tostring(L, -1);
            int known = strcmp(key, "kind") == 0; /* set by bb.KIND itself */
            for (int i = 0; !known && i < a->nasked; i++) known = strcmp(a->asked[i], key) == 0;
            if (known) continue;
            const char *near = opts_nearest(key, a->asked, a->nasked);
            if (near)
                rc = bb_usagef(err, "column %s: %s has no argument '%s'; did you mean '%s'?", col, kind, key, near);
            else if (!failed) {
                char names[256] = "";
                for (int i = 0; i < a->nasked; i++)
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", a->asked[i]);
                rc = bb_usagef(err, "column %s: %s has no argument '%s' (it reads %s)", col, kind, key,
                               a->nasked ? names : "none by name");
            }
        } else if (!failed && lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) > a->max_pos) {
            int n = (int)lua_objlen(L, a->idx);
            rc = a->max_pos ? bb_usagef(err, "column %s: %s takes at most %d argument%s in order, not %d", col, kind,
                                        a->max_pos, a->max_pos == 1 ? "" : "s", n)
                            : bb_usagef(err, "column %s: %s takes its arguments by name only, not in order", col, kind);
        }
    }
    if (rc) lua_pop(L, 1); /* the key lua_next left */
    return rc;
}
