/* odbc_cs.c — ODBC connection strings: KEY=VALUE pairs separated by ';', a value in braces
 * when it holds ';' ("{a;b}}c}" is "a;b}c"). Where a string points (for messages), its
 * passwords (masked everywhere), and the string a session opens with. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odbc_priv.h"
#include "../../base/err.h"
#include "../../base/buf.h"

static int key_is(const char *key, size_t klen, const char *name)
{
    return strlen(name) == klen && strncasecmp(key, name, klen) == 0;
}

int odbc_cs_each(const char *cs, int (*each)(void *ud, const char *key, size_t klen, const char *val), void *ud,
                 bb_err *err)
{
    bb_buf v = { 0 };
    const char *p = cs;
    int rc = 0;
    while (*p && rc == 0) {
        while (*p == ';' || isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *k = p, *eq = p;
        while (*eq && *eq != '=' && *eq != ';') eq++;
        if (*eq != '=') {
            rc = bb_usagef(err, "odbc: --dsn attribute '%.*s' lacks '=value' (want KEY=VALUE;KEY=VALUE)", (int)(eq - k),
                           k);
            break;
        }
        size_t klen = (size_t)(eq - k);
        while (klen && isspace((unsigned char)k[klen - 1])) klen--;
        p = eq + 1;
        while (*p == ' ') p++;
        v.len = 0;
        if (*p == '{') { /* braced: up to a '}' that is not doubled */
            for (p++;; p++) {
                if (!*p) {
                    rc = bb_usagef(err, "odbc: --dsn: the value of '%.*s' opens a brace it never closes", (int)klen, k);
                    break;
                }
                if (*p == '}' && p[1] == '}') {
                    bb_buf_putc(&v, '}');
                    p++;
                    continue;
                }
                if (*p == '}') {
                    p++;
                    break;
                }
                bb_buf_putc(&v, *p);
            }
            while (rc == 0 && *p && *p != ';') p++;
        } else {
            const char *e = p + strcspn(p, ";");
            size_t n = (size_t)(e - p);
            while (n && isspace((unsigned char)p[n - 1])) n--;
            if (n) bb_buf_put(&v, p, n);
            p = e;
        }
        bb_buf_putc(&v, 0);
        if (rc == 0) rc = each(ud, k, klen, v.p);
    }
    bb_buf_free(&v);
    return rc;
}

void odbc_cs_put(bb_buf *b, const char *key, size_t klen, const char *val)
{
    if (b->len) bb_buf_putc(b, ';');
    if (klen) bb_buf_put(b, key, klen);
    bb_buf_putc(b, '=');
    if (!strpbrk(val, ";{}") && val[0] != ' ') {
        bb_buf_puts(b, val);
        return;
    }
    bb_buf_putc(b, '{');
    for (const char *p = val; *p; p++) {
        if (*p == '}') bb_buf_putc(b, '}');
        bb_buf_putc(b, *p);
    }
    bb_buf_putc(b, '}');
}

/* PWD, Password, and the drivers' other secrets (MariaDB's TLSKEYPWD, KeystorePassword...) */
static int is_secret_key(const char *key, size_t klen)
{
    if (klen >= 3 && strncasecmp(key + klen - 3, "PWD", 3) == 0) return 1;
    for (size_t i = 0; i + 8 <= klen; i++)
        if (strncasecmp(key + i, "PASSWORD", 8) == 0) return 1;
    return 0;
}

/* "PWD=" or "Password=" (any case, ending a longer key too) at p: the length with '=', else 0 */
static size_t secret_key_at(const char *p)
{
    if (strncasecmp(p, "PWD=", 4) == 0) return 4;
    if (strncasecmp(p, "Password=", 9) == 0) return 9;
    return 0;
}

void odbc_cs_mask(char *msg, char *const *secret, int nsecret)
{
    for (int i = 0; i < nsecret; i++) {
        size_t n = strlen(secret[i]);
        if (!n) continue;
        for (char *p = msg; (p = strstr(p, secret[i])); p += n) memset(p, '*', n);
    }
    /* a driver that repeats a connection string (or a password we never saw) */
    for (char *p = msg; *p; p++) {
        size_t k = secret_key_at(p);
        if (!k) continue;
        p += k;
        if (*p == '{') {
            for (p++; *p && *p != '}'; p++) *p = '*';
        } else {
            for (; *p && *p != ';' && *p != ' ' && *p != '\'' && *p != '"'; p++) *p = '*';
        }
        if (!*p) break;
    }
}

typedef struct cs_parts {
    bb_target *t;
    char server[256], port[32], dsn[128], dbq[256], database[512], driver[512];
    int timeout_given;
} cs_parts;

/* the first value of a key is the one ODBC uses; longer ones are cut (they only name things) */
static void keep(char *dst, size_t n, const char *val)
{
    if (*dst) return;
    size_t l = strlen(val);
    if (l >= n) l = n - 1;
    memcpy(dst, val, l);
    dst[l] = 0;
}

static int collect(void *ud, const char *key, size_t klen, const char *val)
{
    cs_parts *cp = ud;
    if (is_secret_key(key, klen)) {
        if (*val && cp->t->nsecret < ODBC_MAX_SECRETS) cp->t->secret[cp->t->nsecret++] = bb_xstrdup(val);
    } else if (key_is(key, klen, "Server") || key_is(key, klen, "Servername") || key_is(key, klen, "Host") ||
               key_is(key, klen, "Hostname") || key_is(key, klen, "Address") || key_is(key, klen, "Addr")) {
        keep(cp->server, sizeof cp->server, val);
    } else if (key_is(key, klen, "Port")) {
        keep(cp->port, sizeof cp->port, val);
    } else if (key_is(key, klen, "DSN")) {
        keep(cp->dsn, sizeof cp->dsn, val);
    } else if (key_is(key, klen, "DBQ")) {
        keep(cp->dbq, sizeof cp->dbq, val);
    } else if (key_is(key, klen, "Database")) {
        keep(cp->database, sizeof cp->database, val);
    } else if (key_is(key, klen, "Driver")) {
        keep(cp->driver, sizeof cp->driver, val);
    } else if (key_is(key, klen, "CONN_TIMEOUT")) {
        cp->timeout_given = 1;
    }
    return 0;
}

/* A data source's server and port from odbc.ini (user's, then the system's), for messages. */
static void dsn_lookup(cs_parts *cp)
{
    static const char *const hosts[] = { "Servername", "Server", "Host", "DBQ", NULL };
    char v[256];
    for (int i = 0; hosts[i] && !cp->server[0]; i++)
        if (SQLGetPrivateProfileString(cp->dsn, hosts[i], "", v, sizeof v, "odbc.ini") > 0)
            keep(cp->server, sizeof cp->server, v);
    if (!cp->port[0] && SQLGetPrivateProfileString(cp->dsn, "Port", "", v, sizeof v, "odbc.ini") > 0)
        keep(cp->port, sizeof cp->port, v);
    if (!cp->server[0] && SQLGetPrivateProfileString(cp->dsn, "Database", "", v, sizeof v, "odbc.ini") > 0)
        keep(cp->database, sizeof cp->database, v);
    if (SQLGetPrivateProfileString(cp->dsn, "Driver", "", v, sizeof v, "odbc.ini") > 0)
        keep(cp->driver, sizeof cp->driver, v);
    if (SQLGetPrivateProfileString(cp->dsn, "CONN_TIMEOUT", "", v, sizeof v, "odbc.ini") > 0) cp->timeout_given = 1;
}

static int has_word(const char *s, const char *w)
{
    for (size_t n = strlen(w); *s; s++)
        if (strncasecmp(s, w, n) == 0) return 1;
    return 0;
}

/* MariaDB Connector/ODBC ignores SQL_ATTR_LOGIN_TIMEOUT and takes its own attribute; the
 * driver is known by its library (a path, or an odbcinst.ini name that leads to one). */
static void driver_quirks(cs_parts *cp)
{
    char lib[512] = "";
    if (!cp->driver[0]) return;
    if (!strchr(cp->driver, '/')) SQLGetPrivateProfileString(cp->driver, "Driver", "", lib, sizeof lib, "odbcinst.ini");
    if ((has_word(cp->driver, "maodbc") || has_word(cp->driver, "mariadb") || has_word(lib, "maodbc")) &&
        !cp->timeout_given)
        cp->t->timeout = "CONN_TIMEOUT";
}

/* "tcp:host,1433" (SQL Server), "host,port", "host:port" or "host" with Port=... */
static void host_port(const cs_parts *cp, char *out, size_t n)
{
    const char *h = cp->server;
    if (strncasecmp(h, "tcp:", 4) == 0) h += 4;
    size_t hl = strcspn(h, ",");
    if (h[hl] == ',') snprintf(out, n, "%.*s:%.16s", (int)(hl < 120 ? hl : 120), h, h + hl + 1);
    else if (cp->port[0] && !strchr(h, ':')) snprintf(out, n, "%.120s:%.16s", h, cp->port);
    else snprintf(out, n, "%.140s", h);
}

int odbc_cs_target(bb_target *t, bb_err *err)
{
    cs_parts cp;
    memset(&cp, 0, sizeof cp);
    cp.t = t;
    if (odbc_cs_each(t->dsn, collect, &cp, err) < 0) return -1;
    if (cp.dsn[0]) dsn_lookup(&cp);
    driver_quirks(&cp);
    char hp[160] = "";
    if (cp.server[0]) host_port(&cp, hp, sizeof hp);
    else if (cp.dbq[0]) keep(hp, sizeof hp, cp.dbq);
    else if (cp.database[0]) keep(hp, sizeof hp, cp.database);
    if (cp.dsn[0] && hp[0]) snprintf(t->where, sizeof t->where, "%s (DSN %s)", hp, cp.dsn);
    else if (cp.dsn[0]) snprintf(t->where, sizeof t->where, "DSN %s", cp.dsn);
    else snprintf(t->where, sizeof t->where, "%s", hp[0] ? hp : "(driver default)");
    odbc_cs_mask(t->where, t->secret, t->nsecret); /* a password used as a host name stays hidden too */
    return 0;
}

typedef struct cs_build {
    bb_target *t;
    bb_buf out;
} cs_build;

static int copy_unset(void *ud, const char *key, size_t klen, const char *val)
{
    cs_build *b = ud;
    for (int i = 0; i < b->t->nset; i++)
        if (key_is(key, klen, b->t->set_name[i])) return 0; /* the first occurrence wins in ODBC: drop theirs */
    odbc_cs_put(&b->out, key, klen, val);
    return 0;
}

char *odbc_cs_session(bb_target *t)
{
    cs_build b = { t, { 0 } };
    bb_err ignore;
    pthread_mutex_lock(&t->mu);
    if (t->nset == 0 && !t->timeout) {
        pthread_mutex_unlock(&t->mu);
        return bb_xstrdup(t->dsn);
    }
    odbc_cs_each(t->dsn, copy_unset, &b, &ignore); /* parsed once already at target_open */
    for (int i = 0; i < t->nset; i++) odbc_cs_put(&b.out, t->set_name[i], strlen(t->set_name[i]), t->set_value[i]);
    if (t->timeout) odbc_cs_put(&b.out, t->timeout, strlen(t->timeout), "5");
    pthread_mutex_unlock(&t->mu);
    bb_buf_putc(&b.out, 0);
    return b.out.p;
}
