/* sysmon.h — what this host is, and what a local process tree costs (from /proc). */
#ifndef BB_SYSMON_H
#define BB_SYSMON_H

#include <stdint.h>

typedef struct sysmon_host {
    char cpu[128];
    int cores;
    int64_t memory_bytes;
    char kernel[160];
    /* 1 when this VM hands freed memory back to its host (virtio-balloon's free page
     * reporting): the kernel's next use of such a page faults on the host, so system CPU
     * varies run to run; 0 when it does not, -1 when that cannot be read */
    int free_page_reporting;
} sysmon_host;

void sysmon_host_info(sysmon_host *h);
/* CPU seconds (user+system) this process has used so far. */
double sysmon_self_cpu(void);
/* CPU seconds the calling thread has used so far. */
double sysmon_thread_cpu(void);
/* CPU seconds (including reaped children's) and, unless rss_bytes is NULL, memory of pid
 * and its children; -1 when pid is gone. The memory is PSS when there are children (their
 * shared memory counted once), RSS for a process alone: PSS is the costly part, the
 * kernel walking every page table of the tree to sum it (15 ms of CPU for a MariaDB with
 * 700 MB resident), where the CPU figures and RSS are a few counters. */
int sysmon_tree(int pid, double *cpu_s, int64_t *rss_bytes);
/* The memory limit of the cgroup process pid runs in (v2's memory.max, v1's
 * memory.limit_in_bytes; the smallest of it and its parents'), page cache included: what a
 * server started by `contrib/dbctl --memory` is held to. -1 when it has none or it cannot be
 * read (a remote server: pid 0). */
int64_t sysmon_memory_limit(int pid);

#endif
