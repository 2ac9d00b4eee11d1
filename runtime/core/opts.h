/* opts.h — command-line options: the common ones (opts_common: those several commands, or
 * core itself, read), a command's own (defined beside the command: bb_cli.own), and the
 * ones a script declares. An option has one definition whichever command takes it. Values
 * stay strings until the consumer types them; validation happens here so a bad value is a
 * usage error (exit 2) that names the option. */
#ifndef BB_OPTS_H
#define BB_OPTS_H

#include "../../base/err.h"
#include "../../drivers/driver.h"

typedef enum { OT_INT, OT_NUM, OT_STR, OT_BOOL, OT_SIZE } opt_type;

/* What an option is, whichever command takes it: its type and the checks on its value. */
typedef struct opt_def {
    const char *name;
    opt_type type;
    const char *dflt; /* NULL: unset unless the command or the script sets a default */
    int list;         /* accepts a comma list: a sweep dimension */
    int min;          /* for OT_INT/OT_NUM: smallest allowed value */
    const char *help; /* what it means where a command does not say otherwise */
} opt_def;

extern const opt_def opts_common[];

/* An option as one command takes it (a command's table of these, NULL-terminated by name,
 * is the whole list of what it accepts): what it means for this command, and the
 * command's own default when it differs from the option's. */
typedef struct opt_use {
    const char *name;
    const char *help; /* NULL: the option's own */
    const char *dflt; /* NULL: the option's own; "": none for this command */
    const char *arg;  /* the value's name in help (--rows=N); NULL: from the type */
} opt_use;

typedef struct opt_kv {
    char *name, *value;
    int used;
} opt_kv;

typedef struct bb_cli {
    const char *cmd;
    const opt_use *uses; /* the options cmd takes; any other known option is refused */
    /* The definitions of the options only cmd takes, NULL-terminated (NULL: none): they live
     * beside the command, not in opts_common. */
    const opt_def *const *own;
    /* The commands that do take an option, for the message that refuses it (the command
     * table's; NULL: none named). */
    void (*takers)(const char *option, char *out, size_t n);
    /* Another command's own option by name (the command table's; NULL: none known), so it
     * is refused as that command's rather than as unknown. */
    const opt_def *(*lookup)(const char *name);
    char **pos; /* positional arguments after the command */
    int npos;
    char **argv; /* every argument after the command word, as given (the results' command line) */
    int argc;
    opt_kv *kv;
    int nkv;
    /* defaults a script set with bb.defaults{}, consulted after the command line */
    opt_kv *sdef;
    int nsdef;
} bb_cli;

/* Splits argv (after the command word) into positionals and --name=value pairs. */
int opts_parse(int argc, char **argv, bb_cli *cli, bb_err *err);
void opts_free(bb_cli *cli);

const opt_def *opts_find_common(const char *name);
/* An option's definition: the command's own, else a common one, else another command's own
 * (cli->lookup); NULL for none (a script's option, or a mistake). cli NULL: the common ones. */
const opt_def *opts_find(const bb_cli *cli, const char *name);
/* The definition in own (NULL-terminated, may be NULL), else the common one. */
const opt_def *opts_def(const opt_def *const *own, const char *name);
/* How the command takes an option, or NULL when it does not. */
const opt_use *opts_use(const bb_cli *cli, const char *name);
/* What an option (u, defined by d) means for the command, and its value's name in help
 * ("N", "FILE"; "" for a switch). */
/* The help text of an option as written; {dialects}, {dsns} and {file-dsns} in it are spelled
 * out from the registry where help is printed (runtime/cmd/command.c). */
const char *opts_help(const opt_use *u, const opt_def *d);
const char *opts_arg(const opt_use *u, const opt_def *d);
/* The default an option has for the command (its own, unless the command sets one). */
const char *opts_default(const opt_use *u, const opt_def *d);
/* Checks that every common option given belongs to the command, and its type (each
 * element of a comma list); a count's units are written out in place (--rows=10k reads
 * as 10000 wherever the value is read). */
int opts_check_common(const bb_cli *cli, bb_err *err);
/* Value of an option: the command line, else a script default, else the built-in one. */
const char *opts_get(bb_cli *cli, const char *name);
/* The value given on the command line only (no script or built-in default), or NULL. */
const char *opts_given(bb_cli *cli, const char *name);
/* Every value given for a repeatable option (--set, --target), in order. */
int opts_all(bb_cli *cli, const char *name, const char **out, int max);
void opts_set_default(bb_cli *cli, const char *name, const char *value);
/* Validates one value against a type; msg names the option. */
int opts_check_value(const char *name, opt_type t, const char *v, int min, bb_err *err);

/* Fails with "unknown option --x; did you mean --y?" for any option nobody used.
 * extra: script-declared names, NULL-terminated. */
int opts_check_unused(const bb_cli *cli, const char *const *extra, bb_err *err);

/* Whether a boolean option's value says on (on, true, 1, yes); NULL is off. */
int opts_is_on(const char *v);

/* Where an engine's database is: --dsn, else BULKBENCH_<ENGINE>_DSN, else NULL (the
 * engine's own default). A --dsn whose password is *** (as printed) takes the password of
 * BULKBENCH_<ENGINE>_DSN when that names the same user@host:port, so printed commands run. */
const char *opts_dsn(bb_cli *cli, const bb_driver *d);
/* The engine a --engine value names, or NULL with the one usage error every command gives:
 * "unknown engine 'pgg'; did you mean 'pg'? (engines: ...)", every engine of the registry. */
const bb_driver *opts_engine(const char *name, bb_err *err);

/* Parses "90s", "5m", "1.5h", "250ms" or plain seconds; -1 when malformed. */
double opts_parse_duration(const char *s);

/* Parses a count: "1000", "10k", "2.5M", "1G" (k, M, G: thousand, million, billion, either
 * case) into a whole number; -1 when malformed or not whole. */
int64_t opts_parse_count(const char *s);
/* A count option's value with its units written out ("10k,1M" -> "10000,1000000"), fresh;
 * NULL when it has none to write out (or is no count). */
char *opts_count_digits(const char *v);

/* Parses "4MB", "64k", "1048576" into bytes; -1 when malformed. */
int64_t opts_parse_size(const char *s);

/* "now" for the generators: --now, else the clock. */
int opts_now(bb_cli *cli, int64_t *out, bb_err *err);

/* The closest of candidates to word by edit distance, or NULL if none is close. */
const char *opts_nearest(const char *word, const char *const *candidates, int n);

/* Splits a comma list into a NULL-terminated array of fresh strings. */
char **opts_split(const char *list, int *n);
void opts_split_free(char **v);

#endif
