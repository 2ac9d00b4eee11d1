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
@ needs pg
$ ./bulkbench run workloads/quickstart.lua --engine=pg --dsn="${BULKBENCH_PG_DSN%/*}/nosuchdb" --rows=10
? 1
~ database "nosuchdb" does not exist

# conninfo key=value strings work too
@ needs pg
$ h=${BULKBENCH_PG_DSN#*@}; ./bulkbench run workloads/quickstart.lua --engine=pg --dsn="host=${h%%:*} port=$(echo $h | sed 's/.*:\([0-9]*\)\/.*/\1/') user=bench dbname=bench" --method=copy --rows=100
? 0
~ pg +copy .* 100 .* ok

# PG* environment variables are honoured when --dsn is absent
@ needs pg
$ h=${BULKBENCH_PG_DSN#*@}; PGHOST=127.0.0.1 PGPORT=$(echo $h | sed 's/.*:\([0-9]*\)\/.*/\1/') PGUSER=bench PGDATABASE=bench ./bulkbench run workloads/quickstart.lua --engine=pg --method=copy --rows=100
? 0
~ pg +copy .* ok

# a generator that does not fit its column is named with the value
@ needs pg
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "badgen" { {"id","int",bb.string{len=5}} }\nbb.load(t)\n' >$TMP/badgen.lua; ./bulkbench run $TMP/badgen.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=insert --rows=10
? 1
~ does not fit a integer column

# LOAD DATA is not a PostgreSQL method
$ ./bulkbench run workloads/quickstart.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=load
? 2
~ engine pg does not offer method load \(it offers: insert, insert-simple, txn, multirow, pipeline, copy, copy-csv, copy-binary\)

# each engine's default method for the seed-000 scenario, verified
@ needs pg
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg,sqlite --rows=5000
? 0
~ pg +copy .* 5000 .* ok
~ sqlite +txn .* 5000 .* ok

# one --dsn for several engines is refused as ambiguous
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg,sqlite --dsn=$BULKBENCH_PG_DSN --rows=5000
? 2
~ --dsn with several engines is ambiguous

# multirow of 1,000 rows x 9 columns (9,000 parameters, more than libpq 15.18 can describe) loads exactly what copy loads
@ needs pg
$ printf 'local bb = require "bulkbench"\nlocal r = bb.connect("pg", os.getenv("BULKBENCH_PG_DSN")):query("SELECT count(*), md5(string_agg(t::text, chr(124) ORDER BY hist_id)) FROM bmsql_history t")[1]\nprint(r[1] .. " " .. r[2])\n' >$TMP/md5.lua; for m in copy multirow; do ./bulkbench run workloads/copy_vs_load.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=$m --batch=1000 --rows=20000 --seed=3 --now='2024-05-06 07:08:09' >$TMP/$m.out 2>&1 || cat $TMP/$m.out; ./bulkbench lua $TMP/md5.lua; done | uniq -c
? 0
~ ^ +2 20000 [0-9a-f]{32}$
! FAILED|lost synchronization

# 16 columns x 4,095 rows: 65,520 parameters per statement, three statements, every row there
@ needs pg
$ printf 'local bb = require "bulkbench"\nlocal cols = { { "seq", "bigint", bb.seq() } }\nfor i = 1, 15 do cols[#cols + 1] = { "c" .. i, "int", bb.int { 0, 1000000 } } end\nbb.load(bb.table "wide16" (cols))\n' >$TMP/wide16.lua; ./bulkbench run $TMP/wide16.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=multirow --batch=4095 --rows=12285 --format=json
? 0
~ "rows":12285,
~ "verified_rows":12285
! lost synchronization

# copy-binary into a mixed-case table: its columns are looked up by the quoted name COPY uses (a bare name folds to lower case)
@ needs pg
$ sed 's/bb.table "bmsql_history"/bb.table "Page_History"/' workloads/copy_vs_load.lua >$TMP/mixed.lua; ./bulkbench run $TMP/mixed.lua --engine=pg --dsn=$BULKBENCH_PG_DSN --method=copy-binary --rows=1000
? 0
~ pg +copy-binary .* 1000 .* ok
