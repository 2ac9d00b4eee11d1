/* output.c — a result as JSON (one object a line for --out) and CSV, and failures as they are
 * said; its text table is output_text.c's. */
#include "output.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../base/buf.h"
#include "../core/run/cluster.h"
#include "../core/run/stats.h"
#include "../../base/err.h"

#ifndef BB_VERSION
#define BB_VERSION "dev"
#endif

static char *command_line; /* output_set_command's */

/* The DSN value v with its password as "***", whatever its length: a URI's user:PASS@,
 * libpq's password=PASS and an ODBC connection string's PWD=PASS; or Password=PASS; (any
 * case). A fresh string. */
static char *mask_secrets(const char *v)
{
    char *s = bb_redacted(v, v);
    bb_buf b = { 0 };
    for (const char *p = s; *p;) {
        size_t k = !strncasecmp(p, "pwd=", 4) ? 4 : !strncasecmp(p, "password=", 9) ? 9 : 0;
        if (!k || (p > s && isalnum((unsigned char)p[-1]))) {
            bb_buf_putc(&b, *p++);
            continue;
        }
        bb_buf_put(&b, p, k);
        p += k;
        size_t n = strcspn(p, "; ");
        if (n) bb_buf_puts(&b, "***");
        p += n;
    }
    bb_buf_putc(&b, 0);
    free(s);
    return b.p;
}

/* arg as a shell word: bare when it is plain, else in single quotes */
static void shell_word(bb_buf *b, const char *arg)
{
    int plain = *arg != 0;
    for (const char *c = arg; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("_-./:=,@%+", *c)) plain = 0;
    if (plain) {
        bb_buf_puts(b, arg);
        return;
    }
    bb_buf_putc(b, '\'');
    for (const char *c = arg; *c; c++) {
        if (*c == '\'') bb_buf_puts(b, "'\\''");
        else bb_buf_putc(b, *c);
    }
    bb_buf_putc(b, '\'');
}

/* whether arg is --dsn or --target (one dash or two), alone or with its =value */
static int is_dsn_option(const char *a)
{
    if (*a++ != '-') return 0;
    if (*a == '-') a++;
    size_t n = !strncmp(a, "dsn", 3) ? 3 : !strncmp(a, "target", 6) ? 6 : 0;
    return n && (a[n] == 0 || a[n] == '=');
}

void output_set_command(const bb_cli *cli)
{
    bb_buf b = { 0 };
    bb_buf_puts(&b, "bulkbench ");
    bb_buf_puts(&b, cli->cmd);
    for (int i = 0; i < cli->argc; i++) {
        const char *a = cli->argv[i], *prev = i > 0 ? cli->argv[i - 1] : "";
        /* --dsn=V, --target=NAME=V, or their value as the next argument */
        char *v = is_dsn_option(a) || (is_dsn_option(prev) && !strchr(prev, '=')) ? mask_secrets(a) : bb_xstrdup(a);
        bb_buf_putc(&b, ' ');
        shell_word(&b, v);
        free(v);
    }
    free(command_line);
    bb_buf_putc(&b, 0);
    command_line = b.p;
}

static json_t *num_or_null(double v) { return v < 0 ? json_null() : json_real(v); }
static json_t *int_or_null(int64_t v) { return v < 0 ? json_null() : json_integer(v); }

/* what one server of a host list, or one node of a cluster, cost */
static void host_cost_json(json_t *h, const bb_host_cost *c)
{
    json_object_set_new(h, "cpu_s", num_or_null(c->cpu_s));
    json_object_set_new(h, "rss_growth_bytes", c->rss_growth == -1 ? json_null() : json_integer(c->rss_growth));
    json_object_set_new(h, "log_bytes", int_or_null(c->log_bytes));
    json_object_set_new(h, "redo_bytes", int_or_null(c->redo_bytes));
    json_object_set_new(h, "table_bytes", int_or_null(c->table_bytes));
}
static json_t *str_or_null(const char *s) { return s && *s ? json_string(s) : json_null(); }

/* "waits" {event: share} and "bottleneck" {kind, evidence, ...} (docs/diagnosis.md); null when not sampled. */
static void waits_json(json_t *o, const bb_waits *w)
{
    if (w->samples <= 0) {
        json_object_set_new(o, "waits", json_null());
        json_object_set_new(o, "bottleneck", json_null());
        return;
    }
    json_t *ws = json_object();
    for (int i = 0; i < w->nevents; i++)
        json_object_set_new(ws, w->event[i], json_real(round(w->share[i] * 1e4) / 1e4));
    json_object_set_new(o, "waits", ws);
    json_t *b = json_object();
    json_object_set_new(b, "kind", str_or_null(w->kind));
    json_object_set_new(b, "evidence", str_or_null(w->evidence));
    json_object_set_new(b, "samples", json_integer(w->samples));
    json_object_set_new(b, "hz", json_real(round(w->hz * 10) / 10));
    json_object_set_new(b, "log_flushes", int_or_null(w->log_syncs));
    json_object_set_new(b, "checkpoints", int_or_null(w->checkpoints));
    json_object_set_new(b, "sampler_cpu_s", json_real(round(w->cpu_s * 1e6) / 1e6));
    json_object_set_new(o, "bottleneck", b);
}

static json_t *intervals_json(const bb_series *s)
{
    json_t *a = json_array();
    for (int i = 0; i < s->n; i++) {
        const bb_interval *iv = &s->v[i];
        json_t *o = json_object();
        json_object_set_new(o, "t", json_real(iv->t));
        json_object_set_new(o, "rows", json_integer(iv->rows));
        json_object_set_new(o, "events", json_integer(iv->events));
        json_object_set_new(o, "rows_per_s", json_real(iv->rows_per_s));
        json_object_set_new(o, "events_per_s", json_real(iv->events_per_s));
        json_object_set_new(o, "mb_per_s", json_real(iv->mb_per_s));
        json_object_set_new(o, "p50_ms", num_or_null(iv->p50_ms));
        json_object_set_new(o, "p95_ms", num_or_null(iv->p95_ms));
        json_object_set_new(o, "p99_ms", num_or_null(iv->p99_ms));
        json_object_set_new(o, "errors", json_integer(iv->errors));
        if (s->server) {
            json_object_set_new(o, "log_bytes", int_or_null(iv->log_bytes));
            json_object_set_new(o, "server_cpu_s", num_or_null(iv->server_cpu_s));
        }
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *summary_json(const bb_summary *s)
{
    if (!s->n) return json_null();
    json_t *o = json_object(), *ci = json_array();
    json_object_set_new(o, "median", json_real(s->median));
    json_object_set_new(o, "min", json_real(s->min));
    json_object_set_new(o, "max", json_real(s->max));
    json_object_set_new(o, "stddev", num_or_null(s->stddev));
    json_object_set_new(o, "cv", num_or_null(s->cv));
    json_object_set_new(o, "mad", json_real(s->mad));
    json_array_append_new(ci, json_real(s->lo));
    json_array_append_new(ci, json_real(s->hi));
    json_object_set_new(o, "ci95", ci);
    json_object_set_new(o, "ci_level", json_real(s->level)); /* what ci95 really holds: 0.75 for 3 runs */
    return o;
}

/* --repeat: how many runs, each counted run's figures, and their spread. */
static void repeat_json(json_t *o, const bb_repeat *rep)
{
    json_object_set_new(o, "repeats", json_integer(rep->repeats));
    json_object_set_new(o, "warmup_runs", json_integer(rep->warmup_runs));
    json_t *runs = json_array();
    for (int i = 0; i < rep->n; i++) {
        const bb_run_figs *f = &rep->runs[i];
        json_t *x = json_object();
        json_object_set_new(x, "rows_per_s", num_or_null(f->rows_per_s));
        json_object_set_new(x, "seconds", json_real(f->seconds));
        json_object_set_new(x, "p50_ms", num_or_null(f->p50));
        json_object_set_new(x, "p99_ms", num_or_null(f->p99));
        json_object_set_new(x, "rows", json_integer(f->rows));
        json_object_set_new(x, "outlier", json_boolean(f->outlier));
        if (f->intervals.n) json_object_set_new(x, "intervals", intervals_json(&f->intervals));
        json_array_append_new(runs, x);
    }
    json_object_set_new(o, "runs", runs);
    json_t *st = json_object();
    json_object_set_new(st, "rows_per_s", summary_json(&rep->rows_per_s));
    json_object_set_new(st, "seconds", summary_json(&rep->seconds));
    json_object_set_new(st, "p50_ms", summary_json(&rep->p50));
    json_object_set_new(st, "p99_ms", summary_json(&rep->p99));
    json_object_set_new(o, "stats", st);
}

/* Non-empty buckets with their exact bounds: histograms of runs or ranks merge by adding
 * the counts of equal buckets. */
static json_t *hist_json(const uint64_t *hist)
{
    json_t *o = json_object(), *b = json_array();
    json_object_set_new(o, "unit", json_string("ns"));
    for (unsigned i = 0; i < STATS_NBUCKETS; i++) {
        if (!hist[i]) continue;
        uint64_t lo, hi;
        stats_bucket_range(i, &lo, &hi);
        json_t *x = json_array();
        json_array_append_new(x, json_integer((json_int_t)lo));
        json_array_append_new(x, json_integer((json_int_t)hi));
        json_array_append_new(x, json_integer((json_int_t)hist[i]));
        json_array_append_new(b, x);
    }
    json_object_set_new(o, "buckets", b);
    return o;
}

char *result_json(const bb_result *r, const sysmon_host *h)
{
    json_t *o = result_object(r, h);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    return s;
}

/* What ran: the scenario (and which text of it), engine, method, threads, batch. */
static void identity_json(json_t *o, const bb_result *r)
{
    json_object_set_new(o, "scenario", json_string(r->scenario));
    json_object_set_new(o, "scenario_sha256", str_or_null(r->scenario_sha256));
    json_object_set_new(o, "engine", json_string(r->engine));
    json_object_set_new(o, "method", str_or_null(r->method));
    json_object_set_new(o, "threads", json_integer(r->threads));
    json_object_set_new(o, "batch", int_or_null(r->batch));
}

/* How much went in and how fast: counts, seconds, rates (null for a failed run), the
 * strategy's phases, latency, errors, the client's CPU. */
static void figures_json(json_t *o, const bb_result *r)
{
    json_object_set_new(o, "rows", json_integer(r->rows));
    json_object_set_new(o, "rows_in_doubt", json_integer(r->rows_in_doubt));
    json_object_set_new(o, "reconnects", json_integer(r->reconnects));
    if (r->rows_rejected >= 0) json_object_set_new(o, "rows_rejected", json_integer(r->rows_rejected));
    json_object_set_new(o, "bytes", json_integer(r->bytes));
    json_object_set_new(o, "events", json_integer(r->events));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "rows_per_s", num_or_null(result_rows_per_s(r)));
    json_object_set_new(o, "strategy", json_string(r->strategy[0] ? r->strategy : "none"));
    if (r->strategy_skipped[0]) json_object_set_new(o, "strategy_skipped", json_string(r->strategy_skipped));
    if (r->strategy_gives_up[0]) json_object_set_new(o, "gives_up", json_string(r->strategy_gives_up));
    json_t *ph = json_object(); /* rows_per_s is over all three */
    json_object_set_new(ph, "before_s", json_real(r->before_s));
    json_object_set_new(ph, "load_s", json_real(r->seconds));
    json_object_set_new(ph, "after_s", json_real(r->after_s));
    json_object_set_new(o, "phases", ph);
    json_object_set_new(o, "events_per_s", num_or_null(result_events_per_s(r)));
    json_object_set_new(o, "mb_per_s", num_or_null(result_mb_per_s(r)));
    json_t *lat = json_object();
    json_object_set_new(lat, "p50", num_or_null(r->p50));
    json_object_set_new(lat, "p95", num_or_null(r->p95));
    json_object_set_new(lat, "p99", num_or_null(r->p99));
    json_object_set_new(lat, "max", num_or_null(r->max));
    json_object_set_new(o, "latency_ms", lat);
    json_object_set_new(o, "errors", json_integer(r->errors));
    json_object_set_new(o, "client_cpu_s", num_or_null(r->client_cpu_s));
    json_object_set_new(o, "measure_cpu_s", num_or_null(r->measure_cpu_s));
}

/* "server": what the run cost it, its version and write-path settings. */
static json_t *server_json(const bb_result *r)
{
    json_t *srv = json_object();
    json_object_set_new(srv, "cpu_s", num_or_null(r->server_cpu_s));
    json_object_set_new(srv, "rss_growth_bytes", r->rss_growth == -1 ? json_null() : json_integer(r->rss_growth));
    json_object_set_new(srv, "log_bytes", int_or_null(r->log_bytes));
    json_object_set_new(srv, "redo_bytes", int_or_null(r->redo_bytes));
    json_object_set_new(srv, "table_bytes", int_or_null(r->table_bytes));
    json_object_set_new(srv, "version", str_or_null(r->version));
    json_t *settings = r->settings[0] ? json_loads(r->settings, 0, NULL) : NULL;
    json_object_set_new(srv, "settings", settings ? settings : json_null());
    growth_server_json(srv, r);
    return srv;
}

/* "tls": whether the session to the server was encrypted, by which protocol and cipher;
 * null where that cannot be measured (an engine with no network, a run that never connected). */
static json_t *tls_json(const bb_result *r)
{
    if (r->tls_on < 0) return json_null();
    json_t *t = json_object();
    json_object_set_new(t, "on", json_boolean(r->tls_on));
    json_object_set_new(t, "version", str_or_null(r->tls_version));
    json_object_set_new(t, "cipher", str_or_null(r->tls_cipher));
    return t;
}

/* "host": the client machine. */
static json_t *host_json(const sysmon_host *h)
{
    json_t *host = json_object();
    json_object_set_new(host, "cpu", str_or_null(h->cpu));
    json_object_set_new(host, "cores", json_integer(h->cores));
    json_object_set_new(host, "memory_bytes", json_integer(h->memory_bytes));
    json_object_set_new(host, "kernel", str_or_null(h->kernel));
    json_object_set_new(host, "free_page_reporting",
                        h->free_page_reporting < 0 ? json_null() : json_boolean(h->free_page_reporting));
    return host;
}

/* An object of names and values (a --set's, the script's options), or NULL for none. */
static json_t *pairs_json(int n, const char *const *names, const char *const *values)
{
    if (!n) return NULL;
    json_t *o = json_object();
    for (int i = 0; i < n; i++) json_object_set_new(o, names[i], json_string(values[i]));
    return o;
}

/* The point's dimensions beyond the sweep's lists (set, target, the script's options) and
 * what the script measured itself. */
static void dims_json(json_t *o, const bb_result *r)
{
    const char *sn[BB_MAX_SETTINGS], *sv[BB_MAX_SETTINGS];
    for (int i = 0; i < r->nset; i++) sn[i] = r->set_name[i], sv[i] = r->set_value[i];
    if (r->nset) json_object_set_new(o, "set", pairs_json(r->nset, sn, sv));
    if (r->target[0]) json_object_set_new(o, "target", json_string(r->target));
    if (r->nopts) json_object_set_new(o, "options", pairs_json(r->nopts, r->opt_name, r->opt_value));
    if (r->nmetrics) {
        json_t *m = json_object();
        for (int i = 0; i < r->nmetrics; i++) json_object_set_new(m, r->metric[i].name, json_real(r->metric[i].value));
        json_object_set_new(o, "metrics", m);
    }
}

/* A host list's servers (which workers went where, each one's costs), a cluster's nodes, MPI's ranks. */
static void spread_json(json_t *o, const bb_result *r)
{
    json_t *hs = json_array(), *ns = json_array();
    for (int k = 0; k < r->nhosts; k++) {
        json_t *h = json_object(), *ws = json_array();
        int n = r->ranks ? r->ranks : r->threads;
        for (int i = k; i < n; i += r->nhosts) json_array_append_new(ws, json_integer(i));
        json_object_set_new(h, "dsn", json_string(r->host[k].where));
        json_object_set_new(h, r->ranks ? "ranks" : "workers", ws);
        host_cost_json(h, &r->host[k]);
        json_array_append_new(hs, h);
    }
    for (int k = 0; k < r->nnodes; k++) { /* listed as a host list lists its servers */
        json_t *h = json_object();
        json_object_set_new(h, "dsn", json_string(r->node[k].where));
        json_object_set_new(h, "role", json_string(r->node[k].role));
        host_cost_json(h, &r->node[k]);
        json_array_append_new(ns, h);
    }
    json_object_set_new(o, "hosts", hs);
    json_object_set_new(o, "nodes", ns);
    if (!r->nhosts) json_object_del(o, "hosts");
    if (!r->nnodes) json_object_del(o, "nodes");
    if (!r->ranks) return;
    json_t *rr = json_array(), *rw = json_array();
    for (int i = 0; i < r->ranks && i < BB_MAX_RANKS; i++) {
        json_array_append_new(rr, json_real(r->rank_rows_per_s[i]));
        json_array_append_new(rw, json_integer(r->rank_rows[i]));
    }
    json_object_set_new(o, "ranks", json_integer(r->ranks));
    json_object_set_new(o, "rank_rows_per_s", rr);
    json_object_set_new(o, "rank_rows", rw);
}

json_t *result_object(const bb_result *r, const sysmon_host *h)
{
    json_t *o = json_object();
    identity_json(o, r);
    figures_json(o, r);
    waits_json(o, &r->waits);
    json_object_set_new(o, "server", server_json(r));
    json_object_set_new(o, "driver", str_or_null(r->driver));
    json_object_set_new(o, "tls", tls_json(r));
    json_object_set_new(o, "verified_rows", int_or_null(r->verified_rows));
    json_object_set_new(o, "started_at", json_string(r->started_at));
    json_object_set_new(o, "host", host_json(h));
    json_object_set_new(o, "version", json_string(BB_VERSION));
    if (command_line) json_object_set_new(o, "command", json_string(command_line));
    dims_json(o, r);
    spread_json(o, r);
    if (r->rep) repeat_json(o, r->rep);
    if (r->intervals.n) json_object_set_new(o, "intervals", intervals_json(&r->intervals));
    json_object_set_new(o, "growth", growth_json(&r->growth));
    if (r->hist) json_object_set_new(o, "latency_hist", hist_json(r->hist));
    if (r->error[0]) json_object_set_new(o, "error", json_string(r->error));
    if (r->scenario_text) json_object_set_new(o, "scenario_text", json_string(r->scenario_text));
    return o;
}

int result_file_has_text(const char *path, const char *sha256)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char *line = NULL, want[96];
    size_t cap = 0;
    int found = 0;
    snprintf(want, sizeof want, "\"scenario_sha256\":\"%s\"", sha256);
    while (!found && getline(&line, &cap, f) > 0) found = strstr(line, want) && strstr(line, "\"scenario_text\":");
    free(line);
    fclose(f);
    return found;
}

int result_append_jsonl(const char *path, const bb_result *r, const sysmon_host *h)
{
    FILE *f = fopen(path, "a");
    if (!f) return -1;
    char *s = result_json(r, h);
    int rc = fprintf(f, "%s\n", s) < 0 ? -1 : 0;
    free(s);
    if (fclose(f) != 0) rc = -1;
    return rc;
}

/* A field as it is, or quoted by libcsv when it holds a comma, a quote or a line end. */
static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) csv_fwrite(f, s, strlen(s));
    else fputs(s, f);
}

void result_print_csv(FILE *f, const bb_result *r, int header)
{
    if (header)
        fputs("scenario,engine,method,threads,batch,rows,bytes,seconds,rows_per_s,mb_per_s,p50_ms,p95_ms,p99_ms,max_ms,"
              "errors,client_cpu_s,server_cpu_s,server_rss_growth_bytes,server_log_bytes,server_table_bytes,"
              "server_version,driver,verified_rows,started_at,error\n",
              f);
    char b[12][32];
    double v[] = { result_rows_per_s(r), result_mb_per_s(r), r->p50, r->p95, r->p99, r->max,
                   r->client_cpu_s,      r->server_cpu_s };
    for (int i = 0; i < 8; i++) {
        if (v[i] < 0) b[i][0] = 0;
        else snprintf(b[i], sizeof b[i], "%.6g", v[i]);
    }
    int64_t iv[] = { r->rss_growth, r->log_bytes, r->table_bytes, r->verified_rows };
    for (int i = 0; i < 4; i++) {
        if (iv[i] == -1) b[8 + i][0] = 0;
        else snprintf(b[8 + i], sizeof b[8 + i], "%lld", (long long)iv[i]);
    }
    csv_field(f, r->scenario);
    fprintf(f, ",%s,%s,%d,", r->engine, r->method, r->threads);
    if (r->batch >= 0) fprintf(f, "%lld", (long long)r->batch);
    fprintf(f, ",%lld,%lld,%.6f,%s,%s,%s,%s,%s,%s,%lld,%s,%s,%s,%s,%s,", (long long)r->rows, (long long)r->bytes,
            r->seconds, b[0], b[1], b[2], b[3], b[4], b[5], (long long)r->errors, b[6], b[7], b[8], b[9], b[10]);
    csv_field(f, r->version);
    fputc(',', f);
    csv_field(f, r->driver);
    fprintf(f, ",%s,%s,", b[11], r->started_at);
    csv_field(f, r->error);
    fputc('\n', f);
}

/* Prints a failure and returns its exit code; every non-zero exit says what to do next. */
static const char *usage_cmd;
static int usage_script;

void output_usage_hint(const char *cmd, int script)
{
    usage_cmd = cmd;
    usage_script = script;
}

void output_fail_message(const bb_err *e)
{
    if (cluster_rank() == 0) fprintf(stderr, "bulkbench: %s\n", e->msg);
}

int output_hint(int code, int points)
{
    if (cluster_rank() != 0) return code; /* under MPI rank 0 speaks for all: it has every rank's first error */
    switch (code) {
    case BB_EXIT_USAGE:
        if (!usage_cmd) fputs("(usage error: see `bulkbench help`)\n", stderr);
        else
            fprintf(stderr, "(usage error: see `bulkbench %s --help`%s)\n", usage_cmd,
                    usage_script ? " or `bulkbench help SCRIPT` for the script's options" : "");
        break;
    case BB_EXIT_VERIFY:
        fprintf(stderr, "(verification failed%s: why is said above)\n",
                points ? " in a point of the sweep" : "");
        break;
    case BB_EXIT_THRESHOLD: fputs("(a threshold or comparison failed: the figures are above)\n", stderr); break;
    case 128 + 2:
    case 128 + 15: fputs("(interrupted: what was committed is counted above)\n", stderr); break;
    default:
        if (points)
            fputs("(points of the sweep failed: fix the causes named above and run them again; with --out, "
                  "--resume runs only the points not yet done)\n",
                  stderr);
        else fputs("(the run failed: fix the cause named above and run again)\n", stderr);
        break;
    }
    return code;
}

int output_fail(const bb_err *e)
{
    int code = e->code ? e->code : BB_EXIT_RUNTIME;
    output_fail_message(e);
    return output_hint(code, 0);
}
