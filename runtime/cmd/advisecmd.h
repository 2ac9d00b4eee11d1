/* advisecmd.h — `bulkbench advise`. */
#ifndef BB_ADVISECMD_H
#define BB_ADVISECMD_H

#include "../core/opts.h"

/* Races load configurations of the script or file cli->pos[0] within --budget and prints
 * the recommendation; the exit code (130 after Ctrl-C, with the standings so far). */
int advisecmd_main(bb_cli *cli);

#endif
