/* pg_types.c — binary encodings of PostgreSQL types (network byte order throughout). */
#include "pg_types.h"
#include "../../base/dtoa.h"
#include "../../base/err.h"
#include "../../base/buf.h"
#include "../../base/digits.h"
#include "../../base/be.h"
#include "../../base/calendar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put16(bb_buf *b, uint16_t v)
{
    bb_buf_reserve(b, 2);
    b->len = (size_t)(bb_be16(b->p + b->len, v) - b->p);
}
static void put32(bb_buf *b, uint32_t v)
{
    bb_buf_reserve(b, 4);
    b->len = (size_t)(bb_be32(b->p + b->len, v) - b->p);
}
static void put64(bb_buf *b, uint64_t v)
{
    bb_buf_reserve(b, 8);
    b->len = (size_t)(bb_be64(b->p + b->len, v) - b->p);
}

Oid pgt_declared(bb_sqltype t)
{
    switch (t) {
    case BB_T_NUMERIC: return PGT_NUMERIC;
    case BB_T_DATE: return PGT_DATE;
    case BB_T_BOOL: return PGT_BOOL;
    case BB_T_UUID: return PGT_UUID;
    case BB_T_BYTES: return PGT_BYTEA;
    /* int2/int4/int8, float4/float8, timestamp/timestamptz: a declared type other than the
     * column's puts a cast in every VALUES row, which costs the server more than parsing
     * text does (int8 into int4 columns: ~25% more server CPU per multirow row) */
    default: return 0;
    }
}

int pgt_verbatim(Oid oid)
{
    return oid == PGT_TEXT || oid == PGT_VARCHAR || oid == PGT_BPCHAR || oid == PGT_BYTEA || oid == PGT_JSON;
}

int pgt_binary(Oid oid)
{
    switch (oid) {
    case PGT_BOOL:
    case PGT_INT2:
    case PGT_INT4:
    case PGT_INT8:
    case PGT_FLOAT4:
    case PGT_FLOAT8:
    case PGT_NUMERIC:
    case PGT_DATE:
    case PGT_TIMESTAMP:
    case PGT_TIMESTAMPTZ:
    case PGT_UUID:
    case PGT_JSONB: return 1;
    default: return pgt_verbatim(oid);
    }
}

void pgt_put_text(bb_buf *out, const bb_value *v)
{
    bb_buf_reserve(out, 32);
    switch (v->kind) {
    case BB_V_INT: out->len += (size_t)bb_fmt_i64(out->p + out->len, v->u.i); break;
    case BB_V_DOUBLE: out->len += (size_t)bb_fmt_double(out->p + out->len, v->u.d); break;
    case BB_V_TEXT: bb_buf_put(out, v->u.s, v->len); break;
    default: break;
    }
}

static int bad(bb_err *err, const bb_value *v, const char *type)
{
    char shown[64];
    bb_buf t = { 0 };
    pgt_put_text(&t, v);
    snprintf(shown, sizeof shown, "%.*s", (int)(t.len > 40 ? 40 : t.len), t.p ? t.p : "");
    bb_buf_free(&t);
    return bb_errf(err, "pg: value '%s' does not fit a %s column (check the column's generator)", shown, type);
}

/* A value as a NUL-terminated string in tmp, for parsing. */
static const char *cstr(const bb_value *v, char *tmp, size_t n)
{
    size_t len = 0;
    if (v->kind == BB_V_TEXT) {
        len = v->len < n - 1 ? v->len : n - 1;
        memcpy(tmp, v->u.s, len);
    } else if (v->kind == BB_V_INT) {
        len = (size_t)bb_fmt_i64(tmp, v->u.i);
    } else if (v->kind == BB_V_DOUBLE) {
        len = (size_t)bb_fmt_double(tmp, v->u.d); /* n >= 32 */
    }
    tmp[len] = 0;
    return tmp;
}

static int as_int(const bb_value *v, int64_t *out)
{
    if (v->kind == BB_V_INT) {
        *out = v->u.i;
        return 0;
    }
    if (v->kind == BB_V_DOUBLE) {
        *out = (int64_t)v->u.d;
        return (double)*out == v->u.d ? 0 : -1;
    }
    char tmp[32], *end;
    *out = strtoll(cstr(v, tmp, sizeof tmp), &end, 10);
    return *end ? -1 : 0;
}

static int as_double(const bb_value *v, double *out)
{
    if (v->kind == BB_V_INT) {
        *out = (double)v->u.i;
        return 0;
    }
    if (v->kind == BB_V_DOUBLE) {
        *out = v->u.d;
        return 0;
    }
    char tmp[64], *end;
    *out = strtod(cstr(v, tmp, sizeof tmp), &end);
    return *end ? -1 : 0;
}

/* the numeric's head: digit count, weight, sign, display scale */
static inline char *numeric_head(char *p, int ndig, int weight, int neg, int scale)
{
    p = bb_be16(p, (uint16_t)ndig);
    p = bb_be16(p, (uint16_t)(int16_t)(ndig ? weight : 0));
    p = bb_be16(p, ndig && neg ? 0x4000 : 0);
    return bb_be16(p, (uint16_t)scale);
}

/* numbers of more than two groups: base-10000 digits by division, least significant first */
__attribute__((noinline)) static char *numeric_wide(char *p, int64_t x, int scale, unsigned __int128 u)
{
    uint16_t g[10];
    int n = 0, frac = (scale + 3) / 4;
    if (u <= UINT64_MAX) { /* 64-bit divisions by a constant */
        for (uint64_t w = (uint64_t)u; w; w /= 10000) g[n++] = (uint16_t)(w % 10000);
    } else {
        for (; u; u /= 10000) g[n++] = (uint16_t)(u % 10000);
    }
    int skip = 0;
    while (skip < n && g[skip] == 0) skip++;
    p = numeric_head(p, n - skip, n - frac - 1, x < 0, scale);
    for (int i = n - 1; i >= skip; i--) p = bb_be16(p, g[i]);
    return p;
}

/* numeric from an integer x and its scale (0..18) straight into base-10000 digits, once the
 * scale is padded to whole groups of four, trailing zero groups left out, as the server
 * writes them: the same bytes the text path below makes of the same number (at most
 * 8 + 2 * 10 bytes, without the length word) */
static inline char *numeric_scaled(char *p, int64_t x, int scale)
{
    static const uint32_t pad[4] = { 1, 1000, 100, 10 };
    int frac = (scale + 3) / 4;
    uint64_t a = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    if (a > UINT32_MAX || a * pad[scale % 4] >= 100000000)
        return numeric_wide(p, x, scale, (unsigned __int128)a * pad[scale % 4]);
    /* money and the like: two groups at most, 32-bit arithmetic */
    uint32_t w = (uint32_t)(a * pad[scale % 4]), hi = w / 10000, lo = w % 10000;
    if (hi == 0) {
        p = numeric_head(p, lo != 0, -frac, x < 0, scale);
        return lo ? bb_be16(p, (uint16_t)lo) : p;
    }
    p = numeric_head(p, lo ? 2 : 1, 1 - frac, x < 0, scale);
    p = bb_be16(p, (uint16_t)hi);
    return lo ? bb_be16(p, (uint16_t)lo) : p;
}

/* numeric: base-10000 digits, weight of the first, sign, display scale */
static int put_numeric(bb_buf *b, const bb_value *v, bb_err *err)
{
    if (v->native == BB_N_SCALED && v->scale <= 18) { /* straight from the integer: no text */
        bb_buf_reserve(b, 8 + 2 * 10);
        b->len = (size_t)(numeric_scaled(b->p + b->len, v->aux, v->scale) - b->p);
        return 0;
    }
    char tmp[128];
    const char *s = cstr(v, tmp, sizeof tmp);
    int neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    const char *dot = strchr(s, '.');
    size_t ni = dot ? (size_t)(dot - s) : strlen(s), nf = dot ? strlen(dot + 1) : 0;
    if (ni + nf == 0 || ni + nf > 100) return bad(err, v, "numeric");
    char digits[224];
    size_t lead = (4 - ni % 4) % 4, n = 0;
    for (size_t i = 0; i < lead; i++) digits[n++] = '0';
    for (size_t i = 0; i < ni; i++) {
        if (s[i] < '0' || s[i] > '9') return bad(err, v, "numeric");
        digits[n++] = s[i];
    }
    for (size_t i = 0; i < nf; i++) {
        if (dot[1 + i] < '0' || dot[1 + i] > '9') return bad(err, v, "numeric");
        digits[n++] = dot[1 + i];
    }
    while (n % 4) digits[n++] = '0';
    int groups = (int)(n / 4), weight = (int)((lead + ni) / 4) - 1, first = 0, last = groups;
    uint16_t g[56];
    for (int i = 0; i < groups; i++)
        g[i] = (uint16_t)((digits[4 * i] - '0') * 1000 + (digits[4 * i + 1] - '0') * 100 +
                          (digits[4 * i + 2] - '0') * 10 + (digits[4 * i + 3] - '0'));
    while (first < last && g[first] == 0) {
        first++;
        weight--;
    }
    while (last > first && g[last - 1] == 0) last--;
    if (first == last) {
        weight = 0;
        neg = 0;
    }
    put16(b, (uint16_t)(last - first));
    put16(b, (uint16_t)(int16_t)weight);
    put16(b, neg ? 0x4000 : 0);
    put16(b, (uint16_t)nf);
    for (int i = first; i < last; i++) put16(b, g[i]);
    return 0;
}

static int put_time(bb_buf *b, Oid oid, const bb_value *v, bb_err *err)
{
    if (oid == PGT_DATE && v->native == BB_N_DAYS) {
        put32(b, (uint32_t)(int32_t)(v->aux - PGT_EPOCH_DAYS));
        return 0;
    }
    if (oid != PGT_DATE && v->native == BB_N_MICROS) {
        put64(b, (uint64_t)(v->aux - (int64_t)PGT_EPOCH_DAYS * 86400000000LL));
        return 0;
    }
    if (oid != PGT_DATE && v->native == BB_N_DAYS) {
        put64(b, (uint64_t)((v->aux - PGT_EPOCH_DAYS) * 86400000000LL));
        return 0;
    }
    char tmp[64];
    const char *s = cstr(v, tmp, sizeof tmp);
    int y, mo, d, h = 0, mi = 0, n;
    double sec = 0;
    n = sscanf(s, "%d-%d-%d%*[ T]%d:%d:%lf", &y, &mo, &d, &h, &mi, &sec);
    if ((n != 3 && n != 6) || mo < 1 || mo > 12 || d < 1 || d > 31)
        return bad(err, v, oid == PGT_DATE ? "date" : "timestamp");
    int64_t days = bb_days_from_civil(y, (unsigned)mo, (unsigned)d) - PGT_EPOCH_DAYS;
    if (oid == PGT_DATE) {
        put32(b, (uint32_t)(int32_t)days);
        return 0;
    }
    int64_t us =
        days * 86400000000LL + (int64_t)h * 3600000000LL + (int64_t)mi * 60000000LL + (int64_t)(sec * 1e6 + 0.5);
    put64(b, (uint64_t)us);
    return 0;
}

static int put_uuid(bb_buf *b, const bb_value *v, bb_err *err)
{
    char tmp[64];
    const char *s = cstr(v, tmp, sizeof tmp);
    unsigned char out[16];
    int k = 0;
    for (const char *p = s; *p && k < 32; p++) {
        int x = (*p >= '0' && *p <= '9') ? *p - '0'
            : (*p >= 'a' && *p <= 'f')   ? *p - 'a' + 10
            : (*p >= 'A' && *p <= 'F')   ? *p - 'A' + 10
                                         : -1;
        if (*p == '-') continue;
        if (x < 0) return bad(err, v, "uuid");
        if (k % 2 == 0) out[k / 2] = (unsigned char)(x << 4);
        else out[k / 2] |= (unsigned char)x;
        k++;
    }
    if (k != 32) return bad(err, v, "uuid");
    bb_buf_put(b, out, 16);
    return 0;
}

int pgt_put(bb_buf *b, Oid oid, const bb_value *v, bb_err *err)
{
    int64_t i;
    double d;
    union {
        float f;
        uint32_t u;
    } f4;
    union {
        double f;
        uint64_t u;
    } f8;
    switch (oid) {
    case PGT_INT2:
        if (as_int(v, &i) < 0 || i < -32768 || i > 32767) return bad(err, v, "smallint");
        put16(b, (uint16_t)(int16_t)i);
        return 0;
    case PGT_INT4:
        if (as_int(v, &i) < 0 || i < INT32_MIN || i > INT32_MAX) return bad(err, v, "integer");
        put32(b, (uint32_t)(int32_t)i);
        return 0;
    case PGT_INT8:
        if (as_int(v, &i) < 0) return bad(err, v, "bigint");
        put64(b, (uint64_t)i);
        return 0;
    case PGT_FLOAT4:
        if (as_double(v, &d) < 0) return bad(err, v, "real");
        f4.f = (float)d;
        put32(b, f4.u);
        return 0;
    case PGT_FLOAT8:
        if (as_double(v, &d) < 0) return bad(err, v, "double precision");
        f8.f = d;
        put64(b, f8.u);
        return 0;
    case PGT_BOOL:
        if (v->kind == BB_V_TEXT) {
            char c = v->len ? v->u.s[0] : 0;
            bb_buf_putc(b, (char)(c == 't' || c == 'T' || c == '1' || c == 'y' || c == 'Y'));
        } else {
            if (as_int(v, &i) < 0) return bad(err, v, "boolean");
            bb_buf_putc(b, (char)(i != 0));
        }
        return 0;
    case PGT_NUMERIC: return put_numeric(b, v, err);
    case PGT_DATE:
    case PGT_TIMESTAMP:
    case PGT_TIMESTAMPTZ: return put_time(b, oid, v, err);
    case PGT_UUID: return put_uuid(b, v, err);
    case PGT_JSONB: /* jsonb's binary form is a version byte (1) before the JSON text */
        bb_buf_putc(b, 1);
        pgt_put_text(b, v);
        return 0;
    default:
        if (!pgt_verbatim(oid)) return bb_errf(err, "pg: no binary encoding for type oid %u", (unsigned)oid);
        pgt_put_text(b, v);
        return 0;
    }
}

/* ---- binary COPY fields ---- */

/* One field the general way: the value's binary form for the column's type, whatever
 * the value's kind (text parsed, ranges checked). */
static char *field_any(char *p, Oid type, const bb_value *v, bb_err *err)
{
    bb_buf b = { 0 };
    int rc = pgt_put(&b, type, v, err);
    if (rc == 0) {
        p = bb_be32(p, (uint32_t)b.len);
        if (b.len) memcpy(p, b.p, b.len);
        p += b.len;
    }
    bb_buf_free(&b);
    return rc == 0 ? p : NULL;
}

/* The writers of bb_field_fn, one per column type: the common pairs of a type and a
 * value's kind in place (an integer into an integer column, a double into a float8, a
 * number the generator holds as an integer and scale into a numeric, an instant as
 * microseconds or days, text into a text column), any other pair through field_any. */
static char *f_int4(char *p, const bb_value *v, bb_err *err)
{
    if (v->kind != BB_V_INT || v->u.i < INT32_MIN || v->u.i > INT32_MAX) return field_any(p, PGT_INT4, v, err);
    return bb_be32(bb_be32(p, 4), (uint32_t)(int32_t)v->u.i);
}

static char *f_int8(char *p, const bb_value *v, bb_err *err)
{
    if (v->kind != BB_V_INT) return field_any(p, PGT_INT8, v, err);
    return bb_be64(bb_be32(p, 8), (uint64_t)v->u.i);
}

static char *f_float8(char *p, const bb_value *v, bb_err *err)
{
    if (v->kind != BB_V_DOUBLE) return field_any(p, PGT_FLOAT8, v, err);
    uint64_t u;
    memcpy(&u, &v->u.d, 8);
    return bb_be64(bb_be32(p, 8), u);
}

static char *f_numeric(char *p, const bb_value *v, bb_err *err)
{
    int64_t x = v->aux;
    int scale = v->scale;
    if (v->kind == BB_V_INT) { /* the text path writes an integer with no scale, the same bytes */
        x = v->u.i;
        scale = 0;
    } else if (v->native != BB_N_SCALED || scale > 18) return field_any(p, PGT_NUMERIC, v, err);
    char *end = numeric_scaled(p + 4, x, scale);
    bb_be32(p, (uint32_t)(end - p - 4));
    return end;
}

static char *f_timestamp(char *p, const bb_value *v, bb_err *err)
{
    if (v->native != BB_N_MICROS) return field_any(p, PGT_TIMESTAMP, v, err);
    return bb_be64(bb_be32(p, 8), (uint64_t)(v->aux - PGT_EPOCH_DAYS * 86400000000LL));
}

static char *f_timestamptz(char *p, const bb_value *v, bb_err *err)
{
    if (v->native != BB_N_MICROS) return field_any(p, PGT_TIMESTAMPTZ, v, err);
    return bb_be64(bb_be32(p, 8), (uint64_t)(v->aux - PGT_EPOCH_DAYS * 86400000000LL));
}

static char *f_date(char *p, const bb_value *v, bb_err *err)
{
    if (v->native != BB_N_DAYS) return field_any(p, PGT_DATE, v, err);
    return bb_be32(bb_be32(p, 4), (uint32_t)(int32_t)(v->aux - PGT_EPOCH_DAYS));
}

/* text, varchar, char, bytea: a text value's own bytes */
#define PG_VERBATIM(name, oid)                                                                                         \
    static char *name(char *p, const bb_value *v, bb_err *err)                                                         \
    {                                                                                                                  \
        if (v->kind != BB_V_TEXT || !v->u.s) return field_any(p, oid, v, err);                                         \
        p = bb_be32(p, v->len);                                                                                        \
        memcpy(p, v->u.s, v->len);                                                                                     \
        return p + v->len;                                                                                             \
    }
PG_VERBATIM(f_text, PGT_TEXT)
PG_VERBATIM(f_varchar, PGT_VARCHAR)
PG_VERBATIM(f_bpchar, PGT_BPCHAR)
PG_VERBATIM(f_bytea, PGT_BYTEA)
PG_VERBATIM(f_json, PGT_JSON)

/* the other types pgt_put writes, the general way */
#define PG_OTHER(name, oid)                                                                                            \
    static char *name(char *p, const bb_value *v, bb_err *err) { return field_any(p, oid, v, err); }
PG_OTHER(f_bool, PGT_BOOL)
PG_OTHER(f_int2, PGT_INT2)
PG_OTHER(f_float4, PGT_FLOAT4)
PG_OTHER(f_uuid, PGT_UUID)
PG_OTHER(f_jsonb, PGT_JSONB)

/* The writer of a column of type oid, and whether it takes a native value alone. */
bb_field_fn pgt_field(Oid oid, unsigned char *native, unsigned char *form)
{
    *form = oid == PGT_INT4 ? BB_FORM_INT4 /* what f_int4 writes of an integer in range */
        : oid == PGT_INT8   ? BB_FORM_INT8
        : pgt_verbatim(oid) ? BB_FORM_BYTES /* f_text and its like */
                            : BB_FORM_WRITER;
    *native = oid == PGT_NUMERIC                         ? BB_N_SCALED
        : oid == PGT_TIMESTAMP || oid == PGT_TIMESTAMPTZ ? BB_N_MICROS
        : oid == PGT_DATE                                ? BB_N_DAYS
                                                         : BB_N_NONE;
    switch (oid) {
    case PGT_INT4: return f_int4;
    case PGT_INT8: return f_int8;
    case PGT_FLOAT8: return f_float8;
    case PGT_NUMERIC: return f_numeric;
    case PGT_TIMESTAMP: return f_timestamp;
    case PGT_TIMESTAMPTZ: return f_timestamptz;
    case PGT_DATE: return f_date;
    case PGT_TEXT: return f_text;
    case PGT_VARCHAR: return f_varchar;
    case PGT_BPCHAR: return f_bpchar;
    case PGT_BYTEA: return f_bytea;
    case PGT_BOOL: return f_bool;
    case PGT_INT2: return f_int2;
    case PGT_FLOAT4: return f_float4;
    case PGT_UUID: return f_uuid;
    case PGT_JSON: return f_json;
    case PGT_JSONB: return f_jsonb;
    default: return NULL; /* pgt_binary refused it when the stream opened */
    }
}
