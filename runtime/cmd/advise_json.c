/* advise_json.c — what `bulkbench advise` found as one JSON object (--format=json, and the
 * last line of --out), and every run of the race into --out with its place in it, for
 * `bulkbench report`. The figures are advise_out.c's: one per candidate, everywhere. */
#include "advise.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "output.h"

/* An interval of two runs or more (one run is no interval: null). */
static json_t *ci_json(const bb_summary *s)
{
    if (s->n < 2) return json_null();
    return json_pack("[ff]", s->lo, s->hi);
}
static json_t *num_or_null(double v) { return v < 0 ? json_null() : json_real(v); }

static json_t *set_json(const adv_cand *c)
{
    json_t *o = json_object();
    for (int i = 0; c->combo && i < c->combo->nset; i++)
        json_object_set_new(o, c->combo->set_name[i], json_string(c->combo->set_value[i]));
    return o;
}

/* method, batch, threads, set: who a candidate is */
static json_t *who_json(const adv_cand *c)
{
    json_t *o = json_pack("{s:s, s:s, s:I, s:i}", "candidate", c->key, "method", c->method, "batch",
                          (json_int_t)c->batch, "threads", c->threads);
    json_object_set_new(o, "set", set_json(c));
    return o;
}

static json_t *candidate_json(const advise *a, int k, int pick)
{
    const adv_cand *c = &a->c[k];
    const race_cand *rc = &a->rc[k];
    json_t *o = who_json(c), *rounds = json_array();
    json_object_set_new(o, "fate", json_string(advise_fate(a, k)));
    json_object_set_new(o, "out_round", rc->out_round ? json_integer(rc->out_round) : json_null());
    json_object_set_new(o, "baseline", json_boolean(rc->baseline));
    json_object_set_new(o, "rows_per_s", rc->stat.n ? json_real(rc->stat.median) : json_null());
    json_object_set_new(o, "ci95", ci_json(&rc->stat));
    json_object_set_new(o, "ci_level", rc->stat.n >= 2 ? json_real(rc->stat.level) : json_null());
    json_object_set_new(o, "at_rows", rc->stat.n ? json_integer(advise_standing_rows(a, k)) : json_null());
    json_object_set_new(o, "error", c->error[0] ? json_string(c->error) : json_null());
    double risk = rc->state == RACE_DROPPED ? race_drop_risk(&a->r, k, pick) : -1;
    json_object_set_new(o, "drop_risk", num_or_null(risk));
    json_object_set_new(o, "retries", json_integer(c->retries));
    json_object_set_new(o, "retry", c->retry_note[0] ? json_string(c->retry_note) : json_null());
    for (int m = 0; m < rc->nmark; m++) {
        const race_mark *mk = &rc->mark[m];
        json_t *runs = json_array();
        for (int i = 0; i < c->nruns; i++)
            if (c->runs[i].round == mk->round && !c->runs[i].res.error[0])
                json_array_append_new(runs, json_real(result_rows_per_s(&c->runs[i].res)));
        json_t *r = json_pack("{s:i, s:I, s:o, s:i, s:f}", "round", mk->round, "rows", (json_int_t)mk->rows, "runs",
                              runs, "n", mk->rps.n, "median", mk->rps.median);
        json_object_set_new(r, "ci95", ci_json(&mk->rps));
        json_array_append_new(rounds, r);
    }
    json_object_set_new(o, "rounds", rounds);
    return o;
}

/* Where a re-run lands and what that interval is made of (race_rerun, race_noise_of). */
static void rerun_json(const advise *a, int pick, json_t *rec)
{
    double lo, hi, level = race_rerun(&a->r, pick, &lo, &hi);
    json_object_set_new(rec, "ci95", level < 0 ? json_null() : json_pack("[ff]", lo, hi));
    json_object_set_new(rec, "ci_level", level < 0 ? json_null() : json_real(level));
    json_object_set_new(rec, "ci_kind", json_string("re-run"));
    json_object_set_new(rec, "ci_rows", json_integer(advise_standing_rows(a, pick))); /* the re-run's scale */
    race_noise z;                                                                     /* spreads in natural logs */
    if (race_noise_of(&a->r, &z))
        json_object_set_new(rec, "ci_spread",
                            json_pack("{s:o, s:i, s:o, s:i, s:f, s:i}", "within", num_or_null(z.within), "within_dof",
                                      z.within_dof, "between", num_or_null(z.within < 0 ? -1 : z.between),
                                      "between_dof", z.between_dof, "pooled", z.pooled, "pooled_dof", z.pooled_dof));
    else json_object_set_new(rec, "ci_spread", json_null());
    const bb_summary *s = &a->rc[pick].stat;
    json_object_set_new(rec, "median_ci95", ci_json(s));
    json_object_set_new(rec, "median_ci_level", s->n >= 2 ? json_real(s->level) : json_null());
}

/* What bounds the pick and what would move it; its cost per row; those it cannot be told from. */
static void bound_json(const advise *a, int pick, json_t *rec)
{
    const bb_waits *bw = advise_bound(a, pick);
    char move[1024], same[1024];
    if (bw) advise_move(a, pick, bw->kind, move, sizeof move);
    json_object_set_new(rec, "bound",
                        bw ? json_pack("{s:s, s:s, s:o}", "kind", bw->kind, "evidence", bw->evidence, "move",
                                       move[0] ? json_string(move) : json_null())
                           : json_null());
    const char *why = advise_why_picked(a, pick);
    json_object_set_new(rec, "why", why ? json_string(why) : json_null());
    json_t *ind = json_array();
    if (advise_alike(a, pick, same, sizeof same))
        for (char *t = strtok(same, ", "); t; t = strtok(NULL, ", ")) json_array_append_new(ind, json_string(t));
    json_object_set_new(rec, "indistinguishable_from", ind);
    double cost[3];
    advise_cost_per_row(a, pick, cost);
    json_object_set_new(rec, "cost_per_row",
                        json_pack("{s:o, s:o, s:o}", "client_cpu_us", num_or_null(cost[0] < 0 ? -1 : cost[0] * 1e6),
                                  "server_cpu_us", num_or_null(cost[1] < 0 ? -1 : cost[1] * 1e6), "log_bytes",
                                  num_or_null(cost[2])));
}

static json_t *rec_json(const advise *a, int pick)
{
    json_t *rec = who_json(&a->c[pick]);
    const adv_cand *pc = &a->c[pick];
    char cmd[1024];
    advise_command_line(a, pick, cmd, sizeof cmd);
    json_object_set_new(rec, "rows_per_s", json_real(a->rc[pick].stat.median));
    json_object_set_new(rec, "strategy", json_string(pc->combo && pc->combo->strategy ? pc->combo->strategy : "none"));
    if (pc->nruns && pc->runs[pc->nruns - 1].res.strategy_gives_up[0])
        json_object_set_new(rec, "gives_up", json_string(pc->runs[pc->nruns - 1].res.strategy_gives_up));
    rerun_json(a, pick, rec);
    int64_t at = advise_standing_rows(a, pick);
    json_object_set_new(rec, "runs", json_integer(a->rc[pick].stat.n));
    json_object_set_new(rec, "at_rows", json_integer(at));
    json_object_set_new(rec, "confirmed_at_rows", json_boolean(advise_confirmed_at_rows(a, pick)));
    json_object_set_new(rec, "budget_for_rows_s", a->short_budget_s > 0 ? json_real(a->short_budget_s) : json_null());
    json_object_set_new(rec, "command", json_string(cmd));
    if (a->focus)
        json_object_set_new(
            rec, "command_note",
            json_string("the script's bb.load loads another table: give this one to bb.load to run it"));
    bound_json(a, pick, rec);
    advise_forecast_json(a, rec); /* --rows beyond the budget: the answer a forecast */
    return rec;
}

static json_t *baseline_json(const advise *a, int pick)
{
    json_t *b = who_json(&a->c[a->baseline]);
    const race_cand *rc = &a->rc[a->baseline];
    json_object_set_new(b, "rows_per_s", rc->stat.n ? json_real(rc->stat.median) : json_null());
    json_object_set_new(b, "ci95", ci_json(&rc->stat));
    adv_ratio r;
    if (advise_baseline(a, pick, &r)) {
        char v[160];
        advise_verdict_text(&r, a->r.cfg.tie, v, sizeof v);
        json_object_set_new(b, "ratio", num_or_null(r.ratio));
        json_object_set_new(b, "ratio_ci95", r.lo < 0 ? json_null() : json_pack("[ff]", r.lo, r.hi));
        json_object_set_new(b, "ratio_ci_level", r.lo < 0 ? json_null() : json_real(r.level));
        json_object_set_new(b, "ratio_ci_kind", json_string("paired: the mean of the pairs' ratios"));
        json_object_set_new(b, "paired", json_boolean(r.pairs >= 2));
        json_object_set_new(b, "pairs", json_integer(r.pairs));
        json_object_set_new(b, "ratio_rows", json_integer(r.rows));
        json_object_set_new(b, "verdict", json_string(r.verdict));
        json_object_set_new(b, "verdict_text", json_string(v));
        json_object_set_new(b, "more_runs", r.more > 0 ? json_integer(r.more) : json_null());
    }
    return b;
}

/* The drop rule and what it risked. */
static json_t *drops_json(const advise *a, int pick)
{
    int worst, dropped = 0;
    double max, risk = pick >= 0 ? advise_drop_risk(a, pick, &worst, &max) : -1;
    for (int k = 0; k < a->n; k++) dropped += a->rc[k].state == RACE_DROPPED;
    race_noise z;
    double var = race_noise_of(&a->r, &z) ? race_run_var(&z) : -1;
    return json_pack("{s:s, s:i, s:f, s:o, s:o, s:o, s:o}", "rule", advise_drop_rule(a), "dropped", dropped, "tie",
                     a->r.cfg.tie, "risk", num_or_null(risk), "risk_max", num_or_null(risk < 0 ? -1 : max),
                     "risk_max_candidate", risk >= 0 && worst >= 0 ? json_string(a->c[worst].key) : json_null(),
                     "spread", num_or_null(var < 0 ? -1 : sqrt(var)));
}

static json_t *rounds_json(const advise *a)
{
    json_t *rounds = json_array();
    for (int i = 0; i < a->nrounds; i++) {
        const adv_round *r = &a->rounds[i];
        json_array_append_new(rounds,
                              json_pack("{s:i, s:I, s:i, s:f, s:i, s:i, s:f, s:f}", "round", r->plan.round, "rows",
                                        (json_int_t)r->plan.rows, "reps", r->plan.reps, "cap_s", r->plan.cap_s,
                                        "contestants", r->contestants, "runs", r->runs, "estimated_s", r->plan.est_s,
                                        "seconds", r->seconds));
    }
    return rounds;
}

static json_t *advise_json(const advise *a)
{
    int pick = advise_pick(a);
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:f, s:f, s:s, s:i, s:s, s:i}", "input", a->input, "scenario",
                          a->scenario, "engine", a->drv->name, "rows", (json_int_t)a->rows, "budget_s", a->budget_s,
                          "elapsed_s", a->elapsed_s, "stopped", advise_stopped(a), "server_cores", a->cores,
                          "server_cores_from", a->cores_from, "candidate_count", a->n);
    json_object_set_new(o, "table", a->table ? json_string(a->table) : json_null());
    json_object_set_new(o, "rounds", rounds_json(a));
    json_object_set_new(o, "recommendation", pick >= 0 ? rec_json(a, pick) : json_null());
    json_t *cands = json_array();
    int *idx = bb_xmalloc(sizeof *idx * (size_t)(a->n + 1));
    race_ranking(&a->r, idx);
    for (int i = 0; i < a->n; i++) json_array_append_new(cands, candidate_json(a, idx[i], pick));
    free(idx);
    json_object_set_new(o, "candidates", cands);
    json_object_set_new(o, "drops", drops_json(a, pick));
    if (a->baseline >= 0) json_object_set_new(o, "baseline", baseline_json(a, pick));
    return o;
}

void advise_print_json(const advise *a)
{
    json_t *o = advise_json(a);
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    printf("%s\n", s);
    free(s);
    json_decref(o);
}

int advise_write_runs(advise *a, bb_err *err)
{
    const char *out = opts_get(a->cli, "out");
    if (!out) return 0;
    FILE *f = fopen(out, "a");
    if (!f) return bb_errf(err, "cannot append to results file %s", out);
    for (int k = 0; k < a->n; k++)
        for (int i = 0; i < a->c[k].nruns; i++) {
            const adv_run *r = &a->c[k].runs[i];
            json_t *o = result_object(&r->res, &a->host);
            json_object_set_new(o, "advise",
                                json_pack("{s:i, s:s, s:s, s:o, s:b, s:I, s:f, s:f}", "round", r->round, "candidate",
                                          a->c[k].key, "fate", advise_fate(a, k), "out_round",
                                          a->rc[k].out_round ? json_integer(a->rc[k].out_round) : json_null(),
                                          "baseline", a->rc[k].baseline, "rows_asked", (json_int_t)r->rows_asked,
                                          "cap_s", r->cap_s, "wall_s", r->wall_s));
            char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
            fprintf(f, "%s\n", s);
            free(s);
            json_decref(o);
        }
    /* and last, advise's own answer (what --format=json prints): the report reads its figures
     * instead of working them out again from the runs */
    json_t *o = advise_json(a);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    fprintf(f, "%s\n", s);
    free(s);
    json_decref(o);
    if (fclose(f) != 0) return bb_errf(err, "cannot write results file %s", out);
    return 0;
}
