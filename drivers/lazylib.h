/* lazylib.h — an engine's client library loaded when the engine is first used, not at
 * start-up: libpq brings Kerberos, LDAP, SASL and GnuTLS along, unixODBC its own; linked
 * in, they cost every run ~20 ms of CPU to load and relocate (a trivial program linked
 * with all the engines' libraries: 34 ms; without libpq and unixODBC: 13 ms).
 *
 * An engine lists the functions it calls (NAME_FNS(X), X(function)); its header declares
 * a struct of pointers typed from the library's own declarations and, for the engine's
 * files, one macro per function that calls through the struct, so the code still reads
 * PQexec(...). NAME_load fills the struct once, from the first thread that asks. */
#ifndef BB_LAZYLIB_H
#define BB_LAZYLIB_H

#include <pthread.h>

#include "../base/err.h"

#define LAZYLIB_DECL(f) __typeof__(f) *f;
#define LAZYLIB_NAME(f) #f,

typedef struct lazylib {
    const char *engine;         /* named in errors */
    const char *const *sonames; /* tried in order, NULL-terminated */
    const char *const *names;   /* the functions, in the struct's order */
    int n;
    void *fns; /* the struct of n function pointers */
    pthread_mutex_t mu;
    int state; /* 0 not tried, 1 loaded, -1 failed (error holds why) */
    char error[300];
} lazylib;

/* Loads l once (later calls return the first outcome); 0, or -1 with err saying which
 * library or function is missing. */
int lazylib_load(lazylib *l, bb_err *err);

#endif
