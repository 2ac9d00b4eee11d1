"""Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe):
no websocket, no port, nothing but the Python standard library and Debian's chromium.
The HTML report's test (tests/html.py) and `make docs` (contrib/docs.py) use it:

    with Browser() as b:
        page = b.open("/abs/report.html", width=1280)   # loads it; page.errors: console errors
        page.eval("document.title")                     # a JavaScript value
        png = page.screenshot(page.eval(BOX_JS))        # PNG bytes of a box {x, y, width, height}
        w, h, pixels = decode_png(png)                  # rows of (r, g, b) tuples
"""
import base64
import json
import os
import shutil
import struct
import subprocess
import tempfile
import time
import zlib

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe"]


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("chromium not installed (make deps installs Debian's chromium)")


class Browser:
    """One browser (a fresh profile in a scratch directory) for many pages."""

    def __init__(self, timeout=30):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="bbchrome.")
        to_chrome_r, self._w = os.pipe()  # chromium reads commands on fd 3, writes replies on fd 4
        self._r, from_chrome_w = os.pipe()

        def fds():  # in the child: the pipe ends at 3 and 4, whatever numbers they had here
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.log = open(os.path.join(self.profile, "chromium.log"), "w")
        self.proc = subprocess.Popen([chromium()] + FLAGS + ["--user-data-dir=" + self.profile, "about:blank"],
                                     pass_fds=(3, 4), preexec_fn=fds, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf, self._n, self.events = b"", 0, []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send("Browser.close", {}, None)
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _send(self, method, params, session):
        self._n += 1
        msg = {"id": self._n, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        return self._n

    def _recv(self, deadline):
        while b"\0" not in self._buf:
            if time.time() > deadline:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium exited (see its log: %s)" % self.log.name)
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        """A command's result; events that come meanwhile are kept in self.events."""
        n = self._send(method, params or {}, session)
        deadline = time.time() + self.timeout
        while True:
            msg = self._recv(deadline)
            if msg.get("id") == n:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"].get("message")))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, name, session, deadline):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == name and e.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._recv(deadline))

    def open(self, path, width=1280, height=900):
        """A new tab of width x height CSS pixels showing the file at path, loaded."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, target, session)
        for domain in ("Runtime", "Log", "Page"):
            self.call(domain + ".enable", {}, session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}, session)
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session)
        self.wait_event("Page.loadEventFired", session, time.time() + self.timeout)
        return page


class Page:
    def __init__(self, browser, target, session):
        self.b, self.target, self.session = browser, target, session

    @property
    def errors(self):
        """Console errors, uncaught exceptions and error log entries (a refused load, a CSP
        violation) so far, as text."""
        out = []
        for e in self.b.events:
            if e.get("sessionId") != self.session:
                continue
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: %s" % (d.get("exception", {}).get("description") or d.get("text")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console.%s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description")))
                                                                    for a in p.get("args", []))))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: %s %s" % (p["entry"].get("text"), p["entry"].get("url", "")))
        return out

    def eval(self, expression):
        r = self.b.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True}, self.session)
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expression[:60], r["exceptionDetails"].get("text")))
        return r["result"].get("value")

    def screenshot(self, box=None, scale=1):
        """PNG bytes of the page's box {x, y, width, height} (document coordinates) drawn
        at scale, or of what the window shows."""
        params = {"format": "png"}
        if box:
            params["clip"] = dict(box, scale=scale)
            params["captureBeyondViewport"] = True
        return base64.b64decode(self.b.call("Page.captureScreenshot", params, self.session)["data"])

    def close(self):
        self.b.call("Target.closeTarget", {"targetId": self.target})


def decode_png(data):
    """(width, height, rows): rows of (r, g, b) tuples of an 8-bit RGB or RGBA PNG, as
    Chromium writes them (no interlace)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    if depth != 8 or interlace or ctype not in (2, 6):
        raise ValueError("PNG of depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), w * bpp
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif f == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a, b = (line[x - bpp] if x >= bpp else 0), prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return w, h, rows
