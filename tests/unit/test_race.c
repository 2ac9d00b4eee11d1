/* test_race.c — the rules of runtime/core/run/race.c on made-up rows/s, as TAP: who is dropped
 * when, the stop rules, the simpler preference, and a simulated race that keeps its budget. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../runtime/core/run/race.h"
#include "race_sim.h"
#include "tap.h"

/* One round in which candidate k's runs are rps[k][0..reps-1] (0 ends a list early). */
static void play_round(race *r, double rps[][4])
{
    race_round rd;
    if (!race_plan(r, 0, &rd)) return;
    int idx[32], n = race_contestants(r, idx);
    for (int rep = 0; rep < rd.reps; rep++)
        for (int i = 0; i < n; i++)
            if (rps[idx[i]][rep] > 0) race_record(r, idx[i], rps[idx[i]][rep], 1.0, 0.5);
    race_end_round(r);
}

static void start(race *r, race_cand *c, int n, int64_t rows)
{
    race_cfg cfg;
    race_defaults(&cfg, 1e9, rows);
    race_init(r, &cfg, c, n);
}

static void test_drop(void)
{
    race r;
    race_cand c[3] = { { .threads = 1 }, { .threads = 1 }, { .threads = 1 } };
    start(&r, c, 3, 1000);
    double rps[3][4] = { { 100, 110 }, { 50, 55 }, { 95, 120 } };
    play_round(&r, rps);
    ok(race_leader(&r) == 2, "the leader is the highest median (107.5 over 105)");
    ok(c[1].state == RACE_DROPPED && c[1].out_round == 1,
       "an interval wholly below the leader's is dropped in round 1");
    ok(c[0].state == RACE_ALIVE, "an interval that overlaps the leader's stays");
    ok(c[0].nmark == 1 && c[0].mark[0].rows == 1000 && c[0].mark[0].rps.n == 2, "each round leaves a mark");
    race_free(&r);
}

/* cfg.keep_groups (advise for --rows beyond the budget): the fastest of each group stays, the
 * others of its group drop as ever. */
static void test_keep_groups(void)
{
    race r;
    race_cand c[4] = { { .threads = 1, .group = 0 }, { .threads = 1, .group = 1 }, { .threads = 2, .group = 1 },
                       { .threads = 2, .group = 0 } };
    start(&r, c, 4, 1000);
    r.cfg.keep_groups = 1;
    double rps[4][4] = { { 100, 110 }, { 50, 55 }, { 40, 44 }, { 95, 120 } };
    play_round(&r, rps);
    ok(c[1].state == RACE_ALIVE && c[2].state == RACE_DROPPED,
       "keep_groups: the fastest of a slower group stays, the group's slower one drops");
    ok(c[0].state == RACE_ALIVE && c[3].state == RACE_ALIVE, "keep_groups: the leader's group as ever");
    race_free(&r);
}

static void test_scale_bias(void)
{
    race r;
    race_cand c[2] = { { .threads = 1 }, { .threads = 1 } };
    start_at(&r, c, 2, 1e9, 100000, 10000);
    double rps[2][4] = { { 100, 101 }, { 88, 90 } }; /* 11% below, intervals apart */
    play_round(&r, rps);
    ok(c[1].state == RACE_ALIVE, "below the final scale, 11% slower is within the allowance for scale: kept");
    race_free(&r);
    race_cand d[2] = { { .threads = 1 }, { .threads = 1 } };
    start(&r, d, 2, 10000);
    play_round(&r, rps);
    ok(d[1].state == RACE_DROPPED, "at the final scale the same runs drop it");
    race_free(&r);
}

static void test_one_run_no_drop(void)
{
    race r;
    race_cand c[3] = { { .threads = 1 }, { .threads = 1 }, { .threads = 1 } };
    race_cfg cfg;
    race_defaults(&cfg, 1e9, 1000);
    cfg.reps_first = 1;
    race_init(&r, &cfg, c, 3);
    double rps[3][4] = { { 100 }, { 60 }, { 10 } };
    play_round(&r, rps);
    ok(c[1].state == RACE_ALIVE, "one run each is no interval: a candidate within cfg.far of the leader stays");
    ok(c[2].state == RACE_DROPPED && c[2].out_round == 1, "... one ten times slower falls on its one run");
    ok(r.stop == NULL, "and the race goes on");
    race_free(&r);
}

static void test_single_survivor(void)
{
    race r;
    race_cand c[2] = { { .threads = 1 }, { .threads = 2 } };
    start(&r, c, 2, 1000);
    double rps[2][4] = { { 100, 101 }, { 200, 210 } };
    play_round(&r, rps);
    ok(r.stop && !strcmp(r.stop, "one survivor"), "one survivor ends the race");
    ok(race_pick(&r) == 1, "and is the recommendation");
    race_round rd;
    ok(race_plan(&r, 0, &rd) == 0, "no round is planned after the end");
    race_free(&r);
}

static void test_simpler(void)
{
    race r;
    race_cand c[4] = { { .threads = 2, .batch = 1000 },
                       { .threads = 1, .batch = 10000 },
                       { .threads = 1, .batch = 1000 },
                       { .threads = 1, .batch = 100 } };
    start(&r, c, 4, 1000);
    double rps[4][4] = { { 100, 102, 98 }, { 99, 101, 97 }, { 98, 100, 97 }, { 90, 93, 88 } };
    play_round(&r, rps); /* first round: 2 runs each, at the final scale already */
    ok(r.stop && !strcmp(r.stop, "indistinguishable"), "at the final scale, medians within 5% cannot be told apart");
    ok(c[3].state == RACE_DROPPED, "a clearly slower candidate is dropped first");
    ok(race_leader(&r) == 0, "the leader is the fastest median");
    ok(race_pick(&r) == 2, "the pick prefers fewer threads, then the smaller batch");
    race_free(&r);

    race_cand d[3] = { { .threads = 1, .batch = 0 },
                       { .threads = 1, .batch = 100000 },
                       { .threads = 1, .batch = 100000, .nset_away = 1 } };
    start(&r, d, 3, 1000);
    double rps2[3][4] = { { 101, 100 }, { 100, 99 }, { 100, 101 } };
    play_round(&r, rps2);
    ok(race_pick(&r) == 1, "one stream per worker (batch 0) counts as the largest batch; fewer settings win");
    race_free(&r);

    race_cand e[2] = { { .threads = 2 }, { .threads = 1 } };
    start(&r, e, 2, 1000);
    double rps3[2][4] = { { 100, 104 }, { 90, 102 } }; /* overlapping, but 8% below the leader */
    play_round(&r, rps3);
    ok(r.stop == NULL && race_pick(&r) == 0,
       "a simpler one more than 5% slower is not preferred, and the race goes on");
    race_free(&r);

    race_cand f[2] = { { .threads = 2 }, { .threads = 1 } };
    start_at(&r, f, 2, 1e9, 100000, 1000);
    double rps4[2][4] = { { 100, 102 }, { 99, 101 } };
    play_round(&r, rps4);
    r.stop = "budget";
    ok(race_pick(&r) == 0, "stopped by the budget, the pick is the surest, simpler or not");
    race_free(&r);

    race_cand g[2] = { { .threads = 1 }, { .threads = 1 } };
    start_at(&r, g, 2, 1e9, 100000, 1000);
    double rps5[2][4] = { { 70, 130 }, { 92, 98 } }; /* the leader by median spreads wide */
    play_round(&r, rps5);
    r.stop = "budget";
    ok(race_leader(&r) == 0 && race_pick(&r) == 1,
       "the pick is the one whose interval starts highest, not the widest leader");
    race_free(&r);

    start_at(&r, g, 2, 1e9, 100000, 1000);
    double rps6[2][4] = { { 60, 130 }, { 82, 84 } }; /* narrow, but 17% behind the leader's median */
    play_round(&r, rps6);
    r.stop = "budget";
    ok(race_pick(&r) == 0, "a survivor more than the tie behind the leader is not picked for its narrow interval");
    race_free(&r);
}

static void test_fail_and_baseline(void)
{
    race r;
    race_cand c[3] = { { .threads = 1 }, { .threads = 1, .baseline = 1 }, { .threads = 1 } };
    start_at(&r, c, 3, 1e9, 100000, 1000);
    race_round rd;
    race_plan(&r, 0, &rd);
    race_record(&r, 0, 100, 1, 0.5);
    race_record(&r, 1, 10, 1, 0.5);
    race_fail(&r, 2);
    race_record(&r, 0, 101, 1, 0.5);
    race_record(&r, 1, 11, 1, 0.5);
    race_end_round(&r);
    ok(c[2].state == RACE_FAILED && c[2].out_round == 1, "a failed run takes its candidate out");
    ok(c[1].state == RACE_DROPPED, "the baseline can be dropped from the race");
    ok(r.stop && !strcmp(r.stop, "one survivor"), "and the one left wins");
    int idx[3];
    ok(race_contestants(&r, idx) == 2 && idx[1] == 1, "the baseline still runs in later rounds, the failed one not");
    ok(race_pick(&r) == 0, "neither the failed nor the dropped baseline is recommended");
    race_free(&r);
}

static void test_rows_and_cut(void)
{
    race r;
    race_cand c[2] = { { .threads = 1 }, { .threads = 2 } };
    start_at(&r, c, 2, 1000, 100000, 5000);
    int64_t rows[8];
    int nr = 0;
    race_round rd;
    while (nr < 6 && race_plan(&r, 0, &rd)) {
        rows[nr++] = rd.rows;
        for (int rep = 0; rep < rd.reps; rep++) {
            race_record(&r, 0, 100000 + 1000 * rep, 1, 0.5);
            race_record(&r, 1, 101000 - 1000 * rep, 1, 0.5);
        }
        race_end_round(&r);
        if (r.stop) break;
    }
    ok(nr >= 3 && rows[0] == 5000 && rows[1] == 20000 && rows[2] == 100000,
       "rows grow fourfold from round to round, to the final scale once that is within 3/4 of it");
    ok(rows[nr - 1] == 100000, "up to the final scale, never beyond");
    ok(r.stop && !strcmp(r.stop, "indistinguishable"), "where equal candidates stop the race");
    ok(c[0].mark[c[0].nmark - 1].rps.n == 3, "the standing is taken at the round's scale");
    race_free(&r);

    race_cand d[2] = { { .threads = 1 }, { .threads = 1 } };
    start_at(&r, d, 2, 1000, 100000, 5000);
    race_plan(&r, 0, &rd);
    race_record(&r, 0, 100, 1, 0.5);
    race_record(&r, 1, 99, 1, 0.5);
    race_record(&r, 0, 101, 1, 0.5);
    race_record(&r, 1, 102, 1, 0.5);
    race_end_round(&r);
    race_plan(&r, 0, &rd);
    race_record(&r, 0, 300, 1, 0.5); /* d[1] never ran at the new scale */
    race_cut(&r);
    race_end_round(&r);
    ok(r.stop && !strcmp(r.stop, "budget"), "a round cut short ends the race on the budget");
    ok(d[0].mark[1].rows == 5000 && d[0].stat.median == 100.5,
       "the standings fall back to the largest scale every survivor ran at");
    race_free(&r);
}

/* When three runs each at the final scale do not fit, two do rather than more at a smaller scale. */
static void test_final_scale(void)
{
    race r;
    race_cand c[2] = { { .threads = 1 }, { .threads = 2 } };
    start_at(&r, c, 2, 1000, 300000, 72000);
    race_round rd;
    race_plan(&r, 0, &rd);
    for (int rep = 0; rep < 2; rep++)
        for (int k = 0; k < 2; k++) race_record(&r, k, 100000 + 1000 * (rep + k), 1.2, 0.72);
    race_end_round(&r);
    /* 18 s left: three runs each at 300000 rows need about 23 s, two about 15 s */
    ok(race_plan(&r, 982, &rd) && rd.rows == 300000 && rd.reps == 2,
       "with too little budget for three runs at the final scale, it runs two there");
    race_free(&r);
}

/* A race against a simulated server: 24 candidates whose true rows/s spread from 20k to
 * 250k, runs that cost 0.4 s plus their rows at that rate give or take 10%, every estimate
 * checked before a run as advise does. Returns the wall seconds it took; *ratio: the pick's
 * true rows/s over the best's. */
static double simulate(double budget, uint64_t seed, double *ratio, int *rounds)
{
    enum { N = 24 };
    race_cand c[N];
    double truth[N], best = 0;
    memset(c, 0, sizeof c);
    for (int k = 0; k < N; k++) {
        c[k].threads = 1 + k % 3;
        c[k].batch = k % 2 ? 10000 : 1000;
        truth[k] = 20000 + 10000.0 * ((k * 7) % N);
        if (truth[k] > best) best = truth[k];
    }
    race r;
    race_cfg cfg;
    race_defaults(&cfg, budget, 300000);
    cfg.rows_first = 40000;
    cfg.seed = seed;
    race_init(&r, &cfg, c, N);
    double clock = 0;
    race_round rd;
    while (race_plan(&r, clock, &rd)) {
        int idx[N], n = race_contestants(&r, idx);
        for (int rep = 0; rep < rd.reps && !r.cut; rep++)
            for (int i = 0; i < n && !r.cut; i++) {
                int k = idx[i];
                if (!race_may_start(&r, k, clock)) {
                    race_cut(&r);
                    break;
                }
                double rate = truth[k] * (0.9 + 0.2 * noise(&seed)), load = rd.rows / rate;
                if (load > rd.cap_s) load = rd.cap_s;
                double wall = 0.4 * (0.9 + 0.2 * noise(&seed)) + load;
                clock += wall;
                race_record(&r, k, rate, wall, load);
            }
        race_end_round(&r);
    }
    int p = race_pick(&r);
    *ratio = p >= 0 ? truth[p] / best : 0;
    *rounds = r.round;
    race_free(&r);
    return clock;
}

static void test_budget(double budget)
{
    double worst_time = 0, worst_ratio = 1, sum_rounds = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        double ratio;
        int rounds;
        double t = simulate(budget, seed, &ratio, &rounds);
        if (t > worst_time) worst_time = t;
        if (ratio < worst_ratio) worst_ratio = ratio;
        sum_rounds += rounds;
    }
    char what[160];
    snprintf(what, sizeof what,
             "budget %.0f s, 20 simulated races of 24 candidates: the longest took %.1f s, %.1f rounds on average",
             budget, worst_time, sum_rounds / 20);
    ok(worst_time <= budget, what);
    snprintf(what, sizeof what, "budget %.0f s: the worst pick's true rows/s is %.0f%% of the best", budget,
             100 * worst_ratio);
    ok(worst_ratio >= 0.9, what);
}

static void test_too_small(void)
{
    race r;
    race_cand c[40];
    memset(c, 0, sizeof c);
    race_cfg cfg;
    race_defaults(&cfg, 5, 100000);
    race_init(&r, &cfg, c, 40);
    race_round rd;
    ok(race_plan(&r, 0, &rd) == 0 && !strcmp(r.stop, "budget"), "a budget too small for one run each plans nothing");
    race_free(&r);
}

/* The confirmation: the survivors within the tie band and the baseline run at the full rows
 * until each has the runs asked there; those behind the band leave; the budget may not fit. */
static void test_confirm(void)
{
    race r;
    race_cand c[4] = { { .threads = 1 }, { .threads = 2 }, { .threads = 1 }, { .threads = 1, .baseline = 1 } };
    start_at(&r, c, 4, 1e9, 100000, 10000);
    double rps[4][4] = { { 1000, 1010 }, { 1020, 990 }, { 780, 870 }, { 500, 510 } };
    play_round(&r, rps);
    ok(c[2].state == RACE_ALIVE, "a candidate 18% behind survives round 1 (its interval, raised for scale, overlaps)");
    race_confirmation p;
    ok(race_confirm_plan(&r, 0, 6, &p) == 1 && p.reps == 6 && p.need_s > 0 && p.take == 2 && p.tied == 2,
       "with nothing at the full rows yet, six runs each of the two tied are planned");
    race_round rd;
    ok(race_confirm(&r, &p, &rd) && rd.rows == 100000 && rd.reps == 6, "the confirmation runs at the full rows");
    ok(c[2].state == RACE_DROPPED && c[2].out_round == rd.round,
       "the one behind the tie band leaves in that round (its median raised for scale)");
    int idx[4], m = race_contestants(&r, idx);
    ok(m == 3, "the two leaders and the baseline run in it");
    for (int rep = 0; rep < 6; rep++)
        for (int i = 0; i < m; i++) race_record(&r, idx[i], idx[i] == 1 ? 1500 + rep : 1000 + rep, 1, 0.5);
    race_end_round(&r);
    ok(race_pick(&r) == 1 && c[1].stat.n == 6 && c[1].stat.level > 0.95,
       "the pick is decided at the full rows, on six runs, its interval at 96.9%");
    ok(race_confirm_plan(&r, 0, 6, &p) == 0 && p.reps == 0, "nothing more to confirm");
    race_free(&r);
    /* 12% behind below the full rows (two threads, say, that gain at scale) is a finalist */
    race_cand f[2] = { { .threads = 1 }, { .threads = 2 } };
    start_at(&r, f, 2, 1e9, 100000, 10000);
    double near[2][4] = { { 1000, 1010 }, { 880, 890 } };
    play_round(&r, near);
    ok(race_confirm_plan(&r, 0, 6, &p) == 1 && p.tied == 2,
       "below the full rows, a candidate 12% behind is confirmed beside the leader (the scale's allowance)");
    race_free(&r);
    /* a budget that cannot reach the full rows says so, with what it would take */
    race_cand d[2] = { { .threads = 1 }, { .threads = 1 } };
    start_at(&r, d, 2, 20, 1000000, 10000);
    double slow[2][4] = { { 1000, 1010 }, { 1005, 995 } };
    play_round(&r, slow);
    ok(race_confirm_plan(&r, 1, 6, &p) == 0 && p.reps == -1 && p.need_s > 1000,
       "a budget short of the full rows plans no confirmation and says how long it would take");
    /* one that reaches past the race's scale: the largest where both get three runs (1000 rows/s,
     * 0.5 s a run besides, padded 10%: 29.8k rows in 200 s); how long --rows would take, still */
    r.cfg.budget_s = 200;
    ok(race_confirm_plan(&r, 0, 6, &p) == 1 && p.rows > 25000 && p.rows <= 29800 && p.reps == 3 && p.take == 2 &&
           p.need_s > 1000,
       "short of --rows, the confirmation runs at the largest scale the budget gives all the tied");
    ok(race_confirm(&r, &p, &rd) && rd.rows == p.rows, "and the round runs there");
    race_free(&r);
    /* a budget for some of them: the fastest of the tied and the baseline, three runs at least */
    race_cand e[5] = {
        { .threads = 1 }, { .threads = 2 }, { .threads = 1 }, { .threads = 2 }, { .threads = 1, .baseline = 1 }
    };
    start_at(&r, e, 5, 1e9, 100000, 10000);
    double four[5][4] = { { 1000, 1010 }, { 1030, 1020 }, { 1005, 1000 }, { 990, 1010 }, { 500, 500 } };
    play_round(&r, four);
    /* a run at 100000 rows: ~100 s for the tied, ~200 s for the baseline, 0.5 s overhead; padded 10% */
    r.cfg.budget_s = 3 * 1.1 * (100.5 + 100.5 + 200.5) + 10;
    ok(race_confirm_plan(&r, 0, 6, &p) == 1 && p.tied == 4 && p.take == 2 && p.reps == 3,
       "a budget for three runs of two: the two fastest of the four tied (and the baseline)");
    ok(race_confirm(&r, &p, &rd) && race_contestants(&r, idx) == 3 && idx[0] == 0 && idx[1] == 1 && idx[2] == 4 &&
           e[2].state == RACE_DROPPED && e[3].state == RACE_DROPPED,
       "the two slower of the tied leave; the leader, the next and the baseline run");
    r.cfg.budget_s = 3 * 1.1 * (100.5 + 200.5) + 10;
    e[0].state = e[2].state = e[3].state = RACE_ALIVE;
    r.round--;
    ok(race_confirm_plan(&r, 0, 6, &p) == 1 && p.take == 1 && p.reps == 3, "at the least: the leader and the baseline");
    r.cfg.budget_s = 2 * 1.1 * (100.5 + 200.5);
    ok(race_confirm_plan(&r, 0, 6, &p) == 0 && p.reps == -1, "not even that: no confirmation");
    race_free(&r);
}

/* A baseline ten times slower than the leader runs whole in the confirmation: its cut is
 * twice its own time, not four times the leader's (a cut run is no term of a ratio). */
static void test_confirm_baseline_whole(void)
{
    race r;
    race_cand c[2] = { { .threads = 1 }, { .threads = 1, .baseline = 1 } };
    start_at(&r, c, 2, 1e9, 100000, 10000);
    double rps[2][4] = { { 1000, 1000 }, { 100, 100 } };
    play_round(&r, rps);
    race_confirmation p;
    ok(race_confirm_plan(&r, 0, 6, &p) == 1 && fabs(p.cap_s - 2000) < 1e-6,
       "the confirmation's cut leaves the slow baseline whole");
    race_free(&r);
}

/* A confirmation below --rows decides by the surest, not the simplest: fewer threads would win
 * there by the scale alone. */
static void test_simplest_at_rows_only(void)
{
    for (int at_rows = 0; at_rows <= 1; at_rows++) {
        race r;
        race_cand c[2] = { { .threads = 2 }, { .threads = 1 } };
        start_at(&r, c, 2, 1e9, at_rows ? 10000 : 100000, 10000);
        double rps[2][4] = { { 1000, 1010 }, { 995, 1000 } };
        play_round(&r, rps);
        r.stop = "confirmed";
        if (at_rows) ok(race_by_simplicity(&r) && race_pick(&r) == 1, "confirmed at --rows: the simplest (one thread)");
        else ok(!race_by_simplicity(&r) && race_pick(&r) == 0, "confirmed below --rows: the surest (two threads)");
        race_free(&r);
    }
}

/* With a confirmation to follow, a race below the final scale that cannot grow stops rather
 * than buy more runs at a scale the answer is not for; without one, it runs as many as fit. */
static void test_confirm_follows(void)
{
    for (int follows = 0; follows <= 1; follows++) {
        race r;
        race_cand c[2];
        memset(c, 0, sizeof c);
        start_at(&r, c, 2, 6, 1000000, 40000);
        r.cfg.confirm = follows;
        double rps[2][4] = { { 100000, 101000 }, { 99000, 100500 } };
        play_round(&r, rps); /* two runs each at 40000: intervals, nothing to drop */
        race_round rd;
        int more = race_plan(&r, 0, &rd);
        if (follows)
            ok(!more && r.stop && !strcmp(r.stop, "budget"), "a confirmation follows: the race stops below --rows");
        else ok(more && rd.rows == 40000, "no confirmation: more runs at the scale reached");
        race_free(&r);
    }
}

/* The standings in one order: in the race, then dropped, then failed, each fastest first,
 * whatever round a candidate left in (76,783 out in round 1 once stood below 41,276 out in 2). */
static void test_ranking(void)
{
    race r;
    race_cand c[5] = { { .threads = 1 }, { .threads = 1 }, { .threads = 1 }, { .threads = 1 }, { .threads = 1 } };
    start(&r, c, 5, 1000);
    c[1].state = c[2].state = RACE_DROPPED;
    c[1].out_round = 2, c[2].out_round = 1;
    c[3].state = RACE_FAILED, c[3].out_round = 1;
    double med[5] = { 90000, 41276, 76783, 0, 120000 };
    for (int k = 0; k < 5; k++) c[k].stat = (bb_summary){ .n = med[k] > 0, .median = med[k] };
    int idx[5];
    race_ranking(&r, idx);
    ok(idx[0] == 4 && idx[1] == 0 && idx[2] == 2 && idx[3] == 1 && idx[4] == 3,
       "ranked: in the race by median, then the dropped by median (not by round), then the failed");
    race_free(&r);
}

int main(void)
{
    test_keep_groups();
    test_ranking();
    test_drop();
    test_scale_bias();
    test_one_run_no_drop();
    test_single_survivor();
    test_simpler();
    test_fail_and_baseline();
    test_rows_and_cut();
    test_final_scale();
    test_budget(30);
    test_budget(70);
    test_budget(300);
    test_too_small();
    test_confirm();
    test_confirm_follows();
    test_simplest_at_rows_only();
    test_confirm_baseline_whole();
    return tap_done();
}
