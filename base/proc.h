/* proc.h — one figure of a process from /proc, for the drivers (a backend's reads) and the
 * run wing (a process's memory), which may not call each other. */
#ifndef BB_PROC_H
#define BB_PROC_H

#include <stdint.h>

/* The number on the first line of /proc/PID/FILE that the scanf format fmt ("Pss: %lld kB")
 * reads; -1 when the file or the line is not there (a process gone, or not ours to read). */
int64_t bb_proc_number(int pid, const char *file, const char *fmt);

#endif
