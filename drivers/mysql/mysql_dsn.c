/* mysql_dsn.c — mysql://user[:pass]@host[:port]/db[?param=value&...]: the DSN as a target, and
 * the TLS a session asks for from it, in the mariadb client's words: socket, ssl-mode
 * (DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY), ssl-ca, ssl-cert, ssl-key,
 * ssl-verify-server-cert ("_" for "-" as option files allow). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mysql_priv.h"

static const char *const SSL_MODES[] = { "", "DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY", NULL };
#define DSN_PARAMS "socket, ssl-mode, ssl-ca, ssl-cert, ssl-key, ssl-verify-server-cert"

static int hexval(int c) { return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1; }

/* copies n bytes of s into out, undoing %XX escapes (user names and passwords may need them) */
static int unescape(char *out, size_t cap, const char *s, size_t n)
{
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (j + 1 >= cap) return -1;
        if (s[i] == '%' && i + 2 < n + 0 && hexval((unsigned char)s[i + 1]) >= 0 &&
            hexval((unsigned char)s[i + 2]) >= 0) {
            out[j++] = (char)(hexval((unsigned char)s[i + 1]) * 16 + hexval((unsigned char)s[i + 2]));
            i += 2;
        } else out[j++] = s[i];
    }
    out[j] = 0;
    return 0;
}

/* one name=value of the query string into t */
static int dsn_param(bb_target *t, const char *name, const char *v, size_t vn, bb_err *err)
{
    char *file = !strcmp(name, "socket")   ? t->socket
                 : !strcmp(name, "ssl-ca")   ? t->ssl_ca
                 : !strcmp(name, "ssl-cert") ? t->ssl_cert
                 : !strcmp(name, "ssl-key")  ? t->ssl_key
                                             : NULL;
    if (file) return unescape(file, sizeof t->socket, v, vn) < 0 ? bb_usagef(err, "mysql: --dsn's %s is too long", name) : 0;
    if (!strcmp(name, "ssl-mode")) {
        for (int i = 1; SSL_MODES[i]; i++)
            if (strlen(SSL_MODES[i]) == vn && !strncasecmp(v, SSL_MODES[i], vn)) return t->ssl_mode = i, 0;
        return bb_usagef(err, "mysql: --dsn's ssl-mode=%.*s: it is DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY",
                         (int)vn, v);
    }
    if (!strcmp(name, "ssl-verify-server-cert")) {
        int on = vn == 1 && *v == '1' ? 1 : vn == 1 && *v == '0' ? 0 : (vn == 4 && !strncasecmp(v, "true", 4)) ? 1
                 : (vn == 5 && !strncasecmp(v, "false", 5))                                                      ? 0
                                                                                                                 : -1;
        if (on < 0) return bb_usagef(err, "mysql: --dsn's ssl-verify-server-cert=%.*s: it is 1 or 0", (int)vn, v);
        t->verify = on;
        return 0;
    }
    return bb_usagef(err, "mysql: unknown --dsn parameter '%s' (the parameters are " DSN_PARAMS ")", name);
}

/* ?a=1&b=2 into t, then what the TLS parameters ask checked against each other */
static int dsn_query(bb_target *t, const char *q, bb_err *err)
{
    t->verify = -1;
    for (const char *p = q; *p;) {
        size_t n = strcspn(p, "&"), k = strcspn(p, "=");
        if (k >= n) return bb_usagef(err, "mysql: --dsn parameter '%.*s' needs a value: NAME=VALUE", (int)n, p);
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(k < sizeof name - 1 ? k : sizeof name - 1), p);
        for (char *c = name; *c; c++) *c = *c == '_' ? '-' : (char)tolower((unsigned char)*c);
        if (dsn_param(t, name, p + k + 1, n - k - 1, err) < 0) return -1;
        p += n + (p[n] == '&');
    }
    int files = t->ssl_ca[0] || t->ssl_cert[0] || t->ssl_key[0];
    if (t->ssl_mode == MY_SSL_DISABLED && (files || t->verify == 1))
        return bb_usagef(err, "mysql: --dsn's ssl-mode=DISABLED takes no ssl-ca, ssl-cert, ssl-key or ssl-verify-server-cert");
    if (t->ssl_mode == MY_SSL_VERIFY_CA && !t->ssl_ca[0])
        return bb_usagef(err, "mysql: --dsn's ssl-mode=VERIFY_CA needs ssl-ca=FILE, the CA to verify the server against");
    if (!!t->ssl_cert[0] != !!t->ssl_key[0])
        return bb_usagef(err, "mysql: --dsn's ssl-cert and ssl-key go together (the client's certificate and its key)");
    return 0;
}

int my_target_open(const char *dsn, bb_target **out, bb_err *err)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, (void (*)(void))mysql_library_init); /* not thread-safe: once, before the workers */
    bb_target *t = bb_xcalloc(1, sizeof *t);
    const char *p = dsn ? dsn : "";
    if (*p && strncmp(p, "mysql://", 8) != 0 && strncmp(p, "mariadb://", 10) != 0) {
        free(t);
        return bb_usagef(err, "mysql: --dsn must look like mysql://user:pass@host:port/db[?param=value&...]");
    }
    if (*p) p = strstr(p, "://") + 3;
    const char *q = strchr(p, '?');
    char head[1024]; /* what comes before the parameters: a file name after them may hold an @ */
    snprintf(head, sizeof head, "%.*s", (int)(q ? q - p : (long)strlen(p)), p);
    const char *at = strrchr(head, '@'), *hp = at ? at + 1 : head;
    if (at) {
        const char *colon = memchr(head, ':', (size_t)(at - head));
        size_t ulen = colon ? (size_t)(colon - head) : (size_t)(at - head);
        if (unescape(t->user, sizeof t->user, head, ulen) < 0 ||
            (colon && unescape(t->pass, sizeof t->pass, colon + 1, (size_t)(at - colon - 1)) < 0)) {
            free(t);
            return bb_usagef(err, "mysql: user or password in --dsn too long");
        }
    }
    const char *slash = strchr(hp, '/'), *hend = slash ? slash : hp + strlen(hp);
    const char *pc = memchr(hp, ':', (size_t)(hend - hp));
    snprintf(t->host, sizeof t->host, "%.*s", (int)((pc ? pc : hend) - hp), hp);
    if (pc) {
        char *e;
        long port = strtol(pc + 1, &e, 10);
        if (e != hend || port <= 0 || port > 65535) {
            free(t);
            return bb_usagef(err, "mysql: the port in --dsn is not a number from 1 to 65535");
        }
        t->port = (unsigned)port;
    }
    if (slash) snprintf(t->db, sizeof t->db, "%s", slash + 1);
    if (dsn_query(t, q ? q + 1 : "", err) < 0) {
        free(t);
        return -1;
    }
    if (t->socket[0]) snprintf(t->where, sizeof t->where, "%s", t->socket);
    else snprintf(t->where, sizeof t->where, "%s:%u", t->host[0] ? t->host : "localhost", t->port ? t->port : 3306);
    *out = t;
    return 0;
}

void my_tls_options(MYSQL *my, const bb_target *t)
{
    my_bool on = 1, off = 0;
    int want = t->ssl_mode >= MY_SSL_PREFERRED || t->ssl_ca[0] || t->ssl_cert[0] || t->verify == 1;
    if (want) mysql_ssl_set(my, NULL, NULL, NULL, NULL, NULL); /* TLS when the server offers it */
    if (t->ssl_ca[0]) mysql_options(my, MYSQL_OPT_SSL_CA, t->ssl_ca); /* the chain is verified against it */
    if (t->ssl_cert[0]) mysql_options(my, MYSQL_OPT_SSL_CERT, t->ssl_cert);
    if (t->ssl_key[0]) mysql_options(my, MYSQL_OPT_SSL_KEY, t->ssl_key);
    if (t->ssl_mode >= MY_SSL_REQUIRED) mysql_options(my, MYSQL_OPT_SSL_ENFORCE, &on);
    if (t->ssl_mode == MY_SSL_VERIFY_IDENTITY || t->verify >= 0)
        mysql_options(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, t->ssl_mode == MY_SSL_VERIFY_IDENTITY || t->verify == 1 ? &on : &off);
}

int my_tls_check(MYSQL *my, const bb_target *t, bb_err *err)
{
    if (mysql_get_ssl_cipher(my) || (t->ssl_mode < MY_SSL_REQUIRED && t->verify != 1)) return 0;
    return bb_errf(err, "mysql: %s did not encrypt the session, and --dsn's ssl-mode=%s asks for TLS: does the server "
                   "have a certificate (ssl_cert, ssl_key)?",
                   t->where, SSL_MODES[t->ssl_mode > 0 ? t->ssl_mode : MY_SSL_REQUIRED]);
}

void my_tls_info(MYSQL *my, int *on, char *version, size_t vn, char *cipher, size_t cn)
{
    const char *c = mysql_get_ssl_cipher(my), *v = NULL;
    *on = c != NULL;
    snprintf(cipher, cn, "%s", c ? c : "");
#ifdef MARIADB_PACKAGE_VERSION_ID /* Connector/C tells the protocol; MySQL's library would need a query */
    if (c) mariadb_get_infov(my, MARIADB_CONNECTION_TLS_VERSION, &v);
#endif
    snprintf(version, vn, "%s", v ? v : "");
}
