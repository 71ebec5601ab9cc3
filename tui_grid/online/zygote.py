"""The session starter: one warm process that has imported the app and forks one child per
SSH session, so a session's first screen costs a fork and a first draw, not Python's and
Textual's start-up (and the imported code is shared between sessions, counted once).

The server starts it with `python -I` (no working folder or environment on the module
path), from the folder holding this very `tui_grid`. The two speak over a `SOCK_SEQPACKET`
socket pair: one JSON object per message, and with `spawn` the session's terminal (and its
hub link) as passed descriptors. Each child becomes its session before the app starts:
its own process group on its own terminal, limits, lower priority, the player's folder as
working folder and data folder, the session's user where the server runs as root, not
dumpable (no other process of that user may read its memory or environment), and no new
privileges. Then it runs `tui-grid ARGV` and exits with its code.

What the two say to each other is in online.spawning.
"""

from __future__ import annotations

import array
import json
import os
import re
import signal
import socket
import sys
from typing import Any

from tui_grid.online.spawning import HUB_FD, MAX_MESSAGE, SessionSpec, encode

#: Modules only the server uses, never a session: not loaded into sessions (a session uses
#: the lobby's client and its wire from this package).
SERVER_ONLY = tuple(f"tui_grid.online.{name}" for name in (
    "authorized_keys", "cgroup", "hosts", "hub", "limits", "names", "publish", "relay", "ssh_connection", "ssh_server",
    "ssh_session", "spawning", "starter", "store", "users", "zygote")) + ("tui_grid.ui.web",)
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NAME, PR_SET_NO_NEW_PRIVS = 1, 4, 15, 38


def prctl(option: int, value: int) -> bool:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def name_process(name: str) -> None:
    """The name `ps` and `top` show (15 bytes at most)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_NAME, ctypes.c_char_p(name.encode("ascii", "replace")[:15]), 0, 0, 0)
    except (OSError, AttributeError):
        pass


# --- in the starter ------------------------------------------------------------------------

def warm() -> None:
    """Import and prepare everything a session uses, draw the menu once headless (Textual's
    caches), and freeze what is left so forked children share it untouched."""
    import gc
    import importlib
    import pkgutil
    import tempfile

    import tui_grid
    from tui_grid.games.registry import all_games

    names = [module.name for module in pkgutil.walk_packages(tui_grid.__path__, "tui_grid.")
             if not module.name.endswith("__main__") and not module.name.startswith(SERVER_ONLY)]
    for name in [*names, *imported_anywhere(names), "textual.widgets"]:
        try:
            importlib.import_module(name)
        except Exception as exc:  # a module that cannot load here is loaded (and fails) where used
            print(f"tui-grid: session starter: {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
    import textual.widgets

    for widget in textual.widgets.__all__:  # loaded lazily by name: load them all now
        getattr(textual.widgets, widget)
    for game in all_games():
        game.prepare()
    from tui_grid.cli import build_parser

    build_parser()
    with tempfile.TemporaryDirectory(prefix="tui-grid-warm-") as scratch:
        os.environ["TUI_GRID_DATA"] = scratch
        try:
            _draw_menu_once()
        except Exception as exc:
            print(f"tui-grid: session starter: warming the app failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        del os.environ["TUI_GRID_DATA"]
    gc.collect()
    gc.freeze()


#: An import statement, at any indent: `import a, b.c` or `from a.b import c`.
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*))", re.M)


def imported_anywhere(modules: list[str]) -> list[str]:
    """Every module the package's modules import, at the top or inside a function: a session
    imports nothing the starter has not (where sessions run as another user, the Python
    installation may not even be readable to them). Read from the sources (a text scan:
    a name that is not a module fails to import, harmlessly)."""
    import importlib.util

    found: set[str] = set()
    for name in modules:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        with open(spec.origin, encoding="utf-8") as source:
            for match in _IMPORT.finditer(source.read()):
                if match.group(1):
                    found.add(match.group(1))
                else:
                    found.update(part.strip() for part in match.group(2).split(","))
    return sorted(found - set(modules))


def _draw_menu_once() -> None:
    import asyncio

    from tui_grid.ui.app import TuiGridApp

    async def draw() -> None:
        app = TuiGridApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.export_screenshot()  # what f12 needs, loaded

    asyncio.run(draw())


def main(control_fd: int) -> None:
    control = socket.socket(fileno=control_fd)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the server gone (even killed): this goes too
    if os.getppid() == 1:
        return
    name_process("tui-grid start")
    warm()
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(write_end)
    children: set[int] = set()
    control.sendmsg([encode({"op": "ready"})])
    import selectors

    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    selector.register(read_end, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is control:
                try:
                    data, fds = _receive(control)
                except OSError:
                    data, fds = b"", []
                if not data:
                    return  # the server closed its end: no more sessions to start
                try:
                    message = json.loads(data)
                except ValueError:
                    message = {}
                op = message.get("op") if isinstance(message, dict) else None
                if op == "spawn":
                    _spawn(message, fds, control, selector, (read_end, write_end), children)
                else:
                    for fd in fds:
                        os.close(fd)
                    if op == "kill" and message.get("pid") in children:
                        _kill_group(int(message["pid"]))
            else:
                os.read(read_end, 4096)
                _reap(children, control)


def _receive(control: socket.socket) -> tuple[bytes, list[int]]:
    fds = array.array("i")
    data, ancillary, _, _ = control.recvmsg(MAX_MESSAGE, socket.CMSG_LEN(2 * fds.itemsize))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    return data, list(fds)


def _spawn(message: dict[str, Any], fds: list[int], control: socket.socket, selector: Any,
           pipe: tuple[int, int], children: set[int]) -> None:
    ident = message.get("id")
    try:
        spec = SessionSpec.from_wire(message["spec"])
        if not fds:
            raise ValueError("no terminal")
        pid = os.fork()
    except Exception as exc:
        for fd in fds:
            os.close(fd)
        control.sendmsg([encode({"op": "failed", "id": ident, "error": f"{type(exc).__name__}: {exc}"[:300]})])
        return
    if pid == 0:
        code = 70
        try:
            selector.close()
            control.close()
            for fd in pipe:
                os.close(fd)
            code = become_session(spec, fds[0], fds[1] if len(fds) > 1 else None)
        finally:
            os._exit(code)
    for fd in fds:
        os.close(fd)
    children.add(pid)
    control.sendmsg([encode({"op": "spawned", "id": ident, "pid": pid})])


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def _reap(children: set[int], control: socket.socket) -> None:
    """Each child that ended: whatever it left in its group is killed (the leader, a zombie
    until reaped, keeps the group's number from being reused), then it is reaped."""
    while children:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None:
            return
        pid = info.si_pid
        _kill_group(pid)
        _, status = os.waitpid(pid, 0)
        children.discard(pid)
        try:
            control.sendmsg([encode({"op": "exited", "pid": pid, "code": os.waitstatus_to_exitcode(status)})])
        except OSError:
            pass


# --- in a session's child -------------------------------------------------------------------

def become_session(spec: SessionSpec, terminal: int, hub: int | None) -> int:
    """Turn this fresh child into the session `spec` describes, run the app, return its code."""
    try:
        _enter_session(spec, terminal, hub)
    except OSError as exc:  # the player's folder, a limit, the user: one line on the terminal
        os.write(terminal if terminal > 2 else 2, f"\r\ntui-grid: the session could not start ({exc.strerror or exc})\r\n".encode())
        return 71
    return _run_app(spec)


def _enter_session(spec: SessionSpec, terminal: int, hub: int | None) -> None:
    import fcntl
    import resource
    import termios

    signal.set_wakeup_fd(-1)
    for number in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.setsid()
    # The terminal is the session's controlling terminal: when the server's side of it
    # closes, the kernel hangs the app up, so no app outlives its connection.
    fcntl.ioctl(terminal, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(terminal, fd)
    keep = 3
    if hub is not None:
        os.dup2(hub, HUB_FD)
        keep = HUB_FD + 1
    os.closerange(keep, 4096)
    limits = [(resource.RLIMIT_DATA, spec.memory_bytes), (resource.RLIMIT_FSIZE, spec.file_bytes),
              (resource.RLIMIT_NOFILE, spec.open_files), (resource.RLIMIT_CORE, 0)]
    if spec.processes is not None:
        limits.append((resource.RLIMIT_NPROC, spec.processes))
    for kind, value in limits:
        _, hard = resource.getrlimit(kind)
        ceiling = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(kind, (ceiling, ceiling))
    os.nice(spec.niceness)
    if spec.cgroup_procs:
        try:
            with open(spec.cgroup_procs, "w") as procs:
                procs.write("0")
        except OSError:
            pass
    os.umask(0o077)
    os.chdir(spec.folder)
    if spec.uid is not None and spec.gid is not None:
        os.setgroups([])
        os.setgid(spec.gid)
        os.setuid(spec.uid)
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    prctl(PR_SET_DUMPABLE, 0)
    name_process(f"tui-grid {spec.env.get('TUI_GRID_PLAYER', '')}")
    os.environ.clear()
    os.environ.update(spec.env)
    sys.stdin = sys.__stdin__ = open(0, "r", encoding="utf-8", errors="surrogateescape", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.argv = ["tui-grid", *spec.argv]


def _run_app(spec: SessionSpec) -> int:
    from tui_grid.cli import main as app_main

    try:
        return int(app_main(list(spec.argv)) or 0)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:  # the app failed: one line on its own terminal, never more
        try:
            sys.stderr.write(f"\r\ntui-grid: the session failed: {type(exc).__name__}\r\n")
        except Exception:
            pass
        return 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass


if __name__ == "__main__":
    main(int(sys.argv[1]))
