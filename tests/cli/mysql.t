# a wrong password fails naming host:port, never echoing the password, exit 1
@ needs mysql
$ d=${BULKBENCH_MYSQL_DSN#*@}; ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn="mysql://bench:Sekr3tPw@$d" --rows=10
? 1
~ mysql: cannot connect to 127\.0\.0\.1:[0-9]+: Access denied for user 'bench'
! Sekr3tPw

# a down server fails within seconds, naming host:port
$ start=$(date +%s); ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn=mysql://u:Sekr3tPw@127.0.0.1:1/x --rows=10; echo "rc=$? secs=$(( $(date +%s) - start ))"
? 0
~ mysql: cannot connect to 127\.0\.0\.1:1: 
~ rc=1 secs=[0-9]$
! Sekr3tPw

# a malformed DSN is a usage error
$ ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn=postgresql://x@y/z --rows=10
? 2
~ --dsn must look like mysql://

# a bad port in the DSN is a usage error
$ ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn=mysql://u@127.0.0.1:99999/x --rows=10
? 2
~ port in --dsn is not a number

# a database that does not exist is named
@ needs mysql
$ ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn="${BULKBENCH_MYSQL_DSN%/*}/nosuchdb" --rows=10
? 1
~ Unknown database 'nosuchdb'

# the unix socket form works: ?socket=/path
@ needs mysql
$ ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn="mysql://bench:bench@localhost/bench?socket=$BB_DBCTL_DIR/mysql/mysqld.sock" --method=load --rows=100
? 0
~ mysql +load .* 100 .* ok

# the client option file's [client] group is honoured (user and password from it)
@ needs mysql
$ d=${BULKBENCH_MYSQL_DSN#*@}; printf '[client]\nuser=bench\npassword=bench\n' >$TMP/my.cnf; HOME=$TMP; cp $TMP/my.cnf $TMP/.my.cnf; HOME=$TMP ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn="mysql://$d" --method=load --rows=100
? 0
~ mysql +load .* 100 .* ok

# InnoDB or MyISAM from the table DSL
@ needs mysql
$ ./bulkbench run tests/fixtures/alltypes.lua --engine=mysql --storage=MyISAM --method=multirow --rows=100
? 0
~ mysql +multirow .* 100 .* ok

# COPY is not a MySQL method
$ ./bulkbench run workloads/quickstart.lua --engine=mysql --method=copy
? 2
~ engine mysql does not offer method copy \(it offers: insert, insert-simple, txn, multirow, pipeline, load\)

# multirow splits a batch that would exceed max_allowed_packet (1 MB here) into pieces
@ needs mysql
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "wide" { {"id","int",bb.seq()}, {"s","text",bb.string{len=4000}} }\nbb.load(t)\nfunction on_connect(db) end\n' >$TMP/wide.lua; mariadb -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/') -ubench -pbench -e 'SET GLOBAL max_allowed_packet = 1048576'; ./bulkbench run $TMP/wide.lua --engine=mysql --method=multirow --batch=2000 --rows=4000; rc=$?; mariadb -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/') -ubench -pbench -e 'SET GLOBAL max_allowed_packet = 67108864'; exit $rc
? 0
~ mysql +multirow +1 +2000 +4000 .* ok
