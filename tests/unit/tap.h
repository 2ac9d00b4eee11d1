/* tap.h — what every unit test prints: "ok N - what" or "not ok N - what" per check, then the
 * plan; tap_done() gives main's exit code. */
#ifndef BB_TAP_H
#define BB_TAP_H

#include <stdio.h>

static int tap_ntest, tap_nfail;

static void ok(int cond, const char *what)
{
    tap_ntest++;
    if (!cond) tap_nfail++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", tap_ntest, what);
}

static int tap_done(void)
{
    printf("1..%d\n", tap_ntest);
    return tap_nfail != 0;
}

#endif
