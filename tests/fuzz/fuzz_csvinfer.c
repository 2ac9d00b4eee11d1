/* fuzz_csvinfer.c — the type inference of `bulkbench new FILE.csv` (runtime/core/load/csvinfer.c).
 * Input: a flag byte (bit 0 plain TSV, bit 1 a header, bit 2 --null=NA, bits 3-5 the
 * reservoir's size: 0..7 rows), then the file's bytes.
 * Checked, when the file is read: every column's values and NULLs add up to the rows; the
 * reservoir holds min(rows, size) rows of ncols values; every value kept agrees with its
 * column's type (an integer within [imin, imax], a decimal's digits within the counts, a
 * date of 10 characters, a boolean word, a UUID's 36) and is no longer than max_len;
 * reading the same bytes twice gives the same result. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/load/csvinfer.h"

static size_t chars(const char *s)
{
    size_t k = 0;
    for (; *s; s++) k += ((unsigned char)*s & 0xC0) != 0x80;
    return k;
}

static void check_value(const csvi_col *c, const char *v)
{
    assert(chars(v) <= c->max_len);
    switch (c->type) {
    case CSVI_INT: {
        char *end;
        long long x = strtoll(v, &end, 10);
        assert(*end == 0 && x >= c->imin && x <= c->imax);
        break;
    }
    case CSVI_DATE: assert(strlen(v) == 10); break;
    case CSVI_UUID: assert(strlen(v) == 36); break;
    case CSVI_BOOL: assert(strlen(v) <= 5); break;
    case CSVI_DECIMAL: {
        const char *dot = strchr(v, '.');
        if (dot) assert((int)strlen(dot + 1) <= c->frac_digits);
        break;
    }
    case CSVI_EMPTY: assert(0 && "a value in a column of none"); break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    csvi_opts o = { .tsv = data[0] & 1,
                    .header = (data[0] >> 1) & 1,
                    .null = (data[0] & 4) ? "NA" : NULL,
                    .sample = (data[0] >> 3) & 7,
                    .seed = 1 };
    csvi_result r, r2;
    bb_err err, err2;
    int rc = csvi_read_mem((const char *)data + 1, size - 1, &o, &r, &err);
    int rc2 = csvi_read_mem((const char *)data + 1, size - 1, &o, &r2, &err2);
    assert(rc == rc2);
    if (rc == 0) {
        assert(r.rows == r2.rows && r.ncols == r2.ncols && r.nsample == r2.nsample);
        assert(r.nsample == (r.rows < o.sample ? r.rows : o.sample));
        for (int i = 0; i < r.ncols; i++) {
            const csvi_col *c = &r.cols[i];
            assert(c->values + c->nulls == r.rows);
            assert(c->type == r2.cols[i].type && c->max_len == r2.cols[i].max_len);
            for (int s = 0; s < r.nsample; s++)
                if (r.sample[s][i]) check_value(c, r.sample[s][i]);
        }
        csvi_free(&r);
        csvi_free(&r2);
    }
    return 0;
}
