# load: exact counts at 1, 2, 4 and 8 workers on PostgreSQL, quoted newlines cut across small chunks
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists lt; create table lt (id int, s text)"; python3 tests/fixtures/mkcsv.py quoted 20000 $TMP/q.csv; for t in 1 2 4 8; do ./bulkbench load $TMP/q.csv --engine=pg --table=lt --threads=$t --chunk=16KB --truncate --out=$TMP/l$t.jsonl >/dev/null; python3 -c "import json,sys; o=json.load(open('$TMP/l$t.jsonl')); print(o['threads'], o['rows'], o['verified_rows'])"; done; $P -c "select count(*), count(distinct s) from lt where s like E'a,b\nc\"%'"
? 0
~ ^1 20000 20000$
~ ^8 20000 20000$
~ ^20000\|7$

# the same file on MariaDB, 4 workers
@ needs mysql
$ M="mariadb -N -ubench -pbench -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/') bench"; $M -e "drop table if exists lt; create table lt (id int, s text) default charset utf8mb4"; printf '1,"x\ny"\n2,"q""uote"\n3,plain\n' >$TMP/m.csv; ./bulkbench load $TMP/m.csv --engine=mysql --table=lt --threads=4 --chunk=4 --truncate >/dev/null && $M -e "select id, hex(s) from lt order by id"
? 0
~ ^1	780A79$
~ ^2	7122756F7465$
~ ^3	706C61696E$

# a file load samples its sessions' waits as a run does (docs/diagnosis.md): waits whose shares sum to 1 and a named bottleneck on pg and MariaDB, printed beside rows/s; --waits=off samples nothing
@ needs pg mysql
$ P="psql -qAtX $BULKBENCH_PG_DSN"; M="mariadb -N -ubench -pbench -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/') bench"; $P -c "drop table if exists lw; create table lw (id int, s text)" && $M -e "drop table if exists lw; create table lw (id int, s text) default charset utf8mb4" && python3 tests/fixtures/mkcsv.py quoted 300000 $TMP/w.csv && for e in pg mysql; do ./bulkbench load $TMP/w.csv --engine=$e --table=lw --threads=2 --out=$TMP/w-$e.jsonl | grep "^bottleneck"; done; ./bulkbench load $TMP/w.csv --engine=pg --table=lw --truncate --waits=off --out=$TMP/w-off.jsonl >/dev/null; for f in pg mysql off; do python3 -c "import json; o=[json.loads(l) for l in open('$TMP/w-$f.jsonl')][-1]; w=o.get('waits'); b=o.get('bottleneck'); print('$f', 'waits', None if w is None else round(sum(w.values()), 2), 'kind', b and b['kind'] in ('client-cpu','server-cpu','wal','lock','io','checkpoint','network'))"; done
? 0
~ bottleneck at [0-9]+ rows/s: [a-z-]+ \(
~ ^pg waits 1.0 kind True$
~ ^mysql waits 1.0 kind True$
~ ^off waits None kind None$

# a header line is skipped; a last line without a newline and CRLF line ends still load
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists lh; create table lh (id int, s text)"; printf 'id,s\r\n1,one\r\n2,two\r\n3,three' >$TMP/h.csv; ./bulkbench load $TMP/h.csv --engine=pg --table=lh --header --truncate | grep copy-csv; $P -c "select string_agg(s, '/' order by id) from lh"
? 0
~ copy-csv .* 3 .* ok
~ ^one/two/three$

# an empty file loads nothing and verifies
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists le; create table le (id int)"; : >$TMP/e.csv; ./bulkbench load $TMP/e.csv --engine=pg --table=le | grep copy-csv
? 0
~ copy-csv .* 0 .* ok

# a malformed row names the server's reason, the column, and the file and line it is on
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists lb; create table lb (id int, s text)"; python3 tests/fixtures/mkcsv.py badrow 5000 3210 $TMP/b.csv; ./bulkbench load $TMP/b.csv --engine=pg --table=lb --chunk=8KB
? 1
~ invalid input syntax for type integer: "oops"
~ column id
~ at .*b\.csv line 3211\)
~ rows were committed before the load stopped

# on MariaDB too; LOAD DATA LOCAL keeps the rows of a chunk it only warned about, and they are counted as committed
@ needs mysql
$ M="mariadb -N -ubench -pbench -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/') bench"; $M -e "drop table if exists lb; create table lb (id int, s text)"; python3 tests/fixtures/mkcsv.py badrow 5000 3210 $TMP/b.csv; ./bulkbench load $TMP/b.csv --engine=mysql --table=lb 2>&1; echo "table: $($M -e 'select count(*) from lb')"
? 0
~ Incorrect integer value: 'oops' for column .*id.* at row 3211 \(at .*b\.csv line 3211\)
~ 5000 rows were committed before the load stopped
~ table: 5000

# a file cut into chunks that ends inside quotes is refused before anything loads
$ printf '1,"never closed\n2,x\n' >$TMP/u.csv; ./bulkbench load $TMP/u.csv --engine=pg --table=lb --chunk=4
? 1
~ ends inside a quoted field

# as one chunk it goes to the server whole, which names the problem, and nothing loads
@ needs pg
$ printf '1,"never closed\n2,x\n' >$TMP/u.csv; ./bulkbench load $TMP/u.csv --engine=pg --table=lb
? 1
~ unterminated CSV quoted field .*\(in .*u\.csv, in the chunk starting at line 1\)
~ 0 rows were committed

# a missing file is a usage error
$ ./bulkbench load $TMP/nosuch.csv --engine=pg --table=lb
? 2
~ cannot read .*nosuch\.csv

# sqlite has no bulk stream
$ printf '1\n' >$TMP/one.csv; ./bulkbench load $TMP/one.csv --engine=sqlite --table=x
? 2
~ engine sqlite cannot stream csv files

# gzip and zstd files stream without being unpacked to disk; the header of the unpacked text is skipped
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists lz; create table lz (id int, s text)"; python3 tests/fixtures/mkcsv.py quoted 5000 $TMP/z.csv; (echo 'id,s'; cat $TMP/z.csv) | gzip >$TMP/z.csv.gz; zstd -q $TMP/z.csv -o $TMP/z.csv.zst; ./bulkbench load $TMP/z.csv.gz --engine=pg --table=lz --header --truncate | grep copy-csv; ./bulkbench load $TMP/z.csv.zst --engine=pg --table=lz --truncate | grep copy-csv; $P -c "select count(*), count(distinct s) from lz"
? 0
~ copy-csv .* 5000 .* ok
~ ^5000\|7$

# a damaged gzip file is named, and nothing of it loads
@ needs pg
$ head -c 3000 $TMP/z.csv.gz >$TMP/cut.csv.gz 2>/dev/null || { python3 tests/fixtures/mkcsv.py quoted 5000 $TMP/z.csv; gzip -c $TMP/z.csv | head -c 3000 >$TMP/cut.csv.gz; }; ./bulkbench load $TMP/cut.csv.gz --engine=pg --table=lz
? 1
~ cut\.csv\.gz

# --rate-limit caps the bytes per second across workers
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists lr; create table lr (id int, s text)"; python3 tests/fixtures/mkcsv.py quoted 40000 $TMP/r.csv; s=$(date +%s.%N); ./bulkbench load $TMP/r.csv --engine=pg --table=lr --threads=2 --chunk=64KB --rate-limit=1 >/dev/null; e=$(date +%s.%N); python3 -c "import os; mb=os.path.getsize('$TMP/r.csv')/1e6; t=$e-$s; print('slow enough', t >= mb * 0.9, round(mb / t, 2))"
? 0
~ ^slow enough True

# db:load_file from a scenario's run(): the file's rows are the run's committed rows, verified by check()
@ needs pg
$ python3 tests/fixtures/mkcsv.py quoted 500 $TMP/lf.csv; LF_FILE=$TMP/lf.csv ./bulkbench run tests/fixtures/load_file.lua --engine=pg --threads=2 --format=csv
? 0
~ load_file: 500 rows, 0 rejected
~ ^load_file,pg,,2,.*,500,

# the same on MariaDB
@ needs mysql
$ python3 tests/fixtures/mkcsv.py quoted 500 $TMP/lf.csv; LF_FILE=$TMP/lf.csv ./bulkbench run tests/fixtures/load_file.lua --engine=mysql --threads=2 --format=csv
? 0
~ load_file: 500 rows, 0 rejected
~ ^load_file,mysql,,2,.*,500,

# --on-error=skip without reject file still says loaded + rejected = input
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists lb; create table lb (id int, s text)"; python3 tests/fixtures/mkcsv.py badrow 5000 3210 $TMP/b.csv; ./bulkbench load $TMP/b.csv --engine=pg --table=lb --chunk=8KB --on-error=skip
? 0
~ loaded 4999 rows \+ rejected 1 = 5000 rows in the input

# --reject-file without --on-error=skip is a usage error
$ ./bulkbench load $TMP/b.csv --engine=pg --table=lb --reject-file=$TMP/r.csv
? 2
~ go with --on-error=skip

# --delimiter takes one character
$ ./bulkbench load $TMP/b.csv --engine=pg --table=lb --delimiter=ab
? 2
~ --delimiter takes one character

# db:load_file takes null: a plain TSV file with \N as its NULL text, where an empty field is an empty string
@ needs pg
$ printf '1\t\\N\n2\t\n3\tx\\\n4\tNULL\n' >$TMP/lf.tsv; LF_FILE=$TMP/lf.tsv LF_NULL='\N' ./bulkbench run tests/fixtures/load_file.lua --engine=pg --format=csv >/dev/null && psql -qAtX $BULKBENCH_PG_DSN -c "select string_agg(id || '=' || coalesce('[' || s || ']', 'null'), ' ' order by id) from lfs"
? 0
~ ^1=null 2=\[\] 3=\[x\\\] 4=\[NULL\]$

# --null goes with tsv and csv: COPY text spells NULL \N
$ ./bulkbench load $TMP/b.csv --engine=pg --table=lb --format=copy --null=x
? 2
~ --null: COPY text spells NULL

# --null cannot be text no field holds
$ printf '1\tx\n' >$TMP/n.tsv; ./bulkbench load $TMP/n.tsv --engine=pg --table=lb --null="$(printf 'a\tb')"
? 2
~ no tsv field can hold a line end, the separator

# db:load_file takes the command's options and refuses the same mistakes, as usage errors
@ needs pg
$ printf 'local bb = require "bulkbench"\nfunction run(ctx) ctx.db:load_file{ path = "x.csv", table = "t", reject_file = "r.csv" } end\n' >$TMP/lfbad.lua; ./bulkbench run $TMP/lfbad.lua --engine=pg --rows=1
? 2
~ lfbad.lua:2: load_file: --reject-file and --reject-limit go with --on-error=skip

# ... and a misspelled field names the nearest one
@ needs pg
$ printf 'local bb = require "bulkbench"\nfunction run(ctx) ctx.db:load_file{ path = "x.csv", table = "t", skip_row = 1 } end\n' >$TMP/lfbad2.lua; ./bulkbench run $TMP/lfbad2.lua --engine=pg --rows=1
? 2
~ unknown field 'skip_row'; did you mean 'skip_rows'\?

# load verifies as run does: the null engine counts nothing, so the load is not a mismatch but verified null (run's meaning of an unknown count)
$ printf 'a,b\n1,x\n2,y\n' >$TMP/n.csv; ./bulkbench load $TMP/n.csv --engine=null --table=t --format=csv --header --out=$TMP/n.jsonl; echo "rc=$?"; python3 -c "import json; o=json.load(open('$TMP/n.jsonl')); print('rows', o['rows'], 'verified', o['verified_rows'])"; ./bulkbench run workloads/quickstart.lua --engine=null --rows=10 --format=json | python3 -c "import json,sys; print('run verified', json.load(sys.stdin)['verified_rows'])"
? 0
~ null +copy-csv .* 2 .* -$
~ ^rc=0$
~ ^rows 2 verified None$
~ ^run verified None$
! MISMATCH|verification failed
