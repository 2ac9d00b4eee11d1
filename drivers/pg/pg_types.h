/* pg_types.h — PostgreSQL's binary wire formats for the types bulkbench generates, used
 * for prepared-statement parameters and COPY BINARY alike. */
#ifndef BB_PG_TYPES_H
#define BB_PG_TYPES_H

#include <libpq-fe.h>

#include "../../base/err.h"
#include "../../base/buf.h"
#include "../driver.h"
#include "../value.h"

/* Type OIDs from pg_type.h (stable across server versions). */
enum {
    PGT_BOOL = 16,
    PGT_BYTEA = 17,
    PGT_INT8 = 20,
    PGT_INT2 = 21,
    PGT_INT4 = 23,
    PGT_TEXT = 25,
    PGT_JSON = 114,
    PGT_FLOAT4 = 700,
    PGT_FLOAT8 = 701,
    PGT_BPCHAR = 1042,
    PGT_VARCHAR = 1043,
    PGT_DATE = 1082,
    PGT_TIMESTAMP = 1114,
    PGT_TIMESTAMPTZ = 1184,
    PGT_NUMERIC = 1700,
    PGT_UUID = 2950,
    PGT_JSONB = 3802
};

#define PGT_EPOCH_DAYS 10957LL /* 2000-01-01, PostgreSQL's epoch, in days since 1970-01-01 */

/* The type a prepared statement's parameter of storage class t is declared as, so the
 * server need not be asked: only classes that name one PostgreSQL type. 0 when only the
 * server knows (an int is int2, int4 or int8; text may be varchar, json, an enum...). */
Oid pgt_declared(bb_sqltype t);
/* Whether values of type oid can be sent in binary by pgt_put. */
int pgt_binary(Oid oid);
/* Whether the binary form is the value's own bytes (text-like types), so no copy is needed. */
int pgt_verbatim(Oid oid);
/* Appends the binary form of v as type oid (without the length word). Fails with a
 * message naming the value when it does not fit the type. */
int pgt_put(bb_buf *out, Oid oid, const bb_value *v, bb_err *err);
/* The writer of a binary COPY field of type oid (see bb_field_fn), NULL for a type
 * pgt_binary refuses; *native: the bb_native it takes alone, BB_N_NONE for none;
 * *form: the bb_field_form the runtime may write itself. */
bb_field_fn pgt_field(Oid oid, unsigned char *native, unsigned char *form);

/* Appends v as text (for types sent in text format); no terminator. */
void pgt_put_text(bb_buf *out, const bb_value *v);

#endif
