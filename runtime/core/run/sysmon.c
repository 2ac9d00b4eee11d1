/* sysmon.c — host facts and process-tree costs, read from /proc and uname. */
#include "sysmon.h"
#include "../../../base/proc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../../../base/buf.h"

/* The first word of a small file (sysfs) into buf; 0 when there is none. */
static int read_word(const char *path, char *buf, int size)
{
    FILE *f = fopen(path, "r");
    char fmt[16];
    snprintf(fmt, sizeof fmt, "%%%ds", size - 1);
    int ok = f && fscanf(f, fmt, buf) == 1;
    if (f) fclose(f);
    return ok;
}

/* A virtio balloon that offers free page reporting (device 5, feature bit 5), with the
 * kernel's reporting order at most 10 (a larger one reports nothing). */
static int free_page_reporting(void)
{
    const char *order_at = "/sys/module/page_reporting/parameters/page_reporting_order";
    char word[80], path[300];
    if (access(order_at, F_OK) != 0) return 0; /* a kernel without it */
    if (!read_word(order_at, word, sizeof word)) return -1;
    int order = atoi(word), found = 0;
    DIR *d = opendir("/sys/bus/virtio/devices");
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        snprintf(path, sizeof path, "/sys/bus/virtio/devices/%s/device", e->d_name);
        if (!read_word(path, word, sizeof word) || strcmp(word, "0x0005") != 0) continue;
        snprintf(path, sizeof path, "/sys/bus/virtio/devices/%s/features", e->d_name);
        found = read_word(path, word, sizeof word) && strlen(word) > 5 && word[5] == '1';
    }
    if (d) closedir(d);
    return found && order <= 10;
}

void sysmon_host_info(sysmon_host *h)
{
    memset(h, 0, sizeof *h);
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ') c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(h->cpu, sizeof h->cpu, "%s", c);
            }
            break;
        }
    }
    if (f) fclose(f);
    h->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    struct sysinfo si;
    if (sysinfo(&si) == 0) h->memory_bytes = (int64_t)si.totalram * si.mem_unit;
    struct utsname u;
    if (uname(&u) == 0) snprintf(h->kernel, sizeof h->kernel, "%s %s", u.sysname, u.release);
    h->free_page_reporting = free_page_reporting();
}

double sysmon_self_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
        ru.ru_stime.tv_usec / 1e6;
}

double sysmon_thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU ticks (own and reaped children's), ppid and rss pages of one process */
static int read_stat(int pid, long long *ticks, int *ppid, long long *rss_pages)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!p) return -1;
    char state;
    long long ut, st, cut, cst, rss;
    int pp;
    if (sscanf(p + 2, "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld %lld %lld %*d %*d %*d %*d %*u %*u %lld",
               &state, &pp, &ut, &st, &cut, &cst, &rss) != 7)
        return -1;
    *ticks = ut + st + cut + cst;
    *ppid = pp;
    *rss_pages = rss;
    return 0;
}

/* Proportional set size in bytes: shared memory split among its users, so a tree's sum
 * counts PostgreSQL's shared buffers once. Falls back to RSS where smaps is unreadable. */
static long long pss_bytes(int pid, long long rss_pages)
{
    long long kb = bb_proc_number(pid, "smaps_rollup", "Pss: %lld kB");
    return kb >= 0 ? kb * 1024 : rss_pages * sysconf(_SC_PAGESIZE);
}

/* The processes of a tree as read_stat found them. */
typedef struct tree_proc {
    int pid;
    long long rss_pages;
} tree_proc;

/* Adds pid's figures to the tree's; 0, or -1 when it is gone. */
static int tree_add(tree_proc **procs, int *n, int pid, long long *ticks)
{
    long long t, rss;
    int ppid;
    if (read_stat(pid, &t, &ppid, &rss) < 0) return -1;
    *procs = bb_xrealloc(*procs, sizeof **procs * (size_t)(*n + 1));
    (*procs)[(*n)++] = (tree_proc){ pid, rss };
    *ticks += t;
    return 0;
}

int sysmon_tree(int pid, double *cpu_s, int64_t *rss_bytes)
{
    tree_proc *procs = NULL;
    int n = 0;
    long long ticks = 0;
    if (pid <= 0 || tree_add(&procs, &n, pid, &ticks) < 0) {
        free(procs);
        return -1;
    }
    /* one level of parentage is enough for postmaster and mysqld: their workers are
     * children (or threads, already in the parent's figures). The kernel lists a thread's
     * children in task/TID/children; without that file, scan /proc for them. */
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", pid, pid);
    FILE *f = fopen(path, "r");
    if (f) {
        int child;
        while (fscanf(f, "%d", &child) == 1) tree_add(&procs, &n, child, &ticks);
        fclose(f);
    } else {
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            int child = atoi(e->d_name), ppid;
            long long t, rss;
            if (child > 0 && child != pid && read_stat(child, &t, &ppid, &rss) == 0 && ppid == pid)
                tree_add(&procs, &n, child, &ticks);
        }
        if (d) closedir(d);
    }
    *cpu_s = (double)ticks / (double)sysconf(_SC_CLK_TCK);
    if (rss_bytes) {
        /* several processes (PostgreSQL): PSS, so the memory they share counts once. One
         * process (MariaDB, MySQL): RSS, which then differs from PSS only by its share of
         * the libraries it maps, not in growth, and is a counter the kernel keeps, where
         * PSS walks every page table (15 ms of the reader's CPU for a 700 MB mariadbd) */
        long long mem = 0;
        for (int i = 0; i < n; i++)
            mem += n > 1 ? pss_bytes(procs[i].pid, procs[i].rss_pages) : procs[i].rss_pages * sysconf(_SC_PAGESIZE);
        *rss_bytes = mem;
    }
    free(procs);
    return 0;
}

/* The mount point of the cgroup hierarchy (v2: "cgroup2"; v1: "cgroup" with the memory
 * controller) into mnt; 0 when none is mounted. */
static int cgroup_mount(int v2, char *mnt, size_t n)
{
    FILE *f = fopen("/proc/mounts", "r");
    char dev[256], dir[512], type[64], opts[512];
    int found = 0;
    while (f && !found && fscanf(f, "%255s %511s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
        if (v2) found = strcmp(type, "cgroup2") == 0;
        else found = strcmp(type, "cgroup") == 0 && strstr(opts, "memory") != NULL;
        if (found) snprintf(mnt, n, "%s", dir);
    }
    if (f) fclose(f);
    return found;
}

/* A limit file's value: bytes, or -1 for none ("max", or v1's page-rounded LLONG_MAX). */
static int64_t limit_file(const char *path)
{
    char word[64];
    if (!read_word(path, word, sizeof word) || strcmp(word, "max") == 0) return -1;
    long long v = atoll(word);
    return v > 0 && v < (1LL << 60) ? v : -1;
}

/* The smallest limit from dir up to the hierarchy's root mnt. */
static int64_t limit_upwards(const char *mnt, char *dir, const char *file)
{
    int64_t lim = -1;
    size_t root = strlen(mnt);
    for (;;) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        int64_t l = limit_file(path);
        if (l > 0 && (lim < 0 || l < lim)) lim = l;
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < root) break;
        *slash = 0;
    }
    return lim;
}

int64_t sysmon_memory_limit(int pid)
{
    char path[64], line[1024], mnt[512];
    snprintf(path, sizeof path, "/proc/%d/cgroup", pid);
    FILE *f = pid > 0 ? fopen(path, "r") : NULL;
    int64_t lim = -1;
    while (f && lim < 0 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c2 = 0;
        int v2 = strcmp(c1 + 1, "") == 0, v1 = 0;
        for (char *w = strtok(c1 + 1, ","); w && !v2; w = strtok(NULL, ",")) v1 |= strcmp(w, "memory") == 0;
        if (!v1 && !v2) continue;
        if (!cgroup_mount(v2, mnt, sizeof mnt)) continue;
        char dir[1100];
        snprintf(dir, sizeof dir, "%s%s", mnt, strcmp(c2 + 1, "/") ? c2 + 1 : "");
        lim = limit_upwards(mnt, dir, v2 ? "memory.max" : "memory.limit_in_bytes");
    }
    if (f) fclose(f);
    return lim;
}
