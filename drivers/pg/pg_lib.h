/* pg_lib.h — the libpq functions the pg engine calls, loaded when the engine is first
 * used (lazylib.h). Included after libpq-fe.h by the engine's files (pg_priv.h). */
#ifndef BB_PG_LIB_H
#define BB_PG_LIB_H

#include <libpq-fe.h>

#include "../lazylib.h"

// clang-format off
#define PG_LIB_FNS(X) \
    X(PQbackendPID) \
    X(PQclear) \
    X(PQcmdTuples) \
    X(PQconnectdbParams) \
    X(PQconninfoFree) \
    X(PQconninfoParse) \
    X(PQconsumeInput) \
    X(PQdescribePrepared) \
    X(PQenterPipelineMode) \
    X(PQerrorMessage) \
    X(PQescapeLiteral) \
    X(PQexec) \
    X(PQexecParams) \
    X(PQexecPrepared) \
    X(PQexitPipelineMode) \
    X(PQfinish) \
    X(PQflush) \
    X(PQfname) \
    X(PQfreemem) \
    X(PQgetResult) \
    X(PQgetisnull) \
    X(PQgetlength) \
    X(PQgetvalue) \
    X(PQisBusy) \
    X(PQlibVersion) \
    X(PQnfields) \
    X(PQnparams) \
    X(PQntuples) \
    X(PQparamtype) \
    X(PQpipelineSync) \
    X(PQprepare) \
    X(PQputCopyData) \
    X(PQputCopyEnd) \
    X(PQresultErrorField) \
    X(PQresultErrorMessage) \
    X(PQresultStatus) \
    X(PQsendQueryPrepared) \
    X(PQserverVersion) \
    X(PQsetNoticeReceiver) \
    X(PQsetnonblocking) \
    X(PQsocket) \
    X(PQsslAttribute) \
    X(PQsslInUse) \
    X(PQstatus) \
    X(PQtransactionStatus)

// clang-format on

struct pg_lib {
    PG_LIB_FNS(LAZYLIB_DECL)
};
extern struct pg_lib pg_lib;

/* Loads libpq.so.5 once; 0, or -1 with err naming what is missing. */
int pg_lib_load(bb_err *err);

#ifndef PG_LIB_OWN /* the engine's calls go through the struct */
// clang-format off
#define PQbackendPID (pg_lib.PQbackendPID)
#define PQclear (pg_lib.PQclear)
#define PQcmdTuples (pg_lib.PQcmdTuples)
#define PQconnectdbParams (pg_lib.PQconnectdbParams)
#define PQconninfoFree (pg_lib.PQconninfoFree)
#define PQconninfoParse (pg_lib.PQconninfoParse)
#define PQconsumeInput (pg_lib.PQconsumeInput)
#define PQdescribePrepared (pg_lib.PQdescribePrepared)
#define PQenterPipelineMode (pg_lib.PQenterPipelineMode)
#define PQerrorMessage (pg_lib.PQerrorMessage)
#define PQescapeLiteral (pg_lib.PQescapeLiteral)
#define PQexec (pg_lib.PQexec)
#define PQexecParams (pg_lib.PQexecParams)
#define PQexecPrepared (pg_lib.PQexecPrepared)
#define PQexitPipelineMode (pg_lib.PQexitPipelineMode)
#define PQfinish (pg_lib.PQfinish)
#define PQflush (pg_lib.PQflush)
#define PQfname (pg_lib.PQfname)
#define PQfreemem (pg_lib.PQfreemem)
#define PQgetResult (pg_lib.PQgetResult)
#define PQgetisnull (pg_lib.PQgetisnull)
#define PQgetlength (pg_lib.PQgetlength)
#define PQgetvalue (pg_lib.PQgetvalue)
#define PQisBusy (pg_lib.PQisBusy)
#define PQlibVersion (pg_lib.PQlibVersion)
#define PQnfields (pg_lib.PQnfields)
#define PQnparams (pg_lib.PQnparams)
#define PQntuples (pg_lib.PQntuples)
#define PQparamtype (pg_lib.PQparamtype)
#define PQpipelineSync (pg_lib.PQpipelineSync)
#define PQprepare (pg_lib.PQprepare)
#define PQputCopyData (pg_lib.PQputCopyData)
#define PQputCopyEnd (pg_lib.PQputCopyEnd)
#define PQresultErrorField (pg_lib.PQresultErrorField)
#define PQresultErrorMessage (pg_lib.PQresultErrorMessage)
#define PQresultStatus (pg_lib.PQresultStatus)
#define PQsendQueryPrepared (pg_lib.PQsendQueryPrepared)
#define PQserverVersion (pg_lib.PQserverVersion)
#define PQsetNoticeReceiver (pg_lib.PQsetNoticeReceiver)
#define PQsetnonblocking (pg_lib.PQsetnonblocking)
#define PQsocket (pg_lib.PQsocket)
#define PQsslAttribute (pg_lib.PQsslAttribute)
#define PQsslInUse (pg_lib.PQsslInUse)
#define PQstatus (pg_lib.PQstatus)
#define PQtransactionStatus (pg_lib.PQtransactionStatus)
// clang-format on
#endif

#endif
