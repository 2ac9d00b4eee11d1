/* loadopts.c — the options of a file load, read one way from the command line and from a
 * script's db:load_file{...}, so both take the same values and refuse the same mistakes. */
#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../opts.h"
#include "../run/diagnose.h"
#include "../../../base/err.h"

const char *const load_opt_names[] = { "table",    "format",     "threads",     "chunk",        "header",   "columns",
                                       "truncate", "rate-limit", "delimiter",   "quote",        "null",     "skip-rows",
                                       "limit",    "on-error",   "reject-file", "reject-limit", "progress", "waits",
                                       NULL };

/* A value of get, checked against the option's type; *v = NULL when not given. */
static int value(load_opt_get get, void *ud, const char *name, const char **v, bb_err *err)
{
    *v = get(ud, name);
    const opt_def *d = opts_find_common(name);
    return *v && d ? opts_check_value(name, d->type, *v, d->min, err) : 0;
}

int load_opts_read(load_opts *o, load_opt_get get, void *ud, bb_err *err)
{
    const char *v[18];
    for (int i = 0; load_opt_names[i]; i++)
        if (value(get, ud, load_opt_names[i], &v[i], err) < 0) return -1;
    const char *table = v[0], *format = v[1], *threads = v[2], *chunk = v[3], *header = v[4], *columns = v[5],
               *truncate = v[6], *rate = v[7], *delim = v[8], *quote = v[9], *null = v[10], *skip = v[11],
               *limit = v[12], *on_error = v[13], *reject = v[14], *reject_limit = v[15], *progress = v[16], *waits = v[17];
    if (!table) return bb_usagef(err, "load needs --table=NAME (load_file: table = NAME)");
    if (o->npaths < 1) return bb_usagef(err, "load needs a file: bulkbench load FILE... --engine=E --table=T");
    o->table = table;
    /* the format: given, else the first file's extension (under any .gz or .zst) */
    if (!(o->format = load_format_of(o->paths[0], format)))
        return bb_usagef(err, "say --format=csv, tsv or copy for %s", o->paths[0]);
    o->threads = threads ? (int)opts_parse_count(threads) : 1;
    o->chunk = chunk ? opts_parse_size(chunk) : 0;
    o->header = opts_is_on(header);
    o->columns = columns;
    o->truncate = opts_is_on(truncate);
    o->rate_mb = rate ? strtod(rate, NULL) : 0;
    o->progress = progress ? opts_is_on(progress) : -1;
    o->waits_hz = diagnose_hz(waits);
    o->null = null;
    if (load_char_opt("delimiter", delim, &o->delimiter, err) < 0 || load_char_opt("quote", quote, &o->quote, err) < 0)
        return -1;
    o->skip_rows = skip ? opts_parse_count(skip) : 0;
    o->limit = limit ? opts_parse_count(limit) : -1;
    if (on_error && strcmp(on_error, "stop") && strcmp(on_error, "skip"))
        return bb_usagef(err, "--on-error is stop or skip, not '%s'", on_error);
    o->skip_bad = on_error && !strcmp(on_error, "skip");
    o->reject_path = reject;
    o->reject_limit = reject_limit ? opts_parse_count(reject_limit) : -1;
    if (!o->skip_bad && (o->reject_path || o->reject_limit >= 0))
        return bb_usagef(err, "--reject-file and --reject-limit go with --on-error=skip");
    return 0;
}

const char *load_format_of(const char *path, const char *given)
{
    if (given) return given;
    char base[4096];
    snprintf(base, sizeof base, "%s", path);
    char *dot = strrchr(base, '.');
    if (dot && (!strcmp(dot, ".gz") || !strcmp(dot, ".zst"))) *dot = 0;
    const char *ext = strrchr(base, '.');
    if (!ext) return NULL;
    return !strcmp(ext, ".csv")                          ? "csv"
        : (!strcmp(ext, ".tsv") || !strcmp(ext, ".txt")) ? "tsv"
        : !strcmp(ext, ".copy")                          ? "copy"
                                                         : NULL;
}

int load_char_opt(const char *name, const char *v, char *out, bb_err *err)
{
    *out = 0;
    if (!v) return 0;
    if (!strcmp(v, "tab") || !strcmp(v, "\\t")) v = "\t";
    if (strlen(v) != 1 || *v == '\n' || *v == '\r' || *v == '\\')
        return bb_usagef(err, "--%s takes one character (or 'tab'), not a newline or backslash; got '%s'", name, v);
    *out = *v;
    return 0;
}
