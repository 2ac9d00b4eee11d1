# a function of the row, literals and bb.const of any value load what they say, at any thread count (sqlite)
$ for m in txn multirow; do ./bulkbench run tests/fixtures/slots.lua --dsn=$TMP/s_$m.db --method=$m --batch=7 --rows=2000 --threads=2 --seed=3 >/dev/null || exit 1; sqlite3 $TMP/s_$m.db "select count(*), sum(v = 2*id), sum(w = 5), sum(z = 0), sum(f = 1.5), sum(h = 'hello'), sum(b = 0), sum(c in (0, 1)), sum(s is null), sum(r between 1 and 1000) from slots"; done; a=$(sqlite3 $TMP/s_txn.db "select * from slots order by id" | md5sum); b=$(sqlite3 $TMP/s_multirow.db "select * from slots order by id" | md5sum); [ "$a" = "$b" ] && echo same
? 0
~ ^2000\|2000\|2000\|2000\|2000\|2000\|2000\|2000\|400\|2000$
~ ^same$

# gen --format=csv writes the function's and the literals' columns, byte-identical at 1, 2 and 3 threads
$ for t in 1 2 3; do ./bulkbench gen tests/fixtures/slots.lua --table=slots --rows=20003 --seed=5 --threads=$t --format=csv -o $TMP/slots$t.csv || exit 1; done; cmp $TMP/slots1.csv $TMP/slots2.csv && cmp $TMP/slots1.csv $TMP/slots3.csv && head -2 $TMP/slots1.csv && wc -l <$TMP/slots1.csv
? 0
~ ^1,2,[0-9]+,"it's	1,""[1-9]""\\",5,hello,0,1\.5,0,[01]$
~ ^20003$

# anything else in a generator slot is an error naming the table, the column and what it got, before anything is written
$ printf 'local bb = require "bulkbench"\nbb.defaults { method = "txn" }\nbb.load(bb.table "bad" { { "id", "bigint", bb.seq() }, { "bad_col", "int", {} } })\n' >$TMP/bad_slot.lua; ./bulkbench run $TMP/bad_slot.lua --dsn=$TMP/bad.db --rows=10; echo "rc=$?"; sqlite3 $TMP/bad.db "select count(*) from sqlite_master where name = 'bad'"
? 0
~ bad_slot\.lua:3: table bad, column bad_col: its generator is an empty table \{\}; a column takes a bb\.\* generator, a function\(n, rng\) or a literal
~ ^rc=2$
~ ^0$
! stack traceback

# a bb.* constructor without its arguments is named as such
$ printf 'local bb = require "bulkbench"\nbb.load(bb.table "t" { { "k", "int", bb.int } })\n' >$TMP/nobrace.lua; ./bulkbench run $TMP/nobrace.lua --rows=10
? 2
~ column k: bb\.int is written without its arguments; write bb\.int \{ \.\.\. \} or bb\.int\(\)

# a function that fails names the column, the row and the script's line, with the script's frames and none of the library's
$ printf 'local bb = require "bulkbench"\nlocal function half(n)\n  if n == 77 then error("no half of " .. n) end\n  return n / 2\nend\nbb.load(bb.table "t" { { "id", "int", bb.seq() }, { "h", "double", function(n) local x = half(n) return x end } })\n' >$TMP/fnerr.lua; ./bulkbench run $TMP/fnerr.lua --dsn=$TMP/fnerr.db --method=txn --rows=100 --threads=2
? 1
~ column h, row 77: .*fnerr\.lua:3: no half of 77
~ fnerr\.lua:3: in function 'half'
~ fnerr\.lua:6: in function <.*fnerr\.lua:6>
! lua/bulkbench\.lua

# a function's values go through every pg method, the same table by each (the engine specs check every value)
@ needs pg
$ for m in insert-simple txn multirow pipeline copy copy-csv copy-binary; do ./bulkbench run tests/fixtures/slots.lua --engine=pg --method=$m --batch=100 --rows=1000 --threads=2 >/dev/null || exit 1; psql -qAtX "$BULKBENCH_PG_DSN" -c "select md5(string_agg(t::text, '|' order by id)) from slots t"; done | sort -u | wc -l
? 0
~ ^1$

# counts take units wherever a count is asked: --rows, --batch lists, a script's whole-number options, bb.defaults
$ printf 'local bb = require "bulkbench"\nlocal o = bb.options { { "n", 100, "a count" } }\nbb.defaults { rows = "2k" }\nprint("n=" .. o.n)\nbb.load(bb.table "u" { { "id", "bigint", bb.seq() } })\n' >$TMP/units.lua; ./bulkbench run $TMP/units.lua --engine=null --n=1.5M --method=txn --batch=1k,2k --format=csv; ./bulkbench run $TMP/units.lua --engine=null --method=txn --rows=10k --format=json | grep -o '"rows":[0-9]*'
? 0
~ ^n=1500000$
~ ^units,null,txn,1,1000,2000,
~ ^units,null,txn,1,2000,2000,
~ ^"rows":10000$

# a count that is not whole, or a unit that is no count's, is refused naming the units it takes
$ ./bulkbench run tests/fixtures/slots.lua --engine=null --rows=1.5; ./bulkbench run tests/fixtures/slots.lua --engine=null --rows=10kb; ./bulkbench gen tests/fixtures/slots.lua --table=slots --rows=1k | wc -l
? 0
~ option --rows expects a whole number, got '1\.5' \(a count takes k, M, G: 10k, 1\.5M\)
~ got '10kb'
~ ^1000$

# no bb.defaults and no --method: each engine loads by its descriptor's default method
$ printf 'local bb = require "bulkbench"\nbb.load(bb.table "plain" { { "id", "bigint", bb.seq() }, { "v", "int", bb.int { 1, 9 } } })\n' >$TMP/plain.lua; ./bulkbench run $TMP/plain.lua --dsn=$TMP/plain.db --rows=500 --format=csv; ./bulkbench run $TMP/plain.lua --engine=null --rows=500 --format=csv
? 0
~ ^plain,sqlite,txn,1,1000,500,
~ ^plain,null,copy,1,0,500,

# ... but --method, and a script's bb.defaults per engine, still win
$ printf 'local bb = require "bulkbench"\nbb.defaults { method = { sqlite = "multirow" } }\nbb.load(bb.table "plain" { { "id", "bigint", bb.seq() } })\n' >$TMP/plain2.lua; ./bulkbench run $TMP/plain2.lua --dsn=$TMP/plain2.db --rows=50 --format=csv; ./bulkbench run $TMP/plain.lua --dsn=$TMP/plain.db --rows=50 --method=insert --format=csv
? 0
~ ^plain2,sqlite,multirow,
~ ^plain,sqlite,insert,

# an event() script names no method and is given none
$ printf 'function event() end\n' >$TMP/ev.lua; ./bulkbench run $TMP/ev.lua --engine=null --events=10 --format=csv
? 0
~ ^ev,null,,1,

# help SCRIPT lists the script's own options, not an engine's (--distributed_by: pg's clusters), and the default methods
$ ./bulkbench help tests/fixtures/slots.lua; ./bulkbench help tests/fixtures/slots.lua | grep -c distributed_by; true
? 0
~ ^script options: none$
~ without --method each engine loads by its own default: .*sqlite txn
~ without --method each engine loads by its own default: .*pg copy
~ ^0$

# ... and help SCRIPT --engine=pg the options that engine takes
$ ./bulkbench help tests/fixtures/slots.lua --engine=pg
? 0
~ ^options for engine pg:$
~ --distributed_by=VALUE +Greenplum, Citus

# a missing existing = true table is named with the database, and the nearest table there (sqlite: its file)
$ sqlite3 $TMP/near.db "create table daily_mess (a int)"; printf 'local bb = require "bulkbench"\nbb.load(bb.table "daily_mes" { existing = true, { "a", "int", bb.seq() } })\n' >$TMP/missing.lua; ./bulkbench run $TMP/missing.lua --dsn=$TMP/near.db --rows=10
? 1
~ table daily_mes \(existing = true\) does not exist in database .*near\.db \(sqlite\); did you mean daily_mess\?
! stack traceback|lua/bulkbench

# a DDL error says the server's message and the statement, on one line, with no traceback into the library
$ printf 'local bb = require "bulkbench"\nbb.load(bb.table "dup" { { "a", "int", bb.seq() }, { "a", "int", bb.seq() } })\n' >$TMP/dup.lua; ./bulkbench run $TMP/dup.lua --dsn=$TMP/dup.db --rows=10
? 1
~ sqlite: .*duplicate column name: a, in: CREATE TABLE "dup" \( "a" int, "a" int \)
! stack traceback|lua/bulkbench

# load --table that is not there says so, with the table nearest its name (pg)
@ needs pg
$ psql -qAtX "$BULKBENCH_PG_DSN" -c "drop table if exists daily_mess; create table daily_mess (a int, b int)"; printf 'a,b\n1,2\n' >$TMP/f.csv; ./bulkbench load $TMP/f.csv --engine=pg --table=daily_mes --format=csv --header
? 1
~ table daily_mes does not exist in database [a-z_]+ \(pg [0-9.]+:[0-9]+\); did you mean daily_mess\?

# copy-binary names a type it cannot write by its name, not its oid (pg)
@ needs pg
$ printf 'local bb = require "bulkbench"\nbb.load(bb.table "ranges" { { "id", "int", bb.seq() }, { "r", "daterange", bb.const "[2024-01-01,2024-02-01)" } })\n' >$TMP/ranges.lua; ./bulkbench run $TMP/ranges.lua --engine=pg --method=copy-binary --rows=10
? 1
~ copy-binary: column r is of type daterange, which the binary encoder does not write; use --method=copy
! oid

# the portable scenario (json, enum, uuid, boolean, timestamptz, bytes) runs unchanged on sqlite by each method, the same table by each
$ for m in insert txn multirow; do rm -f $TMP/port.db; ./bulkbench run tests/fixtures/portable.lua --dsn=$TMP/port.db --method=$m --rows=300 --batch=50 --now=1700000000 >/dev/null || exit 1; sqlite3 $TMP/port.db "select * from portable order by id" | md5sum; done | sort -u | wc -l; sqlite3 $TMP/port.db "select count(*), sum(json_valid(payload)), sum(json_extract(payload, '$.device') between 1 and 100), sum(status in ('ok', 'warn', 'it''s')), sum(active in (0, 1)) from portable"
? 0
~ ^1$
~ ^300\|300\|300\|2[4-9][0-9]\|300$

# did you mean, for the names a script or a command line gives: a common option and an engine in bb.defaults, gen's --table
$ printf 'local bb = require "bulkbench"\nbb.defaults { methd = "txn" }\n' >$TMP/dm1.lua; printf 'local bb = require "bulkbench"\nbb.defaults { method = { pgg = "copy" } }\n' >$TMP/dm2.lua; ./bulkbench run $TMP/dm1.lua; ./bulkbench run $TMP/dm2.lua; ./bulkbench gen tests/fixtures/slots.lua --table=slot --rows=1
? 2
~ dm1\.lua:2: bb\.defaults: 'methd' is not a common option; did you mean 'method'\?
~ dm2\.lua:2: bb\.defaults: unknown engine 'pgg'; did you mean 'pg'\?
~ defines no table 'slot' \(bb\.table\); did you mean 'slots'\?
