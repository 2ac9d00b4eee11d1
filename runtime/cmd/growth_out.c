/* growth_out.c — a result's growth as JSON (docs/scale.md): the samples of its table as it
 * grew, null where the engine cannot tell; and a forecast's model (forecast, advise for N). */
#include <jansson.h>
#include <math.h>

#include "output.h"
#include "../core/run/scale_model.h"

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

static json_t *num(double v) { return v < 0 || !isfinite(v) ? json_null() : json_real(v); }

json_t *forecast_model_json(const scale_fit *f)
{
    json_t *m = json_object();
    json_object_set_new(m, "state", json_string(scale_state_name(f->state)));
    json_object_set_new(m, "row_s", num(f->row_s));
    json_object_set_new(m, "read_s", f->by_reads ? num(f->read_s) : json_null());
    json_object_set_new(m, "read_s_measured", json_boolean(f->read_measured));
    json_object_set_new(m, "by_reads", json_boolean(f->by_reads));
    json_object_set_new(m, "reads_per_row_max", f->by_reads ? num(f->k) : json_null());
    json_object_set_new(m, "extra_row_s_max", f->by_reads ? json_null() : num(f->k * f->read_s));
    json_object_set_new(m, "exponent", num(f->p));
    json_object_set_new(m, "knee_rows", num(f->knee_rows));
    json_object_set_new(m, "memory_bytes", num(f->memory_bytes > 0 ? f->memory_bytes : -1));
    json_object_set_new(m, "index_bytes_per_row", num(f->index_bytes_per_row));
    json_object_set_new(m, "heap_bytes_per_row", num(f->heap_bytes_per_row));
    json_object_set_new(m, "rows_per_s_now", num(f->rows_per_s_now));
    json_object_set_new(m, "rows_per_s_at_rows", num(f->rows_per_s_end));
    json_object_set_new(m, "reads_per_row_now", num(f->reads_per_row_now));
    json_object_set_new(m, "reads_per_row_at_rows", num(f->reads_per_row_end));
    return m;
}

