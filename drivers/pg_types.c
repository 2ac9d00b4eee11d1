/* pg_types.c — binary encodings of PostgreSQL types (network byte order throughout). */
#include "pg_types.h"
#include "../base/err.h"
#include "../base/buf.h"
#include "../base/digits.h"
#include "../base/calendar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put16(bb_buf *b, uint16_t v)
{
    char x[2] = { (char)(v >> 8), (char)v };
    bb_buf_put(b, x, 2);
}
static void put32(bb_buf *b, uint32_t v)
{
    char x[4] = { (char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v };
    bb_buf_put(b, x, 4);
}
static void put64(bb_buf *b, uint64_t v)
{
    put32(b, (uint32_t)(v >> 32));
    put32(b, (uint32_t)v);
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

int pgt_verbatim(Oid oid) { return oid == PGT_TEXT || oid == PGT_VARCHAR || oid == PGT_BPCHAR || oid == PGT_BYTEA; }

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
    case PGT_UUID: return 1;
    default: return pgt_verbatim(oid);
    }
}

void pgt_put_text(bb_buf *out, const bb_value *v)
{
    bb_buf_reserve(out, 32);
    switch (v->kind) {
    case BB_V_INT: out->len += (size_t)bb_fmt_i64(out->p + out->len, v->u.i); break;
    case BB_V_DOUBLE: out->len += (size_t)snprintf(out->p + out->len, 32, "%.17g", v->u.d); break;
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
        len = (size_t)snprintf(tmp, n, "%.17g", v->u.d);
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

/* numeric: base-10000 digits, weight of the first, sign, display scale */
static int put_numeric(bb_buf *b, const bb_value *v, bb_err *err)
{
    char tmp[128];
    const char *s;
    if (v->native == BB_N_SCALED) { /* digits of the unscaled value, the point put back: no float */
        uint64_t x = v->aux < 0 ? (uint64_t)0 - (uint64_t)v->aux : (uint64_t)v->aux;
        char d[32];
        int nd = bb_fmt_u64(d, x), sc = v->scale, k = 0;
        if (v->aux < 0) tmp[k++] = '-';
        for (int i = nd; i <= sc; i++) tmp[k++] = '0'; /* at least one digit before the point */
        memcpy(tmp + k, d, (size_t)nd);
        k += nd;
        if (sc) {
            memmove(tmp + k - sc + 1, tmp + k - sc, (size_t)sc);
            tmp[k - sc] = '.';
            k++;
        }
        tmp[k] = 0;
        s = tmp;
    } else {
        s = cstr(v, tmp, sizeof tmp);
    }
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

#define PG_EPOCH_DAYS 10957 /* 2000-01-01 in days since 1970-01-01 */

static int put_time(bb_buf *b, Oid oid, const bb_value *v, bb_err *err)
{
    if (oid == PGT_DATE && v->native == BB_N_DAYS) {
        put32(b, (uint32_t)(int32_t)(v->aux - PG_EPOCH_DAYS));
        return 0;
    }
    if (oid != PGT_DATE && v->native == BB_N_MICROS) {
        put64(b, (uint64_t)(v->aux - (int64_t)PG_EPOCH_DAYS * 86400000000LL));
        return 0;
    }
    if (oid != PGT_DATE && v->native == BB_N_DAYS) {
        put64(b, (uint64_t)((v->aux - PG_EPOCH_DAYS) * 86400000000LL));
        return 0;
    }
    char tmp[64];
    const char *s = cstr(v, tmp, sizeof tmp);
    int y, mo, d, h = 0, mi = 0, n;
    double sec = 0;
    n = sscanf(s, "%d-%d-%d%*[ T]%d:%d:%lf", &y, &mo, &d, &h, &mi, &sec);
    if ((n != 3 && n != 6) || mo < 1 || mo > 12 || d < 1 || d > 31)
        return bad(err, v, oid == PGT_DATE ? "date" : "timestamp");
    int64_t days = bb_days_from_civil(y, (unsigned)mo, (unsigned)d) - PG_EPOCH_DAYS;
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
    default:
        if (!pgt_verbatim(oid)) return bb_errf(err, "pg: no binary encoding for type oid %u", (unsigned)oid);
        pgt_put_text(b, v);
        return 0;
    }
}
