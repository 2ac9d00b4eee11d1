"""`bulkbench load` against both real servers: the file edge cases of the issue, each loaded
and compared with what the file holds (row count and a checksum of every value, computed by
the server over the table and by this script over the rows it wrote). Prints TAP.

   python3 tests/load_matrix.py        (BULKBENCH_PG_DSN and BULKBENCH_MYSQL_DSN from contrib/dbctl)
   python3 tests/load_matrix.py --plan its plan alone ("1..N"), reaching no server: what `make test`
                                       counts as skipped when it does not run the suite
"""
import atexit, csv, hashlib, io, json, os, re, shutil, subprocess, sys, tempfile

BB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bulkbench")
TMP = tempfile.mkdtemp(prefix="bbloadm.")
atexit.register(shutil.rmtree, TMP, True)  # its files (20 MB) would outlive every run
n_test = 0
failed = 0
# --plan: the same walk with every server and command answering nothing, only counted
PLAN = sys.argv[1:] == ["--plan"]
if PLAN:
    class _Nothing:
        returncode, stdout, stderr = 0, "", ""
    subprocess.run = lambda *a, **k: _Nothing()
    _open = open
    def open(path, mode="r", *a, **k):  # noqa: A001  a file no load wrote reads as empty
        if "r" in mode and not os.path.exists(path):
            return io.BytesIO() if "b" in mode else io.StringIO()
        return _open(path, mode, *a, **k)
    os.environ.setdefault("BULKBENCH_PG_DSN", "postgresql://plan@127.0.0.1:1/plan")
    os.environ.setdefault("BULKBENCH_MYSQL_DSN", "mysql://plan:plan@127.0.0.1:1/plan")


def ok(cond, desc, detail=""):
    global n_test, failed
    n_test += 1
    if PLAN:
        return
    if cond:
        print("ok %d - %s" % (n_test, desc))
    else:
        failed += 1
        print("not ok %d - %s: %s" % (n_test, desc, detail))
    sys.stdout.flush()


class Engine:
    def __init__(self, name):
        self.name = name
        self.dsn = os.environ["BULKBENCH_%s_DSN" % name.upper()]

    def sql(self, q):
        if self.name == "pg":
            cmd = ["psql", "-qAtX", self.dsn, "-c", q]
        else:
            m = re.match(r"mysql://([^:]+):([^@]*)@([^:/]+):(\d+)/(\w+)", self.dsn)
            user, pw, host, port, db = m.groups()
            cmd = ["mariadb", "-N", "-B", "-u" + user, "-p" + pw, "-h" + host, "-P" + port, db,
                   "-e", "SET SESSION group_concat_max_len = 1073741824; " + q]
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()

    def make_table(self, t):
        text = "text" if self.name == "pg" else "longtext"
        self.sql("DROP TABLE IF EXISTS %s" % t)
        self.sql("CREATE TABLE %s (id int, s %s)%s" % (t, text, "" if self.name == "pg" else " DEFAULT CHARSET utf8mb4"))

    def checksum(self, t):
        if self.name == "pg":
            return self.sql("SELECT count(*) || ':' || coalesce(md5(string_agg(id || ':' || coalesce(s, '<null>'), "
                            "E'\\n' ORDER BY id)), '') FROM %s" % t)
        return self.sql("SELECT concat(count(*), ':', coalesce(md5(group_concat(concat(id, ':', coalesce(s, '<null>')) "
                        "ORDER BY id SEPARATOR '\\n')), '')) FROM %s" % t)


def expect(rows):
    h = hashlib.md5("\n".join("%d:%s" % r for r in sorted(rows)).encode()).hexdigest() if rows else ""
    return "%d:%s" % (len(rows), h)


def write_csv(path, rows, header=False, crlf=False, bom=False, last_newline=True, delim=",", quote='"'):
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delim, quotechar=quote, quoting=csv.QUOTE_NONNUMERIC,  # a lone CR must be quoted for COPY
                   lineterminator="\r\n" if crlf else "\n")
    if header:
        w.writerow(["id", "s"])
    for r in rows:
        w.writerow(r)
    data = buf.getvalue()
    if not last_newline:
        data = data.rstrip("\r\n")
    with open(path, "wb") as f:
        f.write((b"\xef\xbb\xbf" if bom else b"") + data.encode())


def load(e, path, table, *args):
    out = os.path.join(TMP, "out.jsonl")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BB, "load", path, "--engine=" + e.name, "--table=" + table, "--truncate", "--out=" + out]
                       + list(args), capture_output=True, text=True)
    res = json.loads(open(out).read().splitlines()[-1]) if os.path.exists(out) else {}
    return p.returncode, res, p.stdout + p.stderr


def nasty(i):  # commas, quotes, newlines, CR, tabs, backslashes and multi-byte UTF-8 in the text
    return ["plain %d" % i, 'a,b "q" %d' % i, "line1\nline2 %d" % i, "cr\rlf %d" % i, "tab\there\\ %d" % i,
            "üñï€😀 %d" % i, "\"\n\",\n%d" % i][i % 7]


# The sanitized pass (make check runs the suite twice) loads fewer nasty rows at fewer worker
# counts: thousands of tiny chunks under AddressSanitizer cost minutes, not coverage.
SANITIZED = bool(os.environ.get("BB_IN_SANITIZE"))
NASTY_ROWS = 5000 if SANITIZED else 20000
if PLAN:  # no file is loaded: none is written
    write_csv = lambda *a, **k: None  # noqa: E731

for name in ("pg", "mysql"):
    e = Engine(name)
    e.make_table("lm")
    rows = [(i, nasty(i)) for i in range(NASTY_ROWS)]
    f = os.path.join(TMP, "nasty.csv")
    write_csv(f, rows)
    for t in ((1, 2) if SANITIZED else (1, 2, 4, 8)):
        for chunk in ("64", "16KB"):  # 64 bytes: nearly every boundary falls inside a quoted field
            rc, res, out = load(e, f, "lm", "--threads=%d" % t, "--chunk=" + chunk)
            got = e.checksum("lm")
            ok(rc == 0 and got == expect(rows) and res.get("verified_rows") == len(rows),
               "%s: %d rows with quotes, newlines, CR, tabs, UTF-8 at %d workers, --chunk=%s: count and checksum"
               % (name, NASTY_ROWS, t, chunk), "exit %d, %s vs %s; %s" % (rc, got, expect(rows), out[-300:]))

    small = [(i, "row %d" % i) for i in range(1, 6)]
    cases = [
        ("CRLF line ends, a header, no newline after the last row", dict(header=True, crlf=True, last_newline=False), ["--header"], small),
        ("a UTF-8 byte order mark before the header", dict(header=True, bom=True), ["--header"], small),
        ("a UTF-8 byte order mark and no header, one worker, one chunk", dict(bom=True), [], small),
        ("a one-row file without a newline", dict(last_newline=False), ["--threads=2"], [(7, "only")]),
        ("an empty file", dict(), ["--threads=2"], []),
        ("--delimiter=';' --quote=\"'\"", dict(delim=";", quote="'"), ["--delimiter=;", "--quote='", "--chunk=16"],
         [(i, "it's; %d" % i) for i in range(50)]),
    ]
    for desc, kw, args, rs in cases:
        f = os.path.join(TMP, "case.csv")
        write_csv(f, rs, **kw)
        rc, res, out = load(e, f, "lm", *args)
        got = e.checksum("lm")
        ok(rc == 0 and got == expect(rs), "%s: %s" % (name, desc), "exit %d, %s vs %s; %s" % (rc, got, expect(rs), out[-300:]))

    big = [(i, "x" * 100) for i in range(50)]
    big[25] = (25, "B" * (16 << 20) + "\n,\"end")
    f = os.path.join(TMP, "big.csv")
    write_csv(f, big)
    rc, res, out = load(e, f, "lm", "--threads=2", "--chunk=1MB")
    got = e.checksum("lm")
    ok(rc == 0 and got == expect(big), "%s: one 16 MB field (with a newline, a comma and a quote) among small rows" % name,
       "exit %d, %s vs %s; %s" % (rc, got, expect(big), out[-300:]))

    rs = [(i, "r%d" % i) for i in range(1000)]
    f = os.path.join(TMP, "skip.csv")
    write_csv(f, rs, header=True)
    rc, res, out = load(e, f, "lm", "--header", "--skip-rows=2", "--limit=100", "--chunk=200", "--threads=3")
    got = e.checksum("lm")
    ok(rc == 0 and got == expect(rs[2:102]), "%s: --header --skip-rows=2 --limit=100 loads rows 3 to 102" % name,
       "exit %d, %s vs %s; %s" % (rc, got, expect(rs[2:102]), out[-300:]))

    # bad rows: both servers refuse a word, an out-of-range number and a missing NOT NULL value
    e.sql("DROP TABLE IF EXISTS lbad")
    e.sql("CREATE TABLE lbad (id int NOT NULL, s %s)" % ("text" if name == "pg" else "longtext"))
    lines, bad = [], []
    for i in range(20000):
        if i % 997 == 13:
            v = ["oops", "99999999999"][i % 2]
            lines.append('%s,"bad\n%d"\n' % (v, i))
            bad.append(lines[-1])
        else:
            lines.append('%d,"good, ""%d"""\n' % (i, i))
    f = os.path.join(TMP, "bad.csv")
    open(f, "w").write("".join(lines))
    rej = os.path.join(TMP, "rej.csv")
    for t in (1, 4):
        rc, res, out = load(e, f, "lbad", "--on-error=skip", "--reject-file=" + rej, "--threads=%d" % t, "--chunk=64KB")
        n = int(e.sql("SELECT count(*) FROM lbad") or -1)
        rejected = sorted(csv.reader(open(rej, newline=""))) if os.path.exists(rej) else []  # workers append in any order
        ok(rc == 0 and n == 20000 - len(bad) and res.get("rows_rejected") == len(bad) and
           rejected == sorted(csv.reader(io.StringIO("".join(bad), newline="")))
           and "loaded %d rows + rejected %d" % (n, len(bad)) in out,
           "%s: --on-error=skip at %d workers: %d loaded + %d rejected = 20000; the reject file holds exactly the bad rows"
           % (name, t, 20000 - len(bad), len(bad)), "exit %d, table %d, rejected %s; %s" % (rc, n, res.get("rows_rejected"), out[-300:]))
    log = sorted(open(rej + ".log").read().splitlines(), key=lambda l: int(re.search(r"bad\.csv:(\d+):", l).group(1)))
    ok(len(log) == len(bad) and all(re.match(r".*bad\.csv:\d+: ", l) for l in log) and
       re.search(r"bad\.csv:14: .*[Oo]ut of range", log[0]) is not None and re.search(r"bad\.csv:\d+: .*oops", log[1]) is not None,
       "%s: the reject log names file:line and the server's reason for each" % name, "; ".join(log[:2]))
    rc, res, out = load(e, f, "lbad", "--on-error=skip", "--reject-limit=5", "--chunk=64KB")
    ok(rc == 1 and "more than 5 rows were rejected" in out and "before the load stopped" in out,
       "%s: --reject-limit=5 stops the load once a sixth row is refused, with the counts" % name, "exit %d; %s" % (rc, out[-300:]))


# --format=tsv is plain TSV: no escapes and no quotes, a row ends at the newline (at \r\n in a
# \r\n file), an empty field is NULL unless --null names another text. What loads must be
# exactly what a plain TSV reader (Python's csv module, QUOTE_NONE, tab) reads.
TSV_VALUES = ["ends with \\", "back\\slash \\t not a tab", '"quoted" text', "'single'", "plain", "C:\\dir\\", "",
              "NULL", "\\N", "\\\\N", "\\", "\\\\", '"', '""', "a,b", "üñï€😀 4-byte", " ", "trailing \\ ", "x\\r\\n"]


def tsv_rows(n):
    return [(i, TSV_VALUES[i % len(TSV_VALUES)], TSV_VALUES[(i * 7 + 3) % len(TSV_VALUES)] + ("\\" if i % 5 == 0 else ""))
            for i in range(n)]


def write_tsv(path, rows, header=False, crlf=False, last_newline=True):
    eol = "\r\n" if crlf else "\n"
    data = ("id\ta\tb" + eol if header else "") + "".join("%s\t%s\t%s%s" % (r + (eol,)) for r in rows)
    if not last_newline:
        data = data[:-len(eol)]
    with open(path, "wb") as f:
        f.write(data.encode())


if PLAN:
    write_tsv = lambda *a, **k: None  # noqa: E731


def tsv_read(path, header=False, null=""):
    """The rows as a plain TSV reader sees them, the NULL text applied."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [tuple(None if v == null else v for v in r) for r in rows[1 if header else 0:]]


def expect3(rows):
    body = "\x02".join("%s\x01%s\x01%s" % (r[0], "N" if r[1] is None else "V" + r[1], "N" if r[2] is None else "V" + r[2])
                       for r in sorted(rows, key=lambda r: int(r[0])))
    return "%d:%s" % (len(rows), hashlib.md5(body.encode()).hexdigest() if rows else "")


def checksum3(e, t):
    if e.name == "pg":
        return e.sql("SELECT count(*) || ':' || coalesce(md5(string_agg(id || chr(1) || coalesce('V' || a, 'N') || chr(1) || "
                     "coalesce('V' || b, 'N'), chr(2) ORDER BY id)), '') FROM %s" % t)
    return e.sql("SELECT concat(count(*), ':', coalesce(md5(group_concat(concat(id, char(1 using utf8mb4), "
                 "coalesce(concat('V', a), 'N'), char(1 using utf8mb4), coalesce(concat('V', b), 'N')) ORDER BY id "
                 "SEPARATOR 0x02)), '')) FROM %s" % t)


def make_table3(e, t, id_type="int"):
    text = "text" if e.name == "pg" else "longtext"
    e.sql("DROP TABLE IF EXISTS %s" % t)
    e.sql("CREATE TABLE %s (id %s, a %s, b %s)%s" % (t, id_type, text, text, "" if e.name == "pg" else " DEFAULT CHARSET utf8mb4"))


for name in ("pg", "mysql"):
    e = Engine(name)
    make_table3(e, "lt3")
    rows = tsv_rows(6000)
    f = os.path.join(TMP, "plain.tsv")
    write_tsv(f, rows)
    want = expect3(tsv_read(f))
    for t in (1, 2):
        for chunk in ("100", "4KB"):
            rc, res, out = load(e, f, "lt3", "--format=tsv", "--threads=%d" % t, "--chunk=" + chunk)
            got = checksum3(e, "lt3")
            ok(rc == 0 and got == want and res.get("verified_rows") == len(rows),
               "%s: plain TSV, backslashes at field ends, before tabs and newlines, quotes, 4-byte UTF-8, empty fields "
               "as NULL, at %d workers, --chunk=%s: what a plain TSV reader reads" % (name, t, chunk),
               "exit %d, %s vs %s; %s" % (rc, got, want, out[-300:]))

    cases = [  # description, writer options, load options, the NULL text the reader applies
        ("\\r\\n line ends, a header, no newline after the last row, 2 workers",
         dict(header=True, crlf=True, last_newline=False), ["--header", "--threads=2", "--chunk=200"], ""),
        ("--null='\\N': that field is NULL, an empty field an empty string, '\\\\N' data",
         dict(), ["--null=\\N", "--threads=2", "--chunk=300"], "\\N"),
        ("--null=NULL: the word is NULL, 'null' and an empty field are not",
         dict(crlf=True), ["--null=NULL", "--chunk=1KB"], "NULL"),
        ("one chunk, not scanned, streamed whole", dict(), [], ""),
    ]
    for desc, kw, args, null in cases:
        rs = tsv_rows(1500)
        rs[10] = (10, "null", "")
        f = os.path.join(TMP, "case.tsv")
        write_tsv(f, rs, **kw)
        want = expect3(tsv_read(f, header=kw.get("header", False), null=null))
        rc, res, out = load(e, f, "lt3", "--format=tsv", *args)
        got = checksum3(e, "lt3")
        ok(rc == 0 and got == want, "%s: plain TSV: %s" % (name, desc), "exit %d, %s vs %s; %s" % (rc, got, want, out[-300:]))

    # the issue's own check: 30000 rows, backslashes before tabs and newlines, a header, 2 workers, 64 KB chunks
    f = os.path.join(TMP, "b.tsv")
    with open(f, "w") as out:
        out.write("id\ta\tb\n")
        for i in range(30000):
            a = ["ends with \\", "back\\slash \\t not a tab", '"quoted" text', "plain", "C:\\dir\\", ""][i % 6]
            out.write("%d\t%s\tx%d\\\n" % (i, a, i))
    rc, res, out = load(e, f, "lt3", "--format=tsv", "--header", "--threads=2", "--chunk=64KB")
    want, got = expect3(tsv_read(f, header=True)), checksum3(e, "lt3")
    ok(rc == 0 and got == want, "%s: the issue's check: 30000 rows ending in a backslash, 2 workers, 64 KB chunks" % name,
       "exit %d, %s vs %s; %s" % (rc, got, want, out[-300:]))

    # CSV's NULL rule, the same on both engines: an unquoted field equal to the NULL text (default empty) is NULL,
    # a quoted one never is, an unquoted word NULL is data
    f = os.path.join(TMP, "n.csv")
    open(f, "wb").write(b'1,,""\n2,NULL,"NULL"\n3,\\N,"\\N"\n4,a"b"c,"x""y\r"\n5, ,"back\\"\n')
    for args, rows in (([], [("1", None, ""), ("2", "NULL", "NULL"), ("3", "\\N", "\\N"), ("4", "abc", 'x"y\r'),
                             ("5", " ", "back\\")]),
                       (["--null=NULL", "--chunk=8", "--threads=2"],
                        [("1", "", ""), ("2", None, "NULL"), ("3", "\\N", "\\N"), ("4", "abc", 'x"y\r'), ("5", " ", "back\\")])):
        rc, res, out = load(e, f, "lt3", *args)
        want, got = expect3(rows), checksum3(e, "lt3")
        ok(rc == 0 and got == want, "%s: CSV%s: NULL only for an unquoted %s field" % (name, "".join(" " + a for a in args),
                                                                                 args and "NULL" or "empty"),
           "exit %d, %s vs %s; %s" % (rc, got, want, out[-300:]))

    # an unquoted carriage return that is no line end is refused on both engines, as COPY refuses it: the load
    # stops naming the line; with --on-error=skip that row goes to the reject file
    f = os.path.join(TMP, "cr.csv")
    open(f, "wb").write(b"".join(b'%d,"r%d",x\n' % (i, i) for i in range(40)) + b"40,bad\rrow,x\n" +
                        b"".join(b'%d,"r%d",x\n' % (i, i) for i in range(41, 60)))
    rc, res, out = load(e, f, "lt3", "--chunk=1KB")
    n = e.sql("SELECT count(*) FROM lt3")
    ok(rc == 1 and re.search(r"carriage return.*cr\.csv line 41", out, re.S) is not None and
       int(n) == res.get("rows", -1), "%s: CSV: an unquoted carriage return stops the load at its line (%s rows kept, "
       "as counted)" % (name, n), "exit %d, table %s, rows %s; %s" % (rc, n, res.get("rows"), out[-300:]))
    rej = os.path.join(TMP, "rej.csv")
    rc, res, out = load(e, f, "lt3", "--chunk=1KB", "--threads=2", "--on-error=skip", "--reject-file=" + rej)
    ok(rc == 0 and res.get("rows_rejected") == 1 and open(rej, "rb").read() == b"40,bad\rrow,x\n"
       and e.sql("SELECT count(*) FROM lt3") == "59", "%s: CSV: --on-error=skip puts the row with an unquoted carriage "
       "return in the reject file, the rest loads" % name, "exit %d; %s" % (rc, out[-300:]))

    # what Python's reader would take for line ends: a lone \r is data in a \n file, a lone \n in a \r\n file
    f = os.path.join(TMP, "cr.tsv")
    open(f, "wb").write(b"1\ta\rb\t\\\n2\t\r\tx\r\n3\t\r\r\t\n")
    rc, res, out = load(e, f, "lt3", "--format=tsv", "--chunk=4")
    got = checksum3(e, "lt3")
    want = expect3([("1", "a\rb", "\\"), ("2", "\r", "x\r"), ("3", "\r\r", None)])
    ok(rc == 0 and got == want, "%s: plain TSV, a \\n file: a carriage return in a field is data" % name,
       "exit %d, %s vs %s; %s" % (rc, got, want, out[-300:]))
    open(f, "wb").write(b"1\tplain\t\\\r\n2\ta\nb\t\\\n\r\n3\t\n\tx\r\n4\t\t\r\n")
    rc, res, out = load(e, f, "lt3", "--format=tsv", "--chunk=4", "--threads=2")
    got = checksum3(e, "lt3")
    want = expect3([("1", "plain", "\\"), ("2", "a\nb", "\\\n"), ("3", "\n", "x"), ("4", None, None)])
    ok(rc == 0 and got == want, "%s: plain TSV, a \\r\\n file: a lone newline in a field is data" % name,
       "exit %d, %s vs %s; %s" % (rc, got, want, out[-300:]))

    f = os.path.join(TMP, "plain.tsv")
    write_tsv(f, tsv_rows(3000), header=True)
    subprocess.run(["gzip", "-kf", f])
    rc, res, out = load(e, f + ".gz", "lt3", "--format=tsv", "--header")
    got = checksum3(e, "lt3")
    want = expect3(tsv_read(f, header=True))
    ok(rc == 0 and got == want, "%s: gzip'd plain TSV, rewritten as it is decompressed" % name,
       "exit %d, %s vs %s; %s" % (rc, got, want, out[-300:]))

    # --on-error=skip: the bad rows go to the reject file byte for byte, backslashes and all
    make_table3(e, "lt3bad", "int NOT NULL")
    for crlf in (False, True):
        eol = "\r\n" if crlf else "\n"
        lines, bad, good = [], [], []
        for i, a, b in tsv_rows(5000):
            if i % 499 == 7:
                lines.append("%s\t%s\t%s%s" % (["oops\\", "99999999999", ""][i % 3], a, b, eol))
                bad.append(lines[-1])
            else:
                lines.append("%d\t%s\t%s%s" % (i, a, b, eol))
                good.append((str(i), a or None, b or None))
        f = os.path.join(TMP, "bad.tsv")
        open(f, "wb").write("".join(lines).encode())
        rej = os.path.join(TMP, "rej.tsv")
        for t in (1, 2):
            rc, res, out = load(e, f, "lt3bad", "--format=tsv", "--on-error=skip", "--reject-file=" + rej,
                                "--threads=%d" % t, "--chunk=4KB")
            got = checksum3(e, "lt3bad")
            rejected = open(rej, "rb").read().decode() if os.path.exists(rej) else ""
            same = sorted(re.findall(".*?" + eol, rejected, re.S)) == sorted(bad)  # workers append in any order
            ok(rc == 0 and got == expect3(good) and res.get("rows_rejected") == len(bad) and same,
               "%s: plain TSV%s, --on-error=skip at %d workers: the good rows load exactly, the %d bad ones are in the "
               "reject file as the input had them" % (name, " with \\r\\n" if crlf else "", t, len(bad)),
               "exit %d, %s vs %s, rejected %s, same %s; %s" % (rc, got, expect3(good), res.get("rows_rejected"), same,
                                                              out[-300:]))

    # gen --format=tsv, then load: the same table as the generated run wrote
    cols = "id, customer, sku, qty, price, note, ordered"
    sumq = ("SELECT count(*) || ':' || md5(string_agg(concat_ws('|', %s, coalesce(note, '<n>')), ',' ORDER BY id)) FROM orders"
            if name == "pg" else
            "SELECT concat(count(*), ':', md5(group_concat(concat_ws('|', %s, coalesce(note, '<n>')) ORDER BY id))) FROM orders")
    p = subprocess.run([BB, "run", "workloads/quickstart.lua", "--engine=" + name, "--method=multirow", "--rows=20000",
                        "--seed=7"], capture_output=True, text=True, cwd=os.path.dirname(BB))
    ran = e.sql(sumq % cols)
    f = os.path.join(TMP, "orders.tsv")
    g = subprocess.run([BB, "gen", "workloads/quickstart.lua", "--table=orders", "--rows=20000", "--seed=7", "--format=tsv",
                        "--threads=2", "-o", f], capture_output=True, text=True, cwd=os.path.dirname(BB))
    rc, res, out = load(e, f, "orders", "--threads=2", "--chunk=64KB")
    loaded = e.sql(sumq % cols)
    nulls = e.sql("SELECT count(*) FROM orders WHERE note IS NULL")
    ok(p.returncode == 0 and g.returncode == 0 and rc == 0 and ran == loaded and ran.startswith("20000:") and int(nulls) > 0,
       "%s: gen --format=tsv then load gives the table the generated run wrote (%s NULL notes)" % (name, nulls),
       "run %d gen %d load %d: %s vs %s; %s %s" % (p.returncode, g.returncode, rc, ran, loaded, g.stderr[-200:], out[-300:]))

print("1..%d" % n_test)
sys.exit(1 if failed else 0)
