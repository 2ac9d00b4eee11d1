/* api_spawn.c — core.spawn(args [, env]): this binary run again as a child, for a command
 * that runs another (`new --check` runs the scenario it wrote). env holds NAME = VALUE pairs
 * for the child alone: a DSN travels there, never on a command line anyone can read. The
 * child's standard output is discarded (its figures are the caller's to read from the
 * database), its errors go to ours. The child has a process group of its own, so a Ctrl-C
 * reaches it once, from us: it stops as it would (its first signal), and the caller learns of
 * it, to clean up before it leaves. */
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <lua.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api.h"
#include "../core/sig.h"
#include "../../base/buf.h"

/* -> the child's exit code (128 + signal when a signal ended it), and the signal that asked
 *    us to stop meanwhile (0 for none) */
int api_spawn(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    int n = (int)lua_objlen(L, 1);
    char **argv = bb_xcalloc((size_t)n + 2, sizeof *argv);
    argv[0] = "bulkbench";
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        argv[i] = (char *)luaL_checkstring(L, -1); /* kept alive by the table until we return */
        lua_pop(L, 1);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        free(argv);
        return luaL_error(L, "cannot start a child process: %s", strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (lua_istable(L, 2)) {
            lua_pushnil(L);
            while (lua_next(L, 2)) {
                if (lua_type(L, -2) == LUA_TSTRING && lua_isstring(L, -1))
                    setenv(lua_tostring(L, -2), lua_tostring(L, -1), 1);
                lua_pop(L, 1);
            }
        }
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        execv("/proc/self/exe", argv);
        fprintf(stderr, "bulkbench: cannot run itself again: %s\n", strerror(errno));
        _exit(127);
    }
    free(argv);
    int st = 0, forwarded = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) break;
        if (sig_caught() && !forwarded) { /* the child stops as we were asked to */
            kill(pid, sig_caught());
            forwarded = 1;
        }
    }
    lua_pushinteger(L, WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1);
    lua_pushinteger(L, sig_caught());
    return 2;
}
