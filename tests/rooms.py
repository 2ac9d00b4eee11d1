#!/usr/bin/env python3
"""The rooms of the C code and the one rule between them (docs/architecture.md):
includes point down, cmd -> host -> core -> drivers -> base, never up; no two modules
include each other, directly or round a circle; only host/ includes Lua's headers.
Prints TAP; a violation names the file, the include and the rule it breaks."""
import glob
import os
import re
import sys

ROOMS = {"base": 0, "drivers": 1, "runtime/core": 2, "runtime/host": 3, "runtime/cmd": 4}
LUA = re.compile(r'#include\s*[<"](lua|lauxlib|lualib|luajit)\.h[>"]')
INC = re.compile(r'#include\s+"([^"]+)"')

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
files = {}  # path -> room
for room in ROOMS:
    for p in glob.glob(room + "/*.[ch]"):
        files[os.path.normpath(p)] = room
stray = [p for p in glob.glob("runtime/*.[ch]")]

n = 0
def check(ok, what, why=""):
    global n
    n += 1
    print(("ok %d - %s" if ok else "not ok %d - %s: %s") % ((n, what) if ok else (n, what, why)))

check(not stray, "every runtime source file is in a room (core, host or cmd)", " ".join(stray))

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
        a, b = module(path), module(target)
        if a != b:
            deps.setdefault(a, set()).add(b)

check(not lua, "only runtime/host includes Lua's headers", " ".join(lua))
check(not up, "includes point down: cmd -> host -> core -> drivers -> base", "; ".join(up))
check(not missing, "every include names a file of a room", "; ".join(missing))

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
print("1..%d" % n)
sys.exit(1 if any([stray, lua, up, missing, cycles]) else 0)
