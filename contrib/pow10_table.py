#!/usr/bin/env python3
"""Prints base/dtoa.c's table of powers of ten: 10^k for k = -348, -340, ..., 340, each as a
64-bit significand f in [2^63, 2^64), rounded to nearest, and a binary exponent e, so that
10^k ~= f * 2^e. Exact big-integer arithmetic; run it to check or remake the table."""
K0, STEP, N = -348, 8, 87

def pow10(k):
    if k >= 0:
        num, den = 10**k, 1
    else:
        num, den = 1, 10**(-k)
    # find e with 2^63 <= num / (den * 2^e) < 2^64
    e = num.bit_length() - den.bit_length() - 64
    while True:
        n, d = (num, den << e) if e >= 0 else (num << -e, den)
        q, r = divmod(n, d)
        if q >= 1 << 64: e += 1; continue
        if q < 1 << 63: e -= 1; continue
        break
    if 2 * r >= d: q += 1  # to nearest
    if q == 1 << 64: q, e = 1 << 63, e + 1
    return q, e

print("static const struct { uint64_t f; int16_t e; } dtoa_pow10[%d] = {" % N)
for i in range(N):
    f, e = pow10(K0 + STEP * i)
    print("    { 0x%016xULL, %d }, /* 1e%d */" % (f, e, K0 + STEP * i))
print("};")
