/* api_args.h — a generator's arguments read from its Lua table (bb.int{1, 100}, bb.string{min
 * = 8}) for gen_add, noting what the kind's parser asked for, so that an argument it never
 * asked for (a typo, a positional one too many) is an error naming the nearest it knows. */
#ifndef BB_API_ARGS_H
#define BB_API_ARGS_H

#include <lua.h>

#include "../core/gen/gen.h"
#include "../../base/err.h"

typedef struct api_args {
    lua_State *L;
    int idx;               /* the generator's table on L's stack */
    const char *asked[24]; /* the names the parser asked for (its own literals) */
    int nasked;
    int max_pos; /* the last position it asked for; INT_MAX when it took the whole list */
    struct vset *(*sets)(lua_State *L, const char *name); /* the run's value set of that name */
} api_args;

/* A reader of the table at idx into r, noting into a what it is asked; sets finds a value set
 * by name (api_sets_lookup), for the kinds that read one. */
void api_args_reader(api_args *a, lua_State *L, int idx, struct vset *(*sets)(lua_State *, const char *),
                     gen_reader *r);
/* After gen_add for column col of kind: -1 with err set when the table holds a name the
 * parser never asked for (when the parse failed, only one near a name it did ask for: the
 * likelier cause) or a position past the last it asked for (only after a good parse). */
int api_args_check(const api_args *a, const char *col, const char *kind, int failed, bb_err *err);

#endif
