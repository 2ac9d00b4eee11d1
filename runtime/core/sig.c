/* sig.c — the one place SIGINT/SIGTERM are caught (see sig.h). */
#include "sig.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    if (caught) _exit(128 + sig); /* a second Ctrl-C: leave at once */
    caught = sig;
}

void sig_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int sig_caught(void) { return caught; }
