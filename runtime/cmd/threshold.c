/* threshold.c — conditions on a result's figures (see threshold.h). */
#include "threshold.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "../../base/buf.h"

/* A result with every figure set (and a --repeat spread), so its JSON shows every numeric
 * path a real result can have; strings get text so they are not mistaken for numbers. */
static json_t *template_object(void)
{
    bb_result r;
    result_init(&r);
    strcpy(r.scenario, "x");
    strcpy(r.engine, "x");
    strcpy(r.method, "x");
    strcpy(r.version, "x");
    strcpy(r.driver, "x");
    strcpy(r.settings, "{}");
    strcpy(r.started_at, "x");
    r.batch = r.verified_rows = r.rows_rejected = 0;
    r.p50 = r.p95 = r.p99 = r.max = r.server_cpu_s = 0;
    r.rss_growth = r.log_bytes = r.redo_bytes = r.table_bytes = 0;
    bb_repeat rep = { .repeats = 2 };
    bb_summary s = { .n = 2, .stddev = 0, .cv = 0 };
    rep.rows_per_s = rep.seconds = rep.p50 = rep.p99 = s;
    r.rep = &rep;
    sysmon_host h = { .cpu = "x", .kernel = "x" };
    return result_object(&r, &h);
}

static void add_path(bb_buf *out, const char *sep, const char *path)
{
    bb_buf_printf(out, "%s%s", out->len ? sep : "", path);
}

static void collect_paths(json_t *o, const char *prefix, const char *sep, int compact, bb_buf *out);

/* The numeric paths inside v, "|"-separated, as a fresh string ("" when v is no object). */
static char *shape(json_t *v)
{
    bb_buf b = { 0 };
    if (json_is_object(v)) collect_paths(v, "", "|", 0, &b);
    bb_buf_putc(&b, 0);
    return b.p;
}

/* Every numeric path of o, sep-separated: objects' members, and numbers in arrays of
 * numbers by index. With `compact`, an object whose members are objects of one shape
 * (stats) is written once as prefix.<a|b|c>.<x|y>. */
static void collect_paths(json_t *o, const char *prefix, const char *sep, int compact, bb_buf *out)
{
    const char *key;
    json_t *v;
    if (compact && json_object_size(o) > 1) {
        char *first = NULL;
        int same = 1;
        bb_buf keys = { 0 };
        json_object_foreach(o, key, v)
        {
            char *sh = shape(v);
            if (!json_is_object(v) || !*sh || (first && strcmp(first, sh))) same = 0;
            if (!first) first = sh;
            else free(sh);
            add_path(&keys, "|", key);
        }
        bb_buf_putc(&keys, 0);
        if (same) bb_buf_printf(out, "%s%s%s<%s>.<%s>", out->len ? sep : "", prefix, *prefix ? "." : "", keys.p, first);
        free(first);
        bb_buf_free(&keys);
        if (same) return;
    }
    json_object_foreach(o, key, v)
    {
        char path[160];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", key);
        if (json_is_number(v) || json_is_null(v)) add_path(out, sep, path);
        else if (json_is_object(v)) collect_paths(v, path, sep, compact, out);
        else if (json_is_array(v) && json_array_size(v) && json_is_number(json_array_get(v, 0)))
            for (size_t i = 0; i < json_array_size(v); i++)
                bb_buf_printf(out, "%s%s.%zu", out->len ? sep : "", path, i);
    }
}

/* The value at a dotted path (array elements by index), or NULL. */
static json_t *lookup(json_t *o, const char *path)
{
    char seg[128];
    while (o && *path) {
        size_t n = strcspn(path, ".");
        snprintf(seg, sizeof seg, "%.*s", (int)n, path);
        if (json_is_array(o)) o = isdigit((unsigned char)seg[0]) ? json_array_get(o, (size_t)atoi(seg)) : NULL;
        else o = json_object_get(o, seg);
        path += n + (path[n] == '.');
    }
    return o;
}

/* The numeric paths a result can have, ", "-separated into *fields (compact: for people). */
static void field_list(bb_buf *fields, int compact)
{
    json_t *tpl = template_object();
    collect_paths(tpl, "", ", ", compact, fields);
    bb_buf_putc(fields, 0);
    json_decref(tpl);
}

/* A known path: one of field_list's, or a script's metrics.NAME. */
static int known_path(const char *path, const char *fields)
{
    if (strncmp(path, "metrics.", 8) == 0 && path[8]) return 1;
    size_t n = strlen(path);
    for (const char *p = fields; n && (p = strstr(p, path)); p += n)
        if ((p == fields || (p - fields >= 2 && p[-2] == ',')) && (p[n] == ',' || p[n] == 0)) return 1;
    return 0;
}

int threshold_parse(const char *expr, bb_threshold *t, bb_err *err)
{
    memset(t, 0, sizeof *t);
    size_t k = 0;
    for (const char *s = expr; *s && k + 1 < sizeof t->expr; s++)
        if (!isspace((unsigned char)*s)) t->expr[k++] = *s;
    const char *p = t->expr;
    size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
    static const char *const ops[] = { "<=", ">=", "==", "!=", "<", ">" };
    const char *op = NULL;
    for (int i = 0; i < 6 && n; i++)
        if (strncmp(p + n, ops[i], strlen(ops[i])) == 0) {
            op = ops[i];
            break;
        }
    char *end = NULL;
    if (op) {
        errno = 0;
        t->value = strtod(p + n + strlen(op), &end);
    }
    bb_buf fields = { 0 };
    field_list(&fields, 0);
    int ok = op && n < sizeof t->path && end != p + n + strlen(op) && !*end && !errno && isfinite(t->value);
    if (ok) {
        snprintf(t->path, sizeof t->path, "%.*s", (int)n, p);
        snprintf(t->op, sizeof t->op, "%s", op);
        ok = known_path(t->path, fields.p);
    }
    if (!ok) {
        fields.len = 0;
        field_list(&fields, 1);
    }
    if (!ok)
        bb_usagef(err,
                  "--threshold='%s': expected FIELD OP NUMBER, OP one of < <= > >= == !=, FIELD a result's "
                  "figure: %s, metrics.NAME",
                  expr, fields.p);
    bb_buf_free(&fields);
    return ok ? 0 : -1;
}

static void fmt_value(char *out, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) snprintf(out, n, "%.0f", v);
    else if (fabs(v) >= 1000) snprintf(out, n, "%.1f", v);
    else snprintf(out, n, "%.4g", v);
}

static int holds(double v, const char *op, double x)
{
    if (!strcmp(op, "<")) return v < x;
    if (!strcmp(op, "<=")) return v <= x;
    if (!strcmp(op, ">")) return v > x;
    if (!strcmp(op, ">=")) return v >= x;
    if (!strcmp(op, "==")) return v == x;
    return v != x;
}

int threshold_check(const bb_threshold *t, const bb_result *r, const sysmon_host *h, const char *who, FILE *f)
{
    json_t *o = result_object(r, h), *v = lookup(o, t->path);
    char val[64] = "";
    int ok = 0;
    if (json_is_number(v)) {
        double x = json_number_value(v);
        ok = holds(x, t->op, t->value);
        fmt_value(val, sizeof val, x);
    } else {
        snprintf(val, sizeof val, "%s", v ? "null: not measured" : "absent from this result");
    }
    fprintf(f, "threshold %s: %s (%s)%s%s%s\n", t->expr, ok ? "passed" : "failed", val, who ? " [" : "", who ? who : "",
            who ? "]" : "");
    json_decref(o);
    return ok;
}
