/* digits.c — the tables behind digits.h. */
#include "digits.h"

const char bb_digits2[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                             "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                             "8081828384858687888990919293949596979899";

char bb_digits4[40000];
unsigned char bb_len4[10000];

__attribute__((constructor)) static void digits_tables(void)
{
    for (int v = 0; v < 10000; v++) {
        bb_digits4[4 * v] = (char)('0' + v / 1000);
        bb_digits4[4 * v + 1] = (char)('0' + v / 100 % 10);
        bb_digits4[4 * v + 2] = (char)('0' + v / 10 % 10);
        bb_digits4[4 * v + 3] = (char)('0' + v % 10);
        bb_len4[v] = (unsigned char)(1 + (v >= 10) + (v >= 100) + (v >= 1000));
    }
}

int bb_fmt_wide(char *out, uint64_t v)
{
    if (v < 10000000000000000ULL) { /* 9 to 16 digits: those above the last 8, then the 8 */
        int k = bb_fmt_below_1e8(out, v / 100000000);
        bb_fmt_8(out + k, (uint32_t)(v % 100000000));
        return k + 8;
    }
    uint64_t rest = v % 10000000000000000ULL; /* 17 to 20 digits: at most 4, then 16 */
    int k = bb_fmt_small(out, v / 10000000000000000ULL);
    bb_fmt_8(out + k, (uint32_t)(rest / 100000000));
    bb_fmt_8(out + k + 8, (uint32_t)(rest % 100000000));
    return k + 16;
}
