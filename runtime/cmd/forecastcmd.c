/* forecastcmd.c — `bulkbench forecast SCRIPT.lua --rows=N`: how long the load of N rows takes,
 * from a part of it. The load runs as `run` would run it, its table's growth sampled
 * (core/run/growth.h), until the forecast of the whole (core/run/scale_model.h) says the part
 * measured is a fifth of it; the load stops there and the forecast is given with its
 * interval and the model's figures (docs/scale.md). */
#include "command.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/clock.h"
#include "../../base/err.h"
#include "../core/run/result.h"
#include "../core/run/scale_model.h"
#include "../core/run/sysmon.h"
#include "../host/runner.h"
#include "output.h"
#include "runcmd.h"
#include "sweep.h"

/* The part measured stops once it is this share of the forecast: a fifth, so that the whole
 * command (the table made, the rows in flight finished, the process) stays within a quarter. */
#define FC_SHARE 0.2
/* ... and not before this many seconds and samples: a rate needs a few windows of rows. */
#define FC_MIN_S 3.0
#define FC_MIN_POINTS 8

typedef struct fc_ctx {
    int64_t rows;
    scale_prior prior;
    double said_at; /* when the last progress line was printed */
    int progress;
} fc_ctx;

/* On the monitor's thread, at each sample: the forecast so far, and whether to stop. */
static int fc_watch(void *ud, const bb_growth *g)
{
    fc_ctx *x = ud;
    scale_fit f;
    if (g->n < FC_MIN_POINTS || g->v[g->n - 1].t < FC_MIN_S || scale_forecast(g, x->rows, &x->prior, &f) < 0)
        return 0;
    if (x->progress && f.spent_s - x->said_at >= 10) {
        x->said_at = f.spent_s;
        fprintf(stderr, "forecast: %lld rows in %.0f s so far: %.0f s for %lld (%s)\n", (long long)f.measured_rows,
                f.spent_s, f.seconds, (long long)x->rows, scale_state_name(f.state));
    }
    return f.spent_s >= FC_SHARE * f.seconds;
}

/* What the server's memory is, before the run: its cgroup's limit when it runs here. */
static void fc_prior(const bb_driver *d, const char *dsn, scale_prior *pr)
{
    pr->memory_limit = pr->host_memory = -1;
    bb_target *t;
    bb_conn *c;
    bb_err err;
    if (d->target_open(dsn, &t, &err) < 0) return;
    bb_server_info si;
    memset(&si, 0, sizeof si);
    if (d->connect(t, &c, &err) == 0) {
        if (d->server_info(c, &si, &err) == 0 && si.local_pid > 0) {
            sysmon_host h;
            sysmon_host_info(&h);
            pr->memory_limit = sysmon_memory_limit(si.local_pid);
            pr->host_memory = h.memory_bytes;
        }
        d->disconnect(c);
    }
    d->target_close(t);
}

static void fc_text(const scale_fit *f, const bb_result *r)
{
    printf("forecast: %lld rows in %.0f s (%.0f to %.0f s, %.0f%% interval), %.0f rows/s on average\n",
           (long long)f->rows, f->seconds, f->lo, f->hi, f->level * 100, (double)f->rows / f->seconds);
    printf("measured: %lld rows in %.1f s (%.0f%% of the rows, %.0f%% of the forecast time), %s %s, %d thread%s\n",
           (long long)f->measured_rows, f->spent_s, 100.0 * (double)f->measured_rows / (double)f->rows,
           100 * f->spent_s / f->seconds, r->engine, r->method, r->threads, r->threads == 1 ? "" : "s");
    printf("model: %s; a row %.1f us while the indexes fit", scale_state_name(f->state), f->row_s * 1e6);
    if (f->state != SCALE_IN_MEMORY) {
        if (f->by_reads)
            printf("; past %.2fM rows up to %.2f reads a row, %.0f us a read (%s)", f->knee_rows / 1e6, f->k,
                   f->read_s * 1e6, f->read_measured ? "measured" : "assumed");
        else
            printf("; past %.2fM rows up to %.1f us more a row (the server counts no reads)", f->knee_rows / 1e6,
                   f->k * f->read_s * 1e6);
    }
    printf("\nrate: %.0f rows/s now, %.0f rows/s at %lld rows\n", f->rows_per_s_now, f->rows_per_s_end,
           (long long)f->rows);
}

static void fc_json(const scale_fit *f, const bb_result *r)
{
    json_t *o = json_object(), *iv = json_array();
    json_object_set_new(o, "rows", json_integer(f->rows));
    json_object_set_new(o, "seconds", json_real(f->seconds));
    json_array_append_new(iv, json_real(f->lo));
    json_array_append_new(iv, json_real(f->hi));
    json_object_set_new(o, "interval", iv);
    json_object_set_new(o, "level", json_real(f->level));
    json_object_set_new(o, "measured_rows", json_integer(f->measured_rows));
    json_object_set_new(o, "spent_s", json_real(f->spent_s));
    json_object_set_new(o, "model", forecast_model_json(f));
    json_object_set_new(o, "scenario", json_string(r->scenario));
    json_object_set_new(o, "engine", json_string(r->engine));
    json_object_set_new(o, "method", json_string(r->method));
    json_object_set_new(o, "threads", json_integer(r->threads));
    json_object_set_new(o, "memory_limit_bytes", r->memory_limit < 0 ? json_null() : json_integer(r->memory_limit));
    json_object_set_new(o, "growth", growth_json(&r->growth));
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    printf("%s\n", s);
    free(s);
    json_decref(o);
}

/* The part of the load, run as `run` runs it but stopped by fc_watch; its result in r. */
static int fc_run(bb_cli *cli, run_script *rs, const sweep_combo *c, fc_ctx *x, bb_result *r, bb_err *err)
{
    bb_plan p;
    runcmd_plan(&p, c, cli, &rs->hc);
    char scen[128];
    runcmd_scenario(rs->path, scen, sizeof scen);
    p.script = rs->path;
    p.script_src = rs->src;
    p.script_len = rs->srclen;
    p.scenario = scen;
    p.time_s = 0;
    p.progress = 0;
    p.report_interval = 0;
    p.growth_watch = fc_watch;
    p.growth_ud = x;
    x->rows = p.rows;
    fc_prior(c->drv, c->dsn, &x->prior);
    return runner_run(rs->L, &p, r, err);
}

static int fc_check(bb_cli *cli, const sweep *s, bb_err *err)
{
    if (!opts_given(cli, "rows")) return bb_usagef(err, "forecast needs --rows=N: the rows of the load to forecast");
    if (s->n != 1)
        return bb_usagef(err, "forecast takes one configuration, not %d: give one --engine, --method, --threads and "
                              "--batch",
                         s->n);
    if (!s->combo[0].method)
        return bb_usagef(err, "forecast needs a load: the script writes through event(), give it a table (bb.load)");
    return 0;
}

static int forecast_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (cli->npos < 1) {
        bb_usagef(&err, "forecast needs a script: bulkbench forecast SCRIPT.lua --rows=N [options]");
        return output_fail(&err);
    }
    run_script rs = { .path = cli->pos[0] };
    sweep s = { 0 };
    bb_result r;
    result_init(&r);
    fc_ctx x = { .progress = opts_get(cli, "progress") ? opts_is_on(opts_get(cli, "progress")) : 0 };
    int rc = runcmd_load(cli, rs.path, &rs, &err) < 0 || sweep_build(cli, &s, &err) < 0 || fc_check(cli, &s, &err) < 0
        ? output_fail(&err)
        : fc_run(cli, &rs, &s.combo[0], &x, &r, &err);
    if (rc == BB_EXIT_OK) {
        scale_fit f;
        if (scale_forecast(&r.growth, x.rows, &x.prior, &f) < 0) {
            bb_errf(&err, "the load ended after %lld rows and %.1f s: too little to forecast from (%d samples of its "
                          "table)",
                    (long long)r.rows, r.seconds, r.growth.n);
            err.code = BB_EXIT_RUNTIME;
            rc = output_fail(&err);
        } else if (strcmp(opts_get(cli, "format"), "json") == 0) fc_json(&f, &r);
        else fc_text(&f, &r);
    } else if (rc != BB_EXIT_USAGE) {
        rc = output_fail(&err);
    }
    result_free(&r);
    sweep_free(&s);
    runcmd_unload(&rs);
    return rc;
}

// clang-format off
static const opt_use forecast_opts[] = {
    { "engine", "the engine (one); pg and mysql tell their tables' sizes and reads, the others only the rows", NULL, "E" },
    { "dsn", NULL, NULL, "DSN" },
    { "method", "the load's method (one)", NULL, "M" },
    { "threads", "the load's threads (one)", NULL, "N" },
    { "batch", "the load's batch (one)", NULL, "N" },
    { "rows", "the rows of the whole load, whose time is forecast (required)", NULL, NULL },
    { "set", "a session setting of the load (one value)", NULL, "NAME=V" },
    { "seed", NULL, NULL, NULL },
    { "now", NULL, NULL, "TIME" },
    { "format", "how the forecast prints: text, or one JSON object {rows, seconds, interval, level, measured_rows, spent_s, model}", "text", "FORMAT" },
    { "progress", "a line every 10 s of the measured part on standard error: the forecast so far", NULL, NULL },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command forecast_command = {
    "forecast",
    "SCRIPT.lua --rows=N [options] [script options]",
    "how long the load of N rows takes, from a part of it (at most a fifth of the time forecast): the time, its "
    "interval and the model's figures",
    "bulkbench forecast workloads/quickstart.lua --engine=sqlite --rows=2000000",
    forecast_opts,
    NULL,
    forecast_main,
    CMD_SIGNALS | CMD_SCRIPT,
};
