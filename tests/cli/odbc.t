# The odbc engine from the command line. Needs the servers and BULKBENCH_ODBC_{PG,MYSQL,SQLITE}
# (tests/run.sh: drivers/odbc/test_setup.sh registers the drivers in scratch ini files).

# bulkbench list offers the engine and what its capability flags allow
$ ./bulkbench list
? 0
~ odbc +any DBMS through its ODBC driver
~ multirow where the DBMS takes row-value lists

# no connection string is a usage error that says what to give
$ ./bulkbench run workloads/batch_insert.lua --engine=odbc --rows=10
? 2
~ give --dsn an ODBC connection string .* or set BULKBENCH_ODBC_DSN

# a brace left open is a usage error too, and the password in it stays hidden
$ ./bulkbench run workloads/batch_insert.lua --engine=odbc --dsn='Driver={x;Server=y;PWD=Sekr3tPw' --rows=10
? 2
~ opens a brace it never closes
! Sekr3tPw

# a down server fails within seconds through either driver, names host:port, never the password
$ for lib in psqlodbcw.so libmaodbc.so; do start=$(date +%s); ./bulkbench run workloads/batch_insert.lua --engine=odbc --dsn="Driver=/usr/lib/x86_64-linux-gnu/odbc/$lib;Server=127.0.0.1;Port=1;Database=x;UID=u;PWD=Sekr3tPw" --rows=10; echo "rc=$? secs=$(( $(date +%s) - start ))"; done
? 0
~ odbc: cannot connect to 127\.0\.0\.1:1: .*refused
~ odbc: cannot connect to 127\.0\.0\.1:1: .*Can't connect
~ rc=1 secs=[0-9]$
! Sekr3tPw

# a driver library that is not there, and a data source that is not defined, are named
$ ./bulkbench run workloads/batch_insert.lua --engine=odbc --dsn='Driver=/nonexistent/libx.so;Server=h1' --rows=10; ./bulkbench run workloads/batch_insert.lua --engine=odbc --dsn=nosuchsource --rows=10
? 1
~ cannot connect to h1: .*Can't open lib '/nonexistent/libx.so'
~ cannot connect to DSN nosuchsource: .*Data source name not found

# streams are not ODBC's
$ ./bulkbench run workloads/batch_insert.lua --engine=odbc --dsn="$BULKBENCH_ODBC_PG" --method=copy
? 2
~ engine odbc does not offer method copy \(it offers: insert, insert-simple, txn, multirow, pipeline\)

# seed 002 through a data source of odbc.ini: txn and pipeline, verified; CSV names the driver
@ needs odbc
$ ./bulkbench run workloads/batch_insert.lua --engine=odbc --dsn="$BULKBENCH_ODBC_MYSQL" --rows=3000 --name_bytes=100 --format=csv
? 0
~ ,driver,
~ ,odbc,txn,1,1000,3000,.*,MariaDB 10\.11\.[0-9]+,libmaodbc\.so 3\.1\.15,3000,
~ ,odbc,pipeline,1,1000,3000,.*,3000,

# a connection-string attribute swept with --set=odbc.NAME: psqlODBC's batch size for arrays
@ needs odbc
$ ./bulkbench run workloads/batch_insert.lua --engine=odbc --dsn="$BULKBENCH_ODBC_PG" --method=pipeline --rows=3000 --name_bytes=100 --set=odbc.BatchSize=1,1000 --format=json
? 0
~ "rows":3000,.*"verified_rows":3000,.*"set":\{"odbc\.BatchSize":"1"\}
~ "rows":3000,.*"verified_rows":3000,.*"set":\{"odbc\.BatchSize":"1000"\}

# SQLite through its ODBC driver, with the quickstart's pragmas
@ needs odbc
$ ./bulkbench run workloads/quickstart.lua --engine=odbc --dsn="$BULKBENCH_ODBC_SQLITE" --method=txn,pipeline --rows=20000
? 0
~ odbc +txn .* 20000 .* ok
~ odbc +pipeline .* 20000 .* ok
