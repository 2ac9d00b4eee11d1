/* advise_setup.c — what advise checks and prepares before it races: its options, the
 * engine, the input (a script and its table, or a file and a scratch table like --table),
 * and whether the server has the sessions the candidates' threads need. */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../base/buf.h"
#include "../../base/err.h"
#include "../host/lib.h"
#include "advise.h"

/* A data file goes the way of `bulkbench load`; anything else is a script. */
static int is_data_file(const char *path) { return load_format_of(path, NULL) != NULL; }

/* The options, the input, the engine: a usage error (exit 2) for anything advise cannot do. */
int advise_check_options(advise *a, bb_err *err)
{
    bb_cli *cli = a->cli;
    if (cli->npos != 1)
        return bb_usagef(err,
                         cli->npos ? "advise takes one script or file, got '%s' too"
                                   : "advise needs a script or a data file: bulkbench advise SCRIPT.lua|FILE "
                                     "--engine=E [--budget=5m]%s",
                         cli->npos ? cli->pos[1] : "");
    const char *fmt = opts_get(cli, "format");
    if (strcmp(fmt, "text") && strcmp(fmt, "json"))
        return bb_usagef(err, "--format=%s: advise reports as text or json (a file's format comes from its name)", fmt);
    a->budget_s = opts_parse_duration(opts_get(cli, "budget"));
    if (a->budget_s <= 0)
        return bb_usagef(err, "--budget expects a duration such as 90s, 5m or 1h, got '%s'", opts_get(cli, "budget"));
    const char *engine = opts_get(cli, "engine");
    if (strchr(engine, ',')) return bb_usagef(err, "advise answers for one engine at a time, got --engine=%s", engine);
    if (!(a->drv = opts_engine(engine, err))) return -1;
    a->dsn = opts_dsn(cli, a->drv);
    a->input = cli->pos[0];
    a->file = is_data_file(a->input);
    return 0;
}

/* --table for a script: one of its tables, the one bb.load loads unless it names another. */
static int script_table(advise *a, bb_err *err)
{
    const char *main_t = NULL;
    char **names = lib_table_names(a->rs.L, &main_t, err);
    if (!names) return -1;
    const char *want = opts_get(a->cli, "table");
    int rc = 0, n = 0;
    while (names[n]) n++;
    if (!want) a->table = main_t ? bb_xstrdup(main_t) : NULL;
    else {
        int found = 0;
        for (int i = 0; i < n; i++) found |= !strcmp(names[i], want);
        const char *near = found ? NULL : opts_nearest(want, (const char *const *)names, n);
        if (!found && near) rc = bb_usagef(err, "%s defines no table '%s'; did you mean '%s'?", a->input, want, near);
        else if (!found) {
            char list[512] = "";
            for (int i = 0; i < n; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
            rc = bb_usagef(err, "%s defines no table '%s' (its tables: %s)", a->input, want, n ? list : "none");
        }
        else {
            a->table = bb_xstrdup(want);
            if (!main_t || strcmp(want, main_t)) a->focus = a->table; /* the run loads this one table */
        }
    }
    lib_free_names(names);
    return rc;
}

static int setup_script(advise *a, bb_err *err)
{
    a->rs.hc.scratch = a->scratch;
    if (runcmd_load(a->cli, a->input, &a->rs, err) < 0 || script_table(a, err) < 0) return -1;
    if (a->focus && lib_focus(a->rs.L, a->focus, err) < 0) return -1;
    if (!lib_has_run(a->rs.L))
        return bb_usagef(err,
                         "%s writes through event(): advise races load methods, which run(ctx) uses with "
                         "ctx:load (bb.load does); give it a table to load",
                         a->input);
    const char *rows = opts_get(a->cli, "rows");
    a->rows = rows ? atoll(rows) : 1000000;
    runcmd_scenario(a->input, a->scenario, sizeof a->scenario);
    return advise_space(a, err);
}

static const char *option(void *cli, const char *name)
{
    /* the load options advise passes on; the rest are set per run */
    static const char *const mine[] = { "table", "format", "threads", "chunk", "progress", "limit", "truncate", NULL };
    for (int i = 0; mine[i]; i++)
        if (!strcmp(name, mine[i])) return !strcmp(name, "table") ? opts_get(cli, "table") : NULL;
    return opts_get(cli, name);
}

static int setup_file(advise *a, bb_err *err)
{
    a->lo = (load_opts){ .paths = (const char **)a->cli->pos, .npaths = 1 };
    if (!opts_get(a->cli, "table"))
        return bb_usagef(err, "advise FILE needs --table=T: the existing table whose shape the scratch table takes");
    if (load_opts_read(&a->lo, option, a->cli, err) < 0) return -1;
    a->lo.drv = a->drv;
    a->lo.dsn = a->dsn;
    a->table = bb_xstrdup(opts_get(a->cli, "table"));
    snprintf(a->scratch_table, sizeof a->scratch_table, "%s%s", a->table, a->scratch);
    a->lo.table = a->scratch_table;
    a->lo.truncate = 1;
    a->lo.progress = 0;
    struct stat st;
    if (stat(a->input, &st) < 0) return bb_errf(err, "cannot read %s", a->input);
    /* the scale of its answer: its rows as the load counts them (a quoted newline ends none) */
    if ((a->rows = load_count_rows(&a->lo, a->input, err)) < 0) return -1;
    a->file_bytes = (int64_t)st.st_size;
    if (a->rows < 1) return bb_usagef(err, "%s holds no rows", a->input);
    snprintf(a->scenario, sizeof a->scenario, "load");
    if (advise_file_space(a, a->file_bytes, err) < 0) return -1;
    return lib_scratch_like(a->drv->name, a->dsn, a->scratch_table, a->table, 0, err);
}

/* The input's side of the race: a file's scratch table made like --table, or a script
 * loaded with its table chosen; the space either needs checked. */
int advise_setup_input(advise *a, bb_err *err)
{
    return a->file ? setup_file(a, err) : setup_script(a, err);
}

/* The threads a run may open, checked before racing: each holds a session of the server's
 * (and the run one more for its checks), so the most threads of any candidate must fit what
 * the server takes less what is open; and a thread of this client's each, ADV_MAX_THREADS. */
#define ADV_MAX_THREADS 1024
int advise_check_threads(advise *a, bb_err *err)
{
    int most = 0, max, used;
    for (int k = 0; k < a->n; k++)
        if (a->c[k].threads > most) most = a->c[k].threads;
    if (most > ADV_MAX_THREADS)
        return bb_usagef(err, "--threads=%d: a run starts one thread and one session per thread; at most %d", most,
                         ADV_MAX_THREADS);
    bb_err e = { .code = BB_EXIT_RUNTIME };
    if (lib_sessions(a->drv->name, a->dsn, &max, &used, &e) < 0) {
        *err = e;
        return -1;
    }
    if (max > 0 && used >= 0 && most + 1 > max - used)
        return bb_usagef(err,
                         "--threads=%d needs %d sessions of the server; it takes %d and %d are open: give --threads "
                         "up to %d",
                         most, most + 1, max, used, max - used - 1 > 0 ? max - used - 1 : 0);
    return 0;
}
