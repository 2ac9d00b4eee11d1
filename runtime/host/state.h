/* state.h — Lua states: one per worker plus one for set-up (state.c). */
#ifndef BB_STATE_H
#define BB_STATE_H

#include "../../base/err.h"
#include "host.h"

/* A state for script (whose directory goes on package.path; NULL = none) with ctx in its
 * registry; NULL with err when it cannot be made or the library fails to load. */
lua_State *state_new(host_ctx *ctx, const char *script, bb_err *err);
/* Closes the state and frees what its set-up context recorded (declared options, the
 * options as they took effect); the context itself only when the state owns it. */
void state_close(lua_State *L);

#endif
