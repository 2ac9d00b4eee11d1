# --version prints the version
$ ./bulkbench --version
? 0
~ ^bulkbench [0-9]+\.[0-9]+

# no command is a usage error
$ ./bulkbench
? 2
~ usage: bulkbench

# an unknown command suggests the nearest one
$ ./bulkbench rnu workloads/quickstart.lua
? 2
~ did you mean 'run'

# list shows every engine and the methods its flags allow
$ ./bulkbench list
? 0
~ sqlite
~ null
~ multirow
~ quickstart.lua

# help shows the script's own options with defaults
$ ./bulkbench help workloads/quickstart.lua
? 0
~ --journal=VALUE .*default wal
~ --method=txn

# a command's --help prints that command's synopsis and its options only
$ ./bulkbench load --help
? 0
~ usage: bulkbench
~ load FILE\.\.\. --engine=E
~ --chunk
! --rows
! gen SCRIPT

# run SCRIPT --help is the script's help
$ ./bulkbench run workloads/quickstart.lua --help
? 0
~ --journal=VALUE .*default wal

# the quickstart runs and verifies its rows
$ ./bulkbench run workloads/quickstart.lua --rows=2000
? 0
~ sqlite +txn +1 +1000 +2000 .* ok

# help lines fit 100 columns: every command's --help, the list of commands and a script's options (a long one wraps under itself)
$ for c in "" run gen load new advise report list help lua workloads/quickstart.lua; do ./bulkbench help $c; done | awk 'length > 100 { n++; print "long: " $0 } END { print "lines over 100:", n + 0 }'
? 0
~ ^lines over 100: 0$

# help of a word that is neither a command nor a script says so, naming the nearest command
$ ./bulkbench help reprot; ./bulkbench help nosuch
? 2
~ help: 'reprot' is neither a command nor a script; did you mean 'report'\?
~ help: 'nosuch' is neither a command nor a script
! cannot read script

# load's --dsn offers what load takes: a pg or mysql server, not a SQLite file or an ODBC string
$ ./bulkbench load --help | sed -n '/--dsn/,/--table/p'
? 0
~ postgresql://user@host
~ mysql://user:pass@host
! sqlite|ODBC

# the test runner counts a skip as a skip, not a pass: TAP's "ok N # skip" (a suite that cannot run here, e.g. a system not built: each of its cases) and a tally's "N skipped"
$ printf 'ok 1 - ran\nok 2 # skip not here\nnot ok 3 - broke\nok - mpi tests # SKIP no Open MPI\n1..4\n' | tests/tally.sh; echo "5 passed, 1 failed, 7 skipped" | tests/tally.sh; BB_CITUS_PREFIX= bash tests/systems.sh citus | tests/tally.sh; echo "n=$(tests/plan.sh system citus)"; grep -c 'passed, $total_fail failed, $total_skip skipped' tests/run.sh
? 0
~ ^1 1 2$
~ ^5 1 7$
~ ^0 0 ([0-9]+)$
~ ^n=[1-9][0-9]+$
~ ^1$

# ... and holds a TAP plan to what ran: tests it planned and did not run fail, so do tests it ran unplanned or a stream with no plan
$ printf 'ok 1 - a\nok 2 - b\n1..4\n' | tests/tally.sh; printf '1..2\nok 1 - a\n' | tests/tally.sh; printf 'ok 1 - a\nok 2 - b\n1..1\n' | tests/tally.sh; printf 'ok 1 - a\n' | tests/tally.sh; printf 'ok 1 - a\n1..1\nok 1 - b\nnot ok 2 - c\n1..2\n' | tests/tally.sh
? 0
~ ^2 2 0$
~ plan said 4 tests, 2 ran: 2 missing
~ ^1 1 0$
~ ^2 1 0$
~ plan said 1 tests, 2 ran: 1 not planned
~ no TAP plan
~ ^2 1 0$

# bulkbench list --engines --format=json: each engine's descriptor, what the tests and docs read
$ ./bulkbench list --engines --format=json | python3 -c "import json,sys; es=json.load(sys.stdin); print(len(es), sorted(set.intersection(*[set(e) for e in es]))[:6]); print([e['name'] for e in es if e['name'] == 'null'], [e['default_method'] for e in es if e['name'] == 'sqlite'])"; ./bulkbench list --format=json
? 2
~ ^[5-9] \['catalog_lua', 'client', 'default_method', 'dialect', 'dialects', 'dsn_env'\]$
~ ^\['null'\] \['txn'\]$
~ --format=json goes with --engines
