# a down server fails within seconds, naming host:port, never the password
$ start=$(date +%s); ./bulkbench run workloads/quickstart.lua --engine=pg --dsn=postgresql://u:Sekr3tPw@127.0.0.1:1/x --rows=10; rc=$?; echo "rc=$rc secs=$(( $(date +%s) - start ))"
? 0
~ pg: cannot connect to 127\.0\.0\.1:1: .*refused
~ rc=1 secs=[0-9]$
! Sekr3tPw

# a malformed DSN is a usage error
$ ./bulkbench run workloads/quickstart.lua --engine=pg --dsn='not a dsn' --rows=10
? 2
~ pg: cannot parse --dsn

# a database that does not exist is named
$ ./bulkbench run workloads/quickstart.lua --engine=pg --dsn="${BULKBENCH_PG_DSN%/*}/nosuchdb" --rows=10
? 1
~ database "nosuchdb" does not exist

# conninfo key=value strings work too
$ h=${BULKBENCH_PG_DSN#*@}; ./bulkbench run workloads/quickstart.lua --engine=pg --dsn="host=${h%%:*} port=$(echo $h | sed 's/.*:\([0-9]*\)\/.*/\1/') user=bench dbname=bench" --method=copy --rows=100
? 0
~ pg +copy .* 100 .* ok

# PG* environment variables are honoured when --dsn is absent
$ h=${BULKBENCH_PG_DSN#*@}; PGHOST=127.0.0.1 PGPORT=$(echo $h | sed 's/.*:\([0-9]*\)\/.*/\1/') PGUSER=bench PGDATABASE=bench ./bulkbench run workloads/quickstart.lua --engine=pg --method=copy --rows=100
? 0
~ pg +copy .* ok

# a generator that does not fit its column is named with the value
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "badgen" { {"id","int",bb.string{len=5}} }\nbb.load(t)\n' >$TMP/badgen.lua; ./bulkbench run $TMP/badgen.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=insert --rows=10
? 1
~ does not fit a integer column

# LOAD DATA is not a PostgreSQL method
$ ./bulkbench run workloads/quickstart.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=load
? 2
~ engine pg does not offer method load \(it offers: insert, insert-simple, txn, multirow, pipeline, copy, copy-csv, copy-binary\)

# each engine's default method for the seed-000 scenario, verified
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg,sqlite --rows=5000
? 0
~ pg +copy .* 5000 .* ok
~ sqlite +txn .* 5000 .* ok

# one --dsn for several engines is refused as ambiguous
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg,sqlite --dsn=$BULKBENCH_PG_DSN --rows=5000
? 2
~ --dsn with several engines is ambiguous
