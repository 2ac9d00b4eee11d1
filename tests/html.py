#!/usr/bin/env python3
"""The HTML report in a real browser: headless Chromium (contrib/browser.py) opens reports made
from real small runs on the embedded SQLite (a --repeat=3 sweep written by `run --html`, a paced
timed run with intervals, a --latency-hist run, a --compare of two sweeps, an advise race) and
from the fixtures and files made from them (stalls, several engines, long cells, bad lines, 600
points, 20 MB), at 1280 and 390 px wide. Every page: no console error or refused load, no page
wider than its window, each chart present and drawn (a series colour in its plot area) with its
title, desc, caption and legend, no chart text overlapping another or leaving its chart, chart
text >= 10 px on a phone, the deciding column of each table in view, tables whose rows are the
points (a point's runs merged) fastest first, comparisons, timelines and CDFs that agree with the
figures computed here from the JSON lines, and a sort that sorts. Then each defect of issue 32
("the answer at a glance, and never a wrong word") as a case of its own. Prints TAP.
  python3 tests/html.py [-v]     (-v: keep the scratch directory and say where)
  BB_BIN=/path/to/bulkbench python3 tests/html.py    (another binary: an older one shows what it failed)
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "contrib"))
from browser import Browser, decode_png  # noqa: E402

BB = os.path.abspath(os.environ.get("BB_BIN", os.path.join(ROOT, "bulkbench")))
WIDTHS = (1280, 390)
STALL = 0.5  # lua/report/timeline.lua's M.STALL
n = failed = 0


def ok(cond, name, why=""):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%s %d - %s%s" % ("ok" if cond else "not ok", n, name, "" if cond else ": " + str(why)[:600]), flush=True)
    return cond


def run(*args, check=True):
    """bulkbench's exit code, standard output and standard error."""
    r = subprocess.run([BB] + list(args), cwd=ROOT, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("bulkbench %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr[-800:]))
    return r.returncode, r.stdout, r.stderr


def bulkbench(*args):
    return run(*args)[1]


def load(*paths):
    return [json.loads(line) for p in paths for line in open(p) if line.strip()]


def write(path, results):
    with open(path, "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")


# ---- what the page must show, computed from the JSON lines ----

def point_key(r):
    key = [r.get("scenario"), r.get("engine"), r.get("method"), r.get("threads"), r.get("batch"), r.get("target")]
    for kind in ("set", "options"):
        key += sorted((r.get(kind) or {}).items())
    return json.dumps(key)


def raced(r):
    return isinstance(r.get("advise"), dict)


def by_scenario(results):
    order, groups = [], {}
    for r in results:
        if raced(r):  # a race's runs are its own section, not a sweep
            continue
        s = r.get("scenario", "?")
        if s not in groups:
            groups[s] = []
            order.append(s)
        groups[s].append(r)
    return [(s, groups[s]) for s in order]


def rates(r):
    rs = [run["rows_per_s"] for run in r.get("runs") or [] if isinstance(run.get("rows_per_s"), (int, float))]
    return rs or ([r["rows_per_s"]] if isinstance(r.get("rows_per_s"), (int, float)) else [])


def points(results, source):
    """The points of one scenario's results: each point's results in one file merged, its runs pooled."""
    out = {}
    for r in results:
        p = out.setdefault((source(r), point_key(r)), {"r": r, "rates": []})
        if not r.get("error"):
            p["rates"] += rates(r)
    return list(out.values())


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
    """Each run with intervals: its result and intervals."""
    out = []
    for r in results:
        found = [run["intervals"] for run in r.get("runs") or [] if run.get("intervals")]
        if not found and r.get("intervals"):
            found = [r["intervals"]]
        out += [(r, ivs) for ivs in found]
    return out


def stall_count(runs):
    """Intervals under half the run's median rate by more than one batch per thread, after the first."""
    count = 0
    for r, ivs in runs:
        nums = [iv["rows_per_s"] for iv in ivs if isinstance(iv.get("rows_per_s"), (int, float))]
        med = statistics.median(nums)
        b = r.get("batch") if isinstance(r.get("batch"), (int, float)) and r.get("batch") > 0 else 0
        lump, prev = b * max(1, r.get("threads") or 1), 0
        for i, iv in enumerate(ivs):
            dt, rate = iv["t"] - prev, iv.get("rows_per_s")
            rows = iv.get("rows", rate * dt if rate is not None else None)
            if i > 0 and rate is not None and rate < STALL * med and rows < STALL * med * dt - lump:
                count += 1
            prev = iv["t"]
    return count


def cdf_points(results):
    def has(r):
        return r.get("latency_hist") or any(run.get("latency_hist") for run in r.get("runs") or [])
    return len({point_key(r) for r in results if has(r)})


def expect(sets, compare=False):
    """What one page must hold: sets = [(label, [(result, its file)...])], two with --compare."""
    everything = [r for _, rs in sets for r, _ in rs]
    groups = []
    for _, rs in sets:
        src = {id(r): f for r, f in rs}
        groups += [(s, points(g, lambda r: src[id(r)])) for s, g in by_scenario([r for r, _ in rs])]
    tl = timeline_runs(everything)
    charts = len(groups) + (1 if compare else 0) + (1 if tl else 0) + (1 if cdf_points(everything) else 0) \
        + (1 if any(raced(r) for r in everything) else 0)
    e = {"groups": groups, "charts": charts, "timeline_runs": len(tl), "stalls": stall_count(tl),
         "cdf": cdf_points(everything)}
    if compare:
        e["ratios"] = expected_ratios([r for r, _ in sets[0][1]], [r for r, _ in sets[1][1]])
        e["compare_rows"] = len({point_key(r) for r in everything})
    return e


def files(*paths):
    """Each result of the files with the file it came from."""
    return [(r, p) for p in paths for r in load(p)]


# ---- what the page shows ----

CHARTS_JS = """Array.from(document.querySelectorAll('figure > svg')).filter(function (s) {
  return s.getBoundingClientRect().width > 0; }).map(function (s) {
  var b = s.getBoundingClientRect(), fig = s.parentElement, f = fig.querySelector('figcaption'),
      t = s.querySelector(':scope > title'), d = s.querySelector(':scope > desc');
  return { x: b.left + window.scrollX, y: b.top + window.scrollY, width: b.width, height: b.height,
    title: t ? t.textContent : '', desc: d ? d.textContent : '', label: s.getAttribute('aria-label') || '',
    role: s.getAttribute('role'), caption: f ? f.textContent : '', kind: s.getAttribute('class') || '',
    legend: fig.querySelectorAll('ul.legend button').length + s.querySelectorAll('text.legend').length,
    series: s.querySelectorAll('g.series').length, texts: s.querySelectorAll('text').length,
    unclipped: Array.from(s.querySelectorAll('g.series')).filter(function (g) {
      return !g.closest('[clip-path]') && !s.classList.contains('dots'); }).length };
})"""

TABLES_JS = """Array.from(document.querySelectorAll('table')).map(function (t) {
  return { attrs: Array.from(t.attributes).reduce(function (o, a) { o[a.name] = a.value; return o; }, {}),
    head: Array.from(t.tHead.rows[0].cells).map(function (c) { return c.textContent; }),
    rows: Array.from(t.tBodies[0].rows).map(function (r) {
      return Array.from(r.cells).map(function (c) { return [c.textContent, c.className]; }); }) };
})"""

OVERFLOW_JS = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"

# chart text: pairs that overlap, texts outside their chart, and the smallest size on screen
TEXT_JS = """(function () {
  var overlap = [], outside = [], small = [];
  Array.from(document.querySelectorAll('svg')).forEach(function (s) {
    var sb = s.getBoundingClientRect();
    if (sb.width < 50) return;
    var ts = Array.from(s.querySelectorAll('text')).filter(function (t) {
      return t.textContent.trim() && t.getBoundingClientRect().width > 0; });
    var rs = ts.map(function (t) { return t.getBoundingClientRect(); });
    ts.forEach(function (t, i) {
      var r = rs[i];
      if (r.left < sb.left - 1 || r.right > sb.right + 1 || r.top < sb.top - 1 || r.bottom > sb.bottom + 1)
        outside.push(t.textContent);
      var m = t.getScreenCTM(), px = parseFloat(t.getAttribute('font-size') || 16) * Math.sqrt(m.a * m.a + m.b * m.b);
      if (px < 10) small.push(t.textContent + ' ' + px.toFixed(1) + 'px');
      for (var j = i + 1; j < rs.length; j++) {
        var w = Math.min(r.right, rs[j].right) - Math.max(r.left, rs[j].left),
            h = Math.min(r.bottom, rs[j].bottom) - Math.max(r.top, rs[j].top);
        if (w > 1 && h > 1) overlap.push(t.textContent + ' / ' + ts[j].textContent);
      }
    });
  });
  return { overlap: overlap, outside: outside, small: small };
})()"""

# each table's first (deciding) column in view once its box is scrolled to its far right
DECIDING_JS = """(function () {
  return Array.from(document.querySelectorAll('.scroll')).map(function (box) {
    box.scrollLeft = box.scrollWidth;
    var th = box.querySelector('th'), r = th.getBoundingClientRect();
    return { head: th.textContent, left: r.left, right: r.right, width: document.documentElement.clientWidth };
  });
})()"""

# table cells narrower than their text (a word or number broken, or text spilling out), cells
# of more than one line, and how many columns stay pinned once a box that scrolls is scrolled
CELLS_JS = """(function () {
  var squeezed = [], tall = [], pinned = [];
  document.querySelectorAll('td, th').forEach(function (c) {
    var t = c.textContent.trim();
    if (!t || c.getBoundingClientRect().width === 0) return;
    var rg = document.createRange(); rg.selectNodeContents(c);
    var lines = new Set(Array.from(rg.getClientRects()).filter(function (q) { return q.width > 0; })
      .map(function (q) { return Math.round(q.top); })).size;
    if (c.scrollWidth > c.clientWidth + 1 || (t.length <= 14 && !/\s/.test(t) && lines > 1)) squeezed.push(t.slice(0, 20));
    if (lines > 1) tall.push(t.slice(0, 30));
  });
  document.querySelectorAll('.scroll').forEach(function (box) {
    if (box.scrollWidth <= box.clientWidth + 1) return;
    box.scrollLeft = box.scrollWidth;
    var at = box.getBoundingClientRect().left, n = 0, cells = box.querySelector('tr').cells;
    for (var i = 0; i < cells.length; i++) {
      var r = cells[i].getBoundingClientRect();
      if (Math.abs(r.left - at) > 2) break;
      at = r.right; n++;
    }
    box.scrollLeft = 0;
    pinned.push(n);
  });
  return { squeezed: squeezed, tall: tall, pinned: pinned };
})()"""

BEFORE_FIRST_JS = """(function () {
  var stop = document.querySelector('table, svg'), out = [];
  var w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (w.nextNode()) {
    var node = w.currentNode;
    if (stop && (stop.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
    out.push(node.textContent);
  }
  return out.join(' ');
})()"""


def coloured(px):
    return max(px) - min(px) > 60  # a series colour, not the greys of axes, grid and text


def check_chart_pixels(page, box, what):
    # wide charts at half scale: a quarter of the pixels to decode, lines still a pixel wide
    scale = 0.5 if box["width"] > 600 else 1
    w, h, rows = decode_png(page.screenshot({k: box[k] for k in ("x", "y", "width", "height")}, scale))
    colours = {px for row in rows[::2] for px in row[::2]}
    # the plot area: right of the y axis labels, left of the right margin (chart.lua's WIDE/NARROW)
    x0, x1 = int(w * 0.10), int(w * 0.94)
    hits = sum(1 for row in rows for px in row[x0:x1] if coloured(px))
    return ok(len(colours) > 4 and hits >= 3, what + " is drawn",
              "%d colours, %d series-coloured pixels in its plot area" % (len(colours), hits))


def median(xs):
    return statistics.median(xs) if xs else None


def check_tables(tables, e, what):
    data = [t for t in tables if "data-scenario" in t["attrs"]]
    ok([t["attrs"]["data-scenario"] for t in data] == [s for s, _ in e["groups"]], what + ": a table per scenario",
       [t["attrs"]["data-scenario"] for t in data])
    for t, (s, pts) in zip(data, e["groups"]):
        rows = [dict(zip(t["head"], (c[0] for c in row))) for row in t["rows"]]
        missing = []
        for p in pts:
            r, m = p["r"], median(p["rates"])
            want = {"rows/s": "%.0f" % m if m is not None else "null"}
            for d in ("engine", "method", "threads", "batch"):
                if d in t["head"]:
                    want[d] = str(r.get(d) if r.get(d) is not None else "-")
            hit = next((row for row in rows if all(row.get(k) == v for k, v in want.items())), None)
            if hit is None:
                missing.append(want)
            else:
                rows.remove(hit)
        ok(not missing and not rows, "%s: the table of %s holds its %d points (a point's runs merged), no more"
           % (what, s, len(pts)), "missing %s, extra %s" % (missing[:2], rows[:2]))
        got = [float(row[t["head"].index("rows/s")][0]) for row in t["rows"] if row[t["head"].index("rows/s")][0] != "null"]
        ok(t["head"][0] == "vs best" and got == sorted(got, reverse=True),
           "%s: the table of %s is fastest first, its deciding column (vs best) first" % (what, s), (t["head"][:3], got))
    if "ratios" in e:
        cmp_t = [t for t in tables if "data-compare" in t["attrs"]]
        if ok(len(cmp_t) == 1, what + ": one comparison table"):
            t = cmp_t[0]
            got = sorted(row[t["head"].index("ratio")][0] for row in t["rows"] if row[t["head"].index("ratio")][0] != "-")
            ok(got == e["ratios"] and len(t["rows"]) == e["compare_rows"],
               what + ": each point's ratio is the ratio of the medians", "%s vs %s" % (got, e["ratios"]))
            cells = [row[t["head"].index("verdict")] for row in t["rows"]]
            ok(all(c[1].startswith("v v-") for c in cells) and t["head"][1] == "verdict",
               what + ": each verdict is coloured, in the first column after the number", cells)
    tl = [t for t in tables if t["attrs"].get("data-timeline") == "runs"]
    st = [t for t in tables if t["attrs"].get("data-timeline") == "stalls"]
    if e["timeline_runs"]:
        ok(tl and len(tl[0]["rows"]) == min(e["timeline_runs"], 200), what + ": a timeline row per run with intervals",
           tl and len(tl[0]["rows"]))
        ok((len(st[0]["rows"]) if st else 0) == min(e["stalls"], 100),
           what + ": the stalls table lists every stall (judged by the run's batch cadence), 100 at most",
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


def check_text(page, tag):
    t = page.eval(TEXT_JS)
    ok(not t["overlap"], tag + ": no chart text overlaps another (tick labels thinned)",
       "%d pairs: %s" % (len(t["overlap"]), t["overlap"][:4]))
    ok(not t["outside"], tag + ": no chart text leaves its chart", t["outside"][:4])
    if tag.endswith(" 390 px"):
        ok(not t["small"], tag + ": chart text is 10 px or more", t["small"][:4])


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
               and (c["legend"] >= 1 or "dots" in c["kind"]) and c["series"] >= 1 and c["texts"] >= 6,
               name + " has a title, desc, caption, legend and labelled axes", c)
            ok(c["width"] <= width, name + " fits the window", c["width"])
            ok(c["unclipped"] == 0, name + ": its lines are clipped to the plot area", c["unclipped"])
            check_chart_pixels(page, c, name)
        check_text(page, tag)
        ok(not re.search(r'="[^"]*\bnan\b', open(path).read(), re.I), tag + ": no NaN in any attribute")
        cells = page.eval(CELLS_JS)
        ok(not cells["squeezed"] and not cells["tall"],
           tag + ": no table cell narrower than its text, each row one line tall",
           "squeezed %s, on more lines %s" % (cells["squeezed"][:5], cells["tall"][:5]))
        decide = page.eval(DECIDING_JS)
        bad = [d for d in decide if d["left"] < -1 or d["right"] > d["width"] + 1]
        ok(not bad, tag + ": each table's first column stays in view when it scrolls", bad[:3])
        if width == WIDTHS[0]:
            check_tables(page.eval(TABLES_JS), e, tag)
            ok(page.eval("performance.getEntriesByType('resource').length") == 0, tag + ": nothing fetched")
            if e["groups"]:
                check_sort(page, tag)
        errors = page.errors
        ok(not errors, tag + ": no console errors", errors)
        page.close()


def page_text(browser, path, width=1280):
    page = browser.open(path, width=width)
    text = page.eval("document.body.innerText")
    page.close()
    return text


# ---- the defects of issue 32, each a case ----

TAG_LUA = """local bb = require "bulkbench"
bb.defaults { method = "txn", batch = 100, rows = 300 }
local opt = bb.options { { "tag", "", "free-text build tag" } }
bb.load(bb.table "tagged" { { "id", "bigint", bb.seq() }, { "v", "int", bb.int { 1, 9 } }, primary_key = "id" })
"""
ERR_LUA = """local bb = require "bulkbench"
bb.defaults { method = "txn", batch = 10, rows = 100 }
bb.load(bb.table "errt" { { "id", "bigint", bb.seq() }, { "v", "int check (v < 0)", bb.int { 1, 9 } }, primary_key = "id" })
"""


def case_long_cell(j):
    """A cell of 126 characters (a build tag) crashed report with "invalid option '%-127' to 'format'"."""
    open(j("tag.lua"), "w").write(TAG_LUA)
    tag = "nightly-build-" * 9
    for s in "AB":
        run("run", j("tag.lua"), "--tag=" + tag + s, "--dsn=" + j("tag.db"), "--out=" + j("tag.jsonl"))
    rc, out, err = run("report", j("tag.jsonl"), check=False)
    ok(rc == 0 and tag + "A" in out, "a 126-character cell: the text report prints it", err[-300:])
    rc, out, err = run("report", j("tag.jsonl"), "--html=" + j("tag.html"), check=False)
    ok(rc == 0 and os.path.exists(j("tag.html")) and tag + "B" in open(j("tag.html")).read(),
       "a 126-character cell: the page holds it", err[-300:])


def case_failure(j, browser):
    """A failed run's result holds its error; text and page showed only FAILED."""
    open(j("err.lua"), "w").write(ERR_LUA)
    run("run", j("err.lua"), "--dsn=" + j("err.db"), "--out=" + j("err.jsonl"), check=False)
    msg = load(j("err.jsonl"))[-1].get("error") or ""
    frag = "CHECK constraint failed" if "CHECK constraint failed" in msg else msg[:30]
    out = run("report", j("err.jsonl"), "--html=" + j("err.html"), check=False)[1]
    ok(frag and frag in out, "a failed run: the text report says why (%s)" % frag, out[-400:])
    ok(frag and frag in page_text(browser, j("err.html")), "a failed run: the page says why")


def case_batch0(j, browser):
    """Batch 0 (a whole stream) beside other batches gave NaN coordinates on the log axis."""
    wl = "workloads/copy_vs_load.lua"
    run("run", wl, "--engine=null", "--method=copy", "--rows=20000", "--out=" + j("z.jsonl"))
    run("run", wl, "--engine=null", "--method=copy", "--batch=1000,10000", "--rows=20000", "--out=" + j("z.jsonl"))
    run("report", j("z.jsonl"), "--html=" + j("z.html"))
    h = open(j("z.html")).read()
    ok(not re.search(r'="[^"]*\bnan\b', h, re.I), "batch 0 beside batches 1000 and 10000: no NaN in the chart")
    page = browser.open(j("z.html"))
    got = page.eval("""(function () { var s = document.querySelector('svg.wide');
      return { whole: Array.from(s.querySelectorAll('text')).some(function (t) { return t.textContent === 'whole'; }),
               joined: Array.from(s.querySelectorAll('polyline')).map(function (p) { return p.getAttribute('points').split(' ').length; }) }; })()""")
    page.close()
    ok(got["whole"] and got["joined"] == [2], "batch 0 stands apart on the batch axis as 'whole', not joined to the line", got)


def case_bad_lines(j, browser, sweep):
    """A truncated last line made the whole file refused; garbage, a BOM or a field of the wrong type gave Lua tracebacks."""
    lines = [json.dumps(r) for r in sweep]
    bad = dict(sweep[0], rows_per_s="fast")
    with open(j("bad.jsonl"), "w") as f:
        f.write("\ufeff" + lines[0] + "\n" + "garbage\n" + json.dumps(bad) + "\n" + "\n".join(lines[1:]) + "\n")
        f.write(lines[0][:-40])  # what a killed run leaves: no end of line
    rc, out, err = run("report", j("bad.jsonl"), "--html=" + j("bad.html"), check=False)
    ok(rc == 0 and "stack traceback" not in err, "bad lines: report reads the rest, no traceback", err[-400:])
    ok(re.search(r"bad\.jsonl:2: not a result", err), "bad lines: garbage is named by file:line", err)
    ok(re.search(r"bad\.jsonl:3: field rows_per_s is a string \(\"fast\"\), not a number", err),
       "bad lines: a field of the wrong type is named", err)
    ok(re.search(r"bad\.jsonl:%d: the last line is cut short" % (len(lines) + 3), err),
       "bad lines: a cut-short last line is read past with a warning naming it", err)
    ok(out.count("\n") > 3 and len(sweep) == sum(int(m) for m in re.findall(r"^quickstart: (\d+) points", out, re.M)),
       "bad lines: a BOM on line 1 does not lose it", out[:300])
    text = page_text(browser, j("bad.html"))
    ok("bad.jsonl:2: not a result" in text and "cut short" in text, "bad lines: the page shows the warnings")
    open(j("junk.jsonl"), "w").write("garbage\n{\"x\": [1, 2\n")
    rc, out, err = run("report", j("junk.jsonl"), check=False)
    ok(rc == 2 and "stack traceback" not in err and "junk.jsonl:1" in err,
       "a file of no result at all: exit 2 naming its lines, no traceback", (rc, err[-300:]))


def case_intervals(j, browser, run_text):
    """3 runs' [min, max] was called a 95% interval; it holds the median 75% of the time."""
    text = page_text(browser, j("run.html"))
    ok("95%" not in text and "75%" in text, "3 runs: the page calls their interval 75%, never 95%",
       [l for l in text.splitlines() if "95%" in l][:3])
    ok("95%" not in run_text and "75%" in run_text, "3 runs: the run's own output says 75%, never 95%",
       [l for l in run_text.splitlines() if "95%" in l][:3])


def case_verdict_first(j, browser, sweep):
    """No section said which configuration won; tables were in name order."""
    best = max(sweep, key=lambda r: r.get("rows_per_s") or 0)
    page = browser.open(j("run.html"))
    head = page.eval(BEFORE_FIRST_JS)
    page.close()
    ok("fastest: %s, batch=%s" % (best["method"], best["batch"]) in head and "times as fast" in head,
       "the page names the fastest configuration and by how much before any table or chart", head[:300])
    out = bulkbench("report", j("sweep.jsonl"))
    ok(re.search(r"^fastest: %s, batch=%s at [0-9,]+ rows/s \(range of 3 runs \(75%%\): " % (best["method"], best["batch"]),
                 out, re.M), "the text report leads with the fastest and its interval", out[:400])


def spread_points(sweep, count, path, **extra):
    """count batches of each result of sweep, rates jittered: a file of many points."""
    import random
    random.seed(1)
    out = []
    for k in range(count):
        for r in sweep:
            r = dict(r, batch=10 + 7 * k, **extra)
            f = random.uniform(0.8, 1.2)
            r["runs"] = [dict(x, rows_per_s=x["rows_per_s"] * f) for x in r["runs"]]
            r["rows_per_s"] = statistics.median(x["rows_per_s"] for x in r["runs"])
            out.append(r)
    write(path, out)
    return out


def case_many(j, browser, sweep):
    """600 points: 300 tick labels in a black band, legends cut, whiskers outside the plot."""
    spread_points(sweep, 150, j("big.jsonl"))
    run("report", j("big.jsonl"), "--html=" + j("big.html"))
    for width in WIDTHS:
        page = browser.open(j("big.html"), width=width)
        check_text(page, "600 points at %d px" % width)
        ticks = page.eval("Array.from(document.querySelector('figure svg:not([style*=none])').querySelectorAll('text')).length")
        ok(ticks < 60, "600 points at %d px: tick labels are thinned" % width, ticks)
        page.close()


def case_huge(j, browser):
    """A 20 MB results file made a 7 MB page that took Chromium 12 s."""
    src = open(j("big.jsonl")).read()
    with open(j("huge.jsonl"), "w") as f:
        while f.tell() < 20 * 1024 * 1024:
            f.write(src)
    t0 = time.time()
    run("report", j("huge.jsonl"), "--html=" + j("huge.html"))
    size = os.path.getsize(j("huge.html"))
    page = browser.open(j("huge.html"))
    ms = page.eval("performance.getEntriesByType('navigation')[0].loadEventEnd")
    page.close()
    ok(size < 2 * 1024 * 1024 and ms < 2000, "a 20 MB results file: a page under 2 MB that loads in under 2 s",
       "%d bytes, %.0f ms (report took %.1f s)" % (size, ms, time.time() - t0))


def case_legend(j, browser, sweep):
    """Legends were SVG text cut at the chart's height: 11 of 30 series missing."""
    rs = []
    for i in range(15):
        rs += [dict(r, set={"work_mem": "%dMB" % (i + 1)}) for r in sweep]
    write(j("legend.jsonl"), rs)
    run("report", j("legend.jsonl"), "--html=" + j("legend.html"))
    for width in WIDTHS:
        page = browser.open(j("legend.html"), width=width)
        got = page.eval("""(function () { var f = document.querySelector('figure'),
          s = Array.from(f.querySelectorAll('svg')).filter(function (x) { return x.getBoundingClientRect().width > 0; })[0],
          items = Array.from(f.querySelectorAll('ul.legend li')), w = document.documentElement.clientWidth;
          return { items: items.length, series: s.querySelectorAll('g.series').length,
                   out: items.filter(function (li) { var r = li.getBoundingClientRect(); return r.right > w + 1 || r.width === 0; }).length }; })()""")
        page.close()
        ok(got["items"] == 30 == got["series"] and got["out"] == 0,
           "30 series at %d px: an HTML legend entry for each, wrapping inside the window" % width, got)


def case_methods(j, browser):
    """A comparison of methods alone got a 'run' axis with one dot at each edge."""
    run("run", "workloads/quickstart.lua", "--method=insert,txn,multirow", "--batch=100", "--rows=1000",
        "--dsn=" + j("m.db"), "--out=" + j("m.jsonl"))
    run("report", j("m.jsonl"), "--html=" + j("m.html"))
    page = browser.open(j("m.html"))
    got = page.eval("""(function () { var s = document.querySelector('svg.wide');
      return { dots: s.classList.contains('dots'), rows: s.querySelectorAll('g.series').length,
               texts: Array.from(s.querySelectorAll('text')).map(function (t) { return t.textContent; }) }; })()""")
    page.close()
    ok(got["dots"] and got["rows"] == 3 and {"insert", "txn", "multirow"} <= {t.split(",")[0] for t in got["texts"]}
       and not any(t.startswith("run") for t in got["texts"]), "only the method varies: a dot chart, a row per method", got)


def case_merged(j, browser):
    """Runs of one point appended by separate invocations showed as zig-zags; vs best took the luckiest run."""
    for _ in range(2):
        run("run", "workloads/quickstart.lua", "--method=txn", "--batch=10,100", "--rows=500", "--dsn=" + j("g.db"),
            "--out=" + j("twice.jsonl"))
    run("report", j("twice.jsonl"), "--html=" + j("twice.html"))
    page = browser.open(j("twice.html"))
    t = [x for x in page.eval(TABLES_JS) if "data-scenario" in x["attrs"]][0]
    page.close()
    runs = [row[t["head"].index("runs")][0] for row in t["rows"]] if "runs" in t["head"] else []
    ok(len(t["rows"]) == 2 and runs == ["2", "2"], "two invocations of two points: two rows of two runs each",
       (t["head"], t["rows"]))
    write(j("other.jsonl"), load(j("twice.jsonl"))[:2])
    run("report", j("twice.jsonl"), j("other.jsonl"), "--html=" + j("two.html"))
    page = browser.open(j("two.html"))
    t = [x for x in page.eval(TABLES_JS) if "data-scenario" in x["attrs"]][0]
    page.close()
    ok("source" in t["head"] and len(t["rows"]) == 4, "the same points from two files: a source column tells them apart",
       (t["head"], len(t["rows"])))


def case_cadence(j, browser, sweep):
    """Stalls rang start-up and batch granularity (5 in a pg multirow batch-10000 run)."""
    r = dict(sweep[0], batch=10000, threads=1, runs=None, repeats=None, stats=None, rows_per_s=14000)
    t, ivs = 0.0, []
    for rows in (0, 10000, 0, 10000, 10000, 0, 10000, 0, 10000, 10000, 0, 10000):
        t += 0.5
        ivs.append({"t": t, "rows": rows, "rows_per_s": rows / 0.5, "p99_ms": 700.0})
    r["intervals"] = ivs
    write(j("cadence.jsonl"), [r])
    run("report", j("cadence.jsonl"), "--html=" + j("cadence.html"))
    text = page_text(browser, j("cadence.html"))
    ok("No stalls" in text, "batches of 10,000 committing every 0.7 s, sampled every 0.5 s: no stalls",
       [l for l in text.splitlines() if "stall" in l.lower()][:3])


def case_warnings(j, browser, sweep, run_out):
    """The CV and outlier warnings the command line printed were not on the page."""
    text = page_text(browser, j("run.html"))
    said = re.findall(r"^WARNING: \S+ (\S+) threads=\d+ batch=(\d+): (rows/s varies by [0-9.]+%|run \d+ of \d+ is an outlier)",
                      run_out, re.M)
    missing = ["%s, batch=%s: %s" % m for m in said if "%s, batch=%s: %s" % m not in text]
    ok(not missing, "the %d warnings the run printed are on its page" % len(said), missing)
    r = dict(sweep[0])
    r["runs"] = [dict(x, rows_per_s=v) for x, v in zip(r["runs"], (100000, 101000, 10000))]
    write(j("outlier.jsonl"), [r])
    rc, out, _ = run("report", j("outlier.jsonl"), "--html=" + j("outlier.html"))
    text = page_text(browser, j("outlier.html"))
    ok("run 3 of 3 is an outlier" in text and "varies by" in text and "run 3 of 3 is an outlier" in out,
       "a run ten times slower than two close ones: flagged on the page and in the text")


def case_compare(j, browser):
    """--compare with too few runs said slower with confidence."""
    text = page_text(browser, j("compare.html"))
    ok("too few runs to tell (3 and 3: 90% sure at most" in text and not re.search(r"^\s*\d+\s+(faster|slower)\b", text, re.M),
       "3 runs a side: the comparison says too few runs to tell, not faster or slower",
       [l for l in text.splitlines() if "faster" in l or "slower" in l][:3])
    ok("what differs: nothing the results record" in text,
       "the page says what differs between the two sides, as the text report does (here nothing they record)",
       [l for l in text.splitlines() if "differs" in l][:3])


def case_advise(j, browser):
    """The advise page had no recommendation, another figure than the command line, a × in the wrong round."""
    rc, out, err = run("advise", "workloads/quickstart.lua", "--dsn=" + j("adv.db"), "--method=txn,multirow",
                       "--batch=1000", "--threads=1", "--budget=6s", "--rows=5000", "--format=json",
                       "--out=" + j("adv.jsonl"))
    rec = json.loads(out)["recommendation"]
    run("report", j("adv.jsonl"), "--html=" + j("adv.html"))
    page = browser.open(j("adv.html"))
    sec = page.eval("""(function () { var s = document.getElementById('advise-race').parentElement;
      return s.innerText.split(s.querySelector('figure').innerText)[0]; })()""")
    whole = page.eval("document.body.innerText")
    page.close()
    figure = "{:,}".format(int(round(rec["rows_per_s"])))
    ok(sec.find("recommendation: %s: %s rows/s" % (rec["candidate"], figure)) >= 0,
       "the advise section leads with the command line's recommendation (%s, %s rows/s)" % (rec["candidate"], figure), sec[:300])
    # advise's own record in the file (its --format=json object): its figures and command, as they are
    with open(j("adv_rec.jsonl"), "w") as f:
        f.write(open(j("adv.jsonl")).read() + json.dumps(json.loads(out)) + "\n")
    run("report", j("adv_rec.jsonl"), "--html=" + j("adv_rec.html"))
    rec_text = page_text(browser, j("adv_rec.html"))
    ok(rec.get("command") and rec["command"] in rec_text and "recommendation: %s: %s rows/s" % (rec["candidate"], figure)
       in rec_text, "with advise's own record in the file, the page gives its figures and its command", rec.get("command"))
    ok("`" not in whole and "did not keep its command line" not in whole,
       "the advise page shows no literal backticks, and does not call its results a bulkbench that kept no command line")
    # the fixture's baseline was dropped in round 1; a copy of its runs in round 2 must not move its ×
    rs = load(os.path.join(ROOT, "tests/fixtures/advise.jsonl"))
    more = [dict(r, advise=dict(r["advise"], round=2)) for r in rs if r["advise"].get("baseline")]
    write(j("adv2.jsonl"), rs + more)
    run("report", j("adv2.jsonl"), "--html=" + j("adv2.html"))
    page = browser.open(j("adv2.html"))
    got = page.eval("""(function () { var s = document.querySelectorAll('svg.wide')[0], x = {};
      Array.from(s.querySelectorAll('text')).forEach(function (t) { var r = t.getBoundingClientRect(); x[t.textContent] = r.left + r.width / 2; });
      var p = Array.from(s.querySelectorAll('path')).filter(function (p) { return /baseline/.test(p.textContent); })[0];
      var b = p.getBoundingClientRect(); return { mark: b.left + b.width / 2, r1: x['1'], r2: x['2'] }; })()""")
    page.close()
    ok(abs(got["mark"] - got["r1"]) < 12, "a baseline dropped in round 1 has its × at round 1, where it ran on", got)


def case_timeline_cap(j, browser):
    """A 20 MB timeline file made an 18,188 px chart with a 756-entry legend and 969 stall lines."""
    rs = load(os.path.join(ROOT, "tests/fixtures/timeline.jsonl"))
    base = next(r for r in rs if r.get("intervals"))
    many = [dict(base, method="multirow", batch=100 + k) for k in range(60)]
    write(j("tl.jsonl"), many)
    run("report", j("tl.jsonl"), "--html=" + j("tl.html"))
    page = browser.open(j("tl.html"))
    got = page.eval("""(function () { var fs = Array.from(document.querySelectorAll('figure')),
        f = fs[fs.length - 1], s = f.querySelector('svg.wide');
      return { height: s.getBoundingClientRect().height, legend: f.querySelectorAll('ul.legend li').length,
               stalls: (document.querySelector('table[data-timeline=stalls]') || { tBodies: [{ rows: [] }] }).tBodies[0].rows.length }; })()""")
    page.close()
    ok(got["height"] < 900 and got["legend"] <= 21 and got["stalls"] <= 100,
       "60 runs with stalls: the timeline draws 20 of them, its height and legend bounded, 100 stalls listed", got)


# ---- the defects of issue 44 ("what users read is right"), each a case ----

LOOKS_JS = """(function () {
  var looks = {}, dups = [];
  document.querySelectorAll('ul.legend button[data-name]').forEach(function (b) {
    var k = b.querySelector('.key'), s = getComputedStyle(k), name = b.getAttribute('data-name'),
        look = [s.borderTopColor, s.borderTopStyle, s.backgroundColor, s.backgroundImage].join(' ');
    if (looks[look] && looks[look] !== name) dups.push(looks[look] + ' / ' + name);
    looks[look] = looks[look] || name;
  });
  return dups;
})()"""

SEGMENTS_JS = """(function () {
  var out = {};
  document.querySelectorAll('[title]').forEach(function (e) {
    var m = /^(.+?) (\\d+(\\.\\d+)?)%$/.exec(e.getAttribute('title'));
    if (!m) return;
    var s = getComputedStyle(e);
    (out[m[1]] = out[m[1]] || []).push([s.backgroundColor, s.backgroundImage].join(' '));
  });
  return out;
})()"""

WAIT_EVENTS = ["cpu", "client", "WALSync", "WALWrite", "BufferContent", "DataFileExtend", "ProcArrayGroupUpdate",
               "BufferMapping", "XactGroupUpdate", "LockManager", "SomethingNew"]


def with_waits(sweep, events, kinds=("wal", "server-cpu", "network", "io")):
    """sweep's results with made-up waits (events' shares, the first largest) and bottlenecks."""
    out = []
    for i, r in enumerate(sweep):
        shares = [2.0 ** -(k + 1) for k in range(len(events))]
        total = sum(shares)
        waits = {ev: round(v / total, 4) for ev, v in zip(events[i % len(events):] + events[:i % len(events)], shares)}
        kind = kinds[i % len(kinds)]
        out.append(dict(r, waits=waits, bottleneck={"kind": kind, "evidence": "%s of backend time" % kind}))
    return out


def case_looks(j, browser):
    """Colours repeated within a chart: a twelfth line took the first's, wait events shared greens and greys."""
    page = browser.open(j("legend.html"))  # 30 lines (case_legend's page)
    dups = page.eval(LOOKS_JS)
    page.close()
    ok(not dups, "30 lines in one chart: each legend entry its own look (hue, then line style)", dups[:4])
    page = browser.open(j("fixtures.html"))  # a sweep, timelines, CDFs and a race: 21 names in five charts
    dups, n = page.eval(LOOKS_JS), page.eval("document.querySelectorAll('ul.legend button').length")
    page.close()
    ok(n > 12 and not dups, "%d legend entries in the charts of one page: no two names share a look" % n, dups[:4])


def case_waits(j, browser, sweep):
    """Waits were a bar per run under a label repeating the scenario; colours shared; no bottleneck column."""
    rs = with_waits(sweep, WAIT_EVENTS)
    write(j("waits.jsonl"), rs)
    run("report", j("waits.jsonl"), "--html=" + j("waits.html"))
    page = browser.open(j("waits.html"))
    segs = page.eval(SEGMENTS_JS)
    tables = page.eval(TABLES_JS)
    dups = page.eval(LOOKS_JS)
    page.close()
    bg = {}
    for name, ls in segs.items():
        for look in ls:
            bg.setdefault(look[:look.index(")") + 1], set()).add(name)
    ok(set(segs) == set(WAIT_EVENTS) and all(len(set(v)) == 1 for v in segs.values())
       and all(len(v) == 1 for v in bg.values()) and not dups,
       "11 wait events: each segment titled 'NAME NN%', each event one colour, no two events one colour",
       {k: v for k, v in bg.items() if len(v) > 1} or dups or sorted(segs))
    main = [t for t in tables if "data-scenario" in t["attrs"]][0]
    wt = [t for t in tables if "data-waits" in t["attrs"]]
    ok(len(wt) == 1, "the waits are one chart for the scenario (a row per point), not a bar per run", len(wt))
    if not wt:
        return
    dims = [h for h in main["head"] if h in ("engine", "method", "threads", "batch")]
    order = lambda t: [tuple(row[t["head"].index(d)][0] for d in dims) for row in t["rows"]]  # noqa: E731
    ok(order(wt[0]) == order(main) and dims and wt[0]["head"][:len(dims)] == dims,
       "the waits chart's rows are the table's points, in its order, named by what varies (%s)" % ", ".join(dims),
       (wt[0]["head"], order(wt[0])[:3], order(main)[:3]))
    ok(not any("quickstart" in c[0] for row in wt[0]["rows"] for c in row),
       "no row of the waits chart repeats the scenario's name", wt[0]["rows"][0])
    want = [r["bottleneck"]["kind"] for r in sorted(rs, key=lambda r: -r["rows_per_s"])]
    got = [row[main["head"].index("bottleneck")][0] for row in main["rows"]] if "bottleneck" in main["head"] else []
    ok(got == want, "the scenario's table has a bottleneck column", (main["head"], got, want))
    # the same event keeps its colour on another page, with other events beside it
    write(j("waits2.jsonl"), with_waits(sweep[:2], ["BufferMapping", "cpu", "Zeta", "WALSync"]))
    run("report", j("waits2.jsonl"), "--html=" + j("waits2.html"))
    page = browser.open(j("waits2.html"))
    segs2 = page.eval(SEGMENTS_JS)
    page.close()
    same = {ev: (segs[ev][0], segs2[ev][0]) for ev in ("BufferMapping", "cpu", "WALSync") if ev in segs2}
    ok(len(same) == 3 and all(a == b for a, b in same.values()), "a wait event keeps its colour on every page", same)


def case_stall_words(j, browser):
    """"No stalls: no an interval under 0.5 of its run's median rows/s"."""
    text = page_text(browser, j("cadence.html"))
    line = [l for l in text.splitlines() if l.startswith("No stalls")]
    ok(line and "no an " not in line[0] and line[0].startswith("No stalls: no run had an interval"),
       "no stalls: the page says so in English", line)


def case_end_labels(j, browser):
    """Lines were named only in the legend, colours to be matched by eye."""
    page = browser.open(j("run.html"))
    got = page.eval("""(function () { var s = document.querySelector('svg.wide');
      return { lines: Array.from(s.querySelectorAll('g.series')).map(function (g) { return g.getAttribute('data-name'); }),
               labels: Array.from(s.querySelectorAll('g.endlabel')).map(function (g) {
                 return [g.getAttribute('data-name'), g.querySelector('text').textContent]; }) }; })()""")
    page.close()
    ok(got["lines"] and sorted(got["lines"]) == sorted(n for n, _ in got["labels"])
       and all(n == t for n, t in got["labels"]), "the wide chart names each line where it ends", got)
    # a line of one point at the left (insert, which takes no batch) is named by its legend, not across the plot
    run("run", "workloads/quickstart.lua", "--method=insert,txn", "--batch=1,100", "--rows=500", "--dsn=" + j("e.db"),
        "--out=" + j("ends.jsonl"))
    run("report", j("ends.jsonl"), "--html=" + j("ends.html"))
    page = browser.open(j("ends.html"))
    got = page.eval("""(function () { var s = document.querySelector('svg.wide');
      return Array.from(s.querySelectorAll('g.endlabel')).map(function (g) { return g.getAttribute('data-name'); }); })()""")
    page.close()
    ok(got == ["txn"], "a line that ends short of the right edge has no name drawn across the plot", got)


def case_pinned(j, browser):
    """A wide table at 390 px scrolled away every column but the first: rows lost their names."""
    page = browser.open(j("waits.html"), width=390)
    got = page.eval(CELLS_JS)["pinned"]
    page.close()
    ok(got and got[0] >= 2, "at 390 px the scenario's table keeps its first columns (vs best and the next) in view",
       got)


def case_advise_words(j, browser):
    """The advise page gave the baseline two figures, listed candidates out of order, printed
    one run's interval as [x, x] 0% and said nothing of what its drops risked."""
    _, out, _ = run("advise", "workloads/quickstart.lua", "--dsn=" + j("adv44.db"), "--method=txn,multirow",
                    "--batch=10,100,1000", "--threads=1,2", "--budget=12s", "--rows=5000", "--baseline=txn:10:1",
                    "--format=json", "--out=" + j("adv44.jsonl"))
    rec = json.loads(out)
    run("report", j("adv44.jsonl"), "--html=" + j("adv44.html"))
    page = browser.open(j("adv44.html"))
    tables = page.eval(TABLES_JS)
    text = page.eval("document.body.innerText")
    page.close()
    t = next((x for x in tables if x["head"][:2] == ["fate", "candidate"]), None)
    if not ok(t is not None, "the advise page has its standings table"):
        return
    col = {h: i for i, h in enumerate(t["head"])}
    names = [row[col["candidate"]][0] for row in t["rows"]]
    ok(names == [c["candidate"] for c in rec["candidates"]], "the page's standings are advise's, in its one order",
       (names[:6], [c["candidate"] for c in rec["candidates"]][:6]))
    figures = {row[col["candidate"]][0]: row[col["rows/s"]][0] for row in t["rows"]}
    ok(all(figures.get(c["candidate"]) == ("%.0f" % c["rows_per_s"] if c["rows_per_s"] else "null")
           for c in rec["candidates"]), "each candidate's one figure on the page is advise's", figures)
    ones = [row for row in t["rows"] if row[col["runs at rows"]][0].startswith("1 at")]
    ok(all(row[col["interval"]][0] == "-" for row in ones), "one run is no interval: '-'", ones[:2])
    b = rec["baseline"]
    line = next((l for l in text.splitlines() if "times the baseline" in l), "")
    ok("{:,}".format(int(round(b["rows_per_s"]))) in line and b["verdict"] in line,
       "the baseline line gives the standings' figure for it and the verdict its paired runs allow", line)
    d = rec["drops"]
    said = "dropped: a candidate leaves the race" in text and (d["risk"] is None or "The chance that one of them" in text)
    ok(d["dropped"] == 0 or said, "the page states the drop rule and what it risked (%d dropped)" % d["dropped"],
       [l for l in text.splitlines() if "dropped" in l][:3])


def main():
    t0 = time.time()
    keep = "-v" in sys.argv
    T = tempfile.mkdtemp(prefix="bbhtml.")
    qs = "workloads/quickstart.lua"
    j = lambda name: os.path.join(T, name)  # noqa: E731
    sweep = ["--method=txn,multirow", "--batch=10,1000", "--rows=3000", "--repeat=3"]
    # real runs: a sweep whose page `run` writes itself, a second one to compare with, a paced
    # run with intervals, a run with latency histograms
    _, run_text, run_err = run("run", qs, *sweep, "--out=" + j("sweep.jsonl"), "--html=" + j("run.html"), "--dsn=" + j("a.db"))
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
    sw = load(j("sweep.jsonl"))
    pages = [
        ("run --html", j("run.html"), expect([(None, files(j("sweep.jsonl")))])),
        ("sweep+timeline+cdf", j("all.html"), expect([(None, files(j("sweep.jsonl"), j("timed.jsonl"), j("hist.jsonl")))])),
        ("compare", j("compare.html"), expect([("base", files(j("sweep.jsonl"))), ("candidate", files(j("cand.jsonl")))],
                                              compare=True)),
        ("fixtures", j("fixtures.html"), expect([(None, files(*fx))])),
    ]
    ok(pages[3][2]["stalls"] > 0 and pages[1][2]["timeline_runs"] > 0 and pages[1][2]["cdf"] > 0,
       "the pages hold stalls, timelines and CDFs to check")
    with Browser() as b:
        for what, path, e in pages:
            t1 = time.time()
            check_page(b, path, e, what)
            print("# %s: %.1f s" % (what, time.time() - t1), flush=True)
        cases = [
            lambda: case_long_cell(j), lambda: case_failure(j, b), lambda: case_batch0(j, b),
            lambda: case_bad_lines(j, b, sw), lambda: case_intervals(j, b, run_text + run_err),
            lambda: case_verdict_first(j, b, sw), lambda: case_many(j, b, sw), lambda: case_huge(j, b),
            lambda: case_legend(j, b, sw), lambda: case_methods(j, b), lambda: case_merged(j, b),
            lambda: case_cadence(j, b, sw), lambda: case_warnings(j, b, sw, run_text + run_err), lambda: case_compare(j, b),
            lambda: case_advise(j, b), lambda: case_timeline_cap(j, b),
            lambda: case_looks(j, b), lambda: case_waits(j, b, sw), lambda: case_stall_words(j, b),
            lambda: case_end_labels(j, b), lambda: case_pinned(j, b), lambda: case_advise_words(j, b),
        ]
        for case in cases:
            t1 = time.time()
            try:
                case()
            except Exception as e:  # an older binary may not get that far: the case fails, the rest run
                ok(False, "case %s ran" % case.__code__.co_names[0] if case.__code__.co_names else "a case ran", e)
            print("# case: %.1f s" % (time.time() - t1), flush=True)
    print("# %d checks in %.1f s%s" % (n, time.time() - t0, (", pages in " + T) if keep else ""))
    print("1..%d" % n)
    if not keep:
        subprocess.run(["rm", "-rf", T])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
