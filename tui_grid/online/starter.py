"""The server's side of the session starter (online.zygote): start it, ask it for sessions,
hear when they end. Nothing here blocks the event loop: the socket is non-blocking and
each message is one datagram of a `SOCK_SEQPACKET` pair."""

from __future__ import annotations

import array
import asyncio
import itertools
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any, Callable

import tui_grid
from tui_grid.online.zygote import MAX_MESSAGE, SessionSpec, encode


class StarterError(Exception):
    """No session could be started (the starter is not running, or refused)."""


class SessionStarter:
    def __init__(self, log: Callable[[str], None], start_seconds: float = 30.0) -> None:
        self.log = log
        self.start_seconds = start_seconds
        self._process: asyncio.subprocess.Process | None = None
        self._sock: socket.socket | None = None
        self._ready: asyncio.Future[None] | None = None
        self._pending: dict[int, asyncio.Future[int]] = {}
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._ids = itertools.count(1)
        self._starting: asyncio.Task[None] | None = None
        self.closed = False

    # --- life -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the warm process (if it is not running) and wait until it is ready."""
        if self.closed:
            raise StarterError("the server is stopping")
        if self._starting is None or (self._starting.done() and not self._running()):
            self._starting = asyncio.get_running_loop().create_task(self._launch())
        try:
            await asyncio.wait_for(asyncio.shield(self._starting), self.start_seconds)
        except asyncio.TimeoutError:
            raise StarterError("sessions are still being prepared") from None

    def _running(self) -> bool:
        return self._sock is not None and self._ready is not None and self._ready.done() and not self._ready.exception()

    async def _launch(self) -> None:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        root = str(Path(tui_grid.__file__).resolve().parent.parent)
        code = f"import sys; sys.path.insert(0, {root!r}); from tui_grid.online.zygote import main; main({theirs.fileno()})"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "TERM": "xterm-256color", "TUI_GRID_REMOTE": "1", "HOME": os.environ.get("HOME", "/")}
        for name in ("XDG_CACHE_HOME", "CC"):  # where the compiled kernels are kept, and built with
            if name in os.environ:
                env[name] = os.environ[name]
        try:
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-I", "-c", code, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),), env=env, cwd="/")
        finally:
            theirs.close()
        ours.setblocking(False)
        self._sock = ours
        self._ready = loop.create_future()
        loop.add_reader(ours.fileno(), self._readable)
        started = loop.time()
        await self._ready
        self.log(f"sessions ready (the starter took {loop.time() - started:.1f} s)")

    async def stop(self) -> None:
        """Close, and wait (briefly) until the starter process is gone."""
        self.close()
        if self._process is not None:
            try:
                await asyncio.wait_for(self._process.wait(), 5.0)
            except asyncio.TimeoutError:
                pass

    def close(self) -> None:
        self.closed = True
        self._lost("the server is stopping")
        if self._process is not None and self._process.returncode is None:
            try:
                self._process.kill()
            except ProcessLookupError:
                pass

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
        return future

    def forget(self, pid: int) -> None:
        self._exits.pop(pid, None)

    def kill(self, pid: int) -> None:
        """End the session's whole process group (the starter does it: it alone knows the
        group is still that session's)."""
        if self._running():
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
        if op == "ready" and self._ready is not None and not self._ready.done():
            self._ready.set_result(None)
        elif op == "spawned":
            future = self._pending.get(message.get("id", -1))
            if future is not None and not future.done():
                future.set_result(int(message["pid"]))
        elif op == "failed":
            future = self._pending.get(message.get("id", -1))
            if future is not None and not future.done():
                future.set_exception(StarterError(str(message.get("error", "failed"))))
        elif op == "exited":
            future = self.exited(int(message["pid"]))
            if not future.done():
                future.set_result(int(message.get("code", -1)))

    def _lost(self, why: str) -> None:
        """The starter is gone: every wait ends; the next spawn starts a new one."""
        sock, self._sock = self._sock, None
        if sock is not None:
            try:
                asyncio.get_running_loop().remove_reader(sock.fileno())
            except RuntimeError:
                pass
            sock.close()
            if not self.closed:
                self.log(why)
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(StarterError(why))
            self._ready.exception()  # retrieved: the waiter sees it through the task
        for future in [*self._pending.values(), *self._exits.values()]:
            if not future.done():
                if future in self._pending.values():
                    future.set_exception(StarterError(why))
                else:
                    future.set_result(-1)
        self._starting = None
        if self._process is not None and self._process.returncode is None:
            try:
                self._process.kill()
            except ProcessLookupError:
                pass
