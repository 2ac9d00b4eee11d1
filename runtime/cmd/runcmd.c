/* runcmd.c — `bulkbench run SCRIPT.lua`: the script loaded once, the sweep built, each
 * combination run (runner.c) --repeat times, interleaved, and reported after its last run;
 * thresholds; exit codes. */
#include "command.h"
#include "runcmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../base/buf.h"
#include "../../base/err.h"
#include "../core/run/cluster.h"
#include "../core/run/diagnose.h"
#include "../core/method/method.h"
#include "../core/opts.h"
#include "../core/run/result.h"
#include "../core/sig.h"
#include "../core/run/sysmon.h"
#include "../host/host.h"
#include "../host/lib.h"
#include "../host/runner.h"
#include "../host/state.h"
#include "../core/run/repeat.h"
#include "openmetrics.h"
#include "output.h"
#include "sweep.h"
#include "threshold.h"

static const char *scenario_name(const char *path, char *buf, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(buf, n, "%s", b);
    char *dot = strrchr(buf, '.');
    if (dot && strcmp(dot, ".lua") == 0) *dot = 0;
    return buf;
}

static double num_opt(bb_cli *cli, const char *name)
{
    const char *v = opts_get(cli, name);
    return v ? strtod(v, NULL) : 0;
}

static int output_result(bb_cli *cli, const bb_result *r, const sysmon_host *h, int *csv_header, bb_err *err)
{
    const char *fmt = opts_get(cli, "format"), *out = opts_get(cli, "out");
    if (strcmp(fmt, "json") == 0) {
        char *s = result_json(r, h);
        printf("%s\n", s);
        free(s);
    } else if (strcmp(fmt, "csv") == 0) {
        result_print_csv(stdout, r, !*csv_header);
        *csv_header = 1;
    }
    fflush(stdout);
    if (out && result_append_jsonl(out, r, h) < 0) return bb_errf(err, "cannot append to results file %s", out);
    return 0;
}

/* --html=FILE: a page that cannot be written is said before the runs, not after them. */
static int html_writable(const char *path, bb_err *err)
{
    int existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) return bb_usagef(err, "--html: cannot write %s: %s", path, strerror(errno));
    fclose(f);
    if (!existed) remove(path);
    return 0;
}

/* --html=FILE: the page of the points finished (lua/report/html.lua); the exit code, rc when it was written. */
static int write_html(bb_cli *cli, const bb_result *done, int ndone, const sysmon_host *h, int rc)
{
    char **texts = bb_xcalloc((size_t)ndone + 1, sizeof *texts);
    for (int i = 0; i < ndone; i++) texts[i] = result_json(&done[i], h);
    bb_err err = { .code = BB_EXIT_RUNTIME };
    if (lib_html(cli, (const char *const *)texts, ndone, &err) < 0) {
        int code = output_fail(&err);
        if (rc == BB_EXIT_OK) rc = code;
    }
    for (int i = 0; i < ndone; i++) free(texts[i]);
    free(texts);
    return rc;
}

void runcmd_plan(bb_plan *p, const sweep_combo *c, bb_cli *cli, const host_ctx *hc)
{
    memset(p, 0, sizeof *p);
    p->drv = c->drv;
    p->dsn = c->dsn;
    p->method = c->method;
    p->threads = c->threads;
    p->batch = c->batch;
    p->target = c->target;
    p->strategy = c->strategy;
    p->rows = (int64_t)num_opt(cli, "rows");
    p->events = (int64_t)num_opt(cli, "events");
    p->time_s = num_opt(cli, "time");
    if (!p->rows && !p->events && p->time_s <= 0) p->time_s = 10; /* like sysbench: ten seconds by default */
    p->rate = num_opt(cli, "rate");
    p->warmup_s = num_opt(cli, "warmup");
    p->reconnect = (int)num_opt(cli, "reconnect");
    p->report_interval = opts_get(cli, "report-interval") ? num_opt(cli, "report-interval") : -1;
    p->latency_hist = opts_is_on(opts_get(cli, "latency-hist"));
    p->waits_hz = diagnose_hz(opts_get(cli, "waits"));
    p->seed = hc->seed;
    p->now_s = hc->now_s;
    p->progress = opts_get(cli, "progress") ? opts_is_on(opts_get(cli, "progress")) : -1;
    p->nsettings = c->nset;
    for (int i = 0; i < c->nset; i++) {
        p->set_name[i] = c->set_name[i];
        p->set_value[i] = c->set_value[i];
        p->set_global[i] = c->set_global[i];
    }
    p->ndsn = opts_all(cli, "dsn", p->dsns, BB_MAX_HOSTS);
    if (p->ndsn < 2) p->ndsn = 0; /* one server: c->dsn, which may come from the environment or --target */
    p->shared = opts_is_on(opts_get(cli, "shared"));
    p->rank = cluster_rank();
    p->nranks = cluster_size();
    if (p->rank != 0) { /* rank 0 reports for all */
        p->progress = 0;
        p->report_interval = 0;
    }
}

/* What run_all needs besides the sweep: the command line, the set-up state, the script. */
typedef struct run_ctx {
    bb_cli *cli;
    lua_State *L;
    host_ctx *hc;
    const char *script, *src;
    size_t srclen;
    const bb_threshold *th;
    int nth;
} run_ctx;

/* One point of the sweep: its combination and, as its runs come in, its result. */
typedef struct point {
    const sweep_combo *c;
    int skip; /* done in --out already (--resume) */
    bb_result res;
} point;

/* Test failpoint BULKBENCH_FAILPOINT=slow-run:K:RATE: the K-th run of the process (from 1,
 * warm-up runs included) is paced at RATE events/s, as under --rate, so a test can make one
 * run of a point slow and see the spread and the warnings it causes; slow-run:K:xF paces it
 * at 1/F of the events/s the run before it made, so it is F times slower than its neighbours
 * however fast or busy the machine is (last_eps: that run's, 0 before the first). */
static double failpoint_rate(int nrun, double last_eps)
{
    const char *f = getenv("BULKBENCH_FAILPOINT");
    int k;
    double rate;
    if (f && sscanf(f, "slow-run:%d:x%lf", &k, &rate) == 2)
        return k == nrun && rate > 0 && last_eps > 0 ? last_eps / rate : 0;
    if (f && sscanf(f, "slow-run:%d:%lf", &k, &rate) == 2 && k == nrun && rate > 0) return rate;
    return 0;
}

/* The points finished so far, as the chosen format prints them on standard output
 * (json and csv were written as each point finished). */
static void print_done(const char *fmt, const bb_result *done, int ndone)
{
    if (strcmp(fmt, "text") == 0) result_print_table(stdout, done, ndone);
    if (strcmp(fmt, "openmetrics") == 0) openmetrics_print(stdout, done, ndone);
}

/* A failed run ends the sweep: its result, the table so far, and what to do about it. */
static void report_failure(const run_ctx *x, bb_result *done, int ndone, const bb_result *res, int rc,
                           const bb_err *rerr)
{
    const char *fmt = opts_get(x->cli, "format");
    done[ndone++] = *res;
    print_done(fmt, done, ndone);
    fflush(stdout); /* the table before the messages under it */
    if (rc >= 128) fprintf(stderr, "bulkbench: interrupted; %lld rows were committed\n", (long long)res->committed);
    else output_fail(rerr);
    if (rc == BB_EXIT_RUNTIME)
        fprintf(stderr, "bulkbench: %lld rows were committed before the run stopped\n", (long long)res->committed);
    if (res->rows_in_doubt)
        fprintf(stderr,
                "bulkbench: %lld more rows were being committed when the connection was lost: the server "
                "may have committed them, so the table holds %lld to %lld rows\n",
                (long long)res->rows_in_doubt, (long long)res->committed,
                (long long)(res->committed + res->rows_in_doubt));
}

/* --time=S while the rows come from the script's defaults: the run ends when they run out,
 * perhaps long before S. Said once a sweep, so a short run is not taken for the time asked. */
static void note_rows_ran_out(bb_cli *cli, const bb_plan *p, const bb_result *run, int *said)
{
    if (*said || p->time_s <= 0 || p->rows <= 0 || opts_given(cli, "rows")) return;
    if (run->rows < p->rows || run->seconds >= p->time_s * 0.98) return; /* the clock or something else stopped it */
    *said = 1;
    fprintf(stderr,
            "bulkbench: note: the run ended after %.1f s of --time=%g: the %lld rows of the script's default --rows "
            "ran out; give --rows=N (more than it can load in %g s) to run for the whole time\n",
            run->seconds, p->time_s, (long long)p->rows, p->time_s);
}

/* Every threshold on every result; BB_EXIT_THRESHOLD when one fails. */
static int check_thresholds(const run_ctx *x, const bb_result *done, int ndone, const sysmon_host *host)
{
    FILE *f = strcmp(opts_get(x->cli, "format"), "text") == 0 ? stdout : stderr;
    int failed = 0;
    for (int i = 0; i < ndone; i++) {
        char who[160];
        snprintf(who, sizeof who, "%s %s threads=%d batch=%lld", done[i].engine,
                 done[i].method[0] ? done[i].method : "event", done[i].threads, (long long)done[i].batch);
        for (int t = 0; t < x->nth; t++)
            failed += !threshold_check(&x->th[t], &done[i], host, ndone > 1 ? who : NULL, f);
    }
    fflush(f);
    if (!failed) return BB_EXIT_OK;
    bb_err e;
    bb_errf(&e, "%d of %d threshold checks failed", failed, x->nth * ndone);
    e.code = BB_EXIT_THRESHOLD;
    return output_fail(&e);
}

/* Runs every point of the sweep --warmup-runs + --repeat times, round-robin: each round
 * runs every point once, so drift over time spreads evenly over the points. A point's
 * result is written after its last run; the first failing run ends the sweep. Returns the
 * exit code. */
static int run_all(const run_ctx *x, const sweep *s)
{
    bb_cli *cli = x->cli;
    bb_err err = { .code = BB_EXIT_RUNTIME };
    char **keys = opts_is_on(opts_get(cli, "resume")) ? sweep_done_keys(opts_get(cli, "out")) : NULL;
    sysmon_host host;
    sysmon_host_info(&host);
    const char *fmt = opts_get(cli, "format");
    int repeats = atoi(opts_get(cli, "repeat")), warm = atoi(opts_get(cli, "warmup-runs")), rounds = warm + repeats;

    char scen[128];
    scenario_name(x->script, scen, sizeof scen);
    point *pts = bb_xcalloc((size_t)s->n + 1, sizeof *pts);
    bb_result *done = bb_xcalloc((size_t)s->n + 1, sizeof *done); /* finished points, in order */
    int ndone = 0, rc = BB_EXIT_OK, csv_header = 0, lead = cluster_rank() == 0, todo = 0, nrun = 0, said = 0;
    int html_done = 0;   /* the page was written with a failed run's result */
    double last_eps = 0; /* the last run's events/s, for the slow-run failpoint */
    for (int k = 0; k < s->n; k++) {
        pts[k].c = &s->combo[k];
        char *key = sweep_key(scen, pts[k].c, x->hc->nopts, (const char *const *)x->hc->opt_name,
                              (const char *const *)x->hc->opt_value);
        pts[k].skip = sweep_has_key(keys, key);
        todo += !pts[k].skip;
        free(key);
    }
    for (int round = 0; round < rounds && rc == BB_EXIT_OK; round++) {
        for (int k = 0; k < s->n && rc == BB_EXIT_OK; k++) {
            const sweep_combo *c = pts[k].c;
            if (sig_caught()) { /* between runs: the next one must not even recreate its table */
                rc = 128 + sig_caught();
                if (lead) print_done(fmt, done, ndone);
                if (lead) fprintf(stderr, "bulkbench: interrupted before run %d of %d\n", nrun + 1, todo * rounds);
                break;
            }
            char when[48] = "";
            if (round < warm) snprintf(when, sizeof when, " (warm-up run %d/%d)", round + 1, warm);
            else if (repeats > 1) snprintf(when, sizeof when, " (repeat %d/%d)", round - warm + 1, repeats);
            if ((todo * rounds > 1 || pts[k].skip) && lead && (!pts[k].skip || round == 0))
                fprintf(stderr, "run %d/%d: engine=%s method=%s threads=%d batch=%lld%s%s%s%s%s%s\n",
                        pts[k].skip ? 0 : nrun + 1, todo * rounds, c->drv->name, c->method ? c->method->name : "-",
                        c->threads, (long long)c->batch, c->target ? " target=" : "", c->target ? c->target : "",
                        c->strategy ? " strategy=" : "", c->strategy ? c->strategy : "",
                        pts[k].skip ? " (done in --out, skipped)" : "", when);
            if (pts[k].skip) continue;
            bb_plan p;
            runcmd_plan(&p, c, cli, x->hc);
            p.script = x->script;
            p.script_src = x->src;
            p.script_len = x->srclen;
            p.scenario = scen;
            double slow = failpoint_rate(++nrun, last_eps);
            if (slow > 0) p.rate = slow;
            bb_result run;
            bb_err rerr = { .code = BB_EXIT_RUNTIME };
            rc = runner_run(x->L, &p, &run, &rerr);
            last_eps = result_events_per_s(&run);
            if (!lead) {
                result_free(&run);
                continue;
            }
            if (rc != BB_EXIT_OK) {
                if (output_result(cli, &run, &host, &csv_header, &err) < 0) output_fail(&err);
                report_failure(x, done, ndone, &run, rc, &rerr);
                if (opts_get(cli, "html")) { /* the page says why the run failed, as the table did */
                    done[ndone] = run;
                    rc = write_html(cli, done, ndone + 1, &host, rc);
                    html_done = 1;
                }
                result_free(&run);
                break;
            }
            note_rows_ran_out(cli, &p, &run, &said);
            if (round < warm) { /* ran and verified, not counted */
                result_free(&run);
                continue;
            }
            if (repeats == 1) pts[k].res = run;
            else repeat_add(&pts[k].res, &run, repeats, warm);
            if (round < rounds - 1) continue;
            repeat_finish(&pts[k].res, x->hc->seed);
            done[ndone++] = pts[k].res;
            if (output_result(cli, &pts[k].res, &host, &csv_header, &err) < 0) rc = output_fail(&err);
        }
    }
    if (lead && rc == BB_EXIT_OK) print_done(fmt, done, ndone);
    if (lead && rc == BB_EXIT_OK && strcmp(fmt, "text") != 0) result_print_warnings(stderr, done, ndone);
    if (lead && rc == BB_EXIT_OK && x->nth) rc = check_thresholds(x, done, ndone, &host);
    fflush(stdout);
    if (lead && ndone && !html_done && opts_get(cli, "html")) rc = write_html(cli, done, ndone, &host, rc);
    for (int i = 0; keys && keys[i]; i++) free(keys[i]);
    free(keys);
    for (int k = 0; k < s->n; k++) result_free(&pts[k].res); /* done[] holds copies of these */
    free(pts);
    free(done);
    return rc;
}

int runcmd_load(bb_cli *cli, const char *path, run_script *rs, bb_err *err)
{
    rs->path = path;
    rs->hc.cli = cli;
    rs->hc.setup = 1;
    rs->hc.seed = (uint64_t)strtoull(opts_get(cli, "seed"), NULL, 10);
    rs->hc.now_s = (int64_t)time(NULL);
    if (opts_now(cli, &rs->hc.now_s, err) < 0) return -1;
    cluster_bcast(&rs->hc.now_s, sizeof rs->hc.now_s); /* every rank generates the same "now" */
    if (host_read_script(path, &rs->src, &rs->srclen, err) < 0) return -1;
    rs->L = state_new(&rs->hc, path, err);
    if (!rs->L || host_run_source(rs->L, rs->src, rs->srclen, path, err) < 0) return -1;
    if (opts_check_unused(cli, (const char *const *)rs->hc.declared, err) < 0) return -1;
    if (!lib_has_work(rs->L)) return bb_errf(err, "%s defines neither event(ctx) nor run(ctx): nothing to run", path);
    return 0;
}

void runcmd_unload(run_script *rs)
{
    free(rs->src);
    state_close(rs->L); /* frees what the set-up state recorded in rs->hc */
    memset(rs, 0, sizeof *rs);
}

static int run_sweep(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (cli->npos < 1) {
        bb_usagef(&err, "run needs a script: bulkbench run SCRIPT.lua [options]");
        return output_fail(&err);
    }
    if (cli->npos > 1) {
        bb_usagef(&err, "unexpected argument '%s' (options are --name=value)", cli->pos[1]);
        return output_fail(&err);
    }
    const char *script = cli->pos[0];
    if (opts_get(cli, "html") && html_writable(opts_get(cli, "html"), &err) < 0) return output_fail(&err);
    output_set_command(cli);
    const char *fmt = opts_get(cli, "format");
    if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "csv") && strcmp(fmt, "openmetrics")) {
        bb_usagef(&err, "--format=%s: a run reports as text, json, csv or openmetrics", fmt);
        return output_fail(&err);
    }
    const char *texts[64];
    bb_threshold th[64];
    int nth = opts_all(cli, "threshold", texts, 64);
    for (int i = 0; i < nth; i++)
        if (threshold_parse(texts[i], &th[i], &err) < 0) return output_fail(&err);

    run_script rs = { 0 };
    sweep s = { 0 };
    int rc;
    if (runcmd_load(cli, script, &rs, &err) < 0 || sweep_build(cli, &s, &err) < 0) rc = output_fail(&err);
    else {
        run_ctx x = { cli, rs.L, &rs.hc, script, rs.src, rs.srclen, th, nth };
        rc = run_all(&x, &s);
    }
    sweep_free(&s);
    runcmd_unload(&rs);
    return rc;
}

/* Under mpirun (make MPI=1) every rank runs the same sweep in step; otherwise a no-op. */
static int run_main(bb_cli *cli)
{
    cluster_init();
    int rc = run_sweep(cli);
    cluster_finish();
    return rc;
}

// clang-format off
static const opt_def *const run_own[] = { &report_opt_html, NULL };

static const opt_use run_opts[] = {
    { "engine", NULL, NULL, "E[,E..]" },
    { "dsn", NULL, NULL, "DSN" },
    { "threads", NULL, NULL, "N[,N..]" },
    { "batch", NULL, NULL, "N[,N..]" },
    { "method", NULL, NULL, "M[,M..]" },
    { "strategy", NULL, NULL, "S[,S..]" },
    { "rows", "rows to write in all (bulk methods), or events for event() scripts", NULL, NULL },
    { "events", NULL, NULL, NULL },
    { "time", NULL, NULL, "SECONDS" },
    { "rate", NULL, NULL, NULL },
    { "warmup", NULL, NULL, "SECONDS" },
    { "report-interval", NULL, NULL, "SECONDS" },
    { "repeat", NULL, NULL, NULL },
    { "warmup-runs", NULL, NULL, NULL },
    { "threshold", NULL, NULL, "EXPR" },
    { "latency-hist", NULL, NULL, NULL },
    { "waits", NULL, "on", "on|off|HZ" },
    { "seed", NULL, NULL, NULL },
    { "now", NULL, NULL, "TIME" },
    { "format", "how results print: text, json, csv or openmetrics", "text", "FORMAT" },
    { "out", NULL, NULL, "FILE.jsonl" },
    { "set", NULL, NULL, "NAME=V[,V..]" },
    { "set-global", NULL, NULL, "NAME=V[,V..]" },
    { "target", NULL, NULL, "NAME=DSN" },
    { "shared", NULL, NULL, NULL },
    { "reconnect", NULL, NULL, NULL },
    { "resume", NULL, NULL, NULL },
    { "progress", NULL, NULL, NULL },
    { "html", "also write the page of this run's results (tables, charts, timelines, CDFs, environment) into this self-contained HTML file", NULL, "FILE" },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command run_command = {
    "run",
    "SCRIPT.lua [options] [script options]",
    "run a scenario: every combination of the comma lists given, each verified against the table",
    "bulkbench run workloads/quickstart.lua --method=txn,multirow --batch=100,1000 --rows=20000 --out=results.jsonl",
    run_opts,
    run_own,
    run_main,
    CMD_SIGNALS | CMD_SCRIPT,
};
