/* runner.h — one run from start to result: target, prepare(), workers, check(), cleanup(). */
#ifndef BB_RUNNER_H
#define BB_RUNNER_H

#include "host.h"
#include "../core/run/result.h"
#include "../../base/err.h"

/* Runs plan with the set-up state L (the script already loaded in it). Fills res even when
 * the run fails (res->error says why); returns the exit code this run asks for. */
int runner_run(lua_State *L, bb_plan *plan, bb_result *res, bb_err *err);

#endif
