/* api_phase.c — core.phase (ctx:phase in Lua): the barrier between the parts of a worker's
 * work, over the run's pool (runtime/core/run/pool.h, pool_phase). */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>

#include "api.h"
#include "host.h"
#include "../../base/err.h"

/* core.phase(rows [, fn]), ctx:phase in Lua — a boundary between the parts of a worker's work (the tables of
 * a multi-table load, parents first): every worker waits here; the last to arrive calls
 * fn() (reads a parent's keys, say), then the claims restart at row 0 with `rows` rows.
 * false when the run stopped meanwhile. */
typedef struct phase_call {
    lua_State *L;
    int fn;
    char msg[1024];
} phase_call;

static int phase_fn(void *ud, bb_err *err)
{
    phase_call *pc = ud;
    lua_pushvalue(pc->L, pc->fn);
    if (lua_pcall(pc->L, 0, 0, 0) == 0) return 0;
    host_error(pc->L, err);
    snprintf(pc->msg, sizeof pc->msg, "%s", err->msg);
    return -1;
}

static int l_phase(lua_State *L)
{
    host_ctx *h = host_get(L);
    if (!h->worker || !h->run) return luaL_error(L, "ctx:phase() runs inside run(ctx) on a worker");
    if (h->plan->nranks > 1) return luaL_error(L, "ctx:phase(): a run spread over MPI ranks has no phases");
    int64_t rows = (int64_t)luaL_checknumber(L, 1);
    phase_call pc = { L, lua_isfunction(L, 2) ? 2 : 0, "" };
    if (pool_phase(&h->run->pool, 0, rows, pc.fn ? phase_fn : NULL, &pc) < 0) {
        if (pc.msg[0]) return luaL_error(L, "%s", pc.msg);
        lua_pushboolean(L, 0);
        return 1;
    }
    lua_pushboolean(L, 1);
    return 1;
}

void api_phase_register(lua_State *L)
{
    static const luaL_Reg fns[] = { { "phase", l_phase }, { NULL, NULL } };
    luaL_register(L, NULL, fns);
}
