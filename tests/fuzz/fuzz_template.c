/* fuzz_template.c — generator patterns and the text encoders. The input is a template
 * pattern and a constant's bytes (split at the first NUL). Row values are generated and
 * encoded in COPY text, CSV, LOAD DATA's default text, plain TSV and SQL literals. Checked:
 * the template keeps its length, '#' becomes a digit and '@' a letter, everything else is
 * copied; the COPY text, CSV and LOAD DATA lines decode back to exactly the values (COPY:
 * those without NUL, which PostgreSQL text cannot hold); a plain TSV line holds the values
 * as they are, or is refused for a value with a tab, a line end, or none at all (NULL). */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/gen/encode.h"
#include "../../runtime/core/gen/gen.h"
#include "../../base/err.h"
#include "../../base/buf.h"

typedef struct spec {
    const char *s;
    size_t n;
} spec;

static int has(void *ud, const char *key, int pos)
{
    (void)ud, (void)pos;
    return !strcmp(key, "pattern") || !strcmp(key, "value");
}
static double num(void *ud, const char *key, int pos, double dflt)
{
    (void)ud, (void)key, (void)pos;
    return dflt;
}
static const char *str(void *ud, const char *key, int pos, size_t *len)
{
    (void)key, (void)pos;
    spec *sp = ud;
    *len = sp->n;
    return sp->s;
}
static int list(void *ud, const char *key, int pos, void (*each)(void *, const char *, size_t, double), void *acc)
{
    (void)ud, (void)key, (void)pos, (void)each, (void)acc;
    return 0;
}

/* COPY text (or, mysql set, LOAD DATA's default text) field i of line back to bytes; returns
 * its length, -1 for \N. COPY reads \ooo as octal; MySQL reads \0 as NUL. */
static long copy_field(const char *line, size_t len, int want, char *out, int mysql)
{
    int f = 0;
    long o = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (c == '\t' || c == '\n') {
            if (f == want) return o;
            f++;
            o = 0;
            continue;
        }
        if (c == '\\') {
            c = line[++i];
            if (c == 'N' && f == want) return -1;
            if (c >= '0' && c <= '7' && !mysql) { /* \ooo: one to three octal digits */
                int v = 0, k = 0;
                for (; k < 3 && i < len && line[i] >= '0' && line[i] <= '7'; k++, i++) v = v * 8 + (line[i] - '0');
                i--;
                c = (char)v;
            } else {
                c = c == '0' ? 0 : c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
            }
        }
        if (f == want) out[o++] = c;
    }
    return o;
}

/* CSV field i of one record back to bytes. */
static long csv_field(const char *line, size_t len, int want, char *out)
{
    int f = 0, q = 0;
    long o = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (q) {
            if (c == '"') {
                if (i + 1 < len && line[i + 1] == '"') {
                    if (f == want) out[o++] = '"';
                    i++;
                } else q = 0;
            } else if (f == want) out[o++] = c;
            continue;
        }
        if (c == '"') {
            q = 1;
            continue;
        }
        if (c == ',' || c == '\n') {
            if (f == want) return o;
            f++;
            o = 0;
            continue;
        }
        if (c == '\r' && i + 1 < len && line[i + 1] == '\n') continue;
        if (f == want) out[o++] = c;
    }
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2048) return 0;
    const char *d = (const char *)data;
    const char *nul = memchr(d, 0, size);
    spec pat = { d, nul ? (size_t)(nul - d) : size };
    spec con = { nul ? nul + 1 : "", nul ? size - pat.n - 1 : 0 };
    gen_table *t = gen_new("t", 42, 1700000000);
    bb_err err;
    gen_reader rp = { &pat, has, num, str, list, NULL }, rc = { &con, has, num, str, list, NULL };
    if (gen_add(t, "p", BB_T_TEXT, "template", 0, &rp, &err) < 0 ||
        gen_add(t, "c", BB_T_TEXT, "const", 0, &rc, &err) < 0) {
        gen_free(t);
        return 0;
    }
    gen_finish(t);
    gen_row *r = gen_row_new(t);
    const bb_dialect *dia = bb_driver_find("pg")->dialect;
    bb_buf out = { 0 };
    char *dec = malloc(4 * size + 16);
    for (uint64_t n = 0; n < 3; n++) {
        gen_fill(t, n * 7919, r, NULL);
        const bb_value *p = &r->v[0], *c = &r->v[1];
        assert(p->kind == BB_V_TEXT && p->len == pat.n);
        for (size_t i = 0; i < pat.n; i++) {
            char x = pat.s[i], y = p->u.s[i];
            if (x == '#') assert(y >= '0' && y <= '9');
            else if (x == '@') assert(y >= 'a' && y <= 'z');
            else assert(x == y);
        }
        assert(c->kind == BB_V_TEXT && c->len == con.n && !memcmp(c->u.s, con.s, con.n));
        bb_stream_fmt fmts[] = { BB_FMT_COPY, BB_FMT_CSV, BB_FMT_LOAD_TEXT, BB_FMT_TSV, BB_FMT_SQL };
        for (int f = 0; f < 5; f++) {
            out.len = 0;
            if (fmts[f] == BB_FMT_TSV) { /* no escapes: the values as they are, split by tabs */
                const char *why;
                int bad = enc_row_tsv(t, r, "", &out, &why);
                for (int col = 0; col < 2; col++) {
                    const bb_value *v = &r->v[col];
                    int unfit = v->len == 0 || memchr(v->u.s, '\t', v->len) || memchr(v->u.s, '\n', v->len) ||
                        memchr(v->u.s, '\r', v->len);
                    if (unfit && !bad) assert(0);
                    if (bad == col + 1) assert(unfit && out.len == 0);
                }
                if (!bad) {
                    assert(out.len == p->len + 1 + c->len + 1 && out.p[p->len] == '\t' && out.p[out.len - 1] == '\n');
                    assert(!memcmp(out.p, p->u.s, p->len) && !memcmp(out.p + p->len + 1, c->u.s, c->len));
                }
                continue;
            }
            enc_row(fmts[f], dia, t, r, &out);
            assert(out.len <= t->max_line || fmts[f] == BB_FMT_SQL);
            if (fmts[f] == BB_FMT_SQL) continue;
            for (int col = 0; col < 2; col++) {
                const bb_value *v = &r->v[col];
                if (fmts[f] == BB_FMT_COPY && memchr(v->u.s, 0, v->len)) continue; /* COPY text cannot carry NUL */
                long k = fmts[f] == BB_FMT_CSV ? csv_field(out.p, out.len, col, dec)
                                               : copy_field(out.p, out.len, col, dec, fmts[f] == BB_FMT_LOAD_TEXT);
                assert(k == (long)v->len && !memcmp(dec, v->u.s, v->len));
            }
        }
    }
    free(dec);
    bb_buf_free(&out);
    gen_row_free(r);
    gen_free(t);
    return 0;
}
