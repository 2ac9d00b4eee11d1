#!/usr/bin/env python3
"""Each command's --help against what it accepts: every option `bulkbench CMD --help` lists is
taken by CMD, every option CMD takes is listed, and each command's example that needs no
server runs as written. Prints TAP."""
import os, re, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import descriptors  # noqa: E402  which engines need a server: their descriptors say, no name here

BB = os.path.abspath("./bulkbench")
n = 0
failed = 0


def tap(ok, what):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")


def out(*args, cwd=None):
    p = subprocess.run([BB, *args], capture_output=True, text=True, timeout=120, cwd=cwd)
    return p.returncode, p.stdout + p.stderr


_, top = out("help")
commands = re.findall(r"^  ([a-z]+) ", top, re.M)
tap(len(commands) >= 7, f"`bulkbench help` lists the commands: {' '.join(commands)}")

listed = {}
for c in commands:
    rc, text = out(c, "--help")
    names = re.findall(r"^  --?([a-z][a-z-]*)", text, re.M)
    listed[c] = set(names)
    tap(rc == 0 and text.startswith(f"usage: bulkbench {c}") and "example:" in text,
        f"`bulkbench {c} --help` prints its synopsis, {len(names)} options and an example")
    shown = re.findall(r"^  (--?[a-z][a-z-]*)", text, re.M)
    bad = [s for s in shown if (len(s.lstrip("-")) == 1) != (s.count("-") == 1)]
    tap(not bad, f"{c}: one-letter options show as -x, the others as --name {bad or ''}")

work = tempfile.mkdtemp(prefix="bbhelp.")
root = os.getcwd()
for d in ("workloads", "tests"):
    os.symlink(os.path.join(root, d), os.path.join(work, d))


def examples():
    """The examples, in the order `help` lists the commands (run's results feed report's), in a
    scratch directory that sees the project's workloads and tests: those that need no server run
    as written. They wait on advise's budget and SQLite's disk mostly, so they run beside the
    option checks below."""
    said = []
    for c in commands:
        _, text = out(c, "--help")
        m = re.search(r"^example:\n((?:.*\\\n)*.*)$", text, re.M)  # a long one is wrapped with " \\"
        ex = re.sub(r"\s*\\\n\s*", " ", m.group(1)).strip() if m else ""
        if descriptors.needs_server(ex):
            said.append((None, f"{c}'s example runs: {ex}"))  # not run here: a skip
            continue
        p = subprocess.run(ex.replace("bulkbench ", BB + " ", 1), shell=True, cwd=work,
                           capture_output=True, text=True, timeout=300)
        said.append((p.returncode == 0 and ex, f"{c}'s example runs: {ex}" + ("" if p.returncode == 0 else f" -> {p.stderr[-300:]}")))
    return said


ran = ThreadPoolExecutor(1).submit(examples)

# every option any command takes, plus a few no command should
universe = set().union(*listed.values()) | {"no-such-option"}
script = os.path.join(work, "nothing.lua")  # a script that does no work: run and gen stop after the option checks
open(script, "w").write('local bb = require "bulkbench"\n')
dummy = {"run": [script], "gen": [script, "--table=t", "--rows=1"], "load": ["/nonexistent.csv"], "report": ["/nonexistent.jsonl"],
         "advise": [script], "forecast": [script, "--rows=1"]}
for c in commands:
    if c == "lua":  # its arguments are the Lua file's own
        continue
    def takes(o):
        flag = f"-{o}=1" if len(o) == 1 else f"--{o}=1"
        _, text = out(c, *dummy.get(c, []), flag, cwd=work)
        return "does not take" not in text and "unknown option" not in text
    with ThreadPoolExecutor(4) as pool:
        accepted = {o for o, ok in zip(sorted(universe), pool.map(takes, sorted(universe))) if ok}
    tap(accepted == listed[c] - {"help"},
        f"{c}: the options it accepts are the ones its --help lists"
        + ("" if accepted == listed[c] else f" (accepted, unlisted: {sorted(accepted - listed[c])}; "
           f"listed, refused: {sorted(listed[c] - accepted)})"))

# Each command declares its own options: core's table (runtime/core/opts.c) holds those several
# commands take, plus run's (the common options scripts set defaults for with bb.defaults, which
# advise's runs read too) and load's (db:load_file takes them; core/load reads them). An option
# only another command takes is defined beside that command, and still refused by name elsewhere.
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime", "core", "opts.c")).read()
table = src[src.index("opts_common[] = {"):src.index("{ NULL, 0, NULL")]
common = re.findall(r'^\s*\{ "([a-z-]+)",', table, re.M)
takers = {o: {c for c in listed if o in listed[c]} for o in common}
strays = sorted(f"{o} ({' '.join(sorted(t)) or 'no command'})" for o, t in takers.items() if len(t) < 2 and not t & {"run", "load"})
tap(common and not strays, f"core's option table holds no option of one command alone but run's and load's ({len(common)} options)"
    + (f": {', '.join(strays)}" if strays else ""))
rc, text = out("run", script, "--budget=1s", cwd=work)
tap(rc == 2 and "--budget is an option of `bulkbench advise`" in text, f"another command's own option is refused naming its command: {text.strip().splitlines()[0][:120] if text.strip() else text}")

for ok, what in ran.result():
    if ok is None:
        n += 1
        print(f"ok {n} - {what} # skip needs a database server")
    else:
        tap(ok, what)
subprocess.run(["rm", "-rf", work])

print(f"1..{n}")
sys.exit(1 if failed else 0)
