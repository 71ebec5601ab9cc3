"""The server's side of the session starter (online.zygote): start it, ask it for sessions,
hear when they end. Nothing here blocks the event loop: the socket is non-blocking and
each message is one datagram of a `SOCK_SEQPACKET` pair.

The starter is a plain process, not tied to an event loop: the loop that uses it attaches
to its socket (`start`), so one starter may outlive a loop (tests share one per process).
"""

from __future__ import annotations

import array
import asyncio
import itertools
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import tui_grid
from tui_grid.online.spawning import MAX_MESSAGE, SessionSpec, encode

#: Exit codes kept for sessions nobody asked about yet, at most.
MAX_KEPT_EXITS = 10_000


class StarterError(Exception):
    """No session could be started (the starter is not running, or refused)."""


class SessionStarter:
    def __init__(self, log: Callable[[str], None], start_seconds: float = 30.0) -> None:
        self.log = log
        self.start_seconds = start_seconds
        self._process: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.ready = False
        self._waiting_ready: list[asyncio.Future[None]] = []
        self._pending: dict[int, asyncio.Future[int]] = {}
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._codes: dict[int, int] = {}  # exits heard before anyone asked
        self._ids = itertools.count(1)
        self._launched_at = 0.0
        self.closed = False

    # --- life -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the warm process (if it is not running), attach this loop to it, and wait
        until it is ready."""
        if self.closed:
            raise StarterError("the server is stopping")
        loop = asyncio.get_running_loop()
        if self._process is None or self._process.poll() is not None or self._sock is None:
            self._launch()
        if self._loop is not loop:
            self._attach(loop)
        if self.ready:
            return
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiting_ready.append(waiter)
        try:
            await asyncio.wait_for(waiter, self.start_seconds)
        except asyncio.TimeoutError:
            raise StarterError("sessions are still being prepared") from None

    def _launch(self) -> None:
        self._lost("")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        root = str(Path(tui_grid.__file__).resolve().parent.parent)
        code = f"import sys; sys.path.insert(0, {root!r}); from tui_grid.online.zygote import main; main({theirs.fileno()})"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "TERM": "xterm-256color", "TUI_GRID_REMOTE": "1", "HOME": os.environ.get("HOME", "/")}
        for name in ("XDG_CACHE_HOME", "CC"):  # where the compiled kernels are kept, and built with
            if name in os.environ:
                env[name] = os.environ[name]
        try:
            self._process = subprocess.Popen([sys.executable, "-I", "-c", code], stdin=subprocess.DEVNULL,
                                             stdout=subprocess.DEVNULL, pass_fds=(theirs.fileno(),), env=env, cwd="/")
        except OSError as exc:
            ours.close()
            raise StarterError(f"the session starter could not start ({exc.strerror or exc})") from None
        finally:
            theirs.close()
        ours.setblocking(False)
        self._sock = ours
        self.ready = False
        self._launched_at = asyncio.get_running_loop().time()

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Listen on this loop (the loop that listened before, if any, stops)."""
        self._detach()
        assert self._sock is not None
        self._loop = loop
        loop.add_reader(self._sock.fileno(), self._readable)

    def _detach(self) -> None:
        if self._loop is not None and self._sock is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._sock.fileno())
        self._loop = None
        self._waiting_ready.clear()  # waits of that loop: over with it
        self._pending.clear()
        self._exits.clear()

    def detach(self) -> None:
        """This loop is done with the starter; it keeps running for the next one."""
        self._detach()

    async def stop(self) -> None:
        """Close, and wait (briefly) until the starter process is gone."""
        process = self._process
        self.close()
        if process is not None:
            try:
                await asyncio.wait_for(asyncio.to_thread(process.wait), 5.0)
            except asyncio.TimeoutError:
                pass

    def close(self) -> None:
        self.closed = True
        self._lost("the server is stopping")
        self._detach()
        if self._process is not None and self._process.poll() is None:
            self._process.kill()

    # --- asking -----------------------------------------------------------------------------
    async def spawn(self, spec: SessionSpec, terminal: int, hub: int | None = None) -> int:
        """Start a session on `terminal` (and `hub`); its pid. The descriptors stay ours
        to close. Raises StarterError."""
        await self.start()
        ident = next(self._ids)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        fds = [terminal] + ([hub] if hub is not None else [])
        try:
            await self._send({"op": "spawn", "id": ident, "spec": spec.to_wire()}, fds)
            return await asyncio.wait_for(asyncio.shield(future), self.start_seconds)
        except asyncio.TimeoutError:
            raise StarterError("the session starter did not answer") from None
        finally:
            self._pending.pop(ident, None)

    def exited(self, pid: int) -> asyncio.Future[int]:
        """Resolves to the session's exit code when it ends (-1 when the starter is gone)."""
        future = self._exits.get(pid)
        if future is None:
            future = self._exits[pid] = asyncio.get_running_loop().create_future()
            if pid in self._codes:
                future.set_result(self._codes.pop(pid))
        return future

    def forget(self, pid: int) -> None:
        self._exits.pop(pid, None)
        self._codes.pop(pid, None)

    def kill(self, pid: int) -> None:
        """End the session's whole process group (the starter does it: it alone knows the
        group is still that session's)."""
        if self._sock is not None and self.ready:
            asyncio.get_running_loop().create_task(self._quietly({"op": "kill", "pid": pid}))

    async def _quietly(self, message: dict[str, Any]) -> None:
        try:
            await self._send(message, [])
        except StarterError:
            pass

    async def _send(self, message: dict[str, Any], fds: list[int]) -> None:
        sock = self._sock
        if sock is None:
            raise StarterError("the session starter is not running")
        data = encode(message)
        ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock.sendmsg([data], ancillary)
                return
            except BlockingIOError:
                writable = loop.create_future()
                loop.add_writer(sock.fileno(), lambda: writable.done() or writable.set_result(None))
                try:
                    await asyncio.wait_for(writable, self.start_seconds)
                except asyncio.TimeoutError:
                    raise StarterError("the session starter is not reading") from None
                finally:
                    loop.remove_writer(sock.fileno())
            except OSError as exc:
                self._lost(f"the session starter went away ({exc.strerror or exc})")
                raise StarterError("the session starter went away") from None

    # --- hearing ----------------------------------------------------------------------------
    def _readable(self) -> None:
        sock = self._sock
        while sock is not None:
            try:
                data = sock.recv(MAX_MESSAGE)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost("the session starter stopped")
                return
            try:
                message = json.loads(data)
            except ValueError:
                continue
            self._heard(message)

    def _heard(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "ready":
            self.ready = True
            if self._loop is not None:
                self.log(f"sessions ready (the starter took {self._loop.time() - self._launched_at:.1f} s)")
            for waiter in self._waiting_ready:
                if not waiter.done():
                    waiter.set_result(None)
            self._waiting_ready.clear()
        elif op == "spawned":
            future = self._pending.get(message.get("id", -1))
            if future is not None and not future.done():
                future.set_result(int(message["pid"]))
        elif op == "failed":
            future = self._pending.get(message.get("id", -1))
            if future is not None and not future.done():
                future.set_exception(StarterError(str(message.get("error", "failed"))))
        elif op == "exited":
            pid, code = int(message["pid"]), int(message.get("code", -1))
            future = self._exits.get(pid)
            if future is not None:
                if not future.done():
                    future.set_result(code)
            elif len(self._codes) < MAX_KEPT_EXITS:
                self._codes[pid] = code

    def _lost(self, why: str) -> None:
        """The starter is gone (or replaced): every wait ends; the next start launches anew."""
        sock, self._sock = self._sock, None
        self.ready = False
        if sock is not None:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(sock.fileno())
            self._loop = None
            sock.close()
            if why and not self.closed:
                self.log(why)
        for waiter in self._waiting_ready:
            if not waiter.done():
                waiter.set_exception(StarterError(why or "the session starter stopped"))
        self._waiting_ready.clear()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(StarterError(why or "the session starter stopped"))
        for future in self._exits.values():
            if not future.done():
                future.set_result(-1)
        self._codes.clear()
        if self._process is not None and self._process.poll() is None:
            self._process.kill()  # reaped by the next `start` or by `stop`
