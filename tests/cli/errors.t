# a script error names file:line and shows a traceback, exit 1
$ printf 'function event()\nend\n\n\n\n\nerror("boom at seven")\n' >$TMP/bad.lua; ./bulkbench run $TMP/bad.lua
? 1
~ bad\.lua:7: boom at seven
~ stack traceback

# a syntax error names file:line, exit 1
$ printf 'function event(\n' >$TMP/syntax.lua; ./bulkbench run $TMP/syntax.lua
? 1
~ syntax\.lua:[0-9]+:

# an error inside event() names its line, exit 1
$ printf 'local n = 0\nfunction event()\n  n = n + 1\n  if n == 50 then error("fifty") end\nend\n' >$TMP/ev.lua; ./bulkbench run $TMP/ev.lua --engine=null --events=100
? 1
~ ev\.lua:4: fifty
~ in function <.*ev\.lua:2>

# an error in prepare() names its line, exit 1
$ printf 'function prepare(db)\n  db:exec("SELEC 1")\nend\nfunction event() end\n' >$TMP/prep.lua; ./bulkbench run $TMP/prep.lua --events=1
? 1
~ prep\.lua:2: sqlite: .*syntax error

# an error in thread_init() stops the run, exit 1
$ printf 'function thread_init(ctx)\n  error("no init for " .. ctx.id)\nend\nfunction event() end\n' >$TMP/ti.lua; ./bulkbench run $TMP/ti.lua --engine=null --events=10
? 1
~ ti\.lua:2: no init for 0

# a script with no event() and no run() has nothing to do
$ printf 'local x = 1\n' >$TMP/idle.lua; ./bulkbench run $TMP/idle.lua
? 1
~ neither event\(ctx\) nor run\(ctx\)

# a missing script is a usage error
$ ./bulkbench run $TMP/nosuch.lua
? 2
~ cannot read script

# an unknown option names the closest valid one, exit 2
$ ./bulkbench run workloads/quickstart.lua --thread=2
? 2
~ unknown option --thread; did you mean --threads\?

# a misspelled script option is caught too
$ ./bulkbench run workloads/quickstart.lua --jornal=wal
? 2
~ did you mean --journal\?

# a wrong option type is a usage error
$ ./bulkbench run workloads/quickstart.lua --threads=two
? 2
~ --threads expects a whole number, got 'two'

# zero threads is refused
$ ./bulkbench run workloads/quickstart.lua --threads=0
? 2
~ --threads must be at least 1

# negative rows are refused
$ ./bulkbench run workloads/quickstart.lua --rows=-5
? 2
~ --rows must be at least 1

# a script option's validator speaks, exit 2
$ ./bulkbench run workloads/quickstart.lua --journal=sideways
? 2
~ --journal=sideways: one of wal

# an unknown engine suggests the nearest
$ ./bulkbench run workloads/quickstart.lua --engine=sqlit
? 2
~ unknown engine 'sqlit'; did you mean 'sqlite'

# an unknown method suggests the nearest
$ ./bulkbench run workloads/quickstart.lua --method=multirows
? 2
~ unknown method 'multirows'; did you mean 'multirow'

# a DSN libpq cannot parse is echoed by libpq: the password is masked
$ ./bulkbench run workloads/quickstart.lua --engine=pg --dsn='postgresql://u:Hunter2pw@[::1'
? 2
~ postgresql://u:\*\*\*@\[::1
! Hunter2pw

# --reconnect refuses a method it cannot make exactly-once
$ ./bulkbench run workloads/quickstart.lua --method=insert --reconnect=3
? 2
~ --reconnect cannot make method insert exactly-once

# --reconnect on the embedded engine: marked batches, the rows exactly once, the marks gone afterwards
$ ./bulkbench run workloads/quickstart.lua --method=multirow,txn --rows=5000 --reconnect=2 --format=csv
? 0
~ ,5000,

# --reconnect: a commit that landed but whose acknowledgement was lost (failpoint) is found by its mark and counted once
@ needs pg
$ BULKBENCH_FAILPOINT=ack-lost:3 ./bulkbench run workloads/copy_vs_load.lua --engine=pg --method=multirow --rows=20000 --threads=2 --reconnect=2 --format=csv
? 0
~ the batch at row [0-9]+ had committed
~ ^copy_vs_load,pg,multirow,2,1000,20000,.*,20000,
# (the server did not restart: its costs are still reported)
~ ^copy_vs_load,pg,multirow,2,1000,20000,([^,]*,){8}0,[0-9.]+,[0-9.]+,-?[0-9]+,[0-9]+,

# the same on MariaDB's LOAD DATA
@ needs mysql
$ BULKBENCH_FAILPOINT=ack-lost:2 ./bulkbench run workloads/copy_vs_load.lua --engine=mysql --method=load --batch=5000 --rows=20000 --threads=2 --reconnect=2 --format=csv
? 0
~ the batch at row [0-9]+ had committed
~ ^copy_vs_load,mysql,load,2,5000,20000,.*,20000,

# and on MariaDB's array-bound batches
@ needs mysql
$ BULKBENCH_FAILPOINT=ack-lost:3 ./bulkbench run workloads/copy_vs_load.lua --engine=mysql --method=pipeline --rows=20000 --threads=2 --reconnect=2 --format=csv
? 0
~ the batch at row [0-9]+ had committed
~ ^copy_vs_load,mysql,pipeline,2,1000,20000,([^,]*,){8}0,[0-9.]+,[0-9.]+,-?[0-9]+,[0-9]+,.*,20000,

# a method the engine does not offer is named with what it offers
$ ./bulkbench run workloads/quickstart.lua --method=copy
? 2
~ engine sqlite does not offer method copy \(it offers: insert, txn, multirow\)

# an unreadable sqlite path says which file
$ ./bulkbench run workloads/quickstart.lua --dsn=/nonexistent/dir/x.db --rows=10
? 1
~ cannot open /nonexistent/dir/x.db

# a check() that disagrees with the committed rows fails verification, exit 3
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "v" { {"id","int",bb.seq()} }\nbb.load(t)\nfunction check(db) return db:count("v") - 1 end\n' >$TMP/ver.lua; ./bulkbench run $TMP/ver.lua --method=txn --rows=100
? 3
~ verification failed: the table holds 99 rows, the runner committed 100: rows were lost or duplicated
~ ^sqlite .* MISMATCH
~ \(verification failed: why is said above\)

# a check() that says false fails verification with its own reason, not lost rows
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "v" { {"id","int",bb.seq()} }\nbb.load(t)\nfunction check(db) return false end\n' >$TMP/ver2.lua; ./bulkbench run $TMP/ver2.lua --method=txn --rows=100
? 3
~ verification failed: the scenario's check\(\) returned false
~ ^sqlite .* REFUSED
! lost or duplicated

# an error in run() names its line, exit 1
$ printf 'function run(ctx)\n  local t = nil\n  return t.x\nend\n' >$TMP/run.lua; ./bulkbench run $TMP/run.lua --engine=null --rows=10
? 1
~ run\.lua:3: attempt to index local 't'

# an error in thread_done() names its line, exit 1
$ printf 'function event() end\nfunction thread_done(ctx)\n  error("done badly")\nend\n' >$TMP/td.lua; ./bulkbench run $TMP/td.lua --engine=null --events=10
? 1
~ td\.lua:3: done badly

# an error in check() names its line, exit 1
$ printf 'function event() end\nfunction check(db)\n  error("cannot check")\nend\n' >$TMP/ck.lua; ./bulkbench run $TMP/ck.lua --events=10
? 1
~ ck\.lua:3: cannot check

# an error in cleanup() names its line, exit 1
$ printf 'function event() end\nfunction cleanup(db)\n  error("cannot clean")\nend\n' >$TMP/cu.lua; ./bulkbench run $TMP/cu.lua --events=10
? 1
~ cu\.lua:3: cannot clean

# an error in on_connect() names its line, exit 1
$ printf 'function event() end\nfunction on_connect(db)\n  db:exec("PRAGMA nosuch syntax here")\nend\n' >$TMP/oc.lua; ./bulkbench run $TMP/oc.lua --events=10
? 1
~ oc\.lua:3: sqlite: 

# a table the script says exists but does not is named, with the DSN's database, once and without a traceback, exit 1
@ needs pg
$ printf 'local bb = require "bulkbench"\nlocal t = bb.table "not_there" { {"a","int",bb.seq()}, existing = true }\nbb.load(t)\n' >$TMP/nt.lua; ./bulkbench run $TMP/nt.lua --engine=pg --method=copy --rows=10
? 1
~ table not_there \(existing = true\) does not exist in database [a-z_]+ \(pg [0-9.]+:[0-9]+\)
! stack traceback|lua/bulkbench

# an option given without a value is a usage error
$ ./bulkbench run workloads/quickstart.lua --rows
? 2
~ option --rows needs a value

# a malformed --set is a usage error
$ ./bulkbench run workloads/quickstart.lua --set=synchronous
? 2
~ --set expects NAME=V1\[,V2...\]

# a setting the engine does not know is named by the engine, exit 1
@ needs pg
$ ./bulkbench run workloads/copy_vs_load.lua --engine=pg --rows=10 --set=no_such_setting=1
? 1
~ unrecognized configuration parameter "no_such_setting"

# --reconnect: a server that restarts during check() is asked again on a new session
@ needs pg mysql
$ for e in pg mysql; do BB_KILL=$TMP/killed.$e BB_KILL_ENGINE=$e ./bulkbench run tests/fixtures/check_restart.lua --engine=$e --method=multirow --rows=5000 --reconnect=10 --format=csv || echo "exit $?"; done
! exit [0-9]
~ ^check_restart,pg,multirow,1,1000,5000,.*,5000,
~ ^check_restart,mysql,multirow,1,1000,5000,.*,5000,

# options belong to their command: another command's option is a usage error naming who takes it
$ ./bulkbench run workloads/quickstart.lua --chunk=4MB
? 2
~ --chunk is an option of `bulkbench load` and `bulkbench advise`; `bulkbench run` does not take it

# ... for load too
$ ./bulkbench load tests/fixtures/nothing.csv --engine=pg --table=t --batch=100
? 2
~ --batch is an option of `bulkbench run`, `bulkbench advise` and `bulkbench forecast`; `bulkbench load` does not take it

# ... and gen, which writes SQL for a --dialect rather than an engine
$ ./bulkbench gen workloads/quickstart.lua --table=orders --rows=10 --engine=pg
? 2
~ --engine is an option of `bulkbench run`, `bulkbench load`, `bulkbench new`, `bulkbench advise`, `bulkbench forecast` and `bulkbench help`; `bulkbench gen` does not take it

# gen --format=sql writes the dialect asked for
$ ./bulkbench gen workloads/quickstart.lua --table=orders --rows=2 --format=sql --dialect=mysql
? 0
~ ^INSERT INTO `orders` \(`id`,

# a usage error raised inside a hook (ctx:load from event(), which gets no default method) stays a usage error, with its file:line
$ ./bulkbench run <(printf 'local bb = require "bulkbench"\nlocal t = bb.table "t1" { { "id", "bigint", bb.seq() } }\nfunction event(ctx)\n  ctx:load(t)\nend\n') --engine=null --rows=10
? 2
~ /dev/fd/[0-9]+:4: ctx:load\(\) needs --method

# ... and inside event()
$ ./bulkbench run <(printf 'local core = require "bulkbench.core"\nfunction event(ctx)\n  core.usage_error("no such thing")\nend\n') --engine=null --rows=10
? 2
~ /dev/fd/[0-9]+:3: no such thing

# a mistyped --engine gets one message in every command that takes it: the nearest, and every engine
$ printf 'a\n1\n' >$TMP/one.csv; for c in "run workloads/quickstart.lua" "new --table=x" "advise workloads/quickstart.lua" "load $TMP/one.csv --format=csv --table=x" "forecast workloads/quickstart.lua --rows=10"; do ./bulkbench $c --engine=sqlit 2>&1 | head -1; done | sort | uniq -c
? 0
~ ^ +5 bulkbench: unknown engine 'sqlit'; did you mean 'sqlite'\? \(engines: .*sqlite
