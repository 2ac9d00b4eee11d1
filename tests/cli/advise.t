# advise on SQLite: one JSON object whose recommendation is one of its candidates, within its budget, every run in --out with its place in the race
$ ./bulkbench advise workloads/copy_vs_load.lua --engine=sqlite --rows=20000 --method=txn,multirow --batch=100,1000 --threads=1 --budget=8s --format=json --out=$TMP/sq.jsonl >$TMP/sq.json 2>$TMP/sq.err; echo "rc=$?"; python3 tests/fixtures/advise_check.py $TMP/sq.json $TMP/sq.jsonl; tail -2 $TMP/sq.err
? 0
~ rc=0
~ ^ok: 4 candidates
! FAIL

# advise as text: the ranked candidates, the recommendation in one line (six runs at --rows or more: a candidate whose chance of winning is not yet small stays in the race) and the command that reproduces it
$ ./bulkbench advise workloads/batch_insert.lua --engine=sqlite --rows=5000 --method=txn --batch=10,1000 --threads=1 --budget=15s --name_bytes=100 2>/dev/null
? 0
~ candidate \(method:batch:threads\) +rows/s +interval \(level\)
~ ^recommendation: .*\(([6-9]|[1-9][0-9]+) runs at 5000 rows; a re-run: 95% within [0-9,]+ to [0-9,]+\)
~ ^recommendation: txn, batch 1000, 1 thread: [0-9,]+ rows/s
~ bulkbench run workloads/batch_insert.lua --engine=sqlite --method=txn --batch=1000 --threads=1 --rows=5000
~ cost per row: client CPU [0-9.]+ us

# advise on pg races into scratch tables: the user's table of the same name is left as it was, no scratch table is left behind, the baseline is compared
@ needs pg
$ psql -qAtX "$BULKBENCH_PG_DSN" -c "drop table if exists bmsql_history; create table bmsql_history (x int); insert into bmsql_history values (1), (2), (3)" && ./bulkbench advise workloads/copy_vs_load.lua --engine=pg --rows=30000 --method=copy,multirow --threads=1,2 --batch=10000 --budget=20s --baseline=pipeline:1000:1 --format=json --out=$TMP/pg.jsonl >$TMP/pg.json 2>$TMP/pg.err; echo "rc=$?"; python3 tests/fixtures/advise_check.py $TMP/pg.json $TMP/pg.jsonl --baseline --confirmed; psql -qAtX "$BULKBENCH_PG_DSN" -c "select 'user rows: ' || count(*) from bmsql_history" -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like '%scratch%'" -c "drop table bmsql_history"; tail -3 $TMP/pg.err
? 0
~ rc=0
~ ^ok: 5 candidates
~ user rows: 3
~ scratch tables: 0

# Ctrl-C during advise prints the standings so far and no recommendation (a race cut short has decided nothing), exits 130 and drops its scratch tables
# (sent once the first round has begun: on a fast machine the whole race takes 2 s; whether a run has finished by then or not, the answer is the same)
@ needs pg
$ ./bulkbench advise workloads/copy_vs_load.lua --engine=pg --rows=200000 --method=copy,multirow --threads=1,2 --batch=1000,10000 --budget=60s --format=json >$TMP/int.json 2>$TMP/int.err & p=$!; for i in $(seq 400); do grep -q "^round 1:" $TMP/int.err && break; sleep 0.05; done; kill -INT $p; wait $p; echo "exit $?"; python3 tests/fixtures/advise_check.py $TMP/int.json --interrupted; psql -qAtX "$BULKBENCH_PG_DSN" -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like '%scratch%'"; tail -1 $TMP/int.err
? 0
~ exit 130
~ ok: 8 candidates, [0-9]+ rounds, 0 runs, no recommendation \(interrupted\)
~ scratch tables: 0
~ interrupted; the standings so far are above

# interrupted as text: the standings, "interrupted", and no command to run
@ needs pg
$ ./bulkbench advise workloads/copy_vs_load.lua --engine=pg --rows=200000 --method=copy,multirow --threads=1 --batch=10000 --budget=60s >$TMP/int.txt 2>$TMP/int2.err & p=$!; for i in $(seq 400); do grep -q "^round 1:" $TMP/int2.err && break; sleep 0.05; done; kill -TERM $p; wait $p; echo "exit $?"; grep -c "bulkbench run" $TMP/int.txt; cat $TMP/int.txt
? 0
~ exit 143
~ ^0$
~ no recommendation: the race was interrupted
! ^recommendation:

# report on an interrupted race's runs and its object (recommendation null): the standings under "no recommendation", text and page
$ python3 -c "import json; rs=[json.loads(l) for l in open('tests/fixtures/advise.jsonl')]; [r['advise'].update(fate='kept') for r in rs if r['advise']['fate']=='winner']; [print(json.dumps(r)) for r in rs]; print(json.dumps({'input': 'q.lua', 'engine': 'sqlite', 'rows': 3000, 'stopped': 'interrupted', 'rounds': [], 'candidates': [], 'recommendation': None}))" >$TMP/intr.jsonl; ./bulkbench report $TMP/intr.jsonl; echo "rc=$?"; ./bulkbench report $TMP/intr.jsonl --html=$TMP/intr.html >/dev/null; grep -q "the race was interrupted" $TMP/intr.html && echo page-says-interrupted
? 0
~ ^no recommendation: the race was interrupted
~ ^kept +multirow:100:1
~ rc=0
~ ^page-says-interrupted$
! traceback

# advise on a CSV file loads a scratch copy of --table (left empty and untouched) on MariaDB
@ needs mysql
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=50000 --format=csv -o $TMP/h.csv && ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'); db:exec('drop table if exists adv_model'); db:exec('create table adv_model (hist_id integer, h_c_id integer, h_c_d_id integer, h_c_w_id integer, h_d_id integer, h_w_id integer, h_date datetime, h_amount decimal(6,2), h_data varchar(24))')" && ./bulkbench advise $TMP/h.csv --engine=mysql --table=adv_model --threads=1,2 --chunk=256kB,1MB --budget=8s --format=json >$TMP/f.json 2>$TMP/f.err; echo "rc=$?"; python3 tests/fixtures/advise_check.py $TMP/f.json; ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'); print('model rows: ' .. db:count('adv_model')); print('scratch tables: ' .. #db:query(\"show tables like '%scratch%'\")); db:exec('drop table adv_model')"
? 0
~ rc=0
~ ^ok: 4 candidates
~ model rows: 0
~ scratch tables: 0

# a budget that cannot decide at --rows says so with the budget that would, and the answer is marked with the rows it was decided at
$ ./bulkbench advise workloads/copy_vs_load.lua --engine=sqlite --rows=3000000 --method=txn --batch=100,1000 --threads=1 --budget=6s 2>&1
? 0
~ the budget cannot confirm the leaders at --rows=3000000 \(about [0-9]+ s more\).* give --budget=[0-9]+s to decide at 3000000 rows
~ ^recommendation: txn, batch 1?000?, 1 thread: .* at [0-9]+ rows; a re-run
~ \(decided at [0-9]+ rows, not the 3000000 asked: the budget could not reach them; --budget=[0-9]+s would\)

# the scratch copies carry the table's triggers, seen on the copy while the race runs, said on standard error; a trigger whose code writes to another table (an audit log) is left off, said so, and the user's audit table stays empty; --no-triggers leaves them all out
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -q -c "set client_min_messages = warning; drop table if exists adv_trg, adv_audit cascade; create table adv_audit (n int); create table adv_trg (id bigserial primary key, tag varchar(40), body text); create or replace function adv_trg_low() returns trigger language plpgsql as \$\$ begin new.tag := lower(new.tag); return new; end \$\$; create or replace function adv_trg_f() returns trigger language plpgsql as \$\$ begin insert into adv_audit values (1); return new; end \$\$; create trigger adv_trg_bi before insert on adv_trg for each row execute function adv_trg_low(); create trigger adv_trg_ai after insert on adv_trg for each row execute function adv_trg_f(); insert into adv_trg (tag, body) select 'T' || g, repeat(md5(g::text), 1 + g % 20) from generate_series(1, 2000) g; truncate adv_audit; analyze adv_trg" && ./bulkbench new --engine=pg --table=adv_trg -o $TMP/trg.lua >/dev/null && { ./bulkbench advise $TMP/trg.lua --engine=pg --rows=20000 --method=copy,multirow --batch=1000 --threads=1 --budget=20s 2>$TMP/trg.err >/dev/null & p=$!; seen=false; while kill -0 $p 2>/dev/null; do [ "$($P -c "select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relname like 'bb_scratch%adv_trg' and t.tgname = 'adv_trg_bi'")" != 0 ] && { seen=true; break; }; done; wait $p; echo "copy carries adv_trg_bi: $seen"; grep trigger $TMP/trg.err; }; $P -c "select 'audited: ' || (count(*) > 0) from adv_audit"; ./bulkbench advise $TMP/trg.lua --engine=pg --rows=5000 --method=copy --batch=1000 --threads=1 --budget=20s --no-triggers 2>&1 >/dev/null | grep triggers; $P -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like '%scratch%'" -c "drop table adv_trg, adv_audit; drop function adv_trg_f(), adv_trg_low()"
? 0
~ ^copy carries adv_trg_bi: true$
~ the scratch copies of public.adv_trg carry its 1 trigger \(--no-triggers leaves them out\)
~ public.adv_trg's trigger adv_trg_ai writes to other tables .*left off the copies, so that nothing of yours is written
~ ^audited: false$
~ --no-triggers: the scratch copies of public.adv_trg leave out its 2 triggers
~ scratch tables: 0

# on MariaDB too: the copy carries the trigger that only sets the row, the audit one stays off, nothing of the user's is written, and the copies' triggers go with the copies
@ needs mysql
$ ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'); db:exec('drop table if exists mtrg, maudit'); db:exec('create table maudit (n int)'); db:exec('create table mtrg (id bigint auto_increment primary key, tag varchar(40), body text)'); db:exec('create trigger mtrg_bi before insert on mtrg for each row set new.tag = lower(new.tag)'); db:exec('create trigger mtrg_ai after insert on mtrg for each row insert into maudit values (1)'); for i = 1, 200 do db:exec(\"insert into mtrg (tag, body) values ('T\" .. i .. \"', repeat('abc', \" .. i .. \"))\") end; db:exec('truncate maudit')" && ./bulkbench new --engine=mysql --table=mtrg -o $TMP/mtrg.lua >/dev/null && ./bulkbench advise $TMP/mtrg.lua --engine=mysql --rows=2000 --method=multirow --batch=100,1000 --threads=1 --budget=15s 2>&1 >/dev/null | grep trigger; ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'); print('audited: ' .. tostring(db:count('maudit') > 0)); print('triggers left: ' .. #db:query(\"select 1 from information_schema.triggers where trigger_schema = database() and trigger_name like 'bb_scratch%'\")); db:exec('drop table mtrg, maudit')"
? 0
~ the scratch copies of mtrg carry its 1 trigger
~ mtrg's trigger mtrg_ai writes to other tables
~ ^audited: false$
~ ^triggers left: 0$

# a backend killed mid-race (a session that has run a scratch insert, each one once, until a run fails: one killed as its run ends fails nothing; never one started after the last look for the retry, which may be the retry's): its run is run once more, the scratch tables are dropped on a new session, and advise goes on
@ needs pg
$ psql -qAtX "$BULKBENCH_PG_DSN" -c "drop table if exists adv_kill; create table adv_kill (id bigserial primary key, tag varchar(40), body text); insert into adv_kill (tag, body) select 'T' || g, repeat(md5(g::text), 1 + g % 20) from generate_series(1, 2000) g; analyze adv_kill" && ./bulkbench new --engine=pg --table=adv_kill -o $TMP/kill.lua >/dev/null && { ./bulkbench advise $TMP/kill.lua --engine=pg --rows=400000 --method=multirow --batch=1000 --threads=1 --budget=40s >$TMP/kill.out 2>$TMP/kill.err & p=$!; ks=0; while kill -0 $p 2>/dev/null; do t=$(psql -qAtX "$BULKBENCH_PG_DSN" -c "select now()"); grep -q "running it once more" $TMP/kill.err && break; k=$(psql -qAtX "$BULKBENCH_PG_DSN" -c "with b as materialized (select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and pid not in ($ks) and backend_start < '$t' and query ilike '%insert into%bb_scratch%' limit 1) select pid from b where pg_terminate_backend(pid)" 2>/dev/null); [ -n "$k" ] && ks="$ks,$k"; sleep 0.05; done; wait $p; echo "rc=$?"; }; grep -o "failed (.*); running it once more" $TMP/kill.err | head -1; grep -c "^recommendation:" $TMP/kill.out; psql -qAtX "$BULKBENCH_PG_DSN" -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like '%scratch%'" -c "drop table adv_kill"
? 0
~ rc=0
~ failed \(.*\); running it once more
~ ^1$
~ scratch tables: 0

# the printed command runs as printed: shell-quoted, --dsn with its password masked (given back here), a file's --columns, a script's own options
@ needs mysql
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=3000 --format=csv -o "$TMP/h 2.csv" && ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'); db:exec('drop table if exists adv_cols'); db:exec('create table adv_cols (hist_id integer, h_c_id integer, h_c_d_id integer, h_c_w_id integer, h_d_id integer, h_w_id integer, h_date datetime, h_amount decimal(6,2), h_data varchar(24), extra int)')" && ./bulkbench advise "$TMP/h 2.csv" --engine=mysql --dsn="$BULKBENCH_MYSQL_DSN" --table=adv_cols --columns=hist_id,h_c_id,h_c_d_id,h_c_w_id,h_d_id,h_w_id,h_date,h_amount,h_data --threads=1 --chunk=64kB --budget=10s 2>/dev/null >$TMP/cols.out; grep -A1 "^recommendation" $TMP/cols.out | tail -1 | tee $TMP/cmd.sh; sed -i "s|\*\*\*|${BULKBENCH_MYSQL_DSN#*://*:}|; s|@[^@]*@|@|" $TMP/cmd.sh; sed -i 's|^ *bulkbench|./bulkbench|' $TMP/cmd.sh; sh $TMP/cmd.sh >/dev/null 2>$TMP/cmd.err; echo "as printed: rc=$?"; ./bulkbench advise workloads/batch_insert.lua --engine=sqlite --rows=3000 --method=txn --batch=1000 --threads=1 --budget=10s --name_bytes=100 2>/dev/null | grep "bulkbench run\|^advise:"; ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('mysql', '$BULKBENCH_MYSQL_DSN'); db:exec('drop table adv_cols')"
? 0
~ bulkbench load '.*/h 2.csv' --engine=mysql '--dsn=mysql://bench:\*\*\*@.*' --table=adv_cols --threads=1 --chunk=64kB --columns=hist_id,h_c_id,h_c_d_id,h_c_w_id,h_d_id,h_w_id,h_date,h_amount,h_data
~ as printed: rc=0
~ bulkbench run workloads/batch_insert.lua --engine=sqlite --method=txn --batch=1000 --threads=1 --rows=3000 --name_bytes=100
~ ^advise: .*: 1 candidate, [0-9]+ rounds?, [0-9]+ runs? in

# leaders that cannot be told apart are named, and the simplest of them (the smaller batch) is recommended
$ ./bulkbench advise workloads/batch_insert.lua --engine=sqlite --rows=5000 --method=txn --batch=1000,1001 --threads=1 --budget=15s --format=json 2>/dev/null | python3 -c "import json,sys; r=json.load(sys.stdin)['recommendation']; print('pick', r['candidate'], 'alike', r['indistinguishable_from'])"
? 0
~ pick txn:1000:1 alike \['txn:1001:1'\]|pick txn:1001:1 alike \[\]|pick txn:1000:1 alike \[\]

# threads are checked before racing: against what a client starts, and against the sessions the server takes less those open
@ needs pg mysql
$ ./bulkbench advise workloads/copy_vs_load.lua --engine=pg --threads=100000 --method=copy --batch=1000 --budget=20s; echo "rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --engine=pg --threads=1000 --method=copy --batch=1000 --budget=20s; echo "rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --engine=mysql --threads=1000 --method=multirow --batch=1000 --budget=20s; echo "rc=$?"
? 0
~ --threads=100000: a run starts one thread and one session per thread; at most 1024
~ --threads=1000 needs 1001 sessions of the server; it takes [0-9]+ and [0-9]+ are open: give --threads up to [0-9]+
~ rc=2
! rc=[013]
! traceback

# a race killed outright (SIGKILL) leaves its scratch table, named with its process: the next new and advise say so, advise --cleanup drops it
@ needs pg
$ psql -qAtX "$BULKBENCH_PG_DSN" -c "drop table if exists adv_orph; create table adv_orph (id bigserial primary key, body text); insert into adv_orph (body) select repeat(md5(g::text), 3) from generate_series(1, 500) g; analyze adv_orph" && ./bulkbench new --engine=pg --table=adv_orph -o $TMP/orph.lua >/dev/null 2>&1 && { ./bulkbench advise $TMP/orph.lua --engine=pg --rows=5000000 --method=multirow --batch=1000 --threads=1 --budget=60s >/dev/null 2>&1 & p=$!; while kill -0 $p 2>/dev/null; do [ "$(psql -qAtX "$BULKBENCH_PG_DSN" -c "select count(*) from pg_tables where tablename like 'bb_scratch_%adv_orph'")" -gt 0 ] 2>/dev/null && break; sleep 0.05; done; kill -KILL $p; wait $p 2>/dev/null; }; ./bulkbench new --engine=pg --table=adv_orph -o $TMP/orph2.lua 2>&1 | grep "left by"; ./bulkbench advise --cleanup --engine=pg; echo "rc=$?"; psql -qAtX "$BULKBENCH_PG_DSN" -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like 'bb_scratch_%'" -c "drop table adv_orph"
? 0
~ bulkbench: 1 scratch table left by runs no longer running: bb_scratch_[0-9]+_[0-9a-f]+_adv_orph \(`bulkbench advise --cleanup` drops them\)
~ dropped 1 scratch table left by runs no longer running: bb_scratch_[0-9]+_[0-9a-f]+_adv_orph
~ rc=0
~ scratch tables: 0

# a worker thread the system refuses (stacks of 1 GB in 6 GB of address space; in the sanitized build, whose shadow memory needs terabytes of it, a test failpoint refuses the 7th) fails the run with the reason: no abort, advise names it, scratch tables dropped
@ needs pg
$ (if [ -n "${BB_IN_SANITIZE:-}" ]; then export BULKBENCH_FAILPOINT=thread-refused:7; else ulimit -s 1000000; ulimit -v 6000000; fi; ./bulkbench run workloads/quickstart.lua --engine=null --threads=20 --rows=100000 >/dev/null 2>$TMP/thr.err; echo "run rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --engine=pg --threads=20 --method=copy --batch=1000 --rows=20000 --budget=20s >/dev/null 2>>$TMP/thr.err; echo "advise rc=$?"); grep -m1 -o "cannot start worker thread [0-9]* of 20" $TMP/thr.err; psql -qAtX "$BULKBENCH_PG_DSN" -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like '%scratch%'"
? 0
~ run rc=1
~ advise rc=1
~ cannot start worker thread [0-9]+ of 20
~ scratch tables: 0
! rc=134

# a file's model table that does not exist is named
@ needs pg
$ ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=10 --format=csv -o $TMP/s.csv && ./bulkbench advise $TMP/s.csv --engine=pg --table=no_such_table --budget=10s
? 1
~ there is no table no_such_table to take the shape of

# a budget too small for one run of each candidate says how much it needs
$ ./bulkbench advise workloads/copy_vs_load.lua --engine=sqlite --rows=10000 --budget=2s
? 2
~ --budget=2s is too short for [0-9]+ candidates: one run each needs about [0-9]+ s

# usage errors: no input, a bad budget, two engines, a table the script does not have (the nearest, or its tables when none is near), a malformed baseline
$ ./bulkbench advise --engine=pg; echo "rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --budget=soon; echo "rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --engine=pg,mysql; echo "rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --table=bmsql_histroy; echo "rc=$?"; ./bulkbench advise workloads/quickstart.lua --table=events; echo "rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --baseline=copy; echo "rc=$?"; ./bulkbench advise workloads/copy_vs_load.lua --time=3; echo "rc=$?"
? 0
~ advise needs a script or a data file
~ --budget expects a duration such as 90s, 5m or 1h, got 'soon'
~ advise answers for one engine at a time
~ defines no table 'bmsql_histroy'; did you mean 'bmsql_history'\?
~ quickstart.lua defines no table 'events' \(its tables: orders\)
~ --baseline expects METHOD:BATCH:THREADS
~ --time is an option of `bulkbench run`; `bulkbench advise` does not take it
! rc=[013]

# a script that writes only through event() has no load method to race
$ ./bulkbench advise <(echo 'function event() end') --engine=null --budget=10s
? 2
~ writes through event\(\): advise races load methods

# a script's own SQL naming its tables as declared (prepare's drop and insert, a column's "references parent(id)") runs on the scratch copies under advise: the race runs, the user's tables are untouched, no copy is left; a plain run is as before
$ printf '%s\n' 'local bb = require "bulkbench"' 'local p = bb.table "wg_parent" { { "id", "int", bb.seq() }, primary_key = "id" }' 'local t = bb.table "wg_items" { { "id", "bigint", bb.seq() }, { "parent", "int references wg_parent(id)", bb.int { 1, 10 } }, primary_key = "id" }' 'function prepare(db)' '  db:exec("drop table if exists wg_items"); db:recreate(p)' '  db:exec("insert into wg_parent (id) values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)")' '  db:create(t)' 'end' 'bb.load(t)' >$TMP/wg.lua && ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/wg.db'); db:exec('create table wg_items (id int)'); db:exec('insert into wg_items values (42)'); db:exec('create table wg_parent (id int)'); db:exec('insert into wg_parent values (7)')" && ./bulkbench advise $TMP/wg.lua --engine=sqlite --dsn=$TMP/wg.db --method=txn --batch=100 --threads=1 --rows=2000 --budget=10s 2>&1 | grep -m1 -E "^(recommend|bulkbench: no candidate)"; ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/wg.db'); print('left: ' .. db:query('select group_concat(id) from wg_items')[1][1] .. ' ' .. db:query('select group_concat(id) from wg_parent')[1][1] .. ' copies=' .. db:query([[select count(*) from sqlite_master where name like '%scratch%']])[1][1])"; ./bulkbench run $TMP/wg.lua --dsn=$TMP/wg2.db --method=txn --rows=100 --format=json | grep -c '"verified_rows":100'
? 0
~ ^recommend
~ ^left: 42 7 copies=0$
~ ^1$
! no candidate

# a CSV whose quoted fields hold newlines: advise counts its records as the load does (3,000), not its lines (4,000)
@ needs pg
$ python3 -c 'import csv,sys; w=csv.writer(open(sys.argv[1], "w", newline="")); w.writerow(["id", "note"]); [w.writerow([i, "line one\nline two" if i % 3 == 0 else "plain"]) for i in range(3000)]' $TMP/nl.csv && psql -qAtX "$BULKBENCH_PG_DSN" -c "drop table if exists adv_nl; create table adv_nl (id int, note text)" && ./bulkbench advise $TMP/nl.csv --engine=pg --table=adv_nl --header --budget=10s 2>&1 | grep -o -m1 "[0-9]* rows: 3 candidates"; psql -qAtX "$BULKBENCH_PG_DSN" -c "drop table adv_nl"
? 0
= 3000 rows: 3 candidates

# an unreachable server: its host and port, not where in bulkbench's own Lua the error was raised
$ ./bulkbench advise workloads/quickstart.lua --engine=pg --dsn=postgresql://bench@127.0.0.1:1/bench --budget=10s
? 1
~ ^bulkbench: pg: cannot connect to 127.0.0.1:1
! lua/

# the advice names only what the table has: drop-indexes for a table with secondary indexes, not for one without
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -q -c "drop table if exists adv_idx, adv_noidx; create table adv_idx (id int primary key, a int, b text); create index on adv_idx (a); create table adv_noidx (id int primary key, a int)" && ./bulkbench lua /dev/stdin <<<"local bb = require('bulkbench'); for _, t in ipairs { 'adv_idx', 'adv_noidx' } do print(t .. ': [' .. tostring(bb.strategies_for('pg', '$BULKBENCH_PG_DSN', t, 'server-cpu')) .. ']') end"; $P -c "drop table adv_idx, adv_noidx"
? 0
= adv_idx: [drop-indexes]
= adv_noidx: []

# 32 candidates: those in the race (and the baseline) in the table, the rest listed after it, every one named once, in the one order
$ ./bulkbench advise workloads/quickstart.lua --engine=sqlite --dsn=$TMP/many.db --method=txn,multirow --batch=10,100,1000,5000 --threads=1,2,3,4 --rows=5000 --budget=30s 2>/dev/null | python3 -c 'import re,sys; t=sys.stdin.read(); keys=["%s:%s:%s" % (m,b,n) for m in ("txn","multirow") for b in (10,100,1000,5000) for n in (1,2,3,4)]; bad=[k for k in keys if len(re.findall(r"(?<![\w:])%s(?![\w:])" % re.escape(k), t.split("recommendation:")[0])) != 1]; print("named once each:", not bad, bad[:4]); print("listed after:", "more out of the race:" in t)'
? 0
= named once each: True []
= listed after: True
