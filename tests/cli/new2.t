# `bulkbench new`, the last mile (issue 45): --check's bands, too few rows, an edited scenario;
# exact MariaDB counts; names cut to the engine's limit; keys in their ranges, repeats that
# repeat, references as distinct as they were, --into continuing every key, triggers.

# new --check on a 2-row table shows its figures but says it is too few rows to judge (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_tiny; create table n2_tiny (id int primary key, label text); insert into n2_tiny values (1, 'a'), (2, 'b'); analyze n2_tiny" && ./bulkbench new --engine=pg --table=n2_tiny --check; ./bulkbench new --engine=pg --table=n2_tiny --check --format=json | python3 -c 'import json,sys; d=json.load(sys.stdin); print("few", [(c["name"], c["too_few"], c["off"]) for c in d["columns"]])'; $P -c "drop table n2_tiny"
? 0
~ ^too few rows to judge: samples of 2 rows \(30 needed\); the figures are shown, not judged$
~ ^id .*\(too few values to judge: 2\)$
~ ^few \[\('id', True, \[\]\), \('label', True, \[\]\)\]$
! <- off

# new --check FILE.lua --table=T holds a scenario the user edited against the table: a column drawn from 1..3 where the table had 1,000 distinct values is off by its distinct ratio and KS, in text and JSON; the file is not rewritten (pg)
@ needs pg
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
@ needs mysql
$ M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e "drop table if exists n2_big; create table n2_big (id int auto_increment primary key, v int); insert into n2_big (v) select seq % 100 from seq_1_to_30000; analyze table n2_big" >/dev/null && ./bulkbench new --engine=mysql --table=n2_big -o $TMP/big.lua; grep -o '^-- n2_big: rows like n2_big on MariaDB [0-9.]* (30000 rows, counted' $TMP/big.lua; $M -e "drop table n2_big"
? 0
~ --rows=30000$
~ ^-- n2_big: rows like n2_big on MariaDB [0-9.]+ \(30000 rows, counted$

# a CSV header past the engine's identifier length is cut without a trailing space (MariaDB refused "aaa… " with error 1166) or half a character, and the printed CREATE TABLE runs (MariaDB, then pg)
@ needs pg mysql
$ printf 'id,%s tail,%sé,x\n1,2,3,4\n' "$(printf 'a%.0s' $(seq 63))" "$(printf 'b%.0s' $(seq 62))" >$TMP/long.csv; M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e "drop table if exists \`long\`" && ./bulkbench new $TMP/long.csv --header --engine=mysql -o $TMP/long.lua 2>/dev/null | $M && $M -N -e "select group_concat(concat('[', column_name, ']') order by ordinal_position) from information_schema.columns where table_schema = database() and table_name = 'long'; drop table \`long\`"; P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c 'drop table if exists long' && ./bulkbench new $TMP/long.csv --header --engine=pg -o $TMP/long.lua 2>/dev/null | $P && $P -c "select string_agg('[' || attname || ']', ',' order by attnum) from pg_attribute where attrelid = 'long'::regclass and attnum > 0" -c "drop table long"
? 0
~ ^\[id\],\[a{63}\],\[b{62}é\],\[x\]$
~ ^\[id\],\[a{63}\],\[b{62}\],\[x\]$

# a composite key of two plain columns (a in 0..49, ten b per a) keeps each column's values and per-value counts: each combination once over their product, not a shuffle of 0..499 (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_ck, n2_ck_c; create table n2_ck (a int, b text, payload int, primary key (a, b)); insert into n2_ck select g % 50, 'k' || (g / 50), g from generate_series(0, 499) g; analyze n2_ck; create table n2_ck_c (like n2_ck including all)" && ./bulkbench new --engine=pg --table=n2_ck -o $TMP/ck.lua && ./bulkbench run $TMP/ck.lua --engine=pg --into=n2_ck_c --rows=500 >/dev/null && $P -c "select 'a ' || min(a) || '|' || max(a) || '|' || count(distinct a) || '|' || max(c) || '|' || min(c) from (select a, count(*) c from n2_ck_c group by a) s" -c "select 'b ' || count(distinct b) || '|' || min(c) || '|' || max(c) from (select b, count(*) c from n2_ck_c group by b) s" -c "drop table n2_ck, n2_ck_c"
? 0
~ --rows=500$
~ ^a 0\|49\|50\|10\|10$
~ ^b 10\|50\|50$

# repeated values repeat as much: a float of 1,000 values five times each, timestamps of 200 hours, 100 distinct byte strings, keep their distinct counts (0.8-1.25 of the original's) and null fraction (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_rp, n2_rp_c; create table n2_rp (id int primary key, f float8, t timestamp, bin bytea, n int); insert into n2_rp select g, (g % 1000) / 7.0, timestamp '2024-01-01' + (g % 200) * interval '1 hour', decode(lpad(to_hex(g % 100), 8, '0'), 'hex'), case when g % 4 = 0 then null else g % 37 end from generate_series(1, 5000) g; analyze n2_rp; create table n2_rp_c (like n2_rp including all)" && ./bulkbench new --engine=pg --table=n2_rp -o $TMP/rp.lua && ./bulkbench run $TMP/rp.lua --engine=pg --into=n2_rp_c --rows=5000 >/dev/null && for c in f t bin n; do $P -c "select '$c ' || ((select count(distinct $c) from n2_rp_c)::float / (select count(distinct $c) from n2_rp) between 0.8 and 1.25)"; done; $P -c "select 'nulls ' || (abs((select avg((n is null)::int) from n2_rp_c) - (select avg((n is null)::int) from n2_rp)) <= 0.02)" -c "drop table n2_rp, n2_rp_c"; grep -c 'distinct = ' $TMP/rp.lua
? 0
~ ^f true$
~ ^t true$
~ ^bin true$
~ ^n true$
~ ^nulls true$
~ ^[3-9]$

# references keep their distinctness: each film in one category stays so (one shuffle of the films), and a reference 85% distinct stays within 0.05 of it (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_fc, n2_fc_c, n2_pr, n2_pr_c, n2_cat, n2_film; create table n2_cat (id int primary key); insert into n2_cat select generate_series(1, 16); create table n2_film (id int primary key); insert into n2_film select generate_series(1, 3000); create table n2_fc (film_id int references n2_film, cat_id int references n2_cat, primary key (film_id, cat_id)); insert into n2_fc select g, 1 + g % 16 from generate_series(1, 1000) g; create table n2_pr (id int primary key, film_id int references n2_film); insert into n2_pr select g, case when g % 20 < 3 then 1 + (g * 7) % 150 else g end from generate_series(1, 2000) g; analyze; create table n2_fc_c (like n2_fc including all); create table n2_pr_c (like n2_pr including all)" && ./bulkbench new --engine=pg --table=n2_fc -o $TMP/fc.lua && ./bulkbench run $TMP/fc.lua --engine=pg --into=n2_fc_c --rows=1000 >/dev/null && ./bulkbench new --engine=pg --table=n2_pr -o $TMP/pr.lua && ./bulkbench run $TMP/pr.lua --engine=pg --into=n2_pr_c --rows=2000 >/dev/null && $P -c "select 'fc ' || count(distinct film_id)::float / count(*) from n2_fc_c" -c "select 'pr ' || (abs((select count(distinct film_id)::float / count(*) from n2_pr_c) - (select count(distinct film_id)::float / count(*) from n2_pr)) <= 0.05)" -c "drop table n2_fc, n2_fc_c, n2_pr, n2_pr_c, n2_cat, n2_film"
? 0
~ ^fc 1$
~ ^pr true$

# --into the table itself continues every unique key after its largest value: an integer identity, ORD-######## text and e-mail addresses, their shapes kept; twice (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_ord; create table n2_ord (id bigserial primary key, order_no text unique not null, email text unique not null, amount numeric(8,2)); insert into n2_ord (order_no, email, amount) select 'ORD-' || lpad(g::text, 8, '0'), 'c' || g || '@example.com', g % 997 from generate_series(1, 1000) g; analyze n2_ord" && ./bulkbench new --engine=pg --table=n2_ord -o $TMP/ord.lua >/dev/null && for i in 1 2; do ./bulkbench run $TMP/ord.lua --engine=pg --into=n2_ord --rows=1000 --format=csv | tail -1 | cut -d, -f6; done; $P -c "select count(*), count(*) filter (where email ~ '^c[0-9]+@example\.com$'), count(*) filter (where order_no ~ '^ORD-[0-9]{8}$'), max(order_no) from n2_ord" -c "drop table n2_ord"
? 0
~ ^1000$
~ ^3000\|3000\|3000\|ORD-00003000$

# MariaDB: a trigger that sets a key column (SET NEW.t = NOW(), the key (t, p1, p2)) is named on the column, the rest of the key is drawn unique, the printed run (password as ***) runs as printed, and --check shows the column as the trigger's
@ needs mysql
$ M="mariadb -h$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#.*@([^:]+):([0-9]+)/(.*)#\1 -P\2 \3#') -u$(echo $BULKBENCH_MYSQL_DSN | sed -E 's#mysql://([^:]+):([^@]*)@.*#\1 -p\2#')"; $M -e "drop table if exists n2_tr, n2_p1, n2_p2; create table n2_p1 (id int primary key); create table n2_p2 (id int primary key); insert into n2_p1 select seq from seq_1_to_30; insert into n2_p2 select seq from seq_1_to_30; create table n2_tr (id int auto_increment primary key, t datetime not null, p1 int not null, p2 int not null, unique key u (t, p1, p2), foreign key (p1) references n2_p1(id), foreign key (p2) references n2_p2(id)); insert into n2_tr (t, p1, p2) select '2024-01-01' + interval seq minute, 1 + seq % 30, 1 + (seq * 7) % 30 from seq_1_to_600; create trigger n2_tr_now before insert on n2_tr for each row set new.t = now(); analyze table n2_p1, n2_p2, n2_tr" >/dev/null && ./bulkbench new --engine=mysql --table=n2_p1,n2_p2,n2_tr -o $TMP/tr.lua | tee $TMP/tr.new; grep -c 'written by its trigger n2_tr_now (NEW.t = now())' $TMP/tr.lua; grep -c 'alike for the rows of one statement: the rest of it is drawn unique alone' $TMP/tr.lua; eval "$(sed -n 's/^run it: *bulkbench/.\/bulkbench/p' $TMP/tr.new) --format=csv" | tail -1 | cut -d, -f6; ./bulkbench new --engine=mysql --table=n2_tr --check | grep '^t '; $M -e "drop table n2_tr, n2_p1, n2_p2"
? 0
~ --dsn='mysql://[^:]+:\*\*\*@
~ ^1$
~ ^2$
~ ^1000$
~ ^t .*\(the server's values: written by its trigger n2_tr_now\)$

# a key of two references whose parent has rows no reference names (chinook's playlist_track: 14 of 18 playlists have tracks): those rows come in only once the others' combinations are spent, so as many playlists as the table's are referenced (18 came out, 1.29 times) (pg)
@ needs pg
$ P="psql -qAtX $BULKBENCH_PG_DSN"; $P -c "drop table if exists n2_pt, n2_pt_c, n2_pl, n2_tk; create table n2_pl (id int primary key); insert into n2_pl select generate_series(1, 18); create table n2_tk (id int primary key); insert into n2_tk select generate_series(1, 3500); create table n2_pt (pl int references n2_pl, tk int references n2_tk, primary key (pl, tk)); insert into n2_pt select 1 + g % 14, 1 + (g * 7) % 3500 from generate_series(1, 3500) g; insert into n2_pt select 1, g from generate_series(1, 3500) g on conflict do nothing; analyze; create table n2_pt_c (like n2_pt including all)" && ./bulkbench new --engine=pg --table=n2_pt -o $TMP/pt.lua >/dev/null && ./bulkbench run $TMP/pt.lua --engine=pg --into=n2_pt_c --rows=$($P -c "select count(*) from n2_pt") >/dev/null && $P -c "select 'playlists ' || (select count(distinct pl) from n2_pt_c) || ' of ' || (select count(distinct pl) from n2_pt)" -c "drop table n2_pt, n2_pt_c, n2_pl, n2_tk"
? 0
~ ^playlists 14 of 14$
