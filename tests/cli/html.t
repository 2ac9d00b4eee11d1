# The --html report as a file: self-contained, complete without script. tests/html.py opens such
# pages in headless Chromium; these cases check what the file holds, and the command line results keep.

# report --html writes one page: a CSP that forbids fetching, no external reference, a chart per scenario and the rest
$ ./bulkbench report tests/fixtures/results.jsonl tests/fixtures/timeline.jsonl tests/fixtures/latency_hist.jsonl tests/fixtures/advise.jsonl --html=$TMP/r.html >/dev/null && grep -c "Content-Security-Policy\" content=\"default-src 'none'" $TMP/r.html; grep -Eic '(src|href)=["'"'"']?(https?:)?//|@import|url\([^#]' $TMP/r.html; grep -o '<svg' $TMP/r.html | wc -l; grep -o '<figcaption>' $TMP/r.html | wc -l; grep -o '<h2 id="[a-z-]*"' $TMP/r.html | tr '\n' ' '
? 0
~ ^1$
~ ^0$
~ ^6$
~ ^<h2 id="fixture-sweep" <h2 id="other" <h2 id="quickstart" <h2 id="advise-race" <h2 id="timelines" <h2 id="latency-cdf" <h2 id="environment" $

# every result is a row of its scenario's table, without script (the page's own HTML)
$ ./bulkbench report tests/fixtures/results.jsonl --html=$TMP/t.html >/dev/null && python3 -c "import re,sys; h=open('$TMP/t.html').read(); t=re.search(r'<table class=\"sortable\" data-scenario=\"fixture_sweep\">.*?</table>', h).group(0); print('rows', t.count('<tr>') - 1, 'charts', h.count('class=\"wide'), h.count('class=\"narrow'))"
? 0
~ ^rows 6 charts 2 2$

# the text report is printed as before; --compare pages read each file once (a pipe works)
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl <(cat tests/fixtures/compare_cand.jsonl) --html=$TMP/c.html && grep -o 'class="v v-[a-z-]*">[a-z ]*<' $TMP/c.html
? 0
~ ratio = candidate / base median rows/s
~ ^class="v v-faster">faster<$

# run --html writes the page of its own results, and results keep the command line that made them
$ ./bulkbench run workloads/quickstart.lua --method=txn --batch=10,100 --rows=500 --out=$TMP/o.jsonl --html=$TMP/run.html >/dev/null 2>&1 && grep -c '"command":"bulkbench run workloads/quickstart.lua --method=txn --batch=10,100 --rows=500 --out=' $TMP/o.jsonl; grep -c '<pre><code>bulkbench run workloads/quickstart.lua' $TMP/run.html
? 0
~ ^2$
~ ^1$

# the recorded command line hides a DSN's password (URI, key=value, ODBC) behind a fixed *** that tells nothing of its length, and quotes what a shell would split
$ for d in 'mysql://u:s3cret@127.0.0.1:1/db' 'host=127.0.0.1 port=1 password=longer-s3cret' 'DRIVER=x;PWD=s;SERVER=h'; do ./bulkbench run workloads/quickstart.lua --engine=null --dsn "$d" --rows=10 --format=json 2>/dev/null | grep -o '"command":"[^"]*"'; done
~ mysql://u:\*\*\*@127\.0\.0\.1:1/db
~ 'host=127\.0\.0\.1 port=1 password=\*\*\*'
~ 'DRIVER=x;PWD=\*\*\*;SERVER=h'
! s3cret
! PWD=s;

# an --html file that cannot be written is a usage error, said before a run starts
$ ./bulkbench run workloads/quickstart.lua --rows=100000000 --time=60 --html=$TMP/nosuch/r.html; ./bulkbench report tests/fixtures/results.jsonl --html=$TMP/nosuch/r.html
? 2
~ --html: cannot write .*nosuch/r\.html: No such file or directory
~ cannot write .*nosuch/r\.html: No such file or directory
! rows/s

# --html belongs to run and report
$ ./bulkbench gen workloads/quickstart.lua --table=orders --rows=3 --html=$TMP/g.html
? 2
~ --html is an option of `bulkbench run` and `bulkbench report`

# a run that fails still writes its page with --html, and the page says why, as the table does
$ printf 'local bb = require "bulkbench"\nbb.load(bb.table "errt" { { "id", "bigint", bb.seq() }, { "v", "int check (v < 0)", bb.int { 1, 9 } } })\n' >$TMP/err.lua; ./bulkbench run $TMP/err.lua --dsn=$TMP/err.db --method=txn --batch=10,100 --rows=100 --html=$TMP/err.html; echo "rc=$?"; grep -c 'FAILED: sqlite: execute: CHECK constraint failed' $TMP/err.html
~ rc=1
~ ^1$
