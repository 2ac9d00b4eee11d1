/* proc.c — one figure of a process from /proc (see proc.h). */
#include "proc.h"

#include <stdio.h>

int64_t bb_proc_number(int pid, const char *file, const char *fmt)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, file);
    FILE *f = fopen(path, "r");
    long long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, fmt, &v) == 1) break;
    if (f) fclose(f);
    return v;
}
