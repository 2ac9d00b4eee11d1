/* gen_time.c — the kinds that make instants: timestamp and date. Each has an argument
 * parser and a filler (gen_priv.h). */
#include "gen_priv.h"
#include "../../base/buf.h"
#include "../../base/calendar.h"

#include <math.h>
#include <string.h>

enum { GEN_TS_NOW, GEN_TS_FIXED, GEN_TS_RANGE, GEN_TS_INCREASING };

/* An instant argument: 'YYYY-MM-DD[ HH:MM:SS]' or epoch seconds. */
static int gen_time_arg(const gen_args *a, const char *key, int pos, int64_t *out)
{
    size_t len;
    const char *s = gen_str(a, key, pos, &len);
    if (s && bb_parse_time(s, out) == 0) return 0;
    if (!s && gen_has(a, key, pos)) { *out = (int64_t)gen_num(a, key, pos, 0); return 0; }
    return bb_usagef(a->err, "timestamp '%s' is not 'YYYY-MM-DD[ HH:MM:SS]' or epoch seconds", s ? s : key);
}

static int64_t gen_floor_div(int64_t a, int64_t b) { return a / b - (a % b < 0); }

/* ---- timestamp: {from, to}, {start, step, jitter}, {at} or now ---- */

/* Which of the four forms the arguments ask for, with its instants read into c. */
static int gen_ts_mode(gen_col *c, const gen_args *a)
{
    size_t len;
    const char *s;
    if (gen_has(a, "from", 0)) {
        if (gen_time_arg(a, "from", 0, &c->a) || gen_time_arg(a, "to", 0, &c->b)) return -1;
        if (c->b < c->a) return bb_usagef(a->err, "column %s: timestamp to < from", a->col);
        return GEN_TS_RANGE;
    }
    if (gen_has(a, "start", 0)) { /* start + n*step seconds, plus up to jitter seconds */
        if (gen_time_arg(a, "start", 0, &c->a)) return -1;
        c->da = gen_num(a, "step", 0, 1);
        c->db = gen_num(a, "jitter", 0, 0);
        return GEN_TS_INCREASING;
    }
    if ((s = gen_str(a, "at", 1, &len)) && strcmp(s, "now") == 0) {
        c->a = a->now_s;
        return GEN_TS_NOW;
    }
    if (gen_has(a, "at", 1)) return gen_time_arg(a, "at", 1, &c->a) ? -1 : GEN_TS_FIXED;
    c->a = a->now_s;
    return GEN_TS_NOW;
}

int gen_ts_parse(gen_col *c, const gen_args *a)
{
    c->scale = gen_has(a, "micros", 0) && gen_num(a, "micros", 0, 0) ? 6 : 0;
    c->max_len = 27;
    c->mode = gen_ts_mode(c, a);
    if (c->mode < 0) return -1;
    if (c->mode == GEN_TS_NOW || c->mode == GEN_TS_FIXED) { /* never changes: formatted once */
        c->text = bb_xmalloc(32 + GEN_PAD);
        c->text_len = (uint32_t)fmt_timestamp(c->text, c->a, 0, c->scale);
    }
    return 0;
}

char *gen_ts_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    if (c->text) { /* now, at */
        v->kind = BB_V_TEXT; v->u.s = c->text; v->len = c->text_len;
        v->native = BB_N_MICROS; v->aux = c->a * 1000000;
        return p;
    }
    uint64_t r0 = gen_rnd(c, n, 0);
    int64_t sec = c->a, usec = 0;
    if (c->mode == GEN_TS_RANGE) {
        sec = gen_pick(c, r0);
        if (c->scale) usec = (int64_t)dist_below(gen_rnd(c, n, 1), 1000000);
    } else { /* increasing */
        double at = (double)n * c->da + dist_unit(r0) * c->db;
        sec = c->a + (int64_t)floor(at);
        usec = (int64_t)((at - floor(at)) * 1e6);
    }
    v->kind = BB_V_TEXT; v->u.s = p; v->len = (uint32_t)fmt_timestamp(p, sec, usec, c->scale);
    v->native = BB_N_MICROS; v->aux = sec * 1000000 + (c->scale ? usec : 0);
    return p + v->len;
}

/* ---- date: a uniform day of [from, to], by default the year up to now ---- */

int gen_date_parse(gen_col *c, const gen_args *a)
{
    c->max_len = 10;
    c->a = a->now_s - 365 * 86400;
    c->b = a->now_s;
    if (gen_has(a, "from", 1) && gen_time_arg(a, "from", 1, &c->a)) return -1;
    if (gen_has(a, "to", 2) && gen_time_arg(a, "to", 2, &c->b)) return -1;
    c->a = gen_floor_div(c->a, 86400); c->b = gen_floor_div(c->b, 86400); /* an instant before 1970 is on the day before */
    if (c->b < c->a) return bb_usagef(a->err, "column %s: date to < from", a->col);
    return 0;
}

char *gen_date_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    v->kind = BB_V_TEXT; v->u.s = p;
    v->aux = gen_pick(c, gen_rnd(c, n, 0));
    v->native = BB_N_DAYS;
    v->len = (uint32_t)fmt_date(p, v->aux);
    return p + v->len;
}
