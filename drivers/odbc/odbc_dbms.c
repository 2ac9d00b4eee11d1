/* odbc_dbms.c — which DBMS an ODBC driver reaches (SQLGetInfo at the first connection of a
 * target), the SQL dialect that follows from it, session settings, and the server's costs
 * where the native engines measure them (PostgreSQL, MariaDB/MySQL on this host). */
#include <ctype.h>
#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbc_priv.h"
#include "../server_sql.h"
#include "../../base/err.h"
#include "../../base/buf.h"

typedef struct odbc_family {
    const char *match[2]; /* SQL_DBMS_NAME contains one of these (any case) */
    odbc_kind kind;
    bb_dialect dialect;
    const char *setup; /* what every new session runs first, or NULL */
} odbc_family;

/* Parameter limits: PostgreSQL's and MariaDB's protocols count parameters in 16 bits;
 * SQLite's default SQLITE_MAX_VARIABLE_NUMBER; SQL Server takes 2100 parameters and
 * 1000 rows per VALUES list; Oracle (before 23) has no multi-row VALUES at all. */
// clang-format off
static const odbc_family families[] = {
    /* UTC, as the pg engine sets it: a timestamp means one instant whichever way it is sent */
    { { "PostgreSQL", NULL }, ODBC_PG, { "pg", '"', 0, 0, 65535, 0, 0, "bulkbench.drivers.pg.dialect_pg" }, "SET TimeZone = 'UTC'" },
    { { "MariaDB", "MySQL" }, ODBC_MYSQL, { "mysql", '`', 0, 1, 65535, 0, 0, "bulkbench.drivers.mysql.dialect_mysql" }, NULL },
    { { "SQLite", NULL }, ODBC_SQLITE, { "sqlite", '"', 0, 0, 32766, 0, 0, "bulkbench.drivers.sqlite.dialect_sqlite" }, NULL },
    /* text timestamps, dates and decimals read the same whatever the client's NLS settings */
    { { "Oracle", NULL }, ODBC_ORACLE, { "oracle", '"', 0, 0, 65535, -1, 1, "bulkbench.drivers.odbc.dialect_oracle" },
      "ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'YYYY-MM-DD HH24:MI:SS.FF6' NLS_DATE_FORMAT = 'YYYY-MM-DD' "
      "NLS_NUMERIC_CHARACTERS = '.,'" },
    { { "SQL Server", NULL }, ODBC_MSSQL, { "mssql", '"', 0, 0, 2100, 1000, 1, "bulkbench.drivers.odbc.dialect_mssql" }, NULL },
};
// clang-format on

/* An unknown DBMS: ANSI types, '?' markers, a parameter limit every DBMS we know takes. */
const bb_dialect odbc_ansi_dialect = { "ansi", '"', 0, 0, 999, 0, 0, "bulkbench.drivers.odbc.dialect_ansi" };

/* The dialects a target may speak besides ANSI, for scripts' DDL in a named one (oracle). */
_Static_assert(sizeof families / sizeof *families == 5, "odbc_dialects lists every family's dialect");
const bb_dialect *const odbc_dialects[] = { &families[0].dialect, &families[1].dialect, &families[2].dialect,
                                            &families[3].dialect, &families[4].dialect, NULL };

const bb_dialect *odbc_target_dialect(const bb_target *t) { return &t->dialect; }

static void info_text(SQLHDBC dbc, SQLUSMALLINT what, char *out, size_t n)
{
    SQLSMALLINT len = 0;
    out[0] = 0;
    if (!odbc_ok(SQLGetInfo(dbc, what, out, (SQLSMALLINT)n, &len))) out[0] = 0;
}

static int contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return 1;
    return 0;
}

/* Drivers pad version parts with zeros ("10.11.000019", ODBC's ##.##.#### form): the
 * numbers are kept, the padding goes ("10.11.19"). */
static void tidy_version(char *v)
{
    char *w = v;
    for (const char *r = v; *r;) {
        if (*r >= '0' && *r <= '9' && (r == v || r[-1] == '.')) {
            while (*r == '0' && r[1] >= '0' && r[1] <= '9') r++;
        }
        *w++ = *r++;
    }
    *w = 0;
}

/* Fills the target's DBMS facts from the driver; the caller holds t->mu. */
static void identify(bb_conn *c)
{
    bb_target *t = c->t;
    char name[96], ver[64], drv[64], dver[48], quote[8];
    info_text(c->dbc, SQL_DBMS_NAME, name, sizeof name);
    info_text(c->dbc, SQL_DBMS_VER, ver, sizeof ver);
    info_text(c->dbc, SQL_DRIVER_NAME, drv, sizeof drv);
    info_text(c->dbc, SQL_DRIVER_VER, dver, sizeof dver);
    info_text(c->dbc, SQL_IDENTIFIER_QUOTE_CHAR, quote, sizeof quote);
    tidy_version(ver);
    tidy_version(dver);
    snprintf(t->dbms, sizeof t->dbms, "%.63s %.60s", name, ver);
    snprintf(t->driver, sizeof t->driver, "%.63s %.47s", drv, dver);
    t->kind = ODBC_ANSI;
    t->dialect = odbc_ansi_dialect;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        for (int j = 0; j < 2 && families[i].match[j]; j++)
            if (contains(name, families[i].match[j]) && t->kind == ODBC_ANSI) {
                t->kind = families[i].kind;
                t->dialect = families[i].dialect;
            }
    if (quote[0] && quote[0] != ' ' && !quote[1]) t->dialect.ident_quote = quote[0];
    static atomic_int told;
    if (t->kind == ODBC_ANSI && !atomic_exchange(&told, 1))
        fprintf(stderr,
                "odbc: bulkbench does not know the DBMS '%s' behind %s; it gets ANSI SQL and ANSI column "
                "types (lua/schema.lua, map 'ansi')\n",
                t->dbms, drv);
}

int odbc_dbms_session(bb_conn *c, bb_err *err)
{
    bb_target *t = c->t;
    pthread_mutex_lock(&t->mu);
    if (!t->known) identify(c);
    t->known = 1;
    pthread_mutex_unlock(&t->mu);
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (families[i].kind == t->kind && families[i].setup && odbc_exec(c, families[i].setup, NULL, err) < 0)
            return -1;
    c->max_packet = 0;
    if (t->kind == ODBC_MYSQL) {
        bb_err ignore;
        int64_t v = -1;
        if (odbc_query(c, "SELECT @@max_allowed_packet", 0, NULL, bb_row_int, &v, &ignore) == 0 && v > 0)
            c->max_packet = v;
    }
    return 0;
}

int64_t odbc_max_statement_bytes(bb_conn *c) { return c->max_packet; }

/* ---- settings ---- */

static int word(const char *s, const char *extra)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && !strchr(extra, *s)) return 0;
    return 1;
}

/* --set=odbc.NAME=V: a connection-string attribute (UseServerSidePrepare, BatchSize...).
 * The target keeps it for every new session; this session reopens with it. */
static int set_attribute(bb_conn *c, const char *name, const char *value, bb_err *err)
{
    bb_target *t = c->t;
    if (!word(name, " ")) return bb_usagef(err, "odbc: --set=odbc.%s: a connection-string attribute is a word", name);
    pthread_mutex_lock(&t->mu);
    int i = 0;
    while (i < t->nset && strcasecmp(t->set_name[i], name) != 0) i++;
    if (i == ODBC_MAX_SET) {
        pthread_mutex_unlock(&t->mu);
        return bb_usagef(err, "odbc: at most %d --set=odbc.* attributes", ODBC_MAX_SET);
    }
    if (i == t->nset) {
        t->set_name[t->nset++] = bb_xstrdup(name);
        t->set_value[i] = NULL;
    }
    if (!t->set_value[i] || strcmp(t->set_value[i], value) != 0) {
        free(t->set_value[i]);
        t->set_value[i] = bb_xstrdup(value);
        t->set_gen++;
    }
    int stale = c->set_gen != t->set_gen;
    pthread_mutex_unlock(&t->mu);
    return stale ? odbc_reconnect(c, err) : 0;
}

/* A DBMS setting the session has, to give it again if the session reopens. */
static void remember(bb_conn *c, const char *name, const char *value)
{
    int i = 0;
    while (i < c->napplied && strcmp(c->applied_name[i], name) != 0) i++;
    if (i == ODBC_MAX_SET) return;
    if (i == c->napplied) c->applied_name[c->napplied++] = bb_xstrdup(name);
    else if (c->applied_value[i] == value) return; /* being given again by odbc_reconnect */
    else free(c->applied_value[i]);
    c->applied_value[i] = bb_xstrdup(value);
}

int odbc_set_session(bb_conn *c, const char *name, const char *value, bb_err *err)
{
    if (strncmp(name, "odbc.", 5) == 0) return set_attribute(c, name + 5, value, err);
    if (!word(name, "."))
        return bb_usagef(err, "odbc: '%s' is not a setting name (odbc.NAME sets a connection-string attribute)", name);
    bb_buf sql = { 0 };
    int numeric = word(value, ".-") && strspn(value, "0123456789.-") == strlen(value);
    switch (c->t->kind) {
    case ODBC_SQLITE:
        if (!word(value, ".-"))
            return bb_usagef(err, "odbc: setting %s=%s: SQLite pragmas take words or numbers", name, value);
        bb_buf_printf(&sql, "PRAGMA %s = %s", name, value);
        break;
    case ODBC_ORACLE: bb_buf_printf(&sql, "ALTER SESSION SET %s = ", name); break;
    case ODBC_MSSQL:
        bb_buf_printf(&sql, "SET %s ", name);
        numeric = 1;
        break; /* SET NOCOUNT ON: bare words */
    case ODBC_MYSQL: bb_buf_printf(&sql, "SET SESSION %s = ", name); break;
    default: bb_buf_printf(&sql, "SET %s = ", name); break;
    }
    if (c->t->kind != ODBC_SQLITE) {
        if (numeric) bb_buf_puts(&sql, value);
        else {
            const bb_dialect *d = &c->t->dialect;
            bb_buf_putc(&sql, '\'');
            for (const char *p = value; *p; p++) {
                if (*p == '\'' || (*p == '\\' && d->backslash_esc)) bb_buf_putc(&sql, *p);
                bb_buf_putc(&sql, *p);
            }
            bb_buf_putc(&sql, '\'');
        }
    }
    bb_buf_putc(&sql, 0);
    int rc = odbc_exec(c, sql.p, NULL, err);
    bb_buf_free(&sql);
    if (rc == 0) remember(c, name, value);
    return rc;
}

/* ---- server costs ---- */

/* The same figures the pg engine reads, through the driver. */
static void pg_costs(bb_conn *c, bb_server_info *out, json_t *set)
{
    bb_err ignore;
    int64_t v = -1;
    odbc_query(c, PG_SETTINGS_SQL, 0, NULL, bb_row_pair_json, set, &ignore);
    if (odbc_query(c, PG_WAL_SQL, 0, NULL, bb_row_int, &v, &ignore) == 0 && v >= 0) out->log_pos = v;
    v = -1;
    if (odbc_query(c, "SELECT pg_backend_pid()", 0, NULL, bb_row_int, &v, &ignore) == 0 && v > 0)
        out->local_pid = driver_local_parent((int)v, "postgres");
}

/* ... and the mysql engine's. */
static void my_costs(bb_conn *c, bb_server_info *out, json_t *set)
{
    bb_err ignore;
    int64_t bin = 0, redo = -1;
    char path[512] = "";
    odbc_query(c, MY_SETTINGS_SQL, 0, NULL, bb_row_columns_json, set, &ignore);
    if (odbc_query(c, MY_BINLOGS_SQL, 0, NULL, bb_row_sum2, &bin, &ignore) == 0) out->log_pos = bin;
    if (odbc_query(c, MY_REDO_SQL, 0, NULL, bb_row_int2, &redo, &ignore) == 0) out->redo_pos = redo;
    if (odbc_query(c, "SELECT @@pid_file", 0, NULL, bb_row_text, &(bb_text){ path, sizeof path }, &ignore) == 0 &&
        path[0])
        out->local_pid = driver_local_pidfile(path, MY_DAEMONS);
}

/* What the driver says the DBMS is; costs only where they can be measured (a local
 * PostgreSQL or MariaDB): an ODBC session cannot see another host's /proc. */
int odbc_server_info(bb_conn *c, bb_server_info *out, bb_err *err)
{
    (void)err;
    snprintf(out->version, sizeof out->version, "%s", c->t->dbms);
    snprintf(out->driver, sizeof out->driver, "%s", c->t->driver);
    if (c->t->kind != ODBC_PG && c->t->kind != ODBC_MYSQL) return 0;
    json_t *set = json_object();
    if (c->t->kind == ODBC_PG) pg_costs(c, out, set);
    else my_costs(c, out, set);
    if (json_object_size(set)) driver_settings_text(set, out);
    else json_decref(set);
    return 0;
}

int odbc_table_bytes(bb_conn *c, const char *table, int64_t *bytes, bb_err *err)
{
    const char *p[2] = { table, table };
    bb_err ignore;
    (void)err;
    *bytes = -1;
    switch (c->t->kind) {
    case ODBC_PG:
        if (odbc_query(c, "SELECT pg_total_relation_size(quote_ident(?)::regclass)", 1, p, bb_row_int, bytes, &ignore) <
            0)
            *bytes = -1;
        break;
    case ODBC_MYSQL: {
        bb_buf sql = { 0 }; /* InnoDB's figures are statistics: refresh them first, as the mysql engine does */
        bb_buf_printf(&sql, "ANALYZE TABLE `%s`", table);
        bb_buf_putc(&sql, 0);
        odbc_exec(c, sql.p, NULL, &ignore);
        bb_buf_free(&sql);
        if (odbc_query(c, MY_TABLE_SQL, 1, p, bb_row_int, bytes, &ignore) < 0) *bytes = -1;
        break;
    }
    case ODBC_SQLITE:
        if (odbc_query(c,
                       "SELECT sum(pgsize) FROM dbstat WHERE name = ? OR name IN (SELECT name FROM sqlite_master "
                       "WHERE tbl_name = ?)",
                       2, p, bb_row_int, bytes, &ignore) < 0)
            *bytes = -1;
        break;
    default: break; /* no portable way to ask */
    }
    return 0;
}
