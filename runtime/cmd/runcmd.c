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

const char *runcmd_scenario(const char *path, char *buf, size_t n)
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

/* A finished point on standard output (json, csv) and in --out; src: the script's text, which
 * goes into --out with this result unless the file holds it already (once per file). */
static int output_result(bb_cli *cli, const bb_result *r, const sysmon_host *h, int *csv_header, const char *src,
                         bb_err *err)
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
    if (!out) return 0;
    bb_result w = *r;
    if (src && r->scenario_sha256[0] && !result_file_has_text(out, r->scenario_sha256)) w.scenario_text = src;
    if (result_append_jsonl(out, &w, h) < 0) return bb_errf(err, "cannot append to results file %s", out);
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
    int skip;   /* done in --out already (--resume) */
    int failed; /* a run of it failed: its result is that run's, and it runs no more */
    bb_result res;
} point;

/* A sweep as it runs: its points, the results finished (in order, failed ones too), and how
 * it goes so far. */
typedef struct sweep_run {
    const run_ctx *x;
    point *pts;
    int n;
    bb_result *done;
    int ndone;
    sysmon_host host;
    char scen[128];
    int warm, repeats, rounds, todo, nrun, lead, csv_header, said, text_out;
    int ok, failed;  /* points finished and points failed */
    int fail_code;   /* the first failed point's exit code */
    int rc;          /* set: the sweep stops (a signal, --fail-fast, an unwritable --out) */
    double last_eps; /* the last run's events/s, for the slow-run failpoint */
} sweep_run;

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

/* Every threshold on every successful result; BB_EXIT_THRESHOLD when one fails. */
static int check_thresholds(const run_ctx *x, const bb_result *done, int ndone, const sysmon_host *host)
{
    FILE *f = strcmp(opts_get(x->cli, "format"), "text") == 0 ? stdout : stderr;
    int failed = 0, checked = 0;
    for (int i = 0; i < ndone; i++) {
        if (done[i].error[0]) continue; /* a failed point has no figures to hold against a threshold */
        char who[160];
        snprintf(who, sizeof who, "%s %s threads=%d batch=%lld", done[i].engine,
                 done[i].method[0] ? done[i].method : "event", done[i].threads, (long long)done[i].batch);
        for (int t = 0; t < x->nth; t++, checked++)
            failed += !threshold_check(&x->th[t], &done[i], host, ndone > 1 ? who : NULL, f);
    }
    fflush(f);
    if (!failed) return BB_EXIT_OK;
    bb_err e;
    bb_errf(&e, "%d of %d threshold checks failed", failed, checked);
    e.code = BB_EXIT_THRESHOLD;
    return output_fail(&e);
}

/* The points of the sweep, those --resume finds done in --out marked to skip. */
static void sweep_run_init(sweep_run *sr, const run_ctx *x, const sweep *s)
{
    bb_cli *cli = x->cli;
    memset(sr, 0, sizeof *sr);
    sr->x = x;
    sr->n = s->n;
    sysmon_host_info(&sr->host);
    sr->repeats = atoi(opts_get(cli, "repeat"));
    sr->warm = atoi(opts_get(cli, "warmup-runs"));
    sr->rounds = sr->warm + sr->repeats;
    sr->lead = cluster_rank() == 0;
    runcmd_scenario(x->script, sr->scen, sizeof sr->scen);
    sr->pts = bb_xcalloc((size_t)s->n + 1, sizeof *sr->pts);
    sr->done = bb_xcalloc((size_t)s->n + 1, sizeof *sr->done);
    char **keys = opts_is_on(opts_get(cli, "resume")) ? sweep_done_keys(opts_get(cli, "out")) : NULL;
    for (int k = 0; k < s->n; k++) {
        sr->pts[k].c = &s->combo[k];
        char *key = sweep_key(sr->scen, sr->pts[k].c, x->hc->nopts, (const char *const *)x->hc->opt_name,
                              (const char *const *)x->hc->opt_value);
        sr->pts[k].skip = sweep_has_key(keys, key);
        sr->todo += !sr->pts[k].skip;
        free(key);
    }
    for (int i = 0; keys && keys[i]; i++) free(keys[i]);
    free(keys);
}

/* "run 3/12: engine=pg method=copy ..." on standard error, when there is more than one run. */
static void announce(const sweep_run *sr, const point *pt, int round)
{
    const sweep_combo *c = pt->c;
    char when[48] = "";
    if (round < sr->warm) snprintf(when, sizeof when, " (warm-up run %d/%d)", round + 1, sr->warm);
    else if (sr->repeats > 1) snprintf(when, sizeof when, " (repeat %d/%d)", round - sr->warm + 1, sr->repeats);
    if (!sr->lead || (sr->todo * sr->rounds <= 1 && !pt->skip) || (pt->skip && round > 0)) return;
    fprintf(stderr, "run %d/%d: engine=%s method=%s threads=%d batch=%lld%s%s%s%s", pt->skip ? 0 : sr->nrun + 1,
            sr->todo * sr->rounds, c->drv->name, c->method ? c->method->name : "-", c->threads, (long long)c->batch,
            c->target ? " target=" : "", c->target ? c->target : "", c->strategy ? " strategy=" : "",
            c->strategy ? c->strategy : "");
    for (int i = 0; i < c->nset; i++) fprintf(stderr, " %s=%s", c->set_name[i], c->set_value[i]);
    fprintf(stderr, "%s%s\n", pt->skip ? " (done in --out, skipped)" : "", when);
}

/* A finished point's result: written (json, csv, --out) and kept for the table. */
static void point_done(sweep_run *sr, const bb_result *res)
{
    bb_err err = { .code = BB_EXIT_RUNTIME };
    sr->done[sr->ndone++] = *res;
    /* the script's text goes into --out once: with the first result, unless the file holds it */
    if (output_result(sr->x->cli, res, &sr->host, &sr->csv_header, sr->text_out ? NULL : sr->x->src, &err) < 0)
        sr->rc = output_fail(&err);
    sr->text_out = 1;
}

/* A failed run: the point's result is that run (rows/s null, its error), written at once; the
 * sweep goes on unless it was interrupted or --fail-fast asks it to stop. The error is said
 * once: in the table's row under --format=text, on standard error otherwise. */
static void point_failed(sweep_run *sr, point *pt, bb_result *run, int rc, const bb_err *rerr)
{
    pt->failed = 1;
    result_free(&pt->res); /* the runs before it (--repeat) say nothing of a point that fails */
    pt->res = *run;
    /* every rank stops where rank 0 does (their runs agreed on rc): interrupted, or --fail-fast */
    if (rc >= 128 || opts_is_on(opts_get(sr->x->cli, "fail-fast"))) sr->rc = rc;
    if (!sr->lead) return;
    sr->failed++;
    if (!sr->fail_code) sr->fail_code = rc;
    if (strcmp(opts_get(sr->x->cli, "format"), "text") != 0 || rc >= 128) output_fail_message(rerr);
    if (run->rows_in_doubt)
        fprintf(stderr,
                "bulkbench: %lld more rows were being committed when the connection was lost: the server "
                "may have committed them, so the table holds %lld to %lld rows\n",
                (long long)run->rows_in_doubt, (long long)run->committed,
                (long long)(run->committed + run->rows_in_doubt));
    point_done(sr, &pt->res);
}

/* One run of point pt in round `round`: planned, run, and its result folded into the point's. */
static void run_point(sweep_run *sr, point *pt, int round)
{
    const run_ctx *x = sr->x;
    bb_plan p;
    runcmd_plan(&p, pt->c, x->cli, x->hc);
    p.script = x->script;
    p.script_src = x->src;
    p.script_len = x->srclen;
    p.scenario = sr->scen;
    double slow = failpoint_rate(++sr->nrun, sr->last_eps);
    if (slow > 0) p.rate = slow;
    bb_result run;
    bb_err rerr = { .code = BB_EXIT_RUNTIME };
    int rc = runner_run(x->L, &p, &run, &rerr);
    sr->last_eps = result_events_per_s(&run);
    if (rc != BB_EXIT_OK) {
        point_failed(sr, pt, &run, rc, &rerr);
        return;
    }
    if (!sr->lead || round < sr->warm) { /* a warm-up run: ran and verified, not counted */
        result_free(&run);
        return;
    }
    note_rows_ran_out(x->cli, &p, &run, &sr->said);
    if (sr->repeats == 1) pt->res = run;
    else repeat_add(&pt->res, &run, sr->repeats, sr->warm);
    if (round < sr->rounds - 1) return;
    repeat_finish(&pt->res, x->hc->seed);
    sr->ok++;
    point_done(sr, &pt->res);
}

/* After the table, when a point failed or the sweep was cut short: how many points ran, which
 * failed (their errors are in their rows, or were said as they failed), what they committed,
 * and what to do. Returns the exit code: the first failed point's. */
static int say_failures(const sweep_run *sr)
{
    int code = sr->rc ? sr->rc : sr->fail_code;
    const bb_result *last = sr->ndone ? &sr->done[sr->ndone - 1] : NULL;
    if (code >= 128) {
        if (last && last->error[0])
            fprintf(stderr, "bulkbench: interrupted; %lld rows were committed\n", (long long)last->committed);
    } else if (sr->todo <= 1 && last && last->error[0]) {
        if (code == BB_EXIT_RUNTIME)
            fprintf(stderr, "bulkbench: %lld rows were committed before the run stopped\n", (long long)last->committed);
    } else {
        bb_buf b = { 0 };
        for (int i = 0, k = 0; i < sr->ndone; i++) {
            const bb_result *r = &sr->done[i];
            if (!r->error[0]) continue;
            char who[256];
            result_who(r, who, sizeof who);
            bb_buf_printf(&b, "%s%s", k++ ? "; " : "", who);
            if (r->committed > 0) bb_buf_printf(&b, " (%lld rows committed before it stopped)", (long long)r->committed);
        }
        bb_buf_putc(&b, 0);
        int left = sr->todo - sr->ok - sr->failed;
        fprintf(stderr, "bulkbench: %d of %d points ran; %d failed: %s\n", sr->ok, sr->todo, sr->failed, b.p);
        if (left > 0 && opts_is_on(opts_get(sr->x->cli, "fail-fast")))
            fprintf(stderr, "bulkbench: --fail-fast: the sweep stopped at its first failure; %d point%s did not run\n",
                    left, left == 1 ? "" : "s");
        free(b.p);
    }
    return output_hint(code, sr->todo > 1 && code < 128);
}

/* The end of a sweep: the table (or openmetrics), the runs' warnings, the failures, the
 * thresholds on the points that ran, and the page. Returns the exit code. */
static int sweep_finish(sweep_run *sr)
{
    const run_ctx *x = sr->x;
    const char *fmt = opts_get(x->cli, "format");
    int rc = BB_EXIT_OK;
    if (!sr->lead) return sr->rc ? sr->rc : sr->fail_code;
    print_done(fmt, sr->done, sr->ndone);
    if (strcmp(fmt, "text") != 0) result_print_warnings(stderr, sr->done, sr->ndone);
    fflush(stdout); /* the table before the messages under it */
    if (sr->failed || sr->rc >= 128) rc = say_failures(sr);
    else if (sr->rc) rc = sr->rc; /* an unwritable --out: said when it happened */
    if (x->nth && sr->ok) {
        int trc = check_thresholds(x, sr->done, sr->ndone, &sr->host);
        if (rc == BB_EXIT_OK) rc = trc;
    }
    fflush(stdout);
    if (sr->ndone && opts_get(x->cli, "html")) rc = write_html(x->cli, sr->done, sr->ndone, &sr->host, rc);
    return rc;
}

/* Runs every point of the sweep --warmup-runs + --repeat times, round-robin: each round
 * runs every point once, so drift over time spreads evenly over the points. A point's
 * result is written after its last run, or at once when a run of it fails; the sweep goes on
 * past a failed point (not with --fail-fast) and its exit code says that some failed.
 * Returns the exit code. */
static int run_all(const run_ctx *x, const sweep *s)
{
    sweep_run sr;
    sweep_run_init(&sr, x, s);
    for (int round = 0; round < sr.rounds && !sr.rc; round++) {
        for (int k = 0; k < s->n && !sr.rc; k++) {
            point *pt = &sr.pts[k];
            if (pt->failed) continue;
            if (sig_caught()) { /* between runs: the next one must not even recreate its table */
                sr.rc = 128 + sig_caught();
                if (sr.lead) fprintf(stderr, "bulkbench: interrupted before run %d of %d\n", sr.nrun + 1,
                                     sr.todo * sr.rounds);
                break;
            }
            announce(&sr, pt, round);
            if (!pt->skip) run_point(&sr, pt, round);
        }
    }
    int rc = sweep_finish(&sr);
    for (int k = 0; k < s->n; k++) result_free(&sr.pts[k].res); /* done[] holds copies of these */
    free(sr.pts);
    free(sr.done);
    return rc;
}

/* A script that loads a table by bb.load and names no method: each
 * engine's own default method (its descriptor's), as a bb.defaults per engine would give. */
static void default_methods(bb_cli *cli)
{
    if (opts_get(cli, "method")) return;
    for (int i = 0; bb_drivers[i]; i++) {
        char key[64];
        snprintf(key, sizeof key, "method@%s", bb_drivers[i]->name);
        if (!opts_get(cli, key) && bb_drivers[i]->default_method) opts_set_default(cli, key, bb_drivers[i]->default_method);
    }
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
    if (lib_loads_table(rs->L)) default_methods(cli);
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
        if (s.skipped.len && cluster_rank() == 0)
            fprintf(stderr, "bulkbench: skipped %s: each engine runs the methods of --method it offers\n", s.skipped.p);
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
static const opt_def fail_fast = { "fail-fast", OT_BOOL, NULL, 0, 0, "stop the sweep at its first failed point (without it the sweep goes on and exits 1 at the end)" };
static const opt_def *const run_own[] = { &report_opt_html, &fail_fast, NULL };

static const opt_use run_opts[] = {
    { "engine", NULL, NULL, "E[,E..]" },
    { "dsn", NULL, NULL, "DSN" },
    { "threads", NULL, NULL, "N[,N..]" },
    { "batch", NULL, NULL, "N[,N..]" },
    { "method", NULL, NULL, "M[,M..]" },
    { "strategy", NULL, NULL, "S[,S..]" },
    { "rows", "rows to write in all (bulk methods), or events for event() scripts; like every count it takes k, M, G (10k, 1.5M)", NULL, NULL },
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
    { "fail-fast", NULL, NULL, NULL },
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
