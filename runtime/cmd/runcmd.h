/* runcmd.h — `bulkbench run`. */
#ifndef BB_RUNCMD_H
#define BB_RUNCMD_H

#include "../core/opts.h"

/* Runs the script of cli->pos[0] over every combination of the sweep; the exit code. */
int runcmd_main(bb_cli *cli);

#endif
