/* mysql_infile.c — LOAD DATA LOCAL INFILE fed from bulkbench's own stream with no file and
 * no FIFO: the engine's one stream transport, pulled (stream_pull). The statement runs on
 * the caller's thread and the read callback asks the caller's source for each piece and
 * copies it to the client library, with no thread and no hand-over between them (callers
 * reach it through db_stream_pull, drivers/db.h). The handler serves no other name, so
 * LOAD DATA LOCAL of a real path through db:query reads nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "mysql_priv.h"
#include "../../base/err.h"
#include "../../base/buf.h"

typedef struct infile_state {
    my_infile *f;
    bb_conn *c;
    int refused;
    char asked[256];
} infile_state;

static int inf_init(void **ptr, const char *name, void *ud)
{
    bb_conn *c = ud;
    infile_state *s = bb_xcalloc(1, sizeof *s);
    *ptr = s;
    snprintf(s->asked, sizeof s->asked, "%s", name ? name : "");
    if (!c->load || strcmp(name, c->load->name) != 0) {
        s->refused = 1;
        return 1;
    }
    s->f = c->load;
    s->c = c;
    return 0;
}

/* Up to buf_len bytes of the piece in hand into buf. A stream that ended before anything was
 * written has no piece at all (data NULL: not even a zero offset may be applied to it). */
static size_t take(my_infile *f, char *buf, unsigned int buf_len)
{
    size_t n = f->len < buf_len ? f->len : buf_len;
    if (n) {
        memcpy(buf, f->data, n);
        f->data += n;
        f->len -= n;
    }
    return n;
}

/* The piece in hand, else the next from the source. Abandoning outside a transaction cuts
 * the session first: the client library answers a failed read with the end of the file,
 * and the server then commits the rows it has; cutting the connection before that packet
 * makes it roll the statement back (inside a transaction the caller's rollback does). */
static int inf_pull(my_infile *f, bb_conn *c, char *buf, unsigned int buf_len)
{
    while (f->len == 0 && !f->eof) {
        int r = f->next(f->next_ud, &f->data, &f->len);
        if (r == 0) f->eof = 1;
        if (r < 0) {
            f->abandoned = 1;
            f->len = 0;
            if (!c->in_txn) shutdown(mysql_get_socket(c->my), SHUT_RDWR);
            return -1;
        }
    }
    return (int)take(f, buf, buf_len);
}

static int inf_read(void *ptr, char *buf, unsigned int buf_len)
{
    infile_state *s = ptr;
    return inf_pull(s->f, s->c, buf, buf_len);
}

static void inf_end(void *ptr) { free(ptr); }

static int inf_error(void *ptr, char *msg, unsigned int len)
{
    infile_state *s = ptr;
    snprintf(msg, len, "LOCAL INFILE '%s' refused: bulkbench serves LOCAL INFILE only to its own streams",
             s ? s->asked : "?");
    return 2000; /* CR_UNKNOWN_ERROR */
}

void my_infile_install(bb_conn *c) { mysql_set_local_infile_handler(c->my, inf_init, inf_read, inf_end, inf_error, c); }

/* Runs the LOAD statement of f, keeping its outcome in f. */
static void load_query(bb_conn *c, my_infile *f, const char *sql)
{
    f->rc = mysql_real_query(c->my, sql, (unsigned long)strlen(sql));
    if (f->rc == 0) {
        const char *info = mysql_info(c->my);
        snprintf(f->info, sizeof f->info, "%s", info ? info : "");
    } else {
        f->errnum = mysql_errno(c->my);
        snprintf(f->error, sizeof f->error, "%s", mysql_error(c->my));
    }
}

/* A new stream's state, made the connection's, and its statement in sql; -1 for a format
 * LOAD DATA is not sent. */
static my_infile *load_begin(bb_conn *c, const bb_stream_spec *spec, bb_buf *sql, bb_err *err)
{
    if (spec->format != BB_FMT_LOAD_TEXT) { /* load.c rewrites plain TSV and CSV files into it */
        bb_errf(err, "mysql: LOAD DATA is sent its default escaped text, not %s",
                spec->format == BB_FMT_CSV ? "csv" : "this format");
        return NULL;
    }
    if (spec->option) { /* no strategy of this engine asks one: a scenario's bb.strategy did */
        bb_errf(err, "mysql: LOAD DATA takes no stream option (%s)", spec->option);
        return NULL;
    }
    my_infile *f = bb_xcalloc(1, sizeof *f);
    snprintf(f->name, sizeof f->name, "bulkbench-stream-%p-%d", (void *)c, ++c->nload);
    c->load = f;
    bb_buf_printf(sql, "LOAD DATA LOCAL INFILE '%s' INTO TABLE %s CHARACTER SET utf8mb4 ", f->name, spec->table);
    /* a one-byte separator as a hex literal (X'2c'), so a quote or backslash is spelled safely */
    unsigned delim = (unsigned char)(spec->delimiter ? spec->delimiter : '\t');
    bb_buf_printf(sql, "FIELDS TERMINATED BY X'%02x' ESCAPED BY '\\\\' ", delim);
    bb_buf_puts(sql, spec->crlf ? "LINES TERMINATED BY '\\r\\n' " : "LINES TERMINATED BY '\\n' ");
    bb_buf_puts(sql, spec->columns);
    bb_buf_putc(sql, 0);
    return f;
}

/* "Records: 3  Deleted: 0  Skipped: 0  Warnings: 0" */
static void parse_info(const char *info, long long *records, long long *skipped, long long *warnings)
{
    const char *p;
    *records = *skipped = *warnings = -1;
    if ((p = strstr(info, "Records:"))) *records = atoll(p + 8);
    if ((p = strstr(info, "Skipped:"))) *skipped = atoll(p + 8);
    if ((p = strstr(info, "Warnings:"))) *warnings = atoll(p + 9);
}

static void first_warnings(bb_conn *c, char *out, size_t n)
{
    out[0] = 0;
    if (mysql_query(c->my, "SHOW WARNINGS LIMIT 3") != 0) return;
    MYSQL_RES *r = mysql_store_result(c->my);
    MYSQL_ROW row;
    size_t used = 0;
    while (r && (row = mysql_fetch_row(r)) && used < n)
        used += (size_t)snprintf(out + used, n - used, "%s%s %s: %s", used ? "; " : "", row[0] ? row[0] : "",
                                 row[1] ? row[1] : "", row[2] ? row[2] : "");
    if (r) mysql_free_result(r);
}

/* The finished statement's outcome: *rows as LOAD DATA counted them, a failure or a
 * complaint (skipped rows, warnings) as an error; frees f. */
static int load_end(bb_conn *c, my_infile *f, int64_t *rows, bb_err *err)
{
    c->load = NULL;
    int rc = 0;
    *rows = -1;
    if (f->rc != 0) {
        rc = bb_errf(err, "mysql %s: LOAD DATA: %s", c->t->where, f->error);
        const char *at = strstr(f->error, " at row ");
        if (at) err->row = atoll(at + 8);
    } else {
        long long rec, skip, warn;
        parse_info(f->info, &rec, &skip, &warn);
        *rows = rec;
        if (skip > 0 || warn > 0) { /* LOAD DATA's own accounting says something was not taken as sent */
            char w[400];
            first_warnings(c, w, sizeof w);
            rc = bb_errf(err, "mysql %s: LOAD DATA %s; first warnings: %s", c->t->where, f->info, w[0] ? w : "none");
            err->code = BB_EXIT_VERIFY;
            const char *at = strstr(w, " at row "); /* the first warning's row, as LOAD DATA counts them */
            if (at) err->row = atoll(at + 8);
        }
    }
    free(f);
    return rc;
}

int my_stream_pull(bb_conn *c, const bb_stream_spec *spec, bb_stream_next_fn next, void *ud, int64_t *rows, bb_err *err)
{
    bb_buf sql = { 0 };
    *rows = -1;
    my_infile *f = load_begin(c, spec, &sql, err);
    if (!f) return -1;
    f->next = next;
    f->next_ud = ud;
    load_query(c, f, sql.p);
    bb_buf_free(&sql);
    if (f->abandoned) { /* cut off before its end (or, in a transaction, to be rolled back) */
        bb_err ignore;
        load_end(c, f, rows, &ignore);
        *rows = 0;
        return bb_errf(err, "mysql %s: LOAD DATA abandoned", c->t->where);
    }
    return load_end(c, f, rows, err);
}
