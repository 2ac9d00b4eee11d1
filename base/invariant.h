/* invariant.h — assert() for the invariants the headers state (driver.h's contracts, load.h's,
 * the core wings'), on in every build: a release build checks them too, and a broken one stops
 * the run where it broke rather than three calls later (tests/unit/test_invariants.c breaks the
 * important ones and expects the abort). Include this, not <assert.h>. */
#ifndef BB_INVARIANT_H
#define BB_INVARIANT_H

#ifdef NDEBUG
#error "bulkbench keeps assert() on in every build: do not define NDEBUG"
#endif
#include <assert.h>

#endif
