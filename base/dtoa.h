/* dtoa.h — a double as short decimal text that reads back as the same double, without printf.
 * Grisu2 (Loitsch, "Printing floating-point numbers quickly and accurately with integers",
 * PLDI 2010): 64-bit integer arithmetic and a table of 87 powers of ten; the digits always
 * read back exactly and are the shortest such in all but a few cases in a thousand (printf's
 * "%.17g" writes 17 significant digits, at ~10x the cost). */
#ifndef BB_DTOA_H
#define BB_DTOA_H

/* v's text at out, which needs 32 bytes; returns its length. Like "%.17g" in form: fixed
 * notation for decimal exponents -4 to 16 ("0.001", "1234.5", "1e+17", "2.5e-07"), "-0"
 * for negative zero; infinities and NaN as printf writes them. */
int bb_fmt_double(char *out, double v);

#endif
