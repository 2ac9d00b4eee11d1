/* err.h — how an error travels: a message for the user and the exit code it asks for. */
#ifndef BB_ERR_H
#define BB_ERR_H

#include <stdint.h>

/* Exit codes: every non-zero exit prints one line saying what to do about it. */
enum {
    BB_EXIT_OK = 0,
    BB_EXIT_RUNTIME = 1,   /* a script, database or I/O error */
    BB_EXIT_USAGE = 2,     /* what the user asked for cannot be done as asked */
    BB_EXIT_VERIFY = 3,    /* the table does not hold the rows committed */
    BB_EXIT_THRESHOLD = 4, /* a --threshold or a comparison (--fail-if-slower) failed */
};

/* An error travels up as a message; the caller decides the exit code. */
typedef struct bb_err {
    char msg[1024];
    int code;    /* BB_EXIT_*: who should be blamed (usage vs runtime) */
    int64_t row; /* the row of a bulk stream the server named (1-based, as it counts), 0 = none */
} bb_err;

/* Fill e (when not NULL) and return -1, so `return bb_errf(err, ...)` reads as it does. */
int bb_errf(bb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bb_usagef(bb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* msg with every copy of the password the DSN carries (URI scheme://user:pass@host or
 * key=value password=pass) as "***", whatever its length (libpq repeats a URI it cannot
 * parse): a fresh string for the caller to free; NULL for a NULL msg. */
char *bb_redacted(const char *msg, const char *dsn);

#endif
