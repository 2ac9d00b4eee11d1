/* advise_out.c — what `bulkbench advise` found (see advise.h): the standings, the
 * recommendation with the command that reproduces it and what it costs, the comparison with
 * the baseline; as text or one JSON object; and every run, with its place in the race, into
 * --out for `bulkbench report`. */
#include "advise.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "../host/lib.h"
#include "output.h"

/* The recommendation: the race's pick, none when the race was interrupted (a race cut
 * short by a signal has not compared its candidates at the scale asked). */
int advise_pick(const advise *a) { return a->interrupted ? -1 : race_pick(&a->r); }

static const char *fate(const advise *a, int k)
{
    const race_cand *c = &a->rc[k];
    if (k == advise_pick(a)) return "winner";
    return c->state == RACE_ALIVE ? "kept" : c->state == RACE_DROPPED ? "dropped" : "failed";
}

/* Why the pick is the one it is, when it is not simply the leader. */
static const char *why_picked(const advise *a, int pick)
{
    if (race_by_simplicity(&a->r) && pick != race_leader(&a->r))
        return "the simplest of the survivors, which cannot be told apart";
    if (pick != race_leader(&a->r))
        return "the surest of those as fast as the leader: its interval starts highest; the leader's spreads lower";
    return NULL;
}

/* The survivors that cannot be told apart from the pick: as fast (median within the race's tie
 * of the leader's) with intervals that overlap the pick's; their keys, ", "-joined, into out;
 * how many besides the pick. */
static int alike(const advise *a, int pick, char *out, size_t n)
{
    int l = race_leader(&a->r), m = 0;
    size_t len = 0;
    out[0] = 0;
    if (l < 0 || pick < 0) return 0;
    const bb_summary *p = &a->rc[pick].stat;
    for (int k = 0; k < a->n; k++) {
        const bb_summary *s = &a->rc[k].stat;
        if (k == pick || a->rc[k].state != RACE_ALIVE || !s->n) continue;
        if (s->median < (1 - a->r.cfg.tie) * a->rc[l].stat.median || s->hi < p->lo || s->lo > p->hi) continue;
        len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s", m ? ", " : "", a->c[k].key);
        m++;
    }
    return m;
}

/* The scale of k's standing: the rows of its last mark (0: none). */
static int64_t standing_rows(const advise *a, int k)
{
    const race_cand *c = &a->rc[k];
    return c->nmark ? c->mark[c->nmark - 1].rows : 0;
}

/* Whether a run at a scale ended without an error and, when `whole`, loaded every row its
 * round asked for: a run cut by its cap measured a shorter load, start-up weighing more, and
 * is a term of a ratio only when no whole run is there. */
static int whole_run(const adv_run *r, int64_t rows, int whole)
{
    return r->rows_asked == rows && !r->res.error[0] && (!whole || r->res.rows >= rows);
}

/* The rows/s of k's runs at a scale (whole ones, or any), into v; how many. */
static int rates_at(const advise *a, int k, int64_t rows, int whole, double *v)
{
    int n = 0;
    for (int i = 0; i < a->c[k].nruns; i++)
        if (whole_run(&a->c[k].runs[i], rows, whole)) v[n++] = result_rows_per_s(&a->c[k].runs[i].res);
    return n;
}

/* What a row costs in k's runs at its standing's scale: the medians of client CPU, server
 * CPU (seconds) and WAL/binlog bytes per row; -1 where no run measured it. */
static void cost_per_row(const advise *a, int k, double out[3])
{
    const adv_cand *c = &a->c[k];
    double *v = bb_xmalloc(sizeof *v * (size_t)(c->nruns + 1));
    int64_t rows = standing_rows(a, k);
    for (int f = 0; f < 3; f++) {
        int n = 0;
        for (int i = 0; i < c->nruns; i++) {
            const bb_result *r = &c->runs[i].res;
            double x = f == 0 ? r->client_cpu_s : f == 1 ? r->server_cpu_s : (double)r->log_bytes;
            if (c->runs[i].rows_asked == rows && !r->error[0] && r->rows > 0 && x >= 0) v[n++] = x / (double)r->rows;
        }
        out[f] = n ? summary_median(v, n) : -1;
    }
    free(v);
}

/* The pick's and the baseline's paired ratios: the runs of one turn of a round at a scale
 * (each ran right after the other), pick over baseline, into v; how many. */
static int paired_ratios(const advise *a, int pick, int64_t rows, int whole, double *v)
{
    int n = 0;
    const adv_cand *p = &a->c[pick], *b = &a->c[a->baseline];
    for (int i = 0; i < p->nruns; i++) {
        const adv_run *x = &p->runs[i];
        if (!whole_run(x, rows, whole)) continue;
        for (int j = 0; j < b->nruns; j++) {
            const adv_run *y = &b->runs[j];
            double rb = result_rows_per_s(&y->res);
            if (y->round == x->round && y->rep == x->rep && whole_run(y, rows, whole) && rb > 0)
                v[n++] = result_rows_per_s(&x->res) / rb;
        }
    }
    return n;
}

/* The baseline against the recommendation at the recommendation's scale: out = { ratio, lo,
 * hi, baseline's median, level }; lo < 0 when there is no interval. Paired when both ran turn
 * by turn at that scale, twice or more (the median of turn-by-turn ratios, and where a
 * re-run's lands: its prediction interval, summary_predict), else as `report --compare` puts
 * two sets of runs (the interval of the ratio of medians); 0 when there is none. */
static int baseline_ratio(advise *a, int pick, double out[5])
{
    if (a->baseline < 0 || pick < 0) return 0;
    int64_t rows = standing_rows(a, pick);
    int nmax = a->c[pick].nruns + a->c[a->baseline].nruns + 1, ok = 0;
    double *rec = bb_xmalloc(sizeof *rec * (size_t)nmax), *base = bb_xmalloc(sizeof *base * (size_t)nmax);
    int whole = rates_at(a, a->baseline, rows, 1, base) > 0; /* a slow baseline may have only cut runs */
    int nr = rates_at(a, pick, rows, whole, rec), nb = rates_at(a, a->baseline, rows, whole, base), np = 0;
    if (pick != a->baseline) np = paired_ratios(a, pick, rows, whole, rec);
    bb_err err;
    if (pick == a->baseline) np = 0;
    if (np >= 2 && nb) {
        /* where a re-run's paired ratio lands: the spread of the turn-by-turn ratios in logs */
        int m;
        double ss = summary_log_ss(rec, np, &m, NULL);
        out[0] = summary_median(rec, np);
        out[4] = summary_predict(out[0], np, sqrt(ss / (m - 1)), m - 1, &out[1], &out[2]);
        out[3] = summary_median(base, nb);
        ok = 2;
    } else if (a->rs.L && nr && nb && lib_ratio_interval(a->rs.L, base, nb, rec, nr, out, &err) == 0) {
        out[3] = summary_median(base, nb);
        out[4] = out[1] < 0 ? 0 : SUMMARY_LEVEL;
        ok = 1;
    }
    free(rec);
    free(base);
    return ok;
}

static const char *verdict(const double r[4])
{
    if (r[1] < 0) return "too few runs for an interval";
    return r[1] > 1 ? "faster" : r[2] < 1 ? "slower" : "no difference";
}

void advise_describe(const adv_cand *c, char *out, size_t n)
{
    size_t len = (size_t)snprintf(out, n, "%s", c->method);
    char sz[32];
    if (!c->combo && c->batch > 0)
        len += (size_t)snprintf(out + len, n - len, ", chunk %s", advise_size_text(c->batch, sz, sizeof sz));
    else if (c->batch == 0) len += (size_t)snprintf(out + len, n - len, ", one stream per worker");
    else if (!c->per_row) len += (size_t)snprintf(out + len, n - len, ", batch %lld", (long long)c->batch);
    len += (size_t)snprintf(out + len, n - len, ", %d thread%s", c->threads, c->threads == 1 ? "" : "s");
    for (int i = 0; c->combo && i < c->combo->nset; i++)
        len += (size_t)snprintf(out + len, n - len, ", %s=%s", c->combo->set_name[i], c->combo->set_value[i]);
}

/* Appends " word" to out, in single quotes when the shell would read it otherwise. */
static size_t put_word(char *out, size_t n, size_t len, const char *word)
{
    if (len >= n) return len;
    int plain = *word != 0;
    for (const char *p = word; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("_./:=,@%+-", *p);
    if (plain) return len + (size_t)snprintf(out + len, n - len, " %s", word);
    len += (size_t)snprintf(out + len, n - len, " '");
    for (const char *p = word; *p && len < n; p++)
        len += (size_t)snprintf(out + len, n - len, *p == '\'' ? "'\\''" : "%c", *p);
    return len < n ? len + (size_t)snprintf(out + len, n - len, "'") : len;
}

static size_t put_opt(char *out, size_t n, size_t len, const char *name, const char *value)
{
    char w[1200];
    snprintf(w, sizeof w, "--%s=%s", name, value);
    return put_word(out, n, len, w);
}

/* The dsn with its password, and only that, as ***: user://name:***@host/db, password=*** */
static void dsn_masked(const char *dsn, char *out, size_t n)
{
    const char *p = strstr(dsn, "://"), *colon = p ? strchr(p + 3, ':') : NULL, *at = p ? strrchr(p + 3, '@') : NULL;
    if (colon && at && colon < at) {
        snprintf(out, n, "%.*s***%s", (int)(colon + 1 - dsn), dsn, at);
        return;
    }
    const char *k = strstr(dsn, "password"), *v = k ? k + 8 : NULL;
    while (v && *v == ' ') v++;
    if (v && *v == '=') {
        v++;
        while (*v == ' ') v++;
        size_t len = *v == '\'' ? strcspn(v + 1, "'") + 2 : strcspn(v, " ");
        snprintf(out, n, "%.*s***%s", (int)(v - dsn), dsn, v + len);
        return;
    }
    snprintf(out, n, "%s", dsn);
}

/* The command that reproduces k, each word shell-quoted: `bulkbench run` for a script (its
 * own options as given), `bulkbench load` for a file (its --columns and format options as
 * given); --dsn as given, its password masked (give it again). */
static void command_of(advise *a, int k, char *out, size_t n)
{
    const adv_cand *c = &a->c[k];
    char v[64];
    size_t len = (size_t)snprintf(out, n, "bulkbench %s", a->file ? "load" : "run");
    len = put_word(out, n, len, a->input);
    len = put_opt(out, n, len, "engine", a->drv->name);
    const char *dsn = opts_get(a->cli, "dsn");
    if (dsn) {
        char masked[1024];
        dsn_masked(dsn, masked, sizeof masked);
        len = put_opt(out, n, len, "dsn", masked);
    }
    if (a->file) {
        len = put_opt(out, n, len, "table", a->table);
        snprintf(v, sizeof v, "%d", c->threads);
        len = put_opt(out, n, len, "threads", v);
        len = put_opt(out, n, len, "chunk", advise_size_text(c->batch, v, sizeof v));
        static const char *const fmt[] = { "columns", "delimiter", "quote", "null", NULL };
        for (int i = 0; fmt[i]; i++)
            if (opts_get(a->cli, fmt[i])) len = put_opt(out, n, len, fmt[i], opts_get(a->cli, fmt[i]));
        if (a->lo.header && len < n) len += (size_t)snprintf(out + len, n - len, " --header");
        return;
    }
    len = put_opt(out, n, len, "method", c->method);
    snprintf(v, sizeof v, "%lld", (long long)c->batch);
    if (!c->per_row && c->batch > 0) len = put_opt(out, n, len, "batch", v);
    snprintf(v, sizeof v, "%d", c->threads);
    len = put_opt(out, n, len, "threads", v);
    snprintf(v, sizeof v, "%lld", (long long)a->rows);
    len = put_opt(out, n, len, "rows", v);
    for (int i = 0; i < c->combo->nset && len < n; i++) {
        char sv[400];
        snprintf(sv, sizeof sv, "%s=%s", c->combo->set_name[i], c->combo->set_value[i]);
        len = put_opt(out, n, len, "set", sv);
    }
    for (int i = 0; i < a->cli->nkv && len < n; i++) /* the script's own options, as given */
        if (!opts_def(a->cli->own, a->cli->kv[i].name))
            len = put_opt(out, n, len, a->cli->kv[i].name, a->cli->kv[i].value);
    if (c->combo->strategy) len = put_opt(out, n, len, "strategy", c->combo->strategy);
}

static json_t *ci_json(const bb_summary *s)
{
    if (!s->n) return json_null();
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

static json_t *candidate_json(const advise *a, int k)
{
    const adv_cand *c = &a->c[k];
    const race_cand *rc = &a->rc[k];
    json_t *o = who_json(c), *rounds = json_array();
    json_object_set_new(o, "fate", json_string(fate(a, k)));
    json_object_set_new(o, "out_round", rc->out_round ? json_integer(rc->out_round) : json_null());
    json_object_set_new(o, "baseline", json_boolean(rc->baseline));
    json_object_set_new(o, "rows_per_s", rc->stat.n ? json_real(rc->stat.median) : json_null());
    json_object_set_new(o, "ci95", ci_json(&rc->stat));
    json_object_set_new(o, "ci_level", rc->stat.n ? json_real(rc->stat.level) : json_null());
    json_object_set_new(o, "error", c->error[0] ? json_string(c->error) : json_null());
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

/* What bounds the recommendation: the bottleneck named in its last run (the largest scale), NULL when none was. */
static const bb_waits *bound_of(const advise *a, int pick)
{
    const adv_cand *c = &a->c[pick];
    for (int i = c->nruns - 1; i >= 0; i--)
        if (c->runs[i].res.waits.kind[0]) return &c->runs[i].res.waits;
    return NULL;
}

static json_t *advise_json(advise *a)
{
    int pick = advise_pick(a);
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:f, s:f, s:s, s:i, s:s, s:i}", "input", a->input, "scenario",
                          a->scenario, "engine", a->drv->name, "rows", (json_int_t)a->rows, "budget_s", a->budget_s,
                          "elapsed_s", a->elapsed_s, "stopped", a->r.stop ? a->r.stop : "budget", "server_cores",
                          a->cores, "server_cores_from", a->cores_from, "candidate_count", a->n);
    json_object_set_new(o, "table", a->table ? json_string(a->table) : json_null());
    json_t *rounds = json_array();
    for (int i = 0; i < a->nrounds; i++) {
        const adv_round *r = &a->rounds[i];
        json_array_append_new(rounds,
                              json_pack("{s:i, s:I, s:i, s:f, s:i, s:i, s:f, s:f}", "round", r->plan.round, "rows",
                                        (json_int_t)r->plan.rows, "reps", r->plan.reps, "cap_s", r->plan.cap_s,
                                        "contestants", r->contestants, "runs", r->runs, "estimated_s", r->plan.est_s,
                                        "seconds", r->seconds));
    }
    json_object_set_new(o, "rounds", rounds);
    if (pick >= 0) {
        json_t *rec = who_json(&a->c[pick]);
        const race_cand *rc = &a->rc[pick];
        double cost[3];
        char cmd[1024];
        cost_per_row(a, pick, cost);
        command_of(a, pick, cmd, sizeof cmd);
        json_object_set_new(rec, "rows_per_s", json_real(rc->stat.median));
        const adv_cand *pc = &a->c[pick]; /* its strategy and what it gives up (none: nothing) */
        json_object_set_new(rec, "strategy",
                            json_string(pc->combo && pc->combo->strategy ? pc->combo->strategy : "none"));
        if (pc->nruns && pc->runs[pc->nruns - 1].res.strategy_gives_up[0])
            json_object_set_new(rec, "gives_up", json_string(pc->runs[pc->nruns - 1].res.strategy_gives_up));
        double lo, hi, level = race_rerun(&a->r, pick, &lo, &hi);
        json_object_set_new(rec, "ci95", level < 0 ? json_null() : json_pack("[ff]", lo, hi));
        json_object_set_new(rec, "ci_level", level < 0 ? json_null() : json_real(level));
        json_object_set_new(rec, "ci_kind", json_string("re-run"));
        json_object_set_new(rec, "ci_rows", json_integer(standing_rows(a, pick))); /* the re-run's scale */
        race_noise z; /* what the re-run interval is made of: spreads in natural logs */
        if (race_noise_of(&a->r, &z))
            json_object_set_new(rec, "ci_spread",
                                json_pack("{s:o, s:i, s:o, s:i, s:f, s:i}", "within", num_or_null(z.within),
                                          "within_dof", z.within_dof, "between",
                                          num_or_null(z.within < 0 ? -1 : z.between), "between_dof", z.between_dof,
                                          "pooled", z.pooled, "pooled_dof", z.pooled_dof));
        else json_object_set_new(rec, "ci_spread", json_null());
        json_object_set_new(rec, "median_ci95", ci_json(&rc->stat));
        json_object_set_new(rec, "median_ci_level", json_real(rc->stat.level));
        json_object_set_new(rec, "runs", json_integer(rc->stat.n));
        json_object_set_new(rec, "at_rows", json_integer(standing_rows(a, pick)));
        json_object_set_new(rec, "confirmed_at_rows",
                            json_boolean(standing_rows(a, pick) == a->rows && rc->stat.level >= SUMMARY_LEVEL));
        json_object_set_new(rec, "budget_for_rows_s",
                            a->short_budget_s > 0 ? json_real(a->short_budget_s) : json_null());
        json_object_set_new(rec, "command", json_string(cmd));
        const bb_waits *bw = bound_of(a, pick);
        json_object_set_new(rec, "bound",
                            bw ? json_pack("{s:s, s:s, s:s?}", "kind", bw->kind, "evidence", bw->evidence, "move",
                                           bottleneck_move(bw->kind))
                               : json_null());
        json_object_set_new(rec, "why", why_picked(a, pick) ? json_string(why_picked(a, pick)) : json_null());
        char same[1024];
        json_t *ind = json_array();
        if (alike(a, pick, same, sizeof same))
            for (char *t = strtok(same, ", "); t; t = strtok(NULL, ", ")) json_array_append_new(ind, json_string(t));
        json_object_set_new(rec, "indistinguishable_from", ind);
        if (a->focus)
            json_object_set_new(rec, "command_note",
                                json_string("the script's bb.load loads another table: "
                                            "give this one to bb.load to run it"));
        json_object_set_new(rec, "cost_per_row",
                            json_pack("{s:o, s:o, s:o}", "client_cpu_us", num_or_null(cost[0] < 0 ? -1 : cost[0] * 1e6),
                                      "server_cpu_us", num_or_null(cost[1] < 0 ? -1 : cost[1] * 1e6), "log_bytes",
                                      num_or_null(cost[2])));
        json_object_set_new(o, "recommendation", rec);
    } else json_object_set_new(o, "recommendation", json_null());
    json_t *cands = json_array();
    int *idx = bb_xmalloc(sizeof *idx * (size_t)(a->n + 1));
    race_ranking(&a->r, idx);
    for (int i = 0; i < a->n; i++) json_array_append_new(cands, candidate_json(a, idx[i]));
    free(idx);
    json_object_set_new(o, "candidates", cands);
    double br[5];
    if (a->baseline >= 0) {
        json_t *b = who_json(&a->c[a->baseline]);
        const race_cand *rc = &a->rc[a->baseline];
        json_object_set_new(b, "rows_per_s", rc->stat.n ? json_real(rc->stat.median) : json_null());
        json_object_set_new(b, "ci95", ci_json(&rc->stat));
        int how = baseline_ratio(a, pick, br);
        if (how) {
            json_object_set_new(b, "ratio", json_real(br[0]));
            json_object_set_new(b, "ratio_ci95", br[1] < 0 ? json_null() : json_pack("[ff]", br[1], br[2]));
            json_object_set_new(b, "ratio_ci_level", br[1] < 0 ? json_null() : json_real(br[4]));
            json_object_set_new(b, "ratio_ci_kind", json_string(how == 2 ? "re-run" : "ratio of medians"));
            json_object_set_new(b, "paired", json_boolean(how == 2));
            json_object_set_new(b, "verdict", json_string(verdict(br)));
        }
        json_object_set_new(o, "baseline", b);
    }
    return o;
}

/* 1234567 -> "1,234,567" */
static const char *thousands(double v, char *out, size_t n)
{
    char raw[32];
    snprintf(raw, sizeof raw, "%.0f", v);
    size_t len = strlen(raw), j = 0;
    for (size_t i = 0; i < len && j + 2 < n; i++) {
        out[j++] = raw[i];
        if ((len - i - 1) % 3 == 0 && i + 1 < len && raw[i] != '-') out[j++] = ',';
    }
    out[j] = 0;
    return out;
}

static void print_standing(const advise *a, int k, int rank)
{
    const race_cand *rc = &a->rc[k];
    char m[32], lo[32], hi[32], at[48] = "-", iv[80] = "-", fa[48];
    if (rc->stat.n) {
        snprintf(iv, sizeof iv, "[%s, %s] %.0f%%", thousands(rc->stat.lo, lo, sizeof lo),
                 thousands(rc->stat.hi, hi, sizeof hi), floor(rc->stat.level * 100 + 1e-9));
        snprintf(at, sizeof at, "%d at %lld", rc->stat.n, (long long)standing_rows(a, k));
    }
    if (rc->out_round) snprintf(fa, sizeof fa, "%s in round %d", fate(a, k), rc->out_round);
    else snprintf(fa, sizeof fa, "%s", fate(a, k));
    printf("%4d  %-30s %12s  %-24s %-14s %s%s\n", rank, a->c[k].key,
           rc->stat.n ? thousands(rc->stat.median, m, sizeof m) : "-", iv, at, fa, rc->baseline ? " (baseline)" : "");
}

static void print_text(advise *a)
{
    int pick = advise_pick(a), rounds = a->nrounds, runs = 0;
    for (int k = 0; k < a->n; k++) runs += a->c[k].nruns;
    printf("advise: %s on %s%s%s, %lld rows: %d candidate%s, %d round%s, %d run%s in %.1f s of a %.0f s budget "
           "(stopped: %s)\n\n",
           a->input, a->drv->name, a->table ? ", table " : "", a->table ? a->table : "", (long long)a->rows, a->n,
           a->n == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s", runs, runs == 1 ? "" : "s", a->elapsed_s, a->budget_s,
           a->r.stop ? a->r.stop : "budget");
    printf("%4s  %-30s %12s  %-24s %-14s %s\n", "#", "candidate (method:batch:threads)", "rows/s", "interval (level)",
           "runs at rows", "fate");
    int *idx = bb_xmalloc(sizeof *idx * (size_t)(a->n + 1)), shown = 0, out_rounds = 0;
    race_ranking(&a->r, idx);
    for (int i = 0; i < a->n; i++) { /* those in the race and the baseline; the rest by the round they fell in */
        if (a->rc[idx[i]].state == RACE_ALIVE || a->rc[idx[i]].baseline || a->n <= 24) print_standing(a, idx[i], i + 1);
        else shown++;
        if (a->rc[idx[i]].out_round > out_rounds) out_rounds = a->rc[idx[i]].out_round;
    }
    for (int r = out_rounds; shown && r >= 1; r--) {
        /* "  out in round 1: a:1000:2 57,366; b:100:2 56,106; ...", wrapped under its head */
        int col = 0;
        for (int i = 0; i < a->n; i++) {
            int k = idx[i];
            if (a->rc[k].out_round != r || a->rc[k].baseline) continue;
            char m[32], item[160];
            int len = snprintf(item, sizeof item, "%s %s", a->c[k].key,
                               a->rc[k].stat.n ? thousands(a->rc[k].stat.median, m, sizeof m) : "failed");
            if (!col) col = printf("  out in round %d: %s", r, item);
            else if (col + len + 2 > 100) col = printf(";\n                  %s", item) - 2;
            else col += printf("; %s", item);
        }
        if (col) putchar('\n');
    }
    free(idx);
    if (pick < 0) {
        if (a->interrupted) printf("\nno recommendation: the race was interrupted before it could decide\n");
        else printf("\nno recommendation: no candidate finished a run\n");
        return;
    }
    const race_cand *rc = &a->rc[pick];
    char d[256], cmd[1024], m[32], lo[32], hi[32], iname[96];
    advise_describe(&a->c[pick], d, sizeof d);
    command_of(a, pick, cmd, sizeof cmd);
    int64_t at = standing_rows(a, pick);
    double rlo, rhi, rlevel = race_rerun(&a->r, pick, &rlo, &rhi);
    char where[48] = ""; /* a re-run at the scale it was decided at: the race knows nothing of the rest */
    if (at < a->rows) snprintf(where, sizeof where, " at %lld rows", (long long)at);
    if (rlevel > 0)
        snprintf(iname, sizeof iname, "a re-run%s: %.0f%% within %s to %s", where, rlevel * 100,
                 thousands(rlo, lo, sizeof lo), thousands(rhi, hi, sizeof hi));
    else snprintf(iname, sizeof iname, "a re-run's spread unknown: no candidate ran twice at one scale");
    printf("\nrecommendation: %s: %s rows/s (%d run%s at %lld rows; %s)\n  %s\n", d,
           thousands(rc->stat.median, m, sizeof m), rc->stat.n, rc->stat.n == 1 ? "" : "s", (long long)at, iname, cmd);
    if (at < a->rows)
        printf("  (decided at %lld rows, not the %lld asked: the budget could not reach them%s%.0fs would)\n",
               (long long)at, (long long)a->rows, a->short_budget_s > 0 ? "; --budget=" : "",
               a->short_budget_s > 0 ? a->short_budget_s : 0.0);
    if (why_picked(a, pick)) printf("  (%s)\n", why_picked(a, pick));
    const adv_cand *pc = &a->c[pick];
    if (pc->combo && pc->combo->strategy)
        printf("  strategy %s gives up: %s\n", pc->combo->strategy,
               pc->nruns && pc->runs[pc->nruns - 1].res.strategy_gives_up[0]
                   ? pc->runs[pc->nruns - 1].res.strategy_gives_up
                   : "(not known: it was skipped)");
    char same[1024];
    if (alike(a, pick, same, sizeof same))
        printf("  cannot be told apart from: %s (%s)\n", same,
               race_by_simplicity(&a->r) ? "the simplest of them is recommended"
                                         : "the one most surely fast is recommended");
    const bb_waits *bw = bound_of(a, pick);
    if (bw) {
        printf("  bound: %s (%s)\n", bw->kind, bw->evidence);
        if (bottleneck_move(bw->kind)) printf("  to move it: %s\n", bottleneck_move(bw->kind));
    }
    if (a->focus) printf("  (the script's bb.load loads another table: give %s to bb.load to run it so)\n", a->table);
    double cost[3];
    cost_per_row(a, pick, cost);
    printf("  cost per row: client CPU ");
    if (cost[0] >= 0) printf("%.2f us", cost[0] * 1e6);
    else printf("unknown");
    printf(", server CPU ");
    if (cost[1] >= 0) printf("%.2f us", cost[1] * 1e6);
    else printf("unknown");
    printf(", WAL/binlog ");
    if (cost[2] >= 0) printf("%.0f bytes\n", cost[2]);
    else printf("unknown\n");
    double br[5];
    int how;
    if (a->baseline >= 0 && (how = baseline_ratio(a, pick, br))) {
        printf("  against the baseline %s (%s rows/s): %.3fx%s", a->c[a->baseline].key, thousands(br[3], m, sizeof m),
               br[0], how == 2 ? " (paired runs)" : "");
        if (br[1] >= 0 && how == 2) printf(", a re-run's %.0f%% within [%.3f, %.3f]", br[4] * 100, br[1], br[2]);
        else if (br[1] >= 0) printf(", %.1f%% interval [%.3f, %.3f]", floor(br[4] * 1000 + 1e-9) / 10, br[1], br[2]);
        printf(", %s\n", verdict(br));
    }
}

void advise_print(advise *a)
{
    if (strcmp(opts_get(a->cli, "format"), "json")) {
        print_text(a);
        return;
    }
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
                                          a->c[k].key, "fate", fate(a, k), "out_round",
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
