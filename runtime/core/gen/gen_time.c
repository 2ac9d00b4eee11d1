/* gen_time.c — the kinds that make instants: timestamp and date. Each has an argument
 * parser and a filler (gen_priv.h). */
#include "gen_priv.h"
#include "../../../base/buf.h"
#include "../../../base/calendar.h"

#include <math.h>
#include <string.h>

/* An instant argument: 'YYYY-MM-DD[ HH:MM:SS]' or epoch seconds. */
static int gen_time_arg(const gen_args *a, const char *key, int pos, int64_t *out)
{
    size_t len;
    const char *s = gen_str(a, key, pos, &len);
    if (s && bb_parse_time(s, out) == 0) return 0;
    if (!s && gen_has(a, key, pos)) {
        *out = (int64_t)gen_num(a, key, pos, 0);
        return 0;
    }
    return bb_usagef(a->err, "timestamp '%s' is not 'YYYY-MM-DD[ HH:MM:SS]' or epoch seconds", s ? s : key);
}

static int64_t gen_floor_div(int64_t a, int64_t b) { return a / b - (a % b < 0); }

/* ---- timestamp: {from, to} (or {FROM, TO}), {start, step, jitter}, {at} (or {AT}) or now ---- */

/* Writes instant sec (+ usec) as the value: the microseconds binary formats take, and
 * its text unless only the native form is wanted (text = 0). */
static inline char *gen_ts_put(const gen_col *c, bb_value *v, char *p, int64_t sec, int64_t usec, int text)
{
    v->kind = BB_V_TEXT;
    v->u.s = text ? p : NULL;
    v->len = text ? (uint32_t)fmt_timestamp(p, sec, usec, c->scale) : 0;
    v->native = BB_N_MICROS;
    v->aux = sec * 1000000 + (c->scale ? usec : 0);
    return p + v->len;
}

/* {from, to}: uniform seconds, and microseconds when asked */
static inline char *gen_ts_uniform(const gen_col *c, uint64_t n, bb_value *v, char *p, int text)
{
    int64_t sec = gen_pick(c, gen_rnd(c, n, 0)), usec = 0;
    if (c->scale) usec = (int64_t)dist_below(gen_rnd(c, n, 1), 1000000);
    return gen_ts_put(c, v, p, sec, usec, text);
}
char *gen_ts_fill(const gen_col *c, uint64_t n, bb_value *v, char *p) { return gen_ts_uniform(c, n, v, p, 1); }
static char *gen_ts_native(const gen_col *c, uint64_t n, bb_value *v, char *p) { return gen_ts_uniform(c, n, v, p, 0); }

/* {start, step, jitter}: start + n*step seconds, plus up to jitter seconds */
static inline char *gen_ts_stepped(const gen_col *c, uint64_t n, bb_value *v, char *p, int text)
{
    double at = (double)n * c->da + dist_unit(gen_rnd(c, n, 0)) * c->db;
    return gen_ts_put(c, v, p, c->a + (int64_t)floor(at), (int64_t)((at - floor(at)) * 1e6), text);
}
static char *gen_ts_step_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    return gen_ts_stepped(c, n, v, p, 1);
}
static char *gen_ts_step_native(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    return gen_ts_stepped(c, n, v, p, 0);
}

/* {at} or now: the instant never changes, so gen_ts_parse formats it once */
static char *gen_ts_fixed_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    (void)n;
    v->kind = BB_V_TEXT;
    v->u.s = c->text;
    v->len = c->text_len;
    v->native = BB_N_MICROS;
    v->aux = c->a * 1000000;
    return p;
}

/* The filler of the form the arguments take, its instants read into c; NULL after a
 * usage error. */
static gen_fill_fn *gen_ts_form(gen_col *c, const gen_args *a)
{
    size_t len;
    const char *s;
    if (gen_has(a, "from", 0) || gen_has(a, "to", 2)) { /* by name, or two instants as date takes them */
        if (gen_time_arg(a, "from", 1, &c->a) || gen_time_arg(a, "to", 2, &c->b)) return NULL;
        if (c->b < c->a) {
            bb_usagef(a->err, "column %s: timestamp to < from", a->col);
            return NULL;
        }
        return gen_ts_fill;
    }
    if (gen_has(a, "start", 0)) {
        if (gen_time_arg(a, "start", 0, &c->a)) return NULL;
        c->da = gen_num(a, "step", 0, 1);
        c->db = gen_num(a, "jitter", 0, 0);
        return gen_ts_step_fill;
    }
    if ((s = gen_str(a, "at", 1, &len)) && strcmp(s, "now") == 0) c->a = a->now_s;
    else if (gen_has(a, "at", 1)) {
        if (gen_time_arg(a, "at", 1, &c->a)) return NULL;
    } else c->a = a->now_s;
    return gen_ts_fixed_fill;
}

int gen_ts_parse(gen_col *c, const gen_args *a)
{
    c->scale = gen_has(a, "micros", 0) && gen_num(a, "micros", 0, 0) ? 6 : 0;
    c->max_len = 27;
    c->fill = gen_ts_form(c, a);
    if (!c->fill) return -1;
    c->fill_native = c->fill == gen_ts_fill ? gen_ts_native : c->fill == gen_ts_step_fill ? gen_ts_step_native : NULL;
    c->native = BB_N_MICROS;
    if (c->fill == gen_ts_fixed_fill) {
        c->fixed = 1;
        c->text = bb_xmalloc(32 + GEN_PAD);
        c->text_len = (uint32_t)fmt_timestamp(c->text, c->a, 0, c->scale);
    }
    return 0;
}

/* ---- date: a uniform day of [from, to], by default the year up to now ---- */

/* only the day number, for writers that take it alone; no text */
static char *gen_date_native(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_TEXT;
    v->u.s = NULL;
    v->len = 0;
    v->aux = gen_pick(c, gen_rnd(c, n, 0));
    v->native = BB_N_DAYS;
    return p;
}

int gen_date_parse(gen_col *c, const gen_args *a)
{
    c->max_len = 10;
    c->a = a->now_s - 365 * 86400;
    c->b = a->now_s;
    if (gen_has(a, "from", 1) && gen_time_arg(a, "from", 1, &c->a)) return -1;
    if (gen_has(a, "to", 2) && gen_time_arg(a, "to", 2, &c->b)) return -1;
    c->a = gen_floor_div(c->a, 86400);
    c->b = gen_floor_div(c->b, 86400); /* an instant before 1970 is on the day before */
    if (c->b < c->a) return bb_usagef(a->err, "column %s: date to < from", a->col);
    c->fill_native = gen_date_native;
    c->native = BB_N_DAYS;
    return 0;
}

char *gen_date_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_TEXT;
    v->u.s = p;
    v->aux = gen_pick(c, gen_rnd(c, n, 0));
    v->native = BB_N_DAYS;
    v->len = (uint32_t)fmt_date(p, v->aux);
    return p + v->len;
}
