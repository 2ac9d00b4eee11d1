# gen writes the asked number of rows
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=12345 --format=copy | wc -l
? 0
~ ^12345$

# gen with threads writes a byte-identical file (same seed), across chunk boundaries
$ for t in 1 2 3; do ./bulkbench gen workloads/quickstart.lua --table=orders --rows=200003 --seed=9 --threads=$t -o $TMP/g$t.csv --format=csv || exit 1; done; cmp $TMP/g1.csv $TMP/g2.csv && cmp $TMP/g1.csv $TMP/g3.csv && md5sum <$TMP/g1.csv
? 0
~ ^[0-9a-f]{32}

# another seed gives other data
$ a=$(./bulkbench gen workloads/quickstart.lua --table=orders --rows=100 --seed=1 | md5sum); b=$(./bulkbench gen workloads/quickstart.lua --table=orders --rows=100 --seed=2 | md5sum); [ "$a" != "$b" ] && echo differ
? 0
~ ^differ$

# CSV output parses back with a real RFC 4180 parser (Python's csv): every value, NULLs empty
$ ./bulkbench gen tests/fixtures/nasty.lua --table=nasty --rows=5000 --format=csv -o $TMP/n.csv && python3 tests/fixtures/readback.py csv $TMP/n.csv
? 0
~ ^5000 True True True$

# COPY text escapes are undone by a COPY-text reader: every value, NULL as \N
$ ./bulkbench gen tests/fixtures/nasty.lua --table=nasty --rows=5000 --format=copy -o $TMP/n.copy && python3 tests/fixtures/readback.py copy $TMP/n.copy
? 0
~ ^5000 True True True$

# --header: a first line naming the columns (csv, tsv, copy), then the rows; sql refuses it
$ ./bulkbench gen workloads/quickstart.lua --table=orders --rows=3 --format=csv --header | python3 -c "import csv,sys; r=list(csv.reader(sys.stdin)); print(len(r), ' '.join(r[0]))"; ./bulkbench gen workloads/quickstart.lua --table=orders --rows=3 --format=copy --header | head -1; ./bulkbench gen workloads/quickstart.lua --table=orders --rows=3 --format=sql --header; echo "rc=$?"
? 0
~ ^4 id customer sku qty price note ordered$
~ ^id	customer	sku	qty	price	note	ordered$
~ --header goes with --format=csv, tsv or copy
~ ^rc=2$

# gen refuses an unknown table
$ ./bulkbench gen workloads/quickstart.lua --table=nosuch --rows=10
? 2
~ defines no table 'nosuch'

# gen to a full disk fails with the reason, exit 1
$ ./bulkbench gen workloads/quickstart.lua --table=orders --rows=100000 -o /dev/full
? 1
~ writing /dev/full: No space left on device

# sequence ranges never overlap across threads: a primary key would refuse a duplicate
$ ./bulkbench run workloads/quickstart.lua --threads=2 --method=txn,multirow --batch=7 --rows=20001
? 0
~ txn +2 +7 +20001 .* ok
~ multirow +2 +7 +20001 .* ok

# --now pins what "now" generators write, so a table is reproducible to the byte
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=2 --now='2026-01-01 10:00:00' --format=csv
? 0
~ ^1,.*,2026-01-01 10:00:00,

# zipf (rejection: several draws per value), shuffles and the other laws give the same rows at any thread count
$ for t in 1 2 3; do ./bulkbench gen tests/fixtures/laws.lua --table=laws --rows=150001 --seed=5 --threads=$t -o $TMP/l$t.csv --format=csv || exit 1; done; cmp $TMP/l1.csv $TMP/l2.csv && cmp $TMP/l1.csv $TMP/l3.csv && wc -l <$TMP/l1.csv
? 0
~ ^150001$
# gen --format=tsv writes plain TSV: backslashes and quotes as they are, NULL as an empty field
$ printf 'local bb = require "bulkbench"\nbb.table "p" { {"id","int",bb.seq()}, {"s","text",bb.choice{"back\\\\x","C:\\\\dir\\\\","q\\"uote","\\\\N"}}, {"n","int",bb.int{1,9}, null = 0.5} }\n' >$TMP/p.lua; ./bulkbench gen $TMP/p.lua --table=p --rows=2000 --format=tsv --threads=2 -o $TMP/p.tsv && python3 -c "import csv; r = list(csv.reader(open('$TMP/p.tsv', newline=''), delimiter='\t', quoting=csv.QUOTE_NONE)); print(len(r), sorted({x[1] for x in r}), sum(x[2] == '' for x in r) > 500)"
? 0
~ ^2000 \['C:\\\\dir\\\\', '\\\\N', 'back\\\\x', 'q"uote'\] True$

# gen --format=tsv --null=TEXT writes NULL as TEXT
$ ./bulkbench gen $TMP/p.lua --table=p --rows=50 --format=tsv --null=NULL | cut -f3 | sort -u | tr '\n' ' '
? 0
~ ^1 .*NULL $

# a value no plain TSV field can hold stops gen, naming its row and column
$ ./bulkbench gen tests/fixtures/nasty.lua --table=nasty --rows=5000 --format=tsv --null=NULL -o $TMP/n.tsv
? 1
~ n.tsv: row [0-9]+, column s: the value is text with a (tab|newline|carriage return), which plain TSV cannot hold \(it has no escapes\): use --format=csv or copy

# an empty string cannot be told from NULL in plain TSV: gen says so and suggests --null
$ printf 'local bb = require "bulkbench"\nbb.table "e" { {"id","int",bb.seq()}, {"s","text",bb.const("")} }\n' >$TMP/e.lua; ./bulkbench gen $TMP/e.lua --table=e --rows=3 --format=tsv
? 1
~ row 1, column s: the value is an empty string, which plain TSV cannot tell from NULL: write NULL as other text with --null=TEXT, or use --format=csv or copy

# --null goes with --format=tsv only
$ ./bulkbench gen workloads/quickstart.lua --table=orders --rows=5 --format=csv --null=x
? 2
~ --null goes with --format=tsv

# a bad generator argument is a usage error in gen too, naming the script's line (not a Lua panic)
$ printf 'local bb = require "bulkbench"\nbb.table "z" { { "id", "int", bb.zipf { min = 5, max = 1 } } }\n' >$TMP/badgen.lua; ./bulkbench gen $TMP/badgen.lua --table=z --rows=3
? 2
~ zipf needs min <= max
! PANIC
