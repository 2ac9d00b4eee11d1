# Reports of two result sets, of runs over time and of latency histograms. The fixtures are
# real SQLite runs merged into --repeat=5 results: tests/fixtures/mkrepeat.py says how.

# --compare: batch 1000 against the same point at batch 10 (renamed to match) is faster
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl
? 0
~ ratio = candidate / base median rows/s; its interval from the ratios of every base run to every candidate run \(Mann-Whitney\), with the level it holds
~ ^quickstart: 1 point \(engine=sqlite, method=multirow, threads=1, batch=1000, --journal=wal, --sync=normal\)
~ ^verdict +base rows/s +base runs +cand rows/s +cand runs +ratio +interval$
~ ^faster +75127 +5 +306414 +5 +4\.079 +\[[0-9.]+, [0-9.]+\] \(96\.8%\)$

# the reverse is slower, and --fail-if-slower=5 exits 4 naming the point
$ ./bulkbench report --compare tests/fixtures/compare_cand.jsonl tests/fixtures/compare_base.jsonl --fail-if-slower=5
? 4
~ ^slower .* 0\.245 +\[0\.[0-9]+, 0\.[0-9]+\] \(96\.8%\)$
~ ^bulkbench: --fail-if-slower=5: quickstart \(sqlite, multirow, threads=1, batch=1000, --journal=wal, --sync=normal\) is 75\.5% slower \(ratio 0\.245, 96\.8% interval
~ a threshold or comparison failed

# a slower point whose interval reaches above the limit does not fail
$ ./bulkbench report --compare tests/fixtures/compare_cand.jsonl tests/fixtures/compare_base.jsonl --fail-if-slower=70
? 0
~ ^slower 

# two result sets of the same build and point: no difference, and nothing fails
$ ./bulkbench report --compare tests/fixtures/compare_cand.jsonl tests/fixtures/compare_same.jsonl --fail-if-slower=5
? 0
~ ^no difference .* \[0\.[0-9]+, 1\.[0-9]+\] \(96\.8%\)$

# the same files give the same interval
$ a=$(./bulkbench report --compare tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl); b=$(./bulkbench report --compare tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl); [ "$a" = "$b" ] && echo same
? 0
~ ^same$

# one run a side gives a ratio but no verdict
$ ./bulkbench report --compare tests/fixtures/compare_one_base.jsonl tests/fixtures/compare_one_cand.jsonl --fail-if-slower=5
? 0
~ ^too few runs to tell \(one run each: use --repeat\) .* 4\.858 +-$

# one candidate run against three base runs, however far apart, is too few to tell (50% at most), and fails no --fail-if-slower
$ head -c 0 /dev/null; python3 -c "import json; r=json.loads(open('tests/fixtures/compare_cand.jsonl').readline()); [print(json.dumps(dict(r, runs=None, repeats=None, stats=None, rows_per_s=v))) for v in (300000, 310000, 305000)]" >$TMP/b3.jsonl; python3 -c "import json; r=json.loads(open('tests/fixtures/compare_cand.jsonl').readline()); print(json.dumps(dict(r, runs=None, repeats=None, stats=None, rows_per_s=100000)))" >$TMP/c1.jsonl; ./bulkbench report --compare $TMP/b3.jsonl $TMP/c1.jsonl --fail-if-slower=5
? 0
~ ^too few runs to tell \(3 and 1: 50% sure at most; 4 a side reach 95%\) .* 0\.328 +\[0\.323, 0\.333\] \(50%\)$
! ^slower|fail-if-slower=5:

# points on one side only are listed as unmatched, and make the comparison fail (exit 4) naming them: a typo must not pass in CI
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl <(cat tests/fixtures/compare_cand.jsonl tests/fixtures/results.jsonl)
? 4
~ ^faster 
~ ^unmatched: only in candidate +pg +copy +4 +- +- +250000 +1 +- +-$
~ ^other: 1 point
~ ^what differs: the scenario is only in the candidate$
~ ^bulkbench: 7 points could not be paired \(only in candidate: fixture_sweep \(pg, copy, threads=1, batch=1000\); 
~ a threshold or comparison failed

# as markdown, and as CSV with every dimension of the point and the interval's ends
$ F=tests/fixtures; ./bulkbench report --compare $F/compare_base.jsonl $F/compare_cand.jsonl --format=markdown; ./bulkbench report --compare $F/compare_base.jsonl $F/compare_cand.jsonl --format=csv
? 0
~ ^### quickstart: 1 point
~ ^\| verdict \| base rows/s \| base runs \| cand rows/s \| cand runs \| ratio \| interval \|$
~ ^\| faster \| 75127 \| 5 \| 306414 \| 5 \| 4\.079 \| \[[0-9.]+, [0-9.]+\] \(96\.8%\) \|$
~ ^scenario,engine,method,threads,batch,target,--journal,--sync,base rows/s,base runs,cand rows/s,cand runs,ratio,ci_lo,ci_hi,ci_level,verdict$
~ ^quickstart,sqlite,multirow,1,1000,,wal,normal,75127,5,306414,5,4\.079,[0-9.]+,[0-9.]+,0\.9683,faster$

# --compare takes exactly two files
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl
? 2
~ --compare takes two results files, BASE then CANDIDATE; got 1

# --compare of three files is a usage error too
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl tests/fixtures/compare_same.jsonl
? 2
~ got 3

# --fail-if-slower needs --compare and a percentage
$ ./bulkbench report tests/fixtures/compare_base.jsonl --fail-if-slower=5
? 2
~ --fail-if-slower judges a comparison

# --fail-if-slower takes a number
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl --fail-if-slower=five
? 2
~ option --fail-if-slower expects a number, got 'five'

# --fail-if-slower takes no negative percentage
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl --fail-if-slower=-5
? 2
~ option --fail-if-slower must be at least 0

# one report at a time
$ ./bulkbench report --compare --timeline tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl
? 2
~ --compare and --timeline: one report at a time

# --compare draws no chart
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl tests/fixtures/compare_cand.jsonl --svg=$TMP/x.svg
? 2
~ --compare draws no chart

# the report options belong to report
$ ./bulkbench run workloads/quickstart.lua --rows=10 --fail-if-slower=5
? 2
~ --fail-if-slower is an option of `bulkbench report`

# a missing side is a usage error naming it
$ ./bulkbench report --compare tests/fixtures/compare_base.jsonl $TMP/nosuch.jsonl
? 2
~ cannot read results file .*nosuch\.jsonl

# --timeline: a line per run, stalls listed with their time, valid SVG
$ ./bulkbench report tests/fixtures/timeline.jsonl --timeline --svg=$TMP/t.svg && python3 -c "import xml.dom.minidom as m; d = m.parse('$TMP/t.svg'); print('xml', len(d.getElementsByTagName('polyline')), [t.firstChild.data for t in d.getElementsByTagName('text') if 'at 0.50 s' in (t.firstChild.data if t.firstChild else '')])"
? 0
~ ^timeline: 6 runs with intervals$
~ ^batch=10 run 2/5 +2 +13 +0\.65 +60760 +25237 +0\.135$
~ ^stalls \(an interval under 0\.5 of its run's median rows/s, beyond one batch per thread, after the first\): 5$
~ ^batch=100 +0\.50 +28421 +217871 +0\.13$
~ ^skipped quickstart \(sqlite, multirow, threads=1, batch=1000, --journal=wal, --sync=normal\): no intervals$
~ ^xml 12 \['  batch=100: at 0\.50 s, 28421 rows/s \(0\.13 of its median 217871\)'\]$

# --timeline of results without intervals says so and still draws
$ ./bulkbench report --timeline tests/fixtures/results.jsonl --svg=$TMP/t0.svg && python3 -c "import xml.dom.minidom as m; m.parse('$TMP/t0.svg'); print('xml ok')"
? 0
~ ^timeline: 0 runs with intervals$
~ ^skipped fixture_sweep \(pg, copy, threads=1, batch=1000\): no intervals$
~ ^xml ok$

# --cdf: histograms of one point merged, the rest skipped, a log-scaled SVG
$ ./bulkbench report --cdf tests/fixtures/latency_hist.jsonl --svg=$TMP/c.svg && python3 -c "import xml.dom.minidom as m; d = m.parse('$TMP/c.svg'); print('xml', sorted(g.getAttribute('data-name') for g in d.getElementsByTagName('g') if g.getAttribute('class') == 'series'), [t.firstChild.data for t in d.getElementsByTagName('text') if t.firstChild and 'log scale' in t.firstChild.data])"
? 0
~ ^point +histograms +events +p50 ms +p90 ms +p99 ms +p99\.9 ms$
~ ^batch=10 +2 +10000 +0\.024
~ ^batch=1000 +1 +250
~ ^skipped quickstart \(.*batch=100, .*\): no latency_hist \(run it with --latency-hist\)$
~ ^xml \['batch=10 \(2 merged\)', 'batch=1000'\] \['latency ms \(log scale\)'\]$

# --cdf of results without histograms: a CSV of no rows
$ ./bulkbench report --cdf tests/fixtures/results.jsonl --format=csv
? 0
~ ^point,histograms,events,p50 ms,p90 ms,p99 ms,p99\.9 ms$
! fixture_sweep

# the tables of --repeat results lead with the verdict and show the median's interval with its level, how many runs and their spread, fastest first
$ ./bulkbench report tests/fixtures/timeline.jsonl
? 0
~ ^quickstart: 3 points, 7 runs
~ ^fastest: batch=1000 at 282,840 rows/s \(one run\)$
~ ^  3\.76 times as fast as the slowest, batch=10 \(3\.00 to 4\.56, 66\.6%\)$
~ ^vs best +batch +rows/s +interval +runs +cv % +rows +seconds
~ ^ +1\.00 +1000 +282840 
~ ^ +0\.27 +10 +75127 +62021-94186 \(93\.7%\) +5 +17\.5 +50000 +0\.666 

# a field of the wrong type anywhere (a run's rate, an interval's time, a histogram, advise's round): each such line named with the field and skipped, the rest reported, no traceback
$ python3 -c "import json; t=[json.loads(l) for l in open('tests/fixtures/timeline.jsonl')]; h=json.loads(open('tests/fixtures/latency_hist.jsonl').readline()); a=json.loads(open('tests/fixtures/advise.jsonl').readline()); r=json.loads(json.dumps(t[0])); r['runs'][0]['rows_per_s']='fast'; i=json.loads(json.dumps(t[1])); i['intervals'][0]['t']='soon'; h['latency_hist']['buckets']='many'; a['advise']['round']='one'; [print(json.dumps(x)) for x in (r, i, h, a, t[2])]" >$TMP/types.jsonl; for m in --timeline --cdf ""; do ./bulkbench report $TMP/types.jsonl --html=$TMP/types.html $m >/dev/null; echo "rc=$?"; done 2>&1 | sort -u
~ types\.jsonl:1: field runs\[1\]\.rows_per_s is a string \("fast"\), not a number: skipped
~ types\.jsonl:2: field intervals\[1\]\.t is a string \("soon"\), not a number: skipped
~ types\.jsonl:3: field latency_hist\.buckets is a string \("many"\), not a list or object: skipped
~ types\.jsonl:4: field advise\.round is a string \("one"\), not a number: skipped
~ ^rc=0$
! traceback|rc=[1-9]

# --compare of a before and an after that differ in one --set: the points pair across it, the text says what differs ("synchronous_commit: on → off"), and the verdict follows
$ F=tests/fixtures; python3 -c "import json; b=json.loads(open('$F/compare_base.jsonl').readline()); c=json.loads(open('$F/compare_cand.jsonl').readline()); print(json.dumps(dict(b, set={'synchronous_commit': 'on'})), file=open('$TMP/on.jsonl', 'w')); print(json.dumps(dict(c, set={'synchronous_commit': 'off'})), file=open('$TMP/off.jsonl', 'w'))"; ./bulkbench report --compare $TMP/on.jsonl $TMP/off.jsonl
? 0
~ ^quickstart: 1 point \(engine=sqlite, method=multirow, threads=1, batch=1000, --journal=wal, --sync=normal\)$
~ ^what differs: synchronous_commit: on → off$
~ ^faster +75127 +5 +306414 +5 +4\.079
! unmatched

# ... a script option, bulkbench's version and a server setting recorded in the environment are said the same way; the server setting a --set also shows is said once
$ F=tests/fixtures; python3 -c "import json; b=json.loads(open('$F/compare_base.jsonl').readline()); c=json.loads(open('$F/compare_cand.jsonl').readline()); print(json.dumps(dict(b, options={'journal': 'wal', 'sync': 'normal'}, set={'synchronous_commit': 'on'}, server=dict(b['server'], settings={'synchronous_commit': 'on', 'wal_level': 'replica'}))), file=open('$TMP/b2.jsonl', 'w')); print(json.dumps(dict(c, options={'journal': 'delete', 'sync': 'normal'}, version='0.2.0', set={'synchronous_commit': 'off'}, server=dict(c['server'], settings={'synchronous_commit': 'off', 'wal_level': 'minimal'}))), file=open('$TMP/c2.jsonl', 'w'))"; ./bulkbench report --compare $TMP/b2.jsonl $TMP/c2.jsonl
? 0
~ ^what differs: synchronous_commit: on → off; --journal: wal → delete; bulkbench version: 0\.1\.0 → 0\.2\.0; wal_level: replica → minimal$
~ ^faster 

# ... a dimension with several values on one side is no change of the whole file: its points pair value by value, and one left without a partner fails the comparison
$ F=tests/fixtures; python3 -c "import json; b=json.loads(open('$F/compare_base.jsonl').readline()); c=json.loads(open('$F/compare_cand.jsonl').readline()); f=open('$TMP/b3.jsonl', 'w'); [print(json.dumps(dict(b, set={'synchronous_commit': v})), file=f) for v in ('on', 'off')]; print(json.dumps(dict(c, set={'synchronous_commit': 'on'})), file=open('$TMP/c3.jsonl', 'w'))"; ./bulkbench report --compare $TMP/b3.jsonl $TMP/c3.jsonl
? 4
~ ^what differs: nothing the results record
~ ^faster 
~ ^unmatched: only in base +off 
~ 1 point could not be paired \(only in base: quickstart \(sqlite, multirow, threads=1, batch=1000, synchronous_commit=off, --journal=wal, --sync=normal\)\)

# one scenario name over two scripts (their sha256 differ): --compare says so and warns, and so does a report of one file that holds both
$ F=tests/fixtures; python3 -c "import json; b=json.loads(open('$F/compare_base.jsonl').readline()); c=json.loads(open('$F/compare_cand.jsonl').readline()); print(json.dumps(dict(b, scenario_sha256='a'*64)), file=open('$TMP/s1.jsonl', 'w')); print(json.dumps(dict(c, scenario_sha256='b'*64)), file=open('$TMP/s2.jsonl', 'w'))"; ./bulkbench report --compare $TMP/s1.jsonl $TMP/s2.jsonl; cat $TMP/s1.jsonl $TMP/s2.jsonl >$TMP/s12.jsonl; ./bulkbench report $TMP/s12.jsonl
? 0
~ ^what differs: the script \(sha256\): aaaaaaaaaaaa → bbbbbbbbbbbb$
~ ^WARNING: quickstart: the two files ran different scripts of that name \(sha256 aaaaaaaaaaaa in base, bbbbbbbbbbbb in candidate\)
~ ^WARNING: quickstart: one scenario name covers 2 different scripts \(sha256 aaaaaaaaaaaa, bbbbbbbbbbbb\)

# the verdict never names a configuration both as slower and as one that cannot be told apart; with one run a point it says nothing can be told apart instead of listing every other
$ ./bulkbench report tests/fixtures/results.jsonl; ./bulkbench report tests/fixtures/timeline.jsonl
? 0
~ ^  with one run a point nothing can be told apart: --repeat=4 or more tells a clear difference$
~ ^  3\.76 times as fast as the slowest, batch=10 \(3\.00 to 4\.56, 66\.6%\)$
~ ^  too few runs to tell any of the others apart from it: 4 or more of each tell a clear difference$
! cannot be told apart
