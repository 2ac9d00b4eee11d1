/* runner.c — the life of one run. */
#include "runner.h"

#include <lauxlib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "method.h"
#include "once.h"
#include "progress.h"
#include "sysmon.h"
#include "worker.h"

static volatile sig_atomic_t got_signal;
static bb_run *volatile current_run;

static void on_signal(int sig)
{
    if (got_signal) _exit(128 + sig); /* a second Ctrl-C: leave at once */
    got_signal = sig;
    bb_run *r = current_run;
    if (r) __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
}

void runner_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int runner_signal(void) { return got_signal; }

/* BULKBENCH_TRACE=1 prints when each phase of a run starts, to see where time outside
 * the measured window goes. */
static void trace(const char *phase)
{
    static int on = -1;
    static uint64_t t0;
    if (on < 0) {
        on = getenv("BULKBENCH_TRACE") != NULL;
        t0 = bb_now_ns();
    }
    if (on) fprintf(stderr, "[trace %8.1f ms] %s\n", (double)(bb_now_ns() - t0) / 1e6, phase);
}

/* Calls hook(db) in the set-up state; pushes its first result when want_result. */
static int setup_hook(lua_State *L, const char *name, int db_ref, int want_result, bb_err *err)
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

static void server_snapshot(const bb_plan *p, bb_conn *c, bb_server_info *si, double *cpu, int64_t *rss)
{
    bb_err ignore;
    memset(si, 0, sizeof *si);
    si->log_pos = si->redo_pos = -1;
    *cpu = -1;
    *rss = -1;
    if (p->drv->server_info(c, si, &ignore) < 0) si->log_pos = -1;
    if (si->local_pid > 0 && sysmon_tree(si->local_pid, cpu, rss) < 0) { *cpu = -1; *rss = -1; }
}

static void fill_identity(bb_result *res, const bb_plan *p)
{
    snprintf(res->scenario, sizeof res->scenario, "%s", p->scenario);
    snprintf(res->engine, sizeof res->engine, "%s", p->drv->name);
    snprintf(res->method, sizeof res->method, "%s", p->method ? p->method : "");
    res->threads = p->threads;
    res->batch = p->method ? method_batch(p) : -1;
    time_t now = time(NULL);
    strftime(res->started_at, sizeof res->started_at, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (p->target) snprintf(res->target, sizeof res->target, "%s", p->target);
    res->nset = p->nsettings;
    for (int i = 0; i < p->nsettings; i++) {
        snprintf(res->set_name[i], sizeof res->set_name[i], "%s", p->set_name[i]);
        snprintf(res->set_value[i], sizeof res->set_value[i], "%s", p->set_value[i]);
    }
}

static int64_t run_limit(const bb_plan *p)
{
    if (p->events > 0) return p->events;
    if (p->rows > 0) return p->rows;
    return INT64_MAX;
}

/* The name of the table bb.load() registered, for its size; NULL when none. */
static const char *main_table(lua_State *L, char *buf, size_t n)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    if (lua_pcall(L, 1, 1, 0) != 0) { lua_pop(L, 1); return NULL; }
    lua_getfield(L, -1, "main_table");
    const char *s = lua_tostring(L, -1);
    if (s) snprintf(buf, n, "%s", s);
    lua_pop(L, 2);
    return s ? buf : NULL;
}

/* --reconnect: the runner's own session may have been lost with the server's restart;
 * a new one (with the --set settings) serves the server costs, check() and cleanup(). */
static int renew_session(const bb_plan *p, bb_target *t, bb_conn **c0, void *db0)
{
    bb_err e;
    if (p->drv->exec(*c0, "SELECT 1", NULL, &e) == 0) return 0; /* an idle session learns of its loss only now */
    p->drv->disconnect(*c0);
    *c0 = NULL;
    api_db_rebind(db0, NULL);
    for (int i = 0; i <= p->reconnect; i++) {
        if (i) bb_sleep_until_ns(bb_now_ns() + 500000000ull);
        if (p->drv->connect(t, c0, &e) < 0) continue;
        for (int k = 0; k < p->nsettings; k++)
            if (!p->set_global[k]) p->drv->set_session(*c0, p->set_name[k], p->set_value[k], &e);
        api_db_rebind(db0, *c0);
        return 0;
    }
    return -1;
}

int runner_run(lua_State *L, bb_plan *p, bb_result *res, bb_err *err)
{
    result_init(res);
    fill_identity(res, p);
    bb_run r;
    memset(&r, 0, sizeof r);
    r.plan = p;
    r.limit = run_limit(p);
    pthread_mutex_init(&r.err_lock, NULL);
    pthread_cond_init(&r.finished_cv, NULL);
    host_ctx *hc = host_get(L);
    hc->plan = p;
    hc->dialect = p->drv->dialect;
    hc->seed = p->seed;
    hc->now_s = p->now_s;

    bb_conn *c0 = NULL;
    void *db0 = NULL;
    char old_global[BB_MAX_SETTINGS][256];
    int nglobal = 0;
    hc->nmetrics = 0;
    int db_ref = LUA_NOREF, rc = BB_EXIT_OK;
    trace("connect");
    if (p->drv->target_open(p->dsn, &r.target, err) < 0) goto out;
    if (p->drv->connect(r.target, &c0, err) < 0) goto out;
    for (int i = 0; i < p->nsettings; i++) {
        if (!p->set_global[i]) {
            if (p->drv->set_session(c0, p->set_name[i], p->set_value[i], err) < 0) goto out;
            continue;
        }
        if (p->drv->set_global(c0, p->set_name[i], p->set_value[i], old_global[i], sizeof old_global[i], err) < 0) goto out;
        nglobal = i + 1; /* restore up to here, whatever happens next */
    }
    db0 = api_push_db(L, p->drv, c0, p->drv->target_where(r.target));
    db_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (setup_hook(L, "on_connect", db_ref, 0, err) < 0) goto out;
    trace("prepare()");
    if (setup_hook(L, "prepare", db_ref, 0, err) < 0) goto out;
    snprintf(p->run_id, sizeof p->run_id, "%x%llx", (unsigned)getpid(), (unsigned long long)bb_now_ns());
    if (p->reconnect > 0 && p->method && once_setup(p->drv, c0, err) < 0) goto out;
    trace("server costs before");

    bb_server_info si0, si1;
    double srv_cpu0, srv_cpu1;
    int64_t rss0, rss1;
    server_snapshot(p, c0, &si0, &srv_cpu0, &rss0);

    trace("workers start");
    r.stats = stats_alloc(p->threads);
    r.workers = bb_xcalloc((size_t)p->threads, sizeof *r.workers);
    pthread_barrier_init(&r.ready, NULL, (unsigned)p->threads + 1);
    pthread_barrier_init(&r.go, NULL, (unsigned)p->threads + 1);
    pthread_barrier_init(&r.done, NULL, (unsigned)p->threads + 1);
    current_run = &r;
    if (got_signal) r.stop = 1;
    for (int i = 0; i < p->threads; i++) {
        bb_worker *w = &r.workers[i];
        w->run = &r;
        w->id = i;
        w->st = &r.stats[i];
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            fprintf(stderr, "bulkbench: cannot start worker thread %d\n", i);
            abort();
        }
    }
    pthread_barrier_wait(&r.ready);
    double cpu0 = sysmon_self_cpu();
    r.start_ns = bb_now_ns();
    r.measure_ns = r.start_ns + (uint64_t)(p->warmup_s * 1e9);
    r.deadline_ns = p->time_s > 0 ? r.measure_ns + (uint64_t)(p->time_s * 1e9) : UINT64_MAX;
    pthread_barrier_wait(&r.go);
    trace("measuring");

    progress pg;
    progress_init(&pg, &r);
    pthread_mutex_lock(&r.err_lock);
    while (r.finished < p->threads) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000000L; /* wake for progress lines; the last worker wakes us at once */
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&r.finished_cv, &r.err_lock, &until);
        pthread_mutex_unlock(&r.err_lock);
        progress_tick(&pg, &r);
        pthread_mutex_lock(&r.err_lock);
    }
    pthread_mutex_unlock(&r.err_lock);
    progress_done(&pg);
    if (p->reconnect > 0 && renew_session(p, r.target, &c0, db0) < 0) {
        bb_err lost;
        bb_errf(&lost, "%s: the runner's session was lost and could not be renewed", p->drv->name);
        run_fail(&r, &lost);
    }
    /* server costs now, while the workers' sessions still exist (a backend that has exited
     * takes its CPU time with it until the postmaster reaps it) */
    trace("server costs after");
    server_snapshot(p, c0, &si1, &srv_cpu1, &rss1);
    trace("workers end");
    pthread_barrier_wait(&r.done);
    for (int i = 0; i < p->threads; i++) pthread_join(r.workers[i].thread, NULL);
    current_run = NULL;
    double cpu1 = sysmon_self_cpu();

    stats_snap *snap = bb_xmalloc(sizeof *snap);
    stats_take(r.stats, p->threads, snap);
    res->events = (int64_t)snap->events;
    res->bytes = (int64_t)snap->bytes;
    res->errors = (int64_t)snap->errors;
    for (int i = 0; i < p->threads; i++) {
        res->committed += r.workers[i].committed;
        res->rows_in_doubt += r.workers[i].in_doubt;
        res->reconnects += r.workers[i].reconnects;
    }
    /* rows: committed rows, unless a warm-up wrote rows that must not count */
    res->rows = p->warmup_s > 0 ? (int64_t)snap->rows : res->committed;
    res->seconds = (double)(r.end_ns - (r.measure_ns < r.end_ns ? r.measure_ns : r.start_ns)) / 1e9;
    result_latency(res, snap);
    free(snap);
    res->client_cpu_s = cpu1 - cpu0;

    snprintf(res->version, sizeof res->version, "%s", si1.version);
    snprintf(res->settings, sizeof res->settings, "%s", si1.settings);
    if (si0.log_pos >= 0 && si1.log_pos >= si0.log_pos) res->log_bytes = si1.log_pos - si0.log_pos;
    if (si0.redo_pos >= 0 && si1.redo_pos >= si0.redo_pos) res->redo_bytes = si1.redo_pos - si0.redo_pos;
    if (srv_cpu0 >= 0 && srv_cpu1 >= 0) {
        res->server_cpu_s = srv_cpu1 - srv_cpu0;
        res->rss_growth = rss1 - rss0;
    }
    if (res->reconnects > 0 || si1.local_pid != si0.local_pid) { /* counters do not span a restart */
        res->server_cpu_s = -1;
        res->rss_growth = res->log_bytes = res->redo_bytes = -1;
    }
    char tname[256];
    bb_err ignore;
    trace("table size");
    if (main_table(L, tname, sizeof tname)) p->drv->table_bytes(c0, tname, &res->table_bytes, &ignore);
    trace("check()");

    if (r.failed) {
        *err = r.first_err;
        snprintf(res->error, sizeof res->error, "%s", r.first_err.msg);
        rc = r.first_err.code ? r.first_err.code : BB_EXIT_RUNTIME;
    } else if (got_signal) {
        snprintf(res->error, sizeof res->error, "interrupted by signal %d", (int)got_signal);
        rc = 128 + got_signal;
    } else {
        if (setup_hook(L, "check", db_ref, 1, err) < 0) { rc = err->code; goto out; }
        if (lua_isnumber(L, -1)) {
            res->verified_rows = (int64_t)lua_tonumber(L, -1);
            if (res->verified_rows != res->committed) {
                bb_errf(err, "verification failed: the table holds %lld rows, the runner committed %lld",
                        (long long)res->verified_rows, (long long)res->committed);
                err->code = BB_EXIT_VERIFY;
                snprintf(res->error, sizeof res->error, "%s", err->msg);
                rc = BB_EXIT_VERIFY;
            }
        } else if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) {
            bb_errf(err, "verification failed: check() returned false");
            err->code = BB_EXIT_VERIFY;
            snprintf(res->error, sizeof res->error, "%s", err->msg);
            rc = BB_EXIT_VERIFY;
        }
        lua_pop(L, 1);
        bb_err cerr;
        if (setup_hook(L, "cleanup", db_ref, 0, &cerr) < 0 && rc == BB_EXIT_OK) {
            *err = cerr;
            rc = cerr.code;
        }
    }
    if (p->reconnect > 0 && p->method) once_finish(p->drv, c0, p->run_id);
    trace("done");
    goto done;

out:
    rc = err->code ? err->code : BB_EXIT_RUNTIME;
    snprintf(res->error, sizeof res->error, "%s", err->msg);
done:
    for (int i = 0; i < nglobal; i++) { /* server-wide settings go back as they were, also after a failure */
        bb_err gerr;
        if (!p->set_global[i]) continue;
        if (p->drv->set_global(c0, p->set_name[i], old_global[i], (char[256]){ 0 }, 256, &gerr) < 0)
            fprintf(stderr, "bulkbench: could not restore %s to '%s': %s\n", p->set_name[i], old_global[i], gerr.msg);
    }
    res->nopts = hc->nopts;
    res->opt_name = (const char *const *)hc->opt_name;
    res->opt_value = (const char *const *)hc->opt_value;
    for (int i = 0; i < hc->nmetrics; i++) res->metric[i] = hc->metric[i];
    res->nmetrics = hc->nmetrics;
    if (r.workers) {
        pthread_barrier_destroy(&r.ready);
        pthread_barrier_destroy(&r.go);
        pthread_barrier_destroy(&r.done);
    }
    free(r.workers);
    stats_free(r.stats);
    api_db_rebind(db0, NULL);
    if (db_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, db_ref);
    if (c0) p->drv->disconnect(c0);
    if (r.target) p->drv->target_close(r.target);
    pthread_mutex_destroy(&r.err_lock);
    pthread_cond_destroy(&r.finished_cv);
    hc->plan = NULL;
    return rc;
}
