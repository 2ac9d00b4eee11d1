/* driver_settings.c — what the server drivers share: their settings object into result text, and
 * whether a server runs on this host. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "server_sql.h"
#include "../base/proc.h"

void driver_settings_text(json_t *set, bb_server_info *out)
{
    char *js = json_dumps(set, JSON_COMPACT | JSON_PRESERVE_ORDER);
    snprintf(out->settings, sizeof out->settings, "%s", js ? js : "");
    free(js);
    json_decref(set);
}

int driver_local_parent(int pid, const char *comm)
{
    int ppid = 0;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p || sscanf(p + 2, "%*c %d", &ppid) != 1) return 0;
    snprintf(path, sizeof path, "/proc/%d/comm", ppid);
    if (!(f = fopen(path, "r"))) return 0;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strncmp(buf, comm, strlen(comm)) == 0 ? ppid : 0;
}

int driver_local_pidfile(const char *path, const char *const *comms)
{
    char proc[64], buf[64] = "";
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int pid = fscanf(f, "%d", &pid) == 1 ? pid : 0;
    fclose(f);
    snprintf(proc, sizeof proc, "/proc/%d/comm", pid);
    if (pid <= 0 || !(f = fopen(proc, "r"))) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    for (; *comms; comms++)
        if (strncmp(buf, *comms, strlen(*comms)) == 0) return pid;
    return 0;
}

int64_t driver_read_bytes(int pid) { return bb_proc_number(pid, "io", "read_bytes: %lld"); }
