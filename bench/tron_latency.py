"""Keystroke-to-screen latency in Tron, in a real terminal (tmux), for any checkout.

    python bench/tron_latency.py [--python PATH] [--samples 30] [--sizes 80x24,160x50]

`--python` is the interpreter of the checkout to measure (its venv's python, which runs
`-m tui_grid`), so one script measures the code before and after a change the same way.
Two things are timed, from `tmux send-keys` to the first `capture-pane` that shows it:
- pause: space toggles PAUSED in the status line: the app's own latency from key to
  screen while the game clock runs (no tick to wait for);
- turn: an arrow key turns red's cycle; the new heading shows on the next tick, so this
  includes the wait for the tick (the table gives the tick length).
The app runs with two humans at speed 9 in a fresh data folder; the tmux server and the
app are gone at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SESSION = "tron-latency"
TICK_SECONDS_AT_9 = 0.25 * 0.12  # TronEngine.tick_seconds x the speed-9 factor


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SESSION, *args], capture_output=True, text=True, check=False).stdout


def screen() -> str:
    return tmux("capture-pane", "-p", "-t", SESSION)


def wait_for(predicate, limit: float = 5.0) -> float | None:  # type: ignore[no-untyped-def]
    """Seconds until the screen satisfies `predicate` (polled every 1 ms), or None."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        if predicate(screen()):
            return time.perf_counter() - start
        time.sleep(0.001)
    return None


def round_over(text: str) -> bool:
    return "enter: round" in text or "enter plays the next" in text


def status_line(text: str) -> str:
    lines = [line for line in text.splitlines() if "round" in line and "tick" in line]
    return lines[-1] if lines else ""


def measure(python: str, size: str, samples: int) -> dict[str, list[float]]:
    columns, rows = size.split("x")
    data = Path(tempfile.mkdtemp(prefix="tron-latency-"))
    (data / "tron-setup.json").write_text(json.dumps({"players": ["human", "human"], "board": "this", "rounds": 99, "speed": 9}))
    env = {**os.environ, "TUI_GRID_DATA": str(data)}
    command = f"{python} -m tui_grid play tron standard"
    tmux("kill-server")
    for attempt in range(5):  # a server still shutting down refuses a new session for a moment
        time.sleep(0.3)
        started = subprocess.run(["tmux", "-L", SESSION, "new-session", "-d", "-s", SESSION, "-x", columns, "-y", rows, command],
                                 env=env, capture_output=True, check=False)
        if started.returncode == 0:
            break
    else:
        raise RuntimeError(f"tmux would not start: {started.stderr!r}")
    out: dict[str, list[float]] = {"pause": [], "turn": []}
    try:
        if wait_for(lambda text: "New Tron match" in text, 20) is None:
            raise RuntimeError("the setup dialog did not show:\n" + screen())
        tmux("send-keys", "-t", SESSION, "Enter")
        if wait_for(lambda text: "tick" in status_line(text), 10) is None:
            raise RuntimeError("the match did not start:\n" + screen())
        for index in range(samples):
            paused = "PAUSED" in status_line(screen())
            tmux("send-keys", "-t", SESSION, "Space")
            seconds = wait_for(lambda text, was=paused: ("PAUSED" in status_line(text)) != was)
            if seconds is not None:
                out["pause"].append(seconds)
        if "PAUSED" in status_line(screen()):
            tmux("send-keys", "-t", SESSION, "Space")
        turns = 0
        while turns < samples:
            text = screen()
            if round_over(text):  # the round ended: the next one
                tmux("send-keys", "-t", SESSION, "Enter")
                wait_for(lambda t: not round_over(t), 5)
                time.sleep(0.1)
                continue
            key, glyph = (("Up", "R↑") if "R↑" not in text else ("Right", "R→"))
            tmux("send-keys", "-t", SESSION, key)
            seconds = wait_for(lambda t, g=glyph: g in t or round_over(t), 3)
            if seconds is not None and glyph in screen():
                out["turn"].append(seconds)
                turns += 1
    finally:
        tmux("kill-server")
        shutil.rmtree(data, ignore_errors=True)
    return out


def row(size: str, what: str, values: list[float]) -> str:
    if not values:
        return f"| {size} | {what} | 0 | - | - | - |"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"| {size} | {what} | {len(values)} | {statistics.median(values) * 1000:.1f} | {p90 * 1000:.1f} | {max(values) * 1000:.1f} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the checkout to measure")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--sizes", default="80x24,160x50")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is needed: apt-get install tmux", file=sys.stderr)
        return 2
    print(f"load average at start: {os.getloadavg()[0]:.2f}; tick at speed 9: {TICK_SECONDS_AT_9 * 1000:.0f} ms; {args.python}")
    print("| size | key | samples | median ms | p90 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes.split(","):
        result = measure(args.python, size, args.samples)
        print(row(size, "pause (space)", result["pause"]))
        print(row(size, "turn (arrow, waits a tick)", result["turn"]))
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
