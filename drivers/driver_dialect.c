/* driver_dialect.c — how a dialect spells identifiers and parameters: the one place SQL names are
 * quoted, for the runtime's statements, file loads, gen --format=sql and scripts alike. */
#include <stdio.h>

#include "driver.h"
#include "../base/buf.h"

void dialect_quote(const bb_dialect *d, const char *name, bb_buf *out)
{
    bb_buf_putc(out, d->ident_quote);
    for (const char *p = name; *p; p++) {
        if (*p == d->ident_quote) bb_buf_putc(out, *p); /* a quote inside a name is doubled */
        bb_buf_putc(out, *p);
    }
    bb_buf_putc(out, d->ident_quote);
}

const bb_dialect bb_dialect_generic = { "generic", '"', 0, 0, 0, 0, 0, NULL };

void dialect_quote_list(const bb_dialect *d, const char *const *names, int n, bb_buf *out)
{
    for (int i = 0; i < n; i++) {
        if (i) bb_buf_putc(out, ',');
        dialect_quote(d, names[i], out);
    }
}

char *dialect_quoted(const bb_dialect *d, const char *name)
{
    bb_buf b = { 0 };
    dialect_quote(d, name, &b);
    bb_buf_putc(&b, 0);
    return b.p;
}

void dialect_param(const bb_dialect *d, long i, bb_buf *out)
{
    if (d->param_dollar) bb_buf_printf(out, "$%ld", i);
    else bb_buf_putc(out, '?');
}
