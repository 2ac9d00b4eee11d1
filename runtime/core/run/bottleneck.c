/* bottleneck.c — the rules that name what bounds a run from its sampled waits
 * (docs/diagnosis.md says why each threshold is where it is). */
#include <stdio.h>
#include <string.h>

#include "waits.h"

/* A client busy this much of its wall time per worker is bound by its own CPU, not by the
 * round trips to the server. */
#define BN_CLIENT_CPU 0.6

const char *bottleneck_kind_name(bb_wait_kind k)
{
    static const char *const names[BB_WK_N] = { "cpu", "client", "wal", "lock", "io", "checkpoint", "other" };
    return k < BB_WK_N ? names[k] : "other";
}

/* The largest event of kind k, for the evidence; NULL when none. */
static int bn_top_event(const bb_waits *w, bb_wait_kind k)
{
    int best = -1;
    for (int i = 0; i < w->nevents; i++)
        if (w->event_kind[i] == k && (best < 0 || w->share[i] > w->share[best])) best = i;
    return best;
}

static void bn_set(bb_waits *w, const char *kind, bb_wait_kind k, const char *more)
{
    snprintf(w->kind, sizeof w->kind, "%s", kind);
    int e = bn_top_event(w, k);
    const char *ev = e >= 0 ? w->event[e] : bottleneck_kind_name(k);
    double sh = e >= 0 && k != BB_WK_CPU && k != BB_WK_CLIENT ? w->share[e] : w->kind_share[k];
    snprintf(w->evidence, sizeof w->evidence, "%s %.0f%% of backend time%s", ev, 100 * sh, more ? more : "");
}

void bottleneck_name(bb_waits *w, double client_cpu_frac)
{
    w->kind[0] = w->evidence[0] = 0;
    if (w->samples <= 0) return;
    const double *s = w->kind_share;
    char more[96];
    /* the largest share names the bound; "other" waits count as the server's work */
    bb_wait_kind top = BB_WK_CPU;
    for (int k = BB_WK_WAL; k < BB_WK_OTHER; k++)
        if (s[k] > s[top]) top = (bb_wait_kind)k;
    /* The client's share is two waits: the client's own CPU (its share of the wall) and the
     * way there and back, the rest; each is weighed against the server's waits on its own
     * (a single-row commit on a fast disk: WALSync 47%, client 53% of which 17 its CPU). */
    double cpu_part = client_cpu_frac > 0 ? (client_cpu_frac < s[BB_WK_CLIENT] ? client_cpu_frac : s[BB_WK_CLIENT]) : 0;
    double net_part = s[BB_WK_CLIENT] - cpu_part;
    if (cpu_part > s[top] || net_part > s[top]) top = BB_WK_CLIENT;
    if (top == BB_WK_CLIENT) {
        /* the sessions wait for the client: its own CPU, or the way to it and back */
        int cpu_bound = client_cpu_frac >= BN_CLIENT_CPU || cpu_part > net_part;
        more[0] = 0;
        if (client_cpu_frac >= 0)
            snprintf(more, sizeof more, ", client CPU %.0f%% of wall per worker", 100 * client_cpu_frac);
        bn_set(w, cpu_bound ? "client-cpu" : "network", BB_WK_CLIENT, more);
    } else if (top == BB_WK_WAL) {
        more[0] = 0;
        /* a count of 0 beside sampled flush waits is a counter not yet reported (pg_stat_wal
         * is sent at most each second): not evidence, left out */
        if (w->log_syncs > 0) snprintf(more, sizeof more, ", %lld log flushes", (long long)w->log_syncs);
        bn_set(w, "wal", BB_WK_WAL, more);
    } else if (top == BB_WK_IO && w->checkpoints > 0) {
        /* data file I/O while checkpoints ran: the checkpoints' writes compete with the load's */
        snprintf(more, sizeof more, ", %lld checkpoints during the run", (long long)w->checkpoints);
        bn_set(w, "checkpoint", BB_WK_IO, more);
    } else {
        static const char *const kinds[BB_WK_N] = { "server-cpu", "network",    "wal",       "lock",
                                                    "io",         "checkpoint", "server-cpu" };
        bn_set(w, kinds[top], top, NULL);
    }
}

void bottleneck_paced(bb_waits *w, const char *option, double asked, double got, const char *unit)
{
    if (!w->kind[0] || asked <= 0 || got < 0.9 * asked) return;
    char had[sizeof w->evidence + sizeof w->kind + 2];
    snprintf(had, sizeof had, "%s: %s", w->kind, w->evidence);
    snprintf(w->evidence, sizeof w->evidence, "%s %g%s kept (%.4g%s done); the server had headroom (%.120s)", option,
             asked, unit, got, unit, had);
    snprintf(w->kind, sizeof w->kind, "paced");
}
