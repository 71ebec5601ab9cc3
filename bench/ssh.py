"""`tui-grid serve ssh` under load: start-up, connection to first screen, keystroke to
screen with concurrent sessions (against the same app on a local pseudo-terminal, the
baseline, measured in the same run), both screens of a Tron match, and sessions held.

    python bench/ssh.py            # 8 typing sessions, 16 held for 10 minutes
    python bench/ssh.py --quick    # a smoke run: 4 typing, 4 held for 20 s

Each session is a real asyncssh client on its own 80x24 terminal; the server is a
separate `tui-grid serve ssh` process with its own data folder. A keystroke's latency is
the time from writing the key to the first bytes of the screen's answer.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pty
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
import pyte

ROOT = Path(__file__).resolve().parent.parent
MENU = b"enter picks a game"
DOWN, UP = b"\x1b[B", b"\x1b[A"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


async def read_until(stream, words: bytes, seconds: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    seen = b""
    deadline = time.monotonic() + seconds
    while words not in seen:
        if time.monotonic() > deadline:
            raise TimeoutError(words)
        try:
            seen += await asyncio.wait_for(stream.read(65536), timeout=1.0)
        except asyncio.TimeoutError:
            continue


async def drain(stream, quiet: float = 0.15) -> None:  # type: ignore[no-untyped-def]
    """Read until the screen has been quiet for `quiet` seconds."""
    while True:
        try:
            if not await asyncio.wait_for(stream.read(65536), timeout=quiet):
                return
        except asyncio.TimeoutError:
            return


async def key_latencies(stream, write, keys: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Press down and up in the menu: seconds from each key to the first bytes back."""
    times = []
    for index in range(keys):
        await drain(stream)
        start = time.perf_counter()
        write(DOWN if index % 2 == 0 else UP)
        await stream.read(65536)
        times.append(time.perf_counter() - start)
    return times


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], int, float]:
    env = {**os.environ, "TUI_GRID_DATA": str(data)}
    start = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "tui_grid", "serve", "ssh", "--port", "0", "--max-per-address", "64"], cwd=ROOT, env=env,
                              stderr=subprocess.PIPE)
    assert server.stderr is not None
    line = server.stderr.readline().decode()
    took = time.perf_counter() - start
    port = int(re.search(r":(\d+) \(auth", line).group(1))  # type: ignore[union-attr]
    os.set_blocking(server.stderr.fileno(), False)
    return server, port, took


async def connect(port: int, name: str, command: str | None = None):  # type: ignore[no-untyped-def]
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, encoding=None)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=(80, 24))
    return conn, process


class LocalApp:
    """The baseline: the same app on a local pseudo-terminal, no SSH."""

    def __init__(self) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update({"TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"})
            os.execv(sys.executable, [sys.executable, "-m", "tui_grid"])
        import fcntl
        import struct
        import termios

        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        asyncio.get_running_loop().add_reader(self.fd, self._readable)

    def _readable(self) -> None:
        try:
            self.queue.put_nowait(os.read(self.fd, 65536))
        except OSError:
            asyncio.get_running_loop().remove_reader(self.fd)
            self.queue.put_nowait(b"")

    async def read(self, size: int) -> bytes:
        return await self.queue.get()

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def close(self) -> None:
        asyncio.get_running_loop().remove_reader(self.fd)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


async def typing(port: int, sessions: int, keys: int) -> tuple[list[float], list[float], list[float]]:
    """Connection to first screen for each session, then every session types at once;
    and the local baseline typing alone and with the same number of apps at once."""
    firsts, latencies = [], []

    async def one(index: int) -> list[float]:
        start = time.perf_counter()
        conn, process = await connect(port, f"typist{index}")
        await read_until(process.stdout, MENU)
        firsts.append(time.perf_counter() - start)
        try:
            return await key_latencies(process.stdout, process.stdin.write, keys)
        finally:
            conn.close()

    for result in await asyncio.gather(*(one(index) for index in range(sessions))):
        latencies += result
    local_apps = [LocalApp() for _ in range(sessions)]
    try:
        await asyncio.gather(*(read_until(app, MENU) for app in local_apps))
        local: list[float] = []
        for result in await asyncio.gather(*(key_latencies(app, app.write, keys) for app in local_apps)):
            local += result
    finally:
        for app in local_apps:
            app.close()
    return firsts, latencies, local


async def tron_ticks(port: int) -> list[float]:
    """Two players meet in the queue; for each tick, how far apart the two screens showed it."""
    screens, seen = [], [{}, {}]
    conns = []
    for side, name in enumerate(("ann", "bob")):
        conn, process = await connect(port, name, "tron")
        conns.append(conn)
        screen = pyte.Screen(80, 24)
        screens.append((process, pyte.ByteStream(screen), screen))
        if side == 0:
            await read_until(process.stdout, b"Waiting for another")

    async def watch(side: int) -> None:
        process, stream, screen = screens[side]
        while True:
            try:
                data = await asyncio.wait_for(process.stdout.read(65536), timeout=10)
            except asyncio.TimeoutError:
                return
            if not data:
                return
            stream.feed(data)
            text = "\n".join(screen.display)
            for tick in re.findall(r"tick (\d+)", text):
                seen[side].setdefault((text.count("round 2/2"), int(tick)), time.perf_counter())
            if "Match over" in text:
                return

    await asyncio.gather(watch(0), watch(1))
    for conn in conns:
        conn.close()
    both = set(seen[0]) & set(seen[1])
    return [abs(seen[0][key] - seen[1][key]) for key in sorted(both)]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def session_pids(server: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"TUI_GRID_PLAYER=holder" in (entry / "environ").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


async def held(port: int, server: int, sessions: int, seconds: float) -> dict[str, tuple[float, float]]:
    """Sessions in the menu for `seconds`, each pressing a key every 2 s: the server's RSS
    and open files, and the sessions' mean RSS, at the start and at the end."""
    clients = [await connect(port, f"holder{index}") for index in range(sessions)]
    await asyncio.gather(*(read_until(process.stdout, MENU) for _, process in clients))

    def look() -> tuple[float, float, float]:
        pids = session_pids(server)
        mean = statistics.mean(rss_kib(pid) for pid in pids) / 1024 if pids else float("nan")
        return rss_kib(server) / 1024, len(os.listdir(f"/proc/{server}/fd")), mean

    before = look()
    end = time.monotonic() + seconds
    index = 0
    while time.monotonic() < end:
        for _, process in clients:
            process.stdin.write(DOWN if index % 2 == 0 else UP)
        index += 1
        await asyncio.sleep(2)
        for _, process in clients:
            await drain(process.stdout, 0.01)
    after = look()
    for conn, _ in clients:
        conn.close()
    return {"server RSS MB": (before[0], after[0]), "server open files": (before[1], after[1]),
            "session RSS MB (mean)": (before[2], after[2])}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--typists", type=int, default=None)
    parser.add_argument("--holders", type=int, default=None)
    parser.add_argument("--hold-seconds", type=float, default=None)
    args = parser.parse_args()
    typists = args.typists or (4 if args.quick else 8)
    holders = args.holders or (4 if args.quick else 16)
    hold = args.hold_seconds or (20.0 if args.quick else 600.0)
    keys = 10 if args.quick else 30
    with tempfile.TemporaryDirectory() as data:
        server, port, startup = start_server(Path(data))
        try:
            firsts, remote, local = await typing(port, typists, keys)
            ticks = await tron_ticks(port)
            memory = await held(port, server.pid, holders, hold)
        finally:
            server.terminate()
            server.wait(10)
    load = os.getloadavg()
    print(f"# bench/ssh.py · load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} · {os.cpu_count()} cores")
    print(f"server start-up: {startup * 1000:.0f} ms; connection to first screen: median {statistics.median(firsts) * 1000:.0f} ms, "
          f"worst {max(firsts) * 1000:.0f} ms ({typists} at once)")
    print()
    print("| keystroke to screen | sessions | keys | median ms | p95 ms | target |")
    print("|---|---|---|---|---|---|")
    print(f"| over ssh | {typists} | {len(remote)} | {statistics.median(remote) * 1000:.1f} | {percentile(remote, 0.95) * 1000:.1f} | < 50 / < 100 |")
    print(f"| local pty (baseline) | {typists} | {len(local)} | {statistics.median(local) * 1000:.1f} | {percentile(local, 0.95) * 1000:.1f} | |")
    print(f"| ratio ssh / local | | | {statistics.median(remote) / statistics.median(local):.2f}x | "
          f"{percentile(remote, 0.95) / percentile(local, 0.95):.2f}x | |")
    print()
    if ticks:
        print(f"Tron match between two ssh sessions: {len(ticks)} ticks seen on both screens; the screens showed the same tick "
              f"{statistics.median(ticks) * 1000:.1f} ms apart at the median, {max(ticks) * 1000:.1f} ms at worst (target < 50 ms)")
    else:
        print("Tron match: no tick seen on both screens")
    print()
    print(f"| {holders} sessions held {hold:.0f} s | start | end |")
    print("|---|---|---|")
    for name, (before, after) in memory.items():
        print(f"| {name} | {before:.1f} | {after:.1f} |")


if __name__ == "__main__":
    asyncio.run(main())
