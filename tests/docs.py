#!/usr/bin/env python3
"""The README and docs/*.md against the binary. Prints TAP. DOCS_CHECKS="methods reference"
runs only the checks named (links inside named paths methods generators reference commands).

- Every docs/*.md page is named in README.md, and every relative link of the README and the
  pages leads to a file (and to a heading, for a #fragment): nothing may be missing; nothing
  they name lies outside the repository (a path climbing out of it, a machine's own path).
- Every `bulkbench COMMAND` a code block shows is a command, every --option on its line one
  that command (or the workloads script it runs) takes, with or without a server; every
  `--option` the prose names is one some command or workload takes.
- Every file path a source comment names (C, Lua, Python, shell), and every path the README and
  the pages name in `code`, is a file of the tree: a moved or renamed file leaves no stale path.
- The README shows at least three pictures, each a file under 200 KB.
- docs/commands.md's options reference is what `bulkbench COMMAND --help` prints
  (contrib/docref.py --check).
- The engine/method tables of docs/methods.md and README.md are what `bulkbench list` prints,
  docs/methods.md's method table has a row for every method, and docs/scenarios.md's generator
  table one for every generator the library has (bb.gen).
- Every `bulkbench ...` command line in a code block of the README and the pages that needs no
  server runs as written, in document order (so a `run --out=x.jsonl` feeds a later `report
  x.jsonl`), from a scratch directory per document that sees the project's workloads/ and tests/.
  It must exit 0 unless the document shows otherwise (a transcript's `$ echo $?` and the code
  under it); a transcript of a `report` (deterministic) must print the lines it shows.
  Skipped, and printed as TAP skips: lines that need a server (an engine whose descriptor
  names servers, a DSN in such an engine's form, $VARIABLES, --target). Not commands at all: lines with
  placeholders (SCRIPT.lua, FILE, ...), and ```text/```lua blocks.
"""
import glob, os, re, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import descriptors  # noqa: E402  the engines' descriptors: no engine is named here

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BB = os.path.join(ROOT, "bulkbench")
SERVER = re.compile(r"\$|\bmpirun\b")  # besides what descriptors.needs_server finds
PLACEHOLDER = re.compile(r"SCRIPT\.lua|\bFILE\b|\.\.\.|RESULTS\.jsonl|\bBASE\b|\bCAND(IDATE)?\b|\bPCT\b|\bNAME\b|<[A-Za-z]")
RUNNABLE_LANGS = {"", "sh", "bash", "shell", "console"}
n = failed = 0


def tap(ok, what, detail=""):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")
    if not ok and detail:
        print("\n".join("#   " + l for l in detail.rstrip().splitlines()[-15:]))


def skip(what, why):
    global n
    n += 1
    print(f"ok {n} - {what} # skip {why}")


def rel(path):
    return os.path.relpath(path, ROOT)


def docs():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def slug(heading):
    """The #fragment GitHub gives a heading."""
    h = re.sub(r"[`*_]|\[|\]\([^)]*\)", lambda m: "_" if m.group(0) == "_" else "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", h).replace(" ", "-")


def blocks(text):
    """(lang, [lines]) of each fenced code block, in order."""
    out, lang, cur = [], None, []
    for line in text.splitlines():
        m = re.match(r"^\s*```(\w*)", line)
        if m and lang is None:
            lang, cur = m.group(1), []
        elif m:
            out.append((lang, cur))
            lang = None
        elif lang is not None:
            cur.append(line)
    return out


def commands(text):
    """Each command line of the code blocks: (command, expected exit, output lines shown)."""
    found = []
    for lang, lines in blocks(text):
        if lang not in RUNNABLE_LANGS:
            continue
        transcript = any(l.lstrip().startswith("$ ") for l in lines)
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            i += 1
            if transcript:
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            if not re.match(r"(\./)?bulkbench\s", line):
                continue
            while line.endswith("\\") and i < len(lines):
                line = line[:-1].rstrip() + " " + lines[i].strip()
                i += 1
            shown, code = [], 0
            if transcript:  # the output under it, up to the next command, and `$ echo $?`
                while i < len(lines) and not re.match(r"\s*\$ (\./)?bulkbench\s", lines[i]):
                    if lines[i].strip() == "$ echo $?" and i + 1 < len(lines) and lines[i + 1].strip().isdigit():
                        code = int(lines[i + 1].strip())
                        i += 2
                        continue
                    shown.append(lines[i])
                    i += 1
            found.append((line, code, [s for s in shown if s.strip() and s.strip() != "..."]))
    return found


def check_links():
    readme = open(os.path.join(ROOT, "README.md")).read()
    pages = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    unnamed = [rel(p) for p in pages if rel(p) not in readme]
    tap(not unnamed, f"README.md names every docs/*.md page ({len(pages)})", f"not named: {unnamed}")
    bad = []
    for d in docs():
        text = open(d).read()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, frag = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(d), path)) if path else d
            if not os.path.exists(full):
                bad.append(f"{rel(d)}: {target} (no such file)")
                continue
            if frag and full.endswith(".md"):
                heads = {slug(h) for h in re.findall(r"^#+ (.+)$", open(full).read(), re.M)}
                if frag not in heads:
                    bad.append(f"{rel(d)}: {target} (no heading #{frag})")
    tap(not bad, "every relative link of the README and docs/ leads to a file and heading", "\n".join(bad))
    imgs = re.findall(r"!\[[^\]]+\]\(([^)]+\.png)\)", readme)
    small = [i for i in imgs if os.path.isfile(os.path.join(ROOT, i)) and os.path.getsize(os.path.join(ROOT, i)) <= 200 * 1024]
    tap(len(imgs) >= 3 and small == imgs, f"README.md shows {len(imgs)} pictures with alt text, each a file under 200 KB",
        f"{imgs} (present and small: {small})")


def listed_methods():
    """The methods each engine offers, from its descriptor; an engine whose folder git does not
    track yet (a copy being tried) is the docs' only once committed (descriptors.documented)."""
    out = {}
    for name, e in descriptors.engines(BB).items():
        if descriptors.documented(name):
            out[name] = e["methods"]
        else:
            skip(f"the docs' engine tables show {name}", f"drivers/{name}/ is not committed yet (then `make docs`)")
    return out


def table(text, header):
    """The rows of the markdown table whose header row starts with `header`, as lists of cells."""
    rows, on = [], False
    for line in text.splitlines():
        if line.startswith(header):
            on = True
            continue
        if on:
            if not line.startswith("|"):
                break
            if not re.match(r"^\|[-:| ]+\|$", line):
                rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


TREE = {"runtime", "drivers", "base", "lua", "tests", "workloads", "contrib", "docs",  # where a path may start,
        "core", "host", "cmd", "gen", "run", "method", "load", "fuzz", "unit", "spec", "engines", "fixtures", "cli"}
A_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)+[\w-]+\.(?:c|h|lua|py|sh|t|md))(?![\w/])")


def named_paths(text):
    """The paths of files of the tree a text names (placeholders such as drivers/NAME.c left out)."""
    return [p for p in A_PATH.findall(text) if p.split("/")[0] in TREE and not re.search(r"[A-Z]{3,}|\*", p)]


def check_paths():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not tracked:  # not a git checkout: the files there are the tree
        tracked = [rel(os.path.join(d, f)) for d, _, fs in os.walk(ROOT) for f in fs if "/.git" not in d]
    def exists(p, near):
        return any(os.path.exists(os.path.normpath(os.path.join(ROOT, c))) for c in
                   (p, os.path.join(near, p), "runtime/" + p, "runtime/core/" + p, "tests/" + p))
    stale, comment = [], {".c": r"/\*.*?\*/|//[^\n]*", ".h": r"/\*.*?\*/|//[^\n]*", ".lua": r"--\[\[.*?\]\]|--[^\n]*",
                          ".py": r"#[^\n]*", ".sh": r"#[^\n]*"}
    for f in tracked:
        pat = comment.get(os.path.splitext(f)[1], r"#[^\n]*" if f == "Makefile" else None)
        if not pat or not os.path.exists(os.path.join(ROOT, f)):
            continue
        text = open(os.path.join(ROOT, f), errors="replace").read()
        for m in re.finditer(pat, text, re.S):
            stale += [f"{f}:{text.count(chr(10), 0, m.start()) + 1}: {p}" for p in named_paths(m.group(0))
                      if not exists(p, os.path.dirname(f))]
    for d in docs():
        for i, line in enumerate(open(d).read().splitlines(), 1):
            for code in re.findall(r"`([^`]+)`", line):
                stale += [f"{rel(d)}:{i}: {p}" for p in named_paths(code) if not exists(p, "")]
    tap(not stale, "every file path a comment or a page names is a file of the tree", "\n".join(stale))


def check_methods():
    want = listed_methods()
    tap(len(want) >= 5 and all(want.values()), f"`bulkbench list` names {len(want)} engines and their methods")
    for page in ("docs/methods.md", "README.md"):
        text = open(os.path.join(ROOT, page)).read()
        got = {}
        for cells in table(text, "| engine | methods |"):
            names = re.findall(r"`([^`]+)`", cells[0])
            got[names[0] if names else cells[0]] = re.findall(r"`([a-z][a-z-]*)`", cells[1])
        diff = [f"{e}: page {sorted(got.get(e, []))}, list {sorted(want.get(e, []))}"
                for e in sorted(set(got) | set(want)) if sorted(got.get(e, [])) != sorted(want.get(e, []))]
        tap(not diff, f"{page}: the engines' methods are what `bulkbench list` prints", "\n".join(diff))
    text = open(os.path.join(ROOT, "docs/methods.md")).read()
    described = {m for cells in table(text, "| method |") for m in re.findall(r"`([a-z][a-z-]*)`", cells[0])}
    every = {m for ms in want.values() for m in ms}
    tap(described == every, f"docs/methods.md describes each of the {len(every)} methods once in its method table",
        f"described {sorted(described)}, offered {sorted(every)}")


def check_generators():
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as f:
        f.write('local bb = require "bulkbench"\nfor k in pairs(bb.gen) do print(k) end\n')
        f.flush()
        have = set(subprocess.run([BB, "lua", f.name], capture_output=True, text=True, timeout=60).stdout.split())
    text = open(os.path.join(ROOT, "docs/scenarios.md")).read()
    described = {g for cells in table(text, "| generator |") for g in re.findall(r"`([a-z][a-z0-9_]*)`", cells[0])}
    tap(len(have) >= 10 and described == have, f"docs/scenarios.md gives the law of each of the {len(have)} generators",
        f"described {sorted(described)}, the library has {sorted(have)}")


def check_reference():
    p = subprocess.run([sys.executable, os.path.join(ROOT, "contrib", "docref.py"), "--check"],
                       capture_output=True, text=True, timeout=120)
    tap(p.returncode == 0, "docs/commands.md's options reference is what `bulkbench COMMAND --help` prints "
        "(contrib/docref.py rewrites it)", p.stdout + p.stderr)


def check_commands():
    env = {k: v for k, v in os.environ.items() if not k.startswith("BULKBENCH_")}
    t_all = time.time()
    ran = skipped = 0
    for d in docs():
        cmds = commands(open(d).read())
        work = tempfile.mkdtemp(prefix="bbdocs.", dir=os.environ.get("BB_TEST_TMP"))
        for sub in ("workloads", "tests"):
            os.symlink(os.path.join(ROOT, sub), os.path.join(work, sub))
        for cmd, code, shown in cmds:
            if PLACEHOLDER.search(cmd):  # a synopsis, not a command: nothing to run
                print(f"# {rel(d)}: not a command line (a placeholder): {cmd}")
                continue
            if SERVER.search(cmd) or descriptors.needs_server(cmd):  # a test this suite does not run: said so, and counted as a skip
                skip(f"{rel(d)}: `{cmd}`", "needs a database server")
                skipped += 1
                continue
            line = re.sub(r"^(\./)?bulkbench", lambda _: BB, cmd, count=1)
            t0 = time.time()
            try:
                p = subprocess.run(line, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=180)
                rc, out = p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired:
                rc, out = None, "timed out after 180 s"
            ran += 1
            missing = []
            if shown and re.match(r"(\./)?bulkbench report\s", cmd):
                missing = [s for s in shown if s.strip() not in out]
            ok = rc == code and not missing
            what = f"{rel(d)}: `{cmd}` exits {code}" + (" and prints what the page shows" if shown and not missing and re.match(r"(\./)?bulkbench report\s", cmd) else "")
            tap(ok, f"{what} ({time.time() - t0:.1f} s)",
                (f"exit {rc}\n" + out) if rc != code else "not printed:\n" + "\n".join(missing))
        subprocess.run(["rm", "-rf", work])
    print(f"# {ran} commands ran, {skipped} skipped, in {time.time() - t_all:.1f} s")


def command_options():
    """{command: options its --help lists}, from `bulkbench help` and each `bulkbench COMMAND --help`."""
    top = subprocess.run([BB, "help"], capture_output=True, text=True, timeout=60).stdout
    out = {}
    for c in re.findall(r"^  ([a-z]+) ", top, re.M):
        h = subprocess.run([BB, c, "--help"], capture_output=True, text=True, timeout=60).stdout
        out[c] = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", h)) | ({"-o"} if re.search(r"(?m)^\s+-o\b", h) else set())
    return out


def script_options(path):
    """The options a script declares (`bulkbench help SCRIPT --engine=E`, each engine: a
    library option such as --distributed_by is listed where the engine takes it), or none."""
    if not os.path.isfile(path):
        return set()
    out = set()
    for e in descriptors.engines(BB):
        h = subprocess.run([BB, "help", path, "--engine=" + e], capture_output=True, text=True, timeout=60).stdout
        out |= set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9_-]*)", h))
    return out


def new_scenario_options():
    """The options every scenario `bulkbench new` writes takes (--into, --no-triggers...): of
    one written from a small CSV, no server needed."""
    work = tempfile.mkdtemp(prefix="bbdocs.", dir=os.environ.get("BB_TEST_TMP"))
    with open(os.path.join(work, "t.csv"), "w") as f:
        f.write("id,name\n1,a\n2,b\n")
    subprocess.run([BB, "new", "t.csv", "--header", "-o", "t.lua"], cwd=work, capture_output=True, timeout=60)
    out = script_options(os.path.join(work, "t.lua"))
    subprocess.run(["rm", "-rf", work])
    return out


def check_named():
    """Every `bulkbench COMMAND` a code block of the README and docs/ shows is a command, and
    every --option on its line one that command takes (or the workloads script it runs), server
    or not; every `--option` the prose names in backquotes one some command or script takes."""
    opts = command_options()
    every = set().union(*opts.values())
    scripts = new_scenario_options()
    for w in glob.glob(os.path.join(ROOT, "workloads", "*.lua")):
        scripts |= script_options(w)
    # contrib/dbctl's, contrib/docref.py's and mpirun's own
    others = {"--tls", "--memory", "--check", "--allow-run-as-root", "--oversubscribe"}
    bad = []
    for d in docs():
        text = open(d).read()
        for lang, lines in blocks(text):
            for k, line in enumerate(lines):
                m = re.match(r"\s*(?:\$\s+)?(?:\./)?bulkbench\s+([a-z][\w-]*)(.*)", line)
                if not m or PLACEHOLDER.search(line):
                    continue
                if k + 1 < len(lines) and lines[k + 1].lstrip().startswith("bulkbench: "):
                    continue  # a transcript of the error a wrong option gets, on purpose
                cmd, rest = m.group(1), m.group(2).split("#")[0]
                if cmd not in opts:
                    if not cmd.endswith(".lua"):
                        bad.append(f"{rel(d)}: `bulkbench {cmd}`: no such command")
                    continue
                allowed = opts[cmd] | scripts
                for o in re.findall(r"(?<![\w-])(--[a-z][a-z0-9_-]*)", rest):
                    if o not in allowed:
                        bad.append(f"{rel(d)}: `bulkbench {cmd} ... {o}`: not an option of {cmd}")
        prose = "\n".join(l for l in text.splitlines() if not l.startswith(("    ", "\t")))
        for code in re.findall(r"`(--[a-z][a-z0-9_-]*)(?:[=\[ ][^`]*)?`", prose):
            if code not in every and code not in scripts and code not in others:
                bad.append(f"{rel(d)}: `{code}`: no command or workload takes it")
    tap(not bad, "every command and option the README and docs/ name is one bulkbench takes", "\n".join(sorted(set(bad))))


def check_inside():
    """Nothing the README and docs/ point at lies outside the repository: no path that climbs
    out of it, no path of a development machine."""
    bad = []
    for d in docs():
        for i, line in enumerate(open(d).read().splitlines(), 1):
            for p in re.findall(r"(?:\.\./)+[\w./-]+", line):
                full = os.path.normpath(os.path.join(os.path.dirname(d), p))
                if not full.startswith(ROOT + os.sep) or not os.path.exists(full):
                    bad.append(f"{rel(d)}:{i}: {p} (outside the repository)")
            for p in re.findall(r"\bshared/(?:acceptance|seeds)\b[\w./-]*", line):
                bad.append(f"{rel(d)}:{i}: {p} (the project's own files, not the repository's)")
            for p in re.findall(r"(?<![\w.])/(?:home|root|work|Users|mnt/c)/[\w./-]+", line):
                bad.append(f"{rel(d)}:{i}: {p} (a path of one machine)")
    tap(not bad, "the README and docs/ point only inside the repository", "\n".join(bad))


# DOCS_CHECKS="methods reference" runs only those (tests/new_engine.sh: what an engine added changes)
CHECKS = {"links": check_links, "inside": check_inside, "named": check_named, "paths": check_paths,
          "methods": check_methods, "generators": check_generators, "reference": check_reference,
          "commands": check_commands}
for name in os.environ.get("DOCS_CHECKS", " ".join(CHECKS)).split():
    CHECKS[name]()
print(f"1..{n}")
sys.exit(1 if failed else 0)
