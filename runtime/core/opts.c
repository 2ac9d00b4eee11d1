/* opts.c — parsing, typing and checking of options. */
#include "opts.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../../base/calendar.h"
#include "../../drivers/driver.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// clang-format off
const opt_def opts_common[] = {
    { "engine", OT_STR, bb_default_engine, 1, 0, "engine(s), each one of `bulkbench list --engines` (comma list sweeps)" },
    { "dsn", OT_STR, NULL, 0, 0, "where the database is, in the engine's form ({dsns}); repeat for a host list" },
    { "threads", OT_INT, "1", 1, 1, "worker threads, one connection each (comma list sweeps)" },
    { "batch", OT_INT, NULL, 1, 1, "rows per transaction, statement or COPY (comma list sweeps)" },
    { "method", OT_STR, NULL, 1, 0, "load method(s), see `bulkbench list` (comma list sweeps)" },
    { "strategy", OT_STR, NULL, 1, 0,
      "what is done around the load: none, or strategies (docs/strategies.md; comma list sweeps)" },
    { "rows", OT_INT, NULL, 0, 1, "rows to write in all (bulk methods), or events for event() scripts" },
    { "events", OT_INT, NULL, 0, 1, "event() calls in all" },
    { "time", OT_NUM, NULL, 0, 0, "stop after this many seconds" },
    { "rate", OT_NUM, NULL, 0, 0, "target events per second across threads, Poisson arrivals (0 = as fast as possible)" },
    { "warmup", OT_NUM, "0", 0, 0, "seconds of work before measuring starts" },
    { "report-interval", OT_NUM, NULL, 0, 0, "print a line and record a sample into the result every this many seconds (0 = neither; default: samples each second, kept for runs of 5 s or more)" },
    { "repeat", OT_INT, "1", 0, 1, "run each point of the sweep N times, interleaved round-robin; the result holds the median, each run and their spread" },
    { "warmup-runs", OT_INT, "0", 0, 0, "--repeat: runs of each point done first and not counted" },
    { "threshold", OT_STR, NULL, 0, 0, "FIELD OP NUMBER, e.g. 'latency_ms.p99<20': checked on every result, any failure exits 4 (repeatable)" },
    { "waits", OT_STR, "on", 0, 0, "sample what the server sessions wait on and name the bottleneck: on (20 per second, pg 100 at first), off, or samples per second (docs/diagnosis.md)" },
    { "latency-hist", OT_BOOL, NULL, 0, 0, "keep the whole latency histogram in the result (latency_hist)" },
    { "seed", OT_INT, "1", 0, 0, "seed of the data generator: same seed, same rows" },
    { "now", OT_STR, NULL, 0, 0, "the instant \"now\" generators use (default: the clock), for reproducible tables" },
    { "format", OT_STR, NULL, 0, 0, "run: text, json, csv or openmetrics; gen: copy, csv, tsv or sql; load: the data's csv, tsv or copy; report: text, markdown or csv" },
    { "out", OT_STR, NULL, 0, 0, "append one JSON object per run to this file" },
    { "set", OT_STR, NULL, 0, 0, "NAME=V1,V2: a session setting, swept (repeatable)" },
    { "set-global", OT_STR, NULL, 0, 0, "NAME=V1,V2: a server-wide setting, swept, restored after each run (repeatable)" },
    { "target", OT_STR, NULL, 0, 0, "NAME=DSN: a named server, swept (repeatable)" },
    { "shared", OT_BOOL, NULL, 0, 0, "the --dsn list reaches one database (coordinators): prepare/check/cleanup on the first only" },
    { "reconnect", OT_INT, "0", 0, 0, "after a lost session, retry the batch on a new one up to N times, exactly once" },
    { "resume", OT_BOOL, NULL, 0, 0, "skip combinations that already succeeded in --out" },
    { "table", OT_STR, NULL, 0, 0, "gen: the table to generate; load: the table to load into" },
    { "o", OT_STR, NULL, 0, 0, "output file (default standard output)" },
    { "progress", OT_BOOL, NULL, 0, 0, "progress bar on standard error (default: on when it is a terminal)" },
    { "chunk", OT_SIZE, NULL, 1, 0, "bytes per chunk, each one COPY / LOAD DATA (default: a worker's share, 4MB-64MB)" },
    { "header", OT_BOOL, NULL, 0, 0, "the first row of each file names columns" },
    { "columns", OT_STR, NULL, 0, 0, "the table's columns the file holds, a,b,c" },
    { "truncate", OT_BOOL, NULL, 0, 0, "empty the table first" },
    { "rate-limit", OT_NUM, NULL, 0, 0, "MB/s at most, across workers" },
    { "delimiter", OT_STR, NULL, 0, 0, "the field separator, one character or 'tab' (default: , for CSV, tab otherwise)" },
    { "quote", OT_STR, NULL, 0, 0, "CSV's quote character (default \")" },
    { "null", OT_STR, NULL, 0, 0, "the field text that means NULL (load tsv default: an empty field; csv: an unquoted empty field); gen --format=tsv: how NULL is written" },
    { "skip-rows", OT_INT, "0", 0, 0, "rows after the header of each file that are not loaded" },
    { "limit", OT_INT, NULL, 0, 1, "load at most this many rows (of all files, in order)" },
    { "on-error", OT_STR, "stop", 0, 0, "stop at the first refused row, or skip refused rows (to --reject-file)" },
    { "reject-file", OT_STR, NULL, 0, 0, "with --on-error=skip: refused rows go here as they were, and why to FILE.log" },
    { "reject-limit", OT_INT, NULL, 0, 0, "with --on-error=skip: fail once more than this many rows are refused" },
    { NULL, 0, NULL, 0, 0, NULL }
};
// clang-format on

const opt_def *opts_find_common(const char *name)
{
    for (const opt_def *d = opts_common; d->name; d++)
        if (strcmp(d->name, name) == 0) return d;
    return NULL;
}

const opt_def *opts_def(const opt_def *const *own, const char *name)
{
    for (int i = 0; own && own[i]; i++)
        if (strcmp(own[i]->name, name) == 0) return own[i];
    return opts_find_common(name);
}

const opt_def *opts_find(const bb_cli *cli, const char *name)
{
    const opt_def *d = opts_def(cli ? cli->own : NULL, name);
    return d || !cli || !cli->lookup ? d : cli->lookup(name);
}

static int is_bool_opt(const bb_cli *cli, const char *name)
{
    const opt_def *d = opts_find(cli, name);
    return d && d->type == OT_BOOL;
}

static void add_kv(opt_kv **v, int *n, const char *name, size_t nlen, const char *value)
{
    *v = bb_xrealloc(*v, sizeof **v * (size_t)(*n + 1));
    opt_kv *kv = &(*v)[(*n)++];
    kv->name = memcpy(bb_xmalloc(nlen + 1), name, nlen);
    kv->name[nlen] = 0;
    kv->value = bb_xstrdup(value);
    kv->used = 0;
}

int opts_parse(int argc, char **argv, bb_cli *cli, bb_err *err)
{
    cli->argc = argc;
    cli->argv = argv;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                cli->pos = bb_xrealloc(cli->pos, sizeof *cli->pos * (size_t)(cli->npos + 1));
                cli->pos[cli->npos++] = argv[i];
            }
            break;
        }
        if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
            const char *name = a + (a[1] == '-' ? 2 : 1);
            const char *eq = strchr(name, '=');
            if (eq) {
                add_kv(&cli->kv, &cli->nkv, name, (size_t)(eq - name), eq + 1);
                continue;
            }
            size_t nlen = strlen(name);
            if (strncmp(name, "no-", 3) == 0 && is_bool_opt(cli, name + 3)) {
                add_kv(&cli->kv, &cli->nkv, name + 3, nlen - 3, "off");
                continue;
            }
            const opt_def *d = opts_find(cli, name);
            if (d && d->type != OT_BOOL) { /* --name value */
                if (i + 1 >= argc) return bb_usagef(err, "option --%s needs a value", name);
                add_kv(&cli->kv, &cli->nkv, name, nlen, argv[++i]);
            } else {
                add_kv(&cli->kv, &cli->nkv, name, nlen, "on");
            }
            continue;
        }
        cli->pos = bb_xrealloc(cli->pos, sizeof *cli->pos * (size_t)(cli->npos + 1));
        cli->pos[cli->npos++] = argv[i];
    }
    return 0;
}

void opts_free(bb_cli *cli)
{
    for (int i = 0; i < cli->nkv; i++) {
        free(cli->kv[i].name);
        free(cli->kv[i].value);
    }
    for (int i = 0; i < cli->nsdef; i++) {
        free(cli->sdef[i].name);
        free(cli->sdef[i].value);
    }
    free(cli->kv);
    free(cli->sdef);
    free(cli->pos);
    memset(cli, 0, sizeof *cli);
}

int opts_check_value(const char *name, opt_type t, const char *v, int min, bb_err *err)
{
    char *end;
    errno = 0;
    switch (t) {
    case OT_INT: {
        int64_t x = opts_parse_count(v);
        if (x < 0 && !(*v == '-' && (x = strtoll(v, &end, 10)) < 0 && !*end && !errno))
            return bb_usagef(err, "option --%s expects a whole number, got '%s' (a count takes k, M, G: 10k, 1.5M)",
                             name, v);
        if (x < min) return bb_usagef(err, "option --%s must be at least %d, got %s", name, min, v);
        return 0;
    }
    case OT_NUM: {
        double x = strtod(v, &end);
        if (end == v || *end || errno) return bb_usagef(err, "option --%s expects a number, got '%s'", name, v);
        if (x < min) return bb_usagef(err, "option --%s must be at least %d, got %s", name, min, v);
        return 0;
    }
    case OT_BOOL:
        if (!strcmp(v, "on") || !strcmp(v, "off") || !strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "1") ||
            !strcmp(v, "0") || !strcmp(v, "yes") || !strcmp(v, "no"))
            return 0;
        return bb_usagef(err, "option --%s expects on or off, got '%s'", name, v);
    case OT_SIZE:
        if (opts_parse_size(v) < 0) return bb_usagef(err, "option --%s expects a size such as 4MB, got '%s'", name, v);
        return 0;
    case OT_STR: return 0;
    }
    return 0;
}

const opt_use *opts_use(const bb_cli *cli, const char *name)
{
    for (const opt_use *u = cli->uses; u && u->name; u++)
        if (strcmp(u->name, name) == 0) return u;
    return NULL;
}

const char *opts_help(const opt_use *u, const opt_def *d) { return u->help ? u->help : d ? d->help : ""; }

const char *opts_arg(const opt_use *u, const opt_def *d)
{
    if (u->arg) return u->arg;
    switch (d ? d->type : OT_STR) {
    case OT_BOOL: return "";
    case OT_INT:
    case OT_NUM: return "N";
    case OT_SIZE: return "SIZE";
    case OT_STR: break;
    }
    return "VALUE";
}

const char *opts_default(const opt_use *u, const opt_def *d)
{
    if (u->dflt) return *u->dflt ? u->dflt : NULL;
    return d ? d->dflt : NULL;
}

static int not_this_command(const bb_cli *cli, const opt_def *d, bb_err *err)
{
    char who[160] = "";
    if (cli->takers) cli->takers(d->name, who, sizeof who);
    if (!*who) return bb_usagef(err, "`bulkbench %s` does not take --%s", cli->cmd ? cli->cmd : "?", d->name);
    return bb_usagef(err, "--%s is an option of %s; `bulkbench %s` does not take it", d->name, who,
                     cli->cmd ? cli->cmd : "?");
}

int opts_check_common(const bb_cli *cli, bb_err *err)
{
    for (int i = 0; i < cli->nkv; i++) {
        const opt_def *d = opts_find(cli, cli->kv[i].name);
        if (!d) continue;
        if (!opts_use(cli, d->name)) return not_this_command(cli, d, err);
        const char *v = cli->kv[i].value;
        if (!*v && d->type != OT_STR) return bb_usagef(err, "option --%s needs a value", d->name);
        if (!d->list) {
            if (opts_check_value(d->name, d->type, v, d->min, err) < 0) return -1;
            continue;
        }
        int n;
        char **parts = opts_split(v, &n);
        int rc = n ? 0 : bb_usagef(err, "option --%s needs a value", d->name);
        for (int j = 0; j < n && rc == 0; j++) rc = opts_check_value(d->name, d->type, parts[j], d->min, err);
        opts_split_free(parts);
        if (rc < 0) return -1;
    }
    for (int i = 0; i < cli->nkv; i++) { /* checked: now --rows=10k reads as 10000 everywhere */
        const opt_def *d = opts_find(cli, cli->kv[i].name);
        char *digits = d && d->type == OT_INT ? opts_count_digits(cli->kv[i].value) : NULL;
        if (!digits) continue;
        free(cli->kv[i].value);
        cli->kv[i].value = digits;
    }
    return 0;
}

int64_t opts_parse_count(const char *s)
{
    char *end;
    errno = 0;
    if (!s || !(*s >= '0' && *s <= '9')) return -1;
    double v = strtod(s, &end);
    double mul = 1;
    switch (*end) {
    case 'k':
    case 'K': mul = 1e3; break;
    case 'm':
    case 'M': mul = 1e6; break;
    case 'g':
    case 'G': mul = 1e9; break;
    case 0: break;
    default: return -1;
    }
    if (*end && end[1]) return -1;
    if (!*end && strpbrk(s, ".eExX")) return -1; /* a count without a unit has digits only */
    double x = v * mul;
    if (errno || !(x < 9.2e18) || x != (double)(int64_t)x) return -1;
    return (int64_t)x;
}

char *opts_count_digits(const char *v)
{
    if (!strpbrk(v, "kKmMgG")) return NULL;
    int n;
    char **parts = opts_split(v, &n);
    bb_buf b = { 0 };
    for (int i = 0; i < n; i++) {
        int64_t x = opts_parse_count(parts[i]);
        if (x < 0) { /* not a count: left as it was (the check said so) */
            opts_split_free(parts);
            bb_buf_free(&b);
            return NULL;
        }
        bb_buf_printf(&b, "%s%lld", i ? "," : "", (long long)x);
    }
    opts_split_free(parts);
    bb_buf_putc(&b, 0);
    return b.p;
}

const char *opts_given(bb_cli *cli, const char *name)
{
    for (int i = cli->nkv - 1; i >= 0; i--)
        if (strcmp(cli->kv[i].name, name) == 0) {
            cli->kv[i].used = 1;
            return cli->kv[i].value;
        }
    return NULL;
}

const char *opts_get(bb_cli *cli, const char *name)
{
    const char *v = opts_given(cli, name);
    if (v) return v;
    for (int i = cli->nsdef - 1; i >= 0; i--)
        if (strcmp(cli->sdef[i].name, name) == 0) return cli->sdef[i].value;
    const opt_use *u = opts_use(cli, name);
    if (u) return opts_default(u, opts_def(cli->own, name));
    const opt_def *d = opts_find_common(name);
    return d ? d->dflt : NULL;
}

int opts_all(bb_cli *cli, const char *name, const char **out, int max)
{
    int n = 0;
    for (int i = 0; i < cli->nkv && n < max; i++)
        if (strcmp(cli->kv[i].name, name) == 0) {
            cli->kv[i].used = 1;
            out[n++] = cli->kv[i].value;
        }
    return n;
}

void opts_set_default(bb_cli *cli, const char *name, const char *value)
{
    const opt_def *d = opts_find(cli, name);
    char *digits = d && d->type == OT_INT ? opts_count_digits(value) : NULL; /* bb.defaults { rows = "10k" } */
    add_kv(&cli->sdef, &cli->nsdef, name, strlen(name), digits ? digits : value);
    free(digits);
}

static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 99;
    int d[65][65];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1; /* a swapped pair is one typo */
            d[i][j] = c;
        }
    return d[la][lb];
}

const char *opts_nearest(const char *word, const char *const *cand, int n)
{
    const char *best = NULL;
    int bestd = 1 << 30;
    for (int i = 0; i < n; i++) {
        int dd = edit_distance(word, cand[i]);
        size_t lw = strlen(word);
        if (lw >= 3 && strncmp(word, cand[i], lw) == 0) dd = 1; /* a prefix is as good as one typo */
        if (dd < bestd) {
            bestd = dd;
            best = cand[i];
        }
    }
    size_t lw = strlen(word);
    int limit = lw <= 4 ? 1 : lw <= 8 ? 2 : 3;
    return bestd <= limit ? best : NULL;
}

int opts_check_unused(const bb_cli *cli, const char *const *extra, bb_err *err)
{
    const char *cand[128];
    int n = 0;
    for (const opt_use *u = cli->uses; u && u->name && n < 64; u++) cand[n++] = u->name;
    for (int i = 0; extra && extra[i] && n < 128; i++) cand[n++] = extra[i];
    for (int i = 0; i < cli->nkv; i++) {
        const opt_def *d = opts_find(cli, cli->kv[i].name);
        if (d && !opts_use(cli, d->name)) return not_this_command(cli, d, err);
        if (cli->kv[i].used || d) continue;
        int known = 0;
        for (int j = 0; extra && extra[j]; j++)
            if (strcmp(extra[j], cli->kv[i].name) == 0) known = 1;
        if (known) continue;
        const char *near = opts_nearest(cli->kv[i].name, cand, n);
        if (near) return bb_usagef(err, "unknown option --%s; did you mean --%s?", cli->kv[i].name, near);
        return bb_usagef(err, "unknown option --%s (see `bulkbench help SCRIPT` for the script's options)",
                         cli->kv[i].name);
    }
    return 0;
}

char **opts_split(const char *list, int *n)
{
    int cap = 4;
    char **v = bb_xmalloc(sizeof *v * (size_t)(cap + 1));
    *n = 0;
    const char *p = list;
    while (*p) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len) {
            if (*n == cap) {
                cap *= 2;
                v = bb_xrealloc(v, sizeof *v * (size_t)(cap + 1));
            }
            v[*n] = memcpy(bb_xmalloc(len + 1), p, len);
            v[*n][len] = 0;
            (*n)++;
        }
        if (!q) break;
        p = q + 1;
    }
    v[*n] = NULL;
    return v;
}

void opts_split_free(char **v)
{
    if (!v) return;
    for (int i = 0; v[i]; i++) free(v[i]);
    free(v);
}

int opts_now(bb_cli *cli, int64_t *out, bb_err *err)
{
    const char *v = opts_get(cli, "now");
    *out = (int64_t)time(NULL);
    if (v && bb_parse_time(v, out) < 0)
        return bb_usagef(err, "--now expects YYYY-MM-DD[ HH:MM:SS] or epoch seconds, got '%s'", v);
    return 0;
}

double opts_parse_duration(const char *s)
{
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : -1;
    if (!s || end == s || errno || v < 0) return -1;
    if (!*end || !strcmp(end, "s")) return v;
    if (!strcmp(end, "ms")) return v / 1000;
    if (!strcmp(end, "m") || !strcmp(end, "min")) return v * 60;
    if (!strcmp(end, "h")) return v * 3600;
    return -1;
}

int64_t opts_parse_size(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v >= 0)) return -1;
    while (isspace((unsigned char)*end)) end++;
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 0: break;
    case 'K':
        mul = 1024.0;
        end++;
        break;
    case 'M':
        mul = 1024.0 * 1024;
        end++;
        break;
    case 'G':
        mul = 1024.0 * 1024 * 1024;
        end++;
        break;
    case 'B': break;
    default: return -1;
    }
    if (toupper((unsigned char)*end) == 'I') end++;
    if (toupper((unsigned char)*end) == 'B') end++;
    if (*end || !(v * mul < 9.0e18)) return -1; /* NaN and what int64 cannot hold */
    return (int64_t)(v * mul);
}

/* A DSN as bulkbench prints it, its password shown as *** (scheme://user:***@host:port/...),
 * runs as printed where the engine's environment DSN (env) names the same user@host:port: its
 * password fills the ***. Any other DSN as it is. */
static const char *dsn_unmask(const char *dsn, const char *env)
{
    static char buf[1024];
    const char *mask = strstr(dsn, ":***@"), *sep = strstr(dsn, "://");
    if (!mask || !sep || !env || mask < sep) return dsn;
    size_t user = (size_t)(mask - dsn); /* scheme://user */
    const char *host = mask + 5;
    size_t hl = strcspn(host, "/?");
    if (strncmp(env, dsn, user) != 0 || env[user] != ':') return dsn;
    const char *pw = env + user + 1, *at = strchr(pw, '@');
    if (!at || strncmp(at + 1, host, hl) != 0 || strcspn(at + 1, "/?") != hl) return dsn;
    int n = snprintf(buf, sizeof buf, "%.*s:%.*s@%s", (int)user, dsn, (int)(at - pw), pw, host);
    return n > 0 && (size_t)n < sizeof buf ? buf : dsn;
}

const char *opts_dsn(bb_cli *cli, const bb_driver *d)
{
    const char *dsn = opts_get(cli, "dsn");
    char var[96];
    bb_driver_dsn_env(d, var, sizeof var);
    return dsn ? dsn_unmask(dsn, getenv(var)) : getenv(var);
}

const bb_driver *opts_engine(const char *name, bb_err *err)
{
    const bb_driver *d = bb_driver_find(name);
    if (d) return d;
    int n = 0;
    while (bb_drivers[n]) n++;
    const char *names[n + 1];
    for (int i = 0; i < n; i++) names[i] = bb_drivers[i]->name;
    const char *near = opts_nearest(name, names, n);
    char all[1024];
    bb_usagef(err, "unknown engine '%s'%s%s%s (engines: %s)", name, near ? "; did you mean '" : "", near ? near : "",
              near ? "'?" : "", bb_engine_words(NULL, ", ", all, sizeof all));
    return NULL;
}

int opts_is_on(const char *v)
{
    return v && (!strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"));
}
