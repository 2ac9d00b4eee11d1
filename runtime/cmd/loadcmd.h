/* loadcmd.h — `bulkbench load`. */
#ifndef BB_LOADCMD_H
#define BB_LOADCMD_H

#include "../core/opts.h"

/* Loads the files of cli->pos into --table; the exit code. */
int loadcmd_main(bb_cli *cli);

#endif
