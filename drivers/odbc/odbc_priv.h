/* odbc_priv.h — what the files of the odbc engine share (odbc.c: targets, sessions and
 * literal SQL; odbc_cs.c: connection strings; odbc_dbms.c: what the DBMS behind the driver
 * is and costs; odbc_bind.c: prepared statements and array binding). */
#ifndef BB_ODBC_PRIV_H
#define BB_ODBC_PRIV_H

#include <pthread.h>
#include "odbc_lib.h"

#include "../driver.h"
#include "../../base/err.h"
#include "../../base/buf.h"

/* The DBMS families whose SQL the engine knows; anything else is spoken as ANSI SQL. */
typedef enum odbc_kind { ODBC_ANSI, ODBC_PG, ODBC_MYSQL, ODBC_SQLITE, ODBC_ORACLE, ODBC_MSSQL } odbc_kind;

#define ODBC_MAX_SECRETS 4
#define ODBC_MAX_SET 16

struct bb_target {
    SQLHENV env;
    char *dsn;                      /* the connection string as the user gave it (it may hold a password) */
    char *secret[ODBC_MAX_SECRETS]; /* PWD=/Password= values, masked in every message */
    int nsecret;
    char where[300];     /* host:port, DSN name or file: what messages name */
    const char *timeout; /* an attribute this driver needs for the 5 s connect timeout, or NULL */
    pthread_mutex_t mu;  /* guards what follows: sessions of a run connect in parallel */
    int known;           /* the DBMS was identified (at the first connection) */
    odbc_kind kind;
    bb_dialect dialect; /* the DBMS's, ident_quote as the driver says */
    char dbms[128], driver[128];
    /* --set=odbc.NAME=V: connection-string attributes every new session gets */
    char *set_name[ODBC_MAX_SET], *set_value[ODBC_MAX_SET];
    int nset;
    unsigned set_gen; /* bumped when they change */
};

struct bb_conn {
    SQLHDBC dbc;
    bb_target *t;
    SQLHSTMT st;        /* literal SQL and queries */
    int autocommit;     /* the session's autocommit setting */
    int in_txn;         /* between begin and commit/rollback */
    int64_t max_packet; /* MySQL's max_allowed_packet, 0 = no limit known */
    unsigned set_gen;   /* the target's --set=odbc.* generation this session was opened with */
    /* the DBMS settings this session was given, again after it reopens for an odbc.* attribute */
    char *applied_name[ODBC_MAX_SET], *applied_value[ODBC_MAX_SET];
    int napplied;
};

/* One parameter's binding for single-row execution: the value is copied into stable
 * storage, so the driver's binding changes only when the parameter's C or SQL type does. */
typedef struct odbc_slot {
    SQLSMALLINT ctype, sqltype, digits;
    SQLULEN colsize;
    SQLLEN ind;
    int bound;
    union {
        SQLBIGINT i;
        double d;
        SQL_TIMESTAMP_STRUCT ts;
        SQL_DATE_STRUCT dt;
    } u;
    char *buf; /* text and binary values */
    size_t cap;
} odbc_slot;

struct bb_stmt {
    bb_conn *c;
    SQLHSTMT st;
    char *sql;
    int n;
    bb_sqltype *types;
    odbc_slot *slot;
    int arrayed; /* the last execution bound arrays: single rows must rebind */
    /* array binding (odbc_bind.c) */
    char *arena;
    size_t arena_cap;
    SQLUSMALLINT *status;
    int status_cap;
    SQLULEN processed;
};

/* ---- odbc.c ---- */
/* "odbc WHERE: what: [SQLSTATE] message" from the handle's diagnostics, password masked. */
int odbc_fail(bb_err *err, bb_conn *c, SQLSMALLINT htype, SQLHANDLE h, const char *what);
/* The handle's diagnostic records as one line ("[SQLSTATE] message; ..."). */
void odbc_diag(SQLSMALLINT htype, SQLHANDLE h, char *out, size_t n);
/* Overwrites the target's passwords in msg. */
void odbc_mask_msg(const bb_target *t, char *msg);
/* Sets the session's autocommit when it differs. */
int odbc_autocommit(bb_conn *c, int on, bb_err *err);
/* Outside begin..commit a statement autocommits: the session may have been left in manual mode. */
static inline int odbc_outside_txn(bb_conn *c, bb_err *err)
{
    return c->in_txn || c->autocommit ? 0 : odbc_autocommit(c, 1, err);
}
int odbc_exec(bb_conn *c, const char *sql, int64_t *affected, bb_err *err);
int odbc_query(bb_conn *c, const char *sql, int nparams, const char *const *params, bb_row_cb cb, void *ud,
               bb_err *err);
int odbc_ok(SQLRETURN rc);

/* ---- odbc_cs.c: connection strings ---- */
/* Calls each(key, klen, value) per attribute; values are unbraced ("{a;b}}c}" -> "a;b}c").
 * -1 with a usage error for an attribute without '=' or an unclosed brace. */
int odbc_cs_each(const char *cs, int (*each)(void *ud, const char *key, size_t klen, const char *val), void *ud,
                 bb_err *err);
/* Appends ";KEY=VALUE" to b, bracing the value when it needs it. */
void odbc_cs_put(bb_buf *b, const char *key, size_t klen, const char *val);
/* Overwrites every copy of each secret in msg, and any "PWD=..."/"Password=..." value. */
void odbc_cs_mask(char *msg, char *const *secret, int nsecret);
/* Fills t->where and t->secret from t->dsn. */
int odbc_cs_target(bb_target *t, bb_err *err);
/* The connection string a new session opens with: the user's, with --set=odbc.* in place. */
char *odbc_cs_session(bb_target *t);

/* ---- odbc_dbms.c: the DBMS behind the driver ---- */
/* Identifies the DBMS (once per target) and prepares the session for it. */
int odbc_dbms_session(bb_conn *c, bb_err *err);
const bb_dialect *odbc_target_dialect(const bb_target *t);
extern const bb_dialect odbc_ansi_dialect;
extern const bb_dialect *const odbc_dialects[];
int odbc_set_session(bb_conn *c, const char *name, const char *value, bb_err *err);
int odbc_server_info(bb_conn *c, bb_server_info *out, bb_err *err);
int odbc_table_bytes(bb_conn *c, const char *table, int64_t *bytes, bb_err *err);
int64_t odbc_max_statement_bytes(bb_conn *c);
/* Reopens the session with the target's current --set=odbc.* attributes. */
int odbc_reconnect(bb_conn *c, bb_err *err);

/* ---- odbc_bind.c: statements ---- */
int odbc_prepare(bb_conn *c, const char *sql, int nparams, const bb_sqltype *types, bb_stmt **out, bb_err *err);
int odbc_execute(bb_stmt *s, const bb_value *p, int64_t *affected, bb_err *err);
void odbc_finalize(bb_stmt *s);
int odbc_execute_pipeline(bb_stmt *s, int nrows, const bb_value *const *rows, int64_t *affected, bb_err *err);

#endif
