/* fuzz_dsn.c — the DSN parsers of the pg, mysql and odbc engines (target_open, no connection).
 * Checked on the raw input and on the input behind "scheme://user:SECRET@" (an ODBC
 * connection string: "PWD=SECRET;" before it, ";PWD={SECRET}" after it): no crash, a
 * non-empty host:port for messages, and the password never in it or in an error. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/driver.h"
#include "../../base/err.h"

#define SECRET "Zq9Pw4Secret"

static void try(const bb_driver *d, const char *dsn, int secret)
{
    bb_target *t = NULL;
    bb_err err;
    memset(&err, 0, sizeof err);
    if (d->target_open(dsn, &t, &err) == 0) {
        const char *w = d->target_where(t);
        assert(w && *w);
        if (secret) assert(!strstr(w, SECRET));
        d->target_close(t);
    } else if (secret) {
        assert(!strstr(err.msg, SECRET));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *raw = malloc(size + 1), *wrapped = malloc(size + 64);
    memcpy(raw, data, size);
    raw[size] = 0;
    int clean = !strstr(raw, SECRET);
    const char *names[] = { "pg", "mysql" }, *schemes[] = { "postgresql", "mysql" };
    for (int i = 0; i < 2; i++) {
        const bb_driver *d = bb_driver_find(names[i]);
        try(d, raw, 0);
        snprintf(wrapped, size + 64, "%s://u:%s@%s", schemes[i], SECRET, raw);
        try(d, wrapped, clean);
    }
    const bb_driver *odbc = bb_driver_find("odbc");
    try(odbc, raw, 0);
    snprintf(wrapped, size + 64, "PWD=%s;%s", SECRET, raw);
    try(odbc, wrapped, clean);
    snprintf(wrapped, size + 64, "%s;PWD={%s}", raw, SECRET);
    try(odbc, wrapped, clean);
    free(raw);
    free(wrapped);
    return 0;
}
