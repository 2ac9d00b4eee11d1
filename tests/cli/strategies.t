# pg: drop-indexes and defer-fks (a sweep dimension) give the table back as they found it (catalog compared by psql) and time before, load and after; rows/s is over all three
@ needs pg
$ S="select string_agg(x, '|' order by x) from (select indexdef x from pg_indexes where tablename = 'st_items' union all select conname || ':' || convalidated from pg_constraint where conrelid = 'st_items'::regclass) s"; ./bulkbench run tests/fixtures/strategies.lua --engine=pg --strategy=none >/dev/null 2>&1 && a=$(psql -qAtX $BULKBENCH_PG_DSN -c "$S") && ./bulkbench run tests/fixtures/strategies.lua --engine=pg --strategy=drop-indexes,defer-fks --out=$TMP/st.jsonl && b=$(psql -qAtX $BULKBENCH_PG_DSN -c "$S") && echo "same=$([ "$a" = "$b" ] && echo yes || echo "no: $a / $b")" && python3 -c "import json; [print(x['strategy'], 'phases', all(x['phases'][k] > 0 for k in ('before_s','load_s','after_s')), 'total', abs(x['rows']/x['rows_per_s'] - sum(x['phases'].values())) < 0.01, 'verified', x['verified_rows'] == x['rows']) for x in map(json.loads, open('$TMP/st.jsonl'))]"
? 0
~ strategy drop-indexes: before [0-9.]+ s \+ load [0-9.]+ s \+ after [0-9.]+ s
~ same=yes
~ drop-indexes phases True total True verified True
~ defer-fks phases True total True verified True
! not ok

# pg: every built-in strategy runs and verifies
@ needs pg
$ ./bulkbench run tests/fixtures/strategies.lua --engine=pg --rows=5000 --strategy=no-triggers,unlogged,async-commit
? 0
~ strategy no-triggers: before
~ strategy unlogged: before
~ strategy async-commit: before
! FAILED

# pg: freeze loads in one transaction that truncates the empty table first, COPY ... FREEZE: every page of the loaded table is all-frozen (pg_visibility), and the count verifies
@ needs pg
$ psql -qAtX $BULKBENCH_PG_DSN -c "create extension if not exists pg_visibility" >/dev/null && ./bulkbench run tests/fixtures/strategies.lua --engine=pg --rows=20000 --strategy=freeze --batch=5000 && psql -qAtX $BULKBENCH_PG_DSN -c "select 'pages=' || (count(*) > 0) || ' frozen=' || bool_and(all_frozen) from pg_visibility_map('st_items')"
? 0
~ strategy freeze: before [0-9.]+ s \+ load
~ pages=true frozen=true
! skipped

# pg: freeze where it cannot be: more than one thread, a method other than COPY, or a table that holds rows - skipped, each with its reason, and the load runs
@ needs pg
$ ./bulkbench run tests/fixtures/strategies.lua --engine=pg --rows=2000 --strategy=freeze --threads=2 && ./bulkbench run tests/fixtures/strategies.lua --engine=pg --rows=2000 --strategy=freeze --method=multirow && psql -qAtX $BULKBENCH_PG_DSN -c "drop table if exists st_full; create table st_full (id bigint); insert into st_full values (0)" && printf 'local bb = require "bulkbench"\nbb.load(bb.table "st_full" { { "id", "bigint", bb.seq() }, existing = true })\n' >$TMP/full.lua && ./bulkbench run $TMP/full.lua --engine=pg --method=copy --rows=2000 --strategy=freeze && psql -qAtX $BULKBENCH_PG_DSN -c "select 'rows=' || count(*) from st_full; drop table st_full"
? 0
~ strategy freeze skipped: COPY FREEZE loads in one session's transaction: --threads=1
~ strategy freeze skipped: COPY FREEZE needs a copy method
~ strategy freeze skipped: the table holds rows
~ rows=2001

# pg: a freeze load whose session is killed mid-COPY commits nothing, and says so exactly (no rows in doubt: only the final COMMIT commits)
@ needs pg
$ ./bulkbench run tests/fixtures/strategies.lua --engine=pg --strategy=freeze --rows=50000000 --batch=10000 --report-interval=0.2 >$TMP/fz.out 2>$TMP/fz.err & p=$!; for i in $(seq 600); do grep -q "thds:" $TMP/fz.err && break; sleep 0.05; done; psql -qAtX $BULKBENCH_PG_DSN -c "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'copy%freeze%'" >/dev/null; wait $p; echo "rc=$?"; cat $TMP/fz.err; psql -qAtX $BULKBENCH_PG_DSN -c "select 'table=' || count(*) from st_items"
? 0
~ rc=1
~ 0 rows were committed before the run stopped
~ table=0
! being committed

# an unknown strategy names the nearest and the ones there are; a failed point has no phases to show
@ needs pg
$ ./bulkbench run tests/fixtures/strategies.lua --engine=pg --rows=10 --strategy=drop-index
? 1
~ unknown strategy 'drop-index' on pg; did you mean 'drop-indexes'\? \(it offers: none, .*drop-indexes
! strategy drop-index: before

# a strategy whose after-step fails fails the run
@ needs pg
$ ./bulkbench run tests/fixtures/strategies.lua --engine=pg --rows=1000 --strategy=failing-after
? 1
~ the after-step failed on purpose
~ FAILED

# a strategy that leaves the table otherwise than it found it fails verification, naming what differs
@ needs pg
$ ./bulkbench run tests/fixtures/strategies.lua --engine=pg --rows=1000 --strategy=leaves-index-dropped
? 3
~ verification failed: after strategy leaves-index-dropped the table is not as it was found
~ st_items_code_idx

# Ctrl-C during a drop-indexes load: the after-step still runs (the indexes are back, valid)
@ needs pg
$ ./bulkbench run tests/fixtures/strategies.lua --engine=pg --strategy=drop-indexes --rows=50000000 --report-interval=0.2 >$TMP/c.out 2>$TMP/c.err & p=$!; for i in $(seq 600); do grep -q "thds:" $TMP/c.err && break; sleep 0.05; done; kill -INT $p; wait $p; echo "rc=$?"; psql -qAtX $BULKBENCH_PG_DSN -c "select 'indexes=' || count(*) || ' valid=' || bool_and(indisvalid) from pg_index where indrelid = 'st_items'::regclass"
? 0
~ rc=130
~ indexes=3 valid=true

# MariaDB: drop-indexes and no-unique-checks verify; disable-keys on InnoDB is skipped with its reason
@ needs mysql
$ ./bulkbench run tests/fixtures/strategies_my.lua --engine=mysql --strategy=drop-indexes,no-unique-checks,no-fk-checks,disable-keys --format=json
? 0
~ "strategy":"drop-indexes","gives_up":"[^"]+","phases"
~ "strategy":"no-fk-checks","gives_up":"[^"]+","phases"
~ strategy disable-keys skipped: ALTER TABLE ... DISABLE KEYS does nothing on InnoDB \(Aria/MyISAM only\)
! "error":

# MariaDB: no-binlog for a user without SUPER or BINLOG ADMIN is skipped with one line saying why, and the load runs
@ needs mysql
$ M="mariadb -ubench -pbench -h127.0.0.1 -P$(echo $BULKBENCH_MYSQL_DSN | sed 's/.*:\([0-9]*\)\/.*/\1/')"; $M -e "drop user if exists 'stplain'@'127.0.0.1'; create user 'stplain'@'127.0.0.1' identified by 'pw'; grant all on bench.* to 'stplain'@'127.0.0.1'" && ./bulkbench run tests/fixtures/strategies_my.lua --engine=mysql --dsn="mysql://stplain:pw@${BULKBENCH_MYSQL_DSN#*@}" --strategy=no-binlog --rows=1000; echo "rc=$?"; $M -e "drop user 'stplain'@'127.0.0.1'"
? 0
~ strategy no-binlog skipped: setting sql_log_bin needs SUPER or BINLOG ADMIN
~ rc=0
