/* api_db.c — db and statement objects for Lua: exec, query, prepare/execute,
 * transactions, settings, and connections scripts open themselves. */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "host.h"
#include "../core/run/verify.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../../drivers/db.h"

#define DB_MT "bulkbench.db"
#define STMT_MT "bulkbench.stmt"

typedef struct api_stmt api_stmt;

typedef struct api_db {
    const bb_driver *drv;
    bb_conn *conn;
    const char *where;
    bb_target *target;       /* where new sessions of the same server come from (db:load_file) */
    bb_target *owned_target; /* set when Lua opened it (core.connect): closed by __gc */
    api_stmt *stmts;         /* its open statements: finalized before its session goes */
} api_db;

struct api_stmt {
    const bb_driver *drv;
    bb_stmt *st;
    int nparams;
    bb_value *vals;
    api_db *db; /* kept alive by the statement's environment while it is linked */
    api_stmt *next, *prev;
};

static void stmt_unlink(api_stmt *s)
{
    if (!s->db) return;
    if (s->prev) s->prev->next = s->next;
    else s->db->stmts = s->next;
    if (s->next) s->next->prev = s->prev;
    s->db = NULL;
    s->next = s->prev = NULL;
}

/* A statement belongs to the session it was prepared on: it is finalized while that
 * session still exists, and a script that kept it gets "finalized" instead of a crash. */
static void stmt_finalize(api_stmt *s)
{
    if (s->st) s->drv->finalize(s->st);
    s->st = NULL;
    stmt_unlink(s);
}

static void finalize_all(api_db *d)
{
    while (d->stmts) stmt_finalize(d->stmts);
}

/* ---- db objects ---- */

void *api_push_db(lua_State *L, const bb_driver *drv, bb_conn *conn, bb_target *target)
{
    api_db *d = lua_newuserdata(L, sizeof *d);
    d->drv = drv;
    d->conn = conn;
    d->target = target;
    d->where = drv->target_where(target);
    d->owned_target = NULL;
    d->stmts = NULL;
    luaL_getmetatable(L, DB_MT);
    lua_setmetatable(L, -2);
    return d;
}

void api_db_rebind(void *handle, bb_conn *conn)
{
    api_db *d = handle;
    if (!d) return;
    if (d->conn != conn) finalize_all(d);
    d->conn = conn;
}

static api_db *check_db(lua_State *L)
{
    api_db *d = luaL_checkudata(L, 1, DB_MT);
    if (!d->conn) luaL_error(L, "this db object is closed (its run has ended)");
    return d;
}

/* db errors are script-visible failures: raised with the position of the Lua caller */
static int db_raise(lua_State *L, const bb_err *err)
{
    luaL_where(L, 1);
    lua_pushstring(L, err->msg);
    lua_concat(L, 2);
    return lua_error(L);
}

static void count_written(lua_State *L, int64_t rows, size_t bytes)
{
    host_ctx *h = host_get(L);
    if (h->worker && rows > 0) {
        h->worker->ev_rows += rows;
        h->worker->ev_bytes += (int64_t)bytes;
    }
}

static int l_db_exec(lua_State *L)
{
    api_db *d = check_db(L);
    size_t len;
    const char *sql = luaL_checklstring(L, 2, &len);
    int64_t affected = 0;
    bb_err err;
    if (d->drv->exec(d->conn, sql, &affected, &err) < 0) return db_raise(L, &err);
    count_written(L, affected, len);
    lua_pushnumber(L, (lua_Number)affected);
    return 1;
}

typedef struct {
    lua_State *L;
    int n;
    int names_done;
} qacc;

static int query_row(void *ud, int ncols, const char *const *names, const char *const *vals, const size_t *lens)
{
    qacc *a = ud;
    lua_State *L = a->L;
    if (!a->names_done) { /* names table sits below the rows table */
        for (int i = 0; i < ncols; i++) {
            lua_pushstring(L, names[i]);
            lua_rawseti(L, -3, i + 1);
        }
        a->names_done = 1;
    }
    lua_createtable(L, ncols, 0);
    for (int i = 0; i < ncols; i++) {
        if (vals[i]) lua_pushlstring(L, vals[i], lens[i]);
        else lua_pushnil(L);
        lua_rawseti(L, -2, i + 1);
    }
    lua_rawseti(L, -2, ++a->n);
    return 0;
}

/* db:query(sql, ...) -> rows (array of arrays of strings/nil), column names */
static int l_db_query(lua_State *L)
{
    api_db *d = check_db(L);
    const char *sql = luaL_checkstring(L, 2);
    int np = lua_gettop(L) - 2;
    const char *params[np > 0 ? np : 1];
    for (int i = 0; i < np; i++) params[i] = lua_isnil(L, 3 + i) ? NULL : luaL_checkstring(L, 3 + i);
    lua_newtable(L); /* names */
    lua_newtable(L); /* rows */
    qacc a = { L, 0, 0 };
    bb_err err;
    if (d->drv->query(d->conn, sql, np, params, query_row, &a, &err) < 0) return db_raise(L, &err);
    lua_insert(L, -2);
    return 2;
}

static int l_db_prepare(lua_State *L)
{
    api_db *d = check_db(L);
    const char *sql = luaL_checkstring(L, 2);
    int n = (int)luaL_optinteger(L, 3, -1);
    if (n < 0) { /* count placeholders: ? or $N */
        n = 0;
        for (const char *p = sql; *p; p++) {
            if (*p == '?') n++;
            else if (*p == '$' && p[1] >= '1' && p[1] <= '9') {
                int k = atoi(p + 1);
                if (k > n) n = k;
            }
        }
    }
    bb_sqltype types[n > 0 ? n : 1];
    for (int i = 0; i < n; i++) types[i] = BB_T_TEXT;
    api_stmt *s = lua_newuserdata(L, sizeof *s);
    memset(s, 0, sizeof *s);
    luaL_getmetatable(L, STMT_MT);
    lua_setmetatable(L, -2);
    bb_err err;
    if (d->drv->prepare(d->conn, sql, n, types, &s->st, &err) < 0) return db_raise(L, &err);
    s->drv = d->drv;
    s->nparams = n;
    s->vals = bb_xcalloc((size_t)n + 1, sizeof *s->vals);
    s->db = d;
    s->next = d->stmts;
    if (d->stmts) d->stmts->prev = s;
    d->stmts = s;
    lua_createtable(L, 1, 0); /* the statement's environment holds its db */
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_setfenv(L, -2);
    return 1;
}

/* One Lua value as parameter i (from 1); returns the bytes it carries. A string stays
 * Lua's, held by the caller's stack or table while the statement runs. */
static size_t stmt_value(lua_State *L, int idx, int i, int in_table, bb_value *v)
{
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TNONE: v->kind = BB_V_NULL; return 0;
    case LUA_TBOOLEAN:
        v->kind = BB_V_INT;
        v->u.i = lua_toboolean(L, idx);
        return 1;
    case LUA_TNUMBER: {
        double x = lua_tonumber(L, idx);
        if (x == floor(x) && fabs(x) < 9.007199254740992e15) {
            v->kind = BB_V_INT;
            v->u.i = (int64_t)x;
        } else {
            v->kind = BB_V_DOUBLE;
            v->u.d = x;
        }
        return 8;
    }
    default: {
        size_t len;
        if (in_table && lua_type(L, idx) != LUA_TSTRING)
            luaL_error(L, "parameter %d: string, number, boolean or nil expected, got %s", i, luaL_typename(L, idx));
        v->u.s = luaL_checklstring(L, idx, &len);
        v->kind = BB_V_TEXT;
        v->len = (uint32_t)len;
        return len;
    }
    }
}

/* stmt:execute(v1, v2, ...) or stmt:execute{v1, v2, ...}: the array form passes more values
 * than one Lua call can (LuaJIT stops near 8,000). */
static int l_stmt_execute(lua_State *L)
{
    api_stmt *s = luaL_checkudata(L, 1, STMT_MT);
    if (!s->st) return luaL_error(L, "statement is finalized");
    int in_table = lua_gettop(L) == 2 && lua_istable(L, 2);
    size_t bytes = 0;
    for (int i = 0; i < s->nparams; i++) {
        if (!in_table) {
            bytes += stmt_value(L, 2 + i, i + 1, 0, &s->vals[i]);
            continue;
        }
        lua_rawgeti(L, 2, i + 1);
        bytes += stmt_value(L, -1, i + 1, 1, &s->vals[i]);
        lua_pop(L, 1);
    }
    int64_t affected = 0;
    bb_err err;
    if (s->drv->execute(s->st, s->vals, &affected, &err) < 0) return db_raise(L, &err);
    count_written(L, affected, bytes);
    lua_pushnumber(L, (lua_Number)affected);
    return 1;
}

static int l_stmt_gc(lua_State *L)
{
    api_stmt *s = luaL_checkudata(L, 1, STMT_MT);
    stmt_finalize(s);
    free(s->vals);
    s->vals = NULL;
    return 0;
}

#define DB_SIMPLE(fn, op)                                                                                              \
    static int fn(lua_State *L)                                                                                        \
    {                                                                                                                  \
        api_db *d = check_db(L);                                                                                       \
        bb_err err;                                                                                                    \
        if (d->drv->op(d->conn, &err) < 0) return db_raise(L, &err);                                                   \
        return 0;                                                                                                      \
    }
DB_SIMPLE(l_db_begin, begin)
DB_SIMPLE(l_db_commit, commit)
DB_SIMPLE(l_db_rollback, rollback)

static int l_db_set(lua_State *L)
{
    api_db *d = check_db(L);
    bb_err err;
    if (d->drv->set_session(d->conn, luaL_checkstring(L, 2), luaL_checkstring(L, 3), &err) < 0)
        return db_raise(L, &err);
    return 0;
}

static int l_db_info(lua_State *L)
{
    api_db *d = check_db(L);
    bb_server_info si = { .log_pos = -1, .redo_pos = -1 };
    bb_err err;
    if (d->drv->server_info(d->conn, &si, &err) < 0) return db_raise(L, &err);
    lua_newtable(L);
    lua_pushstring(L, si.version);
    lua_setfield(L, -2, "version");
    lua_pushstring(L, si.settings);
    lua_setfield(L, -2, "settings");
    if (si.log_pos >= 0) {
        lua_pushnumber(L, (lua_Number)si.log_pos);
        lua_setfield(L, -2, "log_pos");
    }
    return 1;
}

static int l_db_index(lua_State *L)
{
    api_db *d = luaL_checkudata(L, 1, DB_MT);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "engine") == 0) {
        lua_pushstring(L, d->drv->name);
        return 1;
    }
    if (strcmp(k, "dialect") == 0) {
        api_push_dialect(L, bb_target_dialect(d->drv, d->target));
        return 1;
    }
    if (strcmp(k, "where") == 0) {
        lua_pushstring(L, d->where ? d->where : "");
        return 1;
    }
    if (strcmp(k, "system") == 0) { /* "citus", "greenplum"...: nil for the engine's stock server */
        const char *sys = db_system(d->drv, d->conn);
        if (sys && *sys) lua_pushstring(L, sys);
        else lua_pushnil(L);
        return 1;
    }
    luaL_getmetatable(L, DB_MT);
    lua_getfield(L, -1, "methods");
    lua_getfield(L, -1, k);
    return 1;
}

/* core.connect(engine, dsn) -> a db the caller owns (closed when collected or by db:close()) */
int api_db_connect(lua_State *L)
{
    const char *engine = luaL_checkstring(L, 1), *dsn = luaL_optstring(L, 2, NULL);
    bb_err err;
    const bb_driver *drv = opts_engine(engine, &err);
    if (!drv) return luaL_error(L, "%s", err.msg);
    bb_target *t;
    bb_conn *c;
    if (drv->target_open(dsn, &t, &err) < 0) return db_raise(L, &err);
    if (drv->connect(t, &c, &err) < 0) {
        drv->target_close(t);
        return db_raise(L, &err);
    }
    api_db *d = api_push_db(L, drv, c, t);
    d->owned_target = t;
    return 1;
}

static int l_db_close(lua_State *L)
{
    api_db *d = luaL_checkudata(L, 1, DB_MT);
    if (!d->owned_target) return 0; /* hooks' dbs belong to the runner */
    finalize_all(d);
    if (d->conn) d->drv->disconnect(d->conn);
    d->drv->target_close(d->owned_target);
    d->conn = NULL;
    d->owned_target = NULL;
    return 0;
}

/* db:load_file{path=..., table=..., ...}: a file load beside generated ones (api_load.c) */
static int l_db_load_file(lua_State *L)
{
    api_db *d = check_db(L);
    return api_load_file(L, d->drv, d->target);
}

/* db:catalog(what, schema, table) -> rows, names: the driver's catalog functions (ODBC);
 * nil when the engine has none (its catalog is read with SQL) */
static int l_db_catalog(lua_State *L)
{
    api_db *d = check_db(L);
    const char *what = luaL_checkstring(L, 2), *schema = luaL_optstring(L, 3, NULL), *table = luaL_checkstring(L, 4);
    if (!d->drv->catalog) return 0;
    lua_newtable(L); /* names */
    lua_newtable(L); /* rows */
    qacc a = { L, 0, 0 };
    bb_err err;
    if (d->drv->catalog(d->conn, what, schema, table, query_row, &a, &err) < 0) return db_raise(L, &err);
    lua_insert(L, -2);
    return 2;
}

/* db:count(name [, schema]) -> its rows, or nil when the engine answers no count (verify.h: the
 * meaning of "verified" that load shares) */
static int l_db_count(lua_State *L)
{
    api_db *d = check_db(L);
    const bb_dialect *dia = bb_target_dialect(d->drv, d->target);
    char *q = dialect_quoted(dia, luaL_checkstring(L, 2));
    if (lua_isstring(L, 3)) { /* db:count(table, schema): schema.table */
        char *s = dialect_quoted(dia, lua_tostring(L, 3)), *both = bb_xmalloc(strlen(s) + strlen(q) + 2);
        sprintf(both, "%s.%s", s, q);
        free(s);
        free(q);
        q = both;
    }
    int64_t n;
    bb_err err;
    int rc = verify_count(d->drv, d->conn, q, &n, &err);
    free(q);
    if (rc < 0) return db_raise(L, &err);
    if (n == VERIFY_UNKNOWN) lua_pushnil(L);
    else lua_pushnumber(L, (lua_Number)n);
    return 1;
}

/* db:read_set(name, sql [, opts]): the query's rows into the run's value set (api_sets.c) */
static int l_db_read_set(lua_State *L)
{
    api_db *d = check_db(L);
    return api_sets_read(L, d->drv, d->conn);
}

static const luaL_Reg db_methods[] = { { "exec", l_db_exec },       { "read_set", l_db_read_set },
                                       { "catalog", l_db_catalog }, { "query", l_db_query },
                                       { "prepare", l_db_prepare }, { "begin", l_db_begin },
                                       { "commit", l_db_commit },   { "rollback", l_db_rollback },
                                       { "set", l_db_set },         { "info", l_db_info },
                                       { "close", l_db_close },     { "load_file", l_db_load_file },
                                       { "count", l_db_count },     { NULL, NULL } };

void api_db_open(lua_State *L)
{
    api_dialect_open(L);
    if (luaL_newmetatable(L, DB_MT)) {
        lua_newtable(L);
        luaL_register(L, NULL, db_methods);
        lua_setfield(L, -2, "methods");
        lua_pushcfunction(L, l_db_index);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_db_close);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    if (luaL_newmetatable(L, STMT_MT)) {
        lua_pushcfunction(L, l_stmt_gc);
        lua_setfield(L, -2, "__gc");
        lua_newtable(L);
        lua_pushcfunction(L, l_stmt_execute);
        lua_setfield(L, -2, "execute");
        lua_pushcfunction(L, l_stmt_gc);
        lua_setfield(L, -2, "close");
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
}
