# `bulkbench new`, the last mile (issue 45): --check's bands, too few rows, an edited scenario;
# exact MariaDB counts; names cut to the engine's limit; keys in their ranges, repeats that
# repeat, references as distinct as they were, --into continuing every key, triggers.

# new --check on a 2-row table shows its figures but says it is too few rows to judge (pg)
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_tiny; create table n2_tiny (id int primary key, label text); insert into n2_tiny values (1, 'a'), (2, 'b'); analyze n2_tiny" && ./bulkbench new --engine=pg --table=n2_tiny --check; ./bulkbench new --engine=pg --table=n2_tiny --check --format=json | python3 -c 'import json,sys; d=json.load(sys.stdin); print("few", [(c["name"], c["too_few"], c["off"]) for c in d["columns"]])'; $P -c "drop table n2_tiny"
? 0
~ ^too few rows to judge: samples of 2 rows \(30 needed\); the figures are shown, not judged$
~ ^id .*\(too few values to judge: 2\)$
~ ^few \[\('id', True, \[\]\), \('label', True, \[\]\)\]$
! <- off

# new --check FILE.lua --table=T holds a scenario the user edited against the table: a column drawn from 1..3 where the table had 1,000 distinct values is off by its distinct ratio and KS, in text and JSON; the file is not rewritten (pg)
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_rep; create table n2_rep (id int primary key, f float8, n int); insert into n2_rep select g, (g % 1000) / 7.0, case when g % 4 = 0 then null else g % 37 end from generate_series(1, 3000) g; analyze n2_rep" && ./bulkbench new --engine=pg --table=n2_rep -o $TMP/rep.lua >/dev/null && sed -i 's/^\( *\){ "f", .*$/\1{ "f", "double precision", bb.int { 1, 3 } },/' $TMP/rep.lua && cp $TMP/rep.lua $TMP/rep0.lua && ./bulkbench new --check $TMP/rep.lua --engine=pg --table=n2_rep; ./bulkbench new --check $TMP/rep.lua --engine=pg --table=n2_rep --format=json | python3 -c 'import json,sys; d=json.load(sys.stdin); c={x["name"]: x for x in d["columns"]}; print("f off", c["f"]["off"], "n off", c["n"]["off"], d["distinct_limits"], d["null_limit"])'; cmp $TMP/rep.lua $TMP/rep0.lua && echo unchanged; $P -c "drop table n2_rep"
? 0
~ ^f .*<- off: distinct ratio, KS$
~ ^1 column off \(outside KS 0\.10, top-5 0\.05, distinct ratio 0\.80-1\.25, null diff 0\.02\)
~ ^f off \['distinct_ratio', 'ks'\] n off \[\] \[0\.8, 1\.25\] 0\.02$
~ ^unchanged$

# ... a scenario to check needs the table it is held against, and is checked as it is
$ ./bulkbench new --check $TMP/x.lua --engine=pg; ./bulkbench new --check $TMP/x.lua --engine=pg --table=t -o $TMP/y.lua
? 2
~ new --check .*x.lua holds a scenario against a table: name it with --table
~ -o writes a new one, leave it out

# MariaDB: a table's rows are counted (InnoDB's table_rows is an estimate: 29,598 for 30,000), and the file says so
$ M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e "drop table if exists n2_big; create table n2_big (id int auto_increment primary key, v int); insert into n2_big (v) select seq % 100 from seq_1_to_30000; analyze table n2_big" >/dev/null && ./bulkbench new --engine=mysql --table=n2_big -o $TMP/big.lua; grep -o '^-- n2_big: rows like n2_big on MariaDB [0-9.]* (30000 rows, counted' $TMP/big.lua; $M -e "drop table n2_big"
? 0
~ --rows=30000$
~ ^-- n2_big: rows like n2_big on MariaDB [0-9.]+ \(30000 rows, counted$

# a CSV header past the engine's identifier length is cut without a trailing space (MariaDB refused "aaa… " with error 1166) or half a character, and the printed CREATE TABLE runs (MariaDB, then pg)
$ printf 'id,%s tail,%sé,x\n1,2,3,4\n' "$(printf 'a%.0s' $(seq 63))" "$(printf 'b%.0s' $(seq 62))" >$TMP/long.csv; M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e "drop table if exists \`long\`" && ./bulkbench new $TMP/long.csv --header --engine=mysql -o $TMP/long.lua 2>/dev/null | $M && $M -N -e "select group_concat(concat('[', column_name, ']') order by ordinal_position) from information_schema.columns where table_schema = database() and table_name = 'long'; drop table \`long\`"; P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c 'drop table if exists long' && ./bulkbench new $TMP/long.csv --header --engine=pg -o $TMP/long.lua 2>/dev/null | $P && $P -c "select string_agg('[' || attname || ']', ',' order by attnum) from pg_attribute where attrelid = 'long'::regclass and attnum > 0" -c "drop table long"
? 0
~ ^\[id\],\[a{63}\],\[b{62}é\],\[x\]$
~ ^\[id\],\[a{63}\],\[b{62}\],\[x\]$
