/* output.h — the printed forms of a result: JSON, a text table, CSV. */
#ifndef BB_OUTPUT_H
#define BB_OUTPUT_H

#include <stdio.h>

#include "../core/opts.h"
#include "../core/run/result.h"
#include "../core/run/sysmon.h"
#include "../../base/err.h"

/* Records the command line (`bulkbench CMD ARGS...`, shell-quoted, passwords in DSNs
 * masked) that every result from now on carries as "command". */
void output_set_command(const bb_cli *cli);

/* One compact JSON object, no newline; caller frees. */
char *result_json(const bb_result *r, const sysmon_host *h);
/* The same as a jansson object (the caller owns the reference). */
struct json_t;
struct json_t *result_object(const bb_result *r, const sysmon_host *h);
/* growth_out.c: a result's growth samples (null when there are none), and what the server's
 * memory is for the page's mark (memory_limit_bytes, cache_bytes) into its "server" object. */
struct json_t *growth_json(const bb_growth *g);
void growth_server_json(struct json_t *srv, const bb_result *r);
/* A forecast's model (core/run/scale_model.h) as JSON: its state and figures. */
struct scale_fit;
struct json_t *forecast_model_json(const struct scale_fit *f);
int result_append_jsonl(const char *path, const bb_result *r, const sysmon_host *h);
/* Whether the results file at path holds the text of the script of this sha256 already. */
int result_file_has_text(const char *path, const char *sha256);
/* The table, with the warnings of result_print_warnings under it. */
void result_print_table(FILE *f, const bb_result *rs, int n);
/* --repeat: the points whose runs spread by more than 10% (CV) or hold an outlier. */
void result_print_warnings(FILE *f, const bb_result *rs, int n);
void result_print_csv(FILE *f, const bb_result *r, int header);
/* The command whose --help a usage error points to (and whether it takes a script's options). */
void output_usage_hint(const char *cmd, int script);

/* Prints a failure and returns its exit code; every non-zero exit says what to do next. */
int output_fail(const bb_err *e);
/* Its two halves: "bulkbench: MESSAGE", and the line saying what to do about an exit code
 * (points: the failures were points of a sweep); output_hint returns code. */
void output_fail_message(const bb_err *e);
int output_hint(int code, int points);
/* A result's point in a line: "pg txn threads=1 batch=100 target=a strategy=s NAME=VALUE...". */
void result_who(const bb_result *r, char *buf, size_t n);

#endif
