#!/usr/bin/env python3
"""The rooms of the C code and the one rule between them (docs/architecture.md):
includes point down, cmd -> host -> core -> drivers -> base, never up, and inside core
from wing to wing only load -> method -> gen, run; no two modules include each other,
directly or round a circle; no two object files call each other (one driver's files are
one module); only host/ includes Lua's headers, and the library of base, drivers and core
links without Lua. Prints TAP; a violation names the file, the include and the rule it breaks."""
import collections
import json
import glob
import os
import re
import subprocess
import sys

ROOMS = {"base": 0, "drivers": 1, "runtime/core": 2, "runtime/host": 3, "runtime/cmd": 4}
# runtime/core/WING: a wing includes only lower ones; files in runtime/core itself (options,
# signals) are the floor every wing may use, and include no wing
WINGS = {None: -1, "gen": 0, "run": 0, "method": 1, "load": 2}
LUA = re.compile(r'#include\s*[<"](lua|lauxlib|lualib|luajit)\.h[>"]')
INC = re.compile(r'#include\s+"([^"]+)"')

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
files = {}  # path -> room
for room in ROOMS:
    for p in glob.glob(room + "/*.[ch]") + (glob.glob(room + "/*/*.[ch]") if room == "runtime/core" else []):
        files[os.path.normpath(p)] = room
stray = glob.glob("runtime/*.[ch]")
stray += [d for d in glob.glob("runtime/core/*/") if os.path.basename(d.rstrip("/")) not in WINGS]

n = 0
def check(ok, what, why=""):
    global n
    n += 1
    print(("ok %d - %s" if ok else "not ok %d - %s: %s") % ((n, what) if ok else (n, what, why)))

check(not stray, "every runtime source file is in a room (core in one of its wings, host or cmd)", " ".join(stray))

def wing(path):  # the wing of a core file (None: core's own floor); "" outside core
    parts = path.split("/")
    return "" if parts[:2] != ["runtime", "core"] else parts[2] if len(parts) == 4 else None

def module(path):  # foo.c, foo.h and foo_priv.h are one module
    return re.sub(r"(_priv)?\.[ch]$", "", path)

up, lua, missing, deps = [], [], [], {}
for path, room in sorted(files.items()):
    text = open(path, errors="replace").read()
    if LUA.search(text) and room != "runtime/host":
        lua.append(path)
    for inc in INC.findall(text):
        target = os.path.normpath(os.path.join(os.path.dirname(path), inc))
        if target not in files:
            if not target.startswith("build/"):
                missing.append("%s includes %s" % (path, inc))
            continue
        if ROOMS[files[target]] > ROOMS[room]:
            up.append("%s includes %s (%s is above %s)" % (path, inc, files[target], room))
        wa, wb = wing(path), wing(target)
        if "" not in (wa, wb) and wa != wb and WINGS[wb] >= WINGS[wa]:
            up.append("%s includes %s (core wing %s may not include wing %s)" % (path, inc, wa, wb))
        a, b = module(path), module(target)
        if a != b:
            deps.setdefault(a, set()).add(b)

check(not lua, "only runtime/host includes Lua's headers", " ".join(lua))
check(not up, "includes point down: cmd -> host -> core -> drivers -> base; in core load -> method -> gen, run -> core's floor",
      "; ".join(up))
check(not missing, "every include names a file of a room", "; ".join(missing))
# assert() is on in every build: a file that asserts includes base/invariant.h (which refuses NDEBUG)
unguarded = sorted(p for p in files if re.search(r"\bassert\(", re.sub(r"/\*.*?\*/|//[^\n]*", "", open(p).read(), flags=re.S))
                   and "invariant.h" not in open(p).read())
check(not unguarded, "a file that asserts includes base/invariant.h (asserts on in every build)", " ".join(unguarded))

cycles, state, stack = [], {}, []
def visit(u):
    state[u] = 1
    stack.append(u)
    for v in sorted(deps.get(u, ())):
        if state.get(v) == 1:
            cycles.append(" -> ".join(stack[stack.index(v):] + [v]))
        elif not state.get(v):
            visit(v)
    stack.pop()
    state[u] = 2
for u in sorted(deps):
    if not state.get(u):
        visit(u)
check(not cycles, "no circle of modules", "; ".join(cycles[:5]))

# The Lua library, in three packages: the scenario library (lua/NAME.lua), `new` (lua/new/)
# and the reports (lua/report/), with each engine's own Lua (drivers/ENGINE/NAME.lua: its
# dialect descriptor and catalog reader); every module required by its path (lua/new/law.lua is
# bulkbench.new.law, drivers/pg/dialect_pg.lua bulkbench.drivers.pg.dialect_pg). The
# scenario library requires only itself; new and the reports require it and themselves, never
# each other; an engine's Lua may use the library and new's helpers. And no module requires
# another that requires it back, directly or round a circle.
LUA_PACKAGES = {"lua/": "library", "lua/new/": "new", "lua/report/": "reports", "drivers/": "engine"}
LUA_MAY = {"library": {"library", "engine"}, "new": {"library", "new"}, "reports": {"library", "reports"},
           "engine": {"library", "new"}}
def lua_module(f):  # the Makefile's rule: a module's name is its path
    return "bulkbench" if f == "lua/bulkbench.lua" else "bulkbench." + re.sub(r"^lua/", "", f[:-4]).replace("/", ".")
# A require built from a name (require("bulkbench.report." .. mode), require(module) of a
# module a descriptor names) is an edge to every module it may reach: those of its literal
# prefix, or those the engines' descriptors name in the fields its line declares ("-- reaches:
# dialect catalog_lua": `bulkbench list --engines --format=json`), else every engine module.
# So a circle through one is seen; the library reaches the engines' modules that way only.
def descriptor_modules():
    bb = subprocess.run(["./bulkbench", "list", "--engines", "--format=json"], capture_output=True, text=True)
    out = collections.defaultdict(set)
    for e in (json.loads(bb.stdout) if bb.returncode == 0 else []):
        for d in [e["dialect"]] + e["dialects"]:
            out["dialect"].add(d["lua"]); out["dialects"].add(d["lua"])
        for k in ("catalog_lua", "strategies_lua"):
            out[k].add(e[k])
    return {k: {m for m in v if m} for k, v in out.items()}
named = descriptor_modules()
lreq, lpkg, dynamic = {}, {}, []
files = sorted(glob.glob("lua/*.lua") + glob.glob("lua/*/*.lua") + glob.glob("drivers/*/*.lua"))
every = [lua_module(f) for f in files]
for f in files:
    name = lua_module(f)
    raw = open(f).read()
    src = re.sub(r"--[^\n]*", "", raw)  # what a comment says it requires does not count
    lreq[name] = set(re.findall(r'require\s*\(?\s*["\'](bulkbench(?:\.[a-z_]+)*)["\']', src)) - {name}
    for line_no, line in enumerate(raw.split("\n"), 1):
        code = re.sub(r"--.*", "", line)
        for m in re.finditer(r'require\s*\(\s*(?!["\'][\w.]+["\']\s*\))([^)]*)\)', code):
            pre = re.match(r'\s*["\'](bulkbench[\w.]*\.)["\']\s*\.\.', m.group(1))
            said = re.search(r"--\s*reaches:\s*([\w ]+)", line)
            if pre:
                reach = {x for x in every if x.startswith(pre.group(1))}
            elif said:
                reach = set().union(*(named.get(k, set()) for k in said.group(1).split()))
            else:
                reach = {x for x in every if x.startswith("bulkbench.drivers.")}
            dynamic.append("%s:%d" % (f, line_no))
            lreq[name] |= reach - {name}
    lpkg[name] = LUA_PACKAGES["drivers/" if f.startswith("drivers/") else os.path.dirname(f) + "/"]
crossing = sorted("%s (%s) requires %s (%s)" % (m, lpkg[m], d, lpkg[d]) for m in lreq for d in lreq[m]
                  if d in lpkg and lpkg[d] not in LUA_MAY[lpkg[m]])
check(lpkg and not crossing, "Lua in three packages: the library requires only itself, new and the reports only it "
      "and themselves (%d modules)" % len(lpkg), "; ".join(crossing[:5]))
lcycles, state, stack = [], {}, []
def lvisit(u):
    state[u] = 1
    stack.append(u)
    for v in sorted(lreq.get(u, ())):
        if state.get(v) == 1:
            lcycles.append(" -> ".join(stack[stack.index(v):] + [v]))
        elif not state.get(v):
            lvisit(v)
    stack.pop()
    state[u] = 2
for u in sorted(lreq):
    if not state.get(u):
        lvisit(u)
check(lreq and not lcycles, "no circle of Lua modules (%d in lua/ and drivers/; %d requires built from names, each counted "
      "as reaching every module it may name: %s)" % (len(lreq), len(dynamic), ", ".join(dynamic)), "; ".join(lcycles[:5]))

# Calls, from the objects make built: a file that calls another must not be called back by
# it (that pair is one module in two files, or a layer inverted behind a private header).
# One driver's files (its folder, drivers/NAME/) are one module.
objs = [o for o in glob.glob("build/**/*.o", recursive=True) if os.path.exists(o[len("build/"):-2] + ".c")]
defs, uses = {}, collections.defaultdict(set)
# one nm for all of them (-A: each line starts with its object's name), not one per object
for line in subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True).stdout.splitlines() if objs else []:
    o, _, rest = line.partition(":")
    p = rest.split()
    if len(p) == 3 and p[1] in "TDBR":
        defs[p[2]] = o
    elif len(p) == 2 and p[0] == "U":
        uses[o].add(p[1])
def unit(o):
    m = re.match(r"build/drivers/([a-z]+)", o)
    return "drivers/" + m.group(1) if m else o
calls = collections.defaultdict(set)
for o, us in uses.items():
    for sym in us:
        if sym in defs and unit(defs[sym]) != unit(o):
            calls[o].add(defs[sym])
mutual = sorted({tuple(sorted((a, b))) for a in calls for b in calls[a] if a in calls.get(b, ())})
check(objs and not mutual, "no two files call each other (%d objects)" % len(objs),
      "; ".join("%s <-> %s" % p for p in mutual) or "no objects under build/: run make first")

# One decision, one function: rows become bytes in a format through encrows.c alone (run's
# streams, `gen` and gen:encode() all call it); nobody else picks a plan or writes TSV rows itself.
ENCODERS = {"encplan_new", "encplan_rows", "binplan_new", "binplan_rows", "enc_row_tsv"}
stray_enc = sorted("%s calls %s" % (o, sym) for o, us in uses.items() for sym in us & ENCODERS
                   if os.path.basename(o) not in ("encrows.o",))
check(objs and not stray_enc, "rows become bytes through one entry point (runtime/core/gen/encrows.c)",
      "; ".join(stray_enc))

# core without Lua, at link time: the library links into a program with no LuaJIT
lib = "build/libbulkbench.a"
lua_syms = subprocess.run(["nm", "-u", lib], capture_output=True, text=True).stdout if os.path.exists(lib) else "?"
link = subprocess.run(["make", "-s", "build/nolua"], capture_output=True, text=True)
ran = subprocess.run(["build/nolua"], capture_output=True, text=True) if link.returncode == 0 else None
nolua = link.returncode == 0 and ran.returncode == 0 and not re.search(r" lua", lua_syms)
check(nolua, "base + drivers + core (%s) link and run without Lua: %s" % (lib, ran.stdout.strip() if ran else ""),
      (link.stderr or (ran.stderr if ran else "") or "lua symbols in the library")[-400:])
print("1..%d" % n)
sys.exit(1 if any([stray, lua, up, missing, unguarded, cycles, mutual, stray_enc, not objs, not nolua]) else 0)
