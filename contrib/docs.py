#!/usr/bin/env python3
"""make docs: the pictures of real reports that README.md and docs/report.md show, made anew
from real runs on the embedded SQLite and the HTML report in headless Chromium:
  docs/img/sweep.png      the quickstart's sweep (make quickstart's, three runs a point): each
                          point's median and the range of its runs; README.md's table beside it
                          is the same run's output, written in by this script, so the two agree
  docs/img/compare.png    a --repeat=5 sweep with the database file on tmpfs against it on disk
  docs/img/timeline.png   a paced run stalled by a second writer holding SQLite's write lock
Each is a screenshot of one chart of the page with its caption, and must stay under 200 KB.
  docs/img/page-1280.png, docs/img/page-390.png   the quickstart's page as a desktop and a
                          phone show it: the top of the page down to its table's end (docs/report.md)
  python3 contrib/docs.py [OUTDIR]     (default docs/img; README.md's table only then)
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "contrib"))
from browser import Browser  # noqa: E402

MAX_BYTES = 200 * 1024
SWEEP = ["workloads/quickstart.lua", "--method=txn,multirow", "--batch=1,10,100,1000", "--rows=20000", "--repeat=5"]
# make quickstart's sweep (Makefile), three runs a point: README.md's table and sweep.png
QUICKSTART = ["workloads/quickstart.lua", "--method=insert,txn,multirow", "--batch=1,100,1000", "--repeat=3"]
README = os.path.join(ROOT, "README.md")
BEGIN, END = "<!-- BEGIN quickstart table made by contrib/docs.py -->", "<!-- END quickstart table -->"


def bulkbench(*args, cwd=ROOT):
    print("  bulkbench " + " ".join(args), flush=True)
    r = subprocess.run([os.path.join(ROOT, "bulkbench")] + list(args), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        raise SystemExit("docs: bulkbench %s failed: %s" % (args[0], r.stderr[-800:]))
    return r.stdout


def readme_table(text):
    """README.md's quickstart table: the run's own output, as it printed it."""
    page = open(README).read()
    b, e = page.find(BEGIN), page.find(END)
    if b < 0 or e < b:
        raise SystemExit("docs: README.md has no %s ... %s" % (BEGIN, END))
    block = "%s\n```\n$ make quickstart   # with --repeat=3: %s\n%s```\n" % (BEGIN, " ".join(QUICKSTART), text)
    with open(README, "w") as f:
        f.write(page[:b] + block + page[e:])


def stalled_run(db, out):
    """A run paced at 20,000 rows/s for 6 s; 2 s in, a second connection takes the write lock
    (BEGIN IMMEDIATE) for 1.5 s: the run's writer waits on it (busy timeout) and stalls."""
    args = ["run", "workloads/quickstart.lua", "--method=multirow", "--batch=100", "--rows=100000000", "--rate=200",
            "--time=6", "--report-interval=0.25", "--dsn=" + db, "--out=" + out]
    print("  bulkbench " + " ".join(args) + "   (its write lock taken for 1.5 s after 40,000 rows)", flush=True)
    proc = subprocess.Popen(["./bulkbench"] + args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline and proc.poll() is None:
        try:
            con = sqlite3.connect(db, timeout=10, isolation_level=None)
            if con.execute("SELECT count(*) FROM orders").fetchone()[0] >= 40000:
                con.execute("BEGIN IMMEDIATE")
                time.sleep(1.5)
                con.execute("COMMIT")
                con.close()
                break
            con.close()
        except sqlite3.OperationalError:  # no table yet
            pass
        time.sleep(0.05)
    if proc.wait() != 0:
        raise SystemExit("docs: the stalled run failed")


def shoot(browser, page_path, title, png):
    """The figure (chart and caption) whose chart is titled title, as a PNG file."""
    page = browser.open(page_path, width=1060, height=900)
    box = page.eval("""(function () {
      var f = Array.from(document.querySelectorAll('figure')).find(function (f) {
        var t = f.querySelector('svg > title'); return t && t.textContent === %r; });
      if (!f) return null;
      var b = f.getBoundingClientRect();
      return { x: b.left + window.scrollX - 8, y: b.top + window.scrollY - 8, width: b.width + 16, height: b.height + 16 };
    })()""" % title)
    if not box:
        raise SystemExit("docs: no chart titled %r in %s" % (title, page_path))
    if page.errors:
        raise SystemExit("docs: %s: %s" % (page_path, page.errors))
    data = page.screenshot(box)
    page.close()
    save(png, data)


def save(png, data):
    """A picture written, refused when over MAX_BYTES."""
    if len(data) > MAX_BYTES:
        raise SystemExit("docs: %s would be %d bytes (over %d)" % (png, len(data), MAX_BYTES))
    with open(png, "wb") as f:
        f.write(data)
    print("  %s: %d KB" % (os.path.relpath(png, ROOT), (len(data) + 1023) // 1024), flush=True)


def shoot_page(browser, page_path, width, png, most, scale=1):
    """The page at a window width, from its top down to the end of its first table (at most
    `most` CSS pixels), as that screen shows it, drawn at scale."""
    page = browser.open(page_path, width=width, height=900)
    end = page.eval("""(function () { var t = document.querySelector('table[data-scenario]');
      return t ? t.closest('.scroll').getBoundingClientRect().bottom + window.scrollY + 16 : 900; })()""")
    if page.errors:
        raise SystemExit("docs: %s at %d px: %s" % (page_path, width, page.errors))
    data = page.screenshot({"x": 0, "y": 0, "width": width, "height": min(end, most)}, scale)
    page.close()
    save(png, data)


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "img"))
    os.makedirs(out, exist_ok=True)
    t = tempfile.mkdtemp(prefix="bbdocs.")
    shm = tempfile.mkdtemp(prefix="bbdocs.", dir="/dev/shm")
    try:
        table = bulkbench("run", *QUICKSTART, "--dsn=" + os.path.join(t, "q.db"), "--out=" + os.path.join(t, "q.jsonl"))
        bulkbench("run", *SWEEP, "--dsn=" + os.path.join(t, "disk.db"), "--out=" + os.path.join(t, "disk.jsonl"))
        bulkbench("run", *SWEEP, "--dsn=" + os.path.join(shm, "shm.db"), "--out=" + os.path.join(t, "shm.jsonl"))
        stalled_run(os.path.join(t, "stall.db"), os.path.join(t, "stall.jsonl"))
        bulkbench("report", "q.jsonl", "--html=sweep.html", cwd=t)  # the page names its file, not where it lay
        bulkbench("report", "--compare", os.path.join(t, "disk.jsonl"), os.path.join(t, "shm.jsonl"),
                  "--html=" + os.path.join(t, "compare.html"))
        bulkbench("report", os.path.join(t, "stall.jsonl"), "--html=" + os.path.join(t, "timeline.html"))
        with Browser() as b:
            shoot(b, os.path.join(t, "sweep.html"), "rows/s: quickstart", os.path.join(out, "sweep.png"))
            shoot(b, os.path.join(t, "compare.html"), "candidate / base rows/s by point", os.path.join(out, "compare.png"))
            shoot(b, os.path.join(t, "timeline.html"), "rows/s and p99 latency over time",
                  os.path.join(out, "timeline.png"))
            shoot_page(b, os.path.join(t, "sweep.html"), 1280, os.path.join(out, "page-1280.png"), 2000, 0.75)
            shoot_page(b, os.path.join(t, "sweep.html"), 390, os.path.join(out, "page-390.png"), 2600)
        if len(sys.argv) < 2:  # the table beside the picture, from the same runs
            readme_table(table)
    finally:
        shutil.rmtree(t, ignore_errors=True)
        shutil.rmtree(shm, ignore_errors=True)


main()
