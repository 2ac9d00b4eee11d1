/* test_invariants.c — the invariants gen.h, pool.h, method.h, load.h and driver.h's contracts
 * state are assert()ed: each
 * case breaks one in a child process, which must die of SIGABRT (an assert), not carry on
 * (exit 0) nor hang (SIGALRM after 5 s). Asserts are on in every build (no NDEBUG); the
 * sanitized pass runs this too. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../drivers/db.h"
#include "../../drivers/driver.h"
#include "../../runtime/core/load/load_priv.h"
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

/* load.h: a file's chunks are ranges in order, each byte loaded by one statement at most */
static void overlapping_chunks(void)
{
    load_job j = { 0 };
    load_add_chunk(&j, (chunk){ .file = 0, .start = 0, .end = 100 });
    load_add_chunk(&j, (chunk){ .file = 0, .start = 50, .end = 200 });
}
static void chunk_ending_before_it_starts(void)
{
    load_job j = { 0 };
    load_add_chunk(&j, (chunk){ .file = 0, .start = 100, .end = 50 });
}

/* driver.h: an engine whose stream breaks its contract (a failure without a message; a close
 * that failed yet says rows committed). The null engine's operations, but for the one broken. */
static int quiet_open(bb_conn *c, const bb_stream_spec *spec, bb_err *err)
{
    (void)c, (void)spec, (void)err;
    return -1;
}
static int failed_close_with_rows(bb_conn *c, int64_t *rows, bb_err *err)
{
    (void)c;
    *rows = 5;
    return bb_errf(err, "closing failed");
}
static int no_more(void *ud, const char **data, size_t *len)
{
    (void)ud, (void)data, (void)len;
    return 0;
}
static void stream_of(int (*open)(bb_conn *, const bb_stream_spec *, bb_err *), int (*close)(bb_conn *, int64_t *, bb_err *))
{
    bb_driver d = *bb_driver_find("null");
    if (open) d.stream_open = open;
    if (close) d.stream_close = close;
    bb_target *t;
    bb_conn *c;
    bb_err err = { 0 };
    bb_stream_spec spec = { .table = "t", .columns = "", .format = BB_FMT_COPY };
    int64_t rows;
    if (d.target_open(NULL, &t, &err) < 0 || d.connect(t, &c, &err) < 0) return;
    db_stream_pull(&d, c, &spec, no_more, NULL, &rows, &err);
}
static void stream_failing_unsaid(void) { stream_of(quiet_open, NULL); }
static void stream_failing_with_rows(void) { stream_of(NULL, failed_close_with_rows); }
static void stream_keeping(void) { stream_of(NULL, NULL); }

int main(void)
{
    ok(aborts(row_of_unfinished_table), "gen: a row of a table gen_finish has not sized is refused");
    ok(aborts(column_after_finish), "gen: no column is added to a finished (shared, read-only) table");
    ok(aborts(row_of_another_table), "gen: a row is filled only for the table it was made for");
    ok(aborts(go_before_ready), "pool: its life runs in order (pool_go before pool_ready is refused)");
    ok(aborts(empty_claim), "pool: a claim is a non-empty range");
    ok(aborts(counted_while_committing), "method: rows count as committed only once no commit is under way");
    ok(aborts(second_stream), "method: a session has one stream open at a time");
    ok(aborts(overlapping_chunks), "load: a file's chunks do not overlap (each byte is loaded once at most)");
    ok(aborts(chunk_ending_before_it_starts), "load: a chunk is a range of its file");
    ok(aborts(stream_failing_unsaid), "driver: an operation that fails says why (a message in err)");
    ok(aborts(stream_failing_with_rows), "driver: a stream whose close failed committed none (0) or cannot say (-1)");
    ok(!aborts(stream_keeping), "driver: ... and one that keeps the contract goes through");
    return tap_done();
}
