/* runcmd.c — `bulkbench run SCRIPT.lua`: the script loaded once, the sweep built, each
 * combination run (runner.c) and reported as it finishes; exit codes. */
#include "runcmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../base/buf.h"
#include "../../base/err.h"
#include "../core/cluster.h"
#include "../core/opts.h"
#include "../core/result.h"
#include "../core/sig.h"
#include "../core/sysmon.h"
#include "../host/host.h"
#include "../host/lib.h"
#include "../host/runner.h"
#include "../host/state.h"
#include "output.h"
#include "sweep.h"

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

/* The plan of one combination: the sweep's dimensions plus the options every run shares. */
static void plan_of(bb_plan *p, const sweep_combo *c, bb_cli *cli, const host_ctx *hc)
{
    memset(p, 0, sizeof *p);
    p->drv = c->drv;
    p->dsn = c->dsn;
    p->method = c->method;
    p->threads = c->threads;
    p->batch = c->batch;
    p->target = c->target;
    p->rows = (int64_t)num_opt(cli, "rows");
    p->events = (int64_t)num_opt(cli, "events");
    p->time_s = num_opt(cli, "time");
    if (!p->rows && !p->events && p->time_s <= 0) p->time_s = 10; /* like sysbench: ten seconds by default */
    p->rate = num_opt(cli, "rate");
    p->warmup_s = num_opt(cli, "warmup");
    p->reconnect = (int)num_opt(cli, "reconnect");
    p->report_interval = num_opt(cli, "report-interval");
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

/* Runs every combination of the sweep; returns the exit code of the first that fails. */
static int run_all(bb_cli *cli, lua_State *L, host_ctx *hc, const sweep *s, const char *script, const char *src,
                   size_t srclen)
{
    bb_err err = { .code = BB_EXIT_RUNTIME };
    char **done = opts_is_on(opts_get(cli, "resume")) ? sweep_done_keys(opts_get(cli, "out")) : NULL;
    sysmon_host host;
    sysmon_host_info(&host);

    char scen[128];
    scenario_name(script, scen, sizeof scen);
    bb_result *results = bb_xcalloc((size_t)s->n + 1, sizeof *results);
    int nres = 0, rc = BB_EXIT_OK, csv_header = 0, lead = cluster_rank() == 0;
    for (int k = 0; k < s->n && rc == BB_EXIT_OK; k++) {
        const sweep_combo *c = &s->combo[k];
        if (sig_caught()) { /* between runs: the next one must not even recreate its table */
            rc = 128 + sig_caught();
            if (lead && strcmp(opts_get(cli, "format"), "text") == 0) result_print_table(stdout, results, nres);
            if (lead) fprintf(stderr, "bulkbench: interrupted before run %d of %d\n", k + 1, s->n);
            break;
        }
        char *key =
            sweep_key(scen, c, hc->nopts, (const char *const *)hc->opt_name, (const char *const *)hc->opt_value);
        int skip = sweep_has_key(done, key);
        free(key);
        if ((s->n > 1 || skip) && lead)
            fprintf(stderr, "run %d/%d: engine=%s method=%s threads=%d batch=%lld%s%s%s\n", k + 1, s->n, c->drv->name,
                    c->method ? c->method : "-", c->threads, (long long)c->batch, c->target ? " target=" : "",
                    c->target ? c->target : "", skip ? " (done in --out, skipped)" : "");
        if (skip) continue;
        bb_plan p;
        plan_of(&p, c, cli, hc);
        p.script = script;
        p.script_src = src;
        p.script_len = srclen;
        p.scenario = scen;
        bb_result *res = &results[nres++];
        bb_err rerr = { .code = BB_EXIT_RUNTIME };
        rc = runner_run(L, &p, res, &rerr);
        if (!lead) continue;
        if (output_result(cli, res, &host, &csv_header, &err) < 0) {
            output_fail(&err);
            rc = rc ? rc : BB_EXIT_RUNTIME;
        }
        if (rc != BB_EXIT_OK) {
            if (strcmp(opts_get(cli, "format"), "text") == 0) result_print_table(stdout, results, nres);
            if (rc >= 128)
                fprintf(stderr, "bulkbench: interrupted; %lld rows were committed\n", (long long)res->committed);
            else output_fail(&rerr);
            if (rc == BB_EXIT_RUNTIME)
                fprintf(stderr, "bulkbench: %lld rows were committed before the run stopped\n",
                        (long long)res->committed);
            if (res->rows_in_doubt)
                fprintf(stderr,
                        "bulkbench: %lld more rows were being committed when the connection was lost: the server "
                        "may have committed them, so the table holds %lld to %lld rows\n",
                        (long long)res->rows_in_doubt, (long long)res->committed,
                        (long long)(res->committed + res->rows_in_doubt));
            break;
        }
    }
    if (lead && rc == BB_EXIT_OK && strcmp(opts_get(cli, "format"), "text") == 0)
        result_print_table(stdout, results, nres);
    for (int i = 0; done && done[i]; i++) free(done[i]);
    free(done);
    free(results);
    return rc;
}

int runcmd_main(bb_cli *cli)
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
    if (opts_check_common(cli, &err) < 0) return output_fail(&err);
    const char *fmt = opts_get(cli, "format");
    if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "csv")) {
        bb_usagef(&err, "--format=%s: a run reports as text, json or csv", fmt);
        return output_fail(&err);
    }

    host_ctx hc = { .cli = cli,
                    .setup = 1,
                    .seed = (uint64_t)strtoull(opts_get(cli, "seed"), NULL, 10),
                    .now_s = (int64_t)time(NULL) };
    if (opts_now(cli, &hc.now_s, &err) < 0) return output_fail(&err);
    cluster_bcast(&hc.now_s, sizeof hc.now_s); /* every rank generates the same "now" */
    char *src = NULL;
    size_t srclen = 0;
    lua_State *L = NULL;
    sweep s = { 0 };
    int rc;
    if (host_read_script(script, &src, &srclen, &err) < 0) {
        rc = output_fail(&err);
        goto out;
    }
    L = state_new(&hc, script, &err);
    if (!L || host_run_source(L, src, srclen, script, &err) < 0) {
        rc = output_fail(&err);
        goto out;
    }
    if (opts_check_unused(cli, (const char *const *)hc.declared, &err) < 0) {
        rc = output_fail(&err);
        goto out;
    }
    if (!lib_has_work(L)) {
        bb_errf(&err, "%s defines neither event(ctx) nor run(ctx): nothing to run", script);
        rc = output_fail(&err);
        goto out;
    }
    if (sweep_build(cli, &s, &err) < 0) {
        rc = output_fail(&err);
        goto out;
    }
    rc = run_all(cli, L, &hc, &s, script, src, srclen);
out:
    sweep_free(&s);
    free(src);
    state_close(L);
    for (int i = 0; i < hc.ndeclared; i++) free(hc.declared[i]);
    free(hc.declared);
    for (int i = 0; i < hc.nopts; i++) {
        free(hc.opt_name[i]);
        free(hc.opt_value[i]);
    }
    free(hc.opt_name);
    free(hc.opt_value);
    return rc;
}
