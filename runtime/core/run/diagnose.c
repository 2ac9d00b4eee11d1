/* diagnose.c — the sampler thread (diagnose.h). It runs beside the workers for the measured
 * part of a run; its queries go on its own session, so the workers' path only shares the
 * server with it. Its CPU is measured on its own thread and left out of the client's. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagnose.h"
#include "../opts.h"
#include "sysmon.h"
#include "../../../base/buf.h"

#define DIAG_MAX_IDS 256
/* A run's first seconds are sampled at DIAG_FAST_HZ, the interval then growing with the
 * elapsed time (elapsed / DIAG_MIN_TICKS) up to the asked rate's: a 1 s run still gets ~100
 * samples (at 20 Hz it got 17), a long one costs the asked rate. Each sample weighs the
 * interval it stands for. Only where the engine spaces its looks on the server: a query per
 * look at 100 Hz cost MariaDB's multirow loads 2.4% of rows/s (make bench). */
#define DIAG_FAST_HZ 100.0
#define DIAG_MIN_TICKS 200.0
/* Where the engine spaces its looks itself (driver.h, waits), one request holds this much
 * of them: also how long a stop may wait for the request under way. */
#define DIAG_REQUEST_S 0.1

struct diagnose {
    const bb_driver *d;
    bb_conn *mon;
    double period;
    diagnose_ids_fn ids;
    void *ud;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bb_waits w;         /* seconds in share[] and kind_share[] until diagnose_stop divides them */
    double req_t0, gap; /* this request's start and its looks' spacing: the seconds each look stands for */
    int one_by_one;     /* the engine takes one look a request: the asked rate throughout */
    int64_t stop_ns;    /* when the run stopped (diag_now), 0 while it runs; looks after it are left out */
    bb_wait_counters c0, c1;
    int nids;                   /* the sessions sampled, as the last counters were read */
    int64_t last[DIAG_MAX_IDS]; /* and their ids then, for the counters after they close */
    int nlast;
    int waits; /* the sessions' waits are sampled (else only also's ticks run) */
    diagnose_also also;
    double t0, t1;
};

static double diag_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The slot of an event in w, added if new (the last slot takes events past the table's room). */
static int diag_event(bb_waits *w, const char *event, bb_wait_kind kind)
{
    int i = 0;
    while (i < w->nevents && strcmp(w->event[i], event)) i++;
    if (i < w->nevents) return i;
    if (w->nevents == BB_MAX_WAIT_EVENTS) {
        i = BB_MAX_WAIT_EVENTS - 1;
        snprintf(w->event[i], sizeof w->event[i], "other");
        w->event_kind[i] = BB_WK_OTHER;
        return i;
    }
    snprintf(w->event[i], sizeof w->event[i], "%s", event);
    w->event_kind[i] = (unsigned char)kind;
    return w->nevents++;
}

/* One session's answer: its look's weight counted under its event. */
static void diag_count(void *ud, int look, const char *event, bb_wait_kind kind)
{
    diagnose *g = ud;
    bb_waits *w = &g->w;
    int64_t stop = __atomic_load_n(&g->stop_ns, __ATOMIC_ACQUIRE);
    /* a look whose wait began after the run's end sees the sessions idle: left out (an engine
     * that looks at once has its one look at the request's start) */
    if (stop && g->req_t0 + look * g->gap >= (double)stop / 1e9) return;
    if (kind >= BB_WK_N) kind = BB_WK_OTHER;
    w->samples++;
    w->weight += g->gap;
    w->kind_share[kind] += g->gap;
    w->share[diag_event(w, event, kind)] += g->gap;
}

/* The interval after a tick at elapsed seconds into the run (DIAG_FAST_HZ above). */
double diagnose_period(double period, double elapsed)
{
    double p = elapsed / DIAG_MIN_TICKS;
    if (p < 1 / DIAG_FAST_HZ) p = 1 / DIAG_FAST_HZ;
    return p < period ? p : period;
}

static void *diag_main(void *arg)
{
    diagnose *g = arg;
    bb_err err;
    int64_t ids[DIAG_MAX_IDS];
    g->t0 = diag_now();
    double next = g->t0;
    pthread_mutex_lock(&g->mu);
    while (!g->stop_ns) {
        pthread_mutex_unlock(&g->mu);
        int n = g->ids(g->ud, ids, DIAG_MAX_IDS);
        double step = g->one_by_one ? g->period : diagnose_period(g->period, next - g->t0);
        int looks = step < DIAG_REQUEST_S ? (int)(DIAG_REQUEST_S / step + 0.5) : 1;
        g->gap = step;
        g->req_t0 = diag_now();
        int took = n > 0 && g->waits ? g->d->waits(g->mon, ids, n, looks, step, diag_count, g, &err) : 0;
        if (g->also.tick) g->also.tick(g->also.ud, g->mon, ids, n, 0);
        if (took > 0) g->w.ticks += took;
        if (took == 1 && looks > 1) g->one_by_one = 1; /* this tick's weight stays: unbiased */
        next += step * (took > 0 ? took : 1);
        double now = diag_now();
        if (next < now) next = now; /* a slow answer: the next tick from now, no burst to catch up */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double wait = next - now;
        until.tv_sec += (time_t)wait;
        until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_mutex_lock(&g->mu);
        while (!g->stop_ns && pthread_cond_timedwait(&g->cv, &g->mu, &until) != ETIMEDOUT) {}
    }
    pthread_mutex_unlock(&g->mu);
    g->t1 = (double)g->stop_ns / 1e9;
    g->w.cpu_s = sysmon_thread_cpu();
    return NULL;
}

double diagnose_hz(const char *v)
{
    if (!v || opts_is_on(v)) return 20;
    double hz = atof(v);
    return hz > 100 ? 100 : hz > 0 ? hz : 0; /* off, 0 or anything else not a rate: no sampling */
}

/* The counters now, of the sessions ids() names (kept in g); with `ended`, of those last
 * named, once they have closed. */
static void diag_counters(diagnose *g, bb_wait_counters *c, int ended)
{
    bb_err err;
    if (!ended) {
        g->nlast = g->ids(g->ud, g->last, DIAG_MAX_IDS);
        g->nids = 0;
        for (int i = 0; i < g->nlast; i++) g->nids += g->last[i] > 0;
    }
    memset(c, 0, sizeof *c);
    c->ended = ended;
    c->log_syncs = c->checkpoints = -1;
    if (g->waits) g->d->wait_counters(g->mon, g->last, g->nlast, c, &err);
}

diagnose *diagnose_start(const bb_driver *d, bb_target *t, double hz, diagnose_ids_fn ids, void *ud,
                         const diagnose_also *also)
{
    int waits = (d->caps & BB_CAP_WAITS) && hz > 0;
    if (!waits && !(also && also->tick)) return NULL;
    bb_err err;
    bb_conn *mon;
    if (d->connect(t, &mon, &err) < 0) return NULL;
    diagnose *g = bb_xcalloc(1, sizeof *g);
    *g = (diagnose){ .d = d,
                     .mon = mon,
                     .period = waits ? 1 / hz : DIAG_REQUEST_S,
                     .ids = ids,
                     .ud = ud,
                     .waits = waits,
                     .one_by_one = !waits };
    if (also) g->also = *also;
    diag_counters(g, &g->c0, 0);
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    if (pthread_create(&g->thread, NULL, diag_main, g) != 0) {
        d->disconnect(mon);
        free(g);
        return NULL;
    }
    return g;
}

/* Takes up to want sample weight from the events of kind k other than the one at skip (the
 * coarse view of the same wait), largest first; what it took. */
static double diag_take(bb_waits *w, bb_wait_kind k, int skip, double want)
{
    double took = 0;
    for (int i = 0; i < w->nevents && took < want; i++) {
        if (i == skip || w->event_kind[i] != k) continue;
        double t = w->share[i] < want - took ? w->share[i] : want - took;
        w->share[i] -= t;
        took += t;
    }
    return took;
}

/* Where the server timed its sessions' waits (c1 - c0 seconds over session_s seconds of the
 * sessions' time), the timed waits replace what the samples saw coarsely: each takes its
 * share from the sampled events of its own class (a state such as "Commit" around the log
 * write), then from "cpu" (a working state while the file was written), never from the
 * client's time. In the samples' weights, as w holds them until diag_finish. */
void diagnose_timed(bb_waits *w, const bb_wait_counters *c0, const bb_wait_counters *c1, double session_s)
{
    if (w->weight <= 0 || session_s <= 0) return;
    for (int j = 0; j < c1->ntimed; j++) {
        double s = c1->timed_s[j];
        for (int i = 0; i < c0->ntimed; i++)
            if (!strcmp(c0->timed_event[i], c1->timed_event[j])) s -= c0->timed_s[i];
        if (s / session_s < 0.002) continue; /* a trace (a file opened once): left out of the shares */
        double want = s / session_s * w->weight;
        bb_wait_kind k = c1->timed_kind[j] < BB_WK_N ? c1->timed_kind[j] : BB_WK_OTHER;
        int e = diag_event(w, c1->timed_event[j], k);
        double same = diag_take(w, k, e, want);
        double cpu = same < want ? diag_take(w, BB_WK_CPU, e, want - same) : 0;
        w->share[e] += same + cpu; /* moved within the class, or from cpu into it */
        w->kind_share[BB_WK_CPU] -= cpu;
        w->kind_share[k] += cpu;
    }
}

/* The shares, and the events sorted by them, largest first. */
static void diag_finish(bb_waits *w)
{
    double n = w->weight > 0 ? w->weight : 1;
    for (int k = 0; k < BB_WK_N; k++) w->kind_share[k] /= n;
    for (int i = 0; i < w->nevents; i++) w->share[i] /= n;
    for (int i = 1; i < w->nevents; i++)
        for (int j = i; j > 0 && w->share[j] > w->share[j - 1]; j--) {
            char e[48];
            memcpy(e, w->event[j], sizeof e);
            memcpy(w->event[j], w->event[j - 1], sizeof e);
            memcpy(w->event[j - 1], e, sizeof e);
            double s = w->share[j];
            w->share[j] = w->share[j - 1], w->share[j - 1] = s;
            unsigned char k = w->event_kind[j];
            w->event_kind[j] = w->event_kind[j - 1], w->event_kind[j - 1] = k;
        }
}

void diagnose_stop(diagnose *g, bb_waits *out)
{
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    __atomic_store_n(&g->stop_ns, (int64_t)(diag_now() * 1e9), __ATOMIC_RELEASE);
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
    pthread_join(g->thread, NULL);
    diag_counters(g, &g->c1, 0); /* the timed waits: a server forgets a session's as it closes */
    if (g->also.tick) {          /* the last look, after the run's last rows */
        int64_t ids[DIAG_MAX_IDS];
        int n = g->ids(g->ud, ids, DIAG_MAX_IDS);
        g->also.tick(g->also.ud, g->mon, ids, n, 1);
    }
    bb_waits *w = &g->w;
    diagnose_timed(w, &g->c0, &g->c1, (g->t1 - g->t0) * g->nids);
    diag_finish(w);
    w->hz = g->t1 > g->t0 ? w->ticks / (g->t1 - g->t0) : 0;
    w->log_syncs = w->checkpoints = -1; /* diagnose_end's, once the sessions have reported them */
    *out = *w;
}

void diagnose_end(diagnose *g, bb_waits *out)
{
    if (!g) return;
    diag_counters(g, &g->c1, 1);
    g->d->disconnect(g->mon);
    out->log_syncs =
        g->c0.log_syncs >= 0 && g->c1.log_syncs >= g->c0.log_syncs ? g->c1.log_syncs - g->c0.log_syncs : -1;
    out->checkpoints =
        g->c0.checkpoints >= 0 && g->c1.checkpoints >= g->c0.checkpoints ? g->c1.checkpoints - g->c0.checkpoints : -1;
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g);
}
