/* sig.h — SIGINT and SIGTERM for every command: the first asks the work to stop (each
 * command turns it into a partial result and exit 128+signal), a second leaves at once. */
#ifndef BB_SIG_H
#define BB_SIG_H

/* Installs the handlers; call once, before any work. */
void sig_install(void);
/* 0, or the signal that asked us to stop. Async-signal-safe to read, cheap to poll. */
int sig_caught(void);

#endif
