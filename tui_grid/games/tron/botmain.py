"""`tui-grid tron bot`: a HackerRank Tron bot on stdin/stdout.

Reads states until end of input and answers each with one line (`UP`, `DOWN`, `LEFT` or
`RIGHT`), flushed at once. One state then end of input is exactly HackerRank's run; a
stream of states works too, of any board size (where a state ends: `protocol.py`).
A malformed state prints an error on stderr and exits with code 2, and so does input that
could never be a state: a line longer than `MAX_LINE` characters or a state of more than
`MAX_STATE_LINES` lines, found while reading it in bounded pieces (so a 200 MB line costs
no more memory than a short one). Errors quote at most a clipped piece of the input.

Run it as `python -m tui_grid.games.tron.botmain [--level L] [--time-ms N]` or through
the CLI. Imports only the stdlib, the protocol and the bots, so it starts fast.

The hard bot searches in the C kernel (kernel.py) when it is built, else in Python: this
process never builds it (a one-shot process cannot wait for a compile, and a build left
running after its answer would outlive its move). The app builds it, or
`python -m tui_grid.games.tron.kernel`.

The time per move counts from when the state could first be read: for the first state
of a fresh process (HackerRank's one-shot way) that is the process's own start, so the
interpreter's start-up and the imports come out of the budget (though the search keeps
at least a quarter of it), and EXIT_MS more is kept back for the process to end; later
states of a stream count from their arrival.
"""

from __future__ import annotations

import os
import sys
import time

from tui_grid.games.tron import protocol
from tui_grid.games.tron.bots import DEFAULT_TIME_MS, LEVELS, WORDS, choose_index

USAGE = "usage: tui-grid tron bot [--level easy|medium|hard] [--time-ms N]"
#: Longest input line, in characters (a grid row is at most 40 wide).
MAX_LINE = 1024
#: Most lines in one state (a grid is at most 30 rows high).
MAX_STATE_LINES = 1024
#: Characters of an error message quoting the input, at most.
MESSAGE_LIMIT = 160
#: Milliseconds kept back on a fresh process's first answer for the process to exit
#: (`exit_now` skips the interpreter's teardown, so little is left after the answer).
EXIT_MS = 8


def process_age() -> float:
    """Seconds since this process started: the larger of its CPU time (a floor when the
    machine is idle) and the age by /proc (10 ms ticks; absent off Linux)."""
    age = time.process_time()
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        ticks = int(stat[stat.rindex(b")") + 2:].split()[19])
        age = max(age, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        pass
    return age


#: When this process started, on the perf_counter clock.
BORN = time.perf_counter() - process_age()


class InputError(ValueError):
    """Input that is no state, found while reading; the message names the line."""


class BoundedLines:
    """The lines of `stream`, read at most MAX_LINE + 2 characters at a time; a longer
    line, or more than MAX_STATE_LINES lines in one state, raises InputError at once.
    `line` counts the current state's lines from its first non-blank one (`run` resets
    it after each state)."""

    def __init__(self, stream) -> None:  # type: ignore[no-untyped-def]
        self.stream = stream
        self.line = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        readline = getattr(self.stream, "readline", None)
        if readline is None:  # any iterable of lines, already in memory
            for line in self.stream:
                yield self._check(line)
            return
        while True:
            line = readline(MAX_LINE + 2)  # room for the line's own "\r\n"
            if not line:
                return
            yield self._check(line)

    def _check(self, line: str) -> str:
        if self.line or line.strip():
            self.line += 1
        if len(line.rstrip("\r\n")) > MAX_LINE:
            raise InputError(f"line {self.line}: longer than {MAX_LINE} characters")
        if self.line > MAX_STATE_LINES:
            raise InputError(f"more than {MAX_STATE_LINES} lines")
        return line


def parse_args(argv: list[str]) -> tuple[str, float]:
    """(level, time_ms) from the arguments; ValueError with a readable message, quoting
    the argument as typed (`_error` escapes and cuts it)."""
    level, time_ms = "hard", float(DEFAULT_TIME_MS)
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            raise SystemExit(print(USAGE) or 0)
        key, eq, value = arg.partition("=")
        if key not in ("--level", "--time-ms"):
            raise ValueError(f"unknown argument '{arg}'")
        if not eq:
            if not args:
                raise ValueError(f"{key} needs a value")
            value = args.pop(0)
        if key == "--level":
            if value not in LEVELS:
                raise ValueError(f"--level must be one of {', '.join(LEVELS)}, got '{value}'")
            level = value
        else:
            try:
                time_ms = float(value)
            except ValueError:
                raise ValueError(f"--time-ms must be a number, got '{value}'") from None
            if time_ms <= 0:
                raise ValueError(f"--time-ms must be positive, got '{value}'")
    return level, time_ms


def run(stdin, stdout, level: str = "hard", time_ms: float = DEFAULT_TIME_MS, born: float | None = None) -> int:  # type: ignore[no-untyped-def]
    """Answer every state on `stdin`; returns the exit code. `born` (perf_counter time)
    is when the process started: the first answer's clock starts there."""
    count = 0
    source = BoundedLines(stdin)
    states = protocol.read_states(source)
    while True:
        try:
            lines = next(states, None)
            if lines is None:
                return 0
            source.line = 0
            start = time.perf_counter()
            budget = time_ms
            if count == 0 and born is not None:
                # The first state of a fresh process: its clock started with the process
                # (but the search keeps at least a quarter of the budget).
                start = max(born, start - 0.75 * time_ms / 1000.0)
                budget = max(1.0, time_ms - EXIT_MS)
            count += 1
            state = protocol.parse_lines(lines)
        except (InputError, protocol.ProtocolError, UnicodeDecodeError) as exc:
            number = count if isinstance(exc, protocol.ProtocolError) else count + 1
            what = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
            return _error(f"state {number}: {what}")
        index = choose_index(state, state.seat, budget, None, level, start)
        stdout.write(WORDS[index] + "\n")
        stdout.flush()


def _error(message: str) -> int:
    from tui_grid.core.text import echo  # only now: the bot loop must start fast

    print(f"tui-grid tron bot: error: {echo(message, MESSAGE_LIMIT)}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    try:
        level, time_ms = parse_args(sys.argv[1:] if argv is None else argv)
    except ValueError as exc:
        code = _error(str(exc))
        print(USAGE, file=sys.stderr)
        return code
    try:
        return run(sys.stdin, sys.stdout, level, time_ms, BORN)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


def exit_now(code: int) -> None:
    """End the process at once once the answers are out: flush, then `os._exit`, skipping
    the interpreter's teardown (about 7 ms of a one-shot run, after the answer, that
    HackerRank's clock still counts)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    exit_now(main())
