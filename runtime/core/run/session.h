/* session.h — a run's sessions: opened with its session settings (--set) applied, the
 * same way for workers, admin sessions and sessions renewed after a loss. */
#ifndef BB_SESSION_H
#define BB_SESSION_H

#include "../../../base/err.h"
#include "../../../drivers/driver.h"
#include "plan.h"

/* Applies the plan's session settings (not the server-wide ones) to c. */
int session_settings(const bb_plan *p, bb_conn *c, bb_err *err);
/* Connects to t and applies the plan's session settings; *out is NULL on failure. */
int session_open(const bb_plan *p, bb_target *t, bb_conn **out, bb_err *err);

#endif
