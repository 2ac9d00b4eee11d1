/* test_diagnose.c — how a server's timed waits fold into the sampled ones
 * (runtime/core/run/diagnose.c, diagnose_timed), as TAP. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../runtime/core/run/diagnose.h"
#include "tap.h"

/* 100 samples: the client's turn 50, "Commit" (the log's, as a state shows it) 10, cpu 40. */
static bb_waits sampled(void)
{
    bb_waits w;
    memset(&w, 0, sizeof w);
    const char *name[] = { "client", "Commit", "cpu" };
    bb_wait_kind kind[] = { BB_WK_CLIENT, BB_WK_WAL, BB_WK_CPU };
    double n[] = { 50, 10, 40 };
    for (int i = 0; i < 3; i++) {
        snprintf(w.event[i], sizeof w.event[i], "%s", name[i]);
        w.event_kind[i] = (unsigned char)kind[i];
        w.share[i] = n[i];
        w.kind_share[kind[i]] += n[i];
    }
    w.nevents = 3;
    w.samples = 100;
    w.weight = 100;
    return w;
}

static void timed(bb_wait_counters *c, const char *event, bb_wait_kind kind, double s)
{
    int i = c->ntimed++;
    snprintf(c->timed_event[i], sizeof c->timed_event[i], "%s", event);
    c->timed_kind[i] = (unsigned char)kind;
    c->timed_s[i] = s;
}

static double share(const bb_waits *w, const char *event)
{
    for (int i = 0; i < w->nevents; i++)
        if (!strcmp(w->event[i], event)) return w->share[i];
    return -1;
}

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

int main(void)
{
    bb_wait_counters c0, c1;

    /* 2 s of binlog writes in 10 s of the sessions' time: 20 samples' worth, the 10 "Commit"
     * saw first, then 10 of cpu; the client's turn is not touched */
    bb_waits w = sampled();
    memset(&c0, 0, sizeof c0), memset(&c1, 0, sizeof c1);
    timed(&c0, "sql/binlog", BB_WK_WAL, 1.0);
    timed(&c1, "sql/binlog", BB_WK_WAL, 3.0);
    diagnose_timed(&w, &c0, &c1, 10.0);
    ok(near(share(&w, "sql/binlog"), 20) && near(share(&w, "Commit"), 0) && near(share(&w, "cpu"), 30) &&
           near(share(&w, "client"), 50),
       "a timed wait takes its samples from its own class first, then from cpu");
    ok(near(w.kind_share[BB_WK_WAL], 20) && near(w.kind_share[BB_WK_CPU], 30) && near(w.kind_share[BB_WK_CLIENT], 50),
       "the classes' totals follow: wal 20, cpu 30, client 50");

    /* more time timed than the server's samples hold: capped, the client's turn kept */
    w = sampled();
    memset(&c0, 0, sizeof c0), memset(&c1, 0, sizeof c1);
    timed(&c1, "innodb/innodb_data_file", BB_WK_IO, 7.0); /* new since c0: counted from 0 */
    diagnose_timed(&w, &c0, &c1, 10.0);
    ok(near(share(&w, "innodb/innodb_data_file"), 40) && near(share(&w, "Commit"), 10) && near(share(&w, "client"), 50),
       "an I/O wait takes only cpu's samples (not the log's), at most all of them, never the client's");

    /* a trace, and no samples at all: nothing changes */
    w = sampled();
    memset(&c0, 0, sizeof c0), memset(&c1, 0, sizeof c1);
    timed(&c1, "sql/binlog", BB_WK_WAL, 0.01);
    diagnose_timed(&w, &c0, &c1, 10.0);
    ok(w.nevents == 3 && near(share(&w, "cpu"), 40), "a timed wait under 0.2% of the sessions' time is left out");
    w = sampled();
    w.samples = 0;
    w.weight = 0;
    timed(&c1, "sql/binlog", BB_WK_WAL, 5.0);
    diagnose_timed(&w, &c0, &c1, 10.0);
    ok(w.nevents == 3, "without samples there is nothing to refine");

    /* the schedule: 100 Hz for the first 2 s, then slower as the run goes on, never slower
     * than asked; a run asking for more than 100 Hz gets what it asked */
    double p20 = 1 / 20.0, t = 0;
    int ticks = 0;
    while (t < 1) t += diagnose_period(p20, t), ticks++;
    ok(ticks == 100, "a 1 s run at the default rate is sampled 100 times");
    ok(near(diagnose_period(p20, 3.0), 0.015) && near(diagnose_period(p20, 60), p20) &&
           near(diagnose_period(1 / 200.0, 0), 1 / 200.0),
       "the interval grows with the elapsed time up to the asked one");
    return tap_done();
}
