/* api.h — the native module "bulkbench.core": everything Lua may call. The table of
 * functions in api.c is the single declaration both sides see; the Lua library builds on
 * it and never redeclares C types. */
#ifndef BB_API_H
#define BB_API_H

#include <lua.h>

#include "../../drivers/driver.h"
#include "../core/gen/gen.h"

int api_open(lua_State *L);

/* Pushes a db object for conn (not owned: the caller disconnects, after
 * api_db_rebind(db, NULL) so a script that kept the object gets an error instead of a
 * dangling connection; a replaced session is rebound to the new conn). */
void *api_push_db(lua_State *L, const bb_driver *drv, bb_conn *conn, bb_target *target);
void api_db_rebind(void *handle, bb_conn *conn);
/* db:load_file{...} on the server of target: table argument at index 2 (api_load.c). */
int api_load_file(lua_State *L, const bb_driver *drv, bb_target *target);
/* Registers the db and statement metatables (api_db.c). */
void api_db_open(lua_State *L);
/* core.connect(engine, dsn): a connection the script owns. */
int api_db_connect(lua_State *L);
/* A dialect object for scripts (api_dialect.c); core.dialect(name); its metatable. */
void api_push_dialect(lua_State *L, const bb_dialect *d);
int api_dialect_find(lua_State *L);
void api_dialect_open(lua_State *L);
/* core.summary(values [, seed]): median, spread, bootstrap interval, outliers (api_summary.c). */
int api_summary(lua_State *L);
/* core.json_decode(text) -> Lua value (api_json.c); JSON null becomes nil. */
int api_json_decode(lua_State *L);
/* Pushes v as a Lua value (objects and arrays as tables, null as nil). */
struct json_t;
void api_push_json(lua_State *L, struct json_t *v);
/* core.spawn(args [, env]): this binary run again as a child; its exit code (api_spawn.c). */
int api_spawn(lua_State *L);
/* Value sets (api_sets.c): db:read_set on conn (arguments from index 2); the state's set
 * called name (a new reference, NULL when none); the core functions on the table on top. */
int api_sets_read(lua_State *L, const bb_driver *drv, bb_conn *conn);
struct vset *api_sets_lookup(lua_State *L, const char *name);
void api_sets_register(lua_State *L);
/* core.phase on the table on top (api_phase.c). */
void api_phase_register(lua_State *L);
/* Adds column col of t whose values the function at index fn makes, called per row in L
 * (api_fn.c); its null ratio as a generator's. */
int api_fn_column(lua_State *L, gen_table *t, int fn, const char *col, bb_sqltype type, double null_ratio,
                  bb_err *err);
/* The compiled generator behind a value on the stack (a table object or its native), or NULL. */
gen_table *api_to_gen(lua_State *L, int idx);

#endif
