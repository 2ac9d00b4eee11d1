/* lib.c — the commands' way into scripts and the Lua library (see lib.h). */
#include "lib.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../base/buf.h"
#include "api.h"
#include "state.h"
#include "../core/gen/vset.h"
#include "../../base/err.h"

int lib_has_work(lua_State *L)
{
    int has = host_push_hook(L, "event") | host_push_hook(L, "run");
    lua_pop(L, 2);
    return has;
}

int lib_has_run(lua_State *L)
{
    int has = host_push_hook(L, "run");
    lua_pop(L, 1);
    return has;
}

/* Whether the script loads a table through bb.load (the library then writes its run(), whose
 * rows go by a method); a run() of the script's own may never load by one. */
int lib_loads_table(lua_State *L)
{
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "loaded");
    lua_getfield(L, -1, "bulkbench");
    int has = 0;
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "load_table");
        has = !lua_isnil(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 3);
    return has;
}

/* Calls module.fn(...) with the nargs values on the stack below; leaves its nres results. */
static int call_module(lua_State *L, const char *module, const char *fn, int nargs, int nres, bb_err *err)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    if (host_pcall(L, 1, 1, err) < 0) return -1;
    lua_getfield(L, -1, fn);
    lua_remove(L, -2);
    lua_insert(L, -1 - nargs);
    return host_pcall(L, nargs, nres, err);
}

/* The string on top of the stack as a fresh copy, popped. */
static char *pop_string(lua_State *L)
{
    const char *s = lua_tostring(L, -1);
    char *out = bb_xstrdup(s ? s : "");
    lua_pop(L, 1);
    return out;
}

char *lib_help(lua_State *L, bb_err *err)
{
    if (call_module(L, "bulkbench", "help_text", 0, 1, err) < 0) return NULL;
    return pop_string(L);
}

gen_table *lib_gen_table(lua_State *L, const char *script, const char *name, bb_err *err)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    if (host_pcall(L, 1, 1, err) < 0) return NULL;
    lua_getfield(L, -1, "tables");
    lua_getfield(L, -1, name);
    gen_table *t = NULL;
    if (!lua_istable(L, -1)) {
        lua_pop(L, 3);
        const char *main = NULL;
        char **names = lib_table_names(L, &main, err);
        int n = 0;
        while (names && names[n]) n++;
        const char *near = names ? opts_nearest(name, (const char *const *)names, n) : NULL;
        bb_usagef(err, "%s defines no table '%s' (bb.table)%s%s%s", script, name, near ? "; did you mean '" : "",
                  near ? near : "", near ? "'?" : "");
        lib_free_names(names);
        return NULL;
    }
    /* compiling the generators raises usage errors for bad arguments: protected, so they
     * name the script's line and exit 2 as in `run` */
    lua_getfield(L, -1, "native");
    lua_pushvalue(L, -2);
    if (host_pcall(L, 1, 1, err) < 0) {
        lua_pop(L, 3);
        return NULL;
    }
    if (!(t = api_to_gen(L, lua_gettop(L)))) bb_errf(err, "table '%s' has no generators", name);
    lua_pop(L, 4);
    return t;
}

/* The command's options (those given or with a default) as a table keyed by name with
 * '_' for '-': booleans, numbers and strings as their types say. */
static void push_opts(lua_State *L, bb_cli *cli)
{
    lua_newtable(L);
    for (const opt_use *u = cli->uses; u && u->name; u++) {
        const opt_def *d = opts_find(cli, u->name);
        const char *v = d ? opts_get(cli, d->name) : NULL;
        if (!v) continue;
        if (d->type == OT_BOOL) lua_pushboolean(L, opts_is_on(v));
        else if (d->type == OT_NUM || d->type == OT_INT) lua_pushnumber(L, strtod(v, NULL));
        else lua_pushstring(L, v);
        char key[64];
        snprintf(key, sizeof key, "%s", d->name);
        for (char *c = key; *c; c++)
            if (*c == '-') *c = '_';
        lua_setfield(L, -2, key);
    }
}

char *lib_report(bb_cli *cli, const char *const *files, int nfiles, int *code, bb_err *err)
{
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return NULL;
    lua_newtable(L);
    for (int i = 0; i < nfiles; i++) {
        lua_pushstring(L, files[i]);
        lua_rawseti(L, -2, i + 1);
    }
    push_opts(L, cli);
    char *text = NULL;
    if (call_module(L, "bulkbench.report.report", "main", 2, 3, err) == 0) { /* text, exit code, why */
        *code = (int)lua_tointeger(L, -2);
        if (*code) bb_errf(err, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "the report failed");
        lua_pop(L, 2);
        text = pop_string(L);
    }
    state_close(L);
    return text;
}

/* What csvinfer read of a file, as lua/new/new.lua takes it (r NULL: a scenario --check runs). */
static void push_file(lua_State *L, const char *path, int tsv, int header, const csvi_result *r)
{
    lua_newtable(L);
    lua_pushstring(L, path);
    lua_setfield(L, -2, "path");
    if (!r) { /* new --check FILE.lua: a scenario to check, not a file to read */
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "scenario");
        return;
    }
    lua_pushboolean(L, tsv);
    lua_setfield(L, -2, "tsv");
    lua_pushboolean(L, header);
    lua_setfield(L, -2, "header");
    lua_pushnumber(L, (lua_Number)r->rows);
    lua_setfield(L, -2, "rows");
    lua_pushstring(L, r->null);
    lua_setfield(L, -2, "null");
    lua_createtable(L, r->ncols, 0);
    for (int i = 0; i < r->ncols; i++) {
        const csvi_col *c = &r->cols[i];
        lua_newtable(L);
        lua_pushstring(L, c->name);
        lua_setfield(L, -2, "name");
        lua_pushstring(L, csvi_type_names[c->type]);
        lua_setfield(L, -2, "type");
        const double nums[] = { (double)c->values, (double)c->nulls, (double)c->imin,   (double)c->imax,
                                c->int_digits,     c->frac_digits,   (double)c->max_len };
        const char *const keys[] = { "values", "nulls", "imin", "imax", "int_digits", "frac_digits", "max_len" };
        for (int k = 0; k < 7; k++) {
            lua_pushnumber(L, nums[k]);
            lua_setfield(L, -2, keys[k]);
        }
        lua_pushboolean(L, c->has_frac);
        lua_setfield(L, -2, "has_frac");
        lua_pushboolean(L, c->has_zone);
        lua_setfield(L, -2, "has_zone");
        lua_pushboolean(L, c->increasing && c->nulls == 0);
        lua_setfield(L, -2, "increasing");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "columns");
    lua_createtable(L, r->nsample, 0);
    for (int s = 0; s < r->nsample; s++) {
        lua_createtable(L, r->ncols, 0);
        for (int i = 0; i < r->ncols; i++)
            if (r->sample[s][i]) {
                lua_pushstring(L, r->sample[s][i]);
                lua_rawseti(L, -2, i + 1);
            }
        lua_rawseti(L, -2, s + 1);
    }
    lua_setfield(L, -2, "sample");
}

char *lib_new(bb_cli *cli, const char *dsn, const lib_new_file *file, char **note, bb_err *err)
{
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    *note = NULL;
    if (!L) return NULL;
    push_opts(L, cli);
    if (dsn) {
        lua_pushstring(L, dsn);
        lua_setfield(L, -2, "dsn");
    }
    if (file) push_file(L, file->path, file->tsv, file->header, file->r);
    else lua_pushnil(L);
    char *text = NULL;
    if (call_module(L, "bulkbench.new.new", "main", 2, 3, err) == 0) { /* stdout, stderr, warnings */
        bb_buf b = { 0 };
        if (lua_isstring(L, -2)) bb_buf_printf(&b, "%s\n", lua_tostring(L, -2));
        int n = lua_istable(L, -1) ? (int)lua_objlen(L, -1) : 0;
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            bb_buf_printf(&b, "bulkbench: warning: %s\n", lua_tostring(L, -1));
            lua_pop(L, 1);
        }
        if (b.len) {
            bb_buf_putc(&b, 0);
            *note = b.p;
        }
        lua_pop(L, 2);
        text = pop_string(L);
    }
    state_close(L);
    return text;
}

int lib_html(bb_cli *cli, const char *const *results, int n, bb_err *err)
{
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return -1;
    lua_newtable(L);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, results[i]);
        lua_rawseti(L, -2, i + 1);
    }
    push_opts(L, cli);
    int rc = call_module(L, "bulkbench.report.html", "from_json", 2, 0, err);
    state_close(L);
    return rc;
}

char **lib_table_names(lua_State *L, const char **main, bb_err *err)
{
    *main = NULL;
    if (call_module(L, "bulkbench", "table_names", 0, 2, err) < 0) return NULL;
    int n = (int)lua_objlen(L, -2);
    char **names = bb_xcalloc((size_t)n + 1, sizeof *names);
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -2, i + 1);
        names[i] = pop_string(L);
        if (lua_isstring(L, -1) && !strcmp(names[i], lua_tostring(L, -1))) *main = names[i];
    }
    lua_pop(L, 2);
    return names;
}

void lib_free_names(char **names)
{
    for (int i = 0; names && names[i]; i++) free(names[i]);
    free(names);
}

int lib_focus(lua_State *L, const char *name, bb_err *err)
{
    lua_pushstring(L, name);
    return call_module(L, "bulkbench", "focus", 1, 0, err);
}

/* An error for the user: the library's own traceback lines say nothing to them. */
static void no_traceback(int rc, bb_err *err)
{
    char *tb = rc < 0 ? strstr(err->msg, "\nstack traceback") : NULL;
    if (tb) *tb = 0;
}

/* The engine and its DSN (nil for the engine's default) as a module function's first arguments. */
static void push_engine(lua_State *L, const char *engine, const char *dsn)
{
    lua_pushstring(L, engine);
    if (dsn) lua_pushstring(L, dsn);
    else lua_pushnil(L);
}

int lib_drop_scratch(lua_State *L, const char *engine, const char *dsn, bb_err *err)
{
    push_engine(L, engine, dsn);
    if (call_module(L, "bulkbench", "drop_scratch", 2, 1, err) < 0) return -1;
    int n = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return n;
}

/* db = core.connect(engine, dsn); db:recreate_like(name, original) or db:drop(name); db:close() */
static int scratch_like(lua_State *L)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench.core");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "connect");
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    int db = lua_gettop(L);
    lua_getfield(L, db, lua_toboolean(L, 5) ? "drop" : "recreate_like");
    lua_pushvalue(L, db);
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 4);
    lua_call(L, 3, 0);
    lua_getfield(L, db, "close");
    lua_pushvalue(L, db);
    lua_call(L, 1, 0);
    return 0;
}

int lib_scratch_like(const char *engine, const char *dsn, const char *name, const char *original, int drop, bb_err *err)
{
    bb_cli cli = { 0 };
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return -1;
    lua_pushcfunction(L, scratch_like);
    push_engine(L, engine, dsn);
    lua_pushstring(L, name);
    lua_pushstring(L, original);
    lua_pushboolean(L, drop);
    int rc = host_pcall(L, 5, 0, err);
    no_traceback(rc, err);
    state_close(L);
    return rc;
}

char *lib_missing_table(const char *engine, const char *dsn, const char *table)
{
    bb_cli cli = { 0 };
    bb_err err;
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, &err);
    if (!L) return NULL;
    push_engine(L, engine, dsn);
    lua_pushstring(L, table);
    char *msg = call_module(L, "bulkbench.scratch", "missing_at", 3, 1, &err) == 0 && lua_isstring(L, -1) ? pop_string(L) : NULL;
    state_close(L);
    return msg;
}

int lib_sessions(const char *engine, const char *dsn, int *max, int *used, bb_err *err)
{
    bb_cli cli = { 0 };
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return -1;
    push_engine(L, engine, dsn);
    int rc = call_module(L, "bulkbench", "sessions", 2, 2, err);
    *max = *used = -1;
    if (rc == 0) {
        if (lua_isnumber(L, -2)) *max = (int)lua_tointeger(L, -2);
        if (lua_isnumber(L, -1)) *used = (int)lua_tointeger(L, -1);
    }
    no_traceback(rc, err);
    state_close(L);
    return rc;
}

int lib_strategies_for(lua_State *L, const char *engine, const char *dsn, const char *name, const char *kind, char *out,
                       size_t n, bb_err *err)
{
    bb_cli cli = { 0 };
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *own = L ? NULL : state_new(&hc, NULL, err);
    if (!L && !(L = own)) return -1;
    push_engine(L, engine, dsn);
    lua_pushstring(L, name);
    lua_pushstring(L, kind);
    int rc = call_module(L, "bulkbench", "strategies_for", 4, 1, err);
    if (rc == 0) {
        if (lua_isstring(L, -1)) snprintf(out, n, "%s", lua_tostring(L, -1));
        else rc = -1;
        lua_pop(L, 1);
    }
    no_traceback(rc, err);
    if (own) state_close(own);
    return rc;
}

int lib_scratch_orphans(const char *engine, const char *dsn, int cleanup, bb_err *err)
{
    bb_cli cli = { 0 };
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, NULL, err);
    if (!L) return -1;
    push_engine(L, engine, dsn);
    lua_pushboolean(L, cleanup);
    int rc = call_module(L, "bulkbench", "scratch_orphans", 3, 2, err);
    if (rc == 0) {
        if (lua_isstring(L, -1)) rc = bb_errf(err, "%s", lua_tostring(L, -1));
        else rc = (int)lua_tointeger(L, -2);
    }
    no_traceback(rc, err);
    state_close(L);
    return rc;
}

static void push_numbers(lua_State *L, const double *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, v[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

int lib_ratio_interval(lua_State *L, const double *base, int nb, const double *cand, int nc, double out[3], bb_err *err)
{
    push_numbers(L, base, nb);
    push_numbers(L, cand, nc);
    if (call_module(L, "bulkbench.report.stats", "ratio_interval", 2, 3, err) < 0) return -1;
    for (int i = 0; i < 3; i++) out[i] = lua_isnumber(L, i - 3) ? lua_tonumber(L, i - 3) : -1;
    lua_pop(L, 3);
    return 0;
}

int lib_run_file(int argc, char **argv, bb_err *err)
{
    bb_cli cli = { 0 };
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL), .values = vset_reg_new() };
    lua_State *L = state_new(&hc, argv[0], err);
    if (!L) {
        vset_reg_free(hc.values);
        return -1;
    }
    lua_newtable(L);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setglobal(L, "arg");
    int rc = host_run_script(L, argv[0], err);
    state_close(L);
    vset_reg_free(hc.values); /* after the state: its generators hold references */
    return rc;
}
