/* host.c — calling into Lua safely: a state's context, protected calls, errors that name
 * the script's file:line, and the script's own text and hooks. */
#include "host.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../../base/invariant.h"

static const char CTX_KEY = 0;

void host_set_ctx(lua_State *L, host_ctx *ctx)
{
    lua_pushlightuserdata(L, (void *)&CTX_KEY);
    lua_pushlightuserdata(L, ctx);
    lua_rawset(L, LUA_REGISTRYINDEX);
}

host_ctx *host_get(lua_State *L)
{
    lua_pushlightuserdata(L, (void *)&CTX_KEY);
    lua_rawget(L, LUA_REGISTRYINDEX);
    host_ctx *c = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return c;
}

static int is_library_chunk(const char *source)
{
    for (const bb_lua_module *m = bb_lua_modules; m->name; m++)
        if (strcmp(source, m->chunkname) == 0) return 1;
    return 0;
}

/* How long msg's leading places in the library are (below). */
static size_t library_where(const char *msg);

/* "script.lua:LINE: " of the innermost call from the user's own code (not from C or the
 * embedded library), so a usage error names the line that caused it; "" when none. */
static void script_where(lua_State *L, char *out, size_t n)
{
    lua_Debug ar;
    out[0] = 0;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0 || ar.source[0] != '@') continue;
        if (is_library_chunk(ar.source)) continue;
        snprintf(out, n, "%s:%d: ", ar.source + 1, ar.currentline);
        return;
    }
}

/* The script's own frames, "\n\tfile:line: in function ..." each, pushed (20 at most); how many. */
static int script_frames(lua_State *L)
{
    lua_Debug ar;
    int n = 0;
    for (int level = 1; n < 20 && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sln", &ar) || ar.currentline <= 0 || ar.source[0] != '@') continue;
        if (is_library_chunk(ar.source)) continue;
        if (*ar.what == 'm') lua_pushfstring(L, "\n\t%s:%d: in main chunk", ar.source + 1, ar.currentline);
        else if (ar.name) lua_pushfstring(L, "\n\t%s:%d: in function '%s'", ar.source + 1, ar.currentline, ar.name);
        else
            lua_pushfstring(L, "\n\t%s:%d: in function <%s:%d>", ar.source + 1, ar.currentline, ar.source + 1,
                            ar.linedefined);
        n++;
    }
    return n;
}

/* The message handler of every protected call: the message, its place in the library
 * replaced by the script's line that led there (when one is on the stack), then the
 * script's own frames; the library's frames are no help to the script's author, and
 * without a frame of the script there is no traceback at all. */
int host_traceback(lua_State *L)
{
    if (lua_istable(L, 1)) return 1;
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = "(error object is not a string)";
    size_t skip = library_where(msg);
    char where[512] = "";
    if (skip) script_where(L, where, sizeof where);
    int top = lua_gettop(L);
    lua_checkstack(L, 24);
    lua_pushstring(L, where);
    lua_pushstring(L, msg + skip);
    int n = script_frames(L);
    if (n) {
        lua_pushliteral(L, "\nstack traceback:");
        lua_insert(L, -n - 1);
    }
    lua_concat(L, lua_gettop(L) - top);
    return 1;
}

int host_fail(lua_State *L, const char *msg)
{
    lua_createtable(L, 0, 1);
    lua_pushstring(L, msg);
    lua_setfield(L, -2, "bb_error");
    return lua_error(L);
}

int host_usage_error(lua_State *L, const char *msg)
{
    char where[512];
    script_where(L, where, sizeof where);
    lua_createtable(L, 0, 1);
    lua_pushfstring(L, "%s%s", strncmp(msg, where, strlen(where)) == 0 ? "" : where, msg);
    lua_setfield(L, -2, "bb_usage");
    return lua_error(L);
}

/* The length of the library's own places ("lua/scratch.lua:442: ", one after another) that
 * lead msg: where in bulkbench an error was raised says nothing to the user, who did not
 * write that file (a script's own file:line stays, and so does the place of a fault in the
 * library itself, "attempt to index a nil value": a bug to report, with where it is). */
static size_t library_where(const char *msg)
{
    size_t at = 0;
    for (const char *p = msg; (p = strstr(p, ": ")); p += 2)
        if (!strncmp(p + 2, "attempt to ", 11) || !strncmp(p + 2, "bad argument ", 13)) return 0;
    for (;;) {
        const char *p = msg + at, *colon = strchr(p, ':');
        if (!colon || colon == p || colon - p > 200) return at;
        const char *d = colon + 1;
        while (*d >= '0' && *d <= '9') d++;
        if (d == colon + 1 || d[0] != ':' || d[1] != ' ') return at;
        char chunk[216];
        snprintf(chunk, sizeof chunk, "@%.*s", (int)(colon - p), p);
        if (memchr(p, '\n', (size_t)(colon - p)) || !is_library_chunk(chunk)) return at;
        at = (size_t)(d + 2 - msg);
    }
}

int host_pcall(lua_State *L, int nargs, int nresults, bb_err *err)
{
    /* host.h: the traceback handler stays at slot 1 of every state (state_new puts it there) */
    assert(lua_tocfunction(L, 1) == host_traceback);
    if (lua_pcall(L, nargs, nresults, 1) == 0) return 0;
    return host_error(L, err);
}

int host_error(lua_State *L, bb_err *err)
{
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "bb_error"); /* core.fail: a failure said plainly, no traceback */
        if (lua_isstring(L, -1)) {
            bb_errf(err, "%s", lua_tostring(L, -1));
            lua_pop(L, 2);
            return -1;
        }
        lua_pop(L, 1);
        lua_getfield(L, -1, "bb_usage");
        bb_usagef(err, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "usage error");
        lua_pop(L, 2);
        return -1;
    }
    const char *msg = lua_tostring(L, -1);
    bb_errf(err, "%s", msg ? msg + library_where(msg) : "unknown Lua error");
    lua_pop(L, 1);
    return -1;
}

int host_read_script(const char *path, char **src, size_t *len, bb_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return bb_usagef(err, "cannot read script %s: %s", path, strerror(errno));
    bb_buf b = { 0 };
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) bb_buf_put(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        bb_buf_free(&b);
        return bb_usagef(err, "cannot read script %s", path);
    }
    bb_buf_putc(&b, 0);
    *src = b.p;
    *len = b.len - 1;
    return 0;
}

int host_run_source(lua_State *L, const char *src, size_t len, const char *path, bb_err *err)
{
    if (len && src[0] == '#') { /* a #! line: keep line numbers, drop the text */
        size_t i = 0;
        while (i < len && src[i] != '\n') i++;
        src += i;
        len -= i;
    }
    lua_pushfstring(L, "@%s", path);
    int rc = luaL_loadbuffer(L, src, len, lua_tostring(L, -1));
    lua_remove(L, -2);
    if (rc != 0) { /* syntax errors already say file:line */
        bb_errf(err, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return -1;
    }
    return host_pcall(L, 0, 0, err);
}

int host_run_script(lua_State *L, const char *path, bb_err *err)
{
    char *src;
    size_t len;
    if (host_read_script(path, &src, &len, err) < 0) return -1;
    int rc = host_run_source(L, src, len, path, err);
    free(src);
    return rc;
}

int host_push_hook(lua_State *L, const char *name)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    if (lua_pcall(L, 1, 1, 0) == 0) {
        lua_getfield(L, -1, "hook");
        lua_remove(L, -2);
        lua_pushstring(L, name);
        if (lua_pcall(L, 1, 1, 0) == 0 && lua_isfunction(L, -1)) return 1;
    }
    lua_pop(L, 1); /* the error, or what is no function */
    lua_pushnil(L);
    return 0;
}

int host_hook(lua_State *L, const char *name)
{
    if (host_push_hook(L, name)) return luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    return LUA_NOREF;
}
