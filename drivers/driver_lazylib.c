/* driver_lazylib.c — loading an engine's client library on first use (see lazylib.h). */
#include "lazylib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int lazylib_open(lazylib *l)
{
    void *h = NULL;
    const char *const *so = l->sonames;
    for (; *so && !(h = dlopen(*so, RTLD_NOW | RTLD_LOCAL)); so++) {}
    if (!h) {
        snprintf(l->error, sizeof l->error, "%s: cannot load %s: %s", l->engine, l->sonames[0], dlerror());
        return -1;
    }
    for (int i = 0; i < l->n; i++) {
        void *f = dlsym(h, l->names[i]);
        if (!f) {
            snprintf(l->error, sizeof l->error, "%s: %s has no %s (too old a version?)", l->engine, *so, l->names[i]);
            return -1;
        }
        memcpy((char *)l->fns + (size_t)i * sizeof f, &f,
               sizeof f); /* a data pointer to a function one, as POSIX allows */
    }
    return 0;
}

int lazylib_load(lazylib *l, bb_err *err)
{
    pthread_mutex_lock(&l->mu);
    if (l->state == 0) l->state = lazylib_open(l) == 0 ? 1 : -1;
    int state = l->state;
    pthread_mutex_unlock(&l->mu);
    if (state < 0) return bb_errf(err, "%s", l->error);
    return 0;
}
