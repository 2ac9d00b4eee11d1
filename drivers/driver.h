/* driver.h — the one interface every engine fills.
 *
 * The runtime knows engines only through this struct: which methods an engine offers is
 * decided by its capability flags (see runtime/core/method/method.c), never by its name. Every
 * operation returns 0 on success or -1 with a message in *err that names what failed and
 * where (host:port or file), never a password. A conn is used by one thread at a time. The
 * stream contract below is assert()ed in every build where the runtime calls it (drivers/db.c:
 * a failure says why; a pushed stream whose close failed committed none of its rows or cannot say). */
#ifndef BB_DRIVER_H
#define BB_DRIVER_H

#include <stdint.h>

#include "../base/err.h"
#include "../base/buf.h"
#include "value.h"

typedef struct bb_target bb_target; /* a resolved DSN, shared by every connection of a run */
typedef struct bb_conn bb_conn;     /* one session */
typedef struct bb_stmt bb_stmt;     /* one prepared statement of a conn */

/* Capability flags: a method is offered when all the flags it requires are set. */
enum {
    BB_CAP_PREPARE = 1u << 0,   /* prepare/execute with bound parameters */
    BB_CAP_TXN = 1u << 1,       /* begin/commit/rollback */
    BB_CAP_MULTIROW = 1u << 2,  /* INSERT ... VALUES (..),(..) in one statement */
    BB_CAP_TEXTPROTO = 1u << 3, /* a separate literal-SQL protocol worth comparing (pg simple query, mysql text) */
    BB_CAP_PIPELINE = 1u << 4,  /* pipeline_* operations */
    BB_CAP_COPY_TEXT = 1u << 5, /* stream_* in PostgreSQL COPY text format */
    BB_CAP_COPY_CSV = 1u << 6,  /* stream_* in CSV */
    BB_CAP_COPY_BIN = 1u << 7,  /* stream_* in PostgreSQL binary COPY format */
    BB_CAP_LOAD_DATA = 1u << 8, /* stream_* into LOAD DATA LOCAL, in its default escaped text (BB_FMT_LOAD_TEXT) */
    BB_CAP_WAITS = 1u << 9, /* session_id, waits, wait_counters: what the run's sessions wait on (docs/diagnosis.md) */
};

/* What a sampled server session's time goes to (docs/diagnosis.md); the engine classes its
 * own wait events, the runtime's rules (runtime/core/run/bottleneck.c) only read the class. */
typedef enum bb_wait_kind {
    BB_WK_CPU,        /* running, waiting on nothing */
    BB_WK_CLIENT,     /* idle (in a transaction) or reading from the client: the client's turn */
    BB_WK_WAL,        /* writing or flushing the log (WAL, redo, binlog) */
    BB_WK_LOCK,       /* a lock or latch held by another session */
    BB_WK_IO,         /* reading or writing data files */
    BB_WK_CHECKPOINT, /* held up by a checkpoint */
    BB_WK_OTHER,
    BB_WK_N
} bb_wait_kind;
/* One session at one look of waits() (look 0, 1, ...): its wait event's name ("WALSync",
 * "cpu", "client") and class. */
typedef void (*bb_wait_cb)(void *ud, int look, const char *event, bb_wait_kind kind);
#define BB_MAX_TIMED_WAITS 24
/* The server's log and checkpoint counters (cumulative, -1 unknown), and where the server
 * times its sessions' waits itself (MariaDB/MySQL performance_schema) the seconds the run's
 * sessions have spent in each timed wait so far (ntimed 0: it times none). */
typedef struct bb_wait_counters {
    int ended;           /* set by the caller: the sessions have closed; what they counted is awaited */
    int64_t log_syncs;   /* WAL / redo log flushes */
    int64_t checkpoints; /* checkpoints done (requested and timed) */
    int ntimed;
    char timed_event[BB_MAX_TIMED_WAITS][48];
    unsigned char timed_kind[BB_MAX_TIMED_WAITS];
    double timed_s[BB_MAX_TIMED_WAITS];
} bb_wait_counters;

/* A table being loaded and the server's cache, as the monitoring session sees them (growth,
 * docs/scale.md); -1 where the engine cannot tell. */
typedef struct bb_growth_probe {
    int64_t heap_bytes;    /* the rows themselves: PostgreSQL's heap, InnoDB's clustered index */
    int64_t index_bytes;   /* the table's other indexes (PostgreSQL's primary key among them) */
    int64_t rows_estimate; /* the server's estimate of the rows it holds (its statistics) */
    int64_t rows_loaded;   /* a count of the rows it has taken into the table that moves as they come (InnoDB's
                            * row count; PostgreSQL's inserts and its COPYs' progress), -1 when it keeps none */
    int64_t reads;         /* blocks the server has read from storage so far (cumulative; a cache's misses) */
    int64_t cache_bytes;   /* the server's own cache of pages (shared_buffers, innodb_buffer_pool_size) */
    int cache_direct;      /* 1: its data files bypass the OS page cache (O_DIRECT), 0: they go through it */
    int indexes;           /* indexes of the table, the primary key's among them */
} bb_growth_probe;

/* How SQL text is spelled for this engine; encoders and DDL read it, nothing branches on names. */
typedef struct bb_dialect {
    const char *name;  /* key of the type map in lua/schema.lua */
    char ident_quote;  /* '"' or '`' */
    int param_dollar;  /* 1: $1,$2..  0: ? */
    int backslash_esc; /* 1: backslashes in string literals must be doubled (MySQL) */
    int max_params;    /* most bound parameters in one statement, 0 = no limit */
    int max_rows;      /* most rows in one VALUES list, 0 = no limit, -1 = no row-value lists */
    int bool_int;      /* 1: booleans are written 1/0 (the DBMS has no TRUE/FALSE literals) */
    /* The Lua module that describes it to the library (lua/dialects.lua: type spellings,
     * identity, scratch copies), in its engine's folder; NULL: the SQL standard's. */
    const char *lua;
} bb_dialect;

/* The standard's SQL: "quoted" identifiers, '?' markers, no limits known. The null engine
 * speaks it, and so does every script or file that names no engine. */
extern const bb_dialect bb_dialect_generic;

/* Appends name as an identifier of the dialect, quoted (a quote inside is doubled). */
void dialect_quote(const bb_dialect *d, const char *name, bb_buf *out);
/* Appends the names, quoted, separated by commas: a column list without its parentheses. */
void dialect_quote_list(const bb_dialect *d, const char *const *names, int n, bb_buf *out);
/* The same as a new string the caller frees. */
char *dialect_quoted(const bb_dialect *d, const char *name);
/* Appends the placeholder of parameter i (1-based): $i or ?. */
void dialect_param(const bb_dialect *d, long i, bb_buf *out);

/* Data formats: what the encoders write, what `bulkbench load` reads, what stream_open takes.
 * Two escaped text formats exist, and plain TSV is neither of them: */
typedef enum bb_stream_fmt {
    BB_FMT_COPY,      /* "copy": PostgreSQL COPY text: tab-separated, backslash escapes, \N = NULL */
    BB_FMT_CSV,       /* "csv": RFC 4180 */
    BB_FMT_TSV,       /* "tsv": plain tab-separated values, no escapes at all (a file format: no engine
                       * streams it, `bulkbench load` rewrites it into one of the escaped forms) */
    BB_FMT_BINARY,    /* "binary": PostgreSQL binary COPY */
    BB_FMT_SQL,       /* "sql": INSERT statements */
    BB_FMT_LOAD_TEXT, /* "load-text": LOAD DATA's default (FIELDS ESCAPED BY '\\'): the same escapes as COPY
                       * text as bulkbench writes them; the `load` method's stream */
} bb_stream_fmt;

typedef struct bb_stream_spec {
    const char *table;   /* quoted identifier, ready to paste */
    const char *columns; /* "(a,b,c)" with quoted names, or "" for all columns */
    bb_stream_fmt format;
    const char *name; /* the table's name unquoted, for catalog look-ups */
    int ncols;
    const char *const *colnames; /* unquoted, in the order rows carry them */
    char delimiter;              /* field separator, 0 = the format's own (tab, or ',' for CSV) */
    char quote;                  /* CSV quote character, 0 = '"' */
    const char *null;            /* CSV: the unquoted field text that means NULL, NULL = the format's own (empty) */
    int crlf;                    /* rows end in \r\n (a file's; COPY finds out itself, LOAD DATA must be told) */
    const char *option; /* one more of the engine's own options (a strategy's: FREEZE), or NULL */
} bb_stream_spec;

/* One node of a cluster the session's server leads (a Citus worker, a Greenplum segment). */
#define BB_MAX_NODES 16
typedef struct bb_node_info {
    char where[96];  /* host:port */
    char role[16];   /* "worker", "segment" */
    int64_t log_pos; /* bytes of WAL written so far on that node, -1 unknown */
    int local_pid;   /* pid of the node's main process when it runs on this host, 0 unknown */
} bb_node_info;

/* A binary stream's field as the engine writes it, one function per column: the field's
 * length word and bytes at p, which has room for BB_FIELD_ROOM bytes plus the value's
 * text; returns the end, or NULL with err set when the value does not fit the column. A
 * value with no text (u.s NULL) but its native form is given only to a column whose
 * layout says it takes that native form alone. */
#define BB_FIELD_ROOM 256
typedef char *(*bb_field_fn)(char *p, const bb_value *v, bb_err *err);

/* What of a binary field the runtime may write itself, straight from the generator,
 * because the column's writer would write the same bytes. */
typedef enum bb_field_form {
    BB_FORM_WRITER, /* nothing: every value goes through the writer */
    BB_FORM_INT4,   /* an integer in int32's range: length 4, its big-endian bytes */
    BB_FORM_INT8,   /* an integer: length 8, its big-endian bytes */
    BB_FORM_BYTES   /* text: its length, its bytes */
} bb_field_form;

/* How the rows of an open binary stream are laid out, for the runtime to write them
 * itself, straight from the generator: each row is prefix, then one field per column. */
typedef struct bb_stream_layout {
    char prefix[8]; /* what every row starts with (PostgreSQL: its field count) */
    int prefix_len;
    char null_field[8]; /* a NULL field */
    int null_len;
    const bb_field_fn *fields;    /* per column; valid while the stream's table is the connection's */
    const unsigned char *natives; /* per column: the bb_native its writer takes alone (no text), or BB_N_NONE */
    const unsigned char *forms;   /* per column: a bb_field_form, what the runtime may write itself */
} bb_stream_layout;

/* A pulled stream's source (bb_driver.stream_pull): the next piece of encoded rows in
 * *data and *len, valid until the next call; returns 1, 0 at the end, -1 to abandon. */
typedef int (*bb_stream_next_fn)(void *ud, const char **data, size_t *len);

/* What the server says about itself; fields a driver cannot fill stay -1 / NULL. */
typedef struct bb_server_info {
    char version[128];
    char driver[128];    /* the client library or ODBC driver and its version, or "" */
    char settings[1024]; /* JSON object text of the write-path settings in force, or "" */
    int tls_on;          /* the session is encrypted: 1, 0 not, -1 unknown (an engine with no network) */
    char tls_version[32], tls_cipher[64]; /* its protocol and cipher, "" = unknown */
    int64_t log_pos;     /* bytes of WAL/binlog written so far, -1 unknown; a cluster's: every node's */
    int64_t redo_pos;    /* bytes of a separate redo log written so far (InnoDB), -1 unknown */
    int local_pid;       /* pid of the server's main process when it runs on this host, 0 unknown */
    int nnodes;          /* the cluster's other nodes, 0 for a server on its own */
    int64_t own_log_pos; /* with nodes: this server's own share of log_pos */
    bb_node_info node[BB_MAX_NODES];
} bb_server_info;

/* Row callback of query(): values[i] is NULL for SQL NULL. Return non-zero to stop. */
typedef int (*bb_row_cb)(void *ud, int ncols, const char *const *names, const char *const *values, const size_t *lens);

/* Row callbacks every query() caller shares (drivers/driver_rows.c): the first column as an
 * int64 (-1 for NULL), the second, the second summed over rows, the first as text into a
 * bb_text, the first row's columns or every (name, value) row into a json_t object. */
typedef struct bb_text {
    char *p;
    size_t n;
} bb_text;
int bb_row_int(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens);
int bb_row_int2(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens);
int bb_row_sum2(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens);
int bb_row_text(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens);
int bb_row_columns_json(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens);
int bb_row_pair_json(void *ud, int n, const char *const *names, const char *const *vals, const size_t *lens);

typedef struct bb_driver {
    const char *name;    /* --engine=NAME */
    const char *summary; /* one line for `bulkbench list` */
    /* The method a scenario gets on this engine when neither it nor --method names one, and
     * the one `bulkbench new` writes for it: the engine's own bulk path (a method it offers,
     * checked at start-up by method_check_engine). */
    const char *default_method;
    /* The rest of what the tree asks of an engine is here too: `bulkbench list --engines
     * --format=json` prints it (bb_driver_json) for scripts and tests, core.engine(NAME) for the
     * Lua library, so nothing outside drivers/NAME/ names the engine. */
    const char *dsn_help; /* its --dsn forms, one line for help and errors; NULL: it takes no DSN */
    /* The servers its runs need, as contrib/dbctl starts them (`dbctl start pg` exports
     * BULKBENCH_PG_DSN), space-separated; NULL: none, it runs on this machine alone. */
    const char *servers;
    /* For tests (tests/matrix.sh): test_dsn, without a server, the --dsn a test run gives it
     * ($DIR: the suite's scratch directory), NULL: none; test_targets, "NAME=DSN ..." when it
     * reaches DBMS of other engines (ODBC), each run's table checked by engine NAME's client,
     * NULL: itself; client, the script through which its own client loads a reference table
     * and answers SQL (drivers/NAME/client.sh), NULL: it keeps no rows, a run's count is the
     * check. */
    const char *test_dsn, *test_targets, *client;
    /* For tests: the shell command that readies what its test targets need (drivers
     * registered, their DSN variables exported), $DIR a scratch directory; NULL: nothing. */
    const char *test_setup;
    const char *catalog_lua;    /* the Lua module that reads its catalog for `new`; NULL: none */
    const char *strategies_lua; /* its load strategies (lua/strategy.lua); NULL: none */
    const char *file_dialect;   /* the dialect a file's table is written in (`new FILE`), NULL: its own */
    int many_servers;           /* one engine, many DBMS: results are told apart by the server reached */
    /* The dialects a target of it may speak besides `dialect` (ODBC: the DBMS it recognises),
     * NULL-terminated; NULL: none. */
    const bb_dialect *const *dialects;
    unsigned caps;
    const bb_dialect *dialect;
    /* The dialect of the server a target reaches, when that depends on the target (ODBC
     * learns it from the driver at the first connection); NULL = `dialect` for all. */
    const bb_dialect *(*target_dialect)(const bb_target *t);

    /* Resolves the user's DSN (NULL or "" = engine default) once per run; may create
     * resources (a temporary database file) that target_close removes. */
    int (*target_open)(const char *dsn, bb_target **out, bb_err *err);
    /* Where the target is, for messages and results: host:port or a path; never a password. */
    const char *(*target_where)(const bb_target *t);
    void (*target_close)(bb_target *t);

    /* Opens one session; fails within the connect timeout with host:port and the reason. */
    int (*connect)(bb_target *t, bb_conn **out, bb_err *err);
    void (*disconnect)(bb_conn *c);

    /* Runs one or more statements of literal SQL; *affected (may be NULL) gets the rows changed. */
    int (*exec)(bb_conn *c, const char *sql, int64_t *affected, bb_err *err);
    /* Runs a statement with text parameters (NULL = SQL NULL) and calls cb once per row. */
    int (*query)(bb_conn *c, const char *sql, int nparams, const char *const *params, bb_row_cb cb, void *ud,
                 bb_err *err);

    /* Prepares sql whose parameters have the given storage classes (placeholders in the
     * dialect's style). The statement lives until finalize or disconnect. */
    int (*prepare)(bb_conn *c, const char *sql, int nparams, const bb_sqltype *types, bb_stmt **out, bb_err *err);
    /* Executes with nparams values (kinds match the types given to prepare, or BB_V_NULL). */
    int (*execute)(bb_stmt *s, const bb_value *params, int64_t *affected, bb_err *err);
    void (*finalize)(bb_stmt *s);
    /* execute split in two so the caller can prepare the next statement while the server
     * works: execute_send returns once the request is on its way (the values may then be
     * reused), execute_wait collects the outcome. No other call on the connection may come
     * between them. Both NULL when the engine has no such split. */
    int (*execute_send)(bb_stmt *s, const bb_value *params, bb_err *err);
    int (*execute_wait)(bb_stmt *s, int64_t *affected, bb_err *err);

    int (*begin)(bb_conn *c, bb_err *err);
    int (*commit)(bb_conn *c, bb_err *err);
    int (*rollback)(bb_conn *c, bb_err *err);

    /* Bulk streams (COPY FROM STDIN, LOAD DATA LOCAL) have one of two transports, and a
     * stream capability needs one whole (bb_driver_check); callers reach either through
     * drivers/db.h (db_stream_pull), and only the producer-thread loop of method.c pushes
     * itself, where db_stream_pushes says it may.
     * Pushed: open, write encoded rows in any slices, close returns the rows the server
     * accepted. When close fails, *rows = 0 says that none of the stream can have committed
     * (the session was found lost before its end was sent), -1 that it is not known. */
    int (*stream_open)(bb_conn *c, const bb_stream_spec *spec, bb_err *err);
    int (*stream_write)(bb_conn *c, const char *data, size_t len, bb_err *err);
    int (*stream_close)(bb_conn *c, int64_t *rows, bb_err *err);
    /* Abandons the open stream (its input was refused, or the run stops) so that none of
     * its rows commit; why goes to the server where it can log it. COPY is aborted and the
     * session goes on. Safe on a session already lost. */
    void (*stream_abort)(bb_conn *c, const char *why, int64_t *rows);
    /* Pulled, for engines whose client library asks for the data through a callback (LOAD
     * DATA LOCAL): one whole stream of spec on the calling thread, with no thread of its
     * own to hand the data to. It calls next for each piece, after it has copied the one
     * before, until next returns 0 (the end: the stream closes and commits; *rows and the
     * return as stream_close's, but for a statement the server ran and complained of - LOAD
     * DATA's skipped or warned rows - which fails with the rows it took) or -1 (abandon it: nothing of it may commit; it returns -1
     * with *rows = 0 - LOAD DATA LOCAL cannot be called off, so outside a transaction the
     * session is cut and lost, callers check alive). */
    int (*stream_pull)(bb_conn *c, const bb_stream_spec *spec, bb_stream_next_fn next, void *ud, int64_t *rows,
                       bb_err *err);

    /* Encodes one row for the open stream in a format only the engine can write (binary
     * COPY needs the server's column types, learned at stream_open). NULL when the
     * runtime's encoders serve every format the engine streams. */
    int (*stream_encode)(bb_conn *c, const bb_value *row, bb_buf *out, bb_err *err);
    /* Optional, with stream_encode: the open binary stream's row layout (bb_stream_layout),
     * so the runtime can write rows without a bb_value row and a call per row. */
    int (*stream_layout)(bb_conn *c, bb_stream_layout *out, bb_err *err);

    /* Executes a prepared statement once per row, all rows in one round trip and one
     * transaction (pipeline mode); *affected gets the rows changed. NULL unless BB_CAP_PIPELINE. */
    int (*execute_pipeline)(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err);

    /* After a failure: is the session still there? (A lost one may have committed the
     * statement whose answer it lost.) NULL = always alive (embedded engines). */
    int (*alive)(bb_conn *c);

    /* Sets a session setting (SET name = value, PRAGMA name = value). */
    int (*set_session)(bb_conn *c, const char *name, const char *value, bb_err *err);
    /* Sets a server-wide setting (for every new session) and puts the value it replaced in
     * old, for the restore after the run. NULL when the engine has none. */
    int (*set_global)(bb_conn *c, const char *name, const char *value, char *old, size_t oldlen, bb_err *err);
    /* Fills what the server can tell about itself; unknown fields stay -1/empty. */
    int (*server_info)(bb_conn *c, bb_server_info *out, bb_err *err);
    /* The largest statement the server takes in bytes (max_allowed_packet), 0 = no limit.
     * NULL when there is none. */
    int64_t (*max_statement_bytes)(bb_conn *c);
    /* Bytes the table occupies (data + indexes), -1 when the engine cannot tell; a
     * distributed table's on every node of the cluster. */
    int (*table_bytes)(bb_conn *c, const char *table, int64_t *bytes, bb_err *err);
    /* The driver's own catalog of a table, as rows through cb in the columns the ODBC
     * functions define: what is "tables" (SQLTables; table may hold % and _ patterns),
     * "columns" (SQLColumns), "primary_keys" (SQLPrimaryKeys), "foreign_keys" (SQLForeignKeys:
     * the keys of table that reference others) or "unique" (SQLStatistics, unique indexes);
     * schema NULL for any. NULL when the engine's catalog is read with SQL instead. */
    int (*catalog)(bb_conn *c, const char *what, const char *schema, const char *table, bb_row_cb cb, void *ud,
                   bb_err *err);
    /* A distributed table by node: bytes[0] on this server, bytes[1 + i] on node i of the
     * last server_info (-1 unknown). NULL when the engine knows no clusters. */
    int (*node_table_bytes)(bb_conn *c, const char *table, int n, int64_t *bytes, bb_err *err);
    /* Which member of the engine's family the server is ("citus", "greenplum", "ivorysql"),
     * for scripts' DDL (db.system); NULL or "" when it is the stock server. */
    const char *(*system)(bb_conn *c);

    /* Diagnosis (BB_CAP_WAITS). The server's id of a session (backend pid, thread id), -1
     * unknown; it only reads what the connection knows, so any thread may call it. */
    int64_t (*session_id)(bb_conn *c);
    /* On a session of its own (mon): looks at the n sessions ids[] up to `looks` times, each
     * look gap_s seconds after the one before (the first gap_s after the call), calling cb
     * for each session that exists, with what it is doing then. Where the server can wait
     * between looks itself they go in one request: the sampler's wake-ups on the client then
     * never come just before a look (on two cores they delay the run's client, and the
     * sessions were seen waiting for it: PostgreSQL's WALSync sampled at 20-30% where
     * track_wal_io_timing measured 45-48%). An engine that cannot takes one look now. The
     * looks taken, < 0 on error. */
    int (*waits)(bb_conn *mon, const int64_t *ids, int n, int looks, double gap_s, bb_wait_cb cb, void *ud,
                 bb_err *err);
    /* The counters, the timed waits those of the n sessions ids[]; out is zeroed by the caller. */
    int (*wait_counters)(bb_conn *mon, const int64_t *ids, int n, bb_wait_counters *out, bb_err *err);

    /* Growth (docs/scale.md), on the monitoring session: the table's sizes (table unquoted)
     * and the server's storage reads so far, those of the n sessions ids[] where the engine
     * counts them by session; out is set to -1 by the caller. NULL: the engine cannot tell
     * (results' growth is then null). */
    int (*growth)(bb_conn *mon, const char *table, const int64_t *ids, int n, bb_growth_probe *out, bb_err *err);
} bb_driver;

/* Writes a JSON object of settings into out->settings and frees it (drivers/driver_settings.c). */
struct json_t;
void driver_settings_text(struct json_t *set, bb_server_info *out);

/* The SQL dialect to use for a target of d: bb_target_dialect(d, NULL) is the engine's default. */
static inline const bb_dialect *bb_target_dialect(const bb_driver *d, const bb_target *t)
{
    return d->target_dialect && t ? d->target_dialect(t) : d->dialect;
}

/* Every engine compiled in, NULL-terminated, by name: written by make from the folders
 * drivers/NAME/ (build/engines.c), each defining bb_driver_NAME. */
extern const bb_driver *const bb_drivers[];
int bb_driver_count(void);
/* The variable a run's DSN comes from when --dsn is not given: BULKBENCH_NAME_DSN, the name
 * upper-cased (what contrib/dbctl start exports); into out, returned. */
const char *bb_driver_dsn_env(const bb_driver *d, char *out, size_t n);
/* The engine --engine means when it is not given (an array, so that option tables can name it). */
extern const char bb_default_engine[];
const bb_driver *bb_driver_find(const char *name);
/* 0 when every operation the engine's capability flags promise is filled; else -1 and msg
 * names the first missing one (a bug in the engine, caught at start-up, not a crash later). */
int bb_driver_check(const bb_driver *d, char *msg, size_t n);
/* A stream counts only when the server took every row sent: 0 when it did (or could not
 * say, took = -1), else -1 with err naming the engine and what (a stream, a chunk). */
int bb_stream_took(const bb_driver *d, int64_t took, int64_t sent, const char *what, bb_err *err);
/* The dialect of that name (pg, mysql, sqlite, generic), for SQL written without a server. */
const bb_dialect *bb_dialect_find(const char *name);
/* The same, or one a target of an engine may speak (bb_driver.dialects: oracle, mssql through
 * ODBC): what a script's DDL for a named dialect is written in. NULL when none is known. */
const bb_dialect *bb_dialect_known(const char *name);
/* What the descriptor says, as a JSON object (`bulkbench list --engines --format=json`,
 * core.engine): every field above but the operations, and the methods it offers come from
 * the method table (the caller adds them). The caller owns it. */
struct json_t *bb_driver_json(const bb_driver *d);
/* The engines keep() accepts (all for NULL), "a, b<last_sep>c", into out (n bytes); returns out. */
const char *bb_engine_words(int (*keep)(const bb_driver *d), const char *last_sep, char *out, size_t n);
/* The DSN forms of the engines keep() accepts (all for NULL) that take one: "pg: FORM; mysql:
 * FORM", into out (n bytes); returns out. */
const char *bb_dsn_words(int (*keep)(const bb_driver *d), char *out, size_t n);
/* The engines' dialects, each once (generic among them), the same way. */
const char *bb_dialect_words(const char *last_sep, char *out, size_t n);

#endif
