/* output.c — a result as JSON (one object a line for --out), a text table and CSV. */
#include "output.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cluster.h"
#include "../../base/err.h"

#ifndef BB_VERSION
#define BB_VERSION "dev"
#endif

static json_t *num_or_null(double v) { return v < 0 ? json_null() : json_real(v); }
static json_t *int_or_null(int64_t v) { return v < 0 ? json_null() : json_integer(v); }
static json_t *str_or_null(const char *s) { return s && *s ? json_string(s) : json_null(); }

static double per_s(double x, double s) { return s > 0 ? x / s : -1; }

char *result_json(const bb_result *r, const sysmon_host *h)
{
    json_t *o = json_object();
    json_object_set_new(o, "scenario", json_string(r->scenario));
    json_object_set_new(o, "engine", json_string(r->engine));
    json_object_set_new(o, "method", str_or_null(r->method));
    json_object_set_new(o, "threads", json_integer(r->threads));
    json_object_set_new(o, "batch", int_or_null(r->batch));
    json_object_set_new(o, "rows", json_integer(r->rows));
    json_object_set_new(o, "rows_in_doubt", json_integer(r->rows_in_doubt));
    json_object_set_new(o, "reconnects", json_integer(r->reconnects));
    if (r->rows_rejected >= 0) json_object_set_new(o, "rows_rejected", json_integer(r->rows_rejected));
    json_object_set_new(o, "bytes", json_integer(r->bytes));
    json_object_set_new(o, "events", json_integer(r->events));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "rows_per_s", num_or_null(per_s((double)r->rows, r->seconds)));
    json_object_set_new(o, "events_per_s", num_or_null(per_s((double)r->events, r->seconds)));
    json_object_set_new(o, "mb_per_s", num_or_null(per_s((double)r->bytes / 1e6, r->seconds)));
    json_t *lat = json_object();
    json_object_set_new(lat, "p50", num_or_null(r->p50));
    json_object_set_new(lat, "p95", num_or_null(r->p95));
    json_object_set_new(lat, "p99", num_or_null(r->p99));
    json_object_set_new(lat, "max", num_or_null(r->max));
    json_object_set_new(o, "latency_ms", lat);
    json_object_set_new(o, "errors", json_integer(r->errors));
    json_object_set_new(o, "client_cpu_s", num_or_null(r->client_cpu_s));
    json_t *srv = json_object();
    json_object_set_new(srv, "cpu_s", num_or_null(r->server_cpu_s));
    json_object_set_new(srv, "rss_growth_bytes", r->rss_growth == -1 ? json_null() : json_integer(r->rss_growth));
    json_object_set_new(srv, "log_bytes", int_or_null(r->log_bytes));
    json_object_set_new(srv, "redo_bytes", int_or_null(r->redo_bytes));
    json_object_set_new(srv, "table_bytes", int_or_null(r->table_bytes));
    json_object_set_new(srv, "version", str_or_null(r->version));
    json_t *settings = r->settings[0] ? json_loads(r->settings, 0, NULL) : NULL;
    json_object_set_new(srv, "settings", settings ? settings : json_null());
    json_object_set_new(o, "server", srv);
    json_object_set_new(o, "driver", str_or_null(r->driver));
    json_object_set_new(o, "verified_rows", int_or_null(r->verified_rows));
    json_object_set_new(o, "started_at", json_string(r->started_at));
    json_t *host = json_object();
    json_object_set_new(host, "cpu", str_or_null(h->cpu));
    json_object_set_new(host, "cores", json_integer(h->cores));
    json_object_set_new(host, "memory_bytes", json_integer(h->memory_bytes));
    json_object_set_new(host, "kernel", str_or_null(h->kernel));
    json_object_set_new(o, "host", host);
    json_object_set_new(o, "version", json_string(BB_VERSION));
    if (r->nset) {
        json_t *set = json_object();
        for (int i = 0; i < r->nset; i++) json_object_set_new(set, r->set_name[i], json_string(r->set_value[i]));
        json_object_set_new(o, "set", set);
    }
    if (r->target[0]) json_object_set_new(o, "target", json_string(r->target));
    if (r->nopts) {
        json_t *opts = json_object();
        for (int i = 0; i < r->nopts; i++) json_object_set_new(opts, r->opt_name[i], json_string(r->opt_value[i]));
        json_object_set_new(o, "options", opts);
    }
    if (r->nmetrics) {
        json_t *m = json_object();
        for (int i = 0; i < r->nmetrics; i++) json_object_set_new(m, r->metric[i].name, json_real(r->metric[i].value));
        json_object_set_new(o, "metrics", m);
    }
    if (r->nhosts) { /* a host list: which workers went where, and each server's costs */
        json_t *hs = json_array();
        for (int k = 0; k < r->nhosts; k++) {
            const bb_host_cost *c = &r->host[k];
            json_t *h = json_object(), *ws = json_array();
            json_object_set_new(h, "dsn", json_string(c->where));
            int n = r->ranks ? r->ranks : r->threads;
            for (int i = k; i < n; i += r->nhosts) json_array_append_new(ws, json_integer(i));
            json_object_set_new(h, r->ranks ? "ranks" : "workers", ws);
            json_object_set_new(h, "cpu_s", num_or_null(c->cpu_s));
            json_object_set_new(h, "rss_growth_bytes", c->rss_growth == -1 ? json_null() : json_integer(c->rss_growth));
            json_object_set_new(h, "log_bytes", int_or_null(c->log_bytes));
            json_object_set_new(h, "redo_bytes", int_or_null(c->redo_bytes));
            json_object_set_new(h, "table_bytes", int_or_null(c->table_bytes));
            json_array_append_new(hs, h);
        }
        json_object_set_new(o, "hosts", hs);
    }
    if (r->ranks) {
        json_object_set_new(o, "ranks", json_integer(r->ranks));
        json_t *rr = json_array();
        for (int i = 0; i < r->ranks && i < BB_MAX_RANKS; i++)
            json_array_append_new(rr, json_real(r->rank_rows_per_s[i]));
        json_object_set_new(o, "rank_rows_per_s", rr);
        json_t *rw = json_array();
        for (int i = 0; i < r->ranks && i < BB_MAX_RANKS; i++) json_array_append_new(rw, json_integer(r->rank_rows[i]));
        json_object_set_new(o, "rank_rows", rw);
    }
    if (r->error[0]) json_object_set_new(o, "error", json_string(r->error));
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    return s;
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

static void fmt_num(char *out, size_t n, double v, int prec)
{
    if (v < 0) snprintf(out, n, "null");
    else snprintf(out, n, "%.*f", prec, v);
}

void result_print_table(FILE *f, const bb_result *rs, int n)
{
    fprintf(f, "%-12s %-14s %7s %6s %10s %8s %12s %8s %9s %9s %9s %9s %6s %9s\n", "engine", "method", "threads",
            "batch", "rows", "seconds", "rows/s", "MB/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors", "verified");
    for (int i = 0; i < n; i++) {
        const bb_result *r = &rs[i];
        char batch[24], rps[24], mbs[24], p50[24], p95[24], p99[24], mx[24], ver[24];
        if (r->batch < 0) snprintf(batch, sizeof batch, "-");
        else snprintf(batch, sizeof batch, "%lld", (long long)r->batch);
        fmt_num(rps, sizeof rps, per_s((double)r->rows, r->seconds), 0);
        fmt_num(mbs, sizeof mbs, per_s((double)r->bytes / 1e6, r->seconds), 2);
        fmt_num(p50, sizeof p50, r->p50, 3);
        fmt_num(p95, sizeof p95, r->p95, 3);
        fmt_num(p99, sizeof p99, r->p99, 3);
        fmt_num(mx, sizeof mx, r->max, 3);
        if (r->verified_rows < 0) snprintf(ver, sizeof ver, "-");
        else snprintf(ver, sizeof ver, "%s", r->verified_rows == r->committed ? "ok" : "MISMATCH");
        fprintf(f, "%-12s %-14s %7d %6s %10lld %8.3f %12s %8s %9s %9s %9s %9s %6lld %9s%s%s\n", r->engine,
                r->method[0] ? r->method : "event", r->threads, batch, (long long)r->rows, r->seconds, rps, mbs, p50,
                p95, p99, mx, (long long)r->errors, ver, r->error[0] ? "  FAILED: " : "", r->error[0] ? r->error : "");
    }
}

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void result_print_csv(FILE *f, const bb_result *r, int header)
{
    if (header)
        fputs("scenario,engine,method,threads,batch,rows,bytes,seconds,rows_per_s,mb_per_s,p50_ms,p95_ms,p99_ms,max_ms,"
              "errors,client_cpu_s,server_cpu_s,server_rss_growth_bytes,server_log_bytes,server_table_bytes,"
              "server_version,driver,verified_rows,started_at,error\n",
              f);
    char b[12][32];
    double v[] = { per_s((double)r->rows, r->seconds),
                   per_s((double)r->bytes / 1e6, r->seconds),
                   r->p50,
                   r->p95,
                   r->p99,
                   r->max,
                   r->client_cpu_s,
                   r->server_cpu_s };
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
int output_fail(const bb_err *e)
{
    int code = e->code ? e->code : BB_EXIT_RUNTIME;
    if (cluster_rank() != 0) return code; /* under MPI rank 0 speaks for all: it has every rank's first error */
    fprintf(stderr, "bulkbench: %s\n", e->msg);
    switch (code) {
    case BB_EXIT_USAGE: fputs("(usage error: see `bulkbench --help` or `bulkbench help SCRIPT`)\n", stderr); break;
    case BB_EXIT_VERIFY: fputs("(verification failed: rows were lost or duplicated; see above)\n", stderr); break;
    case BB_EXIT_THRESHOLD: fputs("(a threshold or comparison failed: the figures are above)\n", stderr); break;
    case 128 + 2:
    case 128 + 15: fputs("(interrupted: what was committed is counted above)\n", stderr); break;
    default: fputs("(the run failed: fix the cause named above and run again)\n", stderr); break;
    }
    return code;
}
