# dbctl start pg|mysql --tls: servers of their own that refuse unencrypted sessions; every method of both engines runs over TLS, verified, each result recording the session's protocol and cipher; a plain session (sslmode=disable, ssl-mode=DISABLED) is refused
@ needs server
$ chmod 755 $TMP; export BB_DBCTL_DIR=$TMP/tls BB_DBCTL_PG_OPTS="$BB_DBCTL_PG_OPTS shared_buffers=64MB" BB_DBCTL_MYSQL_OPTS="$BB_DBCTL_MYSQL_OPTS innodb_buffer_pool_size=64M innodb_log_file_size=64M"; trap 'contrib/dbctl stop all >/dev/null 2>&1' EXIT; P=$(contrib/dbctl start pg --tls) && M=$(contrib/dbctl start mysql --tls) || exit 1; echo "$P"; echo "$M"; eval "$P"; eval "$M"; for m in insert txn multirow pipeline copy copy-csv copy-binary; do ./bulkbench run workloads/quickstart.lua --engine=pg --method=$m --batch=100 --rows=2000 --format=json; done >$TMP/tls.json; for m in insert txn multirow pipeline load; do ./bulkbench run workloads/quickstart.lua --engine=mysql --method=$m --batch=100 --rows=2000 --format=json; done >>$TMP/tls.json; python3 -c "import json; rs=[json.loads(l) for l in open('$TMP/tls.json')]; print('runs', len(rs), 'verified', sum(r['verified_rows'] == r['rows'] == 2000 for r in rs), 'tls', sorted({(r['engine'], r['tls']['on'], r['tls']['version'][:5], bool(r['tls']['cipher'])) for r in rs}))"; ./bulkbench run workloads/quickstart.lua --engine=pg --dsn="${BULKBENCH_PG_DSN%%\?*}?sslmode=disable" --rows=10; echo "plain pg rc=$?"; ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn="${BULKBENCH_MYSQL_DSN%%\?*}?ssl-mode=DISABLED" --rows=10; echo "plain mysql rc=$?"
? 0
~ ^export BULKBENCH_PG_DSN='postgresql://bench@127.0.0.1:[0-9]+/bench\?sslmode=verify-full&sslrootcert=.*/server.crt'$
~ ^export BULKBENCH_MYSQL_DSN='mysql://bench:bench@127.0.0.1:[0-9]+/bench\?ssl-mode=VERIFY_IDENTITY&ssl-ca=.*/server.crt'$
~ ^runs 12 verified 12 tls \[\('mysql', True, 'TLSv1', True\), \('pg', True, 'TLSv1', True\)\]$
~ FAILED: .*no pg_hba.conf entry .*no encryption
~ plain pg rc=1
~ plain mysql rc=1

# mysql: ssl-mode=REQUIRED on a server without a certificate is an error, not a plain session; the plain servers' results say tls off; the DSN's TLS parameters are checked as they are read
@ needs pg mysql
$ ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn="$BULKBENCH_MYSQL_DSN?ssl-mode=REQUIRED" --rows=10; ./bulkbench run workloads/quickstart.lua --engine=pg --rows=10 --format=json | python3 -c 'import json,sys; print("pg tls", json.loads(sys.stdin.readline())["tls"])'; ./bulkbench run workloads/quickstart.lua --rows=10 --format=json | python3 -c 'import json,sys; print("sqlite tls", json.loads(sys.stdin.readline())["tls"])'; for q in "ssl-mode=VERIFY_CA" "ssl-mode=SOMETIMES" "sslmode=require" "ssl-cert=/x.pem" "ssl-mode=DISABLED&ssl-ca=/x.pem"; do ./bulkbench run workloads/quickstart.lua --engine=mysql --dsn="mysql://u@127.0.0.1:1/db?$q" --rows=10 2>&1 | grep -o 'FAILED: .*'; done
? 0
~ did not encrypt the session, and --dsn's ssl-mode=REQUIRED asks for TLS
~ ^pg tls \{'on': False, 'version': None, 'cipher': None\}$
~ ^sqlite tls None$
~ ssl-mode=VERIFY_CA needs ssl-ca=FILE
~ ssl-mode=SOMETIMES: it is DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY
~ unknown --dsn parameter 'sslmode' \(the parameters are socket, ssl-mode, ssl-ca, ssl-cert, ssl-key, ssl-verify-server-cert\)
~ ssl-cert and ssl-key go together
~ ssl-mode=DISABLED takes no ssl-ca
