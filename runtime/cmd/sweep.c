/* sweep.c — expanding comma lists into runs, and recognising runs already done. */
#include "sweep.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/method.h"
#include "../../base/err.h"
#include "../../base/buf.h"

static char *own(sweep *s, char *str)
{
    s->owned = realloc(s->owned, sizeof *s->owned * (size_t)(s->nowned + 1));
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
    char have[256] = "";
    for (const bb_method *x = bb_methods; x->name; x++)
        if (method_offered(x, d)) {
            strcat(have, have[0] ? ", " : "");
            strcat(have, x->name);
        }
    return bb_usagef(err, "engine %s does not offer method %s (it offers: %s)", d->name, m->name, have);
}

typedef struct setdim { const char *name; char **vals; int n, global; } setdim;

static void add_combo(sweep *s, const sweep_combo *c)
{
    s->combo = realloc(s->combo, sizeof *s->combo * (size_t)(s->n + 1));
    s->combo[s->n++] = *c;
}

int sweep_build(bb_cli *cli, sweep *s, bb_err *err)
{
    memset(s, 0, sizeof *s);
    int ne, nt, nb, nm = 0;
    char **engines = own_split(s, opts_get(cli, "engine"), &ne);
    char **threads = own_split(s, opts_get(cli, "threads"), &nt);
    char **batches = own_split(s, opts_get(cli, "batch"), &nb);
    const char *mopt = opts_get(cli, "method");
    char **methods = mopt ? own_split(s, mopt, &nm) : NULL;
    int rc = -1;
    setdim dims[BB_MAX_SETTINGS];
    int nd = 0;
    const char *vals[BB_MAX_SETTINGS], *targets[BB_MAX_SETTINGS];
    const char *kinds[2] = { "set", "set-global" };
    for (int k = 0; k < 2; k++) {
        int n = opts_all(cli, kinds[k], vals, BB_MAX_SETTINGS - nd);
        for (int i = 0; i < n; i++) {
            const char *eq = strchr(vals[i], '=');
            if (!eq || eq == vals[i] || !eq[1]) {
                bb_usagef(err, "--%s expects NAME=V1[,V2...], got '%s'", kinds[k], vals[i]);
                goto out;
            }
            dims[nd].name = own(s, strndup(vals[i], (size_t)(eq - vals[i])));
            dims[nd].vals = own_split(s, eq + 1, &dims[nd].n);
            dims[nd].global = k;
            nd++;
        }
    }
    int ntarget = opts_all(cli, "target", targets, BB_MAX_SETTINGS);
    for (int i = 0; i < ntarget; i++)
        if (!strchr(targets[i], '=') || targets[i][0] == '=') {
            bb_usagef(err, "--target expects NAME=DSN, got '%s'", targets[i]);
            goto out;
        }
    if (ne > 1 && opts_get(cli, "dsn")) {
        bb_usagef(err, "--dsn with several engines is ambiguous: give each engine its DSN in BULKBENCH_<ENGINE>_DSN "
                       "(e.g. BULKBENCH_PG_DSN) and leave --dsn out");
        goto out;
    }
    if (ntarget && opts_get(cli, "dsn")) {
        bb_usagef(err, "--target names servers: leave --dsn out");
        goto out;
    }

    const char *names[16];
    int ndrv = 0;
    for (int i = 0; bb_drivers[i] && ndrv < 16; i++) names[ndrv++] = bb_drivers[i]->name;
    for (int e = 0; e < ne; e++) {
        const bb_driver *d = bb_driver_find(engines[e]);
        if (!d) {
            const char *near = opts_nearest(engines[e], names, ndrv);
            bb_usagef(err, "unknown engine '%s'%s%s%s (engines: see `bulkbench list`)", engines[e],
                      near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
            goto out;
        }
        for (int i = 0; i < nd; i++)
            if (dims[i].global && !d->set_global) {
                bb_usagef(err, "engine %s has no server-wide settings for --set-global", d->name);
                goto out;
            }
        /* the command line's methods, else the script's default for this engine, else none */
        char key[64];
        snprintf(key, sizeof key, "method@%s", d->name);
        int nem = nm;
        char **em = methods;
        if (!methods && opts_get(cli, key)) em = own_split(s, opts_get(cli, key), &nem);
        for (int m = 0; m < nem; m++) {
            if (check_method(d, em[m], err) < 0) goto out;
            if (!method_once_capable(method_find(em[m])) && opts_get(cli, "reconnect") && atoi(opts_get(cli, "reconnect")) > 0) {
                bb_usagef(err, "--reconnect cannot make method %s exactly-once: it commits each row on its own, with no "
                               "transaction to mark; use txn, multirow, pipeline or a stream method", em[m]);
                goto out;
            }
        }
        for (int m = 0; m < (nem ? nem : 1); m++)
            for (int t = 0; t < nt; t++)
                for (int b = 0; b < (nb ? nb : 1); b++) {
                    int total = 1, idx[BB_MAX_SETTINGS];
                    for (int i = 0; i < nd; i++) total *= dims[i].n;
                    for (int k = 0; k < total; k++)
                        for (int g = 0; g < (ntarget ? ntarget : 1); g++) {
                            sweep_combo c = { .drv = d, .method = nem ? em[m] : NULL, .threads = atoi(threads[t]),
                                              .batch = nb ? atoll(batches[b]) : 0, .dsn = opts_dsn(cli, d) };
                            int q = k;
                            for (int i = 0; i < nd; i++) { idx[i] = q % dims[i].n; q /= dims[i].n; }
                            c.nset = nd;
                            for (int i = 0; i < nd; i++) {
                                c.set_name[i] = dims[i].name;
                                c.set_value[i] = dims[i].vals[idx[i]];
                                c.set_global[i] = dims[i].global;
                            }
                            if (ntarget) {
                                const char *eq = strchr(targets[g], '=');
                                c.target = own(s, strndup(targets[g], (size_t)(eq - targets[g])));
                                c.dsn = eq + 1;
                            }
                            add_combo(s, &c);
                        }
                }
        if (em != methods) free(em);
    }
    rc = 0;
out:
    free(engines);
    free(threads);
    free(batches);
    free(methods);
    for (int i = 0; i < nd; i++) free(dims[i].vals);
    return rc;
}

void sweep_free(sweep *s)
{
    for (int i = 0; i < s->nowned; i++) free(s->owned[i]);
    free(s->owned);
    free(s->combo);
    memset(s, 0, sizeof *s);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* scenario|engine|method|threads|batch|target|name=value,... (settings sorted) */
static char *make_key(const char *scen, const char *engine, const char *method, long long threads, long long batch,
                      const char *target, char **sets, int nset)
{
    qsort(sets, (size_t)nset, sizeof *sets, cmp_str);
    bb_buf b = { 0 };
    bb_buf_printf(&b, "%s|%s|%s|%lld|%lld|%s|", scen, engine, method ? method : "", threads, batch, target ? target : "");
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
    /* the batch a result records is the method's effective one */
    bb_plan p = { .drv = c->drv, .method = c->method, .batch = c->batch };
    char *k = make_key(scenario, c->drv->name, c->method, c->threads, c->method ? method_batch(&p) : -1, c->target,
                       sets, ns);
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
            json_object_foreach(set, name, v) {
                if (ns == BB_MAX_SETTINGS) break;
                size_t len = strlen(name) + strlen(json_string_value(v) ? json_string_value(v) : "") + 2;
                sets[ns] = bb_xmalloc(len);
                snprintf(sets[ns++], len, "%s=%s", name, json_string_value(v) ? json_string_value(v) : "");
            }
            json_object_foreach(opts, name, v) { /* script options: "-" keeps them apart from settings */
                if (ns == (int)(sizeof sets / sizeof *sets)) break;
                size_t len = strlen(name) + strlen(json_string_value(v) ? json_string_value(v) : "") + 3;
                sets[ns] = bb_xmalloc(len);
                snprintf(sets[ns++], len, "-%s=%s", name, json_string_value(v) ? json_string_value(v) : "");
            }
            json_t *batch = json_object_get(o, "batch");
            keys = realloc(keys, sizeof *keys * (size_t)(n + 2));
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
