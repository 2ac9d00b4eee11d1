/* advise_out.c — what `bulkbench advise` found, as people read it (see advise.h): the
 * standings in one order, one figure per candidate (its standing's median, as the JSON
 * gives it), the drop rule with the risk it took, what was run again and why, the
 * recommendation with the command that reproduces it, what bounds it and what would move it,
 * what a row costs, and the pick against the baseline. Also the pieces advise_json.c shares. */
#include "advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "output.h"

/* The recommendation: the race's pick, none when the race was interrupted (a race cut
 * short by a signal has not compared its candidates at the scale asked). */
int advise_pick(const advise *a)
{
    return a->interrupted ? -1 : advise_forecast_pick(a) >= 0 ? advise_forecast_pick(a) : race_pick(&a->r);
}

const char *advise_fate(const advise *a, int k)
{
    const race_cand *c = &a->rc[k];
    if (k == advise_pick(a)) return "winner";
    return c->state == RACE_ALIVE ? "kept" : c->state == RACE_DROPPED ? "dropped" : "failed";
}

const char *advise_stopped(const advise *a) { return a->r.stop ? a->r.stop : "budget"; }

int advise_confirmed_at_rows(const advise *a, int pick)
{
    return pick >= 0 && advise_standing_rows(a, pick) == a->rows && !strcmp(advise_stopped(a), "confirmed");
}

const char *advise_drop_rule(const advise *a)
{
    static char rule[512];
    snprintf(rule, sizeof rule,
             "a candidate leaves the race when its interval lies wholly below the leader's and its chance of "
             "winning is under %g%% (with one run: when that run is under 1/%g of the leader's), and at the "
             "confirmation when it is more than %.0f%% behind the leader or past the most the budget confirms; below "
             "--rows its figure is first raised by %.0f%% for the smaller scale",
             a->r.cfg.max_risk * 100, a->r.cfg.far, a->r.cfg.tie * 100, a->r.cfg.bias * 100);
    return rule;
}

/* Why the pick is the one it is, when it is not simply the leader. */
const char *advise_why_picked(const advise *a, int pick)
{
    if (advise_forecast_on(a)) return advise_forecast_why(a, pick);
    if (race_by_simplicity(&a->r) && pick != race_leader(&a->r))
        return "the simplest of the survivors, which cannot be told apart";
    if (pick != race_leader(&a->r))
        return "the surest of those as fast as the leader: its interval starts highest; the leader's spreads lower";
    return NULL;
}

/* The survivors that cannot be told apart from the pick: as fast (median within the race's tie
 * of the leader's) with intervals that overlap the pick's; their keys, ", "-joined, into out;
 * how many besides the pick. */
int advise_alike(const advise *a, int pick, char *out, size_t n)
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

/* What a row costs in k's runs at its standing's scale: the medians of client CPU, server
 * CPU (seconds) and WAL/binlog bytes per row; -1 where no run measured it. */
void advise_cost_per_row(const advise *a, int k, double out[3])
{
    const adv_cand *c = &a->c[k];
    double *v = bb_xmalloc(sizeof *v * (size_t)(c->nruns + 1));
    int64_t rows = advise_standing_rows(a, k);
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
void advise_command_line(const advise *a, int k, char *out, size_t n)
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

const bb_waits *advise_bound(const advise *a, int pick)
{
    const adv_cand *c = &a->c[pick];
    for (int i = c->nruns - 1; i >= 0; i--)
        if (c->runs[i].res.waits.kind[0]) return &c->runs[i].res.waits;
    return NULL;
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

/* "[115,747, 147,247] 96%": an interval of two runs or more; "-" for one */
static const char *interval_text(const bb_summary *s, char *out, size_t n)
{
    char lo[32], hi[32];
    if (s->n < 2) snprintf(out, n, "-");
    else
        snprintf(out, n, "[%s, %s] %.0f%%", thousands(s->lo, lo, sizeof lo), thousands(s->hi, hi, sizeof hi),
                 floor(s->level * 100 + 1e-9));
    return out;
}

static void print_standing(const advise *a, int k, int rank)
{
    const race_cand *rc = &a->rc[k];
    char m[32], at[48] = "-", iv[80], fa[48];
    if (rc->stat.n) snprintf(at, sizeof at, "%d at %lld", rc->stat.n, (long long)advise_standing_rows(a, k));
    if (rc->out_round) snprintf(fa, sizeof fa, "%s in round %d", advise_fate(a, k), rc->out_round);
    else snprintf(fa, sizeof fa, "%s", advise_fate(a, k));
    printf("%4d  %-30s %12s  %-24s %-14s %s%s\n", rank, a->c[k].key,
           rc->stat.n ? thousands(rc->stat.median, m, sizeof m) : "-", interval_text(&rc->stat, iv, sizeof iv), at, fa,
           rc->baseline ? " (baseline)" : "");
}

/* "  and 31 more out of the race: a:1000:2 57,366; b:100:2 56,106; ...": the m candidates of
 * idx, in the standings' order, wrapped under their head. */
static void print_out_list(const advise *a, const int *idx, int m)
{
    int col = 0;
    for (int i = 0; i < m; i++) {
        int k = idx[i];
        char med[32], item[160];
        int len = snprintf(item, sizeof item, "%s %s", a->c[k].key,
                           a->rc[k].stat.n ? thousands(a->rc[k].stat.median, med, sizeof med) : "failed");
        if (!col) col = printf("  and %d more out of the race: %s", m, item);
        else if (col + len + 2 > 100) col = printf(";\n      %s", item) - 2;
        else col += printf("; %s", item);
    }
    if (col) putchar('\n');
}

/* The standings, ranked in the one order (race_ranking): every candidate, or of more than 24
 * those in the race and the baseline, then the rest listed. */
static void print_standings(const advise *a)
{
    printf("%4s  %-30s %12s  %-24s %-14s %s\n", "#", "candidate (method:batch:threads)", "rows/s", "interval (level)",
           "runs at rows", "fate");
    int *idx = bb_xmalloc(sizeof *idx * (size_t)(a->n + 1)), shown = 0;
    race_ranking(&a->r, idx);
    for (int i = 0; i < a->n; i++) /* the race's in front: the rest, out, follow in order */
        if (a->n <= 24 || a->rc[idx[i]].state == RACE_ALIVE || a->rc[idx[i]].baseline)
            print_standing(a, idx[i], ++shown);
    int *rest = bb_xmalloc(sizeof *rest * (size_t)(a->n + 1)), m = 0;
    for (int i = 0; i < a->n && a->n > 24; i++)
        if (a->rc[idx[i]].state != RACE_ALIVE && !a->rc[idx[i]].baseline) rest[m++] = idx[i];
    if (m) print_out_list(a, rest, m);
    free(rest);
    free(idx);
}

/* text in lines of at most width columns, broken at spaces, those after the first indented. */
static void print_wrapped(const char *text, int width)
{
    int col = 0;
    for (const char *w = text; *w;) {
        size_t n = strcspn(w, " ");
        if (col && col + 1 + (int)n > width) col = printf("\n  ") - 1;
        else if (col) col += printf(" ");
        col += printf("%.*s", (int)n, w);
        w += n;
        while (*w == ' ') w++;
    }
    putchar('\n');
}

/* What failed and was run again: candidates whose first such failure said the same, on one
 * line (every candidate failing alike is one line, not one each); k's line unless an earlier
 * one had it. */
static void print_retried(const advise *a, int k)
{
    const char *note = strchr(a->c[k].retry_note, ':'); /* "round N: why": the why */
    for (int j = 0; j < k; j++)
        if (a->c[j].retries && !strcmp(strchr(a->c[j].retry_note, ':'), note)) return;
    int n = 0, recovered = 0, tries = 0, out = 0;
    for (int j = k; j < a->n; j++) {
        if (!a->c[j].retries || strcmp(strchr(a->c[j].retry_note, ':'), note)) continue;
        printf("%s%s", n++ ? ", " : "", a->c[j].key);
        recovered += a->c[j].recovered, tries += a->c[j].retries, out += a->c[j].error[0] != 0;
    }
    printf(": a run failed (%s) and ran again on new sessions: %d of %d such went through", a->c[k].retry_note,
           recovered, tries);
    if (out) printf("; %d failed again and left the race", out);
    putchar('\n');
}

/* The drop rule and the risk it took; what failed and was run again. */
static void print_notes(const advise *a, int pick)
{
    int worst, dropped = 0;
    for (int k = 0; k < a->n; k++) dropped += a->rc[k].state == RACE_DROPPED;
    double max, risk = pick >= 0 && dropped ? advise_drop_risk(a, pick, &worst, &max) : -1;
    if (dropped) {
        char text[1536];
        size_t len = (size_t)snprintf(text, sizeof text, "%d dropped: %s. ", dropped, advise_drop_rule(a));
        race_noise z;
        double var = race_noise_of(&a->r, &z) ? race_run_var(&z) : -1;
        if (risk >= 0)
            snprintf(text + len, sizeof text - len,
                     "The chance that one of them is faster than the winner by more than %.0f%%: at most %.1f%% (the "
                     "most, %s: %.1f%%), from this race's spread of %.0f%% a run.",
                     a->r.cfg.tie * 100, risk * 100, a->c[worst].key, max * 100, (exp(sqrt(var)) - 1) * 100);
        else snprintf(text + len, sizeof text - len, "What that risked is unknown: no candidate ran twice at one scale.");
        putchar('\n');
        print_wrapped(text, 100);
    }
    for (int k = 0; k < a->n; k++)
        if (a->c[k].retries) print_retried(a, k);
}

/* The pick, its command, its scale, why it and its equals. */
static void print_pick(const advise *a, int pick)
{
    const race_cand *rc = &a->rc[pick];
    char d[256], cmd[1024], m[32], lo[32], hi[32], iname[96], where[48] = "";
    advise_describe(&a->c[pick], d, sizeof d);
    advise_command_line(a, pick, cmd, sizeof cmd);
    int64_t at = advise_standing_rows(a, pick);
    double rlo, rhi, rlevel = race_rerun(&a->r, pick, &rlo, &rhi);
    if (at < a->rows)
        snprintf(where, sizeof where, " at %lld rows", (long long)at); /* the race knows nothing of the rest */
    if (rlevel > 0)
        snprintf(iname, sizeof iname, "a re-run%s: %.0f%% within %s to %s", where, rlevel * 100,
                 thousands(rlo, lo, sizeof lo), thousands(rhi, hi, sizeof hi));
    else snprintf(iname, sizeof iname, "a re-run's spread unknown: no candidate ran twice at one scale");
    printf("\nrecommendation: %s: %s rows/s (%d run%s at %lld rows; %s)\n  %s\n", d,
           thousands(rc->stat.median, m, sizeof m), rc->stat.n, rc->stat.n == 1 ? "" : "s", (long long)at, iname, cmd);
    if (at < a->rows && !advise_forecast_on(a)) /* a forecast says its own */
        printf("  (decided at %lld rows, not the %lld asked: the budget could not reach them%s%.0fs would)\n",
               (long long)at, (long long)a->rows, a->short_budget_s > 0 ? "; --budget=" : "",
               a->short_budget_s > 0 ? a->short_budget_s : 0.0);
    if (advise_why_picked(a, pick)) printf("  (%s)\n", advise_why_picked(a, pick));
    const adv_cand *pc = &a->c[pick];
    if (pc->combo && pc->combo->strategy)
        printf("  strategy %s gives up: %s\n", pc->combo->strategy,
               pc->nruns && pc->runs[pc->nruns - 1].res.strategy_gives_up[0]
                   ? pc->runs[pc->nruns - 1].res.strategy_gives_up
                   : "(not known: it was skipped)");
    char same[1024];
    if (advise_alike(a, pick, same, sizeof same))
        printf("  cannot be told apart from: %s (%s)\n", same,
               race_by_simplicity(&a->r) ? "the simplest of them is recommended"
                                         : "the one most surely fast is recommended");
    if (a->focus) printf("  (the script's bb.load loads another table: give %s to bb.load to run it so)\n", a->table);
    advise_forecast_text(a);
}

/* What bounds the pick and what would move it; what a row costs. */
static void print_bound(const advise *a, int pick)
{
    const bb_waits *bw = advise_bound(a, pick);
    if (bw) {
        char move[1024];
        advise_move(a, pick, bw->kind, move, sizeof move);
        printf("  bound: %s (%s)\n", bw->kind, bw->evidence);
        if (move[0]) printf("  to move it: %s\n", move);
    }
    double cost[3];
    advise_cost_per_row(a, pick, cost);
    char c0[32] = "unknown", c1[32] = "unknown", c2[32] = "unknown";
    if (cost[0] >= 0) snprintf(c0, sizeof c0, "%.2f us", cost[0] * 1e6);
    if (cost[1] >= 0) snprintf(c1, sizeof c1, "%.2f us", cost[1] * 1e6);
    if (cost[2] >= 0) snprintf(c2, sizeof c2, "%.0f bytes", cost[2]);
    printf("  cost per row: client CPU %s, server CPU %s, WAL/binlog %s\n", c0, c1, c2);
}

/* The pick against the baseline: its figure as in the standings, the paired ratio with its
 * interval, and the verdict that interval allows. */
static void print_baseline(const advise *a, int pick)
{
    adv_ratio r;
    if (a->baseline < 0 || !advise_baseline(a, pick, &r)) return;
    char m[32], v[160];
    advise_verdict_text(&r, a->r.cfg.tie, v, sizeof v);
    printf("  against the baseline %s (%s rows/s): ", a->c[a->baseline].key,
           r.base_rps >= 0 ? thousands(r.base_rps, m, sizeof m) : "no figure");
    if (r.ratio > 0 && r.pairs)
        printf("%.3fx, the mean of %d paired runs at %lld rows", r.ratio, r.pairs, (long long)r.rows);
    else if (r.ratio > 0) printf("%.3fx, the ratio of the medians", r.ratio);
    if (r.lo >= 0) printf(" (%.0f%% interval [%.3f, %.3f])", r.level * 100, r.lo, r.hi);
    printf(", %s\n", v);
}

void advise_print_text(const advise *a)
{
    int pick = advise_pick(a), runs = 0;
    for (int k = 0; k < a->n; k++) runs += a->c[k].nruns;
    printf("advise: %s on %s%s%s, %lld rows: %d candidate%s, %d round%s, %d run%s in %.1f s of a %.0f s budget "
           "(stopped: %s)\n\n",
           a->input, a->drv->name, a->table ? ", table " : "", a->table ? a->table : "", (long long)a->rows, a->n,
           a->n == 1 ? "" : "s", a->nrounds, a->nrounds == 1 ? "" : "s", runs, runs == 1 ? "" : "s", a->elapsed_s,
           a->budget_s, advise_stopped(a));
    print_standings(a);
    print_notes(a, pick);
    if (pick < 0) {
        if (a->interrupted) printf("\nno recommendation: the race was interrupted before it could decide\n");
        else printf("\nno recommendation: no candidate finished a run\n");
        return;
    }
    print_pick(a, pick);
    print_bound(a, pick);
    print_baseline(a, pick);
}
