"""Every process an external program started, found and killed with it.

A program runs in its own process group, but anything it starts with `setsid` (or a
double fork) leaves that group and, once its parent dies, is adopted by init: killing the
group misses it. So each program is started with a token in its environment
(`TUI_GRID_PROGRAM=<random>`), which its descendants inherit, and `kill_tree` finds its
processes two ways, from one scan of `/proc` at a time:

* every process whose parent chain leads to the program (a snapshot of the ppid tree),
* every process of ours whose `/proc/PID/environ` carries the token (setsid, double fork,
  adopted by init).

It first freezes what it finds with SIGSTOP, scanning again until a scan finds nothing
new (a stopped process cannot fork, and a child forked before the stop is visible by the
next scan, so the tree stays whole), then sends SIGKILL to all of them. Each signal goes
through a pidfd opened after checking the process's start time, so a number reused by an
unrelated process is never hit. Nothing is waited for here: a killed descendant is its
own parent's to reap (or init's), and the program itself is its `Popen`'s. This never
calls `waitpid`, so it cannot steal a status from `subprocess`.

Where there is no `/proc` (not Linux), `kill_tree` does nothing and the caller's
process-group kill is all there is. Stdlib only, and nothing is done at import.

Not caught: a descendant that both drops the token (starts with a fresh environment)
and is orphaned before a scan sees it, or one that rewrites its own environment block.
"""

from __future__ import annotations

import os
import signal
import time

ENV_VAR = "TUI_GRID_PROGRAM"
#: Freeze rounds at most (each one a scan of /proc); two are the rule.
MAX_ROUNDS = 64
#: Rescans, 2 ms apart, while a new process shows an empty environment (in the middle of
#: an exec its new one is not set up yet) and might turn out to carry the token.
EXEC_WAITS = 25
#: The kernel-thread flag in /proc/PID/stat: never a program's.
PF_KTHREAD = 0x00200000
PROC = "/proc"

_SIGSTOP = getattr(signal, "SIGSTOP", None)
_SIGKILL = getattr(signal, "SIGKILL", None)


def new_token() -> str:
    """A fresh token for one program's environment."""
    return os.urandom(8).hex()


def available() -> bool:
    """Whether processes can be found here (Linux with /proc mounted)."""
    return _SIGKILL is not None and os.path.isfile(f"{PROC}/self/stat")


def _read(path: str, limit: int = 1 << 20) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        parts = []
        size = 0
        while size < limit:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
        return b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


def _stat_fields(pid: int) -> list[bytes] | None:
    """The fields of /proc/PID/stat after the command name (state is [0], ppid [1],
    num_threads [17], starttime [19]), or None if it is gone."""
    data = _read(f"{PROC}/{pid}/stat", 4096)
    if not data:
        return None
    fields = data[data.rfind(b")") + 2 :].split()
    return fields if len(fields) > 19 else None


def _start_time(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[19]) if fields is not None else None


def _snapshot(marker: bytes | None, since: int = 0) -> tuple[dict[int, tuple[int, int]], set[int], set[int]]:
    """pid -> (ppid, start time) of every live process but this one; among those started
    at `since` or later (clock ticks), the pids whose environment holds `marker` and the
    pids whose environment is empty (in the middle of an exec, or started without one)."""
    me = os.getpid()
    procs: dict[int, tuple[int, int]] = {}
    marked: set[int] = set()
    unsure: set[int] = set()
    try:
        names = os.listdir(PROC)
    except OSError:
        return procs, marked, unsure
    for name in names:
        if not name.isdigit():
            continue
        pid = int(name)
        if pid == me:
            continue
        fields = _stat_fields(pid)
        if fields is None or fields[0] in (b"Z", b"X", b"x") or int(fields[6]) & PF_KTHREAD:
            continue  # gone, a zombie (dead already, its parent's to reap), a kernel thread
        start = int(fields[19])
        procs[pid] = (int(fields[1]), start)
        if marker is not None and start >= since:  # older ones cannot descend from the program
            environ = _read(f"{PROC}/{pid}/environ")  # unreadable for other users: not ours
            if environ is None:
                continue
            if not environ:
                unsure.add(pid)
            elif marker in b"\0" + environ + b"\0":
                marked.add(pid)
    return procs, marked, unsure


def _send(pid: int, start: int, sig: int) -> bool:
    """Signal `pid` if it is still the process that started at `start`."""
    pidfd_open = getattr(os, "pidfd_open", None)
    fd = None
    if pidfd_open is not None:
        try:
            fd = pidfd_open(pid)
        except ProcessLookupError:
            return False
        except OSError:
            fd = None  # no pidfd support in this kernel: check, then signal by number
    try:
        if _start_time(pid) != start:
            return False
        if fd is not None:
            signal.pidfd_send_signal(fd, sig)
        else:
            os.kill(pid, sig)
        return True
    except OSError:
        return False
    finally:
        if fd is not None:
            os.close(fd)


def _descendants(roots: list[int], procs: dict[int, tuple[int, int]]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in procs.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    stack = list(roots)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def start_time(pid: int) -> int:
    """When `pid` started, in clock ticks since boot (0 if unknown): `kill_tree`'s `since`."""
    return _start_time(pid) or 0 if available() else 0


def kill_tree(root: int | None, token: str | None, since: int = 0) -> list[int]:
    """SIGKILL `root` and every process descended from it or carrying `token`; returns
    the pids killed other than `root`. `root` must be a child of this process not yet
    reaped (so its number is still its own); None when it has been reaped already, and
    then only the token finds the rest. `since`: the program's `start_time`, so that
    older processes' environments need not be read. Does nothing where `/proc` is missing (but kill
    `root`)."""
    if _SIGKILL is None or _SIGSTOP is None:
        return []
    if root is not None:
        try:
            os.kill(root, _SIGSTOP)
        except OSError:
            pass
    if not available() or (root is None and not token):
        _kill_root(root)
        return []
    marker = f"\0{ENV_VAR}={token}\0".encode() if token else None
    tried: dict[int, int] = {}  # pid -> start time, every process signalled or tried
    stopped: dict[int, int] = {}
    roots = [] if root is None else [root]
    waits = 0
    for _ in range(MAX_ROUNDS):
        procs, marked, unsure = _snapshot(marker, since)
        found = marked | _descendants([*roots, *stopped], procs)
        found.difference_update(roots)
        new = [pid for pid in found if tried.get(pid) != procs[pid][1]]
        if not new:
            if not (unsure - found) or waits >= EXEC_WAITS:
                break
            waits += 1  # one may be a descendant in mid-exec: look again in a moment
            time.sleep(0.002)
            continue
        for pid in new:
            start = procs[pid][1]
            tried[pid] = start
            if _send(pid, start, _SIGSTOP):
                stopped[pid] = start
    for pid, start in stopped.items():
        _send(pid, start, _SIGKILL)
    _kill_root(root)
    return sorted(stopped)


def _kill_root(root: int | None) -> None:
    if root is None:
        return
    try:
        os.kill(root, _SIGKILL)  # type: ignore[arg-type]
    except OSError:
        pass


# --- how many tasks this user runs (for RLIMIT_NPROC, which counts threads too) ----------------
_tasks_cache: tuple[float, int] | None = None


def user_tasks(max_age: float = 1.0) -> int | None:
    """Processes and threads of this real user now (cached for `max_age` seconds), or None
    where that cannot be counted."""
    global _tasks_cache
    now = time.monotonic()
    if _tasks_cache is not None and now - _tasks_cache[0] < max_age:
        return _tasks_cache[1]
    if not available():
        return None
    uid = os.getuid()
    total = 0
    try:
        names = os.listdir(PROC)
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        data = _read(f"{PROC}/{name}/status", 16384)
        if not data:
            continue
        real = threads = None
        for line in data.split(b"\n"):
            if line.startswith(b"Uid:"):
                real = int(line.split()[1])
            elif line.startswith(b"Threads:"):
                threads = int(line.split()[1])
                break
        if real == uid and threads:
            total += threads
    _tasks_cache = (now, total)
    return total
