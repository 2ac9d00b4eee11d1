/* driver_describe.c — an engine's descriptor as JSON: what `bulkbench list --engines
 * --format=json` prints for scripts and tests, and what the Lua library reads through
 * core.engine(NAME). One writer, so both see the same fields. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "driver.h"

static void put_str(json_t *o, const char *key, const char *v) { json_object_set_new(o, key, v ? json_string(v) : json_null()); }

static json_t *dialect_json(const bb_dialect *d)
{
    json_t *o = json_object();
    put_str(o, "name", d->name);
    put_str(o, "lua", d->lua);
    return o;
}

json_t *bb_driver_json(const bb_driver *d)
{
    json_t *o = json_object();
    put_str(o, "name", d->name);
    put_str(o, "summary", d->summary);
    put_str(o, "default_method", d->default_method);
    put_str(o, "dsn_help", d->dsn_help);
    /* the servers as a list: what a test needs started (contrib/dbctl start NAME) */
    json_t *servers = json_array();
    for (const char *p = d->servers; p && *p;) {
        size_t n = strcspn(p, " ");
        if (n) json_array_append_new(servers, json_stringn(p, n));
        p += n + (p[n] == ' ');
    }
    json_object_set_new(o, "servers", servers);
    char var[96];
    put_str(o, "dsn_env", bb_driver_dsn_env(d, var, sizeof var));
    put_str(o, "test_dsn", d->test_dsn);
    put_str(o, "test_targets", d->test_targets);
    put_str(o, "client", d->client);
    put_str(o, "test_setup", d->test_setup);
    put_str(o, "catalog_lua", d->catalog_lua);
    put_str(o, "strategies_lua", d->strategies_lua);
    put_str(o, "file_dialect", d->file_dialect ? d->file_dialect : d->dialect->name);
    json_object_set_new(o, "many_servers", json_boolean(d->many_servers));
    json_object_set_new(o, "dialect", dialect_json(d->dialect));
    json_t *more = json_array();
    for (const bb_dialect *const *x = d->dialects; x && *x; x++) json_array_append_new(more, dialect_json(*x));
    json_object_set_new(o, "dialects", more);
    return o;
}
