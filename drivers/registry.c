/* registry.c — the engines compiled into this binary: bb_drivers[] is written by make from the
 * folders it finds (build/engines.c: every drivers/NAME/ with its bb_driver_NAME), so adding an
 * engine is adding its folder. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "driver.h"
#include "../base/err.h"

/* --engine when none is given: the embedded one, which needs no server */
const char bb_default_engine[] = "sqlite";

const bb_driver *bb_driver_find(const char *name)
{
    for (int i = 0; bb_drivers[i]; i++)
        if (strcmp(bb_drivers[i]->name, name) == 0) return bb_drivers[i];
    return NULL;
}

int bb_driver_count(void)
{
    int n = 0;
    while (bb_drivers[n]) n++;
    return n;
}

const char *bb_driver_dsn_env(const bb_driver *d, char *out, size_t n)
{
    snprintf(out, n, "BULKBENCH_%s_DSN", d->name);
    for (char *p = out; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
    return out;
}

const bb_dialect *bb_dialect_find(const char *name)
{
    for (int i = 0; bb_drivers[i]; i++)
        if (strcmp(bb_drivers[i]->dialect->name, name) == 0) return bb_drivers[i]->dialect;
    return NULL;
}

const bb_dialect *bb_dialect_known(const char *name)
{
    const bb_dialect *d = bb_dialect_find(name);
    for (int i = 0; !d && bb_drivers[i]; i++)
        for (const bb_dialect *const *o = bb_drivers[i]->dialects; !d && o && *o; o++)
            if (strcmp((*o)->name, name) == 0) d = *o;
    return d;
}

/* names[0..m) as words into out: "a, b<last_sep>c"; returns out. */
static const char *join_words(const char *const *names, int m, const char *last_sep, char *out, size_t n)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < m && at < n; i++) {
        int w = snprintf(out + at, n - at, "%s%s", i == 0 ? "" : i == m - 1 ? last_sep : ", ", names[i]);
        if (w < 0) break;
        at += (size_t)w;
    }
    return out;
}

/* The engines keep() accepts (all for NULL) as words into out: "a, b or c" (last_sep " or ")
 * or "a, b, c" (", "). Help texts and errors name engines from here, never by hand. */
const char *bb_engine_words(int (*keep)(const bb_driver *d), const char *last_sep, char *out, size_t n)
{
    const char *names[bb_driver_count() + 1];
    int m = 0;
    for (int i = 0; bb_drivers[i]; i++)
        if (!keep || keep(bb_drivers[i])) names[m++] = bb_drivers[i]->name;
    return join_words(names, m, last_sep, out, n);
}

const char *bb_dsn_words(int (*keep)(const bb_driver *d), char *out, size_t n)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; bb_drivers[i] && at < n; i++) {
        const bb_driver *d = bb_drivers[i];
        if (!d->dsn_help || (keep && !keep(d))) continue;
        int w = snprintf(out + at, n - at, "%s%s: %s", at ? "; " : "", d->name, d->dsn_help);
        if (w < 0) break;
        at += (size_t)w;
    }
    return out;
}

/* The dialects of the engines, each once, and generic (gen --format=sql's default), as words,
 * by name. */
const char *bb_dialect_words(const char *last_sep, char *out, size_t n)
{
    const char *names[bb_driver_count() + 1];
    int m = 0;
    for (int i = 0; bb_drivers[i]; i++) {
        int seen = 0;
        for (int j = 0; j < m; j++) seen |= strcmp(names[j], bb_drivers[i]->dialect->name) == 0;
        if (!seen) names[m++] = bb_drivers[i]->dialect->name;
    }
    /* by name: the words do not change with the engines' order (a new engine's folder) */
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    return join_words(names, m, last_sep, out, n);
}

/* What each capability promises the runtime may call. */
static const struct {
    unsigned cap;
    const char *cap_name, *op_name;
    size_t off;
} cap_ops[] = {
#define OP(cap, op)                                                                                                    \
    {                                                                                                                  \
        cap, #cap, #op, offsetof(bb_driver, op)                                                                        \
    }
    OP(0, target_open),
    OP(0, target_where),
    OP(0, target_close),
    OP(0, connect),
    OP(0, disconnect),
    OP(0, exec),
    OP(0, query),
    OP(0, set_session),
    OP(0, server_info),
    OP(0, table_bytes),
    OP(BB_CAP_PREPARE, prepare),
    OP(BB_CAP_PREPARE, execute),
    OP(BB_CAP_PREPARE, finalize),
    OP(BB_CAP_TXN, begin),
    OP(BB_CAP_TXN, commit),
    OP(BB_CAP_TXN, rollback),
    OP(BB_CAP_PIPELINE, execute_pipeline),
    OP(BB_CAP_PIPELINE, prepare),
    OP(BB_CAP_COPY_BIN, stream_encode),
    OP(BB_CAP_WAITS, session_id),
    OP(BB_CAP_WAITS, waits),
    OP(BB_CAP_WAITS, wait_counters),
#undef OP
};

int bb_driver_check(const bb_driver *d, char *msg, size_t n)
{
    for (size_t i = 0; i < sizeof cap_ops / sizeof cap_ops[0]; i++) {
        if (cap_ops[i].cap && !(d->caps & cap_ops[i].cap)) continue;
        if (*(void *const *)((const char *)d + cap_ops[i].off)) continue;
        snprintf(msg, n, "engine %s %s%s but has no %s operation", d->name, cap_ops[i].cap ? "claims " : "",
                 cap_ops[i].cap ? cap_ops[i].cap_name : "", cap_ops[i].op_name);
        return -1;
    }
    /* a stream capability needs one whole transport: pulled, or pushed (driver.h) */
    int streams = BB_CAP_COPY_TEXT | BB_CAP_COPY_CSV | BB_CAP_LOAD_DATA | BB_CAP_COPY_BIN;
    if ((d->caps & streams) && !d->stream_pull &&
        !(d->stream_open && d->stream_write && d->stream_close && d->stream_abort)) {
        snprintf(msg, n, "engine %s claims a stream but has neither stream_pull nor stream_open, _write, _close and "
                 "_abort", d->name);
        return -1;
    }
    if ((d->caps & BB_CAP_TXN) && !(d->caps & (BB_CAP_PREPARE | BB_CAP_TEXTPROTO | BB_CAP_MULTIROW))) {
        snprintf(msg, n, "engine %s claims BB_CAP_TXN with no way to write rows", d->name);
        return -1;
    }
    return 0;
}

int bb_stream_took(const bb_driver *d, int64_t took, int64_t sent, const char *what, bb_err *err)
{
    if (took < 0 || took == sent) return 0;
    return bb_errf(err, "%s: the server took %lld of the %lld rows of %s", d->name, (long long)took, (long long)sent,
                   what);
}
