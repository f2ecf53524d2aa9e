"""The headless Chromium harness of the browser tests (test_report_browser.py,
test_report_agents_browser.py): driven over the DevTools protocol on a pipe
(`--remote-debugging-pipe`: it reads commands on fd 3 and writes replies and events on
fd 4, each message one JSON text ended by NUL), so no package beyond the standard library
is needed. The `browser` and `artifacts` fixtures are in conftest.py."""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
    "--remote-debugging-pipe",
]
WIDTH = 1280
TIMEOUT = 60.0

PAGE_FACTS = """(() => {
  const size = e => { const r = e.getBoundingClientRect();
                      return {x: r.left + scrollX, y: r.top + scrollY,
                              w: r.width, h: r.height}; };
  return {
    title: document.title,
    figures: [...document.querySelectorAll('figure')].map(f => ({
      id: f.id, svgs: [...f.querySelectorAll('svg')].map(size),
      imgs: [...f.querySelectorAll('img')].map(i => ({...size(i), loaded: i.complete
                                                       && i.naturalWidth > 0}))})),
    svgs: document.querySelectorAll('svg').length,
    imgs: document.images.length,
    headings: [...document.querySelectorAll('h2, h3')].map(h => h.textContent),
    tables: document.querySelectorAll('table').length,
    warnings: [...document.querySelectorAll('.warn')].map(w => w.textContent),
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: innerWidth,
  };
})()"""


class Chromium:
    """A headless Chromium and one page, over the DevTools protocol on a pipe."""

    def __init__(self, workdir: Path) -> None:
        self.log_path = workdir / "chromium.log"
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def as_fd_3_and_4() -> None:  # in the child: fd 3 = commands in, fd 4 = replies out
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [str(CHROMIUM), *FLAGS, f"--user-data-dir={workdir / 'profile'}", "about:blank"],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                close_fds=False,
                preexec_fn=as_fd_3_and_4,
            )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def _read(self) -> None:
        buffer = b""
        while chunk := os.read(self._from_browser, 1 << 16):
            buffer += chunk
            *complete, buffer = buffer.split(b"\0")
            for message in complete:
                self._messages.put(json.loads(message))
        self._messages.put(None)  # the browser closed its end

    def _next(self, deadline: float) -> dict[str, Any]:
        try:
            message = self._messages.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError("Chromium did not answer in time") from None
        if message is None:
            raise RuntimeError(f"Chromium exited; its log: {self.log_tail()}")
        return message

    def send(
        self, method: str, params: dict[str, Any] | None = None, session: bool = True
    ) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._next(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_for(self, method: str) -> dict[str, Any]:
        for seen in self.events:
            if seen.get("method") == method:
                self.events.remove(seen)
                return seen
        deadline = time.monotonic() + TIMEOUT
        while True:
            event = self._next(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def open_page(self, height: int = 900) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.send(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True},
            session=False,
        )["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    def load(self, url: str) -> None:
        self.events.clear()
        self.send("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        assert "exceptionDetails" not in result, result
        return result["result"]["value"]

    def screenshot(self) -> bytes:
        size = self.send("Page.getLayoutMetrics")["cssContentSize"]
        shot = self.send(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {
                    "x": 0,
                    "y": 0,
                    "width": size["width"],
                    "height": size["height"],
                    "scale": 1,
                },
            },
        )
        return base64.b64decode(shot["data"])

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, failed loads, and requests
        for anything but the file itself and inline data."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params["type"] in (
                "error",
                "warning",
                "assert",
            ):
                text = " ".join(
                    str(a.get("value", a.get("description"))) for a in params.get("args", [])
                )
                found.append(f"console.{params['type']}: {text}")
            elif method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(
                    f"uncaught: {details.get('exception', {}).get('description')}"
                    f" {details.get('text')}"
                )
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                found.append(
                    f"log {params['entry']['level']}: {params['entry']['text']} "
                    f"{params['entry'].get('url', '')}"
                )
            elif method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if not url.startswith(("file://", "data:", "about:")):
                    found.append(f"request: {url}")
            elif method == "Network.loadingFailed":
                found.append(f"load failed: {params.get('errorText')}")
        return found

    def log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-2000:]

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(RuntimeError, TimeoutError, OSError):
                self.send("Browser.close", session=False)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.close(self._to_browser)
        self._reader.join(timeout=5)
        os.close(self._from_browser)
