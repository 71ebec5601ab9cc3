"""`tui-grid serve web`: the app in a real headless browser (Chromium from the system's
packages, driven over the DevTools protocol): the menu arrives, and a key typed into the
page reaches the app. Skipped where no Chromium is installed."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[PX^_].*?\x1b\\\\|\x1b.")

#: Runs in the page before its own scripts: keeps what the app sends to the browser.
RECORD = """
(() => {
  const Original = window.WebSocket;
  window.__received = [];
  function Recorded(...args) {
    const socket = new Original(...args);
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") return;
      const bytes = event.data instanceof Blob ? event.data.arrayBuffer() : Promise.resolve(event.data);
      bytes.then((buffer) => window.__received.push(new TextDecoder().decode(buffer)));
    });
    return socket;
  }
  Recorded.prototype = Original.prototype;
  Object.assign(Recorded, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Recorded;
})();
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(process: subprocess.Popen) -> None:  # type: ignore[type-arg]
    """The process and everything it started (each tab's app) are gone."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(5)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    else:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class DevTools:
    """The least of the DevTools protocol this test needs."""

    def __init__(self, socket) -> None:  # type: ignore[no-untyped-def]
        self.socket = socket
        self.number = 0

    async def call(self, method: str, **params) -> dict:  # type: ignore[no-untyped-def]
        self.number += 1
        await self.socket.send_str(json.dumps({"id": self.number, "method": method, "params": params}))
        while True:
            message = json.loads((await self.socket.receive()).data)
            if message.get("id") == self.number:
                return message.get("result", {})

    async def text(self) -> str:
        result = await self.call("Runtime.evaluate", expression="window.__received.join('')", returnByValue=True)
        return ANSI.sub("", result["result"].get("value", ""))

    async def until(self, words: str, limit: float = 30.0) -> str:
        deadline = time.monotonic() + limit
        text = ""
        while time.monotonic() < deadline:
            text = await self.text()
            if words in text:
                return text
            await asyncio.sleep(0.2)
        raise AssertionError(f"{words!r} never arrived; got {text[-400:]!r}")


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (Debian: apt install chromium)")
async def test_the_menu_renders_in_a_browser_and_a_key_works(tmp_path: Path) -> None:
    import aiohttp

    port = free_port()
    env = {**os.environ, "TUI_GRID_DATA": str(tmp_path / "data")}
    server = subprocess.Popen([sys.executable, "-m", "tui_grid", "serve", "web", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True, env=env)
    browser = None
    try:
        assert "serving the app" in server.stderr.readline().decode()
        profile = tmp_path / "profile"
        browser = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                    f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (active.exists() and len(active.read_text().split()) == 2) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        devtools_port = int(active.read_text().split()[0])
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{devtools_port}/json/list") as response:
                page = next(target for target in await response.json() if target["type"] == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws)
                await tools.call("Page.enable")
                await tools.call("Page.addScriptToEvaluateOnNewDocument", source=RECORD)
                await tools.call("Emulation.setDeviceMetricsOverride", width=1100, height=700, deviceScaleFactor=1, mobile=False)
                await tools.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
                await tools.until("enter picks a game")  # the menu, drawn by the app in the page's terminal
                await tools.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
                for kind in ("keyDown", "keyUp"):
                    await tools.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter",
                                     windowsVirtualKeyCode=13, nativeVirtualKeyCode=13, **({"text": "\r"} if kind == "keyDown" else {}))
                await tools.until("pick a board")  # enter opened the first game's boards
    finally:
        if browser is not None:
            stop(browser)
        stop(server)
