/* test_dbstream.c — db_stream_pull is the one entry for a stream whatever the engine's
 * transport: a push-only engine (open/write/close/abort) and a pull-only one (stream_pull)
 * take the same pieces through it and count the same rows; an abandoned stream commits
 * nothing on either. Fails if the push/pull choice leaks back to the callers. */
#include <string.h>

#include "../../drivers/db.h"
#include "tap.h"

/* a fake engine's whole state: what it holds, what committed */
static size_t got;
static int64_t committed;
static int aborted;

static int push_open(bb_conn *c, const bb_stream_spec *s, bb_err *e)
{
    (void)c, (void)s, (void)e;
    got = 0;
    return 0;
}
static int push_write(bb_conn *c, const char *p, size_t n, bb_err *e)
{
    (void)c, (void)p, (void)e;
    got += n;
    return 0;
}
static int push_close(bb_conn *c, int64_t *rows, bb_err *e)
{
    (void)c, (void)e;
    committed = *rows = (int64_t)got / 2; /* a row is "x\n" */
    return 0;
}
static void push_abort(bb_conn *c, const char *why, int64_t *rows)
{
    (void)c, (void)why;
    aborted = 1;
    *rows = 0;
}

static int pull(bb_conn *c, const bb_stream_spec *s, bb_stream_next_fn next, void *ud, int64_t *rows, bb_err *e)
{
    (void)c, (void)s, (void)e;
    const char *p;
    size_t n;
    int r;
    got = 0;
    while ((r = next(ud, &p, &n)) > 0) got += n;
    if (r < 0) {
        aborted = 1;
        *rows = 0;
        return -1;
    }
    committed = *rows = (int64_t)got / 2;
    return 0;
}

/* the source: `pieces` pieces of 3 rows, then the end (or -1 to abandon) */
typedef struct src {
    int left, end;
} src;
static int src_next(void *ud, const char **p, size_t *n)
{
    src *s = ud;
    if (s->left-- <= 0) return s->end;
    *p = "x\nx\nx\n", *n = 6;
    return 1;
}

static void run(const bb_driver *d, const char *name)
{
    printf("# %s\n", name);
    bb_stream_spec spec = { .table = "t" };
    bb_err err = { 0 };
    int64_t rows = -1;
    src s = { 4, 0 };
    committed = 0, aborted = 0;
    ok(db_stream_pull(d, NULL, &spec, src_next, &s, &rows, &err) == 0 && rows == 12 && committed == 12,
       "4 pieces of 3 rows commit 12");
    s = (src){ 2, -1 };
    committed = 0, aborted = 0, rows = -1;
    ok(db_stream_pull(d, NULL, &spec, src_next, &s, &rows, &err) == -1 && rows == 0 && committed == 0 && aborted,
       "an abandoned stream commits nothing");
}

int main(void)
{
    bb_driver pusher = { .name = "push",
                         .stream_open = push_open,
                         .stream_write = push_write,
                         .stream_close = push_close,
                         .stream_abort = push_abort };
    bb_driver puller = pusher;
    puller.name = "pull", puller.stream_pull = pull;
    run(&pusher, "push transport");
    run(&puller, "pull transport");
    return tap_done();
}
