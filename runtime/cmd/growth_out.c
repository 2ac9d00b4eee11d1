/* growth_out.c — a result's growth as JSON (docs/scale.md): the samples of its table as it
 * grew, null where the engine cannot tell. */
#include <jansson.h>
#include <math.h>

#include "output.h"

static json_t *bytes_or_null(int64_t v) { return v < 0 ? json_null() : json_integer(v); }

json_t *growth_json(const bb_growth *g)
{
    if (!g->n) return json_null();
    json_t *a = json_array();
    for (int i = 0; i < g->n; i++) {
        const bb_growth_point *p = &g->v[i];
        json_t *o = json_object();
        json_object_set_new(o, "t", json_real(round(p->t * 1000) / 1000));
        json_object_set_new(o, "table_rows", json_integer(p->table_rows));
        json_object_set_new(o, "rows_per_s", json_real(round(p->rows_per_s * 10) / 10));
        json_object_set_new(o, "heap_bytes", bytes_or_null(p->heap_bytes));
        json_object_set_new(o, "index_bytes", bytes_or_null(p->index_bytes));
        json_object_set_new(o, "reads", bytes_or_null(p->reads));
        json_object_set_new(o, "reads_per_row",
                            p->reads_per_row < 0 ? json_null() : json_real(round(p->reads_per_row * 1e4) / 1e4));
        json_array_append_new(a, o);
    }
    return a;
}

void growth_server_json(json_t *srv, const bb_result *r)
{
    json_object_set_new(srv, "memory_limit_bytes", bytes_or_null(r->memory_limit));
    json_object_set_new(srv, "cache_bytes", r->growth.n ? bytes_or_null(r->growth.cache_bytes) : json_null());
    if (r->growth.n) json_object_set_new(srv, "cache_direct", json_boolean(r->growth.cache_direct));
}
