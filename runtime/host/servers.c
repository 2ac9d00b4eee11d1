/* servers.c — the servers of one run (see servers.h). */
#include "servers.h"
#include "../../drivers/db.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "host.h"
#include "../core/run/session.h"
#include "../core/run/sysmon.h"
#include "../core/run/verify.h"
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
    if (!host_push_hook(L, name)) {
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
    int unknown = 0;
    *rows = 0;
    *refused = 0;
    for (int k = 0; k < sv->hooks; k++) {
        if (call_hook(L, "check", sv->s[k].db_ref, 1, err) < 0) return -1;
        if (lua_isnumber(L, -1)) *rows += (int64_t)lua_tonumber(L, -1);
        else unknown = 1; /* nil: not counted (verify.h); false: refused */
        if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) *refused = 1;
        lua_pop(L, 1);
    }
    if (unknown || sv->hooks == 0) *rows = VERIFY_UNKNOWN;
    return 0;
}

/* A process tree's CPU seconds and memory (unless rss is NULL) now, when it runs here;
 * -1 otherwise. */
static void local_usage(int pid, double *cpu, int64_t *rss)
{
    *cpu = -1;
    if (rss) *rss = -1;
    if (pid > 0 && sysmon_tree(pid, cpu, rss) < 0) {
        *cpu = -1;
        if (rss) *rss = -1;
    }
}

typedef struct usage_out {
    double *cpu, *own_cpu, *node_cpu;
    int64_t *rss, *own_rss, *node_rss; /* rss NULL: CPU only (a page-table walk costs) */
} usage_out;

/* One server's counters now: its own figures (-1 = unknown) and its process tree's CPU,
 * and its memory unless rss is NULL, when it runs here; a cluster's summed over its nodes
 * (own_*: the leader's alone; node_*: each node's; when asked). The CPU this takes is
 * added to sv->measure_cpu_s, so the run's client_cpu_s can leave it out. */
static void server_read(bb_servers *sv, const bb_server *s, const bb_plan *p, bb_server_info *si, usage_out o)
{
    double t0 = sysmon_thread_cpu();
    bb_err ignore;
    memset(si, 0, sizeof *si);
    si->log_pos = si->redo_pos = -1;
    si->tls_on = -1;
    if (p->drv->server_info(s->c0, si, &ignore) < 0) si->log_pos = -1;
    local_usage(si->local_pid, o.cpu, o.rss);
    if (o.own_cpu) *o.own_cpu = *o.cpu;
    if (o.own_rss) *o.own_rss = o.rss ? *o.rss : -1;
    for (int i = 0; i < si->nnodes; i++) {
        double c;
        int64_t r = -1;
        local_usage(si->node[i].local_pid, &c, o.rss ? &r : NULL);
        if (o.node_cpu) o.node_cpu[i] = c, o.node_rss[i] = r;
        *o.cpu = *o.cpu < 0 || c < 0 ? -1 : *o.cpu + c;
        if (o.rss) *o.rss = *o.rss < 0 || r < 0 ? -1 : *o.rss + r;
    }
    sv->measure_cpu_s += sysmon_thread_cpu() - t0;
}

void servers_snapshot(bb_servers *sv, const bb_plan *p, int after)
{
    for (int k = 0; sv->admin && k < sv->n; k++) {
        bb_server *s = &sv->s[k];
        server_read(sv, s, p, after ? &s->si1 : &s->si0,
                    (usage_out){ .cpu = after ? &s->cpu1 : &s->cpu0,
                                 .rss = after ? &s->rss1 : &s->rss0,
                                 .own_cpu = &s->own_cpu[after],
                                 .own_rss = &s->own_rss[after],
                                 .node_cpu = s->node_cpu[after],
                                 .node_rss = s->node_rss[after] });
    }
}

void servers_sample(bb_servers *sv, const bb_plan *p, double *cpu_s, int64_t *log_pos)
{
    *cpu_s = sv->admin ? 0 : -1;
    *log_pos = sv->admin ? 0 : -1;
    for (int k = 0; sv->admin && k < sv->n; k++) {
        bb_server_info si;
        double cpu;
        server_read(sv, &sv->s[k], p, &si, (usage_out){ .cpu = &cpu });
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

/* A delta of two counters, -1 unless both are known and it did not run backwards. */
static int64_t grown(int64_t a, int64_t b) { return a >= 0 && b >= a ? b - a : -1; }

/* A cluster's nodes as the result lists them: the server itself (its coordinator) first,
 * each with its own WAL, CPU and share of the table. A node list that changed during the
 * run (a node added or gone) leaves the figures of the nodes unknown. */
static void node_costs(bb_server *s, const bb_plan *p, const char *table, bb_result *res)
{
    const bb_server_info *a = &s->si0, *b = &s->si1;
    if (!b->nnodes || res->nnodes + 1 + b->nnodes > BB_MAX_NODES + 1) return;
    int same = a->nnodes == b->nnodes && a->local_pid == b->local_pid;
    for (int i = 0; same && i < b->nnodes; i++)
        same = strcmp(a->node[i].where, b->node[i].where) == 0 && a->node[i].local_pid == b->node[i].local_pid;
    int64_t bytes[BB_MAX_NODES + 1];
    bb_err ignore;
    for (int i = 0; i <= b->nnodes; i++) bytes[i] = -1;
    if (table) db_node_table_bytes(p->drv, s->c0, table, b->nnodes + 1, bytes, &ignore);
    for (int i = 0; i <= b->nnodes; i++) {
        bb_host_cost *h = &res->node[res->nnodes++];
        *h =
            (bb_host_cost){ .cpu_s = -1, .rss_growth = -1, .log_bytes = -1, .redo_bytes = -1, .table_bytes = bytes[i] };
        const double c0 = i ? s->node_cpu[0][i - 1] : s->own_cpu[0], c1 = i ? s->node_cpu[1][i - 1] : s->own_cpu[1];
        const int64_t r0 = i ? s->node_rss[0][i - 1] : s->own_rss[0], r1 = i ? s->node_rss[1][i - 1] : s->own_rss[1];
        snprintf(h->where, sizeof h->where, "%s", i ? b->node[i - 1].where : p->drv->target_where(s->target));
        snprintf(h->role, sizeof h->role, "%s", i ? b->node[i - 1].role : "coordinator");
        if (!same) continue;
        h->log_bytes = grown(i ? a->node[i - 1].log_pos : a->own_log_pos, i ? b->node[i - 1].log_pos : b->own_log_pos);
        if (c0 >= 0 && c1 >= 0) h->cpu_s = c1 - c0, h->rss_growth = r1 - r0;
    }
}

void servers_costs(bb_servers *sv, const bb_plan *p, const char *table, bb_result *res)
{
    if (!sv->admin) return;
    snprintf(res->version, sizeof res->version, "%s", sv->s[0].si1.version);
    snprintf(res->driver, sizeof res->driver, "%s", sv->s[0].si1.driver);
    snprintf(res->settings, sizeof res->settings, "%s", sv->s[0].si1.settings);
    res->tls_on = sv->s[0].si1.tls_on; /* the workers' sessions reach the server as this one does */
    snprintf(res->tls_version, sizeof res->tls_version, "%s", sv->s[0].si1.tls_version);
    snprintf(res->tls_cipher, sizeof res->tls_cipher, "%s", sv->s[0].si1.tls_cipher);
    res->memory_limit = sysmon_memory_limit(sv->s[0].si1.local_pid); /* a cgroup's: contrib/dbctl --memory */
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
        node_costs(s, p, k < sv->hooks ? table : NULL, res);
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
