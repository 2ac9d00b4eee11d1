/* registry.c — the engines compiled into this binary. Adding one is one line here. */
#include <string.h>

#include "driver.h"

extern const bb_driver bb_driver_sqlite, bb_driver_pg, bb_driver_mysql, bb_driver_null;

const bb_driver *const bb_drivers[] = { &bb_driver_sqlite, &bb_driver_pg, &bb_driver_mysql, &bb_driver_null, NULL };

const bb_driver *bb_driver_find(const char *name)
{
    for (int i = 0; bb_drivers[i]; i++)
        if (strcmp(bb_drivers[i]->name, name) == 0) return bb_drivers[i];
    return NULL;
}
