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

# the quickstart runs and verifies its rows
$ ./bulkbench run workloads/quickstart.lua --rows=2000
? 0
~ sqlite +txn +1 +1000 +2000 .* ok
