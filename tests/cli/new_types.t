# SQLite's affinities (tests/engines/new_types_spec.lua has pg's and MariaDB's types): a declared type bulkbench has no
# generator for (json, inet) and a CHECK over two columns it cannot read are drawn from the table's own values: the
# columns of the CHECK from one sampled row, so it holds; all-distinct values stay distinct
$ ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/a.db'); for _, t in ipairs { 't', 't2' } do db:exec('create table ' .. t .. ' (id integer primary key, doc json not null, ip inet, a int not null, b int not null, check (a < b))') end; db:begin(); for i = 1, 2000 do db:exec(('insert into t (doc, ip, a, b) values (\'{\"k\": %d}\', %s, %d, %d)'):format(i, i % 4 == 0 and 'null' or '\'10.0.' .. (i % 200) .. '.' .. (i % 7) .. '\'', i % 50, i % 50 + 1 + i % 13)) end; db:commit()"; ./bulkbench new --engine=sqlite --dsn=$TMP/a.db --table=t -o $TMP/a.lua >/dev/null && ./bulkbench run $TMP/a.lua --engine=sqlite --dsn=$TMP/a.db --rows=5000 && ./bulkbench run $TMP/a.lua --engine=sqlite --dsn=$TMP/a.db --rows=2000 --into=t2 && sqlite3 $TMP/a.db "select 'doc ' || count(distinct doc) || ' bad ' || sum(a >= b) || ' ip ' || (select count(distinct ip) from t) || '/' || count(distinct ip) from t2"
? 0
~ sqlite +txn .* 5000 .* ok
~ sqlite +txn .* 2000 .* ok
~ doc 2000 bad 0 ip ([0-9]+)/\1$

# where the original is not, the values the file holds stand in, a CHECK's columns still from one row: it holds
$ ./bulkbench run $TMP/a.lua --engine=sqlite --dsn=$TMP/elsewhere.db --rows=3000
? 0
~ t is not in this database; the columns drawn from its values draw from those the scenario holds
~ sqlite +txn .* 3000 .* ok

# an empty table whose CHECK it cannot read: the run is refused before any row, with one line naming the column and the CHECK
$ ./bulkbench lua /dev/stdin <<<"local db = require('bulkbench').connect('sqlite', '$TMP/e.db'); db:exec([[create table e (id integer primary key, code text not null check (code glob '[A-Z][0-9]'))]])"; ./bulkbench new --engine=sqlite --dsn=$TMP/e.db --table=e -o $TMP/e.lua; ./bulkbench run $TMP/e.lua --engine=sqlite --dsn=$TMP/e.db --rows=10; echo "rc=$? rows=$(sqlite3 $TMP/e.db 'select count(*) from e') tables=$(sqlite3 $TMP/e.db "select count(*) from sqlite_master where name like 'bb_scratch%'")"
? 0
~ warning: e: e.code \(TEXT\): CHECK \(code glob '\[A-Z\]\[0-9\]'\), and the table holds no values to draw from: give the column a generator
~ FAILED: e.code \(TEXT\): CHECK \(code glob '\[A-Z\]\[0-9\]'\), and the table holds no values to draw from: give the column a generator$
~ rc=1 rows=0 tables=0
! traceback
