/* fuzz_opts.c — the command-line parser and option checks (runtime/core/opts.c) on arbitrary
 * argument vectors: the input split at NUL bytes. Nothing may crash or leak; a parsed
 * vector keeps every argument as a positional or a named value. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/opts.h"
#include "../../base/err.h"
#include "../../base/calendar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[64];
    int argc = 0;
    for (char *p = buf; argc < 64 && p <= buf + size; p += strlen(p) + 1) argv[argc++] = p;
    static opt_use every[128]; /* a command that takes every option, so each value's check runs */
    for (int i = 0; !every[0].name && opts_common[i].name && i < 127; i++) every[i].name = opts_common[i].name;
    bb_cli cli;
    memset(&cli, 0, sizeof cli);
    cli.uses = every;
    bb_err err;
    if (opts_parse(argc, argv, &cli, &err) == 0) {
        assert(cli.npos + cli.nkv <= argc);
        for (int i = 0; i < cli.nkv; i++) assert(cli.kv[i].name && cli.kv[i].value);
        opts_check_common(&cli, &err);
        for (const opt_def *d = opts_common; d->name; d++) opts_get(&cli, d->name);
        const char *extra[] = { "scale", NULL };
        opts_check_unused(&cli, extra, &err);
        const char *vals[16];
        opts_all(&cli, "set", vals, 16);
    }
    const char *names[] = { "threads", "batch", "method", "engine", "rows" };
    for (int i = 0; i < argc; i++) {
        opts_nearest(argv[i], names, 5);
        opts_parse_size(argv[i]);
        int64_t t;
        bb_parse_time(argv[i], &t);
    }
    opts_free(&cli);
    free(buf);
    return 0;
}
