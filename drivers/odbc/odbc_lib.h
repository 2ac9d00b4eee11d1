/* odbc_lib.h — the unixODBC functions the odbc engine calls (the driver manager's and one
 * of odbcinst's), loaded when the engine is first used (lazylib.h). Included by the
 * engine's files through odbc_priv.h. */
#ifndef BB_ODBC_LIB_H
#define BB_ODBC_LIB_H

#include <odbcinst.h>
#include <sql.h>
#include <sqlext.h>

#include "../lazylib.h"

// clang-format off
#define ODBC_LIB_FNS(X) \
    X(SQLAllocHandle) \
    X(SQLBindParameter) \
    X(SQLColumns) \
    X(SQLDescribeCol) \
    X(SQLDisconnect) \
    X(SQLDriverConnect) \
    X(SQLEndTran) \
    X(SQLExecDirect) \
    X(SQLExecute) \
    X(SQLFetch) \
    X(SQLForeignKeys) \
    X(SQLFreeHandle) \
    X(SQLFreeStmt) \
    X(SQLGetConnectAttr) \
    X(SQLGetData) \
    X(SQLGetDiagRec) \
    X(SQLGetInfo) \
    X(SQLMoreResults) \
    X(SQLNumParams) \
    X(SQLNumResultCols) \
    X(SQLPrepare) \
    X(SQLPrimaryKeys) \
    X(SQLRowCount) \
    X(SQLSetConnectAttr) \
    X(SQLSetEnvAttr) \
    X(SQLSetStmtAttr) \
    X(SQLStatistics) \
    X(SQLTables) \

#define ODBCINST_LIB_FNS(X) \
    X(SQLGetPrivateProfileString)
// clang-format on

struct odbc_lib {
    ODBC_LIB_FNS(LAZYLIB_DECL)
};
struct odbcinst_lib {
    ODBCINST_LIB_FNS(LAZYLIB_DECL)
};
extern struct odbc_lib odbc_lib;
extern struct odbcinst_lib odbcinst_lib;

/* Loads libodbc.so.2 and libodbcinst.so.2 once; 0, or -1 with err naming what is missing. */
int odbc_lib_load(bb_err *err);

#ifndef ODBC_LIB_OWN /* the engine's calls go through the structs */
// clang-format off
#define SQLAllocHandle (odbc_lib.SQLAllocHandle)
#define SQLBindParameter (odbc_lib.SQLBindParameter)
#define SQLColumns (odbc_lib.SQLColumns)
#define SQLDescribeCol (odbc_lib.SQLDescribeCol)
#define SQLDisconnect (odbc_lib.SQLDisconnect)
#define SQLDriverConnect (odbc_lib.SQLDriverConnect)
#define SQLEndTran (odbc_lib.SQLEndTran)
#define SQLExecDirect (odbc_lib.SQLExecDirect)
#define SQLExecute (odbc_lib.SQLExecute)
#define SQLFetch (odbc_lib.SQLFetch)
#define SQLForeignKeys (odbc_lib.SQLForeignKeys)
#define SQLFreeHandle (odbc_lib.SQLFreeHandle)
#define SQLFreeStmt (odbc_lib.SQLFreeStmt)
#define SQLGetConnectAttr (odbc_lib.SQLGetConnectAttr)
#define SQLGetData (odbc_lib.SQLGetData)
#define SQLGetDiagRec (odbc_lib.SQLGetDiagRec)
#define SQLGetInfo (odbc_lib.SQLGetInfo)
#define SQLMoreResults (odbc_lib.SQLMoreResults)
#define SQLNumParams (odbc_lib.SQLNumParams)
#define SQLNumResultCols (odbc_lib.SQLNumResultCols)
#define SQLPrepare (odbc_lib.SQLPrepare)
#define SQLPrimaryKeys (odbc_lib.SQLPrimaryKeys)
#define SQLRowCount (odbc_lib.SQLRowCount)
#define SQLSetConnectAttr (odbc_lib.SQLSetConnectAttr)
#define SQLSetEnvAttr (odbc_lib.SQLSetEnvAttr)
#define SQLSetStmtAttr (odbc_lib.SQLSetStmtAttr)
#define SQLStatistics (odbc_lib.SQLStatistics)
#define SQLTables (odbc_lib.SQLTables)
#define SQLGetPrivateProfileString (odbcinst_lib.SQLGetPrivateProfileString)
// clang-format on
#endif

#endif
