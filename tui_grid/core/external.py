"""External programs as agents: a bot in any language that reads a state on stdin and
prints its action as one line on stdout. Game-agnostic: the game supplies how to write a
state (`encode_state(ask) -> str`) and how to read an answer (`parse_answer(line) ->
action`, raising ValueError with a readable reason).

Two modes:

* `oneshot`: a fresh process per move, sent one state, stdin then closed; its first
  non-blank output line is the answer (how HackerRank runs bots). The process is then
  ended.
* `persistent`: one process for the whole game, sent one state after another on the same
  stdin; each answer is its next non-blank output line. Output left unread from an
  earlier state is discarded before each new state is sent.

A program that cannot start, crashes, exits, prints nothing in time or prints something
the game cannot parse raises `AgentError(reason, forfeit=True)`: its `failure` says what
went wrong (`core.outcome.Fault`) and keeps the program's output, command or last stderr
line raw; its reason says it in words, naming the seat and the program. The deadline is
the ask's (`ask.remaining()`), or `timeout` when the ask has none. Every program runs in
its own process group with a token in its environment; ending it kills the group and
every process that descends from it or carries the token, `setsid` and double-forked ones
included (`reaper.py`). `close()` ends it, and an atexit hook closes whatever is still
running when the interpreter exits, so no process outlives the app.

Limits: each program starts (before exec) with RLIMIT_DATA `TUI_GRID_PROGRAM_MEMORY_MB`
(default 4096 MiB; 0 for none), RLIMIT_NPROC at the user's current processes and threads
plus `TUI_GRID_PROGRAM_PROCESSES` (default 256; 0 for none) and no core files. Its output
cannot run away with time or memory: reading is linear and checks the deadline between
chunks, at most `MAX_OUTPUT` bytes are read per move and a line may be `MAX_LINE` bytes,
beyond either it forfeits (a longer line is read no further: its first `MAX_LINE` bytes
are quoted); its stderr goes to a bounded buffer (`stderr_tail`), never to the terminal.
Outside text in a reason is escaped and clipped (`text.echo`).

The deadline is the ask's; under a driver the driver keeps listening a little past it
(its grace window), then cancels the ask. A line read past the ask's deadline is no
answer but a forfeit, `Fault.LATE` with the line as the program printed it (the driver
adds how late).
"""

from __future__ import annotations

import atexit
import collections
import os
import re
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from tui_grid.core import reaper
from tui_grid.core.agents import Agent, AgentError, Ask
from tui_grid.core.outcome import Failure, Fault
from tui_grid.core.text import echo

try:
    import resource
except ImportError:  # pragma: no cover - not POSIX
    resource = None  # type: ignore[assignment]

MODES = ("oneshot", "persistent")
#: Longest answer line read; anything longer is garbage.
MAX_LINE = 4096
#: Bytes of output read per move at most (blank lines, leftovers and the answer): a
#: program that prints more without answering forfeits.
MAX_OUTPUT = 65536
#: Bytes read from a pipe at a time.
CHUNK = 65536
#: Environment variables that override the limits (see the module docstring).
MEMORY_ENV = "TUI_GRID_PROGRAM_MEMORY_MB"
PROCESSES_ENV = "TUI_GRID_PROGRAM_PROCESSES"
DEFAULT_MEMORY_MB = 4096
DEFAULT_PROCESSES = 256
_NON_BLANK = re.compile(rb"[^ \t\n\r\x0b\x0c]")
#: Bytes of stderr kept per agent, at least (the last ones).
STDERR_KEEP = 8192
#: Seconds a one-shot program may take when the ask has no deadline.
DEFAULT_TIMEOUT = 10.0
#: Seconds past a driver's deadline before an uncancelled ask gives up by itself.
BACKSTOP_SECONDS = 5.0


class LongLine(ValueError):
    """An output line longer than `MAX_LINE` bytes, read no further than that."""

    def __init__(self, start: str) -> None:
        super().__init__(f"an output line longer than {MAX_LINE} bytes")
        #: The line's first `MAX_LINE` bytes, decoded.
        self.start = start


_live: weakref.WeakSet[ExternalProgramAgent] = weakref.WeakSet()
_live_lock = threading.Lock()


def _close_all() -> None:
    with _live_lock:
        agents = list(_live)
    for agent in agents:
        agent.close()


atexit.register(_close_all)


def _limit_from_env(name: str, default: int) -> int:
    """A non-negative whole number from the environment, else `default`."""
    try:
        value = int(os.environ.get(name, "").strip() or default)
    except ValueError:
        return default
    return value if value >= 0 else default


def program_limits() -> list[tuple[int, tuple[int, int]]]:
    """The (resource, (soft, hard)) limits a program starts with, never above the ones
    this process has (see the module docstring)."""
    if resource is None:
        return []
    wanted: list[tuple[int, int]] = [(resource.RLIMIT_CORE, 0)]
    memory_mb = _limit_from_env(MEMORY_ENV, DEFAULT_MEMORY_MB)
    if memory_mb:
        wanted.append((resource.RLIMIT_DATA, memory_mb * 1024 * 1024))
    headroom = _limit_from_env(PROCESSES_ENV, DEFAULT_PROCESSES)
    nproc = getattr(resource, "RLIMIT_NPROC", None)
    if headroom and nproc is not None:
        current = reaper.user_tasks()
        if current is not None:  # relative: the limit counts every process of this user
            wanted.append((nproc, current + headroom))
    limits = []
    for which, value in wanted:
        try:
            soft, _ = resource.getrlimit(which)  # soft <= hard
        except (OSError, ValueError):
            continue
        if soft != resource.RLIM_INFINITY:
            value = min(value, soft)
        limits.append((which, (value, value)))
    return limits


def _limiter(limits: list[tuple[int, tuple[int, int]]]) -> Callable[[], None] | None:
    """A preexec_fn that sets `limits` in the child before exec: C calls only, no imports."""
    if not limits:
        return None
    setrlimit = resource.setrlimit

    def apply() -> None:
        for which, pair in limits:
            try:
                setrlimit(which, pair)
            except (OSError, ValueError):
                pass

    return apply


class _Process:
    """One running program: pipes, a stderr drain thread and a line buffer for stdout."""

    def __init__(self, argv: list[str], stderr_sink: collections.deque[bytes], cwd: str | None, env: dict[str, str] | None) -> None:
        self.token = reaper.new_token()
        child_env = dict(os.environ if env is None else env)
        child_env[reaper.ENV_VAR] = self.token  # inherited by all it starts: how kill() finds them
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group, killed as one
            cwd=cwd,
            env=child_env,
            bufsize=0,
            preexec_fn=_limiter(program_limits()),  # noqa: PLW1509 - C calls only (see _limiter)
        )
        self.pid = self.proc.pid
        self.started = reaper.start_time(self.pid)
        self.killed = False
        self.terminated = False
        self._end_lock = threading.Lock()
        self.descendants: list[int] = []  # other processes killed with it, for diagnostics
        self.buffer = bytearray()
        self.eof = False
        #: Output was discarded in the middle of a line: the rest of that line is stale too.
        self.mid_line = False
        #: Answers read so far: output before the first state answers nothing stale.
        self.answers = 0
        assert self.proc.stdout is not None and self.proc.stderr is not None and self.proc.stdin is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._drain = threading.Thread(target=self._drain_stderr, args=(self.proc.stderr, stderr_sink), daemon=True)
        self._drain.start()

    @staticmethod
    def _drain_stderr(stream: Any, sink: collections.deque[bytes]) -> None:
        kept = sum(len(c) for c in sink)
        try:
            while True:
                chunk = stream.read1(CHUNK) if hasattr(stream, "read1") else stream.read(CHUNK)
                if not chunk:
                    return
                chunk = chunk[-STDERR_KEEP:]
                sink.append(chunk)
                kept += len(chunk)
                # Drop the oldest chunk only while the rest still holds STDERR_KEEP bytes.
                while len(sink) > 1 and kept - len(sink[0]) >= STDERR_KEEP:
                    kept -= len(sink.popleft())
        except (OSError, ValueError):
            return

    def send(self, text: str, deadline: float, cancel: threading.Event | None) -> bool:
        """Write `text` to the program's stdin; False when the deadline passes (or the ask
        is cancelled) first, as with a program that never reads its input. Raises OSError
        (BrokenPipeError) when it has closed its input."""
        assert self.proc.stdin is not None
        data = memoryview(text.encode("utf-8"))
        fd = self.proc.stdin.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while data:
                try:
                    written = os.write(fd, data)
                except BlockingIOError:
                    written = 0
                data = data[written:]
                if not data:
                    return True
                if cancel is not None and cancel.is_set():
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                selector.select(min(left, 0.05))
        return True

    def close_stdin(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass

    def _read_chunk(self, size: int) -> int:
        """Read up to `size` bytes of stdout into the buffer without blocking; how many."""
        assert self.proc.stdout is not None
        try:
            chunk = os.read(self.proc.stdout.fileno(), size)
        except BlockingIOError:
            return 0
        except OSError:
            self.eof = True
            return 0
        if not chunk:
            self.eof = True
            return 0
        self.buffer += chunk
        return len(chunk)

    def discard_pending(self) -> None:
        """Drop output left from an earlier state: what is there now, at most MAX_OUTPUT
        bytes (the rest of a flood counts against the next answer), always to the end of a
        line: a line cut by the drop is dropped whole, never read as an answer."""
        budget = MAX_OUTPUT
        dropped = bytes(self.buffer[-1:])
        self.buffer.clear()
        while budget > 0 and not self.eof:
            got = self._read_chunk(min(CHUNK, budget))
            if not got:
                break
            budget -= got
            dropped = bytes(self.buffer[-1:])
            self.buffer.clear()
        if dropped and dropped != b"\n":
            self.mid_line = True

    def _take_line(self) -> str | None:
        """The next non-blank complete line in the buffer, taken out of it; None if there
        is none yet. Linear in the bytes looked at: blank lines go in one step. Raises
        LongLine for a line longer than MAX_LINE."""
        buffer = self.buffer
        if self.mid_line:
            end = buffer.find(b"\n")
            if end < 0:
                buffer.clear()
                return None
            del buffer[: end + 1]
            self.mid_line = False
        while True:
            found = _NON_BLANK.search(buffer)
            if found is None:
                buffer.clear()
                return None
            start = found.start()
            end = buffer.find(b"\n", start, start + MAX_LINE + 1)
            if end < 0:
                if len(buffer) - start > MAX_LINE:
                    raise LongLine(bytes(buffer[start : start + MAX_LINE]).decode("utf-8", "replace"))
                del buffer[:start]
                return None
            line = bytes(buffer[start:end])
            del buffer[: end + 1]
            text = line.decode("utf-8", "replace").strip()
            if text:
                return text

    def read_line(self, deadline: float, cancel: threading.Event | None) -> str | None:
        """The next non-blank line, "" on end of output, None on timeout or cancel.
        Raises LongLine for a line longer than MAX_LINE, or ValueError for more than
        MAX_OUTPUT bytes read without a line."""
        assert self.proc.stdout is not None
        budget = MAX_OUTPUT
        with selectors.DefaultSelector() as selector:
            selector.register(self.proc.stdout, selectors.EVENT_READ)
            while True:
                line = self._take_line()
                if line is not None:
                    return line
                if self.eof:
                    rest = bytes(self.buffer)
                    self.buffer.clear()
                    return rest.decode("utf-8", "replace").strip()
                if cancel is not None and cancel.is_set():
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                if budget <= 0:
                    raise ValueError(f"more than {MAX_OUTPUT} bytes without an answer line")
                if selector.select(min(left, 0.05)):
                    budget -= self._read_chunk(min(CHUNK, budget + 1))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def settle_stderr(self, seconds: float = 1.0) -> None:
        """Once the program has exited, let the drain thread read what it wrote last (it
        ends at end of output; the bound only matters if a grandchild keeps it open)."""
        self._drain.join(timeout=seconds)

    def terminate(self) -> None:
        """Kill the program, its process group and every process it started (`reaper`),
        once, without waiting for anything: safe from another thread while one reads."""
        with self._end_lock:
            if self.terminated:
                return
            self.terminated = True
            # Once reaped its number may be another's: then only its token finds the rest.
            root = self.pid if self.proc.returncode is None else None
            self.descendants = reaper.kill_tree(root, self.token, self.started)
            if root is None:
                return
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.kill()
            except OSError:
                pass

    def kill(self) -> None:
        """Terminate and reap the process and close its pipes, once: after it is reaped its
        number may belong to another process, which a second killpg would hit."""
        with self._end_lock:
            if self.killed:
                return
            self.killed = True
        self.terminate()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignorable
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._drain.join(timeout=1)
        try:
            if self.proc.stderr is not None:
                self.proc.stderr.close()
        except OSError:
            pass


class ExternalProgramAgent(Agent[Any, Any]):
    """A seat played by an external program (see the module docstring)."""

    kind = "program"
    forfeits_when_late = True

    def __init__(
        self,
        command: str,
        mode: str = "oneshot",
        encode_state: Callable[[Ask[Any, Any]], str] | None = None,
        parse_answer: Callable[[str], Any] | None = None,
        name: str = "",
        timeout: float = DEFAULT_TIMEOUT,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        argv = shlex.split(command)
        if not argv:
            raise ValueError("empty command")
        super().__init__(name or f"{mode}:{command}")
        self.command = command
        self.argv = argv
        self.mode = mode
        self.encode_state = encode_state or (lambda ask: ask.engine.observation(ask.state, ask.seat) + "\n")
        self.parse_answer = parse_answer or (lambda line: line)
        self.timeout = timeout
        self.cwd = cwd
        self.env = env
        self._stderr: collections.deque[bytes] = collections.deque()
        self._process: _Process | None = None
        self._active: _Process | None = None  # the one in an exchange now, for close()
        self._lock = threading.Lock()
        self.pids: list[int] = []  # every process started, for tests and diagnostics
        with _live_lock:
            _live.add(self)

    # --- diagnostics ----------------------------------------------------------------------
    @property
    def label(self) -> str:
        return f"{self.mode}:{self.command}"

    def stderr_tail(self, limit: int = 400) -> str:
        """The last `limit` characters the program wrote on stderr."""
        text = b"".join(self._stderr).decode("utf-8", "replace")
        return text[-limit:]

    def last_words(self) -> str:
        """The last non-empty line of the program's stderr, whole, stripped: where a
        traceback says its error. It starts where the line does unless the line is
        longer than the tail kept (`STDERR_KEEP` bytes)."""
        for line in reversed(self.stderr_tail(STDERR_KEEP).splitlines()):
            if line.strip():
                return line.strip()
        return ""

    def _who(self, ask: Ask[Any, Any]) -> str:
        seats = getattr(ask.engine, "seats", ())
        seat = seats[ask.seat] if 0 <= ask.seat < len(seats) else f"seat {ask.seat}"
        return f"{seat} ({echo(self.label)})"

    def _fail(self, ask: Ask[Any, Any], failure: Failure) -> AgentError:
        return AgentError(f"{self._who(ask)} {failure.phrase()}", forfeit=True, failure=failure)

    def _ended(self, code: int | None, when: str = "") -> Failure:
        """A program that exited: crashed (a code other than 0) or exited, `when` (without
        answering, by default), with its last stderr line (`last_words`)."""
        fault = Fault.CRASHED if code not in (0, None) else Fault.EXITED
        return Failure(fault, self.last_words(), when, () if code is None else (code,))

    # --- processes ------------------------------------------------------------------------
    def _spawn(self, ask: Ask[Any, Any]) -> _Process:
        try:
            process = _Process(self.argv, self._stderr, self.cwd, self.env)
        except OSError as exc:
            raise self._fail(ask, Failure(Fault.COULD_NOT_START, self.command, str(exc.strerror or exc))) from None
        self.pids.append(process.pid)
        return process

    def _end(self, process: _Process | None) -> None:
        if process is not None:
            process.kill()

    def start(self, engine: Any, seat: int) -> None:
        """A new game: a persistent program starts afresh."""
        with self._lock:
            self._end(self._process)
            self._process = None

    def close(self) -> None:
        active = self._active
        if active is not None:  # end an exchange in progress now rather than at its deadline
            active.terminate()
        with self._lock:
            self._end(self._process)
            self._process = None

    def __del__(self) -> None:  # a forgotten agent still leaves no process behind
        try:
            for process in (self._active, self._process):
                if process is not None:
                    process.kill()
        except Exception:
            pass

    # --- acting ---------------------------------------------------------------------------
    def act(self, ask: Ask[Any, Any]) -> Any:
        remaining = ask.remaining()
        budget = self.timeout if remaining is None else remaining
        # Under a driver its deadline rules (it cancels a late ask); this is only a backstop
        # so that an agent asked without one never waits for ever.
        deadline = time.monotonic() + budget + (0.0 if remaining is None else BACKSTOP_SECONDS)
        text = self.encode_state(ask)
        if not text.endswith("\n"):
            text += "\n"
        with self._lock:
            if self.mode == "oneshot":
                process = self._active = self._spawn(ask)
                try:
                    return self._exchange(ask, process, text, deadline, budget, oneshot=True)
                finally:
                    self._active = None
                    process.kill()
            process = self._process
            if process is not None and not process.alive():
                code = process.proc.poll()
                process.kill()
                self._process = None
                raise self._fail(ask, self._ended(code, "between moves"))
            if process is None:
                process = self._process = self._spawn(ask)
            self._active = process
            try:
                return self._exchange(ask, process, text, deadline, budget, oneshot=False)
            except BaseException:
                # After a failure the stream is out of step: the next ask starts a new process.
                process.kill()
                self._process = None
                raise
            finally:
                self._active = None

    def _exchange(self, ask: Ask[Any, Any], process: _Process, text: str, deadline: float, budget: float, oneshot: bool) -> Any:
        if not oneshot and process.answers:
            process.discard_pending()  # what it printed since its last answer was for an earlier state
        sent = True
        try:
            sent = process.send(text, deadline, ask.control.cancel)
        except (BrokenPipeError, OSError):
            if oneshot:
                pass  # it may have answered without reading its input
            else:
                code = process.proc.poll()
                raise self._fail(ask, self._ended(code, "before reading its state")) from None
        if oneshot:
            process.close_stdin()
        line: str | None = None
        if sent:
            try:
                line = process.read_line(deadline, ask.control.cancel)
            except LongLine as exc:
                raise self._fail(ask, Failure(Fault.BAD_OUTPUT, exc.start, numbers=(MAX_LINE,))) from None
            except ValueError as exc:
                raise self._fail(ask, Failure(Fault.BAD_OUTPUT, note=str(exc))) from None
        if line is None:
            if ask.control.cancel is not None and ask.control.cancel.is_set():
                raise AgentError(f"{self._who(ask)} was cancelled", forfeit=False)
            raise self._fail(ask, Failure(Fault.NO_ANSWER, numbers=(budget,)))
        if line == "":
            try:
                code = process.proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
            if code is not None:
                process.settle_stderr()  # its last words name the reason: read them before saying it
            raise self._fail(ask, self._ended(code))
        if ask.deadline is not None and ask.clock() > ask.deadline:
            # The seat has lost at the deadline: the line only says how late it came.
            raise self._fail(ask, Failure(Fault.LATE, line))
        process.answers += 1
        try:
            return self.parse_answer(line)
        except ValueError as exc:
            raise self._fail(ask, Failure(Fault.BAD_OUTPUT, line, str(exc))) from None
