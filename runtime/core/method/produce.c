/* produce.c — the producer side of a stream and its hand-over ring. A wake-up costs a
 * context switch on each side, so neither side is woken for every buffer: a producer
 * that found the ring full sleeps until PRODUCE_REFILL slots are free, a consumer that
 * found it empty until PRODUCE_REFILL buffers are ready (or a batch or the work ends);
 * then each side does several buffers in one go. And the signal goes after the unlock,
 * so the woken thread does not at once sleep again on the mutex. */
#include "produce.h"
#include "../../../base/buf.h"
#include "../../../base/clock.h"

#include <string.h>

static void *produce_main(void *arg)
{
    producer *p = arg;
    bb_buf local = { 0 };
    int64_t first = 0, left = 0, rows = 0;
    uint64_t t_claim = 0;
    for (;;) {
        if (left == 0) {
            if ((left = pool_claim(p->pool, p->claim, &first)) == 0) break;
            t_claim = bb_now_ns();
        }
        int64_t k = p->encode(p->ud, (uint64_t)first, left, &local, PRODUCE_CHUNK, &p->err);
        if (k < 0) {
            p->failed = 1;
            break;
        }
        first += k;
        left -= k;
        rows += k;
        if (local.len < PRODUCE_CHUNK && left > 0) continue;
        /* hand over: wait for room, swap buffers (no copy) */
        pthread_mutex_lock(&p->mu);
        if (p->count == PRODUCE_SLOTS) {
            p->waiting_space = 1;
            while (p->count > PRODUCE_SLOTS - PRODUCE_REFILL && !p->quit) pthread_cond_wait(&p->space, &p->mu);
            p->waiting_space = 0;
        }
        if (p->quit) {
            pthread_mutex_unlock(&p->mu);
            break;
        }
        produce_buf *b = &p->slot[(p->head + p->count) % PRODUCE_SLOTS];
        bb_buf tmp = b->data;
        b->data = local;
        local = tmp;
        local.len = 0;
        b->rows = rows;
        b->batch_end = left == 0;
        b->t_claim = t_claim;
        p->count++;
        int wake = p->waiting_ready && (p->count >= PRODUCE_REFILL || b->batch_end);
        pthread_mutex_unlock(&p->mu);
        if (wake) pthread_cond_signal(&p->ready);
        rows = 0;
    }
    pthread_mutex_lock(&p->mu);
    p->done = 1;
    pthread_mutex_unlock(&p->mu);
    pthread_cond_signal(&p->ready);
    bb_buf_free(&local);
    return NULL;
}

int produce_start(producer *p, bb_pool *pool, int64_t claim, produce_encode_fn encode, void *ud)
{
    memset(p, 0, sizeof *p);
    p->pool = pool;
    p->claim = claim;
    p->encode = encode;
    p->ud = ud;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->ready, NULL);
    pthread_cond_init(&p->space, NULL);
    return pthread_create(&p->thread, NULL, produce_main, p) == 0 ? 0 : -1;
}

produce_buf *produce_take(producer *p)
{
    pthread_mutex_lock(&p->mu);
    p->waiting_ready = 1;
    while (p->count == 0 && !p->done) pthread_cond_wait(&p->ready, &p->mu);
    p->waiting_ready = 0;
    produce_buf *b = p->count ? &p->slot[p->head] : NULL;
    pthread_mutex_unlock(&p->mu);
    return b;
}

void produce_release(producer *p)
{
    pthread_mutex_lock(&p->mu);
    p->head = (p->head + 1) % PRODUCE_SLOTS;
    p->count--;
    int wake = p->waiting_space && p->count <= PRODUCE_SLOTS - PRODUCE_REFILL;
    pthread_mutex_unlock(&p->mu);
    if (wake) pthread_cond_signal(&p->space);
}

void produce_stop(producer *p)
{
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_mutex_unlock(&p->mu);
    pthread_cond_signal(&p->space);
    pthread_join(p->thread, NULL);
    for (int i = 0; i < PRODUCE_SLOTS; i++) bb_buf_free(&p->slot[i].data);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->ready);
    pthread_cond_destroy(&p->space);
}
