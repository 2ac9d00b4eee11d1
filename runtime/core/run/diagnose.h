/* diagnose.h — the sampler of a run's server sessions (docs/diagnosis.md): a thread with a
 * session of its own asks the engine, 20 times a second, what each of the run's sessions is
 * doing, and tallies the answers into a bb_waits. */
#ifndef BB_DIAGNOSE_H
#define BB_DIAGNOSE_H

#include "waits.h"

/* The run's sessions now: up to max server ids into ids, returns how many (ids < 0 skipped). */
typedef int (*diagnose_ids_fn)(void *ud, int64_t *ids, int max);

typedef struct diagnose diagnose;

/* --waits: on (the default, 20 samples a second, after a faster start where the engine spaces
 * its looks: diagnose_period), off, or samples per second (at most 100); 0 = off. */
double diagnose_hz(const char *opt);

/* What else the monitoring session does (growth.c): tick is called on the sampler's thread
 * with its session and the run's sessions after each of its requests, and once more with
 * last set as it stops. */
typedef struct diagnose_also {
    void (*tick)(void *ud, bb_conn *mon, const int64_t *ids, int n, int last);
    void *ud;
} diagnose_also;

/* Starts sampling the sessions ids() names on a new session to t, and also's ticks there (NULL:
 * none); NULL (and nothing started) when there is neither (the engine has no BB_CAP_WAITS or
 * hz is 0, and no tick) or the session cannot be opened. */
diagnose *diagnose_start(const bb_driver *d, bb_target *t, double hz, diagnose_ids_fn ids, void *ud,
                         const diagnose_also *also);
/* Stops the thread and puts the tallies into out (not the name; log flushes and checkpoints
 * -1 until diagnose_end), while the run's sessions are still open (a server forgets their
 * timed waits as they close). */
void diagnose_stop(diagnose *g, bb_waits *out);
/* Once the run's sessions have closed: the log flushes and checkpoints of the run into out,
 * read when the server has them all (a PostgreSQL backend reports its WAL syncs at most once
 * a second, and all of them as it exits); closes the sampler's session and frees g. */
void diagnose_end(diagnose *g, bb_waits *out);
/* The sampling interval after a tick at elapsed seconds, for an asked interval of period:
 * 1/100 s at first, then growing with the run so a short run still gets ~200 samples. */
double diagnose_period(double period, double elapsed);
/* Folds the server's timed waits (c1 - c0, over session_s seconds of the sampled sessions'
 * time) into w's weighted samples, before they become shares (diagnose_stop; its own test). */
void diagnose_timed(bb_waits *w, const bb_wait_counters *c0, const bb_wait_counters *c1, double session_s);

#endif
