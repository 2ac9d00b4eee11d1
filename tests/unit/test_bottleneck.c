/* test_bottleneck.c — the rules of runtime/core/run/bottleneck.c on made-up waits, as TAP:
 * each kind named from the shares that mean it, and the evidence line. */
#include <stdio.h>
#include <string.h>

#include "../../runtime/core/run/waits.h"
#include "tap.h"

/* Waits of events given as (name, kind, share) triples, ending at a NULL name. */
typedef struct ev {
    const char *name;
    bb_wait_kind kind;
    double share;
} ev;

static bb_waits make(const ev *e, int64_t syncs, int64_t ckpts)
{
    bb_waits w;
    memset(&w, 0, sizeof w);
    w.samples = 100;
    w.log_syncs = syncs;
    w.checkpoints = ckpts;
    for (; e->name; e++) {
        snprintf(w.event[w.nevents], sizeof w.event[0], "%s", e->name);
        w.event_kind[w.nevents] = (unsigned char)e->kind;
        w.share[w.nevents++] = e->share;
        w.kind_share[e->kind] += e->share;
    }
    return w;
}

static void expect(const ev *e, int64_t ckpts, double cpu, const char *kind, const char *evidence, const char *what)
{
    bb_waits w = make(e, 10, ckpts);
    bottleneck_name(&w, cpu);
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %s (%s)", what, w.kind, w.evidence);
    ok(!strcmp(w.kind, kind) && (!evidence || strstr(w.evidence, evidence)), msg);
}

int main(void)
{
    /* synchronous_commit=on, one row per transaction: the flush at each commit */
    expect((ev[]){ { "WALSync", BB_WK_WAL, .66 }, { "client", BB_WK_CLIENT, .30 }, { "cpu", BB_WK_CPU, .04 }, { 0 } },
           0, .05, "wal", "WALSync 66% of backend time, 10 log flushes", "single-row txn, synchronous commit");
    /* the same on a fast disk: the client's turn (53%) is its CPU (17) and the way (36), each less than the flush */
    expect((ev[]){ { "WALSync", BB_WK_WAL, .47 }, { "client", BB_WK_CLIENT, .53 }, { 0 } }, 0, .17, "wal",
           "WALSync 47% of backend time", "single-row txn, synchronous commit, fast disk");
    /* the client's turn mostly its own CPU, though under BN_CLIENT_CPU */
    expect((ev[]){ { "client", BB_WK_CLIENT, .6 }, { "cpu", BB_WK_CPU, .4 }, { 0 } }, 0, .45, "client-cpu",
           "client 60%", "a client whose CPU is most of its turn");
    /* the same with synchronous_commit=off: the sessions wait for the next statement */
    expect((ev[]){ { "client", BB_WK_CLIENT, 1 }, { 0 } }, 0, .12, "network", "client 100% of backend time",
           "async commit, little client CPU");
    /* 1 ms each way: the client's turn is most, its CPU idle, WAL flushes behind */
    expect((ev[]){ { "client", BB_WK_CLIENT, .68 }, { "WALSync", BB_WK_WAL, .32 }, { 0 } }, 0, .01, "network",
           "client CPU 1% of wall", "delayed network");
    expect((ev[]){ { "client", BB_WK_CLIENT, .8 }, { "cpu", BB_WK_CPU, .2 }, { 0 } }, 0, .95, "client-cpu",
           "client 80%", "a client generating rows at full CPU");
    expect((ev[]){ { "cpu", BB_WK_CPU, .7 }, { "client", BB_WK_CLIENT, .3 }, { 0 } }, 0, .3, "server-cpu", "cpu 70%",
           "COPY parsing rows");
    expect(
        (ev[]){ { "transactionid", BB_WK_LOCK, .5 }, { "cpu", BB_WK_CPU, .3 }, { "client", BB_WK_CLIENT, .2 }, { 0 } },
        0, .1, "lock", "transactionid 50%", "sessions waiting on each other's rows");
    expect((ev[]){ { "DataFileRead", BB_WK_IO, .6 }, { "cpu", BB_WK_CPU, .4 }, { 0 } }, 0, .1, "io", "DataFileRead 60%",
           "index pages read from disk");
    expect((ev[]){ { "DataFileWrite", BB_WK_IO, .6 }, { "cpu", BB_WK_CPU, .4 }, { 0 } }, 2, .1, "checkpoint",
           "2 checkpoints during the run", "data writes while checkpoints ran");
    expect((ev[]){ { "CheckpointStart", BB_WK_CHECKPOINT, .6 }, { "cpu", BB_WK_CPU, .4 }, { 0 } }, 0, .1, "checkpoint",
           "CheckpointStart 60%", "waiting for a checkpoint");
    expect((ev[]){ { "client", BB_WK_CLIENT, .9 }, { 0 } }, 0, -1, "network", "client 90% of backend time",
           "client CPU unknown");
    /* pg_stat_wal not yet reported (sent at most each second): no "0 log flushes" beside the waits */
    bb_waits lag = make((ev[]){ { "WALSync", BB_WK_WAL, .6 }, { "client", BB_WK_CLIENT, .4 }, { 0 } }, 0, 0);
    bottleneck_name(&lag, .1);
    ok(!strcmp(lag.kind, "wal") && !strstr(lag.evidence, "log flushes"), "a flush counter still at 0 is not evidence");
    bb_waits none;
    memset(&none, 0, sizeof none);
    bottleneck_name(&none, .5);
    ok(!none.kind[0] && !none.evidence[0], "nothing sampled: no bottleneck (null)");
    /* paced: a run that kept its --rate is bound by it, the waits' verdict its headroom */
    bb_waits paced = make((ev[]){ { "client", BB_WK_CLIENT, .7 }, { "cpu", BB_WK_CPU, .3 }, { 0 } }, 0, 0);
    bottleneck_name(&paced, .01);
    bottleneck_paced(&paced, "--rate", 50, 48.4, "/s");
    ok(!strcmp(paced.kind, "paced") && strstr(paced.evidence, "--rate 50/s kept") &&
           strstr(paced.evidence, "headroom (network: client 70%"),
       "a run that kept its --rate: paced, the network it idled on as headroom");
    bb_waits behind = make((ev[]){ { "client", BB_WK_CLIENT, .7 }, { "cpu", BB_WK_CPU, .3 }, { 0 } }, 0, 0);
    bottleneck_name(&behind, .01);
    bottleneck_paced(&behind, "--rate", 500, 112, "/s");
    ok(!strcmp(behind.kind, "network"), "one that fell behind its pace: named by its waits");
    bottleneck_paced(&none, "--rate", 50, 50, "/s");
    ok(!none.kind[0], "nothing sampled: not paced either");
    return tap_done();
}
