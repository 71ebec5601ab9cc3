"""`tui-grid tron bot`: a HackerRank Tron bot on stdin/stdout.

Reads states until end of input and answers each with one line (`UP`, `DOWN`, `LEFT` or
`RIGHT`), flushed at once. One state then end of input is exactly HackerRank's run; a
stream of states works too, of any board size (where a state ends: `protocol.py`).
A malformed state prints an error on stderr and exits with code 2.

Run it as `python -m tui_grid.games.tron.botmain [--level L] [--time-ms N]` or through
the CLI. Imports only the stdlib, the protocol and the bots, so it starts fast.
"""

from __future__ import annotations

import sys
import time

from tui_grid.games.tron import protocol
from tui_grid.games.tron.bots import DEFAULT_TIME_MS, LEVELS, WORDS, choose_index

USAGE = "usage: tui-grid tron bot [--level easy|medium|hard] [--time-ms N]"


def parse_args(argv: list[str]) -> tuple[str, float]:
    """(level, time_ms) from the arguments; ValueError with a readable message."""
    level, time_ms = "hard", float(DEFAULT_TIME_MS)
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            raise SystemExit(print(USAGE) or 0)
        key, eq, value = arg.partition("=")
        if key not in ("--level", "--time-ms"):
            raise ValueError(f"unknown argument {arg!r}")
        if not eq:
            if not args:
                raise ValueError(f"{key} needs a value")
            value = args.pop(0)
        if key == "--level":
            if value not in LEVELS:
                raise ValueError(f"--level must be one of {', '.join(LEVELS)}, got {value!r}")
            level = value
        else:
            try:
                time_ms = float(value)
            except ValueError:
                raise ValueError(f"--time-ms must be a number, got {value!r}") from None
            if time_ms <= 0:
                raise ValueError(f"--time-ms must be positive, got {value!r}")
    return level, time_ms


def run(stdin, stdout, level: str = "hard", time_ms: float = DEFAULT_TIME_MS) -> int:  # type: ignore[no-untyped-def]
    """Answer every state on `stdin`; returns the exit code."""
    count = 0
    for lines in protocol.read_states(stdin):
        start = time.perf_counter()
        count += 1
        try:
            state = protocol.parse_lines(lines)
        except protocol.ProtocolError as exc:
            print(f"tui-grid tron bot: error: state {count}: {exc}", file=sys.stderr)
            return 2
        index = choose_index(state, state.seat, time_ms, None, level, start)
        stdout.write(WORDS[index] + "\n")
        stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        level, time_ms = parse_args(sys.argv[1:] if argv is None else argv)
    except ValueError as exc:
        print(f"tui-grid tron bot: error: {exc}\n{USAGE}", file=sys.stderr)
        return 2
    try:
        return run(sys.stdin, sys.stdout, level, time_ms)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
