/* worker.c — a worker of a run: its Lua state, its session, its hooks, its event() loop. */
#include "worker.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "api.h"
#include "host.h"
#include "lib.h"
#include "state.h"
#include "../core/method/method.h"
#include "../core/run/session.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../../base/clock.h"

/* Pushes ctx: { id, threads, db, method, batch, engine } with the library's ctx methods. */
static int make_ctx(bb_worker *w)
{
    lua_State *L = w->L;
    const bb_plan *p = w->run->plan;
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "ctx_meta");
    lua_remove(L, -2);
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, w->ld.id);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, p->threads);
    lua_setfield(L, -2, "threads");
    lua_pushstring(L, p->drv->name);
    lua_setfield(L, -2, "engine");
    if (p->method) {
        lua_pushstring(L, p->method->name);
        lua_setfield(L, -2, "method");
    }
    lua_pushnumber(L, (lua_Number)p->batch);
    lua_setfield(L, -2, "batch");
    w->db = api_push_db(L, p->drv, w->ld.conn, w->ld.target);
    lua_setfield(L, -2, "db");
    lua_insert(L, -2);
    lua_setmetatable(L, -2);
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

static int call_hook(bb_worker *w, int ref, bb_err *err)
{
    if (ref == LUA_NOREF) return 0;
    lua_rawgeti(w->L, LUA_REGISTRYINDEX, ref);
    lua_rawgeti(w->L, LUA_REGISTRYINDEX, w->ref_ctx);
    return host_pcall(w->L, 1, 0, err);
}

/* The session's server id for the diagnosis sampler, which reads it from its own thread. */
static void worker_session_id(bb_worker *w)
{
    const bb_driver *d = w->ld.plan->drv;
    int64_t id = w->ld.conn && (d->caps & BB_CAP_WAITS) ? d->session_id(w->ld.conn) : -1;
    __atomic_store_n(&w->session_id, id, __ATOMIC_RELAXED);
}

static int on_connect(bb_worker *w, bb_err *err)
{
    worker_session_id(w);
    if (w->ref_on_connect == LUA_NOREF) return 0;
    lua_rawgeti(w->L, LUA_REGISTRYINDEX, w->ref_on_connect);
    lua_rawgeti(w->L, LUA_REGISTRYINDEX, w->ref_ctx);
    lua_getfield(w->L, -1, "db");
    lua_remove(w->L, -2);
    return host_pcall(w->L, 1, 0, err);
}

/* The loader's reconnect: a new session with the settings, ctx.db rebound, on_connect. */
static int reconnect(bb_loader *l, bb_err *err)
{
    bb_worker *w = (bb_worker *)l; /* the loader is the worker's first member */
    api_db_rebind(w->db, NULL);    /* its statements go while the session still exists */
    if (l->conn) l->plan->drv->disconnect(l->conn);
    l->conn = NULL;
    worker_session_id(w);
    if (session_open(l->plan, l->target, &l->conn, err) < 0) return -1;
    api_db_rebind(w->db, l->conn);
    return on_connect(w, err);
}

int worker_setup(void *run, pool_thread *t, bb_err *err)
{
    bb_run *r = run;
    bb_worker *w = &r->workers[t->id];
    const bb_plan *p = r->plan;
    w->ld.plan = p;
    w->ld.pool = &r->pool;
    w->ld.pt = t;
    w->ld.reconnect = reconnect;
    host_ctx *hc = bb_xmalloc(sizeof *hc); /* lives as long as the state: state_close frees it */
    *hc = (host_ctx){ .plan = p,
                      .cli = r->cli,
                      .run = r,
                      .worker = w,
                      .seed = p->seed,
                      .now_s = p->now_s,
                      .scratch = p->scratch,
                      .dialect = p->drv->dialect,
                      .values = r->values,
                      .owned = 1 };
    if (!(w->L = state_new(hc, p->script, err))) {
        free(hc);
        return -1;
    }
    if (host_run_source(w->L, p->script_src, p->script_len, p->script, err) < 0) return -1;
    if (p->focus && lib_focus(w->L, p->focus, err) < 0) return -1;
    if (session_open(p, w->ld.target, &w->ld.conn, err) < 0) return -1;
    hc->dialect = bb_target_dialect(p->drv, w->ld.target); /* known once a session reached the server */
    w->ref_ctx = make_ctx(w);
    w->ref_event = host_hook(w->L, "event");
    w->ref_run = host_hook(w->L, "run");
    w->ref_init = host_hook(w->L, "thread_init");
    w->ref_done = host_hook(w->L, "thread_done");
    w->ref_on_connect = host_hook(w->L, "on_connect");
    if (on_connect(w, err) < 0) return -1;
    w->ready = 1;
    return call_hook(w, w->ref_init, err);
}

/* event() until the pool stops. Events run back to back, so one clock reading serves as
 * one event's end and the next one's start: the latency of an event is the time from the
 * end of the one before (or from its claim, or its scheduled time under --rate), which
 * holds the loop's few instructions between the two as well. A clock reading costs more
 * than an empty event() here (~200 ns under a hypervisor's kvm-clock). */
static int event_loop(bb_worker *w, bb_err *err)
{
    bb_pool *pl = &w->run->pool;
    lua_State *L = w->L;
    int64_t chunk = 1024;
    if (pl->limit != INT64_MAX) {
        chunk = (pl->limit - pl->first) / ((int64_t)pl->threads * 64);
        if (chunk < 1) chunk = 1;
        if (chunk > 1024) chunk = 1024;
    }
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->ref_event); /* kept on the stack: a copy per event is cheaper */
    lua_rawgeti(L, LUA_REGISTRYINDEX, w->ref_ctx);
    uint64_t t_end = 0; /* the last event's end, 0 when the next start must be read */
    int rc = 0;
    for (;;) {
        if (w->claim_next == w->claim_end) {
            int64_t first, n = pool_claim(pl, chunk, &first);
            if (n == 0) break;
            w->claim_next = (uint64_t)first;
            w->claim_end = (uint64_t)(first + n);
            t_end = 0;
        }
        w->claim_next++;
        w->ev_rows = w->ev_bytes = 0;
        uint64_t sched = pool_pace(w->ld.pt), t0 = sched ? sched : t_end ? t_end : bb_now_ns();
        lua_pushvalue(L, top + 1);
        lua_pushvalue(L, top + 2);
        if (lua_pcall(L, 1, 0, 1) != 0) {
            host_error(L, err);
            stats_error(w->ld.pt->st);
            rc = -1;
            break;
        }
        w->ld.committed += w->ev_rows;
        t_end = pool_record(w->ld.pt, t0, (uint64_t)w->ev_rows, (uint64_t)w->ev_bytes);
        if (pool_stopping(pl)) break;
    }
    lua_settop(L, top);
    return rc;
}

int worker_work(void *run, pool_thread *t, bb_err *err)
{
    bb_worker *w = &((bb_run *)run)->workers[t->id];
    if (w->ref_run != LUA_NOREF) return call_hook(w, w->ref_run, err);
    if (w->ref_event != LUA_NOREF) return event_loop(w, err);
    return 0;
}

void worker_teardown(void *run, pool_thread *t)
{
    bb_run *r = run;
    bb_worker *w = &r->workers[t->id];
    bb_err err = { .code = BB_EXIT_RUNTIME };
    if (w->ready && call_hook(w, w->ref_done, &err) < 0) pool_fail(&r->pool, &err);
    api_db_rebind(w->db, NULL);
    if (w->ld.conn) r->plan->drv->disconnect(w->ld.conn);
    state_close(w->L);
}
