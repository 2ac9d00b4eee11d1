/* sweep.c — expanding comma lists into runs, and recognising runs already done. */
#include "sweep.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/method/method.h"
#include "../../base/err.h"
#include "../../base/buf.h"

static char *own(sweep *s, char *str)
{
    s->owned = bb_xrealloc(s->owned, sizeof *s->owned * (size_t)(s->nowned + 1));
    s->owned[s->nowned++] = str;
    return str;
}

static char **own_split(sweep *s, const char *list, int *n)
{
    char **v = opts_split(list ? list : "", n);
    for (int i = 0; i < *n; i++) own(s, v[i]);
    v[*n] = NULL;
    return v; /* the array itself is freed by the caller; its strings are owned by s */
}

static int check_method(const bb_driver *d, const char *name, bb_err *err)
{
    const bb_method *m = method_find(name);
    if (!m) {
        const char *mn[32];
        int k = 0;
        for (const bb_method *x = bb_methods; x->name && k < 32; x++) mn[k++] = x->name;
        const char *near = opts_nearest(name, mn, k);
        return bb_usagef(err, "unknown method '%s'%s%s%s (methods: see `bulkbench list`)", name,
                         near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    }
    if (method_offered(m, d)) return 0;
    char have[256];
    method_names(d, 0, have, sizeof have);
    return bb_usagef(err, "engine %s does not offer method %s (it offers: %s)", d->name, m->name, have);
}

typedef struct setdim {
    const char *name;
    char **vals;
    int n, global;
} setdim;

/* The dimensions every engine shares, read from the command line once. */
typedef struct dims {
    char **threads, **batches, **methods, **strategies;
    int nt, nb, nm, ns;
    setdim set[BB_MAX_SETTINGS]; /* each --set and --set-global */
    int nset;
    const char *targets[BB_MAX_SETTINGS];
    int ntarget;
    int reconnect; /* --reconnect N: streams then have a batch (method_batch) */
} dims;

static void add_combo(sweep *s, const sweep_combo *c)
{
    s->combo = bb_xrealloc(s->combo, sizeof *s->combo * (size_t)(s->n + 1));
    s->combo[s->n++] = *c;
}

/* --set NAME=V1,V2 and --set-global NAME=V1,V2: one dimension each. */
static int read_settings(bb_cli *cli, sweep *s, dims *d, bb_err *err)
{
    const char *vals[BB_MAX_SETTINGS];
    const char *kinds[2] = { "set", "set-global" };
    for (int k = 0; k < 2; k++) {
        int n = opts_all(cli, kinds[k], vals, BB_MAX_SETTINGS - d->nset);
        for (int i = 0; i < n; i++) {
            const char *eq = strchr(vals[i], '=');
            if (!eq || eq == vals[i] || !eq[1])
                return bb_usagef(err, "--%s expects NAME=V1[,V2...], got '%s'", kinds[k], vals[i]);
            setdim *sd = &d->set[d->nset++];
            sd->name = own(s, bb_xstrndup(vals[i], (size_t)(eq - vals[i])));
            sd->vals = own_split(s, eq + 1, &sd->n);
            sd->global = k;
        }
    }
    return 0;
}

/* --target NAME=DSN (a dimension of its own), and what cannot go with it or several engines. */
static int read_targets(bb_cli *cli, dims *d, int nengines, bb_err *err)
{
    d->ntarget = opts_all(cli, "target", d->targets, BB_MAX_SETTINGS);
    for (int i = 0; i < d->ntarget; i++)
        if (!strchr(d->targets[i], '=') || d->targets[i][0] == '=')
            return bb_usagef(err, "--target expects NAME=DSN, got '%s'", d->targets[i]);
    if (nengines > 1 && opts_get(cli, "dsn"))
        return bb_usagef(err,
                         "--dsn with several engines is ambiguous: give each engine its DSN in "
                         "BULKBENCH_<ENGINE>_DSN (e.g. BULKBENCH_PG_DSN) and leave --dsn out");
    if (d->ntarget && opts_get(cli, "dsn")) return bb_usagef(err, "--target names servers: leave --dsn out");
    return 0;
}

/* --method's list on a sweep of several engines: each engine runs those of the list it offers,
 * and the others are named in s->skipped ("pg/load"); a method no engine offers is an error. */
static int offered_methods(sweep *s, const dims *d, const bb_driver *drv, char ***out, int *n, bb_err *err)
{
    *out = bb_xcalloc((size_t)d->nm + 1, sizeof **out);
    *n = 0;
    for (int m = 0; m < d->nm; m++) {
        if (check_method(drv, d->methods[m], err) < 0 && !method_find(d->methods[m])) return -1; /* a typo */
        if (method_offered(method_find(d->methods[m]), drv)) (*out)[(*n)++] = d->methods[m];
        else bb_buf_printf(&s->skipped, "%s%s/%s", s->skipped.len ? ", " : "", drv->name, d->methods[m]);
    }
    return 0;
}

/* Every method of --method's list must be offered by one engine of the sweep at least. */
static int check_offered_somewhere(const dims *d, const char *list, char **engines, int ne, bb_err *err)
{
    for (int m = 0; m < d->nm; m++) {
        const bb_method *me = method_find(d->methods[m]);
        int any = 0;
        for (int e = 0; e < ne && me; e++) any |= bb_driver_find(engines[e]) && method_offered(me, bb_driver_find(engines[e]));
        if (me && !any)
            return bb_usagef(err, "no engine of --engine=%s offers method %s (see `bulkbench list`)",
                             list, me->name);
    }
    return 0;
}

/* The engine's methods: the command line's (on several engines, those of it the engine
 * offers), else the script's default for it, else none; each offered by the engine, and
 * exactly-once capable under --reconnect. */
static int engine_methods(bb_cli *cli, sweep *s, const dims *d, const bb_driver *drv, int ne, char ***out, int *n,
                          bb_err *err)
{
    char key[64];
    snprintf(key, sizeof key, "method@%s", drv->name);
    *out = d->methods;
    *n = d->nm;
    if (d->methods && ne > 1 && offered_methods(s, d, drv, out, n, err) < 0) return -1;
    if (!d->methods && opts_get(cli, key)) *out = own_split(s, opts_get(cli, key), n);
    for (int m = 0; m < *n; m++) {
        if (check_method(drv, (*out)[m], err) < 0) return -1;
        if (d->reconnect > 0 && !method_once_capable(method_find((*out)[m]))) {
            char once[256];
            method_names(drv, 1, once, sizeof once);
            return bb_usagef(err,
                             "--reconnect cannot make method %s exactly-once: it commits each row on its own, with no "
                             "transaction to mark; on %s use %s",
                             (*out)[m], drv->name, once);
        }
    }
    for (int i = 0; i < d->nset; i++)
        if (d->set[i].global && !drv->set_global)
            return bb_usagef(err, "engine %s has no server-wide settings for --set-global", drv->name);
    return 0;
}

/* One combination: method m, threads t, batch b, settings k (the first setting varies
 * fastest), target g. */
static sweep_combo combo_at(bb_cli *cli, sweep *s, const dims *d, const bb_driver *drv, char **methods, int nm,
                            const int at[6])
{
    const bb_method *m = nm ? method_find(methods[at[0]]) : NULL;
    sweep_combo c = { .drv = drv,
                      .method = m,
                      .threads = atoi(d->threads[at[1]]),
                      .batch = method_batch(m, d->nb ? atoll(d->batches[at[2]]) : 0, d->reconnect),
                      .dsn = opts_dsn(cli, drv),
                      .nset = d->nset };
    for (int i = 0, q = at[3]; i < d->nset; q /= d->set[i].n, i++) {
        c.set_name[i] = d->set[i].name;
        c.set_value[i] = d->set[i].vals[q % d->set[i].n];
        c.set_global[i] = d->set[i].global;
    }
    if (d->ntarget) {
        const char *t = d->targets[at[4]], *eq = strchr(t, '=');
        c.target = own(s, bb_xstrndup(t, (size_t)(eq - t)));
        c.dsn = eq + 1;
    }
    if (d->ns && strcmp(d->strategies[at[5]], "none") != 0) c.strategy = d->strategies[at[5]];
    return c;
}

/* Every combination of one engine, the last dimension varying fastest; a method that takes
 * no batch makes one point of the batches (its first). */
static void expand(bb_cli *cli, sweep *s, const dims *d, const bb_driver *drv, char **methods, int nm)
{
    int size[6] = { nm ? nm : 1, d->nt, d->nb ? d->nb : 1, 1, d->ntarget ? d->ntarget : 1, d->ns ? d->ns : 1 },
        at[6] = { 0 };
    for (int i = 0; i < d->nset; i++) size[3] *= d->set[i].n;
    for (;;) {
        sweep_combo c = combo_at(cli, s, d, drv, methods, nm, at);
        if (at[2] == 0 || !c.method || method_takes_batch(c.method)) add_combo(s, &c);
        int k = 5;
        while (k >= 0 && ++at[k] == size[k]) at[k--] = 0;
        if (k < 0) return;
    }
}

int sweep_build(bb_cli *cli, sweep *s, bb_err *err) { return sweep_build_from(cli, NULL, s, err); }

int sweep_build_from(bb_cli *cli, const sweep_lists *l, sweep *s, bb_err *err)
{
    memset(s, 0, sizeof *s);
    dims d = { 0 };
    int ne;
    const char *methods = l && l->methods ? l->methods : opts_get(cli, "method");
    char **engines = own_split(s, opts_get(cli, "engine"), &ne);
    d.threads = own_split(s, l && l->threads ? l->threads : opts_get(cli, "threads"), &d.nt);
    d.batches = own_split(s, l && l->batches ? l->batches : opts_get(cli, "batch"), &d.nb);
    if (methods) d.methods = own_split(s, methods, &d.nm);
    if (opts_get(cli, "strategy")) d.strategies = own_split(s, opts_get(cli, "strategy"), &d.ns);
    d.reconnect = opts_get(cli, "reconnect") ? atoi(opts_get(cli, "reconnect")) : 0;
    int rc = read_settings(cli, s, &d, err) < 0 || read_targets(cli, &d, ne, err) < 0 ? -1 : 0;
    if (rc == 0 && ne > 1 && check_offered_somewhere(&d, opts_get(cli, "engine"), engines, ne, err) < 0) rc = -1;
    for (int e = 0; e < ne && rc == 0; e++) {
        const bb_driver *drv = opts_engine(engines[e], err);
        char **methods = NULL;
        int nm = 0;
        if (!drv || engine_methods(cli, s, &d, drv, ne, &methods, &nm, err) < 0) rc = -1;
        else if (nm || !d.methods) expand(cli, s, &d, drv, methods, nm); /* none of the list: the engine is skipped */
        if (methods != d.methods) free(methods);
    }
    free(engines);
    free(d.threads);
    free(d.batches);
    free(d.methods);
    free(d.strategies);
    for (int i = 0; i < d.nset; i++) free(d.set[i].vals);
    return rc;
}

void sweep_free(sweep *s)
{
    for (int i = 0; i < s->nowned; i++) free(s->owned[i]);
    free(s->owned);
    free(s->combo);
    free(s->skipped.p);
    memset(s, 0, sizeof *s);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* scenario|engine|method|threads|batch|target|name=value,... (settings sorted) */
static char *make_key(const char *scen, const char *engine, const char *method, long long threads, long long batch,
                      const char *target, char **sets, int nset)
{
    qsort(sets, (size_t)nset, sizeof *sets, cmp_str);
    bb_buf b = { 0 };
    bb_buf_printf(&b, "%s|%s|%s|%lld|%lld|%s|", scen, engine, method ? method : "", threads, batch,
                  target ? target : "");
    for (int i = 0; i < nset; i++) bb_buf_printf(&b, "%s%s", i ? "," : "", sets[i]);
    bb_buf_putc(&b, 0);
    return b.p;
}

char *sweep_key(const char *scenario, const sweep_combo *c, int nopts, const char *const *opt_name,
                const char *const *opt_value)
{
    char *sets[2 * BB_MAX_SETTINGS + 64];
    int ns = 0;
    for (int i = 0; i < c->nset; i++) {
        size_t n = strlen(c->set_name[i]) + strlen(c->set_value[i]) + 2;
        sets[ns] = bb_xmalloc(n);
        snprintf(sets[ns++], n, "%s=%s", c->set_name[i], c->set_value[i]);
    }
    for (int i = 0; i < nopts && ns < (int)(sizeof sets / sizeof *sets); i++) {
        size_t n = strlen(opt_name[i]) + strlen(opt_value[i]) + 3;
        sets[ns] = bb_xmalloc(n);
        snprintf(sets[ns++], n, "-%s=%s", opt_name[i], opt_value[i]);
    }
    if (c->strategy) { /* "~" keeps it apart from settings and options; none adds nothing (old keys hold) */
        size_t n = strlen(c->strategy) + 11;
        sets[ns] = bb_xmalloc(n);
        snprintf(sets[ns++], n, "~strategy=%s", c->strategy);
    }
    /* c->batch is the one a result records (method_batch); none without a method */
    char *k = make_key(scenario, c->drv->name, c->method ? c->method->name : NULL, c->threads,
                       c->method ? c->batch : -1, c->target, sets, ns);
    for (int i = 0; i < ns; i++) free(sets[i]);
    return k;
}

char **sweep_done_keys(const char *path)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) return NULL;
    char **keys = NULL;
    int n = 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_t *o = json_loads(line, 0, NULL);
        if (!o) continue;
        if (!json_object_get(o, "error")) {
            char *sets[2 * BB_MAX_SETTINGS + 64];
            int ns = 0;
            const char *name;
            json_t *v, *set = json_object_get(o, "set"), *opts = json_object_get(o, "options");
            json_object_foreach(set, name, v)
            {
                if (ns == BB_MAX_SETTINGS) break;
                size_t len = strlen(name) + strlen(json_string_value(v) ? json_string_value(v) : "") + 2;
                sets[ns] = bb_xmalloc(len);
                snprintf(sets[ns++], len, "%s=%s", name, json_string_value(v) ? json_string_value(v) : "");
            }
            json_object_foreach(opts, name, v)
            { /* script options: "-" keeps them apart from settings */
                if (ns == (int)(sizeof sets / sizeof *sets)) break;
                size_t len = strlen(name) + strlen(json_string_value(v) ? json_string_value(v) : "") + 3;
                sets[ns] = bb_xmalloc(len);
                snprintf(sets[ns++], len, "-%s=%s", name, json_string_value(v) ? json_string_value(v) : "");
            }
            const char *st = json_string_value(json_object_get(o, "strategy"));
            if (st && strcmp(st, "none") != 0 && ns < (int)(sizeof sets / sizeof *sets)) {
                size_t len = strlen(st) + 11;
                sets[ns] = bb_xmalloc(len);
                snprintf(sets[ns++], len, "~strategy=%s", st);
            }
            json_t *batch = json_object_get(o, "batch");
            keys = bb_xrealloc(keys, sizeof *keys * (size_t)(n + 2));
            keys[n++] = make_key(json_string_value(json_object_get(o, "scenario")) ?: "",
                                 json_string_value(json_object_get(o, "engine")) ?: "",
                                 json_string_value(json_object_get(o, "method")),
                                 (long long)json_integer_value(json_object_get(o, "threads")),
                                 json_is_integer(batch) ? (long long)json_integer_value(batch) : -1,
                                 json_string_value(json_object_get(o, "target")), sets, ns);
            keys[n] = NULL;
            for (int i = 0; i < ns; i++) free(sets[i]);
        }
        json_decref(o);
    }
    free(line);
    fclose(f);
    return keys;
}

int sweep_has_key(char *const *keys, const char *key)
{
    for (int i = 0; keys && keys[i]; i++)
        if (strcmp(keys[i], key) == 0) return 1;
    return 0;
}
