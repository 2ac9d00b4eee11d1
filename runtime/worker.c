/* worker.c — the life of one worker thread, and claiming work from the shared counter. */
#include "worker.h"

#include <lauxlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "api.h"
#include "host.h"

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
    lua_pushinteger(L, w->id);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, p->threads);
    lua_setfield(L, -2, "threads");
    lua_pushstring(L, p->drv->name);
    lua_setfield(L, -2, "engine");
    if (p->method) { lua_pushstring(L, p->method); lua_setfield(L, -2, "method"); }
    lua_pushnumber(L, (lua_Number)p->batch);
    lua_setfield(L, -2, "batch");
    w->db = api_push_db(L, p->drv, w->conn, w->target);
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

/* Opens the worker's session: settings, then the script's on_connect(db) once ctx exists. */
static int connect_session(bb_worker *w, bb_err *err)
{
    const bb_plan *p = w->run->plan;
    if (p->drv->connect(w->target, &w->conn, err) < 0) return -1;
    for (int i = 0; i < p->nsettings; i++)
        if (!p->set_global[i] && p->drv->set_session(w->conn, p->set_name[i], p->set_value[i], err) < 0) return -1;
    return 0;
}

static int on_connect(bb_worker *w, bb_err *err)
{
    if (w->ref_on_connect == LUA_NOREF) return 0;
    lua_rawgeti(w->L, LUA_REGISTRYINDEX, w->ref_on_connect);
    lua_rawgeti(w->L, LUA_REGISTRYINDEX, w->ref_ctx);
    lua_getfield(w->L, -1, "db");
    lua_remove(w->L, -2);
    return host_pcall(w->L, 1, 0, err);
}

int worker_reconnect(bb_worker *w, bb_err *err)
{
    const bb_driver *d = w->run->plan->drv;
    if (w->conn) d->disconnect(w->conn);
    w->conn = NULL;
    api_db_rebind(w->db, NULL);
    if (connect_session(w, err) < 0) return -1;
    api_db_rebind(w->db, w->conn);
    return on_connect(w, err);
}

int worker_setup(void *run, pool_thread *t, bb_err *err)
{
    bb_run *r = run;
    bb_worker *w = &r->workers[t->id];
    const bb_plan *p = r->plan;
    w->pt = t;
    w->st = t->st;
    host_ctx *hc = bb_xmalloc(sizeof *hc); /* lives as long as the state: host_close frees it */
    *hc = (host_ctx){ .plan = p, .cli = p->cli, .run = r, .worker = w, .seed = p->seed, .now_s = p->now_s,
                      .dialect = p->drv->dialect, .owned = 1 };
    if (!(w->L = host_new(hc, p->script, err))) {
        free(hc);
        return -1;
    }
    if (host_run_source(w->L, p->script_src, p->script_len, p->script, err) < 0) return -1;
    if (connect_session(w, err) < 0) return -1;
    hc->dialect = bb_target_dialect(p->drv, w->target); /* known once a session reached the server */
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
    for (;;) {
        if (w->claim_next == w->claim_end) {
            int64_t first, n = pool_claim(pl, chunk, &first);
            if (n == 0) return 0;
            w->claim_next = (uint64_t)first;
            w->claim_end = (uint64_t)(first + n);
        }
        w->claim_next++;
        w->ev_rows = w->ev_bytes = 0;
        uint64_t sched = pool_pace(w->pt), t0 = bb_now_ns();
        lua_rawgeti(L, LUA_REGISTRYINDEX, w->ref_event);
        lua_rawgeti(L, LUA_REGISTRYINDEX, w->ref_ctx);
        if (lua_pcall(L, 1, 0, 1) != 0) {
            host_error(L, err);
            stats_error(w->st);
            return -1;
        }
        w->committed += w->ev_rows;
        pool_record(w->pt, sched ? sched : t0, (uint64_t)w->ev_rows, (uint64_t)w->ev_bytes);
        if (pool_stopping(pl)) return 0;
    }
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
    if (w->conn) r->plan->drv->disconnect(w->conn);
    host_close(w->L);
}
