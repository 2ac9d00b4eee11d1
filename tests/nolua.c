/* nolua.c — base, drivers and core without Lua: this program links against
 * build/libbulkbench.a and the client libraries only (no LuaJIT), so "core has no Lua" is
 * enforced by the linker. It also does a little real work through that library: it
 * generates rows, encodes them as CSV and COPY text, and loads them into the embedded
 * SQLite through the driver interface, then counts them. Exit 0 when everything agrees. */
#include <stdio.h>
#include <string.h>

#include "../base/buf.h"
#include "../base/err.h"
#include "../drivers/driver.h"
#include "../runtime/core/gen/encode.h"
#include "../runtime/core/gen/gen.h"

/* A generator spec given as C values: {min, max} (positions 1 and 2), or a "len". */
typedef struct spec {
    double lo, hi;
} spec;

static int has(void *ud, const char *key, int pos)
{
    (void)ud;
    return pos == 1 || pos == 2 || (key && !strcmp(key, "len"));
}
static double num(void *ud, const char *key, int pos, double dflt)
{
    const spec *s = ud;
    if (key && !strcmp(key, "len")) return 12;
    return pos == 1 ? s->lo : pos == 2 ? s->hi : dflt;
}
static const char *str(void *ud, const char *key, int pos, size_t *len)
{
    (void)ud, (void)key, (void)pos, (void)len;
    return NULL;
}
static int list(void *ud, const char *key, int pos, void (*each)(void *, const char *, size_t, double), void *acc)
{
    (void)ud, (void)key, (void)pos, (void)each, (void)acc;
    return 0;
}

static int count_cb(void *ud, int ncols, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)ncols, (void)names, (void)lens;
    sscanf(vals[0], "%lld", (long long *)ud);
    return 0;
}

int main(void)
{
    enum { ROWS = 10000 };
    bb_err err;
    spec ids = { 1, 1e9 };
    gen_reader r = { &ids, has, num, str, list };
    gen_table *t = gen_new("nolua", 7, 1700000000);
    if (gen_add(t, "id", BB_T_INT, "int", 0, &r, &err) < 0 || gen_add(t, "s", BB_T_TEXT, "string", 0.1, &r, &err) < 0) {
        fprintf(stderr, "nolua: %s\n", err.msg);
        return 1;
    }
    gen_finish(t);
    const bb_driver *d = bb_driver_find("sqlite");
    bb_target *tg = NULL;
    bb_conn *c = NULL;
    if (d->target_open(":memory:", &tg, &err) < 0 || d->connect(tg, &c, &err) < 0 ||
        d->exec(c, "CREATE TABLE nolua (id bigint, s text)", NULL, &err) < 0 || d->begin(c, &err) < 0) {
        fprintf(stderr, "nolua: sqlite: %s\n", err.msg);
        return 1;
    }
    gen_row *row = gen_row_new(t);
    bb_buf csv = { 0 }, sql = { 0 };
    for (uint64_t n = 0; n < ROWS; n++) {
        gen_fill(t, n, row, NULL);
        enc_row(BB_FMT_CSV, d->dialect, t, row, &csv);
        sql.len = 0;
        bb_buf_puts(&sql, "INSERT INTO nolua VALUES ");
        enc_row(BB_FMT_SQL, d->dialect, t, row, &sql);
        bb_buf_putc(&sql, 0);
        if (d->exec(c, sql.p, NULL, &err) < 0) {
            fprintf(stderr, "nolua: row %llu: %s\n", (unsigned long long)n, err.msg);
            return 1;
        }
    }
    long long rows = -1, lines = 0;
    if (d->commit(c, &err) < 0 || d->query(c, "SELECT count(*) FROM nolua", 0, NULL, count_cb, &rows, &err) < 0) {
        fprintf(stderr, "nolua: sqlite: %s\n", err.msg);
        return 1;
    }
    for (size_t i = 0; i < csv.len; i++) lines += csv.p[i] == '\n';
    printf("nolua: %lld rows generated, %lld CSV lines (%zu bytes), %lld rows in SQLite\n", (long long)ROWS, lines,
           csv.len, rows);
    gen_row_free(row);
    gen_free(t);
    bb_buf_free(&csv);
    bb_buf_free(&sql);
    d->disconnect(c);
    d->target_close(tg);
    return rows == ROWS && lines == ROWS ? 0 : 1;
}
