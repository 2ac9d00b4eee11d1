/* progress.c — interval lines, their samples, and a progress bar with ETA on stderr (see progress.h). */
#include "progress.h"
#include "../../../base/clock.h"

#include <string.h>
#include <unistd.h>

void progress_init(progress *p, const bb_pool *pl, double interval, int want_bar, int64_t total, int by_bytes)
{
    memset(p, 0, sizeof *p);
    p->out = stderr;
    p->interval = interval;
    p->total = total;
    p->by_bytes = by_bytes;
    p->bar = (want_bar < 0 ? isatty(STDERR_FILENO) : want_bar) && total > 0 && interval <= 0;
    p->last_line_ns = p->last_bar_ns = pl->start_ns;
}

static void human(char *out, size_t n, double v)
{
    if (v >= 1e6) snprintf(out, n, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(out, n, "%.1fk", v / 1e3);
    else snprintf(out, n, "%.0f", v);
}

void progress_record(progress *p, bb_series *out, double every,
                     int (*server)(void *ud, double *cpu_s, int64_t *log_pos), void *server_ud)
{
    p->series = out;
    p->every = p->interval > 0 ? p->interval : every;
    p->server = server;
    p->server_ud = server_ud;
    p->srv_cpu = -1;
    p->srv_log = -1;
    if (server) server(server_ud, &p->srv_cpu, &p->srv_log);
    if (p->srv_cpu < 0 && p->srv_log < 0) p->server = NULL; /* the engine cannot tell: no need to ask again */
    out->server = p->server != NULL;
}

static double ms_or_null(double ns) { return ns < 0 ? -1 : ns / 1e6; }

/* The server's CPU and log bytes since the last sample (-1 where unknown or reset). */
static void server_delta(progress *p, bb_interval *iv)
{
    double cpu = -1;
    int64_t log = -1;
    iv->server_cpu_s = -1;
    iv->log_bytes = -1;
    if (!p->server) return;
    p->server(p->server_ud, &cpu, &log);
    if (cpu >= 0 && p->srv_cpu >= 0 && cpu >= p->srv_cpu) iv->server_cpu_s = cpu - p->srv_cpu;
    if (log >= 0 && p->srv_log >= 0 && log >= p->srv_log) iv->log_bytes = log - p->srv_log;
    p->srv_cpu = cpu;
    p->srv_log = log;
}

/* One interval: the line (when printed) and the sample (when recorded) from one snapshot.
 * step: the grid's, in ns; the line is labelled with the grid point it is due at, since the
 * tick that prints it comes up to a poll (50 ms) late, more on a busy host. */
static void interval_tick(progress *p, const bb_pool *pl, uint64_t now, uint64_t step)
{
    uint64_t elapsed = now - pl->start_ns;
    stats_take(pl->stats, pl->threads, &p->now);
    stats_diff(&p->now, &p->prev, &p->delta);
    double dt = (double)(now - p->last_line_ns) / 1e9;
    double p95 = stats_quantile(&p->delta, 0.95);
    if (p->interval > 0) {
        /* whole seconds as sysbench prints them; tenths when lines come faster than one a second */
        fprintf(p->out, "[ %.*fs ] thds: %d rows/s: %.1f events/s: %.1f MB/s: %.2f p95 ms: %.3f err/s: %.2f\n",
                p->interval < 1 ? 1 : 0, (double)(elapsed - elapsed % step) / 1e9, pl->threads,
                (double)p->delta.rows / dt, (double)p->delta.events / dt, (double)p->delta.bytes / 1e6 / dt,
                p95 < 0 ? 0 : p95 / 1e6, (double)p->delta.errors / dt);
        fflush(p->out);
    }
    if (p->series) {
        bb_interval iv = { .t = (double)(now - pl->start_ns) / 1e9,
                           .rows = (int64_t)p->delta.rows,
                           .events = (int64_t)p->delta.events,
                           .errors = (int64_t)p->delta.errors,
                           .rows_per_s = (double)p->delta.rows / dt,
                           .events_per_s = (double)p->delta.events / dt,
                           .mb_per_s = (double)p->delta.bytes / 1e6 / dt,
                           .p50_ms = ms_or_null(stats_quantile(&p->delta, 0.50)),
                           .p95_ms = ms_or_null(p95),
                           .p99_ms = ms_or_null(stats_quantile(&p->delta, 0.99)) };
        server_delta(p, &iv);
        series_add(p->series, &iv);
    }
    p->prev = p->now;
    p->last_line_ns = now;
}

static void bar_line(progress *p, const bb_pool *pl, uint64_t now)
{
    int64_t done, rows = -1;
    if (p->by_bytes) {
        stats_take(pl->stats, pl->threads, &p->now);
        done = (int64_t)p->now.bytes;
        rows = (int64_t)p->now.rows;
    } else {
        done = __atomic_load_n(&pl->next, __ATOMIC_RELAXED) - pl->first;
    }
    if (done > p->total) done = p->total;
    double frac = (double)done / (double)p->total, el = (double)(now - pl->start_ns) / 1e9;
    char rate[32], eta[32] = "--:--";
    if (frac > 0.001) {
        int left = (int)(el / frac - el);
        snprintf(eta, sizeof eta, "%d:%02d", left / 60, left % 60);
    }
    char bar[31];
    for (int i = 0; i < 30; i++) bar[i] = i < (int)(frac * 30) ? '#' : '.';
    bar[30] = 0;
    if (p->by_bytes)
        fprintf(p->out, "\r[%s] %3.0f%% %.1f/%.1f MB %.1f MB/s %lld rows ETA %s ", bar, frac * 100, (double)done / 1e6,
                (double)p->total / 1e6, el > 0 ? (double)done / 1e6 / el : 0, (long long)rows, eta);
    else {
        human(rate, sizeof rate, el > 0 ? (double)done / el : 0);
        fprintf(p->out, "\r[%s] %3.0f%% %lld/%lld %s/s ETA %s ", bar, frac * 100, (long long)done, (long long)p->total,
                rate, eta);
    }
    fflush(p->out);
    p->last_bar_ns = now;
}

void progress_tick(progress *p, const bb_pool *pl)
{
    uint64_t now = bb_now_ns();
    double every = p->interval > 0 ? p->interval : p->series ? p->every : 0;
    if (every > 0) { /* due on a fixed grid from the start: samples of several runs line up, none drifts */
        uint64_t step = every * 1e9 >= 1 ? (uint64_t)(every * 1e9) : 1;
        if (now >= p->last_line_ns - (p->last_line_ns - pl->start_ns) % step + step) interval_tick(p, pl, now, step);
    }
    if (p->bar && now - p->last_bar_ns >= 250000000u) bar_line(p, pl, now);
}

void progress_done(progress *p)
{
    if (p->bar && p->last_bar_ns) {
        fprintf(p->out, "\r%100s\r", "");
        fflush(p->out);
    }
}
