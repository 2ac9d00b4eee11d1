/* test_invariants.c — the invariants gen.h, pool.h and method.h state are assert()ed: each
 * case breaks one in a child process, which must die of SIGABRT (an assert), not carry on
 * (exit 0) nor hang (SIGALRM after 5 s). Asserts are on in every build (no NDEBUG); the
 * sanitized pass runs this too. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../drivers/driver.h"
#include "../../runtime/core/gen/gen.h"
#include "../../runtime/core/method/send.h"
#include "../../runtime/core/run/pool.h"
#include "tap.h"

static int has(void *ud, const char *key, int pos)
{
    (void)ud, (void)key;
    return pos == 1 || pos == 2;
}
static double num(void *ud, const char *key, int pos, double dflt)
{
    (void)ud, (void)key;
    return pos == 1 ? 1 : pos == 2 ? 100 : dflt;
}

static gen_table *table(const char *name, int finish)
{
    gen_reader r = { .has = has, .num = num };
    bb_err err;
    gen_table *t = gen_new(name, 1, 1700000000);
    if (gen_add(t, "id", BB_T_INT, "int", 0, &r, &err) < 0) fprintf(stderr, "%s\n", err.msg);
    if (finish) gen_finish(t);
    return t;
}

/* Runs fn in a child; whether it died of an assert (SIGABRT). */
static int aborts(void (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(5);
        freopen("/dev/null", "w", stderr); /* the assert's own message is expected */
        fn();
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void row_of_unfinished_table(void) { gen_row_new(table("t", 0)); }
static void column_after_finish(void)
{
    gen_reader r = { .has = has, .num = num };
    bb_err err;
    gen_add(table("t", 1), "late", BB_T_INT, "int", 0, &r, &err);
}
static void row_of_another_table(void) { gen_fill(table("a", 1), 0, gen_row_new(table("b", 1)), NULL); }

static int nothing(void *ud, pool_thread *t, bb_err *err)
{
    (void)ud, (void)t, (void)err;
    return 0;
}
static void go_before_ready(void)
{
    bb_pool p;
    pool_ops ops = { NULL, NULL, nothing, NULL };
    pool_start(&p, 1, 0, 10, 0, &ops);
    pool_go(&p, 0, 0);
}
static void empty_claim(void)
{
    bb_pool p;
    pool_ops ops = { NULL, NULL, nothing, NULL };
    int64_t first;
    pool_start(&p, 1, 0, 10, 0, &ops);
    pool_claim(&p, 0, &first);
}

static void counted_while_committing(void)
{
    bb_loader l = { 0 };
    mstate ms = { .ld = &l, .committing = 5 };
    send_counted(&ms, 5);
}
static void second_stream(void)
{
    const bb_driver *d = bb_driver_find("null");
    bb_plan plan = { .drv = d };
    bb_loader l = { .plan = &plan };
    bb_err err;
    if (d->target_open(NULL, &l.target, &err) < 0 || d->connect(l.target, &l.conn, &err) < 0) return;
    mstate ms;
    send_init(&ms, &l, BB_FMT_COPY, table("t", 1));
    send_stream_begin(&ms, &err);
    send_stream_begin(&ms, &err);
}

int main(void)
{
    ok(aborts(row_of_unfinished_table), "gen: a row of a table gen_finish has not sized is refused");
    ok(aborts(column_after_finish), "gen: no column is added to a finished (shared, read-only) table");
    ok(aborts(row_of_another_table), "gen: a row is filled only for the table it was made for");
    ok(aborts(go_before_ready), "pool: its life runs in order (pool_go before pool_ready is refused)");
    ok(aborts(empty_claim), "pool: a claim is a non-empty range");
    ok(aborts(counted_while_committing), "method: rows count as committed only once no commit is under way");
    ok(aborts(second_stream), "method: a session has one stream open at a time");
    return tap_done();
}
