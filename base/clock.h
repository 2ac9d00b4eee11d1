/* clock.h — the monotonic clock every measurement reads. */
#ifndef BB_CLOCK_H
#define BB_CLOCK_H

#include <stdint.h>

uint64_t bb_now_ns(void); /* CLOCK_MONOTONIC */
void bb_sleep_until_ns(uint64_t t);

#endif
