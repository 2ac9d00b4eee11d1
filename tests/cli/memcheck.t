# valgrind memcheck: a short scenario per engine, several methods, no memory errors, no definite leaks
@ needs pg mysql
$ for e in sqlite null pg mysql; do case $e in pg) m=copy,multirow,pipeline;; mysql) m=load,multirow,txn,pipeline;; *) m=txn,multirow;; esac; valgrind -q --read-inline-info=no --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite ./bulkbench run workloads/quickstart.lua --engine=$e --method=$m --batch=100 --rows=300 >$TMP/vg.out 2>&1 || { echo "memcheck $e: exit $?"; grep -E '^==' $TMP/vg.out | head -20; }; done; echo done
? 0
~ ^done$
! memcheck

# memcheck of gen with threads and of a report
$ valgrind -q --read-inline-info=no --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite ./bulkbench gen workloads/copy_vs_load.lua --table=bmsql_history --rows=70000 --threads=2 -o /dev/null && valgrind -q --read-inline-info=no --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite ./bulkbench report tests/fixtures/results.jsonl --svg=$TMP/v.svg >/dev/null && echo clean
? 0
~ ^clean$

# memcheck of the odbc engine through each driver and every method (MariaDB's driver gets timestamp arrays as text: it leaks structs)
@ needs odbc
$ for d in "$BULKBENCH_ODBC_PG" "$BULKBENCH_ODBC_MYSQL" "$BULKBENCH_ODBC_SQLITE"; do valgrind -q --read-inline-info=no --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite ./bulkbench run workloads/quickstart.lua --engine=odbc --dsn="$d" --method=insert,insert-simple,txn,multirow,pipeline --batch=100 --rows=300 >$TMP/vg.out 2>&1 || { echo "memcheck odbc ${d%%;*}: exit $?"; grep -E '^==' $TMP/vg.out | head -20; }; done; echo done
? 0
~ ^done$
! memcheck

# memcheck of a comparison that fails --fail-if-slower: the exit code the report asks for travels back from Lua
$ valgrind -q --read-inline-info=no --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite ./bulkbench report --compare tests/fixtures/compare_cand.jsonl tests/fixtures/compare_base.jsonl --fail-if-slower=5 >/dev/null 2>&1; echo "exit $?"
? 0
~ ^exit 4$

# memcheck of advise: rounds, drops, the baseline's ratio (through lua/report/stats.lua), --out, the scratch tables dropped;
# the budget is ample so the race ends on its own (one survivor) however slow valgrind on a busy machine is
$ valgrind -q --read-inline-info=no --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite ./bulkbench advise workloads/quickstart.lua --method=txn,multirow --batch=100,1000 --threads=1 --rows=2000 --budget=60s --baseline=insert::1 --format=json --out=$TMP/vga.jsonl >$TMP/vga.json 2>$TMP/vga.err && python3 tests/fixtures/advise_check.py $TMP/vga.json $TMP/vga.jsonl --baseline || { echo "memcheck advise"; grep -E '^==' $TMP/vga.err | head -20; }
? 0
~ ^ok: 5 candidates
! memcheck
