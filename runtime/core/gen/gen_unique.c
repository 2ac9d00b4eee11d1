/* gen_unique.c — unique: a pattern each row fills with a different number (a key's values in
 * their observed shape, as `bulkbench new` writes them: C-000001, MC-7, c12@example.com). */
#include "gen_priv.h"
#include "../../../base/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* bb.unique{ "C########", order = "random" | "seq", start = 0, pad = true, suffix = "" }: '#' a
 * decimal digit, '@' a letter a-z, together the digits of one number in mixed radix, the rest
 * literal, and suffix literal after it all. seq: row n gets start + n; random: a shuffle of every number the pattern holds.
 * Unique for as many rows as the pattern has numbers. pad = false drops the leading zeros
 * of the first run of '#'s. */
static gen_fill_fn gen_unique_unpadded_fill;

/* suffix = TEXT: literal text after the pattern, its '#' and '@' included (an e-mail's domain). */
static void gen_unique_suffix(gen_col *c, const gen_args *a)
{
    size_t len;
    const char *sfx = gen_str(a, "suffix", 0, &len);
    c->lit_from = c->text_len;
    if (!sfx || !len) return;
    char *t = bb_xmalloc(c->text_len + len + GEN_PAD);
    memcpy(t, c->text, c->text_len);
    memcpy(t + c->text_len, sfx, len);
    t[c->text_len + len] = 0;
    free(c->text);
    c->text = t;
    c->text_len += (uint32_t)len;
    c->max_len = c->text_len;
    c->clean = (uint8_t)gen_clean_text(c->text, c->text_len);
}

int gen_unique_parse(gen_col *c, const gen_args *a)
{
    if (gen_text_parse(c, a) < 0) return -1;
    gen_unique_suffix(c, a);
    double cap = 1;
    for (uint32_t i = 0; i < c->lit_from; i++) cap *= c->text[i] == '#' ? 10 : c->text[i] == '@' ? 26 : 1;
    if (cap < 2) return bb_usagef(a->err, "column %s: a unique pattern needs '#' or '@' positions", a->col);
    if (cap > 4e18) return bb_usagef(a->err, "column %s: a unique pattern holds at most 4e18 numbers", a->col);
    c->a = 0;
    c->b = (int64_t)llround(cap) - 1;
    size_t len;
    const char *order = gen_str(a, "order", 0, &len);
    c->db = gen_num(a, "start", 0, 0);
    if (order && strcmp(order, "seq") && strcmp(order, "random"))
        return bb_usagef(a->err, "column %s: unique order is 'seq' or 'random', not '%s'", a->col, order);
    c->scale = order && strcmp(order, "seq") == 0;
    if (!c->scale) gen_perm_compile(c);
    if (gen_has(a, "pad", 0) && !gen_num(a, "pad", 0, 1)) c->fill = gen_unique_unpadded_fill;
    return 0;
}

char *gen_unique_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    uint64_t span = (uint64_t)c->b + 1, x = c->scale ? ((uint64_t)c->db + n) % span : (uint64_t)gen_perm_at(c, n);
    memcpy(p + c->lit_from, c->text + c->lit_from, c->text_len - c->lit_from);
    for (uint32_t i = c->lit_from; i-- > 0;) {
        char ch = c->text[i];
        if (ch == '#') {
            p[i] = (char)('0' + x % 10);
            x /= 10;
        } else if (ch == '@') {
            p[i] = (char)('a' + x % 26);
            x /= 26;
        } else p[i] = ch;
    }
    v->kind = BB_V_TEXT;
    v->u.s = p;
    v->len = c->text_len;
    return p + c->text_len;
}

/* pad = false: the number's leading zeros dropped (the first run of '#'s keeps one digit at
 * least), so 'MC-####' writes MC-7 and MC-1234 as a column of MC-1 .. MC-3000 had them. */
static char *gen_unique_unpadded_fill(const gen_col *c, uint64_t n, bb_value *v, char *p)
{
    char *end = gen_unique_fill(c, n, v, p);
    uint32_t i = 0, j;
    while (i < c->lit_from && c->text[i] != '#') i++;
    for (j = i; j + 1 < c->lit_from && c->text[j + 1] == '#' && p[j] == '0'; j++) {}
    if (j == i) return end;
    memmove(p + i, p + j, c->text_len - j);
    v->len -= j - i;
    return end - (j - i);
}
