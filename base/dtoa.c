/* dtoa.c — Grisu2 (see dtoa.h): the midpoints to the double's neighbours, times a cached power
 * of ten chosen so the products' binary exponent is in [-60, -32] (their integral part then
 * fits 32 bits), give an interval every number in which reads back as the double; its digits
 * are made from the upper end until the rest fits the interval, then the last digit is moved
 * toward the double itself. */
#include "dtoa.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* contrib/pow10_table.py */
static const struct {
    uint64_t f;
    int16_t e;
} dtoa_pow10[87] = {
    { 0xfa8fd5a0081c0288ULL, -1220 }, /* 1e-348 */
    { 0xbaaee17fa23ebf76ULL, -1193 }, /* 1e-340 */
    { 0x8b16fb203055ac76ULL, -1166 }, /* 1e-332 */
    { 0xcf42894a5dce35eaULL, -1140 }, /* 1e-324 */
    { 0x9a6bb0aa55653b2dULL, -1113 }, /* 1e-316 */
    { 0xe61acf033d1a45dfULL, -1087 }, /* 1e-308 */
    { 0xab70fe17c79ac6caULL, -1060 }, /* 1e-300 */
    { 0xff77b1fcbebcdc4fULL, -1034 }, /* 1e-292 */
    { 0xbe5691ef416bd60cULL, -1007 }, /* 1e-284 */
    { 0x8dd01fad907ffc3cULL, -980 },  /* 1e-276 */
    { 0xd3515c2831559a83ULL, -954 },  /* 1e-268 */
    { 0x9d71ac8fada6c9b5ULL, -927 },  /* 1e-260 */
    { 0xea9c227723ee8bcbULL, -901 },  /* 1e-252 */
    { 0xaecc49914078536dULL, -874 },  /* 1e-244 */
    { 0x823c12795db6ce57ULL, -847 },  /* 1e-236 */
    { 0xc21094364dfb5637ULL, -821 },  /* 1e-228 */
    { 0x9096ea6f3848984fULL, -794 },  /* 1e-220 */
    { 0xd77485cb25823ac7ULL, -768 },  /* 1e-212 */
    { 0xa086cfcd97bf97f4ULL, -741 },  /* 1e-204 */
    { 0xef340a98172aace5ULL, -715 },  /* 1e-196 */
    { 0xb23867fb2a35b28eULL, -688 },  /* 1e-188 */
    { 0x84c8d4dfd2c63f3bULL, -661 },  /* 1e-180 */
    { 0xc5dd44271ad3cdbaULL, -635 },  /* 1e-172 */
    { 0x936b9fcebb25c996ULL, -608 },  /* 1e-164 */
    { 0xdbac6c247d62a584ULL, -582 },  /* 1e-156 */
    { 0xa3ab66580d5fdaf6ULL, -555 },  /* 1e-148 */
    { 0xf3e2f893dec3f126ULL, -529 },  /* 1e-140 */
    { 0xb5b5ada8aaff80b8ULL, -502 },  /* 1e-132 */
    { 0x87625f056c7c4a8bULL, -475 },  /* 1e-124 */
    { 0xc9bcff6034c13053ULL, -449 },  /* 1e-116 */
    { 0x964e858c91ba2655ULL, -422 },  /* 1e-108 */
    { 0xdff9772470297ebdULL, -396 },  /* 1e-100 */
    { 0xa6dfbd9fb8e5b88fULL, -369 },  /* 1e-92 */
    { 0xf8a95fcf88747d94ULL, -343 },  /* 1e-84 */
    { 0xb94470938fa89bcfULL, -316 },  /* 1e-76 */
    { 0x8a08f0f8bf0f156bULL, -289 },  /* 1e-68 */
    { 0xcdb02555653131b6ULL, -263 },  /* 1e-60 */
    { 0x993fe2c6d07b7facULL, -236 },  /* 1e-52 */
    { 0xe45c10c42a2b3b06ULL, -210 },  /* 1e-44 */
    { 0xaa242499697392d3ULL, -183 },  /* 1e-36 */
    { 0xfd87b5f28300ca0eULL, -157 },  /* 1e-28 */
    { 0xbce5086492111aebULL, -130 },  /* 1e-20 */
    { 0x8cbccc096f5088ccULL, -103 },  /* 1e-12 */
    { 0xd1b71758e219652cULL, -77 },   /* 1e-4 */
    { 0x9c40000000000000ULL, -50 },   /* 1e4 */
    { 0xe8d4a51000000000ULL, -24 },   /* 1e12 */
    { 0xad78ebc5ac620000ULL, 3 },     /* 1e20 */
    { 0x813f3978f8940984ULL, 30 },    /* 1e28 */
    { 0xc097ce7bc90715b3ULL, 56 },    /* 1e36 */
    { 0x8f7e32ce7bea5c70ULL, 83 },    /* 1e44 */
    { 0xd5d238a4abe98068ULL, 109 },   /* 1e52 */
    { 0x9f4f2726179a2245ULL, 136 },   /* 1e60 */
    { 0xed63a231d4c4fb27ULL, 162 },   /* 1e68 */
    { 0xb0de65388cc8ada8ULL, 189 },   /* 1e76 */
    { 0x83c7088e1aab65dbULL, 216 },   /* 1e84 */
    { 0xc45d1df942711d9aULL, 242 },   /* 1e92 */
    { 0x924d692ca61be758ULL, 269 },   /* 1e100 */
    { 0xda01ee641a708deaULL, 295 },   /* 1e108 */
    { 0xa26da3999aef774aULL, 322 },   /* 1e116 */
    { 0xf209787bb47d6b85ULL, 348 },   /* 1e124 */
    { 0xb454e4a179dd1877ULL, 375 },   /* 1e132 */
    { 0x865b86925b9bc5c2ULL, 402 },   /* 1e140 */
    { 0xc83553c5c8965d3dULL, 428 },   /* 1e148 */
    { 0x952ab45cfa97a0b3ULL, 455 },   /* 1e156 */
    { 0xde469fbd99a05fe3ULL, 481 },   /* 1e164 */
    { 0xa59bc234db398c25ULL, 508 },   /* 1e172 */
    { 0xf6c69a72a3989f5cULL, 534 },   /* 1e180 */
    { 0xb7dcbf5354e9beceULL, 561 },   /* 1e188 */
    { 0x88fcf317f22241e2ULL, 588 },   /* 1e196 */
    { 0xcc20ce9bd35c78a5ULL, 614 },   /* 1e204 */
    { 0x98165af37b2153dfULL, 641 },   /* 1e212 */
    { 0xe2a0b5dc971f303aULL, 667 },   /* 1e220 */
    { 0xa8d9d1535ce3b396ULL, 694 },   /* 1e228 */
    { 0xfb9b7cd9a4a7443cULL, 720 },   /* 1e236 */
    { 0xbb764c4ca7a44410ULL, 747 },   /* 1e244 */
    { 0x8bab8eefb6409c1aULL, 774 },   /* 1e252 */
    { 0xd01fef10a657842cULL, 800 },   /* 1e260 */
    { 0x9b10a4e5e9913129ULL, 827 },   /* 1e268 */
    { 0xe7109bfba19c0c9dULL, 853 },   /* 1e276 */
    { 0xac2820d9623bf429ULL, 880 },   /* 1e284 */
    { 0x80444b5e7aa7cf85ULL, 907 },   /* 1e292 */
    { 0xbf21e44003acdd2dULL, 933 },   /* 1e300 */
    { 0x8e679c2f5e44ff8fULL, 960 },   /* 1e308 */
    { 0xd433179d9c8cb841ULL, 986 },   /* 1e316 */
    { 0x9e19db92b4e31ba9ULL, 1013 },  /* 1e324 */
    { 0xeb96bf6ebadf77d9ULL, 1039 },  /* 1e332 */
    { 0xaf87023b9bf0ee6bULL, 1066 },  /* 1e340 */
};

enum { POW10_K0 = -348, POW10_STEP = 8, ALPHA = -60, GAMMA = -32 };

typedef struct {
    uint64_t f;
    int e;
} diyfp; /* f * 2^e */

static inline diyfp fp_mul(diyfp a, diyfp b) /* the product's upper 64 bits, rounded */
{
    unsigned __int128 p = (unsigned __int128)a.f * b.f;
    return (diyfp){ (uint64_t)(p >> 64) + ((uint64_t)p >> 63), a.e + b.e + 64 };
}

static inline diyfp fp_norm(diyfp x)
{
    int s = __builtin_clzll(x.f);
    return (diyfp){ x.f << s, x.e - s };
}

static const uint32_t pow10_32[10] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000 };

/* Moves the last digit down while that keeps the number in the interval and brings it closer
 * to the double (rest: the distance from the number to the interval's top; wp_w: the double's). */
static void round_weed(char *buf, int len, uint64_t delta, uint64_t rest, uint64_t ten_kappa, uint64_t wp_w)
{
    while (rest < wp_w && delta - rest >= ten_kappa &&
           (rest + ten_kappa < wp_w || wp_w - rest > rest + ten_kappa - wp_w)) {
        buf[len - 1]--;
        rest += ten_kappa;
    }
}

/* The digits of a number in [wp - delta, wp] close to w (all three scaled alike, exponent in
 * [ALPHA, GAMMA]); *k gets the power of ten of the last digit added. */
static int fp_digits(diyfp w, diyfp wp, uint64_t delta, char *buf, int *k)
{
    int shift = -wp.e;
    uint64_t one = 1ULL << shift, wp_w = wp.f - w.f, p2 = wp.f & (one - 1);
    uint32_t p1 = (uint32_t)(wp.f >> shift);
    int kappa = 1, len = 0;
    while (kappa < 10 && p1 >= pow10_32[kappa]) kappa++;
    while (kappa > 0) {
        uint32_t unit = pow10_32[kappa - 1];
        buf[len++] = (char)('0' + p1 / unit);
        p1 %= unit;
        kappa--;
        uint64_t rest = ((uint64_t)p1 << shift) + p2;
        if (rest <= delta) {
            *k += kappa;
            round_weed(buf, len, delta, rest, (uint64_t)unit << shift, wp_w);
            return len;
        }
    }
    for (;;) { /* the fraction: delta grows tenfold a digit, so this ends within ~17 */
        p2 *= 10;
        delta *= 10;
        wp_w *= 10;
        buf[len++] = (char)('0' + (p2 >> shift));
        p2 &= one - 1;
        kappa--;
        if (p2 < delta) {
            *k += kappa;
            round_weed(buf, len, delta, p2, one, wp_w);
            return len;
        }
    }
}

/* digits d[0..len) times 10^k, written as "%.17g" would lay them out */
static int fp_layout(char *out, const char *d, int len, int k)
{
    int exp10 = len + k - 1;
    char *p = out;
    if (exp10 >= -4 && exp10 < 17) {
        int point = len + k; /* digits before the decimal point */
        if (point <= 0) {
            memcpy(p, "0.0000", (size_t)(2 - point));
            p += 2 - point;
            memcpy(p, d, (size_t)len);
            p += len;
        } else if (point < len) {
            memcpy(p, d, (size_t)point);
            p += point;
            *p++ = '.';
            memcpy(p, d + point, (size_t)(len - point));
            p += len - point;
        } else {
            memcpy(p, d, (size_t)len);
            p += len;
            memset(p, '0', (size_t)(point - len));
            p += point - len;
        }
        return (int)(p - out);
    }
    *p++ = d[0];
    if (len > 1) {
        *p++ = '.';
        memcpy(p, d + 1, (size_t)(len - 1));
        p += len - 1;
    }
    *p++ = 'e';
    *p++ = exp10 < 0 ? '-' : '+';
    unsigned x = (unsigned)(exp10 < 0 ? -exp10 : exp10);
    if (x >= 100) *p++ = (char)('0' + x / 100);
    *p++ = (char)('0' + x / 10 % 10);
    *p++ = (char)('0' + x % 10);
    return (int)(p - out);
}

int bb_fmt_double(char *out, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    uint64_t frac = bits & ((1ULL << 52) - 1);
    int bexp = (int)(bits >> 52 & 0x7ff), neg = (int)(bits >> 63);
    if (bexp == 0x7ff) return snprintf(out, 32, "%.17g", v);
    char *p = out;
    if (neg) *p++ = '-';
    if (bexp == 0 && frac == 0) {
        *p++ = '0';
        return (int)(p - out);
    }
    diyfp w = bexp ? (diyfp){ frac | 1ULL << 52, bexp - 1075 } : (diyfp){ frac, -1074 };
    /* the midpoints to the neighbours; below a power of two the lower one is twice as close */
    diyfp mp = fp_norm((diyfp){ (w.f << 1) + 1, w.e - 1 });
    diyfp mm = frac == 0 && bexp > 1 ? (diyfp){ (w.f << 2) - 1, w.e - 2 } : (diyfp){ (w.f << 1) - 1, w.e - 1 };
    mm.f <<= mm.e - mp.e;
    mm.e = mp.e;
    w = fp_norm(w);
    /* the cached power c that puts the products' exponents in [ALPHA, GAMMA] */
    int min_e = ALPHA - 64 - mp.e;
    int i = (int)(((min_e + 63) * 0.30102999566398114 - POW10_K0) / POW10_STEP) - 1;
    if (i < 0) i = 0;
    while (dtoa_pow10[i].e < min_e) i++;
    diyfp c = { dtoa_pow10[i].f, dtoa_pow10[i].e };
    diyfp W = fp_mul(w, c), Wp = fp_mul(mp, c), Wm = fp_mul(mm, c);
    Wm.f++; /* the products may be off by one unit: keep inside the true interval */
    Wp.f--;
    char d[20]; /* Grisu2 makes at most 17 digits (checked on 183M values in review) */
    int k = -(POW10_K0 + POW10_STEP * i);
    int len = fp_digits(W, Wp, Wp.f - Wm.f, d, &k);
    return (int)(p - out) + fp_layout(p, d, len, k);
}
