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

A program that crashes, exits, prints nothing in time or prints something the game cannot
parse raises `AgentError(reason, forfeit=True)`, with a reason naming the seat, the
program and what went wrong. The deadline is the ask's (`ask.remaining()`), or `timeout`
when the ask has none. Every program runs in its own process group; `close()` kills the
group, and an atexit hook closes whatever is still running when the interpreter exits, so
no process outlives the app. The program's stderr goes to a bounded buffer (`stderr_tail`),
never to the terminal.
"""

from __future__ import annotations

import atexit
import collections
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from typing import Any, Callable

from tui_grid.core.agents import Agent, AgentError, Ask

MODES = ("oneshot", "persistent")
#: Longest answer line read; anything longer is garbage.
MAX_LINE = 4096
#: Bytes of stderr kept per agent.
STDERR_KEEP = 8192
#: Seconds a one-shot program may take when the ask has no deadline.
DEFAULT_TIMEOUT = 10.0
#: Seconds past a driver's deadline before an uncancelled ask gives up by itself.
BACKSTOP_SECONDS = 5.0

_live: "weakref.WeakSet[ExternalProgramAgent]" = weakref.WeakSet()
_live_lock = threading.Lock()


def _close_all() -> None:
    with _live_lock:
        agents = list(_live)
    for agent in agents:
        agent.close()


atexit.register(_close_all)


class _Process:
    """One running program: pipes, a stderr drain thread and a line buffer for stdout."""

    def __init__(self, argv: list[str], stderr_sink: collections.deque[bytes], cwd: str | None, env: dict[str, str] | None) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group, killed as one
            cwd=cwd,
            env=env,
            bufsize=0,
        )
        self.pid = self.proc.pid
        self.killed = False
        self.buffer = b""
        self.eof = False
        assert self.proc.stdout is not None and self.proc.stderr is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._drain = threading.Thread(target=self._drain_stderr, args=(self.proc.stderr, stderr_sink), daemon=True)
        self._drain.start()

    @staticmethod
    def _drain_stderr(stream: Any, sink: collections.deque[bytes]) -> None:
        try:
            while True:
                chunk = stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096)
                if not chunk:
                    return
                sink.append(chunk)
                while sum(len(c) for c in sink) > STDERR_KEEP and len(sink) > 1:
                    sink.popleft()
        except (OSError, ValueError):
            return

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode("utf-8"))
        self.proc.stdin.flush()

    def close_stdin(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass

    def _pump(self) -> None:
        """Read whatever stdout has now, without blocking."""
        assert self.proc.stdout is not None
        while not self.eof:
            try:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
            except BlockingIOError:
                return
            except OSError:
                self.eof = True
                return
            if not chunk:
                self.eof = True
                return
            self.buffer += chunk

    def discard_pending(self) -> None:
        self._pump()
        self.buffer = b""

    def read_line(self, deadline: float, cancel: threading.Event | None) -> str | None:
        """The next non-blank line, "" on end of output, None on timeout or cancel.
        Raises ValueError for a line longer than MAX_LINE."""
        assert self.proc.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.proc.stdout, selectors.EVENT_READ)
            while True:
                while b"\n" in self.buffer:
                    line, self.buffer = self.buffer.split(b"\n", 1)
                    if line.strip():
                        return line.decode("utf-8", "replace").strip()
                if len(self.buffer) > MAX_LINE:
                    raise ValueError(f"an output line longer than {MAX_LINE} bytes")
                if self.eof:
                    rest, self.buffer = self.buffer, b""
                    return rest.decode("utf-8", "replace").strip()
                if cancel is not None and cancel.is_set():
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                if selector.select(min(left, 0.05)):
                    self._pump()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def settle_stderr(self, seconds: float = 1.0) -> None:
        """Once the program has exited, let the drain thread read what it wrote last (it
        ends at end of output; the bound only matters if a grandchild keeps it open)."""
        self._drain.join(timeout=seconds)

    def kill(self) -> None:
        """Kill the whole process group and reap the process, once: after it is reaped its
        number may belong to another process, which a second killpg would hit."""
        if self.killed:
            return
        self.killed = True
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.kill()
        except OSError:
            pass
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
        self._lock = threading.Lock()
        self.pids: list[int] = []  # every process started, for tests and diagnostics
        with _live_lock:
            _live.add(self)

    # --- diagnostics ----------------------------------------------------------------------
    @property
    def label(self) -> str:
        return f"{self.mode}:{self.command}"

    def stderr_tail(self, limit: int = 400) -> str:
        text = b"".join(self._stderr).decode("utf-8", "replace")
        return text[-limit:]

    def _who(self, ask: Ask[Any, Any]) -> str:
        seats = getattr(ask.engine, "seats", ())
        seat = seats[ask.seat] if 0 <= ask.seat < len(seats) else f"seat {ask.seat}"
        return f"{seat} ({self.label})"

    def _fail(self, ask: Ask[Any, Any], what: str) -> AgentError:
        tail = self.stderr_tail(200).strip().splitlines()
        extra = f"; stderr: {tail[-1]}" if tail else ""
        return AgentError(f"{self._who(ask)} {what}{extra}", forfeit=True)

    # --- processes ------------------------------------------------------------------------
    def _spawn(self, ask: Ask[Any, Any]) -> _Process:
        try:
            process = _Process(self.argv, self._stderr, self.cwd, self.env)
        except OSError as exc:
            raise self._fail(ask, f"could not start: {exc.strerror or exc}") from None
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
        with self._lock:
            self._end(self._process)
            self._process = None

    def __del__(self) -> None:  # a forgotten agent still leaves no process behind
        try:
            process = self._process
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
                process = self._spawn(ask)
                try:
                    return self._exchange(ask, process, text, deadline, budget, oneshot=True)
                finally:
                    process.kill()
            process = self._process
            if process is not None and not process.alive():
                code = process.proc.poll()
                process.kill()
                self._process = None
                raise self._fail(ask, f"exited (code {code}) between moves")
            if process is None:
                process = self._process = self._spawn(ask)
            try:
                return self._exchange(ask, process, text, deadline, budget, oneshot=False)
            except BaseException:
                # After a failure the stream is out of step: the next ask starts a new process.
                process.kill()
                self._process = None
                raise

    def _exchange(self, ask: Ask[Any, Any], process: _Process, text: str, deadline: float, budget: float, oneshot: bool) -> Any:
        if not oneshot:
            process.discard_pending()
        try:
            process.send(text)
        except (BrokenPipeError, OSError):
            if oneshot:
                pass  # it may have answered without reading its input
            else:
                code = process.proc.poll()
                raise self._fail(ask, f"exited (code {code}) before reading its state") from None
        if oneshot:
            process.close_stdin()
        try:
            line = process.read_line(deadline, ask.control.cancel)
        except ValueError as exc:
            raise self._fail(ask, f"printed {exc}") from None
        if line is None:
            if ask.control.cancel is not None and ask.control.cancel.is_set():
                raise AgentError(f"{self._who(ask)} was cancelled", forfeit=False)
            raise self._fail(ask, f"gave no answer within {budget:.3g} s")
        if line == "":
            try:
                code = process.proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
            how = "crashed" if code not in (0, None) else "exited"
            code_text = f" with code {code}" if code is not None else ""
            if code is not None:
                process.settle_stderr()  # its last words name the reason: read them before saying it
            raise self._fail(ask, f"{how}{code_text} without answering")
        try:
            return self.parse_answer(line)
        except ValueError as exc:
            shown = line if len(line) <= 60 else line[:57] + "..."
            raise self._fail(ask, f"printed {shown!r}, {exc}") from None
