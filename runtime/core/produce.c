/* produce.c — the producer side of a stream and its hand-over ring. */
#include "produce.h"
#include "../../base/buf.h"
#include "../../base/clock.h"

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
        /* hand over: wait for a free slot, swap buffers (no copy) */
        pthread_mutex_lock(&p->mu);
        while (p->count == PRODUCE_SLOTS && !p->quit) pthread_cond_wait(&p->cv, &p->mu);
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
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        rows = 0;
    }
    pthread_mutex_lock(&p->mu);
    p->done = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
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
    pthread_cond_init(&p->cv, NULL);
    return pthread_create(&p->thread, NULL, produce_main, p) == 0 ? 0 : -1;
}

produce_buf *produce_take(producer *p)
{
    pthread_mutex_lock(&p->mu);
    while (p->count == 0 && !p->done) pthread_cond_wait(&p->cv, &p->mu);
    produce_buf *b = p->count ? &p->slot[p->head] : NULL;
    pthread_mutex_unlock(&p->mu);
    return b;
}

void produce_release(producer *p)
{
    pthread_mutex_lock(&p->mu);
    p->head = (p->head + 1) % PRODUCE_SLOTS;
    p->count--;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void produce_stop(producer *p)
{
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    for (int i = 0; i < PRODUCE_SLOTS; i++) bb_buf_free(&p->slot[i].data);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
}
