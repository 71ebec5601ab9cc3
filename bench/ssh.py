"""`tui-grid serve ssh` under load, each measure beside a baseline taken in the same run:

1. connection to first screen (the menu), one at a time and many at once, against the same
   app started fresh (`python -m tui_grid`) on a local pseudo-terminal;
2. the memory of many idle sessions: their PSS (shared pages counted once) beside their
   RSS, and per session beside one fresh local app;
3. keystroke to screen for typing sessions, alone and while hostile clients paste, stall
   and flood resizes, and against the same number of local apps;
4. tick jitter of k Tron matches at once between sessions (k = 1, 2, 4, ...), and how far
   apart the two screens of a match show the same tick;
5. sessions held for a while, pressing keys: the server's memory and open files.

    python bench/ssh.py            # 16 at once, 100 idle, 8 typists, up to 32 matches: 4-6 minutes
    python bench/ssh.py --quick    # small numbers: about a minute
    python bench/ssh.py --servers 2   # 32 sessions in 16 Tron matches over two servers and one Redis

Each session is a real asyncssh client on its own terminal; the server is a separate
`tui-grid serve ssh` process with its own data folder, its log (stderr) kept in a file and
summed up at the end. A keystroke's latency is the time from writing the key to the first
bytes of the screen's answer; a first screen's, from the client starting to connect to the
menu's words arriving. Every client comes from loopback, which the server counts as one
host: the server is started with its per-host limits raised to the bench's sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import fcntl
import os
import pty
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Awaitable, Callable, Protocol, Sequence

import asyncssh

from tui_grid.games.tron.engine import TronEngine
from tui_grid.online.limits import ServerLimits

ROOT = Path(__file__).resolve().parent.parent
LIMITS = ServerLimits()
MENU = b"enter picks a game"
DOWN, UP, RIGHT, LEFT = b"\x1b[B", b"\x1b[A", b"\x1b[C", b"\x1b[D"

#: Logged-in connections from one host the bench's server takes: all of this bench's
#: clients come from loopback, one host. Logins in progress stay at the server's default (8
#: per host): the bench logs in LOGINS_AT_ONCE at a time instead.
#: Connections logging in at once: under the server's 8 unauthenticated per host.
LOGINS_AT_ONCE = 6
#: Times a refused connection is tried again (after RETRY_SECONDS).
RETRIES, RETRY_SECONDS = 5, 0.2
#: Seconds given to a session to show what is awaited.
SCREEN_SECONDS = 60.0

#: The hostile clients: a paste of this many bytes; a stalled client's terminal side and
#: the seconds between its window changes.
PASTE_BYTES = 2 * 1024 * 1024
STALL_SIDE, STALL_RESIZE_SECONDS = 500, 0.06

#: Tron at the hub's default pace: the engine's tick with a person steering.
TRON_TICK = TronEngine.human_tick_seconds
TRON_JITTER_GOAL = 0.030
#: Seconds a match has, once both players are in it, to show its first tick (the hub
#: counts down 3 s first).
MATCH_START_SECONDS = 15.0
#: k stops doubling once a level is past what the machine holds: a match that never got
#: going, or ticks off by more than a quarter of a tick at the 95th percentile.
TRON_HELD_JITTER = TRON_TICK / 4
ARROW_KEYS = {"↑": UP, "↓": DOWN, "←": LEFT, "→": RIGHT}
OPPOSITE = {"↑": "↓", "↓": "↑", "←": "→", "→": "←"}
#: Red's turns on the quick match's board (15x15, walls round it, red starting on row 7 at
#: column 1 heading right, green on column 13 heading left), by the tick after which each
#: is pressed: up column 2, then rows 1 to 6 back and forth, some 74 ticks. Green makes the
#: same turns the opposite way, through the other half. A turn that comes a tick late
#: crashes the cycle: that round ends and the next begins.
SNAKE = {1: "↑", 7: "→", 18: "↓", 19: "←", 29: "↓", 30: "→", 40: "↓", 41: "←", 51: "↓", 52: "→", 62: "↓", 63: "←"}
#: A terminal's escape sequences (CSI, charset, keypad, cursor save and restore).
ESCAPES = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78])")
#: The status line's round and tick (a number cut at the end of a read is not taken).
TICK = re.compile(r"round (\d+)/\d+ · tick (\d+)(?=\D)")
MY_SEAT = re.compile(r"([RG]) (?:red|green): \S+ \(arrows")


@dataclass(frozen=True)
class Plan:
    one_at_a_time: int  # first screens over ssh, one after another
    at_once: int  # first screens over ssh (and local apps) all started together
    local_apps: int  # the local baseline's first screens, one after another
    idle: int  # idle sessions whose memory is measured
    typists: int
    keys: int  # keys each typist presses, per measure
    most_matches: int  # Tron: k doubles up to this
    tron_seconds: float  # seconds of ticks measured at each k
    holders: int
    hold_seconds: float

    def sessions(self) -> int:
        """The server's --max-sessions (and --max-per-host): room for the largest part."""
        return max(self.at_once, self.idle, self.typists + 3, 2 * self.most_matches, self.holders) + 10


FULL = Plan(one_at_a_time=10, at_once=16, local_apps=5, idle=100, typists=8, keys=30, most_matches=32,
            tron_seconds=12.0, holders=16, hold_seconds=120.0)
QUICK = Plan(one_at_a_time=3, at_once=4, local_apps=2, idle=10, typists=4, keys=10, most_matches=2,
             tron_seconds=6.0, holders=4, hold_seconds=10.0)


# --- numbers and tables -------------------------------------------------------------------------

def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}" if seconds >= 0.1 else f"{seconds * 1000:.1f}"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "-"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def table(title: str, header: list[str], rows: list[list[str]], notes: Sequence[str] = ()) -> None:
    """A markdown table, headed by the load average as it is now (the part just measured)."""
    print(f"\n### {title} · load average {load()}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for note in notes:
        print(f"\n{note}")
    sys.stdout.flush()


def progress(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)


# --- reading screens ------------------------------------------------------------------------------

class Readable(Protocol):
    async def read(self, n: int) -> bytes: ...


async def read_until(stream: Readable, words: bytes, seconds: float = SCREEN_SECONDS) -> None:
    seen = b""
    deadline = time.monotonic() + seconds
    while words not in seen:
        if time.monotonic() > deadline:
            raise TimeoutError(words)
        try:
            data = await asyncio.wait_for(stream.read(65536), timeout=1.0)
        except asyncio.TimeoutError:
            continue
        if not data:
            raise EOFError(f"the session ended before showing {words!r}")
        seen = seen[-len(words):] + data


async def drain(stream: Readable, quiet: float = 0.15) -> None:
    """Read until the screen has been quiet for `quiet` seconds."""
    while True:
        try:
            if not await asyncio.wait_for(stream.read(65536), timeout=quiet):
                return
        except asyncio.TimeoutError:
            return


async def keep_reading(stream: Readable) -> None:
    """Read (and drop) a screen until it ends: a client that keeps up."""
    while await stream.read(65536):
        pass


async def key_latencies(stream: Readable, write, keys: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Press down and up in the menu: seconds from each key to the first bytes back."""
    times = []
    for index in range(keys):
        await drain(stream)
        start = time.perf_counter()
        write(DOWN if index % 2 == 0 else UP)
        await stream.read(65536)
        times.append(time.perf_counter() - start)
    return times


# --- the server and its processes ---------------------------------------------------------------------

def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(word) for word in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class Memory:
    pss_kib: int = 0
    rss_kib: int = 0

    def __add__(self, other: Memory) -> Memory:
        return Memory(self.pss_kib + other.pss_kib, self.rss_kib + other.rss_kib)


def memory(pid: int) -> Memory:
    """A process's PSS and RSS (smaps_rollup: sessions are not dumpable, root reads it)."""
    fields = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in ("Pss", "Rss"):
                fields[name] = int(rest.split()[0])
    except OSError:
        pass
    return Memory(fields.get("Pss", 0), fields.get("Rss", 0))


def cpu_seconds(pid: int) -> float:
    """User and system time a process has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Server:
    """`tui-grid serve ssh` in its own process, its stderr in `log`."""

    def __init__(self, data: Path, sessions: int, log: Path, extra: Sequence[str] = ()) -> None:
        self.log = log
        env = {**os.environ, "TUI_GRID_DATA": str(data)}
        self.started = time.perf_counter()
        with log.open("wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tui_grid", "serve", "ssh", "--port", "0", "--max-sessions", str(sessions),
                 "--max-per-host", str(sessions), "--max-connections-per-host", str(sessions),
                 "--connections-per-minute", "100000", "--sessions-per-minute", "100000", *extra],
                cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        self.pid = self.process.pid
        self.port = 0
        self.listening = self.ready = 0.0  # seconds from start to each log line

    def lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()

    async def wait_ready(self, seconds: float = 60.0) -> None:
        """Until the log says where it listens and that sessions are ready (the warm starter)."""
        while not self.ready:
            if time.perf_counter() - self.started > seconds or self.process.poll() is not None:
                raise RuntimeError("the server did not start:\n" + "\n".join(self.lines()))
            for line in self.lines():
                found = re.search(r"serving ssh on \S+:(\d+) \(auth", line)
                if found and not self.port:
                    self.port, self.listening = int(found.group(1)), time.perf_counter() - self.started
                if "sessions ready" in line and self.port:
                    self.ready = time.perf_counter() - self.started
            await asyncio.sleep(0.02)

    def starter(self) -> int | None:
        return next((pid for pid in children(self.pid) if comm(pid) == "tui-grid start"), None)

    def sessions(self) -> list[int]:
        """This server's session processes (the starter's children: other servers' are not)."""
        starter = self.starter()
        return [pid for pid in children(starter) if comm(pid).startswith("tui-grid ")] if starter else []

    def session(self, name: str) -> int | None:
        """The session process of the player `name` (as its process name holds it)."""
        return next((pid for pid in self.sessions() if comm(pid) == f"tui-grid {name}"[:15]), None)

    def session_ends(self) -> dict[str, str]:
        """How each player's last session ended, as the log says: {"ann": "exit 0"}."""
        found = (re.search(r"session end: (\S+) \((?:[^)]*; )?(exit [^)]*)\)", line) for line in self.lines())
        return {end.group(1): end.group(2) for end in found if end}

    async def ended(self, names: Sequence[str], seconds: float = 15.0) -> dict[str, str]:
        """How these players' sessions ended, once the log has said so for all of them."""
        deadline = time.monotonic() + seconds
        while not set(names) <= set(self.session_ends()) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return self.session_ends()

    def descendants(self) -> list[int]:
        found, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children(pid)
        return found

    async def sessions_gone(self, seconds: float = 15.0) -> None:
        """Wait until no session process is left (the clients of a part have closed)."""
        deadline = time.monotonic() + seconds
        while self.sessions() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        if self.sessions():
            progress(f"{len(self.sessions())} session processes still there {seconds:.0f} s after their clients left")

    def stop(self) -> list[int]:
        """TERM, and wait; the processes of the server's tree still alive after (none, normally)."""
        tree = self.descendants()
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            progress("the server did not stop in 15 s after TERM: killed")
            self.process.kill()
            self.process.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in tree[1:]):
            time.sleep(0.1)
        return [pid for pid in tree[1:] if Path(f"/proc/{pid}").exists()]


# --- clients ------------------------------------------------------------------------------------------

@dataclass
class Client:
    conn: asyncssh.SSHClientConnection
    process: asyncssh.SSHClientProcess[bytes]
    started: float  # when it began to connect (perf_counter)

    @property
    def stdout(self) -> asyncssh.SSHReader[bytes]:
        return self.process.stdout

    def write(self, data: bytes) -> None:
        self.process.stdin.write(data)


class Clients:
    """Every connection the bench opens: logged in LOGINS_AT_ONCE at a time, a refused one
    tried again, and all closed at the end."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.logins = asyncio.Semaphore(LOGINS_AT_ONCE)
        self.retries = 0
        self.open: set[asyncssh.SSHClientConnection] = set()

    async def session(self, name: str, command: str | None = None, size: tuple[int, int] = (80, 24)) -> Client:
        started = 0.0
        for attempt in range(RETRIES + 1):
            try:
                async with self.logins:
                    started = started or time.perf_counter()
                    conn = await asyncssh.connect("127.0.0.1", self.port, username=name, known_hosts=None, encoding=None)
                break
            except (OSError, asyncssh.Error):
                if attempt == RETRIES:
                    raise
                self.retries += 1
                await asyncio.sleep(RETRY_SECONDS)
        self.open.add(conn)
        process = await conn.create_process(command, term_type="xterm-256color", term_size=size)
        return Client(conn, process, started)

    async def menu(self, name: str) -> tuple[float, Client]:
        """A session on the menu, and the seconds from its connecting to the menu's words."""
        client = await self.session(name)
        await read_until(client.stdout, MENU)
        return time.perf_counter() - client.started, client

    async def close(self, *clients: Client) -> None:
        for client in clients:
            client.conn.close()
        for client in clients:
            self.open.discard(client.conn)
            try:
                await asyncio.wait_for(client.conn.wait_closed(), 5)
            except (asyncio.TimeoutError, OSError, asyncssh.Error):
                pass

    async def close_all(self) -> None:
        """Whatever is still open (a part that failed left it)."""
        conns, self.open = list(self.open), set()
        for conn in conns:
            conn.close()
        if conns:
            await asyncio.wait([asyncio.create_task(conn.wait_closed()) for conn in conns], timeout=5)


class LocalApp:
    """The baseline: the same app started fresh on a local pseudo-terminal, no SSH."""

    def __init__(self, data: Path) -> None:
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update({"TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24", "TUI_GRID_DATA": str(data)})
            os.execv(sys.executable, [sys.executable, "-m", "tui_grid"])
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        asyncio.get_running_loop().add_reader(self.fd, self._readable)

    def _readable(self) -> None:
        try:
            self.queue.put_nowait(os.read(self.fd, 65536))
        except OSError:
            asyncio.get_running_loop().remove_reader(self.fd)
            self.queue.put_nowait(b"")

    async def read(self, n: int) -> bytes:
        return await self.queue.get()

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    async def first_screen(self) -> float:
        await read_until(self, MENU)
        return time.perf_counter() - self.started

    def close(self) -> None:
        asyncio.get_running_loop().remove_reader(self.fd)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


async def local_first_screens(data: Path, count: int) -> list[float]:
    """`count` local apps started together: each one's start to its menu."""
    apps = [LocalApp(data) for _ in range(count)]
    try:
        return list(await asyncio.gather(*(app.first_screen() for app in apps)))
    finally:
        for app in apps:
            app.close()


@dataclass(frozen=True)
class Bench:
    """What every part uses: the server, its clients, the plan, the local apps' data folder."""

    server: Server
    clients: Clients
    plan: Plan
    local: Path


# --- 1. first screens ---------------------------------------------------------------------------------

async def first_screens(bench: Bench) -> None:
    server, clients, plan, data = bench.server, bench.clients, bench.plan, bench.local
    alone, app_cpu = [], []
    server_cpu = cpu_seconds(server.pid)
    for index in range(plan.one_at_a_time):
        took, client = await clients.menu(f"first{index}")
        alone.append(took)
        pid = server.session(f"first{index}")
        app_cpu.append(cpu_seconds(pid) if pid else float("nan"))
        await clients.close(client)
    await server.sessions_gone()
    server_cpu = (cpu_seconds(server.pid) - server_cpu) / plan.one_at_a_time
    retries = clients.retries
    burst = time.perf_counter()
    results = await asyncio.gather(*(clients.menu(f"crowd{index}") for index in range(plan.at_once)))
    burst = time.perf_counter() - burst
    retries = clients.retries - retries
    together = [took for took, _ in results]
    await clients.close(*(client for _, client in results))
    await server.sessions_gone()
    local_alone = [(await local_first_screens(data, 1))[0] for _ in range(plan.local_apps)]
    local_together = await local_first_screens(data, plan.at_once)
    n = plan.at_once
    table("First screen: connecting to the menu's words", ["", "starts", "median ms", "p95 ms", "goal"], [
        ["over ssh, one at a time", str(len(alone)), ms(median(alone)), ms(percentile(alone, 0.95)), ""],
        ["local pty, fresh python, one at a time (baseline)", str(len(local_alone)), ms(median(local_alone)),
         ms(percentile(local_alone, 0.95)), ""],
        ["ratio ssh / local", "", ratio(median(alone), median(local_alone)),
         ratio(percentile(alone, 0.95), percentile(local_alone, 0.95)), ""],
        [f"over ssh, {n} at once", str(n), ms(median(together)), ms(percentile(together, 0.95)), "< 300 / < 1000"],
        [f"local pty, {n} fresh pythons at once (baseline)", str(n), ms(median(local_together)),
         ms(percentile(local_together, 0.95)), ""],
        ["ratio ssh / local", "", ratio(median(together), median(local_together)),
         ratio(percentile(together, 0.95), percentile(local_together, 0.95)), ""],
    ], [f"{n} at once: the last menu arrived {ms(burst)} ms after the first client began; clients log in "
        f"{LOGINS_AT_ONCE} at a time (the server takes 8 logins at once per host), each timed from its own "
        f"start of connecting; {retries} connections refused and tried again. CPU time per session, one at a time: "
        f"its app to the first screen {ms(median(app_cpu))} ms (median); the server, from connecting to the session's "
        f"end, {ms(server_cpu)} ms."])


# --- 2. memory of idle sessions -----------------------------------------------------------------------

async def idle_memory(bench: Bench) -> None:
    server, clients, plan = bench.server, bench.clients, bench.plan
    results = await asyncio.gather(*(clients.menu(f"idle{index}") for index in range(plan.idle)))
    idle = [client for _, client in results]
    await asyncio.gather(*(drain(client.stdout, 1.0) for client in idle))
    await asyncio.sleep(2)
    pids = server.sessions()
    sessions = sum((memory(pid) for pid in pids), Memory())
    starter_pid = server.starter()
    starter = memory(starter_pid) if starter_pid else Memory()
    own = memory(server.pid)
    await clients.close(*idle)
    await server.sessions_gone()
    fresh_app = LocalApp(bench.local)
    try:
        await fresh_app.first_screen()
        await asyncio.sleep(2)
        fresh = memory(fresh_app.pid)
    finally:
        fresh_app.close()

    def mb(kib: float) -> str:
        return f"{kib / 1024:.1f}"

    total = sessions + starter + own
    count = max(1, len(pids))
    table(f"Memory: {plan.idle} idle sessions on the menu", ["", "processes", "PSS MB", "RSS MB (sum)"], [
        ["sessions", str(len(pids)), mb(sessions.pss_kib), mb(sessions.rss_kib)],
        ["session starter", "1", mb(starter.pss_kib), mb(starter.rss_kib)],
        ["server", "1", mb(own.pss_kib), mb(own.rss_kib)],
        ["total", str(len(pids) + 2), mb(total.pss_kib), mb(total.rss_kib)],
        ["per session (total / sessions)", "", mb(total.pss_kib / count), mb(total.rss_kib / count)],
        ["a fresh local app on the menu (baseline)", "1", mb(fresh.pss_kib), mb(fresh.rss_kib)],
        ["ratio per session / fresh app", "", ratio(total.pss_kib / count, fresh.pss_kib),
         ratio(total.rss_kib / count, fresh.rss_kib)],
    ], ["PSS counts each shared page once, split between the processes sharing it; RSS counts it in each."])


# --- 3. typists, with and without hostile clients -------------------------------------------------------

@dataclass
class Hostile:
    """What the hostile clients did and what the server did to them."""

    pasted: int = 0  # bytes of the paste the channel took
    stall_resizes: int = 0
    stall_closed: float | None = None  # seconds from its first resize to the server closing it
    floods: int = 0  # window changes sent by the flooder
    flood_closed: float | None = None  # seconds from its first window change to the server closing it
    seconds: float = 0.0  # from the first hostile client connecting to the end of the measure
    cpu: dict[str, str] = field(default_factory=dict)  # share of a core each app (and the server) used
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


async def paste(client: Client, report: Hostile) -> None:
    """Write PASTE_BYTES of `j` as fast as the channel takes them, reading the screen."""
    reader = asyncio.create_task(keep_reading(client.stdout))
    chunk = b"j" * 32768
    try:
        while report.pasted < PASTE_BYTES:
            client.write(chunk)
            await client.process.stdin.drain()
            report.pasted += len(chunk)
    finally:
        reader.cancel()


async def stall(client: Client, report: Hostile) -> None:
    """A 500x500 terminal never read, its window changed every STALL_RESIZE_SECONDS."""
    closed = asyncio.create_task(client.conn.wait_closed())
    start = time.perf_counter()
    try:
        while not closed.done():
            side = STALL_SIDE - report.stall_resizes % 2
            client.process.change_terminal_size(side, side)
            report.stall_resizes += 1
            await asyncio.wait({closed}, timeout=STALL_RESIZE_SECONDS)
        report.stall_closed = time.perf_counter() - start
    except (OSError, asyncssh.Error):
        report.stall_closed = time.perf_counter() - start
    finally:
        closed.cancel()


async def flood(client: Client, report: Hostile) -> None:
    """Window changes as fast as the client can send them, until the server closes it (the
    loop yields after each one, so that the client hears of the close at once)."""
    reader = asyncio.create_task(keep_reading(client.stdout))
    start = time.perf_counter()
    try:
        while not client.conn.is_closed():
            client.process.change_terminal_size(80 + report.floods % 2, 24)
            report.floods += 1
            await asyncio.sleep(0)
    except (OSError, asyncssh.Error):
        pass  # the channel closed between two window changes
    finally:
        reader.cancel()
    report.flood_closed = time.perf_counter() - start


async def hostile_clients(clients: Clients, report: Hostile) -> list[Client]:
    """The paster, the staller and the flooder connected, each at work in a task."""
    paster = (await clients.menu("paster"))[1]
    flooder = (await clients.menu("flooder"))[1]
    staller = await clients.session("staller", size=(STALL_SIDE, STALL_SIDE))
    await asyncio.sleep(1.0)  # the staller's app starts (its screen is never read)
    report.tasks = [asyncio.create_task(paste(paster, report)), asyncio.create_task(stall(staller, report)),
                    asyncio.create_task(flood(flooder, report))]
    return [paster, staller, flooder]


async def typing_latencies(typists: list[Client], keys: int) -> list[float]:
    """Every typist presses `keys` keys at once; all their latencies."""
    results = await asyncio.gather(*(key_latencies(client.stdout, client.write, keys) for client in typists))
    return [latency for result in results for latency in result]


async def hostile_typing(bench: Bench, typists: list[Client], report: Hostile) -> list[float]:
    """The typists' latencies while the hostile clients are at work; in `report`, what
    the hostile clients did and the CPU their apps and the server used meanwhile."""
    server = bench.server
    hostile = await hostile_clients(bench.clients, report)
    watched = {name: server.session(name) or 0 for name in ("paster", "staller", "flooder")} | {"server": server.pid}
    before = {name: cpu_seconds(pid) for name, pid in watched.items()}
    try:
        start = time.perf_counter()
        latencies = await typing_latencies(typists, bench.plan.keys)
        elapsed = time.perf_counter() - start
        after = {name: cpu_seconds(pid) for name, pid in watched.items()}
        report.seconds = time.perf_counter() - min(client.started for client in hostile)
    finally:
        for task in report.tasks:
            task.cancel()
        await asyncio.gather(*report.tasks, return_exceptions=True)
        await bench.clients.close(*hostile)
    ends = await server.ended(("paster", "staller", "flooder"))
    report.cpu = {name: f"{(after[name] - before[name]) / elapsed:.0%}" if after[name]
                  else f"ended before the measure did ({ends.get(name, 'exit ?')})" for name in watched}
    return latencies


async def local_typing(data: Path, apps: int, keys: int) -> list[float]:
    """The baseline: as many local apps, typed into at once."""
    local = [LocalApp(data) for _ in range(apps)]
    try:
        await asyncio.gather(*(app.first_screen() for app in local))
        await asyncio.gather(*(key_latencies(app, app.write, 2) for app in local))  # warm
        results = await asyncio.gather(*(key_latencies(app, app.write, keys) for app in local))
        return [latency for result in results for latency in result]
    finally:
        for app in local:
            app.close()


async def typing(bench: Bench) -> None:
    plan = bench.plan
    typists = [client for _, client in await asyncio.gather(*(bench.clients.menu(f"typist{i}") for i in range(plan.typists)))]
    report = Hostile()
    try:
        await typing_latencies(typists, 2)  # warm
        alone = await typing_latencies(typists, plan.keys)
        with_hostile = await hostile_typing(bench, typists, report)
    finally:
        await bench.clients.close(*typists)
    await bench.server.sessions_gone()
    local = await local_typing(bench.local, plan.typists, plan.keys)

    def row(name: str, times: list[float], goal: str = "") -> list[str]:
        return [name, str(len(times)), ms(median(times)), ms(percentile(times, 0.95)), goal]

    def ratios(name: str, a: list[float], b: list[float], goal: str = "") -> list[str]:
        return [name, "", ratio(median(a), median(b)), ratio(percentile(a, 0.95), percentile(b, 0.95)), goal]

    n = plan.typists
    stall_end = (f"closed by the server after {report.stall_closed:.1f} s" if report.stall_closed is not None
                 else f"still open when the measure ended ({report.seconds:.0f} s after the hostile clients connected)")
    flood_end = (f"closed by the server {ms(report.flood_closed)} ms after its first one"
                 if report.flood_closed is not None else "never closed")
    table(f"Keystroke to screen: {n} typists at once", ["", "keys", "median ms", "p95 ms", "goal"], [
        row(f"over ssh, {n} typists (baseline)", alone, "< 50 / < 100"),
        row(f"over ssh, {n} typists + paste, stall and resize flood", with_hostile),
        ratios("ratio hostile / baseline", with_hostile, alone, "< 1.5x"),
        row(f"local pty, {n} apps at once", local),
        ratios("ratio ssh (baseline) / local", alone, local),
    ], [f"Paste: the channel took {report.pasted // 1024} KiB of {PASTE_BYTES // 1024} KiB while the typists measured "
        f"(flow control: the app is given {LIMITS.input_bytes_per_second / 1024:g} KiB/s, "
        f"{LIMITS.flood_bytes_per_second:g} B/s once it floods). Stall ({STALL_SIDE}x{STALL_SIDE}, never read, "
        f"{report.stall_resizes} window changes every {STALL_RESIZE_SECONDS * 1000:.0f} ms): {stall_end}. "
        f"Resize flood: {report.floods} window changes sent, {flood_end}. Share of a core used while the typists "
        f"measured: " + ", ".join(f"{name} {share}" for name, share in report.cpu.items()) + " (the session's app; the server)."])


# --- 4. Tron matches at once ------------------------------------------------------------------------------

class TronPlayer:
    """One side of a quick match: when each tick first showed on its screen, and a driver
    that keeps its cycle alive along SNAKE. The screen is read as bytes, its escapes taken
    out (a screen emulator costs the bench more than a session costs the server: each tick
    redraws some 9 KB)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.ticks: dict[tuple[int, int], float] = {}  # (round, tick): first seen (perf_counter)
        self.seat = ""  # R or G: the seat this player steers this round
        self.waiting = asyncio.Event()  # in the queue, waiting for another player
        self.in_lobby = asyncio.Event()  # the lobby shows (a session started with `online`)
        self.matched = asyncio.Event()  # the match's screen shows (its round and tick)
        self.playing = asyncio.Event()  # a tick past 0 has shown
        self.last = ""  # the end of what the screen last showed (to say why a match never got going)
        self.pressed: tuple[str, float] | None = None  # the head a turn key should show, and when it was pressed
        self.key_to_screen: list[float] = []  # seconds from a turn key to its head on the screen
        self.received = 0  # bytes of screen read so far
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        tail = b""  # the end of the last read: words cut between two reads are read whole
        while data := await self.client.stdout.read(65536):
            arrived = time.perf_counter()
            self.received += len(data)
            text = ESCAPES.sub(b"", tail + data).decode(errors="replace")
            tail, self.last = data[-256:], (self.last + text)[-600:]
            if "Waiting for another" in text:
                self.waiting.set()
            if "Online as" in text:
                self.in_lobby.set()
            for seat in MY_SEAT.finditer(text):  # the last one shown: seats swap between rounds
                self.seat = seat.group(1)
            if self.pressed is not None and self.pressed[0] in text:
                self.key_to_screen.append(arrived - self.pressed[1])
                self.pressed = None
            for shown in TICK.finditer(text):
                self.matched.set()
                key = (int(shown.group(1)), int(shown.group(2)))
                if key not in self.ticks:
                    self.ticks[key] = arrived
                    if key[1] > 0:
                        self.playing.set()
                    self._steer(key[1])

    def _steer(self, tick: int) -> None:
        arrow = SNAKE.get(tick)
        if arrow and self.seat:
            turn = arrow if self.seat == "R" else OPPOSITE[arrow]
            self.client.write(ARROW_KEYS[turn])
            self.pressed = (self.seat + turn, time.perf_counter())

    def intervals(self, since: float, until: float) -> list[float]:
        """Seconds between successive ticks of a round that showed in [since, until] (from
        tick 1: tick 0 shows during the countdown)."""
        return [self.ticks[(r, t + 1)] - at for (r, t), at in self.ticks.items()
                if t >= 1 and since <= at and (r, t + 1) in self.ticks and self.ticks[(r, t + 1)] <= until]


@dataclass(frozen=True)
class TronLevel:
    matches: int
    playing: int  # matches whose first player saw a tick past 0
    deviations: list[float]  # |interval - TRON_TICK|, seconds
    apart: list[float]  # the same tick on the match's two screens, seconds apart
    sessions_cores: float  # CPU the sessions' apps used while ticks were timed, in cores
    server_cores: float
    load: float

    def p95(self) -> float:
        return percentile(self.deviations, 0.95) if self.deviations else float("inf")


async def tron_matches(server: Server, clients: Clients, matches: int, seconds: float) -> TronLevel:
    """`matches` quick matches at once (pairs queue one after another: each player waits
    alone in the queue until its partner has met it); ticks timed for `seconds` once every
    match is under way."""
    players: list[TronPlayer] = []
    pairs: list[tuple[TronPlayer, TronPlayer]] = []
    try:
        try:
            for index in range(matches):
                players.append(first := TronPlayer(await clients.session(f"m{matches}x{index}a", "tron")))
                await asyncio.wait_for(first.waiting.wait(), SCREEN_SECONDS)
                players.append(second := TronPlayer(await clients.session(f"m{matches}x{index}b", "tron")))
                await asyncio.wait_for(second.matched.wait(), SCREEN_SECONDS)
                pairs.append((first, second))
        except asyncio.TimeoutError:
            progress(f"tron: {len(pairs)} of {matches} matches began (the next did not within {SCREEN_SECONDS:.0f} s)")
        started = [asyncio.create_task(first.playing.wait()) for first, _ in pairs]
        if started:
            await asyncio.wait(started, timeout=MATCH_START_SECONDS)
        for task in started:
            task.cancel()
        for first, _ in pairs:
            if not first.playing.is_set():
                progress(f"tron: a match showed no tick in {MATCH_START_SECONDS:.0f} s; its first player's screen ended: "
                         + " ".join(first.last.split())[-300:])
        pids = server.sessions()
        used = [sum(map(cpu_seconds, pids)), cpu_seconds(server.pid)]
        since = time.perf_counter()
        await asyncio.sleep(seconds)
        until = time.perf_counter()
        used = [(sum(map(cpu_seconds, pids)) - used[0]) / seconds, (cpu_seconds(server.pid) - used[1]) / seconds]
        level_load = os.getloadavg()[0]
    finally:
        for player in players:
            player.task.cancel()
        await clients.close(*(player.client for player in players))
    await server.sessions_gone()
    deviations = [abs(interval - TRON_TICK) for first, _ in pairs for interval in first.intervals(since, until)]
    apart = [abs(at - second.ticks[key]) for first, second in pairs for key, at in first.ticks.items()
             if key in second.ticks and since <= at <= until]
    return TronLevel(matches, sum(first.playing.is_set() for first, _ in pairs), deviations, apart, *used, level_load)


async def tron(bench: Bench) -> None:
    plan = bench.plan
    levels: list[TronLevel] = []
    matches = 1
    while matches <= plan.most_matches:
        progress(f"tron: {matches} matches at once")
        levels.append(await tron_matches(bench.server, bench.clients, matches, plan.tron_seconds))
        if not (levels[-1].playing == matches and levels[-1].p95() < TRON_HELD_JITTER):
            break
        matches *= 2
    within = [level.matches for level in levels if level.p95() < TRON_JITTER_GOAL]
    table(f"Tron: tick jitter with k matches at once (nominal tick {TRON_TICK * 1000:.0f} ms, {plan.tron_seconds:.0f} s each)",
          ["k matches", "sessions", "playing", "intervals", "median |interval - tick| ms", "p95 ms", "goal",
           "screens apart p95 ms", "CPU: apps, server (cores)", "load (1 min)"],
          [[str(level.matches), str(2 * level.matches), str(level.playing), str(len(level.deviations)),
            ms(median(level.deviations)), ms(level.p95()), "< 30", ms(percentile(level.apart, 0.95)),
            f"{level.sessions_cores:.2f}, {level.server_cores:.2f}", f"{level.load:.2f}"] for level in levels],
          [f"Largest k with p95 jitter under {TRON_JITTER_GOAL * 1000:.0f} ms: {max(within) if within else 'none'}"
           + (" (the most this run tries)" if within and max(within) == plan.most_matches else "")
           + ". Intervals are timed on the first player's screen; 'screens apart': how far apart the two "
           "players' screens showed the same tick."])


# --- 5. sessions held -----------------------------------------------------------------------------------------

async def held(bench: Bench) -> None:
    """Sessions in the menu for a while, each pressing a key every 2 s: the server's RSS
    and open files, and the sessions' mean RSS, at the start and at the end."""
    server, clients, plan = bench.server, bench.clients, bench.plan
    holders = [client for _, client in await asyncio.gather(*(clients.menu(f"holder{i}") for i in range(plan.holders)))]

    def look() -> tuple[float, float, float]:
        pids = server.sessions()
        mean = statistics.mean(rss_kib(pid) for pid in pids) / 1024 if pids else float("nan")
        return rss_kib(server.pid) / 1024, len(os.listdir(f"/proc/{server.pid}/fd")), mean

    before = look()
    end = time.monotonic() + plan.hold_seconds
    index = 0
    while time.monotonic() < end:
        for client in holders:
            client.write(DOWN if index % 2 == 0 else UP)
        index += 1
        await asyncio.sleep(2)
        for client in holders:
            await drain(client.stdout, 0.01)
    after = look()
    await clients.close(*holders)
    await server.sessions_gone()
    table(f"{plan.holders} sessions held {plan.hold_seconds:.0f} s, a key every 2 s", ["", "start", "end"], [
        ["server RSS MB", f"{before[0]:.1f}", f"{after[0]:.1f}"],
        ["server open files", f"{before[1]:.0f}", f"{after[1]:.0f}"],
        ["session RSS MB (mean)", f"{before[2]:.1f}", f"{after[2]:.1f}"],
    ])


# --- the run ----------------------------------------------------------------------------------------------------

def summarize_log(lines: list[str]) -> None:
    """What the server logged: its own start and stop as they are, sessions and matches
    counted (session ends by exit code), refusals and closed connections counted by why,
    and any other line as it is (an error would be one)."""
    counts: collections.Counter[str] = collections.Counter()
    other: list[str] = []
    glued = [line for line in lines if line.count("tui-grid: ") > 1]  # two threads' lines on one
    if glued:
        counts["lines holding two log lines (written at once by two threads)"] = len(glued)
    for text in (part for line in lines for part in line.split("tui-grid: ") if part):
        refused = re.match(r"refused (\d+) connections?: (.*)", text)
        if refused:
            counts[f"connections refused: {refused.group(2)}"] += int(refused.group(1))
        elif text.startswith("connection from ") and " closed: " in text:
            counts[f"connections closed: {text.partition(' closed: ')[2]}"] += 1
        elif text.startswith("session start:"):
            counts["session starts"] += 1
        elif text.startswith("session end:"):
            counts[f"session ends, {text.rpartition('(')[2].rstrip(')')}"] += 1
        elif re.match(r"match \d+ start:", text):
            counts["match starts"] += 1
        elif re.match(r"match \d+ end:", text):
            early = re.search(r"\((\S+) ([^)]*)\)$", text)  # "(ann left the match)"
            counts["match ends" + (f", a player {early.group(2)}" if early else ", all rounds played")] += 1
        else:
            other.append(text)
    print(f"\n### The server's log: {len(lines)} lines\n")
    for line in other[:30]:
        print(f"    {line}")
    if len(other) > 30:
        print(f"    ... and {len(other) - 30} lines more")
    print()
    for kind, count in sorted(counts.items()):
        print(f"- {kind}: {count}")


PARTS: tuple[tuple[str, Callable[[Bench], Awaitable[None]]], ...] = (
    ("first screens", first_screens), ("idle memory", idle_memory), ("typing", typing), ("tron", tron),
    ("held sessions", held))


async def run(plan: Plan, data: Path, log: Path) -> None:
    sessions = plan.sessions()
    server = Server(data / "server", sessions, log)
    clients = Clients(0)
    try:
        await server.wait_ready()
        clients.port = server.port
        print(f"# bench/ssh.py · {os.cpu_count()} cores · load average {load()}")
        print(f"\nserver (--max-sessions {sessions} --max-per-host {sessions}, and {sessions} logged-in connections "
              f"per host): listening {ms(server.listening)} ms after start, sessions ready after {ms(server.ready)} ms")
        bench = Bench(server, clients, plan, data / "local")
        bench.local.mkdir()
        for name, part in PARTS:
            progress(name)
            await part(bench)
    finally:
        try:
            await clients.close_all()
        finally:
            left = server.stop()
    summarize_log(server.lines())
    print(f"- the server's processes still running after it stopped: {left or 'none'}")


# --- several servers, one lobby (--servers N) ------------------------------------------------------

class RedisServer:
    """A redis-server of the bench's own on a free port, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(folder),
                                         "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def commands(self) -> int:
        """Commands Redis has processed so far (INFO stats)."""
        found = subprocess.run(["redis-cli", "-p", str(self.port), "info", "stats"], capture_output=True, text=True, timeout=10)
        match = re.search(r"total_commands_processed:(\d+)", found.stdout)
        return int(match.group(1)) if match else 0

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


#: The sessions' apps are settled once all of them together use under this share of a core
#: (a session starting its app takes some 2-3 s of CPU: 32 at once hold two cores for half a
#: minute, and matches paired meanwhile would be timed on a machine busy starting them).
SETTLED_CORES, SETTLE_SECONDS = 0.3, 120.0


async def settle(pids: list[int]) -> float:
    """Wait until the processes `pids` use under SETTLED_CORES over a second (at most
    SETTLE_SECONDS); the seconds waited."""
    start = time.perf_counter()
    while time.perf_counter() - start < SETTLE_SECONDS:
        used = sum(map(cpu_seconds, pids))
        await asyncio.sleep(1.0)
        if sum(map(cpu_seconds, pids)) - used < SETTLED_CORES:
            break
    return time.perf_counter() - start


async def cross_matches(servers: list[Server], redis: RedisServer, matches: int, seconds: float) -> None:
    """`matches` Tron matches at once over the servers, paired in turn: one with both players
    on one server (round robin), the next with one player on each of two servers (the second to
    queue pops the first from the shared queue, and its server hosts the match). Key to
    screen (a turn key until the cycle's head shows it), per side; the same tick on the two
    screens of a match; Redis commands per match-second."""
    clients = [Clients(server.port) for server in servers]
    pairs: list[tuple[TronPlayer, TronPlayer, str]] = []
    try:
        # Every session first waits in its lobby, so no match plays while sessions start.
        seated: list[tuple[TronPlayer, TronPlayer, str]] = []
        for index in range(matches):
            home = (index // 2) % len(servers)
            cross = index % 2 == 1  # every other match: those paired first are not all of one kind
            away = (home + 1) % len(servers) if cross else home
            first = TronPlayer(await clients[away].session(f"s{index}a", "online"))
            second = TronPlayer(await clients[home].session(f"s{index}b", "online"))
            seated.append((first, second, "cross" if cross else "same"))
        for first, second, _ in seated:
            await asyncio.wait_for(asyncio.gather(first.in_lobby.wait(), second.in_lobby.wait()), SCREEN_SECONDS)
        sessions = [server.sessions() for server in servers]
        settled = await settle([pid for pids in sessions for pid in pids])
        paired = time.perf_counter()
        for first, second, kind in seated:
            first.client.write(b"t")
            await asyncio.wait_for(first.waiting.wait(), SCREEN_SECONDS)
            second.client.write(b"t")
            shown = [asyncio.create_task(player.matched.wait()) for player in (first, second)]
            await asyncio.wait(shown, timeout=SCREEN_SECONDS, return_when=asyncio.FIRST_COMPLETED)  # the queue is empty again
            for task in shown:
                task.cancel()
            if not (first.matched.is_set() or second.matched.is_set()):
                raise TimeoutError(f"match {len(pairs) + 1} showed on neither screen within {SCREEN_SECONDS:.0f} s")
            pairs.append((first, second, kind))
        paired = time.perf_counter() - paired
        started = [asyncio.create_task(first.playing.wait()) for first, _, _ in pairs]
        await asyncio.wait(started, timeout=MATCH_START_SECONDS)
        for task in started:
            task.cancel()
        for first, second, _ in pairs:  # keys from here on: every match is under way
            first.key_to_screen.clear()
            second.key_to_screen.clear()
        before = redis.commands()
        received = sum(player.received for pair in pairs for player in pair[:2])
        cpu = [cpu_seconds(server.pid) for server in servers]
        apps = [sum(map(cpu_seconds, pids)) for pids in sessions]
        since = time.perf_counter()
        await asyncio.sleep(seconds)
        until = time.perf_counter()
        after = redis.commands()
        received = sum(player.received for pair in pairs for player in pair[:2]) - received
        cpu = [cpu_seconds(server.pid) - used for server, used in zip(servers, cpu)]
        apps = [sum(map(cpu_seconds, pids)) - used for pids, used in zip(sessions, apps)]
        held = [sum((memory(pid) for pid in [server.pid, *pids]), Memory()) for server, pids in zip(servers, sessions)]
    finally:
        for first, second, _ in pairs:
            first.task.cancel()
            second.task.cancel()
        for group in clients:
            await group.close_all()
    keys: dict[str, list[float]] = collections.defaultdict(list)
    apart: dict[str, list[float]] = collections.defaultdict(list)
    for first, second, kind in pairs:
        # In a cross match the first player is the remote one (its server does not host).
        keys[f"{kind}: the host's player"] += second.key_to_screen
        keys[f"{kind}: {'the other server' if kind == 'cross' else 'the same server'}'s player"] += first.key_to_screen
        apart[kind] += [abs(at - second.ticks[key]) for key, at in first.ticks.items() if key in second.ticks and since <= at <= until]
    rows = [[name, str(len(values)), ms(median(values)), ms(percentile(values, 0.95))] for name, values in sorted(keys.items())]
    same95, cross95 = percentile(keys["same: the same server's player"], 0.95), percentile(keys["cross: the other server's player"], 0.95)
    rows.append(["p95 other server - same server", "", "", f"{(cross95 - same95) * 1000:+.0f} (goal < +20)"])
    window = until - since
    live = [kind for first, second, kind in pairs if any(since <= at <= until for at in first.ticks.values())]
    table(f"Key to screen: {matches} Tron matches over {len(servers)} servers", ["player", "keys", "median ms", "p95 ms"], rows, [
        f"{len(live)} of {len(pairs)} matches showed ticks in the {window:.0f} s measured ({live.count('same')} on one server, "
        f"{live.count('cross')} across); the {2 * len(pairs)} sessions' apps settled in the lobby in {settled:.0f} s "
        f"and the matches were paired in {paired:.1f} s. Each playing session was sent "
        f"{received / window / max(1, 2 * len(live)) / 1024:.1f} KiB of screen a second.",
        "The same tick on a match's two screens, ms apart (median / p95): "
        + "; ".join(f"{kind} {ms(median(values))} / {ms(percentile(values, 0.95))}" for kind, values in sorted(apart.items())),
        f"Redis: {after - before} commands in {until - since:.1f} s, {(after - before) / (until - since) / max(1, len(pairs)):.1f} "
        f"per match-second ({len(pairs)} matches, {sum(kind == 'cross' for _, _, kind in pairs)} across servers). In that time, each server "
        "(its process; its sessions' apps; the memory of both, PSS): "
        + "; ".join(f"server {index + 1} {used / (until - since):.0%} of a core, sessions {app / (until - since):.0%} "
                    f"({len(pids)} sessions), {mem.pss_kib / 1024:.0f} MB"
                    for index, (used, app, pids, mem) in enumerate(zip(cpu, apps, sessions, held))) + "."])


async def run_servers(count: int, plan: Plan, data: Path, matches: int) -> None:
    redis = RedisServer(data)
    servers = [Server(data / f"server{index}", 2 * matches + 10, data / f"server{index}.log", ("--hub", redis.url))
               for index in range(count)]
    try:
        for server in servers:
            await server.wait_ready()
        print(f"# bench/ssh.py --servers {count} · {os.cpu_count()} cores · load average {load()}")
        progress(f"servers: {matches} matches over {count} servers")
        await cross_matches(servers, redis, matches, plan.tron_seconds)
    finally:
        left = [pid for server in servers for pid in server.stop()]
        redis.stop()
    print(f"\n- the servers' processes still running after they stopped: {left or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small numbers: under 2 minutes")
    parser.add_argument("--typists", type=int, default=None)
    parser.add_argument("--holders", type=int, default=None)
    parser.add_argument("--hold-seconds", type=float, default=None)
    parser.add_argument("--server-log", type=Path, default=None, help="keep the server's stderr in this file")
    parser.add_argument("--servers", type=int, default=1, help="N > 1: only Tron matches over N servers sharing one Redis "
                        "(16 matches, half across servers; 4 with --quick)")
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    chosen = {"typists": args.typists, "holders": args.holders, "hold_seconds": args.hold_seconds}
    plan = replace(plan, **{name: value for name, value in chosen.items() if value is not None})
    with tempfile.TemporaryDirectory(prefix="tui-grid-bench-") as scratch:
        data = Path(scratch)
        if args.servers > 1:
            asyncio.run(run_servers(args.servers, plan, data, 4 if args.quick else 16))
            return
        asyncio.run(run(plan, data, args.server_log or data / "server.log"))


if __name__ == "__main__":
    main()
