#!/usr/bin/env python3
"""The HTML report in a real browser: headless Chromium (contrib/browser.py) opens reports made
from real small runs on the embedded SQLite (a --repeat=3 sweep written by `run --html`, a paced
timed run with intervals, a --latency-hist run, a --compare of two sweeps) and from the fixtures
(stalls, several engines, an advise race), at 1280 and 390 px wide. It fails on any console
error or refused load, a page wider than its window, a chart missing or blank (no series colour
in its plot area of the screenshot) or without its title, desc, caption and legend, a table
whose rows are not the results, a comparison, timeline or CDF table that disagrees with the
figures computed here from the JSON lines, and a sort that does not sort. Prints TAP.
  python3 tests/html.py [-v]     (-v: keep the scratch directory and say where)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "contrib"))
from browser import Browser, decode_png  # noqa: E402

WIDTHS = (1280, 390)
STALL = 0.5  # lua/timeline.lua's M.STALL
n = failed = 0


def ok(cond, name, why=""):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%s %d - %s%s" % ("ok" if cond else "not ok", n, name, "" if cond else ": " + str(why)[:600]), flush=True)
    return cond


def bulkbench(*args):
    r = subprocess.run(["./bulkbench"] + list(args), cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("bulkbench %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr[-800:]))
    return r.stdout


def load(*paths):
    return [json.loads(line) for p in paths for line in open(p) if line.strip()]


# ---- what the page must show, computed from the JSON lines ----

def point_key(r):
    key = [r.get("scenario"), r.get("engine"), r.get("method"), r.get("threads"), r.get("batch"), r.get("target")]
    for kind in ("set", "options"):
        key += sorted((r.get(kind) or {}).items())
    return json.dumps(key)


def by_scenario(results):
    order, groups = [], {}
    for r in results:
        s = r.get("scenario", "?")
        if s not in groups:
            groups[s] = []
            order.append(s)
        groups[s].append(r)
    return [(s, groups[s]) for s in order]


def rates(r):
    rs = [run["rows_per_s"] for run in r.get("runs") or [] if isinstance(run.get("rows_per_s"), (int, float))]
    return rs or ([r["rows_per_s"]] if isinstance(r.get("rows_per_s"), (int, float)) else [])


def expected_ratios(base, cand):
    """"%.3f" of each matched point's median ratio, sorted."""
    def pool(results):
        out = {}
        for r in results:
            out.setdefault(point_key(r), [])
            if not r.get("error"):
                out[point_key(r)] += rates(r)
        return out
    b, c = pool(base), pool(cand)
    return sorted("%.3f" % (statistics.median(c[k]) / statistics.median(b[k])) for k in b if k in c and b[k] and c[k])


def timeline_runs(results):
    """Each run with intervals: its interval rates."""
    out = []
    for r in results:
        found = [run["intervals"] for run in r.get("runs") or [] if run.get("intervals")]
        if not found and r.get("intervals"):
            found = [r["intervals"]]
        out += [[iv.get("rows_per_s") for iv in ivs] for ivs in found]
    return out


def stall_count(runs):
    count = 0
    for rs in runs:
        nums = [v for v in rs if isinstance(v, (int, float))]
        med = statistics.median(nums)
        count += sum(1 for v in nums if v < STALL * med)
    return count


def cdf_points(results):
    def has(r):
        return r.get("latency_hist") or any(run.get("latency_hist") for run in r.get("runs") or [])
    return len({point_key(r) for r in results if has(r)})


def expect(sets, compare=False):
    """What one page must hold: sets = [(label, results)]."""
    everything = [r for _, rs in sets for r in rs]
    groups = [g for _, rs in sets for g in by_scenario(rs)]
    tl = timeline_runs(everything)
    charts = len(groups) + (1 if compare else 0) + (1 if tl else 0) + (1 if cdf_points(everything) else 0) \
        + (1 if any(isinstance(r.get("advise"), dict) for r in everything) else 0)
    e = {"groups": groups, "charts": charts, "timeline_runs": len(tl), "stalls": stall_count(tl),
         "cdf": cdf_points(everything)}
    if compare:
        e["ratios"] = expected_ratios(sets[0][1], sets[1][1])
        e["compare_rows"] = len({point_key(r) for r in everything})
    return e


# ---- what the page shows ----

CHARTS_JS = """Array.from(document.querySelectorAll('figure > svg')).map(function (s) {
  var b = s.getBoundingClientRect(), f = s.parentElement.querySelector('figcaption'),
      t = s.querySelector(':scope > title'), d = s.querySelector(':scope > desc');
  return { x: b.left + window.scrollX, y: b.top + window.scrollY, width: b.width, height: b.height,
    title: t ? t.textContent : '', desc: d ? d.textContent : '', label: s.getAttribute('aria-label') || '',
    role: s.getAttribute('role'), caption: f ? f.textContent : '', legend: s.querySelectorAll('text.legend').length,
    series: s.querySelectorAll('g.series').length, texts: s.querySelectorAll('text').length };
})"""

TABLES_JS = """Array.from(document.querySelectorAll('table')).map(function (t) {
  return { attrs: Array.from(t.attributes).reduce(function (o, a) { o[a.name] = a.value; return o; }, {}),
    head: Array.from(t.tHead.rows[0].cells).map(function (c) { return c.textContent; }),
    rows: Array.from(t.tBodies[0].rows).map(function (r) {
      return Array.from(r.cells).map(function (c) { return [c.textContent, c.className]; }); }) };
})"""

OVERFLOW_JS = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def coloured(px):
    return max(px) - min(px) > 60  # a series colour, not the greys of axes, grid and text


def check_chart_pixels(page, box, what):
    # wide charts at half scale: a quarter of the pixels to decode, lines still a pixel wide
    scale = 0.5 if box["width"] > 600 else 1
    w, h, rows = decode_png(page.screenshot({k: box[k] for k in ("x", "y", "width", "height")}, scale))
    colours = {px for row in rows[::2] for px in row[::2]}
    # the plot area: right of the y axis labels, left of the legend margin (chart.lua's MARGIN)
    x0, x1 = int(w * 0.08), int(w * 0.70)
    hits = sum(1 for row in rows for px in row[x0:x1] if coloured(px))
    return ok(len(colours) > 4 and hits >= 3, what + " is drawn",
              "%d colours, %d series-coloured pixels in its plot area" % (len(colours), hits))


def check_tables(tables, e, what):
    data = [t for t in tables if "data-scenario" in t["attrs"]]
    ok([t["attrs"]["data-scenario"] for t in data] == [s for s, _ in e["groups"]], what + ": a table per scenario",
       [t["attrs"]["data-scenario"] for t in data])
    for t, (s, rs) in zip(data, e["groups"]):
        rows = [dict(zip(t["head"], (c[0] for c in row))) for row in t["rows"]]
        missing = []
        for r in rs:
            want = {"rows/s": "%.0f" % r["rows_per_s"] if r.get("rows_per_s") is not None else "null",
                    "rows": "%.0f" % r["rows"]}
            for d in ("engine", "method", "threads", "batch"):
                if d in t["head"]:
                    want[d] = str(r.get(d) if r.get(d) is not None else "-")
            hit = next((row for row in rows if all(row.get(k) == v for k, v in want.items())), None)
            if hit is None:
                missing.append(want)
            else:
                rows.remove(hit)
        ok(not missing and not rows, "%s: the table of %s holds its %d results, no more" % (what, s, len(rs)),
           "missing %s, extra %s" % (missing[:2], rows[:2]))
    if "ratios" in e:
        cmp_t = [t for t in tables if "data-compare" in t["attrs"]]
        if ok(len(cmp_t) == 1, what + ": one comparison table"):
            t = cmp_t[0]
            got = sorted(row[t["head"].index("ratio")][0] for row in t["rows"] if row[t["head"].index("ratio")][0] != "-")
            ok(got == e["ratios"] and len(t["rows"]) == e["compare_rows"],
               what + ": each point's ratio is the ratio of the medians", "%s vs %s" % (got, e["ratios"]))
            cells = [row[t["head"].index("verdict")] for row in t["rows"]]
            ok(all(c[1].startswith("v v-") for c in cells), what + ": each verdict is coloured", cells)
    tl = [t for t in tables if t["attrs"].get("data-timeline") == "runs"]
    st = [t for t in tables if t["attrs"].get("data-timeline") == "stalls"]
    if e["timeline_runs"]:
        ok(tl and len(tl[0]["rows"]) == e["timeline_runs"], what + ": a timeline row per run with intervals",
           tl and len(tl[0]["rows"]))
        ok((len(st[0]["rows"]) if st else 0) == e["stalls"], what + ": the stalls table lists every stall",
           "%s vs %d" % (st and len(st[0]["rows"]), e["stalls"]))
    cdf_t = [t for t in tables if "data-cdf" in t["attrs"]]
    if e["cdf"]:
        ok(cdf_t and len(cdf_t[0]["rows"]) == e["cdf"], what + ": a CDF row per point with a histogram")


def check_sort(page, what):
    col = page.eval("""(function () {
      var t = document.querySelector('table[data-scenario]'), h = Array.from(t.tHead.rows[0].cells),
          i = h.findIndex(function (c) { return c.textContent === 'rows/s'; }), out = [];
      function col() { return Array.from(t.tBodies[0].rows).map(function (r) { return parseFloat(r.cells[i].textContent); }); }
      h[i].click(); out.push(col()); h[i].click(); out.push(col()); return out; })()""")
    up, down = col
    ok(up == sorted(up) and down == sorted(down, reverse=True), what + ": a click on rows/s sorts up, again down", col)


def check_page(browser, path, e, what):
    for width in WIDTHS:
        page = browser.open(path, width=width)
        tag = "%s at %d px" % (what, width)
        scroll, client = page.eval(OVERFLOW_JS)
        ok(scroll <= client, tag + ": no horizontal overflow", "scrollWidth %d > clientWidth %d" % (scroll, client))
        charts = page.eval(CHARTS_JS)
        ok(len(charts) == e["charts"], "%s: %d charts" % (tag, e["charts"]), len(charts))
        for i, c in enumerate(charts):
            name = "%s: chart %d (%s)" % (tag, i + 1, c["title"])
            ok(c["title"] and c["desc"] and c["label"] and c["role"] == "img" and c["caption"]
               and c["legend"] >= 1 and c["series"] >= 1 and c["texts"] >= 6,
               name + " has a title, desc, caption, legend and labelled axes", c)
            ok(c["width"] <= width, name + " fits the window", c["width"])
            check_chart_pixels(page, c, name)
        if width == WIDTHS[0]:
            check_tables(page.eval(TABLES_JS), e, tag)
            ok(page.eval("performance.getEntriesByType('resource').length") == 0, tag + ": nothing fetched")
            if e["groups"]:
                check_sort(page, tag)
        errors = page.errors
        ok(not errors, tag + ": no console errors", errors)
        page.close()


def main():
    t0 = time.time()
    keep = "-v" in sys.argv
    T = tempfile.mkdtemp(prefix="bbhtml.")
    qs = "workloads/quickstart.lua"
    j = lambda name: os.path.join(T, name)  # noqa: E731
    sweep = ["--method=txn,multirow", "--batch=10,1000", "--rows=3000", "--repeat=3"]
    # real runs: a sweep whose page `run` writes itself, a second one to compare with, a paced
    # run with intervals, a run with latency histograms
    bulkbench("run", qs, *sweep, "--out=" + j("sweep.jsonl"), "--html=" + j("run.html"), "--dsn=" + j("a.db"))
    bulkbench("run", qs, *sweep, "--out=" + j("cand.jsonl"), "--dsn=" + j("b.db"))
    bulkbench("run", qs, "--method=multirow", "--batch=100", "--rows=100000000", "--rate=200", "--time=2",
              "--report-interval=0.25", "--out=" + j("timed.jsonl"), "--dsn=" + j("c.db"))
    bulkbench("run", qs, "--method=txn", "--batch=10,100", "--rows=3000", "--latency-hist",
              "--out=" + j("hist.jsonl"), "--dsn=" + j("d.db"))
    bulkbench("report", j("sweep.jsonl"), j("timed.jsonl"), j("hist.jsonl"), "--html=" + j("all.html"))
    bulkbench("report", "--compare", j("sweep.jsonl"), j("cand.jsonl"), "--html=" + j("compare.html"))
    fx = [os.path.join(ROOT, "tests/fixtures", f) for f in
          ("timeline.jsonl", "latency_hist.jsonl", "results.jsonl", "advise.jsonl")]
    bulkbench("report", *fx, "--html=" + j("fixtures.html"))
    print("# fixtures made in %.1f s" % (time.time() - t0), flush=True)
    pages = [
        ("run --html", j("run.html"), expect([(None, load(j("sweep.jsonl")))])),
        ("sweep+timeline+cdf", j("all.html"), expect([(None, load(j("sweep.jsonl"), j("timed.jsonl"), j("hist.jsonl")))])),
        ("compare", j("compare.html"), expect([("base", load(j("sweep.jsonl"))), ("candidate", load(j("cand.jsonl")))],
                                              compare=True)),
        ("fixtures", j("fixtures.html"), expect([(None, load(*fx))])),
    ]
    ok(pages[3][2]["stalls"] > 0 and pages[1][2]["timeline_runs"] > 0 and pages[1][2]["cdf"] > 0,
       "the pages hold stalls, timelines and CDFs to check")
    with Browser() as b:
        for what, path, e in pages:
            t1 = time.time()
            check_page(b, path, e, what)
            print("# %s: %.1f s" % (what, time.time() - t1), flush=True)
    print("# %d checks in %.1f s%s" % (n, time.time() - t0, (", pages in " + T) if keep else ""))
    if not keep:
        subprocess.run(["rm", "-rf", T])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
