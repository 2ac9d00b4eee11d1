/* test_method.c — the method table's two decisions that several commands share, as TAP:
 * a run's batch (method_batch: what the workers use, the script sees, the result records
 * and advise races) and a file load's stream method (method_for_file: `load` and advise's
 * file race), on every engine the binary has. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/driver.h"
#include "../../runtime/core/method/method.h"
#include "tap.h"

static const bb_method *m(const char *name) { return method_find(name); }

int main(void)
{
    ok(method_batch(m("insert"), 0, 0) == 1 && method_batch(m("insert"), 1000, 0) == 1 &&
           method_batch(m("insert-simple"), 100, 0) == 1,
       "a row-at-a-time method's batch is 1 whatever --batch says");
    ok(!method_takes_batch(m("insert")) && method_takes_batch(m("txn")) && method_takes_batch(m("copy")),
       "insert takes no batch (a sweep makes one point of it); txn and copy do");
    ok(method_batch(m("txn"), 0, 0) == 1000 && method_batch(m("txn"), 7, 0) == 7 &&
           method_batch(m("multirow"), 0, 3) == 1000,
       "a batched method: the given batch, else its default, --reconnect or not");
    ok(method_batch(m("copy"), 0, 0) == 0 && method_batch(m("copy"), 0, 2) == 10000 &&
           method_batch(m("load"), 500, 2) == 500,
       "a stream: one per worker, 10,000 under --reconnect, the given batch when there is one");
    ok(method_batch(NULL, 0, 0) == 0 && method_batch(NULL, 64, 0) == 64, "no method (event()): the given batch");

    int checked = 0, bad = 0;
    char first[160] = "";
    bb_stream_fmt fmts[] = { BB_FMT_CSV, BB_FMT_TSV, BB_FMT_COPY };
    for (int i = 0; bb_drivers[i]; i++)
        for (int f = 0; f < 3; f++) {
            const bb_driver *d = bb_drivers[i];
            const bb_method *x = method_for_file(d, fmts[f]);
            checked++;
            int can = d->stream_open && (d->caps & (BB_CAP_COPY_TEXT | BB_CAP_COPY_CSV | BB_CAP_LOAD_DATA));
            int good = x ? method_offered(x, d) && x->loop == LOOP_STREAM && x->fmt != BB_FMT_BINARY &&
                    (x->fmt != BB_FMT_CSV || fmts[f] == BB_FMT_CSV) &&
                    /* CSV by COPY's CSV where the engine has it, else COPY text before LOAD DATA */
                    (fmts[f] != BB_FMT_CSV || !(d->caps & BB_CAP_COPY_CSV) || x->fmt == BB_FMT_CSV) &&
                    (x->fmt != BB_FMT_LOAD_TEXT || !(d->caps & BB_CAP_COPY_TEXT))
                         : !can;
            if (!good && bad++ == 0)
                snprintf(first, sizeof first, "engine %s, format %d: %s", d->name, (int)fmts[f], x ? x->name : "none");
        }
    char what[256];
    snprintf(what, sizeof what,
             "a file's stream method on each engine and format (%d): offered, a stream, COPY CSV for CSV where there "
             "is one, COPY before LOAD DATA, none where the engine cannot stream%s%s",
             checked, bad ? "; first wrong: " : "", first);
    ok(checked >= 12 && bad == 0, what);
    return tap_done();
}
