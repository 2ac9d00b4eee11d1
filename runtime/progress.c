/* progress.c — interval lines (like sysbench's) and a progress bar with ETA on stderr. */
#include "progress.h"

#include <string.h>
#include <unistd.h>

void progress_init(progress *p, const bb_run *r)
{
    memset(p, 0, sizeof *p);
    p->out = stderr;
    p->interval = r->plan->report_interval;
    int tty = isatty(STDERR_FILENO);
    p->bar = (r->plan->progress < 0 ? tty : r->plan->progress) && r->limit != INT64_MAX && p->interval <= 0;
    p->last_line_ns = p->last_bar_ns = r->start_ns;
}

static void human(char *out, size_t n, double v)
{
    if (v >= 1e6) snprintf(out, n, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(out, n, "%.1fk", v / 1e3);
    else snprintf(out, n, "%.0f", v);
}

void progress_tick(progress *p, const bb_run *r)
{
    uint64_t now = bb_now_ns();
    if (p->interval > 0 && now - p->last_line_ns >= (uint64_t)(p->interval * 1e9)) {
        stats_take(r->stats, r->plan->threads, &p->now);
        stats_diff(&p->now, &p->prev, &p->delta);
        double dt = (double)(now - p->last_line_ns) / 1e9;
        double p95 = stats_quantile(&p->delta, 0.95);
        fprintf(p->out, "[ %.0fs ] thds: %d rows/s: %.1f events/s: %.1f MB/s: %.2f p95 ms: %.3f err/s: %.2f\n",
                (double)(now - r->start_ns) / 1e9, r->plan->threads, (double)p->delta.rows / dt,
                (double)p->delta.events / dt, (double)p->delta.bytes / 1e6 / dt, p95 < 0 ? 0 : p95 / 1e6,
                (double)p->delta.errors / dt);
        fflush(p->out);
        p->prev = p->now;
        p->last_line_ns = now;
    }
    if (p->bar && now - p->last_bar_ns >= 250000000u) {
        int64_t done = __atomic_load_n(&r->next, __ATOMIC_RELAXED);
        if (done > r->limit) done = r->limit;
        double frac = r->limit ? (double)done / (double)r->limit : 0, el = (double)(now - r->start_ns) / 1e9;
        char rate[32], eta[32] = "--:--";
        human(rate, sizeof rate, el > 0 ? (double)done / el : 0);
        if (frac > 0.001) {
            int left = (int)(el / frac - el);
            snprintf(eta, sizeof eta, "%d:%02d", left / 60, left % 60);
        }
        int w = 30, fill = (int)(frac * w);
        char bar[64];
        for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
        bar[w] = 0;
        fprintf(p->out, "\r[%s] %3.0f%% %lld/%lld %s/s ETA %s ", bar, frac * 100, (long long)done,
                (long long)r->limit, rate, eta);
        fflush(p->out);
        p->last_bar_ns = now;
    }
}

void progress_done(progress *p)
{
    if (p->bar && p->last_bar_ns) {
        fprintf(p->out, "\r%80s\r", "");
        fflush(p->out);
    }
}
