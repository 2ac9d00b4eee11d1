/* servers.c — the servers of one run (see servers.h). */
#include "servers.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "host.h"
#include "../core/session.h"
#include "../core/sysmon.h"
#include "../../base/err.h"
#include "../../base/clock.h"

int servers_open(bb_servers *sv, const bb_plan *p, bb_err *err)
{
    memset(sv, 0, sizeof *sv);
    sv->n = p->ndsn > 0 ? p->ndsn : 1;
    sv->hooks = p->shared ? 1 : sv->n;
    for (int i = 0; i < sv->n; i++) {
        bb_server *s = &sv->s[i];
        s->dsn = p->ndsn > 0 ? p->dsns[i] : p->dsn;
        s->db_ref = LUA_NOREF;
        s->si0.log_pos = s->si1.log_pos = s->si0.redo_pos = s->si1.redo_pos = -1;
        s->cpu0 = s->cpu1 = -1;
        if (p->drv->target_open(s->dsn, &s->target, err) < 0) return -1;
    }
    return 0;
}

int servers_connect(bb_servers *sv, lua_State *L, const bb_plan *p, bb_err *err)
{
    sv->admin = 1;
    for (int k = 0; k < sv->n; k++) {
        bb_server *s = &sv->s[k];
        if (p->drv->connect(s->target, &s->c0, err) < 0) return -1;
        for (int i = 0; i < p->nsettings; i++) {
            if (!p->set_global[i]) continue;
            if (p->drv->set_global(s->c0, p->set_name[i], p->set_value[i], s->old_global[i], sizeof s->old_global[i],
                                   err) < 0)
                return -1;
            s->nglobal = i + 1; /* restore up to here, whatever happens next */
        }
        if (session_settings(p, s->c0, err) < 0) return -1;
        s->db0 = api_push_db(L, p->drv, s->c0, s->target);
        s->db_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

/* Calls hook(db) on one server; pushes its first result when want_result. */
static int call_hook(lua_State *L, const char *name, int db_ref, int want_result, bb_err *err)
{
    lua_getglobal(L, name);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        if (want_result) lua_pushnil(L);
        return 0;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, db_ref);
    return host_pcall(L, 1, want_result ? 1 : 0, err);
}

int servers_hook(bb_servers *sv, lua_State *L, const char *name, bb_err *err)
{
    int hooks = strcmp(name, "on_connect") == 0 ? sv->n : sv->hooks; /* every admin session is a session */
    for (int k = 0; k < hooks; k++)
        if (call_hook(L, name, sv->s[k].db_ref, 0, err) < 0) return -1;
    return 0;
}

int servers_check(bb_servers *sv, lua_State *L, int64_t *rows, int *refused, bb_err *err)
{
    *rows = -1;
    *refused = 0;
    for (int k = 0; k < sv->hooks; k++) {
        if (call_hook(L, "check", sv->s[k].db_ref, 1, err) < 0) return -1;
        if (lua_isnumber(L, -1)) *rows = (*rows < 0 ? 0 : *rows) + (int64_t)lua_tonumber(L, -1);
        else if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) *refused = 1;
        lua_pop(L, 1);
    }
    return 0;
}

/* One server's counters now: its own figures (-1 = unknown) and its process tree's CPU,
 * and its memory unless rss is NULL, when it runs here. The CPU this takes is added to
 * sv->measure_cpu_s, so the run's client_cpu_s can leave it out. */
static void server_read(bb_servers *sv, const bb_server *s, const bb_plan *p, bb_server_info *si, double *cpu,
                        int64_t *rss)
{
    double t0 = sysmon_thread_cpu();
    bb_err ignore;
    memset(si, 0, sizeof *si);
    si->log_pos = si->redo_pos = -1;
    *cpu = -1;
    if (rss) *rss = -1;
    if (p->drv->server_info(s->c0, si, &ignore) < 0) si->log_pos = -1;
    if (si->local_pid > 0 && sysmon_tree(si->local_pid, cpu, rss) < 0) {
        *cpu = -1;
        if (rss) *rss = -1;
    }
    sv->measure_cpu_s += sysmon_thread_cpu() - t0;
}

void servers_snapshot(bb_servers *sv, const bb_plan *p, int after)
{
    for (int k = 0; sv->admin && k < sv->n; k++) {
        bb_server *s = &sv->s[k];
        server_read(sv, s, p, after ? &s->si1 : &s->si0, after ? &s->cpu1 : &s->cpu0, after ? &s->rss1 : &s->rss0);
    }
}

void servers_sample(bb_servers *sv, const bb_plan *p, double *cpu_s, int64_t *log_pos)
{
    *cpu_s = sv->admin ? 0 : -1;
    *log_pos = sv->admin ? 0 : -1;
    for (int k = 0; sv->admin && k < sv->n; k++) {
        bb_server_info si;
        double cpu;
        server_read(sv, &sv->s[k], p, &si, &cpu, NULL);
        if (si.local_pid != sv->s[k].si0.local_pid) cpu = si.log_pos = -1; /* restarted: its counters did too */
        *cpu_s = *cpu_s < 0 || cpu < 0 ? -1 : *cpu_s + cpu;
        *log_pos = *log_pos < 0 || si.log_pos < 0 ? -1 : *log_pos + si.log_pos;
    }
}

int servers_renew(bb_servers *sv, const bb_plan *p)
{
    int renewed = 0;
    for (int k = 0; sv->admin && k < sv->n; k++) {
        bb_server *s = &sv->s[k];
        bb_err e;
        if (p->drv->exec(s->c0, "SELECT 1", NULL, &e) == 0) continue; /* an idle session learns of its loss only now */
        api_db_rebind(s->db0, NULL); /* its statements go while the session still exists */
        p->drv->disconnect(s->c0);
        s->c0 = NULL;
        for (int i = 0; i <= p->reconnect && !s->c0; i++) {
            if (i) bb_sleep_until_ns(bb_now_ns() + 500000000ull);
            if (session_open(p, s->target, &s->c0, &e) < 0) {
                if (s->c0) p->drv->disconnect(s->c0);
                s->c0 = NULL;
                continue;
            }
            api_db_rebind(s->db0, s->c0);
        }
        if (!s->c0) return -1;
        renewed++;
    }
    return renewed;
}

/* a + b where both are known; -1 (null) as soon as one is not */
static int64_t add_known(int64_t a, int64_t b) { return a < 0 || b < 0 ? -1 : a + b; }

void servers_costs(bb_servers *sv, const bb_plan *p, const char *table, bb_result *res)
{
    if (!sv->admin) return;
    snprintf(res->version, sizeof res->version, "%s", sv->s[0].si1.version);
    snprintf(res->driver, sizeof res->driver, "%s", sv->s[0].si1.driver);
    snprintf(res->settings, sizeof res->settings, "%s", sv->s[0].si1.settings);
    res->nhosts = sv->n > 1 ? sv->n : 0;
    for (int k = 0; k < sv->n; k++) {
        bb_server *s = &sv->s[k];
        bb_host_cost h = { .cpu_s = -1, .rss_growth = -1, .log_bytes = -1, .redo_bytes = -1, .table_bytes = -1 };
        snprintf(h.where, sizeof h.where, "%s", p->drv->target_where(s->target));
        if (s->si0.log_pos >= 0 && s->si1.log_pos >= s->si0.log_pos) h.log_bytes = s->si1.log_pos - s->si0.log_pos;
        if (s->si0.redo_pos >= 0 && s->si1.redo_pos >= s->si0.redo_pos)
            h.redo_bytes = s->si1.redo_pos - s->si0.redo_pos;
        if (s->cpu0 >= 0 && s->cpu1 >= 0) {
            h.cpu_s = s->cpu1 - s->cpu0;
            h.rss_growth = s->rss1 - s->rss0;
        }
        /* counters do not span a restart: a local server's pid tells whether it restarted; of a
         * remote one that lost sessions, nobody can tell */
        if (s->si1.local_pid != s->si0.local_pid || (s->si0.local_pid <= 0 && res->reconnects > 0)) {
            h.cpu_s = -1;
            h.rss_growth = h.log_bytes = h.redo_bytes = -1;
        }
        bb_err ignore;
        if (table && k < sv->hooks) p->drv->table_bytes(s->c0, table, &h.table_bytes, &ignore);
        if (k == 0) {
            res->server_cpu_s = h.cpu_s;
            res->rss_growth = h.rss_growth;
            res->log_bytes = h.log_bytes;
            res->redo_bytes = h.redo_bytes;
            res->table_bytes = h.table_bytes;
        } else {
            res->server_cpu_s = res->server_cpu_s < 0 || h.cpu_s < 0 ? -1 : res->server_cpu_s + h.cpu_s;
            res->rss_growth = add_known(res->rss_growth, h.rss_growth);
            res->log_bytes = add_known(res->log_bytes, h.log_bytes);
            res->redo_bytes = add_known(res->redo_bytes, h.redo_bytes);
            if (k < sv->hooks) res->table_bytes = add_known(res->table_bytes, h.table_bytes);
        }
        if (k < BB_MAX_HOSTS) res->host[k] = h;
    }
}

void servers_close(bb_servers *sv, lua_State *L, const bb_plan *p)
{
    for (int k = 0; k < sv->n; k++) {
        bb_server *s = &sv->s[k];
        for (int i = 0; i < s->nglobal; i++) { /* server-wide settings go back as they were, also after a failure */
            bb_err gerr;
            if (!p->set_global[i]) continue;
            if (p->drv->set_global(s->c0, p->set_name[i], s->old_global[i], (char[256]){ 0 }, 256, &gerr) < 0)
                fprintf(stderr, "bulkbench: could not restore %s to '%s' on %s: %s\n", p->set_name[i], s->old_global[i],
                        p->drv->target_where(s->target), gerr.msg);
        }
        api_db_rebind(s->db0, NULL);
        if (s->db_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, s->db_ref);
        if (s->c0) p->drv->disconnect(s->c0);
        if (s->target) p->drv->target_close(s->target);
    }
    memset(sv, 0, sizeof *sv);
}
