/* driver_rows.c — the row callbacks query() callers share: one figure or one text from a query's
 * answer, and its columns or name/value rows as a JSON object (settings). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "driver.h"

int bb_row_int(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names, (void)lens;
    *(int64_t *)ud = n > 0 && vals[0] ? strtoll(vals[0], NULL, 10) : -1;
    return 1;
}

int bb_row_int2(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names, (void)lens;
    if (n >= 2 && vals[1]) *(int64_t *)ud = strtoll(vals[1], NULL, 10);
    return 1;
}

int bb_row_sum2(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names, (void)lens;
    if (n >= 2 && vals[1]) *(int64_t *)ud += strtoll(vals[1], NULL, 10);
    return 0;
}

int bb_row_text(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names, (void)lens;
    bb_text *t = ud;
    snprintf(t->p, t->n, "%s", n > 0 && vals[0] ? vals[0] : "");
    return 1;
}

int bb_row_columns_json(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)lens;
    for (int i = 0; i < n; i++) json_object_set_new(ud, names[i], vals[i] ? json_string(vals[i]) : json_null());
    return 1;
}

int bb_row_pair_json(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens)
{
    (void)names, (void)lens;
    if (n >= 2 && vals[0] && vals[1]) json_object_set_new(ud, vals[0], json_string(vals[1]));
    return 0;
}
