/* luacmd.c — `bulkbench lua FILE.lua [args]`: Lua with the bulkbench library, for tools and tests. */
#include "../../base/err.h"
#include "../host/lib.h"
#include "command.h"
#include "output.h"

static int lua_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    if (cli->npos < 1) {
        bb_usagef(&err, "lua needs a file");
        return output_fail(&err);
    }
    return lib_run_file(cli->npos, cli->pos, &err) < 0 ? output_fail(&err) : 0;
}

const bb_command lua_command = {
    "lua",
    "FILE.lua [args]",
    "run Lua with the bulkbench library (tools, tests); its arguments are its own",
    "bulkbench lua tests/specs.lua -o TAP tests/spec/summary_spec.lua",
    NULL,
    NULL,
    lua_main,
    CMD_RAW,
};
