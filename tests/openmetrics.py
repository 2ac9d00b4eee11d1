#!/usr/bin/env python3
"""Checks OpenMetrics text on stdin the way a strict reader would, for tests/cli/stats.t:
every sample line has the exposition's shape, every family is declared once (# TYPE before
its samples, which stand together), sample names fit their family's type (counters end in
_total), no label set repeats in a family, no NaN, at least 3 samples, "# EOF" last.
Where Prometheus' Python client is installed (Debian: python3-prometheus-client), its
strict OpenMetrics parser reads the text too. Prints "openmetrics ok: N samples in M
families" (and whether the strict parser read them) or the first problem, and exits 1 on it."""
import re
import sys

SAMPLE = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? [-+0-9.eE]+(\s[0-9.]+)?$')
SUFFIX = {"counter": ("_total", "_created"), "gauge": ("",), "summary": ("", "_count", "_sum", "_created")}


def fail(msg):
    print("openmetrics: " + msg)
    sys.exit(1)


lines = sys.stdin.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
if not lines or lines[-1] != "# EOF":
    fail("the last line is not # EOF")
types, seen_sets, closed, current, n = {}, set(), set(), None, 0
for no, line in enumerate(lines[:-1], 1):
    if line.startswith("# TYPE "):
        _, _, name, typ = line.split(" ", 3)
        if name in types:
            fail("line %d: family %s declared twice" % (no, name))
        if typ not in SUFFIX:
            fail("line %d: unknown type %s" % (no, typ))
        if current:
            closed.add(current)
        types[name], current = typ, name
        continue
    if line.startswith("#"):
        if not re.match(r"^# (HELP|UNIT) [a-zA-Z_:][a-zA-Z0-9_:]* .*$", line):
            fail("line %d: a comment that is not TYPE, HELP or UNIT: %s" % (no, line))
        continue
    if not SAMPLE.match(line):
        fail("line %d: not a sample: %s" % (no, line))
    name = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0)
    if not current or not any(name == current + s for s in SUFFIX[types[current]]):
        fail("line %d: sample %s outside its family's block (or of the wrong type)" % (no, name))
    if "nan" in line.lower().split(" ")[-1]:
        fail("line %d: NaN" % no)
    key = line.rsplit(" ", 1)[0]
    if key in seen_sets:
        fail("line %d: label set repeated: %s" % (no, key))
    seen_sets.add(key)
    n += 1
if n < 3:
    fail("only %d samples" % n)
try:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
except ImportError:
    strict = "strict parser not installed"
else:
    try:
        fams = list(text_string_to_metric_families("\n".join(lines) + "\n"))
    except ValueError as e:
        fail("prometheus_client: %s" % e)
    strict = "prometheus_client read %d families" % len(fams)
print("openmetrics ok: %d samples in %d families; %s" % (n, len(types), strict))
