/* openmetrics.c — results as OpenMetrics text (see openmetrics.h). Every family is
 * declared once and holds the samples of all results, as the format requires. */
#include "openmetrics.h"

#include <math.h>
#include <string.h>

/* One figure of a result, -1 when unknown (or, for `signed_ok` ones, NAN). */
typedef double (*figure_fn)(const bb_result *r);

typedef struct family {
    const char *name, *type, *help;
    figure_fn fig;
    const char *extra; /* a label of its own, e.g. quantile="0.99" */
    int signed_ok;     /* the figure may be negative (memory growth) */
} family;

static double f_rows_per_s(const bb_result *r) { return result_rows_per_s(r); }
static double f_events_per_s(const bb_result *r) { return result_events_per_s(r); }
static double f_mb_per_s(const bb_result *r) { return result_mb_per_s(r); }
static double f_seconds(const bb_result *r) { return r->seconds; }
static double f_p50(const bb_result *r) { return r->p50; }
static double f_p95(const bb_result *r) { return r->p95; }
static double f_p99(const bb_result *r) { return r->p99; }
static double f_max(const bb_result *r) { return r->max; }
static double f_rows(const bb_result *r) { return (double)r->rows; }
static double f_bytes(const bb_result *r) { return (double)r->bytes; }
static double f_events(const bb_result *r) { return (double)r->events; }
static double f_errors(const bb_result *r) { return (double)r->errors; }
static double f_client_cpu(const bb_result *r) { return r->client_cpu_s; }
static double f_server_cpu(const bb_result *r) { return r->server_cpu_s; }
static double f_log_bytes(const bb_result *r) { return (double)r->log_bytes; }
static double f_table_bytes(const bb_result *r) { return (double)r->table_bytes; }
static double f_rss_growth(const bb_result *r) { return r->rss_growth == -1 ? NAN : (double)r->rss_growth; }
static double f_verified(const bb_result *r) { return (double)r->verified_rows; }
static double f_repeats(const bb_result *r) { return r->rep ? r->rep->n : -1; }
static double f_cv(const bb_result *r) { return r->rep ? r->rep->rows_per_s.cv : -1; }
static double f_ci_lo(const bb_result *r) { return r->rep && r->rep->rows_per_s.n ? r->rep->rows_per_s.lo : -1; }
static double f_ci_hi(const bb_result *r) { return r->rep && r->rep->rows_per_s.n ? r->rep->rows_per_s.hi : -1; }

// clang-format off
static const family families[] = {
    { "bulkbench_rows_per_second", "gauge", "rows committed per second (under --repeat the median of the runs')", f_rows_per_s, NULL, 0 },
    { "bulkbench_events_per_second", "gauge", "events per second", f_events_per_s, NULL, 0 },
    { "bulkbench_mb_per_second", "gauge", "payload megabytes (10^6 bytes) sent per second", f_mb_per_s, NULL, 0 },
    { "bulkbench_seconds", "gauge", "measured wall time of the run", f_seconds, NULL, 0 },
    { "bulkbench_latency_ms", "summary", "latency per event in milliseconds (quantile 1 is the maximum)", f_p50, "quantile=\"0.5\"", 0 },
    { "bulkbench_latency_ms", NULL, NULL, f_p95, "quantile=\"0.95\"", 0 },
    { "bulkbench_latency_ms", NULL, NULL, f_p99, "quantile=\"0.99\"", 0 },
    { "bulkbench_latency_ms", NULL, NULL, f_max, "quantile=\"1\"", 0 },
    { "bulkbench_rows", "counter", "rows committed", f_rows, NULL, 0 },
    { "bulkbench_bytes", "counter", "payload bytes sent", f_bytes, NULL, 0 },
    { "bulkbench_events", "counter", "events (rows, transactions or statements, event() calls)", f_events, NULL, 0 },
    { "bulkbench_errors", "counter", "events that failed", f_errors, NULL, 0 },
    { "bulkbench_client_cpu_seconds", "counter", "CPU seconds of the bulkbench process during the run", f_client_cpu, NULL, 0 },
    { "bulkbench_server_cpu_seconds", "counter", "CPU seconds of the server's process tree during the run", f_server_cpu, NULL, 0 },
    { "bulkbench_server_log_bytes", "counter", "WAL or binary log bytes the server wrote during the run", f_log_bytes, NULL, 0 },
    { "bulkbench_server_rss_growth_bytes", "gauge", "growth of the server's memory (PSS) over the run", f_rss_growth, NULL, 1 },
    { "bulkbench_server_table_bytes", "gauge", "bytes the table occupies after the run", f_table_bytes, NULL, 0 },
    { "bulkbench_verified_rows", "gauge", "rows check() counted after the run", f_verified, NULL, 0 },
    { "bulkbench_repeats", "gauge", "--repeat: counted runs of the point", f_repeats, NULL, 0 },
    { "bulkbench_rows_per_second_cv", "gauge", "--repeat: coefficient of variation of the runs' rows/s", f_cv, NULL, 0 },
    { "bulkbench_rows_per_second_ci95", "gauge", "--repeat: interval of the median rows/s (order statistics; its level in the JSON result, ci_level)", f_ci_lo, "bound=\"low\"", 0 },
    { "bulkbench_rows_per_second_ci95", NULL, NULL, f_ci_hi, "bound=\"high\"", 0 },
};
// clang-format on

/* A label value as the format escapes it; a double quote, which some line-based readers
 * cannot take even escaped, becomes a single one. */
static void label_value(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\') fputs("\\\\", f);
        else if (*s == '\n') fputs("\\n", f);
        else fputc(*s == '"' ? '\'' : *s, f);
    }
}

static void labels(FILE *f, const bb_result *r, const char *extra)
{
    fputs("{scenario=\"", f);
    label_value(f, r->scenario);
    fputs("\",engine=\"", f);
    label_value(f, r->engine);
    fputc('"', f);
    if (r->method[0]) {
        fputs(",method=\"", f);
        label_value(f, r->method);
        fputc('"', f);
    }
    fprintf(f, ",threads=\"%d\"", r->threads);
    if (r->batch >= 0) fprintf(f, ",batch=\"%lld\"", (long long)r->batch);
    if (r->nset) {
        fputs(",set=\"", f);
        for (int i = 0; i < r->nset; i++) {
            if (i) fputc(',', f);
            label_value(f, r->set_name[i]);
            fputc('=', f);
            label_value(f, r->set_value[i]);
        }
        fputc('"', f);
    }
    if (r->target[0]) {
        fputs(",target=\"", f);
        label_value(f, r->target);
        fputc('"', f);
    }
    if (extra) fprintf(f, ",%s", extra);
    fputc('}', f);
}

/* Does member j of a family have a figure in any result? */
static int any_sample(const family *fm, const bb_result *rs, int n)
{
    for (int i = 0; i < n; i++) {
        double v = fm->fig(&rs[i]);
        if (fm->signed_ok ? !isnan(v) : v >= 0) return 1;
    }
    return 0;
}

void openmetrics_print(FILE *f, const bb_result *rs, int n)
{
    int nf = (int)(sizeof families / sizeof *families);
    for (int k = 0, end; k < nf; k = end) {
        /* a family is its first row and the rows without a type after it (summary quantiles) */
        int any = 0;
        for (end = k; end < nf && (end == k || !families[end].type); end++) any |= any_sample(&families[end], rs, n);
        if (!any) continue; /* a family without a sample is left out */
        const family *fm = &families[k];
        int counter = !strcmp(fm->type, "counter");
        fprintf(f, "# TYPE %s %s\n# HELP %s %s\n", fm->name, fm->type, fm->name, fm->help);
        for (int i = 0; i < n; i++) /* one result's samples together: a reader groups them so */
            for (int j = k; j < end; j++) {
                double v = families[j].fig(&rs[i]);
                if (families[j].signed_ok ? isnan(v) : v < 0) continue;
                fprintf(f, "%s%s", fm->name, counter ? "_total" : "");
                labels(f, &rs[i], families[j].extra);
                fprintf(f, " %.10g\n", v);
            }
    }
    fputs("# EOF\n", f);
}
