/* helpcmd.c — `bulkbench help [COMMAND | SCRIPT.lua]`: the commands, one command's usage,
 * or a script's own options with their defaults. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../base/err.h"
#include "../host/host.h"
#include "../host/lib.h"
#include "../host/state.h"
#include "command.h"
#include "output.h"

static int help_main(bb_cli *cli)
{
    bb_err err = { .code = BB_EXIT_USAGE };
    const bb_command *c = cli->npos == 1 ? command_find(cli->pos[0]) : NULL;
    if (cli->npos < 1 || c) {
        command_usage(stdout, c);
        return 0;
    }
    host_ctx hc = { .cli = cli, .setup = 1, .seed = 1, .now_s = (int64_t)time(NULL) };
    lua_State *L = state_new(&hc, cli->pos[0], &err);
    char *text = L && host_run_script(L, cli->pos[0], &err) == 0 ? lib_help(L, &err) : NULL;
    state_close(L);
    if (!text) return output_fail(&err);
    fputs(text, stdout);
    free(text);
    return 0;
}

const bb_command help_command = {
    "help",
    "[COMMAND | SCRIPT.lua]",
    "the commands; a command's options; or a script's own options with their defaults",
    "bulkbench help workloads/quickstart.lua",
    NULL,
    help_main,
    0,
};
