/* advisecmd.c — `bulkbench advise SCRIPT.lua|FILE`: the fastest way to load rows like these
 * into this server, found by a budgeted race (core/run/race.h) between load configurations,
 * every run a real one (runner_run for a script, load_files for a file) into scratch
 * tables that are dropped on every way out. */
#include "command.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../base/buf.h"
#include "../../base/clock.h"
#include "../../base/err.h"
#include "../core/sig.h"
#include "../host/lib.h"
#include "../host/runner.h"
#include "advise.h"
#include "output.h"

/* Seconds kept back from the race for what follows it: dropping the scratch tables, the report. */
#define ADV_RESERVE_S 1.0
/* Runs of each leader at the full --rows before it is named: 6 is the fewest whose interval
 * of the median (order statistics, summary.h) reaches 95% (96.9%). */
#define ADV_CONFIRM_RUNS 6
/* Of the budget, what the race keeps back for the confirmation at --rows. */
#define ADV_CONFIRM_SHARE 0.4

static uint64_t adv_t0;

static double elapsed(void) { return (double)(bb_now_ns() - adv_t0) / 1e9; }

/* A run that could not drop its scratch tables, even on a new session: said at the end,
 * with a non-zero exit. */
static void note_left(advise *a, const char *why)
{
    size_t len = strlen(a->left);
    snprintf(a->left + len, sizeof a->left - len, "%s%s", len ? "; " : "", why);
}

/* Drops the scratch tables (on a session of its own: the race's may be lost); says so,
 * naming them, when it cannot. */
static void cleanup(advise *a)
{
    bb_err err = { .code = BB_EXIT_RUNTIME };
    int rc = 0;
    if (a->file && a->scratch_table[0]) rc = lib_scratch_like(a->drv->name, a->dsn, a->scratch_table, "", 1, &err);
    else if (!a->file && a->rs.L) rc = lib_drop_scratch(a->rs.L, a->drv->name, a->dsn, &err);
    if (rc < 0) {
        char *tb = strstr(err.msg, "\nstack traceback:");
        if (tb) *tb = 0;
        note_left(a, err.msg);
    }
}

/* One run of candidate k in the current round, into its runs; the run's exit code. */
static int run_one(advise *a, int k, const race_round *rd, bb_err *err)
{
    adv_cand *c = &a->c[k];
    c->runs = bb_xrealloc(c->runs, sizeof *c->runs * (size_t)(c->nruns + 1));
    adv_run *run = &c->runs[c->nruns++];
    *run = (adv_run){ .round = rd->round, .rows_asked = rd->rows, .cap_s = rd->cap_s };
    uint64_t t = bb_now_ns();
    int rc;
    if (a->file) {
        a->lo.threads = c->threads;
        a->lo.chunk = c->batch;
        a->lo.limit = rd->rows >= a->rows ? -1 : rd->rows;
        result_init(&run->res);
        snprintf(run->res.scenario, sizeof run->res.scenario, "%s", a->scenario);
        snprintf(run->res.engine, sizeof run->res.engine, "%s", a->drv->name);
        snprintf(run->res.method, sizeof run->res.method, "%s", c->method);
        run->res.threads = c->threads;
        run->res.batch = c->batch;
        rc = load_files(&a->lo, &run->res, err) < 0 ? (err->code ? err->code : BB_EXIT_RUNTIME) : 0;
        if (sig_caught()) rc = 128 + sig_caught(); /* what failed while stopping failed because of the stop */
    } else {
        bb_plan p;
        runcmd_plan(&p, c->combo, a->cli, &a->rs.hc);
        p.script = a->input;
        p.script_src = a->rs.src;
        p.script_len = a->rs.srclen;
        p.scenario = a->scenario;
        p.rows = rd->rows;
        p.events = 0;
        p.time_s = rd->cap_s;
        p.warmup_s = 0;
        p.progress = 0;
        p.report_interval = 0;
        p.scratch = a->scratch;
        p.focus = a->focus;
        rc = runner_run(a->rs.L, &p, &run->res, err);
    }
    run->wall_s = (double)(bb_now_ns() - t) / 1e9;
    return rc;
}

/* One run of k at rows cut at cap_s outside the rounds: advise_forecast.c's toward --rows. */
static int run_extra(advise *a, int k, int64_t rows, double cap_s, bb_err *err)
{
    race_round rd = { .round = a->r.round + 1, .rows = rows, .reps = 1, .cap_s = cap_s };
    return run_one(a, k, &rd, err);
}

static void progress_line(advise *a, int k, int done, int total, const adv_run *run)
{
    if (!a->progress) return;
    double rps = result_rows_per_s(&run->res);
    fprintf(stderr, "\r\033[K  run %d/%d  %-28s %12.0f rows/s  %5.1f s  (%.0f s left)", done, total, a->c[k].key,
            rps > 0 ? rps : 0, run->wall_s, a->budget_s - elapsed());
    fflush(stderr);
}

static void round_header(advise *a, const race_round *rd, int m)
{
    fprintf(stderr,
            "round %d: %d candidate%s x %d run%s at %lld rows (each cut at %.1f s), about %.0f s of %.0f s left\n",
            rd->round, m, m == 1 ? "" : "s", rd->reps, rd->reps == 1 ? "" : "s", (long long)rd->rows, rd->cap_s,
            rd->est_s, a->budget_s - elapsed());
}

static void round_footer(advise *a, int round, double t0)
{
    if (a->progress) fputs("\r\033[K", stderr);
    int dropped = 0, alive = 0;
    for (int k = 0; k < a->n; k++) {
        dropped += a->rc[k].out_round == round;
        alive += a->rc[k].state == RACE_ALIVE;
    }
    fprintf(stderr, "round %d: %.1f s; %d out", round, elapsed() - t0, dropped);
    for (int k = 0, shown = 0; k < a->n; k++)
        if (a->rc[k].out_round == round && shown++ < 6)
            fprintf(stderr, "%s%s%s", shown == 1 ? " (" : ", ", a->c[k].key,
                    a->rc[k].state == RACE_FAILED ? " failed" : "");
    if (dropped) fprintf(stderr, "%s)", dropped > 6 ? ", ..." : "");
    int l = race_leader(&a->r);
    if (l >= 0) fprintf(stderr, ", %d left; leader %s at %.0f rows/s", alive, a->c[l].key, a->rc[l].stat.median);
    fputc('\n', stderr);
}

/* An error as people read it: the first line, without the Lua traceback under it. */
static const char *user_message(char *msg)
{
    char *tb = strstr(msg, "\nstack traceback:");
    if (tb) *tb = 0;
    return msg;
}

/* A run that failed again once more takes its candidate out with the reason; every
 * candidate's failing is the caller's to report. */
static void run_failed(advise *a, int k, const bb_err *err)
{
    adv_cand *c = &a->c[k];
    snprintf(c->error, sizeof c->error, "%s", err->msg[0] ? err->msg : c->runs[c->nruns - 1].res.error);
    user_message(c->error);
    race_fail(&a->r, k);
    if (a->progress) fputs("\r\033[K", stderr);
    fprintf(stderr, "  %s failed again: %s; it leaves the race\n", c->key, c->error);
}

/* Candidate k's run in this round and turn; a failure that is not a stop may be the
 * server's (a session killed from outside, a deadlock): it runs once more, on new sessions
 * (each run opens its own), and only a second failure in a row is the candidate's. What
 * happened is kept for the answer. The last run's exit code; *done counts the runs. */
static int run_twice(advise *a, int k, const race_round *rd, int rep, bb_err *err, int *done)
{
    adv_cand *c = &a->c[k];
    int rc = run_one(a, k, rd, err);
    c->runs[c->nruns - 1].rep = rep;
    ++*done;
    if (rc == BB_EXIT_OK || rc >= 128 || sig_caught()) return rc;
    c->retries++;
    if (!c->retry_note[0])
        snprintf(c->retry_note, sizeof c->retry_note, "round %d: %.500s", rd->round, user_message(err->msg));
    if (a->progress) fputs("\r\033[K", stderr);
    fprintf(stderr, "  %s failed (%s); running it once more, on new sessions\n", c->key, user_message(err->msg));
    *err = (bb_err){ .code = BB_EXIT_RUNTIME };
    rc = run_one(a, k, rd, err);
    c->runs[c->nruns - 1].rep = rep;
    ++*done;
    if (rc == BB_EXIT_OK) c->recovered++;
    return rc;
}

/* One round, each run interleaved (every contestant once, then again); stops early at the
 * budget or a signal (its number into a->interrupted). */
static void run_round(advise *a, const race_round *rd)
{
    int *idx = bb_xmalloc(sizeof *idx * (size_t)a->n);
    int m = race_contestants(&a->r, idx), done = 0;
    double t0 = elapsed();
    round_header(a, rd, m);
    a->rounds = bb_xrealloc(a->rounds, sizeof *a->rounds * (size_t)(a->nrounds + 1));
    adv_round *ar = &a->rounds[a->nrounds++];
    *ar = (adv_round){ .plan = *rd, .contestants = m, .started_s = t0 };
    for (int rep = 0; rep < rd->reps && !a->r.cut && !a->interrupted; rep++)
        for (int i = 0; i < m && !a->r.cut && !a->interrupted; i++) {
            int k = idx[i];
            if (a->rc[k].state == RACE_FAILED) continue;
            if (sig_caught()) {
                a->interrupted = sig_caught();
                break;
            }
            if (!race_may_start(&a->r, k, elapsed())) {
                race_cut(&a->r);
                break;
            }
            bb_err err = { .code = BB_EXIT_RUNTIME };
            int rc = run_twice(a, k, rd, rep, &err, &done);
            adv_run *run = &a->c[k].runs[a->c[k].nruns - 1];
            if (rc >= 128) {
                a->interrupted = rc - 128;
                break;
            }
            if (rc != BB_EXIT_OK && strstr(run->res.error, "could not drop scratch table"))
                note_left(a, run->res.error);
            if (rc != BB_EXIT_OK) run_failed(a, k, &err);
            else race_record(&a->r, k, result_rows_per_s(&run->res), run->wall_s, run->res.seconds);
            progress_line(a, k, done, m * rd->reps, run);
        }
    if (a->interrupted) race_cut(&a->r);
    race_end_round(&a->r);
    ar->runs = done;
    ar->seconds = elapsed() - t0;
    round_footer(a, rd->round, t0);
    free(idx);
}

/* The rounds the race plans, to the race's own budget (the confirmation's share kept back). */
static void race_all(advise *a)
{
    race_round rd;
    while (!a->interrupted && race_plan(&a->r, elapsed(), &rd)) {
        run_round(a, &rd);
        advise_forecast_round(a, elapsed()); /* --rows beyond the budget: a forecast (advise_forecast.c) */
    }
}

/* The budget that would confirm the leaders at --rows: the race's rounds as now, the
 * confirmation's need on top of them (measured rates; within the share it keeps); never at or
 * below the budget given. */
static double budget_for_rows(const advise *a, const race_confirmation *p)
{
    double want = elapsed() + p->need_s, share = p->need_s / ADV_CONFIRM_SHARE;
    double would = ceil((want > share ? want : share) + ADV_RESERVE_S);
    return would > a->budget_s ? would : ceil(a->budget_s + p->need_s) + 1;
}

/* What the confirmation can do, said before it runs. */
static void say_confirmation(advise *a, const race_confirmation *p)
{
    char who[64];
    if (p->take < p->tied) snprintf(who, sizeof who, "the %d fastest of the %d", p->take, p->tied);
    else snprintf(who, sizeof who, "the %d", p->tied);
    int total = p->have + p->reps;
    if (p->rows < a->rows) {
        a->short_budget_s = budget_for_rows(a, p);
        fprintf(stderr,
                "advise: the budget cannot confirm the leaders at --rows=%lld (about %.0f s more); it confirms %s "
                "as fast so far at %lld rows instead, %d run%s each; give --budget=%.0fs to decide at %lld rows\n",
                (long long)a->rows, p->need_s, who, (long long)p->rows, total, total == 1 ? "" : "s",
                a->short_budget_s, (long long)a->rows);
    } else if (p->take < p->tied || total < ADV_CONFIRM_RUNS)
        fprintf(stderr,
                "advise: the budget confirms %s as fast so far, %d run%s each at --rows=%lld; --budget=%.0fs "
                "would confirm all %d, %d runs each\n",
                who, total, total == 1 ? "" : "s", (long long)a->rows, budget_for_rows(a, p), p->tied,
                ADV_CONFIRM_RUNS);
}

/* Before naming a pick: the survivors within the tie band of the leader, and the baseline,
 * run at the full --rows, interleaved, until each has ADV_CONFIRM_RUNS there (the fewest
 * whose interval of the median reaches 95%); when the budget cannot, says so, and they run at
 * the largest scale it reaches instead (race_confirm_plan); when not even that, the answer
 * stays at the scale the race reached. The race then stops "confirmed" when its answer was
 * confirmed at --rows, "budget" when the budget kept it below. */
static void confirm(advise *a)
{
    if (a->interrupted || race_pick(&a->r) < 0) return;
    const char *why = a->r.stop;
    race_confirmation p;
    a->r.cfg.budget_s = a->budget_s - ADV_RESERVE_S; /* the whole budget again */
    if (!race_confirm_plan(&a->r, elapsed(), ADV_CONFIRM_RUNS, &p)) {
        if (p.reps < 0) {
            a->short_budget_s = budget_for_rows(a, &p);
            fprintf(stderr,
                    "advise: the budget cannot confirm the leaders at --rows=%lld (about %.0f s more); the answer "
                    "is at the scale the race reaches; give --budget=%.0fs to decide at %lld rows\n",
                    (long long)a->rows, p.need_s, a->short_budget_s, (long long)a->rows);
            if (why && !strcmp(why, "budget")) { /* the share kept for it goes to the race instead */
                a->r.stop = NULL;
                a->r.cfg.confirm = 0;
                race_all(a);
            }
        } else if (why && !strcmp(why, "budget")) a->r.stop = "confirmed"; /* enough runs at --rows already */
        return;
    }
    say_confirmation(a, &p);
    race_round rd;
    race_confirm(&a->r, &p, &rd);
    a->confirm_round = rd.round;
    if (p.rows < a->rows) fprintf(stderr, "confirmation at %lld rows: ", (long long)p.rows);
    else fprintf(stderr, "confirmation at --rows: ");
    run_round(a, &rd);
    if (!a->interrupted && !a->r.cut) a->r.stop = p.rows < a->rows ? "budget" : "confirmed";
}

/* The first round's rows: two batches (a file's: two chunks) per worker of the largest
 * candidate, so a big batch is not judged on one; at least 10000 rows, at most the final scale. */
static int64_t first_rows(const advise *a)
{
    int64_t most = 0;
    for (int k = 0; k < a->n; k++)
        if (!a->c[k].per_row && a->c[k].batch > 0 && a->c[k].batch * a->c[k].threads > most)
            most = a->c[k].batch * a->c[k].threads;
    int64_t rows = 2 * most;
    if (a->file) rows = (int64_t)(2.0 * (double)most * (double)a->rows / (double)(a->file_bytes ? a->file_bytes : 1));
    if (rows < 10000) rows = 10000;
    return rows < a->rows ? rows : a->rows;
}

/* Whether the race's first round fits the budget: with the confirmation's share kept back,
 * else with the whole budget and no confirmation after. */
static int first_round_fits(advise *a, race_cfg *cfg)
{
    race_round probe;
    cfg->budget_s = (a->budget_s - ADV_RESERVE_S) * (1 - ADV_CONFIRM_SHARE);
    cfg->confirm = 1;
    race_init(&a->r, cfg, a->rc, a->n);
    race tmp = a->r;
    if (a->budget_s - elapsed() - ADV_RESERVE_S <= 0) return 0;
    if (race_plan(&tmp, elapsed(), &probe)) return 1;
    cfg->budget_s = a->budget_s - ADV_RESERVE_S;
    cfg->confirm = 0;
    race_init(&a->r, cfg, a->rc, a->n);
    tmp = a->r;
    return race_plan(&tmp, elapsed(), &probe);
}

/* The shortest cut of a run when one is measured: twice what it took to load, at most the
 * default's, at least this. */
#define ADV_MIN_CAP_S 0.1

/* One run of the first candidate, cut at the shortest cap, to measure what a run costs here
 * instead of guessing it: its fixed cost (connecting, prepare, check) into cfg, and the
 * shortest cut lowered to twice its loading time when that is shorter (a run loads round 1's
 * rows that fast here: cutting slower ones later is what the cut is for). Its wall time
 * returned (-1 when it failed). It is not one of the race's runs. */
static double measure_a_run(advise *a, race_cfg *cfg)
{
    race_round rd = { .round = 0, .rows = cfg->rows_first, .reps = 1, .cap_s = cfg->min_cap_s };
    bb_err err = { .code = BB_EXIT_RUNTIME };
    int rc = run_one(a, 0, &rd, &err);
    adv_run *run = &a->c[0].runs[--a->c[0].nruns];
    double wall = rc == BB_EXIT_OK ? run->wall_s : -1;
    if (wall >= 0) {
        cfg->overhead_s = run->wall_s > run->res.seconds ? run->wall_s - run->res.seconds : 0;
        double cut = 2 * run->res.seconds;
        if (cut < cfg->min_cap_s) cfg->min_cap_s = cut > ADV_MIN_CAP_S ? cut : ADV_MIN_CAP_S;
    }
    result_free(&run->res);
    return wall;
}

static int start_race(advise *a, bb_err *err)
{
    if (advise_check_threads(a, err) < 0) return -1;
    race_cfg cfg; /* the race's clock is the command's: set-up time counts */
    race_defaults(&cfg, a->budget_s - ADV_RESERVE_S, a->rows);
    cfg.rows_first = first_rows(a);
    cfg.seed = (uint64_t)strtoull(opts_get(a->cli, "seed"), NULL, 10);
    /* a share is kept for the confirmation at --rows, unless the first round needs it; when even
     * the first round seems not to fit, a run is measured before anything is said */
    double wall = -1;
    int fits = first_round_fits(a, &cfg);
    if (!fits && (wall = measure_a_run(a, &cfg)) >= 0) fits = first_round_fits(a, &cfg);
    if (!fits) {
        double need = ceil(a->n * 1.1 * (race_overhead(&a->r) + cfg.min_cap_s) + elapsed() + ADV_RESERVE_S);
        char measured[96] = "";
        if (wall >= 0) snprintf(measured, sizeof measured, " (a run measured here took %.1f s)", wall);
        return bb_usagef(err,
                         "--budget=%s is too short for %d candidate%s: one run each needs about %.0f s%s; give "
                         "--budget=%.0fs or more, or narrow the race with --method, --threads or --batch",
                         opts_get(a->cli, "budget"), a->n, a->n == 1 ? "" : "s", need, measured,
                         need > a->budget_s ? need : ceil(a->budget_s + 1));
    }
    advise_forecast_begin(a);
    fprintf(stderr, "advise: %s on %s, %s%s, %d candidate%s, %lld rows, budget %.0f s; server cores %d (%s)\n",
            a->input, a->drv->name, a->table ? "table " : "", a->table ? a->table : "its tables", a->n,
            a->n == 1 ? "" : "s", (long long)a->rows, a->budget_s, a->cores, a->cores_from);
    return 0;
}

/* advise --cleanup: drops the scratch tables of runs no longer running, and nothing else. */
static int cleanup_orphans(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    const bb_driver *drv = opts_engine(opts_get(cli, "engine"), &err);
    if (!drv) return output_fail(&err);
    err.code = BB_EXIT_RUNTIME;
    if (lib_scratch_orphans(drv->name, opts_dsn(cli, drv), 1, &err) < 0) return output_fail(&err);
    return BB_EXIT_OK;
}

/* What the race held: its candidates' runs, its rules' state, the script. */
static void advise_free(advise *a)
{
    for (int k = 0; k < a->n; k++) {
        for (int i = 0; i < a->c[k].nruns; i++) result_free(&a->c[k].runs[i].res);
        free(a->c[k].runs);
    }
    advise_forecast_free(a);
    race_free(&a->r);
    free(a->c);
    free(a->rc);
    free(a->rounds);
    free((char *)a->table);
    advise_space_free(a);
    runcmd_unload(&a->rs);
}

static int advise_main(bb_cli *cli)
{
    adv_t0 = bb_now_ns();
    advise a = { .cli = cli, .baseline = -1 };
    bb_err err = { .code = BB_EXIT_USAGE };
    snprintf(a.scratch, sizeof a.scratch, "__scratch%d", (int)getpid());
    a.progress = opts_get(cli, "progress") ? opts_is_on(opts_get(cli, "progress")) : isatty(2);
    if (opts_get(cli, "cleanup") && opts_is_on(opts_get(cli, "cleanup"))) return cleanup_orphans(cli);
    int rc = advise_check_options(&a, &err);
    if (rc == 0) {
        bb_err oerr; /* tables runs killed left: said before the race (a failure to look is no matter) */
        lib_scratch_orphans(a.drv->name, a.dsn, 0, &oerr);
        sysmon_host_info(&a.host);
        advise_cores(&a);
        rc = advise_setup_input(&a, &err);
    }
    if (rc == 0) rc = start_race(&a, &err);
    if (rc < 0) {
        cleanup(&a);
        rc = output_fail(&err);
    } else {
        race_all(&a);
        if (!advise_forecast_on(&a)) confirm(&a);
        advise_forecast_end(&a, run_extra, elapsed());
        cleanup(&a);
        a.elapsed_s = elapsed();
        if (a.interrupted) a.r.stop = "interrupted";
        if (strcmp(opts_get(cli, "format"), "json")) advise_print_text(&a);
        else advise_print_json(&a);
        fflush(stdout);
        bb_err werr = { .code = BB_EXIT_RUNTIME };
        if (advise_write_runs(&a, &werr) < 0) output_fail(&werr);
        if (a.left[0]) {
            fprintf(stderr, "bulkbench: scratch tables were left behind: %s\n", a.left);
            rc = BB_EXIT_RUNTIME;
        }
        if (a.interrupted) {
            fprintf(stderr, "bulkbench: interrupted; the standings so far are above\n");
            rc = 128 + a.interrupted;
        } else if (race_pick(&a.r) < 0) {
            const char *why = "-";
            for (int k = a.n - 1; k >= 0; k--)
                if (a.c[k].error[0]) why = a.c[k].error;
            bb_errf(&err, "no candidate finished a run: every one failed (the first: %s)", why);
            err.code = BB_EXIT_RUNTIME;
            rc = output_fail(&err);
        }
    }
    advise_free(&a);
    return rc;
}

// clang-format off
/* advise's own options, defined here (opts.h) */
static const opt_def budget = { "budget", OT_STR, "5m", 0, 0, "wall time the whole race may take, set-up included: 90s, 5m, 1h" };
static const opt_def baseline = { "baseline", OT_STR, NULL, 0, 0, "METHOD:BATCH:THREADS raced along every round, to compare the recommendation with" };
static const opt_def cleanup_opt = { "cleanup", OT_BOOL, NULL, 0, 0, "drop the scratch tables runs no longer running left (a killed advise, run or new scenario), and stop" };
static const opt_def *const advise_own[] = { &budget, &baseline, &cleanup_opt, NULL };

static const opt_use advise_opts[] = {
    { "engine", "the engine (one)", NULL, "E" },
    { "dsn", NULL, NULL, "DSN" },
    { "budget", NULL, NULL, "DURATION" },
    { "table", "a script: which of its tables to race (default the one bb.load loads); a file: the existing table whose shape the scratch table takes", NULL, "NAME" },
    { "method", "race only these methods (default: every method the engine offers)", NULL, "M[,M..]" },
    { "strategy", "race these load strategies too (docs/strategies.md)", "none", "S[,S..]" },
    { "threads", "race only these thread counts", "1,2,4...twice the server's cores", "N[,N..]" },
    { "batch", "race only these batches", "10...100000; COPY and LOAD DATA 1000...100000 and one stream per worker", "N[,N..]" },
    { "chunk", "a file: race only these chunk sizes", "1MB,4MB,16MB,64MB up to the file's size", "SIZE[,SIZE..]" },
    { "set", NULL, NULL, "NAME=V[,V..]" },
    { "baseline", "a configuration raced along every round, to compare the recommendation with", NULL, "M:BATCH:THREADS" },
    { "rows", "the rows the answer is for: the last rounds load this many (default the script's, else 1000000; a file: all of it)", NULL, NULL },
    { "format", "how the outcome prints: text, or one JSON object (a file's own format comes from its name)", "text", "FORMAT" },
    { "out", "append every run of the race to this file, each with its `advise` object", NULL, "FILE.jsonl" },
    { "seed", NULL, NULL, NULL },
    { "now", NULL, NULL, "TIME" },
    { "header", "a file: its first row names columns", NULL, NULL },
    { "columns", NULL, NULL, "a,b,c" },
    { "delimiter", NULL, NULL, "CHAR" },
    { "quote", NULL, NULL, "CHAR" },
    { "null", "a file: the field text that means NULL", NULL, "TEXT" },
    { "progress", "a line per run on standard error (default: on when it is a terminal)", NULL, NULL },
    { "cleanup", NULL, NULL, NULL },
    { NULL, NULL, NULL, NULL }
};
// clang-format on

const bb_command advise_command = {
    "advise",
    "SCRIPT.lua|FILE --engine=E [--budget=5m] [options]",
    "the fastest way to load rows like these: a budgeted race of methods, batches and threads into scratch tables",
    "bulkbench advise workloads/quickstart.lua --method=txn,multirow --batch=100,1000 --threads=1 --rows=20000 "
    "--budget=20s",
    advise_opts,
    advise_own,
    advise_main,
    CMD_SIGNALS | CMD_SCRIPT,
};
