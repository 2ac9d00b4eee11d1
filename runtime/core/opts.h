/* opts.h — command-line options: the common ones every command knows, and the ones a
 * script declares. Values stay strings until the consumer types them; validation happens
 * here so a bad value is a usage error (exit 2) that names the option. */
#ifndef BB_OPTS_H
#define BB_OPTS_H

#include "../../base/err.h"
#include "../../drivers/driver.h"

typedef enum { OT_INT, OT_NUM, OT_STR, OT_BOOL, OT_SIZE } opt_type;

/* The commands an option belongs to; any other command refuses it (exit 2). */
enum { OC_RUN = 1, OC_GEN = 2, OC_LOAD = 4, OC_REPORT = 8, OC_ADVISE = 16 };

typedef struct opt_def {
    const char *name;
    unsigned cmds; /* OC_* */
    opt_type type;
    const char *dflt; /* NULL: unset unless the script sets a default */
    int list;         /* accepts a comma list: a sweep dimension */
    int min;          /* for OT_INT/OT_NUM: smallest allowed value */
    const char *help;
} opt_def;

extern const opt_def opts_common[];

typedef struct opt_kv {
    char *name, *value;
    int used;
} opt_kv;

typedef struct bb_cli {
    const char *cmd;
    unsigned cmdbit; /* OC_* of cmd, 0 for commands without options */
    char **pos;      /* positional arguments after the command */
    int npos;
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
/* The OC_* bit of a command's name, 0 when it takes no options. */
unsigned opts_command_bit(const char *cmd);
/* Checks that every common option given belongs to the command, and its type (each
 * element of a comma list). */
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
 * engine's own default). */
const char *opts_dsn(bb_cli *cli, const bb_driver *d);

/* Parses "90s", "5m", "1.5h", "250ms" or plain seconds; -1 when malformed. */
double opts_parse_duration(const char *s);

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
