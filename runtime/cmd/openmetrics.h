/* openmetrics.h — results as OpenMetrics text (--format=openmetrics): one family per
 * figure, one sample per result labelled with what ran, "# EOF" last. */
#ifndef BB_OPENMETRICS_H
#define BB_OPENMETRICS_H

#include <stdio.h>

#include "../core/run/result.h"

/* Prints every result's figures; a figure that was not measured has no sample (never NaN). */
void openmetrics_print(FILE *f, const bb_result *rs, int n);

#endif
