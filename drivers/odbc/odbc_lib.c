/* odbc_lib.c — unixODBC, loaded on first use (odbc_lib.h). */
#define ODBC_LIB_OWN
#include "odbc_lib.h"

struct odbc_lib odbc_lib;
struct odbcinst_lib odbcinst_lib;

int odbc_lib_load(bb_err *err)
{
    static const char *const dm[] = { "libodbc.so.2", "libodbc.so", NULL },
                             *const inst[] = { "libodbcinst.so.2", "libodbcinst.so", NULL };
    static const char *const dm_names[] = { ODBC_LIB_FNS(LAZYLIB_NAME) },
                             *const inst_names[] = { ODBCINST_LIB_FNS(LAZYLIB_NAME) };
    static lazylib l = { "odbc", dm, dm_names, sizeof dm_names / sizeof *dm_names, &odbc_lib, PTHREAD_MUTEX_INITIALIZER,
                         0,      "" };
    static lazylib li = {
        "odbc", inst, inst_names, sizeof inst_names / sizeof *inst_names, &odbcinst_lib, PTHREAD_MUTEX_INITIALIZER,
        0,      ""
    };
    return lazylib_load(&l, err) < 0 || lazylib_load(&li, err) < 0 ? -1 : 0;
}
