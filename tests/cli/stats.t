# --repeat=5: one result with the runs, their spread, and the medians at the top level
$ ./bulkbench run workloads/quickstart.lua --method=multirow --batch=100 --rows=20000 --repeat=5 --format=json 2>/dev/null | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); s=o["stats"]["rows_per_s"]; lo,hi=s["ci95"]; print("repeats", o["repeats"], "runs", len(o["runs"]), "keys", sorted(o["runs"][0])); print("inside", s["min"] <= lo <= s["median"] <= hi <= s["max"]); print("median", o["rows_per_s"] == s["median"], o["seconds"] == o["stats"]["seconds"]["median"], o["latency_ms"]["p99"] == o["stats"]["p99_ms"]["median"]); print("stats", sorted(o["stats"]), sorted(s))'
? 0
~ ^repeats 5 runs 5 keys \['outlier', 'p50_ms', 'p99_ms', 'rows', 'rows_per_s', 'seconds'\]$
~ ^inside True$
~ ^median True True True$
~ ^stats \['p50_ms', 'p99_ms', 'rows_per_s', 'seconds'\] \['ci95', 'ci_level', 'cv', 'mad', 'max', 'median', 'min', 'stddev'\]$

# every point runs once per round: a sweep's runs interleave, warm-up runs first and uncounted
$ ./bulkbench run workloads/quickstart.lua --batch=100,1000 --rows=2000 --repeat=2 --warmup-runs=1 --format=json 2>&1 >$TMP/w.json | grep -o 'run [0-9]/6: .*'; python3 -c 'import json,sys; [print("result", o["batch"], o["repeats"], o["warmup_runs"], len(o["runs"])) for o in map(json.loads, open(sys.argv[1]))]' $TMP/w.json
? 0
~ run 1/6: .*batch=100 \(warm-up run 1/1\)
~ run 2/6: .*batch=1000 \(warm-up run 1/1\)
~ run 3/6: .*batch=100 \(repeat 1/2\)
~ run 4/6: .*batch=1000 \(repeat 1/2\)
~ run 5/6: .*batch=100 \(repeat 2/2\)
~ run 6/6: .*batch=1000 \(repeat 2/2\)
~ ^result 100 2 1 2$
~ ^result 1000 2 1 2$

# the interval is exact (order statistics), so the same runs give the same interval whatever the seed; 7 runs reach 98.4%
$ ./bulkbench lua /dev/stdin <<<'local bb = require "bulkbench"; local a, b = bb.summary({5, 9, 7, 6, 8, 7.5, 6.5}, 3), bb.summary({5, 9, 7, 6, 8, 7.5, 6.5}, 99); print(a.ci95[1] == b.ci95[1] and a.ci95[2] == b.ci95[2], a.median, a.ci95[1], a.ci95[2], a.ci_level)'
? 0
~ ^true	7	5	9	0.984375$

# the text table shows the median and its interval, with what the interval holds; one run made a hundred times slower than the run before it (test failpoint: slow however busy the machine) is an outlier by Dixon's Q and raises the CV warning. Q is taken in logarithms: a run 100 times slower stands out while the other four stay within a factor of 3.8 of each other, which a sanitized build on a loaded machine keeps (at 10 times slower they had to stay within 1.95, and did not)
@ needs pg
$ BULKBENCH_FAILPOINT=slow-run:3:x100 ./bulkbench run workloads/copy_vs_load.lua --engine=pg --method=copy --batch=100 --rows=2000 --rate=400 --repeat=5 --out=$TMP/slow.jsonl 2>/dev/null | tee $TMP/slow.txt
? 0
~ pg +copy +1 +100 +2000 +[0-9.]+ \([0-9.]+-[0-9.]+\) +[0-9]+ \([0-9]+-[0-9]+\) 
~ the median of each point's runs and, in brackets, the range of its runs, which holds the median 93\.7% of the time with 5 runs
~ WARNING: pg copy threads=1 batch=100: rows/s varies by [0-9.]+% across its 5 runs \(coefficient of variation above 10%\)
~ WARNING: pg copy threads=1 batch=100: run 3 of 5 is an outlier: [0-9]+ rows/s in [0-9.]+ s against a median of [0-9]+ rows/s \(Dixon's Q [01]\.[0-9]+ above 0\.710, its critical value for 5 runs\)
! 95%

# ... and in JSON (that run's --out): a median, an interval holding at least 3 of the 5 runs, the slow run flagged (on a busy host another may be too), every run verified; one outlier warning
@ needs pg
$ python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); s=o["stats"]["rows_per_s"]; lo,hi=s["ci95"]; r=[x["rows_per_s"] for x in o["runs"]]; print("inside", sum(lo <= x <= hi for x in r) >= 3, "cv", s["cv"] > 0.1, "run 3 an outlier", o["runs"][2]["outlier"], "verified", o["verified_rows"])' <$TMP/slow.jsonl; grep -c 'WARNING: .*run 3 of 5 is an outlier' $TMP/slow.txt
? 0
~ ^inside True cv True run 3 an outlier True verified 2000$
~ ^1$

# thresholds: each printed under the table; all hold: exit 0
$ ./bulkbench run workloads/quickstart.lua --rows=20000 --threshold='rows_per_s>=1' --threshold 'latency_ms.p99 < 100000'
? 0
~ ^threshold rows_per_s>=1: passed \([0-9.]+\)$
~ ^threshold latency_ms.p99<100000: passed \([0-9.]+\)$

# a failing threshold exits 4 after every result is written
$ ./bulkbench run workloads/quickstart.lua --rows=20000 --threshold='rows_per_s>=1e12' --threshold='rows==20000' --out=$TMP/t.jsonl; echo "rc=$?"; wc -l <$TMP/t.jsonl
? 0
~ ^threshold rows_per_s>=1e12: failed \([0-9.]+\)$
~ ^threshold rows==20000: passed \(20000\)$
~ 1 of 2 threshold checks failed
~ ^rc=4$
~ ^1$

# a figure that was not measured fails its threshold and says so; under --repeat the spread can be named
$ ./bulkbench run workloads/quickstart.lua --rows=2000 --repeat=3 --threshold='server.cpu_s<10' --threshold='stats.rows_per_s.cv<100' --format=json >/dev/null
? 4
~ threshold server.cpu_s<10: failed \(null: not measured\)
~ threshold stats.rows_per_s.cv<100: passed

# a malformed threshold is a usage error that lists the fields one can name
$ ./bulkbench run workloads/quickstart.lua --rows=2000 --threshold='rows_per_s>>1'
? 2
~ --threshold='rows_per_s>>1': expected FIELD OP NUMBER, OP one of < <= > >= == !=
~ rows_per_s, .*latency_ms.p99, .*server.cpu_s, .*stats.<rows_per_s\|seconds\|p50_ms\|p99_ms>.<median\|min\|max\|stddev\|cv
! threshold rows_per_s

# so is a field no result has
$ ./bulkbench run workloads/quickstart.lua --rows=2000 --threshold='rows_per_second>1'
? 2
~ --threshold='rows_per_second>1': expected FIELD OP NUMBER

# --format=openmetrics: families declared once, labelled samples, no NaN for what was not measured, # EOF last
$ ./bulkbench run workloads/quickstart.lua --rows=2000 --threads=1,2 --repeat=2 --format=openmetrics 2>/dev/null >$TMP/m.txt; $(command -v /usr/bin/python3 || command -v python3) tests/openmetrics.py <$TMP/m.txt; tail -1 $TMP/m.txt; grep -ci nan $TMP/m.txt || true
? 0
~ ^openmetrics ok: [0-9]+ samples in [0-9]+ families
~ ^# EOF$
~ ^0$

# ... with the names a scraper expects, and the pg server's costs
@ needs pg
$ ./bulkbench run workloads/quickstart.lua --engine=pg --method=copy --rows=5000 --set=synchronous_commit=on,off --format=openmetrics 2>/dev/null | tee $TMP/p.txt | $(command -v /usr/bin/python3 || command -v python3) tests/openmetrics.py; grep -E '^bulkbench_(rows_per_second|seconds|latency_ms|errors_total|rows_total|server_cpu_seconds_total)\{' $TMP/p.txt | sed 's/{.*//' | sort -u | tr '\n' ' '; grep 'synchronous_commit=off",quantile="0.99"}' $TMP/p.txt; if command -v promtool >/dev/null; then promtool check metrics <$TMP/p.txt >/dev/null 2>&1; echo "promtool rc=$?"; else echo "promtool rc=3"; fi
? 0
~ ^openmetrics ok
~ bulkbench_errors_total bulkbench_latency_ms bulkbench_rows_per_second bulkbench_rows_total bulkbench_seconds bulkbench_server_cpu_seconds_total
~ bulkbench_latency_ms\{scenario="quickstart",engine="pg",method="copy",threads="1",batch="1000",set="synchronous_commit=off",quantile="0.99"\} [0-9.]+
~ promtool rc=[03]$

# a 3 s pg run with a line every 0.5 s (paced: the samples, not the speed, are under test) records its intervals, with the server's WAL bytes and CPU per interval
@ needs pg
$ ./bulkbench run workloads/quickstart.lua --engine=pg --method=insert --time=3 --rate=500 --rows=100000000 --report-interval=0.5 --format=json 2>$TMP/l.txt | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); iv=o["intervals"]; print("n", len(iv) >= 4, sorted(iv[0])); print("rows", sum(i["rows"] for i in iv) <= o["rows"], all(i["log_bytes"] > 0 for i in iv), all(i["server_cpu_s"] >= 0 for i in iv))'; grep -c '^\[ [0-9]\.[05]s \] thds' $TMP/l.txt
? 0
~ ^n True \['errors', 'events', 'events_per_s', 'log_bytes', 'mb_per_s', 'p50_ms', 'p95_ms', 'p99_ms', 'rows', 'rows_per_s', 'server_cpu_s', 't'\]$
~ ^rows True True True$
~ ^[56]$

# by default a run of 5 s or more records samples each second without printing lines; a shorter one records none; --report-interval=0 turns them off (three paced runs at once)
$ s='function event() end'; runs=("--time=5" "--time=1" "--time=5 --report-interval=0"); for i in 0 1 2; do ./bulkbench run <(echo "$s") --engine=null ${runs[i]} --rate=1000 --format=json >$TMP/d$i.json 2>$TMP/d$i.txt & done; wait; for i in 0 1 2; do python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); iv=o.get("intervals", []); print(sys.argv[1], len(iv), "server" if iv and "log_bytes" in iv[0] else "-")' "${runs[i]}" <$TMP/d$i.json; cat $TMP/d$i.txt; done
? 0
~ ^--time=5 [45] -$
~ ^--time=1 0 -$
~ ^--time=5 --report-interval=0 0 -$
! thds:

# under --repeat each run keeps its own samples
$ ./bulkbench run <(echo 'function event() end') --engine=null --time=0.6 --report-interval=0.2 --repeat=2 --format=json 2>/dev/null | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); print([len(r["intervals"]) >= 2 for r in o["runs"]], "intervals" in o)'
? 0
~ ^\[True, True\] False$

# --latency-hist: non-empty buckets with exact bounds; their counts add up to the events, and a point's is the sum of its runs'
$ ./bulkbench run workloads/quickstart.lua --method=insert --rows=3000 --latency-hist --format=json | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); h=o["latency_hist"]; b=h["buckets"]; print(h["unit"], sum(x[2] for x in b) == o["events"], all(lo < hi and c > 0 for lo, hi, c in b), all(b[i][1] <= b[i+1][0] for i in range(len(b)-1)))'; ./bulkbench run workloads/quickstart.lua --method=insert --rows=3000 --latency-hist --repeat=3 --format=json 2>/dev/null | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); print("sum", sum(x[2] for x in o["latency_hist"]["buckets"]))'
? 0
~ ^ns True True True$
~ ^sum 9000$
