#!/usr/bin/env python3
"""The engines' descriptors as the tests read them: `bulkbench list --engines --format=json`
(drivers/driver.h says what each field means), so no test names an engine.

  import descriptors; descriptors.engines()       the descriptors, a dict by name
  descriptors.server_engines()                    the engines whose runs need a server
  descriptors.needs_server(text)                  whether a command line reaches a server
  descriptors.documented(name)                    whether the docs must show the engine yet
  python3 tests/descriptors.py names              the engines, one line
  python3 tests/descriptors.py servers            the engines that need a server, one line
  python3 tests/descriptors.py servers-needed     the servers they need (contrib/dbctl start NAME), one line
  python3 tests/descriptors.py shell              one line per engine, tab-separated, "-" for none:
                                                  NAME SERVERS DSN_ENV TEST_DSN TEST_TARGETS CLIENT TEST_SETUP METHODS
  python3 tests/descriptors.py setups             each engine's test_setup, one a line
"""
import functools, json, os, re, subprocess, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


@functools.lru_cache(None)
def engines(bb=os.path.join(ROOT, "bulkbench")):
    out = subprocess.run([bb, "list", "--engines", "--format=json"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"bulkbench list --engines --format=json failed: {out.stderr.strip()}")
    return {e["name"]: e for e in json.loads(out.stdout)}


def server_engines():
    return sorted(n for n, e in engines().items() if e["servers"])


@functools.lru_cache(None)
def _server_pattern():
    names = "|".join(map(re.escape, server_engines())) or "(?!)"
    # the URI schemes of those engines' DSN forms (postgresql://)
    schemes = {s for n in server_engines() for s in re.findall(r"([a-z]+)://", engines()[n]["dsn_help"] or "")}
    uris = "|".join(re.escape(s) + "://" for s in sorted(schemes)) or "(?!)"
    # an engine that needs a server, a DSN in one's form, a server's DSN variable, or a host
    # list: what a run without servers cannot do
    return re.compile(r"--engine=\S*\b(%s)\b|\b(%s)|\bBULKBENCH_[A-Z_]*\b|--target=" % (names, uris))


def needs_server(text):
    return bool(_server_pattern().search(text))


@functools.lru_cache(None)
def documented(name):
    """An engine's folder that git tracks: the docs must show it. One not yet added (a copy
    being tried) is left out of the docs checks until it is committed and `make docs` run."""
    p = subprocess.run(["git", "ls-files", "drivers/" + name], cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:  # not a git checkout: the files there are the tree
        return True
    return bool(p.stdout.strip())


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "servers"
    if what == "names":
        print(" ".join(engines()))
    elif what == "servers":
        print(" ".join(server_engines()))
    elif what == "servers-needed":
        print(" ".join(sorted({s for e in engines().values() for s in e["servers"]})))
    elif what == "shell":
        for n, e in engines().items():
            print("\t".join([n, " ".join(e["servers"]) or "-", e["dsn_env"], e["test_dsn"] or "-",
                             e["test_targets"] or "-", e["client"] or "-", e["test_setup"] or "-", " ".join(e["methods"])]))
    elif what == "setups":
        for e in engines().values():
            if e["test_setup"]:
                print(e["test_setup"])
    else:
        sys.exit(f"descriptors.py: servers, shell or setups, not {what}")
