/* gencmd.h — `bulkbench gen`: a script's table written as a data file. */
#ifndef BB_GENCMD_H
#define BB_GENCMD_H

#include "../core/opts.h"

int gencmd_main(bb_cli *cli);

#endif
