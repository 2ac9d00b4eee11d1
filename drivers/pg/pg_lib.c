/* pg_lib.c — libpq, loaded on first use (pg_lib.h). */
#define PG_LIB_OWN
#include "pg_lib.h"

struct pg_lib pg_lib;

int pg_lib_load(bb_err *err)
{
    static const char *const sonames[] = { "libpq.so.5", "libpq.so", NULL };
    static const char *const names[] = { PG_LIB_FNS(LAZYLIB_NAME) };
    static lazylib l = {
        "pg", sonames, names, sizeof names / sizeof *names, &pg_lib, PTHREAD_MUTEX_INITIALIZER, 0, ""
    };
    return lazylib_load(&l, err);
}
