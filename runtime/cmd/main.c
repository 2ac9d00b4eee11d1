/* main.c — commands: run, gen, list, help, lua; sweeps; exit codes. */
#include <ctype.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../drivers/driver.h"
#include "../core/cluster.h"
#include "gencmd.h"
#include "../host/host.h"
#include "../core/load.h"
#include "../core/method.h"
#include "../core/opts.h"
#include "../core/result.h"
#include "../core/sig.h"
#include "../host/runner.h"
#include "sweep.h"
#include "../../base/err.h"
#include "../../base/buf.h"

#ifndef BB_VERSION
#define BB_VERSION "dev"
#endif

static void usage(FILE *f)
{
    fputs("usage: bulkbench COMMAND ...\n"
          "  run SCRIPT.lua [options] [script options]   run a scenario (under mpirun, built with make MPI=1: one run over all ranks)\n"
          "  gen SCRIPT.lua --table=NAME --rows=N [--format=copy|csv|tsv|sql] [-o FILE] [--threads=N]\n"
          "  load FILE... --engine=E --table=T [--threads=N] [--chunk=4MB] [--format=csv|tsv|copy] [load options below]\n"
          "  list                                        engines, the methods each offers, workloads\n"
          "  help SCRIPT.lua                             the script's own options with defaults\n"
          "  report RESULTS.jsonl [--svg=FILE] [--format=text|markdown|csv] [--log]   compare past runs\n"
          "  lua FILE.lua [args]                         run Lua with the bulkbench library (tools, tests)\n"
          "  --version\n",
          f);
    static const char *const cmds[] = { "run", "gen", "load", "report" };
    for (unsigned c = 0; c < 4; c++) {
        fprintf(f, "\n%s options:\n", cmds[c]);
        for (const opt_def *d = opts_common; d->name; d++)
            if (d->cmds & (1u << c))
                fprintf(f, "  --%-16s %s%s%s%s\n", d->name, d->help, d->dflt ? " (default " : "", d->dflt ? d->dflt : "",
                        d->dflt ? ")" : "");
    }
}

/* Prints a failure and returns its exit code; every non-zero exit says what to do next. */
static int fail(const bb_err *e)
{
    int code = e->code ? e->code : BB_EXIT_RUNTIME;
    if (cluster_rank() != 0) return code; /* under MPI rank 0 speaks for all: it has every rank's first error */
    fprintf(stderr, "bulkbench: %s\n", e->msg);
    switch (code) {
    case BB_EXIT_USAGE: fputs("(usage error: see `bulkbench --help` or `bulkbench help SCRIPT`)\n", stderr); break;
    case BB_EXIT_VERIFY: fputs("(verification failed: rows were lost or duplicated; see above)\n", stderr); break;
    case 128 + 2: case 128 + 15: fputs("(interrupted: what was committed is counted above)\n", stderr); break;
    default: fputs("(the run failed: fix the cause named above and run again)\n", stderr); break;
    }
    return code;
}

static const char *scenario_name(const char *path, char *buf, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(buf, n, "%s", b);
    char *dot = strrchr(buf, '.');
    if (dot && strcmp(dot, ".lua") == 0) *dot = 0;
    return buf;
}

/* ---- run ---- */

static double num_opt(bb_cli *cli, const char *name)
{
    const char *v = opts_get(cli, name);
    return v ? strtod(v, NULL) : 0;
}

static int is_on(const char *v) { return v && (!strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes")); }

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
    p->progress = opts_get(cli, "progress") ? is_on(opts_get(cli, "progress")) : -1;
    p->nsettings = c->nset;
    for (int i = 0; i < c->nset; i++) {
        p->set_name[i] = c->set_name[i];
        p->set_value[i] = c->set_value[i];
        p->set_global[i] = c->set_global[i];
    }
    p->cli = cli;
    p->ndsn = opts_all(cli, "dsn", p->dsns, BB_MAX_HOSTS);
    if (p->ndsn < 2) p->ndsn = 0; /* one server: c->dsn, which may come from the environment or --target */
    p->shared = is_on(opts_get(cli, "shared"));
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
    char **done = is_on(opts_get(cli, "resume")) ? sweep_done_keys(opts_get(cli, "out")) : NULL;
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
        char *key = sweep_key(scen, c, hc->nopts, (const char *const *)hc->opt_name, (const char *const *)hc->opt_value);
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
        if (output_result(cli, res, &host, &csv_header, &err) < 0) { fail(&err); rc = rc ? rc : BB_EXIT_RUNTIME; }
        if (rc != BB_EXIT_OK) {
            if (strcmp(opts_get(cli, "format"), "text") == 0) result_print_table(stdout, results, nres);
            if (rc >= 128) fprintf(stderr, "bulkbench: interrupted; %lld rows were committed\n", (long long)res->committed);
            else fail(&rerr);
            if (rc == BB_EXIT_RUNTIME)
                fprintf(stderr, "bulkbench: %lld rows were committed before the run stopped\n", (long long)res->committed);
            if (res->rows_in_doubt)
                fprintf(stderr, "bulkbench: %lld more rows were being committed when the connection was lost: the server "
                                "may have committed them, so the table holds %lld to %lld rows\n",
                        (long long)res->rows_in_doubt, (long long)res->committed,
                        (long long)(res->committed + res->rows_in_doubt));
            break;
        }
    }
    if (lead && rc == BB_EXIT_OK && strcmp(opts_get(cli, "format"), "text") == 0) result_print_table(stdout, results, nres);
    for (int i = 0; done && done[i]; i++) free(done[i]);
    free(done);
    free(results);
    return rc;
}

static int cmd_run(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (cli->npos < 1) { bb_usagef(&err, "run needs a script: bulkbench run SCRIPT.lua [options]"); return fail(&err); }
    if (cli->npos > 1) { bb_usagef(&err, "unexpected argument '%s' (options are --name=value)", cli->pos[1]); return fail(&err); }
    const char *script = cli->pos[0];
    if (opts_check_common(cli, &err) < 0) return fail(&err);
    const char *fmt = opts_get(cli, "format");
    if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "csv")) {
        bb_usagef(&err, "--format=%s: a run reports as text, json or csv", fmt);
        return fail(&err);
    }

    host_ctx hc = { .cli = cli, .setup = 1, .seed = (uint64_t)strtoull(opts_get(cli, "seed"), NULL, 10),
                    .now_s = (int64_t)time(NULL) };
    if (opts_now(cli, &hc.now_s, &err) < 0) return fail(&err);
    cluster_bcast(&hc.now_s, sizeof hc.now_s); /* every rank generates the same "now" */
    char *src = NULL;
    size_t srclen = 0;
    lua_State *L = NULL;
    sweep s = { 0 };
    int rc;
    if (host_read_script(script, &src, &srclen, &err) < 0) { rc = fail(&err); goto out; }
    L = host_new(&hc, script, &err);
    if (!L || host_run_source(L, src, srclen, script, &err) < 0) { rc = fail(&err); goto out; }
    if (opts_check_unused(cli, (const char *const *)hc.declared, &err) < 0) { rc = fail(&err); goto out; }
    lua_getglobal(L, "event");
    lua_getglobal(L, "run");
    int has_work = lua_isfunction(L, -1) || lua_isfunction(L, -2);
    lua_pop(L, 2);
    if (!has_work) {
        bb_errf(&err, "%s defines neither event(ctx) nor run(ctx): nothing to run", script);
        rc = fail(&err);
        goto out;
    }
    if (sweep_build(cli, &s, &err) < 0) { rc = fail(&err); goto out; }
    rc = run_all(cli, L, &hc, &s, script, src, srclen);
out:
    sweep_free(&s);
    free(src);
    host_close(L);
    for (int i = 0; i < hc.ndeclared; i++) free(hc.declared[i]);
    free(hc.declared);
    for (int i = 0; i < hc.nopts; i++) { free(hc.opt_name[i]); free(hc.opt_value[i]); }
    free(hc.opt_name);
    free(hc.opt_value);
    return rc;
}

/* ---- list, help, lua ---- */

/* Workloads first, then each engine with the methods it offers, so every method line
 * stands under its engine until the end. */
static int cmd_list(void)
{
    puts("workloads (workloads/*.lua):");
    FILE *f = popen("ls workloads/*.lua 2>/dev/null", "r");
    char path[1024];
    while (f && fgets(path, sizeof path, f)) {
        path[strcspn(path, "\n")] = 0;
        FILE *w = fopen(path, "r");
        char line[512] = "";
        if (w) {
            if (!fgets(line, sizeof line, w)) line[0] = 0;
            fclose(w);
        }
        line[strcspn(line, "\n")] = 0;
        printf("  %-36s %s\n", path, strncmp(line, "--", 2) == 0 ? line + 2 + (line[2] == ' ') : "");
    }
    if (f) pclose(f);
    puts("\nengines and the methods each offers:");
    for (int i = 0; bb_drivers[i]; i++) {
        const bb_driver *d = bb_drivers[i];
        printf("  %-8s %s\n", d->name, d->summary);
        for (const bb_method *m = bb_methods; m->name; m++)
            if (method_offered(m, d)) printf("      %-14s %s\n", m->name, m->summary);
    }
    return 0;
}

static int lib_call_string(lua_State *L, const char *fn, bb_err *err)
{
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench");
    if (host_pcall(L, 1, 1, err) < 0) return -1;
    lua_getfield(L, -1, fn);
    lua_remove(L, -2);
    return host_pcall(L, 0, 1, err);
}

static int cmd_help(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (cli->npos < 1) { usage(stdout); return 0; }
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = host_new(&hc, cli->pos[0], &err);
    if (!L || host_run_script(L, cli->pos[0], &err) < 0 || lib_call_string(L, "help_text", &err) < 0) return fail(&err);
    fputs(lua_tostring(L, -1), stdout);
    host_close(L);
    return 0;
}

/* bulkbench load FILE... --engine=E --table=T [--threads=N] [--chunk=4MB] [--format=csv|tsv|copy] */
static int cmd_load(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (opts_check_common(cli, &err) < 0 || opts_check_unused(cli, NULL, &err) < 0) return fail(&err);
    if (cli->npos < 1) { bb_usagef(&err, "load needs a file: bulkbench load FILE... --engine=E --table=T"); return fail(&err); }
    load_opts o = { .paths = (const char **)cli->pos, .npaths = cli->npos, .table = opts_get(cli, "table"),
                    .threads = atoi(opts_get(cli, "threads")), .chunk = opts_get(cli, "chunk") ? opts_parse_size(opts_get(cli, "chunk")) : 0,
                    .header = is_on(opts_get(cli, "header")), .columns = opts_get(cli, "columns"),
                    .truncate = is_on(opts_get(cli, "truncate")), .rate_mb = num_opt(cli, "rate-limit"),
                    .progress = opts_get(cli, "progress") ? is_on(opts_get(cli, "progress")) : -1 };
    if (!o.table) { bb_usagef(&err, "load needs --table=NAME"); return fail(&err); }
    if (!(o.drv = bb_driver_find(opts_get(cli, "engine")))) {
        bb_usagef(&err, "unknown engine '%s'", opts_get(cli, "engine"));
        return fail(&err);
    }
    char var[64];
    snprintf(var, sizeof var, "BULKBENCH_%s_DSN", o.drv->name);
    for (char *q = var; *q; q++) *q = (char)toupper((unsigned char)*q);
    o.dsn = opts_get(cli, "dsn") ? opts_get(cli, "dsn") : getenv(var);
    /* the format: --format, else the first file's extension (under any .gz or .zst) */
    const char *fmt = load_format_of(cli->pos[0], opts_get(cli, "format"));
    if (!fmt) { bb_usagef(&err, "say --format=csv, tsv or copy for %s", cli->pos[0]); return fail(&err); }
    o.format = fmt;
    o.null = opts_get(cli, "null");
    if (load_char_opt("delimiter", opts_get(cli, "delimiter"), &o.delimiter, &err) < 0 ||
        load_char_opt("quote", opts_get(cli, "quote"), &o.quote, &err) < 0)
        return fail(&err);
    o.skip_rows = (int64_t)num_opt(cli, "skip-rows");
    o.limit = opts_get(cli, "limit") ? (int64_t)num_opt(cli, "limit") : -1;
    const char *oe = opts_get(cli, "on-error");
    if (strcmp(oe, "stop") && strcmp(oe, "skip")) { bb_usagef(&err, "--on-error is stop or skip, not '%s'", oe); return fail(&err); }
    o.skip_bad = !strcmp(oe, "skip");
    o.reject_path = opts_get(cli, "reject-file");
    o.reject_limit = opts_get(cli, "reject-limit") ? (int64_t)num_opt(cli, "reject-limit") : -1;
    if (!o.skip_bad && (o.reject_path || o.reject_limit >= 0)) {
        bb_usagef(&err, "--reject-file and --reject-limit go with --on-error=skip");
        return fail(&err);
    }

    bb_result res;
    result_init(&res);
    snprintf(res.scenario, sizeof res.scenario, "load");
    snprintf(res.engine, sizeof res.engine, "%s", o.drv->name);
    snprintf(res.method, sizeof res.method, "%s", (o.drv->caps & BB_CAP_LOAD_DATA) ? "load" : !strcmp(fmt, "csv") ? "copy-csv" : "copy");
    res.threads = o.threads;
    time_t now = time(NULL);
    strftime(res.started_at, sizeof res.started_at, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    int rc = load_files(&o, &res, &err) < 0 ? (err.code ? err.code : BB_EXIT_RUNTIME) : 0;
    sysmon_host host;
    sysmon_host_info(&host);
    /* --format names the data here, so the result is the table; --out appends it as JSON */
    const char *out = opts_get(cli, "out");
    if (out && result_append_jsonl(out, &res, &host) < 0) fprintf(stderr, "bulkbench: cannot append to %s\n", out);
    result_print_table(stdout, &res, 1);
    if (o.skip_bad) /* nothing lost: what loaded and what was refused add up to the input */
        printf("loaded %lld rows + rejected %lld%s%s%s = %lld rows %s\n", (long long)res.committed,
               (long long)res.rows_rejected, o.reject_path ? " (in " : "", o.reject_path ? o.reject_path : "",
               o.reject_path ? ", why in its .log)" : "", (long long)(res.committed + res.rows_rejected),
               rc ? "before the load stopped" : "in the input");
    if (rc) {
        fail(&err);
        fprintf(stderr, "bulkbench: %lld rows were committed before the load stopped\n", (long long)res.committed);
    }
    return rc;
}

/* bulkbench report FILE... [--format=text|markdown|csv] [--svg=FILE] [--log] (lua/report.lua) */
static int cmd_report(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (opts_check_common(cli, &err) < 0 || opts_check_unused(cli, NULL, &err) < 0) return fail(&err);
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = host_new(&hc, NULL, &err);
    if (!L) return fail(&err);
    lua_getglobal(L, "require");
    lua_pushstring(L, "bulkbench.report");
    if (host_pcall(L, 1, 1, &err) < 0) return fail(&err);
    lua_getfield(L, -1, "main");
    lua_newtable(L);
    for (int i = 0; i < cli->npos; i++) {
        lua_pushstring(L, cli->pos[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_newtable(L);
    const char *fmt = opts_get(cli, "format"), *svg = opts_get(cli, "svg");
    lua_pushstring(L, fmt);
    lua_setfield(L, -2, "format");
    if (svg) { lua_pushstring(L, svg); lua_setfield(L, -2, "svg"); }
    lua_pushboolean(L, is_on(opts_get(cli, "log")));
    lua_setfield(L, -2, "log");
    if (host_pcall(L, 2, 1, &err) < 0) return fail(&err);
    fputs(lua_tostring(L, -1), stdout);
    host_close(L);
    return 0;
}

static int cmd_lua(int argc, char **argv)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (argc < 1) { bb_usagef(&err, "lua needs a file"); return fail(&err); }
    bb_cli cli = { 0 };
    host_ctx hc = { .cli = &cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = host_new(&hc, argv[0], &err);
    if (!L) return fail(&err);
    lua_newtable(L);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setglobal(L, "arg");
    int rc = host_run_script(L, argv[0], &err) < 0 ? fail(&err) : 0;
    host_close(L);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? BB_EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("bulkbench %s\n", BB_VERSION);
        return 0;
    }
    for (int i = 0; bb_drivers[i]; i++) { /* an engine that promises more than it has is our bug: say so now */
        char msg[256];
        if (bb_driver_check(bb_drivers[i], msg, sizeof msg) < 0) {
            fprintf(stderr, "bulkbench: bug: %s; please report it\n", msg);
            return BB_EXIT_RUNTIME;
        }
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run") || !strcmp(cmd, "load") || !strcmp(cmd, "gen")) sig_install();
    if (!strcmp(cmd, "lua")) return cmd_lua(argc - 2, argv + 2);
    bb_cli cli = { .cmd = cmd, .cmdbit = opts_command_bit(cmd) };
    bb_err err = { .code = BB_EXIT_USAGE };
    if (opts_parse(argc - 2, argv + 2, &cli, &err) < 0) {
        opts_free(&cli);
        return fail(&err);
    }
    int rc;
    if (!strcmp(cmd, "run")) {
        cluster_init(&argc, &argv); /* under mpirun: one rank of a spread run; else a no-op */
        rc = cmd_run(&cli);
        cluster_finish();
    }
    else if (!strcmp(cmd, "gen")) rc = gencmd_run(&cli);
    else if (!strcmp(cmd, "list")) rc = cmd_list();
    else if (!strcmp(cmd, "help")) rc = cmd_help(&cli);
    else if (!strcmp(cmd, "report")) rc = cmd_report(&cli);
    else if (!strcmp(cmd, "load")) rc = cmd_load(&cli);
    else {
        const char *cmds[] = { "run", "gen", "list", "help", "lua", "load", "report" };
        const char *near = opts_nearest(cmd, cmds, 7);
        bb_usagef(&err, "unknown command '%s'%s%s%s", cmd, near ? "; did you mean '" : "", near ? near : "",
                      near ? "'?" : "");
        rc = fail(&err);
    }
    opts_free(&cli);
    return rc;
}
