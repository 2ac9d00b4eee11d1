/* scale_model.c — the forecast of a load's time from its measured part (see scale_model.h and
 * docs/scale.md, which gives the figures the constants here come from). */
#include "scale_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../../base/buf.h"

/* A window of the growth: samples merged until it holds this many rows (and a second), so a
 * rate is not read off one claim of 10,000 rows arriving or not. */
#define WIN_MIN_ROWS 30000
#define WIN_MIN_SHARE 0.03
/* A window reads from storage once it reads this many blocks a row: the knee. */
#define KNEE_READS 0.05
/* Without read counters, the knee is where a row's time passes this multiple of a. */
#define KNEE_SLOWER 1.6
/* Before the knee is measured, the share of a cgroup's memory (past the server's own cache) the
 * indexes' pages keep in the page cache: the rest holds the heap being written, the log and the
 * server's processes (fitted: PostgreSQL in 160 MB with 32 MB of shared_buffers outgrew it
 * at 116 MB of indexes, docs/scale.md). */
#define CACHE_SHARE 0.6
/* Fits whose squared error is within this factor of the best one's stay in the interval. */
#define FIT_SLACK 1.5
/* ... and a law with k at its bound is taken when within this factor (the prior k has) */
#define KMAX_SLACK 3.0
/* The interval's floor: the time left may run this much shorter or longer than the fit says:
 * the machine's own drift over a load, and what grows late without a knee of its own (InnoDB
 * flushing as its redo log fills); longer more than shorter. On the shared machine these were
 * set on (docs/scale.md) the time left ran from 2% shorter to 37% longer than forecast, and
 * 56% longer once the machine's load doubled during the load: no floor holds that. */
#define FLOOR_LO 0.85
#define FLOOR_HI 1.30
#define STEPS 200
#define MAX_FITS 4096

typedef struct win {
    double n0, n1, dn, dt, tr; /* rows at its ends, rows, seconds, seconds a row */
    double r;                  /* storage reads a row, -1 unknown */
    double idx;                /* index bytes at its end, -1 unknown */
} win;

typedef struct law {
    double k, nm, p;
} law;

typedef struct fitset {
    law best;
    double best_sse;
    law *ok; /* within FIT_SLACK of the best */
    int nok;
} fitset;

static double law_at(const law *l, double n) { return l->nm < 0 || n <= l->nm ? 0 : l->k * (1 - pow(l->nm / n, l->p)); }

/* The rows a sample's count moves by at least (the smallest step seen): a stream counts its rows
 * a claim at a time, and a window of one or two claims says little of a rate. */
static double count_step(const bb_growth *g)
{
    double step = 0;
    for (int i = 1; i < g->n; i++) {
        double d = (double)(g->v[i].table_rows - g->v[i - 1].table_rows);
        if (d > 0 && (step == 0 || d < step)) step = d;
    }
    return step;
}

/* Windows of g's samples into w (room for g->n); how many. */
static int windows_of(const bb_growth *g, win *w)
{
    int nw = 0;
    double least = 4 * count_step(g);
    if (least < WIN_MIN_ROWS) least = WIN_MIN_ROWS;
    for (int i = 0; i + 1 < g->n;) {
        const bb_growth_point *a = &g->v[i];
        int j = i + 1;
        for (; j + 1 < g->n; j++) {
            double dn = (double)(g->v[j].table_rows - a->table_rows), need = WIN_MIN_SHARE * g->v[j].table_rows;
            if (dn >= (need > least ? need : least) && g->v[j].t - a->t >= 1) break;
        }
        const bb_growth_point *b = &g->v[j];
        double dn = (double)(b->table_rows - a->table_rows);
        if (dn > 0)
            w[nw++] = (win){ .n0 = (double)a->table_rows,
                             .n1 = (double)b->table_rows,
                             .dn = dn,
                             .dt = b->t - a->t,
                             .tr = (b->t - a->t) / dn,
                             .r = a->reads >= 0 && b->reads >= a->reads ? (double)(b->reads - a->reads) / dn : -1,
                             .idx = (double)b->index_bytes };
        i = j;
    }
    return nw;
}

/* Whether every window counts reads. */
static int all_reads(const win *w, int nw)
{
    for (int i = 0; i < nw; i++)
        if (w[i].r < 0) return 0;
    return nw > 0;
}

/* Seconds a row costs over windows [from, to) whose rows begin past skip rows. */
static double cost_over(const win *w, int from, int to, double skip)
{
    double t = 0, n = 0;
    for (int i = from; i < to; i++)
        if (w[i].n0 >= skip) t += w[i].dt, n += w[i].dn;
    if (n > 0) return t / n;
    for (int i = from; i < to; i++) t += w[i].dt, n += w[i].dn;
    return n > 0 ? t / n : 0;
}

/* a: a row's cost just before the knee, over the last 30% of the rows before it (the first 5%
 * of the measured rows left out: connecting, the first pages). */
static double row_cost(const win *w, int knee, double n1)
{
    if (knee <= 0) return knee == 0 ? 0 : cost_over(w, 0, 0, 0);
    double first = w[0].n0, last = w[knee - 1].n1, skip = 0.05 * n1;
    if (first < skip && skip < last) first = skip;
    return cost_over(w, 0, knee, first + 0.7 * (last - first));
}

/* The first window of the knee: reads past KNEE_READS a row in it and the next (by_reads),
 * else a row's time past KNEE_SLOWER times what it cost before; nw when none. */
static int knee_of(const win *w, int nw, int by_reads, double n1)
{
    for (int i = 0; i < nw; i++) {
        if (by_reads) {
            if (w[i].r >= KNEE_READS && (i + 1 == nw || w[i + 1].r >= KNEE_READS)) return i;
            continue;
        }
        if (w[i].n0 < 0.1 * n1 || i < 2) continue;
        double a = cost_over(w, 0, i, 0.05 * n1);
        int slower = a > 0;
        for (int j = i; j < nw && j < i + 3; j++) slower &= w[j].tr >= KNEE_SLOWER * a; /* not one slow window */
        if (slower) return i;
    }
    return nw;
}

static const double P_GRID[] = { 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 3.5, 4, 5 };
#define NP ((int)(sizeof P_GRID / sizeof P_GRID[0]))
#define NK 9
#define NM 60

/* The squared error, weighted by rows, of law l against y over windows [from, nw). */
static double sse_of(const win *w, const double *y, int from, int nw, const law *l)
{
    double s = 0;
    for (int i = from; i < nw; i++) {
        double e = y[i] - law_at(l, (w[i].n0 + w[i].n1) / 2);
        s += w[i].dn * e * e;
    }
    return s;
}

/* The grid's law number i (k, p, n_M), n_M up to nhi. */
static law law_grid(int i, double kmin, double kmax, double nhi)
{
    int ik = i / (NP * NM), ip = i / NM % NP, im = i % NM;
    return (law){ .k = kmin + (kmax - kmin) * ik / (NK - 1), .p = P_GRID[ip], .nm = nhi * im / NM };
}

/* The law fitted to y over windows [from, nw) on the grid, and every law within FIT_SLACK of
 * its error (the interval's); fs->ok is the caller's to free. With at_kmax, the law is the
 * best of those whose k is kmax (the reads a row where they end: one an index in random order)
 * when one of them is within FIT_SLACK of the best of all: a measured part that ends soon past
 * the knee hardly tells k from p, and a k below one a random index underestimates the end. */
static void fit_law(const win *w, const double *y, int from, int nw, double kmin, double kmax, int at_kmax,
                    fitset *fs)
{
    double nhi = (w[nw - 1].n0 + w[nw - 1].n1) / 2, top = INFINITY;
    int total = NK * NP * NM;
    double *e = bb_xmalloc(sizeof *e * (size_t)total);
    law at_top = { 0, 0, 0 };
    fs->best_sse = INFINITY;
    for (int i = 0; i < total; i++) {
        law l = law_grid(i, kmin, kmax, nhi);
        e[i] = sse_of(w, y, from, nw, &l);
        if (e[i] < fs->best_sse) fs->best_sse = e[i], fs->best = l;
        if (i / (NP * NM) == NK - 1 && e[i] < top) top = e[i], at_top = l;
    }
    if (at_kmax && top <= fs->best_sse * KMAX_SLACK + 1e-18) fs->best = at_top;
    fs->ok = bb_xmalloc(sizeof *fs->ok * MAX_FITS);
    fs->nok = 0;
    for (int i = 0; i < total && fs->nok < MAX_FITS; i++)
        if (e[i] <= fs->best_sse * FIT_SLACK + 1e-18) fs->ok[fs->nok++] = law_grid(i, kmin, kmax, nhi);
    free(e);
}

/* t1 plus the seconds from n1 rows to n at a + s·law a row. */
static double time_to(double t1, double n1, double n, double a, double s, const law *l)
{
    double T = t1, dn = (n - n1) / STEPS;
    for (int i = 0; i < STEPS && dn > 0; i++) T += dn * (a + s * law_at(l, n1 + (i + 0.5) * dn));
    return T;
}

/* The q-quantile of v weighted by wt (n values). */
static double wquantile(const double *v, const double *wt, int n, double q)
{
    int *ix = bb_xmalloc(sizeof *ix * (size_t)(n ? n : 1));
    double tot = 0, c = 0, out = n ? v[0] : 0;
    for (int i = 0; i < n; i++) ix[i] = i, tot += wt[i];
    for (int i = 1; i < n; i++) /* insertion sort: a few dozen windows */
        for (int j = i; j > 0 && v[ix[j]] < v[ix[j - 1]]; j--) {
            int x = ix[j];
            ix[j] = ix[j - 1], ix[j - 1] = x;
        }
    for (int i = 0; i < n; i++) {
        c += wt[ix[i]];
        out = v[ix[i]];
        if (c >= q * tot) break;
    }
    free(ix);
    return out;
}

/* s, a read's seconds, from the windows past the knee that read at least a fifth of k a row
 * (their time above a over their reads), and its 20th and 80th percentiles over them. */
static double read_cost(const win *w, int from, int nw, double a, double k, double *lo, double *hi)
{
    double num = 0, den = 0, *v = bb_xmalloc(sizeof *v * (size_t)nw), *wt = bb_xmalloc(sizeof *wt * (size_t)nw);
    int n = 0;
    for (int pass = 0; pass < 2 && !n; pass++)
        for (int i = from; i < nw; i++) {
            if (w[i].r <= 0 || (pass == 0 && w[i].r < 0.2 * k)) continue;
            num += w[i].dn * (w[i].tr - a) * w[i].r;
            den += w[i].dn * w[i].r * w[i].r;
            v[n] = (w[i].tr - a) / w[i].r;
            wt[n++] = w[i].dn;
        }
    double s = den > 0 ? num / den : 0;
    *lo = n ? wquantile(v, wt, n, 0.2) : s;
    *hi = n ? wquantile(v, wt, n, 0.8) : s;
    free(v);
    free(wt);
    if (s < 0) s = 0;
    if (*lo > s) *lo = s;
    if (*hi < s) *hi = s;
    return s;
}

/* The time path's s band: each window's time above a against the fitted law's (s is 1). */
static void time_band(const win *w, int from, int nw, double a, const law *l, double *lo, double *hi)
{
    double *v = bb_xmalloc(sizeof *v * (size_t)nw), *wt = bb_xmalloc(sizeof *wt * (size_t)nw);
    int n = 0;
    for (int i = from; i < nw; i++) {
        double m = law_at(l, (w[i].n0 + w[i].n1) / 2);
        if (m < 0.2 * l->k || m <= 0) continue;
        v[n] = (w[i].tr - a) / m;
        wt[n++] = w[i].dn;
    }
    *lo = n ? wquantile(v, wt, n, 0.2) : 1;
    *hi = n ? wquantile(v, wt, n, 0.8) : 1;
    if (*lo > 1) *lo = 1;
    if (*hi < 1) *hi = 1;
    free(v);
    free(wt);
}

/* The interval's floor (FLOOR_LO, FLOOR_HI of the time left) and its level. */
static void interval_floor(scale_fit *f)
{
    double left = f->seconds - f->spent_s;
    if (f->lo > f->spent_s + FLOOR_LO * left) f->lo = f->spent_s + FLOOR_LO * left;
    if (f->hi < f->spent_s + FLOOR_HI * left) f->hi = f->spent_s + FLOOR_HI * left;
    if (f->lo < f->spent_s) f->lo = f->spent_s;
    f->level = SCALE_LEVEL;
}

/* Past the knee: the law fitted from window knee on (y: reads a row, or seconds above a),
 * the seconds to N and their interval over the laws that fit about as well. 0, or -1 when the
 * part past the knee is too short to fit (fewer than 3 windows, or reads still under 0.3 k). */
static int fit_outgrown(const win *w, int knee, int nw, int indexes, scale_fit *f)
{
    if (nw - knee < 3) return -1;
    double *y = bb_xmalloc(sizeof *y * (size_t)nw), ymax = 0;
    for (int i = knee; i < nw; i++) {
        y[i] = f->by_reads ? w[i].r : w[i].tr - f->row_s;
        if (y[i] > ymax) ymax = y[i];
    }
    double kmax = ymax * 3, kmin = ymax;
    if (f->by_reads) { /* one read a row for each index whose keys come in random order: the primary key's do not */
        int cap = indexes > 1 && ymax <= (indexes - 1) * 1.05 ? indexes - 1 : indexes > 0 && ymax <= indexes * 1.05 ? indexes : 0;
        kmax = cap ? cap : ymax * 1.5;
        kmin = ymax < kmax ? (ymax > 0.5 ? ymax : 0.5) : kmax;
    }
    if (ymax <= 0 || (f->by_reads && ymax < 0.3 * kmax)) {
        free(y);
        return -1;
    }
    fitset fs;
    fit_law(w, y, knee, nw, kmin, kmax, f->by_reads && indexes > 1, &fs);
    double slo = 1, shi = 1, n1 = (double)f->measured_rows, N = (double)f->rows;
    f->read_s = 1;
    if (f->by_reads) f->read_s = read_cost(w, knee, nw, f->row_s, fs.best.k, &slo, &shi);
    else time_band(w, knee, nw, f->row_s, &fs.best, &slo, &shi);
    f->read_measured = 1;
    f->k = fs.best.k, f->p = fs.best.p, f->knee_rows = fs.best.nm;
    f->seconds = time_to(f->spent_s, n1, N, f->row_s, f->read_s, &fs.best);
    f->lo = f->hi = f->seconds;
    double s_lo = f->by_reads ? slo : slo, s_hi = f->by_reads ? shi : shi;
    for (int i = 0; i < fs.nok; i++) {
        double lo = time_to(f->spent_s, n1, N, f->row_s, s_lo, &fs.ok[i]);
        double hi = time_to(f->spent_s, n1, N, f->row_s, s_hi, &fs.ok[i]);
        if (lo < f->lo) f->lo = lo;
        if (hi > f->hi) f->hi = hi;
    }
    free(fs.ok);
    free(y);
    f->state = SCALE_OUTGROWN;
    return 0;
}

/* The memory the indexes' pages may be cached in, from the server's cache setting and its
 * cgroup (or this host's memory); -1 when nothing says. */
static double memory_of(const bb_growth *g, const scale_prior *pr)
{
    double cache = g->cache_bytes > 0 ? (double)g->cache_bytes : 0;
    if (g->cache_direct && cache > 0) return cache; /* O_DIRECT: its own cache and nothing else */
    double lim = pr && pr->memory_limit > 0 ? (double)pr->memory_limit
        : pr && pr->host_memory > 0        ? (double)pr->host_memory
                                           : -1;
    if (lim <= cache) return cache > 0 ? cache : -1;
    return cache + CACHE_SHARE * (lim - cache);
}

/* Before the knee (or just past it, too little to fit): a row costs a until n_M, where the
 * memory runs out (observed at knee_rows > 0, else the memory over the index bytes a row),
 * then the law with k one read a row for each secondary index and s assumed. In memory to N
 * when n_M is past it. */
static void fit_ahead(const win *w, int nw, const bb_growth *g, const scale_prior *pr, double knee_rows, scale_fit *f)
{
    double n1 = (double)f->measured_rows, N = (double)f->rows, M = memory_of(g, pr);
    f->memory_bytes = M;
    double nm = knee_rows > 0 ? knee_rows : M > 0 && f->index_bytes_per_row > 0 ? M / f->index_bytes_per_row : -1;
    double spread = knee_rows > 0 ? 0.2 : 0.5; /* a knee seen is known better than one from settings */
    double k = g->indexes > 1 ? g->indexes - 1 : 1;
    /* a, now: the last 30% of the measured rows' cost */
    int from = 0;
    while (from < nw - 1 && w[from].n0 < 0.7 * n1) from++;
    if (knee_rows <= 0) f->row_s = cost_over(w, from, nw, 0);
    law c = { k, nm, 2 }, lo = { k, nm * (1 + spread), 3 }, hi = { k, nm * (1 - spread), 1 };
    f->k = k, f->p = 2, f->knee_rows = nm, f->read_s = SCALE_READ_S;
    if (nm < 0) { /* the memory is not known: in memory as far as anyone can tell, the worst a knee now */
        f->state = SCALE_IN_MEMORY;
        f->seconds = time_to(f->spent_s, n1, N, f->row_s, 0, &c);
        hi.nm = n1;
        f->lo = f->seconds;
        f->hi = time_to(f->spent_s, n1, N, f->row_s, SCALE_READ_S, &hi);
        return;
    }
    f->state = nm >= N ? SCALE_IN_MEMORY : SCALE_AHEAD;
    f->seconds = time_to(f->spent_s, n1, N, f->row_s, SCALE_READ_S, &c);
    f->lo = time_to(f->spent_s, n1, N, f->row_s, SCALE_READ_LO_S, &lo);
    f->hi = time_to(f->spent_s, n1, N, f->row_s, f->state == SCALE_AHEAD ? SCALE_READ_HI_S : SCALE_READ_S, &hi);
}

/* The rates and reads a row at the measured part's end and at N. */
static void fit_ends(scale_fit *f)
{
    double now = scale_row_s_at(f, (double)f->measured_rows), end = scale_row_s_at(f, (double)f->rows);
    f->rows_per_s_now = now > 0 ? 1 / now : -1;
    f->rows_per_s_end = end > 0 ? 1 / end : -1;
    law l = { f->k, f->knee_rows, f->p };
    f->reads_per_row_now = f->by_reads ? law_at(&l, (double)f->measured_rows) : -1;
    f->reads_per_row_end = f->by_reads ? law_at(&l, (double)f->rows) : -1;
}

int scale_forecast(const bb_growth *g, int64_t rows, const scale_prior *pr, scale_fit *f)
{
    memset(f, 0, sizeof *f);
    if (g->n < 2) return -1;
    win *w = bb_xmalloc(sizeof *w * (size_t)g->n);
    int nw = windows_of(g, w), few = nw < 3;
    if (few) { /* too few rows for a law: the whole as one window, the knee from the memory */
        const bb_growth_point *a = &g->v[0], *b = &g->v[g->n - 1];
        double dn = (double)(b->table_rows - a->table_rows);
        w[0] = (win){ .n0 = (double)a->table_rows, .n1 = (double)b->table_rows, .dn = dn, .dt = b->t - a->t,
                      .tr = dn > 0 ? (b->t - a->t) / dn : 0, .r = -1, .idx = (double)b->index_bytes };
        nw = 1;
        if (dn <= 0) {
            free(w);
            return -1;
        }
    }
    const bb_growth_point *last = &g->v[g->n - 1];
    f->rows = rows;
    f->measured_rows = last->table_rows;
    f->spent_s = last->t;
    double n1 = (double)last->table_rows;
    f->index_bytes_per_row = last->index_bytes > 0 && n1 > 0 ? (double)last->index_bytes / n1 : -1;
    f->heap_bytes_per_row = last->heap_bytes > 0 && n1 > 0 ? (double)last->heap_bytes / n1 : -1;
    f->by_reads = all_reads(w, nw);
    int knee = few ? nw : knee_of(w, nw, f->by_reads, n1);
    f->row_s = row_cost(w, knee, n1);
    if (rows <= f->measured_rows) { /* it has all been measured */
        f->state = knee < nw ? SCALE_OUTGROWN : SCALE_IN_MEMORY;
        f->seconds = f->lo = f->hi = f->spent_s;
    } else if (knee >= nw || fit_outgrown(w, knee, nw, g->indexes, f) < 0) {
        fit_ahead(w, nw, g, pr, knee < nw ? w[knee].n0 : -1, f);
    }
    interval_floor(f);
    fit_ends(f);
    free(w);
    return 0;
}

double scale_row_s_at(const scale_fit *f, double n)
{
    law l = { f->k, f->knee_rows, f->p };
    if (f->state == SCALE_IN_MEMORY && f->knee_rows < 0) return f->row_s;
    return f->row_s + f->read_s * law_at(&l, n);
}

const char *scale_state_name(scale_state s)
{
    return s == SCALE_IN_MEMORY ? "in-memory" : s == SCALE_AHEAD ? "outgrows-ahead" : "outgrown";
}
