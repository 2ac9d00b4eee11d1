"""`bulkbench load` against both real servers: the file edge cases of the issue, each loaded
and compared with what the file holds (row count and a checksum of every value, computed by
the server over the table and by this script over the rows it wrote). Prints TAP.

   python3 tests/load_matrix.py        (BULKBENCH_PG_DSN and BULKBENCH_MYSQL_DSN from contrib/dbctl)
"""
import csv, hashlib, io, json, os, re, subprocess, sys, tempfile

BB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bulkbench")
TMP = tempfile.mkdtemp(prefix="bbloadm.")
n_test = 0
failed = 0


def ok(cond, desc, detail=""):
    global n_test, failed
    n_test += 1
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


for name in ("pg", "mysql"):
    e = Engine(name)
    e.make_table("lm")
    rows = [(i, nasty(i)) for i in range(20000)]
    f = os.path.join(TMP, "nasty.csv")
    write_csv(f, rows)
    for t in (1, 2, 4, 8):
        for chunk in ("64", "16KB"):  # 64 bytes: nearly every boundary falls inside a quoted field
            rc, res, out = load(e, f, "lm", "--threads=%d" % t, "--chunk=" + chunk)
            got = e.checksum("lm")
            ok(rc == 0 and got == expect(rows) and res.get("verified_rows") == len(rows),
               "%s: 20000 rows with quotes, newlines, CR, tabs, UTF-8 at %d workers, --chunk=%s: count and checksum"
               % (name, t, chunk), "exit %d, %s vs %s; %s" % (rc, got, expect(rows), out[-300:]))

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

print("1..%d" % n_test)
sys.exit(1 if failed else 0)
