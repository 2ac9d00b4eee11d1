/* runner.c — the life of one run. */
#include "runner.h"

#include <lauxlib.h>
#include <lua.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "../core/run/cluster.h"
#include "../core/gen/vset.h"
#include "../core/method/method.h"
#include "../core/method/once.h"
#include "../core/run/pool.h"
#include "../core/run/progress.h"
#include "../core/run/diagnose.h"
#include "../core/run/growth.h"
#include "servers.h"
#include "../core/run/sysmon.h"
#include "../core/run/verify.h"
#include "worker.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../../base/clock.h"

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

/* The sha256 of the script's text in hex, so a result says which version of a script made it
 * (two files of one name are two scenarios when their texts differ). */
static void script_sha256(const bb_plan *p, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    hex[0] = 0;
    if (!p->script_src || EVP_Digest(p->script_src, p->script_len, md, &n, EVP_sha256(), NULL) != 1) return;
    for (unsigned i = 0; i < n && i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

static void fill_identity(bb_result *res, const bb_plan *p)
{
    snprintf(res->scenario, sizeof res->scenario, "%s", p->scenario);
    script_sha256(p, res->scenario_sha256);
    snprintf(res->engine, sizeof res->engine, "%s", p->drv->name);
    snprintf(res->method, sizeof res->method, "%s", p->method ? p->method->name : "");
    res->threads = p->threads;
    res->batch = p->method ? p->batch : -1; /* an event() script's batch is its own business */
    time_t now = time(NULL);
    strftime(res->started_at, sizeof res->started_at, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (p->target) snprintf(res->target, sizeof res->target, "%s", p->target);
    res->nset = p->nsettings;
    for (int i = 0; i < p->nsettings; i++) {
        snprintf(res->set_name[i], sizeof res->set_name[i], "%s", p->set_name[i]);
        snprintf(res->set_value[i], sizeof res->set_value[i], "%s", p->set_value[i]);
    }
}

/* This rank's share of the row (or event) numbers: a contiguous slice of a fixed total,
 * so ranks together make exactly the rows one process would; without a total, disjoint
 * ranges 2^40 apart. */
static void run_share(const bb_plan *p, int64_t *first, int64_t *limit)
{
    int64_t total = p->events > 0 ? p->events : p->rows > 0 ? p->rows : INT64_MAX;
    if (total == INT64_MAX) {
        *first = (int64_t)p->rank << 40;
        *limit = INT64_MAX;
        return;
    }
    *first = (int64_t)((__int128)total * p->rank / p->nranks);
    *limit = (int64_t)((__int128)total * (p->rank + 1) / p->nranks);
}

/* The name of the table bb.load() registered, for its size; NULL when none. */
static const char *main_table(lua_State *L, char *buf, size_t n)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    if (lua_pcall(L, 1, 1, 0) != 0) {
        lua_pop(L, 1);
        return NULL;
    }
    lua_getfield(L, -1, "main_table");
    const char *s = lua_tostring(L, -1);
    if (s) snprintf(buf, n, "%s", s);
    lua_pop(L, 2);
    return s ? buf : NULL;
}

/* Rank 0 (the only rank without MPI): the servers' admin sessions, on_connect and
 * prepare(), and with --reconnect the marks table. */
static int set_up(bb_servers *sv, lua_State *L, bb_plan *p, int *prepared, bb_err *err)
{
    trace("connect");
    if (servers_connect(sv, L, p, err) < 0) return -1;
    host_get(L)->dialect = bb_target_dialect(p->drv, sv->s[0].target); /* known once a session reached the server */
    if (servers_hook(sv, L, "on_connect", err) < 0) return -1;
    trace("prepare()");
    *prepared = 1; /* from here on, what prepare() made is teardown()'s to remove */
    if (servers_hook(sv, L, "prepare", err) < 0) return -1;
    for (int k = 0; p->reconnect > 0 && p->method && k < sv->hooks; k++)
        if (once_setup(p->drv, sv->s[k].c0, err) < 0) return -1;
    return 0;
}

/* The load's shape a strategy asks (the table on top: { first, stream_option }), kept in
 * the plan; none clears what an earlier run of the sweep asked. */
static void strategy_load_shape(lua_State *L, bb_plan *p)
{
    p->txn_first[0] = p->stream_option[0] = 0;
    if (!lua_istable(L, -1)) return;
    lua_getfield(L, -1, "first");
    if (lua_isstring(L, -1)) snprintf(p->txn_first, sizeof p->txn_first, "%s", lua_tostring(L, -1));
    lua_getfield(L, -2, "stream_option");
    if (lua_isstring(L, -1)) snprintf(p->stream_option, sizeof p->stream_option, "%s", lua_tostring(L, -1));
    lua_pop(L, 2);
}

/* The strategy's before-step (lua/strategy.lua's before), timed, after prepare(): on the
 * first server's admin session. A skip is said in one line and recorded; the settings it
 * asks of the load's sessions join the plan's (applied as each session opens). */
static int strategy_before(bb_servers *sv, lua_State *L, bb_plan *p, bb_result *res, int *on, bb_err *err)
{
    if (!p->strategy) return 0;
    snprintf(res->strategy, sizeof res->strategy, "%s", p->strategy);
    trace("strategy before");
    uint64_t t0 = bb_now_ns();
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench.strategy");
    if (host_pcall(L, 1, 1, err) < 0) return -1;
    lua_getfield(L, -1, "before");
    lua_rawgeti(L, LUA_REGISTRYINDEX, sv->s[0].db_ref);
    lua_pushstring(L, p->strategy);
    lua_pushstring(L, p->method ? p->method->name : "");
    char tname[256];
    const char *tn = main_table(L, tname, sizeof tname);
    if (tn) lua_pushstring(L, tn);
    else lua_pushnil(L);
    lua_pushinteger(L, p->threads);
    if (host_pcall(L, 5, 4, err) < 0) {
        lua_pop(L, 1);
        return -1;
    }
    *on = 1; /* from here on the after-step is owed, however the run ends */
    strategy_load_shape(L, p);
    lua_pop(L, 1);
    if (lua_isstring(L, -1)) snprintf(res->strategy_gives_up, sizeof res->strategy_gives_up, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    if (lua_isstring(L, -2)) {
        snprintf(res->strategy_skipped, sizeof res->strategy_skipped, "%s", lua_tostring(L, -2));
        fprintf(stderr, "bulkbench: %s\n", res->strategy_skipped);
    }
    if (lua_istable(L, -1)) { /* session settings: copies the plan keeps (the strategy table holds the strings) */
        lua_pushnil(L);
        while (lua_next(L, -2) && p->nsettings < BB_MAX_SETTINGS) {
            if (lua_type(L, -2) == LUA_TSTRING && lua_isstring(L, -1)) {
                p->set_name[p->nsettings] = lua_tostring(L, -2);
                p->set_value[p->nsettings] = lua_tostring(L, -1);
                p->set_global[p->nsettings++] = 0;
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 3);
    res->before_s = (double)(bb_now_ns() - t0) / 1e9;
    return 0;
}

/* The strategy's after-step and the table's catalog held against the one it was found with,
 * timed; on every way out of a run whose before-step began. Its failure fails a run that had
 * not failed; after a failure it is only said. */
static int strategy_after(bb_servers *sv, lua_State *L, bb_result *res, int rc, bb_err *err)
{
    bb_err aerr = { 0 };
    trace("strategy after");
    uint64_t t0 = bb_now_ns();
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench.strategy");
    int arc = host_pcall(L, 1, 1, &aerr);
    char changed[1024] = ""; /* after() returns how the table differs from the one it found, or nil */
    if (arc == 0) {
        lua_getfield(L, -1, "after");
        lua_rawgeti(L, LUA_REGISTRYINDEX, sv->s[0].db_ref);
        arc = host_pcall(L, 1, 1, &aerr);
        if (arc == 0 && lua_isstring(L, -1)) snprintf(changed, sizeof changed, "%s", lua_tostring(L, -1));
        lua_pop(L, arc == 0 ? 2 : 1);
    }
    res->after_s = (double)(bb_now_ns() - t0) / 1e9;
    if (arc == 0 && !changed[0]) return rc;
    if (rc != BB_EXIT_OK) {
        fprintf(stderr, "bulkbench: the strategy's after-step failed too: %s\n", changed[0] ? changed : aerr.msg);
        return rc;
    }
    if (arc != 0) {
        *err = aerr;
        return BB_EXIT_RUNTIME;
    }
    res->verdict = VERDICT_CHANGED; /* changed: "after strategy NAME", then the two catalogs' lines */
    int head = (int)strcspn(changed, "\n");
    bb_errf(err, "verification failed: %.*s %s%s", head, changed, verify_why(res->verdict), changed + head);
    return err->code = BB_EXIT_VERIFY;
}

/* Rank 0, after a run without failure: check() against the committed rows, cleanup(). */
static int verify(bb_servers *sv, lua_State *L, const bb_plan *p, bb_result *res, bb_err *err)
{
    int64_t rows;
    int refused, rc = BB_EXIT_OK;
    trace("check()");
    int rc_check;
    /* --reconnect: a server that restarts during check() loses the admin session; check again
     * on a new one (a check that failed with its session alive fails the run) */
    for (int i = 0; (rc_check = servers_check(sv, L, &rows, &refused, err)) < 0 && i < p->reconnect; i++)
        if (servers_renew(sv, p) <= 0) break;
    if (rc_check < 0) return err->code;
    res->verified_rows = rows;
    res->verdict = verify_judge(rows, res->committed, refused);
    if (res->verdict == VERDICT_REFUSED) bb_errf(err, "verification failed: %s", verify_why(res->verdict));
    else if (verify_failed(res->verdict))
        bb_errf(err, "verification failed: the table holds %lld rows, the runner committed %lld: %s", (long long)rows,
                (long long)res->committed, verify_why(res->verdict));
    if (verify_failed(res->verdict)) err->code = rc = BB_EXIT_VERIFY;
    bb_err cerr;
    if (servers_hook(sv, L, "cleanup", &cerr) < 0 && rc == BB_EXIT_OK) {
        *err = cerr;
        rc = cerr.code;
    }
    for (int k = 0; p->reconnect > 0 && p->method && k < sv->hooks; k++) once_finish(p->drv, sv->s[k].c0, p->run_id);
    return rc;
}

/* Rank 0, last, after every run that called prepare(), however it ended (a failure,
 * Ctrl-C): teardown() removes what must not outlive the run (scratch tables). A session lost
 * on the way (a backend killed, a server restarted) is opened anew and teardown() tried once
 * more on it. Its failure fails a run that had not failed; after a failure it is only said. */
static int tear_down(bb_servers *sv, lua_State *L, const bb_plan *p, int rc, bb_err *err)
{
    bb_err terr;
    trace("teardown()");
    if (servers_hook(sv, L, "teardown", &terr) == 0) return rc;
    if (servers_renew(sv, p) > 0 && servers_hook(sv, L, "teardown", &terr) == 0) return rc;
    if (rc == BB_EXIT_OK) {
        *err = terr;
        return terr.code ? terr.code : BB_EXIT_RUNTIME;
    }
    fprintf(stderr, "bulkbench: teardown() failed too: %s\n", terr.msg);
    return rc;
}

/* While the workers work: progress lines; stop them when another rank failed, and tell
 * the other ranks when one of ours did. */
typedef struct wait_ctx {
    progress pg;
    int told;
} wait_ctx;

static void wait_tick(void *ud, bb_pool *pl)
{
    wait_ctx *wc = ud;
    if (pool_failed(pl) && !wc->told) {
        cluster_tell_stop();
        wc->told = 1;
    }
    if (cluster_stop_told()) pool_stop(pl);
    progress_tick(&wc->pg, pl);
}

/* The set-up state's context now serves this run: its plan, seed, "now" and metrics. */
static void bind_setup_state(lua_State *L, bb_plan *p, struct vset_reg *values)
{
    host_ctx *hc = host_get(L);
    hc->plan = p;
    hc->values = values;
    hc->dialect = p->drv->dialect;
    hc->seed = p->seed;
    hc->now_s = p->now_s;
    hc->nmetrics = 0;
    snprintf(p->run_id, sizeof p->run_id, "%x%llx", (unsigned)getpid(), (unsigned long long)bb_now_ns());
    cluster_bcast(p->run_id, sizeof p->run_id); /* marks of every rank carry rank 0's id */
}

/* Starts the workers (each connects and loads the script) and agrees with the other ranks
 * that all are ready; on a failure anywhere the pool is stopped before work begins. */
static void start_workers(bb_run *r, const bb_servers *sv)
{
    const bb_plan *p = r->plan;
    r->workers = bb_xcalloc((size_t)p->threads, sizeof *r->workers);
    for (int i = 0; i < p->threads; i++) {
        bb_worker *w = &r->workers[i];
        w->run = r;
        w->ld.id = i;
        w->ld.target = sv->s[(p->nranks > 1 ? p->rank : i) % sv->n].target; /* round-robin over the host list */
    }
    int64_t first, limit;
    run_share(p, &first, &limit);
    pool_ops ops = { r, worker_setup, worker_work, worker_teardown };
    pool_start(&r->pool, p->threads, first, limit, p->rate, &ops);
    int failed = pool_ready(&r->pool) < 0;
    bb_err serr = r->pool.first_err;
    if (cluster_agree(failed ? (serr.code ? serr.code : BB_EXIT_RUNTIME) : 0, &serr) != 0 && !failed)
        pool_fail(&r->pool, &serr);
}

/* The interval samples' view of the servers (called by progress in the waiting thread). */
typedef struct sample_ctx {
    bb_servers *sv;
    const bb_plan *p;
} sample_ctx;

static int sample_servers(void *ud, double *cpu_s, int64_t *log_pos)
{
    sample_ctx *sc = ud;
    servers_sample(sc->sv, sc->p, cpu_s, log_pos);
    return 0;
}

/* The run's worker sessions by server id, for the diagnosis sampler (its thread). */
static int worker_ids(void *ud, int64_t *ids, int max)
{
    bb_run *r = ud;
    int n = 0;
    for (int i = 0; i < r->plan->threads && n < max; i++)
        ids[n++] = __atomic_load_n(&r->workers[i].session_id, __ATOMIC_RELAXED);
    return n;
}

/* The measured part: work until done (recording interval samples into res), then the
 * server's costs while the workers still hold their sessions (a backend that has exited
 * takes its CPU time with it). */
static void measure(bb_run *r, bb_servers *sv, const char *table, bb_result *res)
{
    const bb_plan *p = r->plan;
    /* the table's growth: first as the run finds it (on the admin session), then on the
     * monitoring session the waits are sampled on */
    growth_sampler *gr = p->rank == 0 ? growth_start(p->drv, table, &r->pool, p->growth_watch, p->growth_ud) : NULL;
    if (gr) {
        int64_t ids[256];
        growth_tick(gr, sv->s[0].c0, ids, worker_ids(r, ids, 256), 0);
    }
    pool_go(&r->pool, p->warmup_s, p->time_s);
    trace("measuring");
    /* one server's sessions are sampled: the first's, where a host list's first workers go */
    diagnose_also also = { growth_tick, gr };
    diagnose *dg =
        p->rank == 0 ? diagnose_start(p->drv, sv->s[0].target, p->waits_hz, worker_ids, r, gr ? &also : NULL) : NULL;
    wait_ctx wc = { .told = 0 };
    sample_ctx sc = { sv, p };
    int64_t total = r->pool.limit == INT64_MAX ? 0 : r->pool.limit - r->pool.first;
    progress_init(&wc.pg, &r->pool, p->report_interval > 0 ? p->report_interval : 0, p->progress, total, 0);
    if (p->report_interval != 0 && p->rank == 0)
        progress_record(&wc.pg, &res->intervals, p->report_interval > 0 ? p->report_interval : 1, sample_servers, &sc);
    pool_wait(&r->pool, wait_tick, &wc);
    diagnose_stop(dg, &res->waits);
    growth_stop(gr, &res->growth);
    if (pool_failed(&r->pool) && !wc.told) cluster_tell_stop();
    progress_done(&wc.pg);
    /* not asked for: samples only describe runs long enough to have a shape */
    if (p->report_interval < 0 && p->time_s < 5 && pool_seconds(&r->pool) < 5) series_free(&res->intervals);
    if (p->reconnect > 0 && servers_renew(sv, p) < 0) {
        bb_err lost;
        bb_errf(&lost, "%s: the runner's session was lost and could not be renewed", p->drv->name);
        pool_fail(&r->pool, &lost);
    }
    trace("server costs after");
    servers_snapshot(sv, p, 1);
    trace("workers end");
    pool_end(&r->pool);
    diagnose_end(dg, &res->waits); /* the log flushes, once the workers' sessions have reported them */
}

/* The run's figures, summed over workers and ranks, into res; the exit code so far. The
 * client's CPU is the process's since cpu0, less what reading the servers took since
 * then (measured: measure_cpu_s's part after cpu0). */
static int collect(bb_run *r, double cpu0, double measured, bb_result *res, bb_err *err)
{
    const bb_plan *p = r->plan;
    int rc = BB_EXIT_OK;
    stats_snap *snap = bb_xmalloc(sizeof *snap);
    stats_take(r->pool.stats, p->threads, snap);
    cluster_sums sums = { .client_cpu_s = sysmon_self_cpu() - cpu0 - measured, .seconds = pool_seconds(&r->pool) };
    for (int i = 0; i < p->threads; i++) {
        sums.committed += r->workers[i].ld.committed;
        sums.in_doubt += r->workers[i].ld.in_doubt;
        sums.reconnects += r->workers[i].ld.reconnects;
    }
    if (r->pool.signal) { /* what failed while stopping failed because of the stop */
        bb_errf(err, "interrupted by signal %d", r->pool.signal);
        rc = 128 + r->pool.signal;
    } else if (r->pool.failed) {
        *err = r->pool.first_err;
        rc = err->code ? err->code : BB_EXIT_RUNTIME;
    }
    cluster_reduce(snap, &sums, res->rank_rows_per_s, res->rank_rows, BB_MAX_RANKS, &rc, err);
    res->ranks = p->nranks > 1 ? p->nranks : 0;
    res->events = (int64_t)snap->events;
    res->bytes = (int64_t)snap->bytes;
    res->errors = (int64_t)snap->errors;
    res->committed = sums.committed;
    res->rows_in_doubt = sums.in_doubt;
    res->reconnects = sums.reconnects;
    /* rows: committed rows, unless a warm-up wrote rows that must not count */
    res->rows = p->warmup_s > 0 ? (int64_t)snap->rows : res->committed;
    res->seconds = sums.seconds;
    res->client_cpu_s = sums.client_cpu_s;
    result_latency(res, snap);
    if (p->latency_hist) result_keep_hist(res, snap);
    free(snap);
    return rc;
}

/* What the script declared and measured, for the result. */
static void script_figures(lua_State *L, bb_result *res)
{
    host_ctx *hc = host_get(L);
    res->nopts = hc->nopts;
    res->opt_name = (const char *const *)hc->opt_name;
    res->opt_value = (const char *const *)hc->opt_value;
    for (int i = 0; i < hc->nmetrics; i++) res->metric[i] = hc->metric[i];
    res->nmetrics = hc->nmetrics;
}

int runner_run(lua_State *L, bb_plan *p, bb_result *res, bb_err *err)
{
    result_init(res);
    fill_identity(res, p);
    bb_run r = { .plan = p, .cli = host_get(L)->cli, .values = vset_reg_new() };
    bind_setup_state(L, p, r.values);
    int lead = p->rank == 0, rc = BB_EXIT_OK, strat_on = 0;
    bb_servers sv;
    if (servers_open(&sv, p, err) < 0 || (lead && set_up(&sv, L, p, &r.prepared, err) < 0) ||
        (lead && strategy_before(&sv, L, p, res, &strat_on, err) < 0))
        rc = err->code ? err->code : BB_EXIT_RUNTIME;
    if ((rc = cluster_agree(rc, err)) == 0) {
        trace("server costs before");
        servers_snapshot(&sv, p, 0);
        trace("workers start");
        start_workers(&r, &sv);
        double cpu0 = sysmon_self_cpu(), m0 = sv.measure_cpu_s;
        char tname[256];
        const char *table = main_table(L, tname, sizeof tname);
        measure(&r, &sv, table, res);
        rc = collect(&r, cpu0, sv.measure_cpu_s - m0 + res->waits.cpu_s, res, err);
        if (res->seconds > 0 && p->threads > 0) {
            bottleneck_name(&res->waits, res->client_cpu_s / (res->seconds * p->threads));
            bottleneck_paced(&res->waits, "--rate", p->rate, (double)res->events / res->seconds, "/s");
        }
        if (sv.admin) res->measure_cpu_s = sv.measure_cpu_s;
        trace("table size");
        servers_costs(&sv, p, table, res);
        if (lead && strat_on) rc = strategy_after(&sv, L, res, rc, err), strat_on = 0;
        if (rc == BB_EXIT_OK && lead) rc = verify(&sv, L, p, res, err);
        trace("done");
    }
    if (lead && strat_on) rc = strategy_after(&sv, L, res, rc, err); /* the run never started */
    if (lead && r.prepared) rc = tear_down(&sv, L, p, rc, err);
    if (rc != BB_EXIT_OK) { /* a failed run names no bottleneck: what it waited on was not a load's shape */
        snprintf(res->error, sizeof res->error, "%s", err->msg);
        res->waits.samples = 0;
        res->waits.kind[0] = 0;
    }
    script_figures(L, res);
    pool_free(&r.pool);
    free(r.workers);
    servers_close(&sv, L, p);
    host_get(L)->plan = NULL;
    host_get(L)->values = NULL;
    vset_reg_free(r.values);
    return rc;
}
