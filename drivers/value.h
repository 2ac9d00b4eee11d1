/* value.h — one generated row as the generator hands it to encoders and drivers. */
#ifndef BB_VALUE_H
#define BB_VALUE_H

#include <stddef.h>
#include <stdint.h>

/* The storage class a column's SQL type maps to. Drivers pick wire formats from it
 * (binary int for INT, text for NUMERIC, ...); encoders decide on quoting from it. */
typedef enum bb_sqltype {
    BB_T_INT,       /* smallint, int, bigint */
    BB_T_DOUBLE,    /* real, double precision, float */
    BB_T_NUMERIC,   /* decimal(p,s): carried as text so no precision is lost */
    BB_T_TEXT,      /* char, varchar, text */
    BB_T_TIMESTAMP, /* text 'YYYY-MM-DD HH:MM:SS[.ffffff]' */
    BB_T_DATE,      /* text 'YYYY-MM-DD' */
    BB_T_BOOL,      /* int 0/1 */
    BB_T_UUID,      /* text, canonical 8-4-4-4-12 form */
    BB_T_BYTES      /* binary data */
} bb_sqltype;

typedef enum bb_vkind { BB_V_NULL, BB_V_INT, BB_V_DOUBLE, BB_V_TEXT } bb_vkind;

/* What a text value also carries natively, so binary encoders need not parse it back. */
typedef enum bb_native { BB_N_NONE, BB_N_MICROS, BB_N_DAYS, BB_N_SCALED } bb_native;

/* A value: ints and doubles inline, text points into the row's scratch or a constant. */
typedef struct bb_value {
    uint8_t kind;   /* bb_vkind */
    uint8_t clean;  /* BB_V_TEXT: holds none of \t \n \r \\ , " ' NUL, so no format needs escaping */
    uint8_t native; /* bb_native: what aux holds */
    uint8_t scale;  /* BB_N_SCALED: digits after the point */
    uint32_t len;   /* BB_V_TEXT: bytes at s */
    union {
        int64_t i;
        double d;
        const char *s;
    } u;
    int64_t aux; /* microseconds or days since 1970-01-01, or the decimal's unscaled value */
} bb_value;

#endif
