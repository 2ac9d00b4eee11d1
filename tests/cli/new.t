# new needs a table or a file, not both and not neither
$ ./bulkbench new --engine=sqlite
? 2
~ new needs --table=NAME .* or a file

# a file and --table at once is a usage error
$ ./bulkbench new tests/fixtures/new_mixed.csv --table=x
? 2
~ from a file or from --table, not both

# an unknown table names the nearest ones
$ ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/n.db'); db:exec('create table orders (id int primary key)'); db:exec('create table order_lines (id int)')"; ./bulkbench new --engine=sqlite --dsn=$TMP/n.db --table=ordrs
? 1
~ no table ordrs in .*; did you mean orders
! traceback

# a CSV's types by the whole file: integers by range, decimals, dates, timestamps, booleans, UUIDs, doubles, text by its longest value
$ ./bulkbench new tests/fixtures/new_mixed.csv --header --engine=pg -o $TMP/mixed.lua
? 0
~ "id" integer NOT NULL
~ "price" numeric\(5,2\) NOT NULL
~ "day" date NOT NULL
~ "at" timestamp NOT NULL
~ "flag" boolean NOT NULL
~ "ref" uuid NOT NULL
~ "ratio" double precision NOT NULL
~ "label" varchar\(18\) NOT NULL
~ "note" varchar\(5\)$
~ load the file:  bulkbench load tests/fixtures/new_mixed.csv --engine=pg --table=new_mixed --format=csv --header

# the scenario has the file's own load in its description, and a column comment each
$ ./bulkbench new tests/fixtures/new_mixed.csv --header --engine=sqlite -o $TMP/m.lua >/dev/null 2>&1; ./bulkbench help $TMP/m.lua; grep -c '^  -- ' $TMP/m.lua
? 0
~ Load the file itself with:
~ bulkbench load tests/fixtures/new_mixed.csv --engine=sqlite --table=new_mixed --format=csv --header
~ --into=VALUE
~ ^9$

# a TSV whose NULLs are \N: the marker is found and the load line says it; a wide integer is a bigint
$ printf 'a\tb\tc\n1\t\\N\tx\n2\t5000000000\t\\N\n3\t7\ty\n' >$TMP/t.tsv; ./bulkbench new $TMP/t.tsv --header --engine=pg -o $TMP/t.lua
? 0
~ "a" integer NOT NULL
~ "b" bigint,
~ "c" varchar\(1\)
~ --format=tsv --header --null='\\N'

# a row with another number of fields is refused, naming the row
$ printf 'a,b\n1,2\n3\n' >$TMP/bad.csv; ./bulkbench new $TMP/bad.csv --header
? 1
~ row 3 has 1 fields, the header has 2

# a generated SQLite scenario runs as written into a scratch copy, which is gone after the run
$ ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/s.db'); db:exec('create table p (id integer primary key)'); db:exec('insert into p values (1), (2), (3)'); db:exec('create table c (id integer primary key, p_id int not null references p(id), v varchar(8) not null unique, s char(1) check (s in (\'x\', \'y\')))'); db:exec([[insert into c (p_id, v, s) values (1, 'a1', 'x'), (2, 'a2', 'y'), (2, 'a3', 'x')]])"; ./bulkbench new --engine=sqlite --dsn=$TMP/s.db --table=c -o $TMP/c.lua && ./bulkbench run $TMP/c.lua --engine=sqlite --dsn=$TMP/s.db --rows=5000 && sqlite3 $TMP/s.db "select 'tables: ' || group_concat(name, ',') from sqlite_master where type = 'table'"
? 0
~ sqlite +txn .* 5000 .* ok
~ tables: p,c$

# pg: a run that fails (a key whose pattern runs out of values) drops its scratch tables too
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists nc_c, nc_p; create table nc_p (id int primary key); insert into nc_p values (1), (2); create table nc_c (id int primary key references nc_p(id) deferrable, code varchar(3) unique); insert into nc_c values (1, 'A1'), (2, 'A2'); analyze nc_c" >/dev/null; ./bulkbench new --engine=pg --table=nc_c -o $TMP/nc.lua >/dev/null && sed -i 's/bb.unique { "[^"]*"/bb.unique { "A#"/' $TMP/nc.lua && sed -i 's/, unique = true//g' $TMP/nc.lua; ./bulkbench run $TMP/nc.lua --engine=pg --rows=50; echo "rc=$? scratch=$($P -c "select count(*) from pg_tables where tablename like 'bb_scratch_%'")"
? 0
~ FAILED: .*duplicate key
~ rc=1 scratch=0

# pg: Ctrl-C in the middle of a run: exit 130, and the scratch tables are dropped
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists ni; create table ni (id bigint primary key, v text not null); insert into ni select g, md5(g::text) from generate_series(1, 1000) g; analyze ni" >/dev/null; ./bulkbench new --engine=pg --table=ni -o $TMP/ni.lua >/dev/null && { ./bulkbench run $TMP/ni.lua --engine=pg --rows=50000000 --method=txn --batch=100 >$TMP/ni.out 2>&1 & p=$!; sleep 1.5; during=$($P -c "select count(*) from pg_tables where tablename like 'bb_scratch_%'"); kill -INT $p; wait $p; echo "rc=$? during=$during after=$($P -c "select count(*) from pg_tables where tablename like 'bb_scratch_%'") mine=$($P -c "select count(*) from ni")"; }
? 0
~ rc=130 during=1 after=0 mine=1000

# pg: SIGTERM the same, exit 143
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; ./bulkbench run $TMP/ni.lua --engine=pg --rows=50000000 --method=copy --batch=10000 >/dev/null 2>&1 & p=$!; sleep 1.5; kill -TERM $p; wait $p; echo "rc=$? after=$($P -c "select count(*) from pg_tables where tablename like 'bb_scratch_%'")"; $P -c "drop table ni, nc_c, nc_p" >/dev/null
? 0
~ rc=143 after=0

# pg: --into loads an existing table, neither dropped nor truncated; the rows verified are its growth
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists nt_i, nt_i2; create table nt_i (id int primary key, s text); insert into nt_i select g, 's' || (g % 3) from generate_series(1, 100) g; analyze nt_i; create table nt_i2 (like nt_i including all); insert into nt_i2 values (1000, 'old')" >/dev/null; ./bulkbench new --engine=pg --table=nt_i -o $TMP/i.lua >/dev/null && ./bulkbench run $TMP/i.lua --engine=pg --rows=500 --into=nt_i2 && ./bulkbench run $TMP/i.lua --engine=pg --rows=500 --into=nt_i2 --format=json | python3 -c "import json,sys; print('verified', json.load(sys.stdin)['verified_rows'])"; $P -c "select 'rows ' || count(*) || ' min ' || min(id) || ' old ' || count(*) filter (where s = 'old') from nt_i2" -c "drop table nt_i, nt_i2"
? 0
~ pg +copy .* 500 .* ok
~ verified 500
~ rows 1001 min 1000 old 1

# pg: --into a table that is not there names the nearest
@ needs pg
$ ./bulkbench run $TMP/i.lua --engine=pg --rows=10 --into=nt_i3
? 1
~ --into=nt_i3: no such table
! traceback

# pg: a role that may not read the table is told which query failed
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists np; create table np (id int primary key); do \$\$ begin if not exists (select from pg_roles where rolname = 'bb_noread') then create role bb_noread login; end if; end \$\$" >/dev/null; ./bulkbench new --engine=pg --dsn="$(echo $BULKBENCH_PG_DSN | sed 's|//bench@|//bb_noread@|')" --table=np; echo "rc=$?"; $P -c "drop table np" >/dev/null
? 0
~ reading (a sample|the rows) of public.np failed: .*permission denied
~ the query: SELECT .* FROM "public"."np"
~ rc=1

# new --check: the scenario's rows go into a scratch copy (dropped after), and each column is held against the table's, worst first; on a table of skewed, nullable and ordered columns every column comes out within KS 0.1 and top-5 0.05 (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists ck_tab; create table ck_tab (id int primary key, grp text not null, amount numeric(8,2), at timestamptz not null, note text); insert into ck_tab select g, (array['a','b','b','c','c','c'])[1 + g % 6], case when g % 10 = 0 then null else round((100 + 50 * sin(g))::numeric, 2) end, timestamptz '2024-01-01' + g * interval '37 minutes', md5(g::text) from generate_series(1, 3000) g; analyze ck_tab" && ./bulkbench new --engine=pg --table=ck_tab --check --format=json >$TMP/chk.json 2>$TMP/chk.err; echo "rc=$?"; python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["columns"]; print(d["table"], d["rows"], len(c), sorted(x["name"] for x in c)); print("within", all((x["ks"] or 0) <= 0.1 and (x["top5_diff"] or 0) <= 0.05 and x["null_diff"] <= 0.02 for x in c), [ (x["name"], x["ks"], x["top5_diff"]) for x in c if (x["ks"] or 0) > 0.1 or (x["top5_diff"] or 0) > 0.05]); print("orderable", sorted(x["name"] for x in c if x["ks"] is not None))' $TMP/chk.json; $P -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like 'bb_scratch%'" -c "drop table ck_tab"
? 0
~ ^rc=0$
~ ^public.ck_tab 3000 5 \['amount', 'at', 'grp', 'id', 'note'\]$
~ ^within True \[\]$
~ ^orderable \['amount', 'at', 'id'\]$
~ ^scratch tables: 0$

# ... and as text on MariaDB: a line per column under its head, the verdict last, nothing left behind
@ needs mysql
$ M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e "drop table if exists ck_tab; create table ck_tab (id int primary key, grp varchar(4) not null, v int); insert into ck_tab select seq, elt(1 + seq % 3, 'x', 'y', 'y'), if(seq % 5 = 0, null, seq % 97) from seq_1_to_2000; analyze table ck_tab persistent for all" >/dev/null && ./bulkbench new --engine=mysql --table=ck_tab --check; $M -N -e "select concat('scratch tables: ', count(*)) from information_schema.tables where table_schema = database() and table_name like 'bb_scratch%'; drop table ck_tab"
? 0
~ ^ck_tab: 2000 rows of its scenario loaded into a scratch copy; samples of 2000 rows of each compared
~ ^column +null diff +distinct ratio +top-5 diff +KS$
~ ^grp +0\.000 
~ ^every column judged within KS 0\.10, top-5 0\.05, distinct ratio 0\.80-1\.25, null diff 0\.02 of the original$
~ ^scratch tables: 0$
! traceback

# Ctrl-C while --check loads: its child stops, the scratch copy is dropped, exit 130 (sent once the copy exists)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists ck_big; create table ck_big as select g as id, md5(g::text) as t from generate_series(1, 300000) g; alter table ck_big add primary key (id); analyze ck_big" && { ./bulkbench new --engine=pg --table=ck_big --check --check-rows=300000 >/dev/null 2>$TMP/int.err & p=$!; for i in $(seq 400); do [ "$($P -c "select count(*) from pg_tables where tablename like 'bb_scratch%ck_big'")" = 1 ] && break; sleep 0.05; done; kill -INT $p; wait $p; echo "exit $?"; }; $P -c "select 'scratch tables: ' || count(*) from pg_tables where tablename like 'bb_scratch%'" -c "drop table ck_big"; tail -1 $TMP/int.err
? 0
~ ^exit 130$
~ ^scratch tables: 0$
~ interrupted; the scratch copy was dropped

# --check compares a table: with a file it is a usage error
$ ./bulkbench new tests/fixtures/new_mixed.csv --header --check
? 2
~ --check compares a table with its scenario: give --table \(and a scenario FILE.lua to check one you edited\), not a data file

# names as people have them: --table and --into take the same forms, bare (spaces and case kept), quoted or schema-qualified; a table in another schema is named with the form that reaches it; a file name with a space is printed shell-quoted, and the printed command runs as printed (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -q -c 'set client_min_messages = warning; drop schema if exists "Nm Dept" cascade; create schema "Nm Dept"; create table "Nm Dept"."Cust Omers" (id int primary key, "Full Name" text not null); insert into "Nm Dept"."Cust Omers" select g, md5(g::text) from generate_series(1, 50) g; drop table if exists "Nm Items"; create table "Nm Items" (id int primary key, "Qty" int); insert into "Nm Items" select g, g % 7 from generate_series(1, 40) g; create table "Nm Dept".cp (like "Nm Items" including all); analyze' >/dev/null; ./bulkbench new --engine=pg --table='Nm Items' -o "$TMP/my file.lua" | tail -1 | tee $TMP/cmd; ./bulkbench new --engine=pg --table='"Nm Items"' -o $TMP/q.lua >/dev/null && echo "quoted ok"; ./bulkbench new --engine=pg --table='Cust Omers' 2>&1 | head -1; ./bulkbench new --engine=pg --table='Nm Dept.Cust Omers' -o $TMP/c.lua >/dev/null && echo "qualified ok"; (cd $TMP && PATH=$OLDPWD:$PATH sh -c "$(sed 's/^run it: *//; s/--rows=[0-9]*/--rows=40 --format=csv/' cmd)") | tail -1 | cut -d, -f1-3; for i in 'Nm Dept.cp' '"Nm Dept"."cp"'; do ./bulkbench run "$TMP/my file.lua" --engine=pg --rows=5 --into="$i" --format=csv | tail -1 | cut -d, -f6; done; $P -c 'select count(*) from "Nm Dept".cp' -c 'drop schema "Nm Dept" cascade; drop table "Nm Items"' | head -1
? 0
~ ^run it:  bulkbench run '.*/my file.lua' --engine=pg --dsn=[^ ]+ --rows=[0-9]+$
~ ^quoted ok$
~ ^bulkbench: no table Cust Omers in the search path; it is in another schema: --table='Nm Dept.Cust Omers'$
~ ^qualified ok$
~ ^my file,pg,copy$
~ ^5$
~ ^10$
! traceback

# ... and on MariaDB: backquoted, and --into another database's table
@ needs mysql
$ M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e 'drop table if exists `Nm Items`; create table `Nm Items` (id int primary key, `Qty` int); insert into `Nm Items` select seq, seq % 7 from seq_1_to_40; drop database if exists nm_other; create database nm_other; create table nm_other.cp like `Nm Items`'; ./bulkbench new --engine=mysql --table='`Nm Items`' -o $TMP/m.lua >/dev/null && echo "backquoted ok"; ./bulkbench run $TMP/m.lua --engine=mysql --rows=5 --into=nm_other.cp --format=csv | tail -1 | cut -d, -f1-3,6; $M -N -e 'select count(*) from nm_other.cp; drop database nm_other; drop table `Nm Items`'
? 0
~ ^backquoted ok$
~ ^m,mysql,load,5$
~ ^5$
! traceback

# a file's header as a CREATE TABLE takes it: the byte order mark an editor left goes, a name given twice becomes name_2, names past the engine's identifier length are cut and told apart; the table is made and the file loads into it (pg, then MariaDB)
@ needs pg mysql
$ printf '\xef\xbb\xbfid,name,name,a_very_long_column_name_that_goes_on_and_on_and_on_past_sixty_four_characters_x,a_very_long_column_name_that_goes_on_and_on_and_on_past_sixty_four_characters_y\n1,x,y,p,q\n2,v,z,p,q\n' >$TMP/hdr.csv; P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists hdr" && ./bulkbench new $TMP/hdr.csv --header --engine=pg -o $TMP/hdr.lua 2>/dev/null | $P && ./bulkbench load $TMP/hdr.csv --engine=pg --table=hdr --header --format=csv >/dev/null && $P -c "select string_agg(attname, ' ' order by attnum) from pg_attribute where attrelid = 'hdr'::regclass and attnum > 0" -c "select count(*) from hdr" -c "drop table hdr"; M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e "drop table if exists hdr" && ./bulkbench new $TMP/hdr.csv --header --engine=mysql -o $TMP/hdr.lua 2>/dev/null | $M && ./bulkbench load $TMP/hdr.csv --engine=mysql --table=hdr --header --format=csv >/dev/null && $M -N -e "select count(*) from hdr; drop table hdr"
? 0
~ ^id name name_2 a_very_long_column_name_that_goes_on_and_on_and_on_past_sixty_f a_very_long_column_name_that_goes_on_and_on_and_on_past_sixty_2$
~ ^2$
! ﻿

# the file names the table's triggers and rules and what the scratch copies make of them (pg: a trigger and a rule; SQLite: a trigger)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -q -c "set client_min_messages = warning; drop table if exists trg_t, trg_log; create table trg_log (n int); create table trg_t (id int primary key); create function trg_f() returns trigger language plpgsql as 'begin insert into trg_log values (new.id); return new; end'; create trigger trg_audit before insert on trg_t for each row execute function trg_f(); create rule trg_rule as on delete to trg_t do nothing; insert into trg_t values (1)" && ./bulkbench new --engine=pg --table=trg_t | grep '^-- note'; $P -q -c "drop table trg_t, trg_log; drop function trg_f()"; ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/trg.db'); db:exec('create table t (id integer primary key, v int)'); db:exec('create trigger t_ins after insert on t begin select 1; end'); db:exec('insert into t values (1, 2)')" && ./bulkbench new --engine=sqlite --dsn=$TMP/trg.db --table=t | grep '^-- note'
? 0
~ ^-- note: its rule trg_rule, trigger trg_audit: the scratch copies carry a trigger unless its code writes to other tables
~ ^-- note: its trigger t_ins: the scratch copies carry a trigger unless

# NULL as the file has it: empty fields far more often than the word NULL make the empty field the file's NULL, and the word in a few summaries is text; the table is made and the file loads as printed (pg)
@ needs pg
$ printf 'id,n,summary\n1,,fine\n2,5,NULL\n3,,ok\n4,7,NULL\n5,,x\n6,,NULL\n7,,y\n8,,z\n' >$TMP/nl.csv; P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists nl"; ./bulkbench new $TMP/nl.csv --header --engine=pg -o $TMP/nl.lua 2>$TMP/nl.err | tee $TMP/nl.sql | grep '"n"'; $P <$TMP/nl.sql && sh -c "$(grep -o 'bulkbench load.*' $TMP/nl.err | sed "s#^bulkbench#./bulkbench#")" >/dev/null && $P -c "select count(*), count(n), count(*) filter (where summary = 'NULL') from nl" -c "drop table nl"
? 0
~ ^  "n" smallint,$
~ ^8\|2\|3$

# a table whose parent holds no rows (northwind's customer_customer_demo): the scenario loads the parent too, parents first, and runs as written; a table never analyzed counts its rows (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -q -c "set client_min_messages = warning; drop table if exists ep_child, ep_parent; create table ep_parent (code varchar(5) primary key, descr text); create table ep_child (id int primary key, code varchar(5) not null references ep_parent)" && ./bulkbench new --engine=pg --table=ep_child -o $TMP/ep.lua | head -1; grep -c 'loaded with ep_child' $TMP/ep.lua; ./bulkbench run $TMP/ep.lua --engine=pg --rows=500 --format=csv | cut -d, -f1,6 | tail -1; $P -q -c "drop table ep_child, ep_parent; drop table if exists na_t; create table na_t (id int primary key); insert into na_t select generate_series(1, 37)"; ./bulkbench new --engine=pg --table=na_t | grep -o 'rows = [0-9]*' | tail -1; $P -c "drop table na_t"
? 0
~ ^wrote .*: 2 tables \(ep_parent, ep_child\)
~ ^1$
~ ^ep,500$
~ ^rows = 37$

# a key of two foreign keys and a time (a rental: when, which item, which customer) whose times cluster: the parents' combinations make the key and the times keep their law (made unique they could only be spread evenly: KS 0.44 on sakila's rental); --check holds every column within KS 0.1 (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -q -c "set client_min_messages = warning; drop table if exists rk_rental, rk_item, rk_cust; create table rk_item (id int primary key); create table rk_cust (id int primary key); insert into rk_item select generate_series(1, 300); insert into rk_cust select generate_series(1, 200); create table rk_rental (id serial primary key, at timestamp not null, item int not null references rk_item, cust int not null references rk_cust, unique (at, item, cust)); insert into rk_rental (at, item, cust) select timestamp '2005-05-24' + (case when g % 10 < 8 then (g % 20) * interval '1 day' else interval '260 days' end) + (g * 37 % 86400) * interval '1 second', 1 + g * 7 % 300, 1 + g * 13 % 200 from generate_series(1, 3000) g; analyze" && ./bulkbench new --engine=pg --table=rk_rental | grep -c '"at", "timestamp", bb.timestamp { start'; ./bulkbench new --engine=pg --table=rk_rental --check --format=json | python3 -c 'import json,sys; c=json.load(sys.stdin)["columns"]; print("at", [x["ks"] < 0.1 for x in c if x["name"] == "at"], "all", all((x["ks"] or 0) <= 0.1 for x in c if not x["server"]))'; $P -c "drop table rk_rental, rk_item, rk_cust"
? 0
~ ^0$
~ ^at \[True\] all True$
