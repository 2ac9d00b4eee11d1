/* newcmd.h — `bulkbench new`: a scenario written from a live table or from a CSV/TSV file. */
#ifndef BB_NEWCMD_H
#define BB_NEWCMD_H

#include "../core/opts.h"

int newcmd_main(bb_cli *cli);

#endif
