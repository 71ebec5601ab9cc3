"""Does the demo run for hours? The attract mode at top speed (speed 9, short scenes) in a
headless app for a while, with the process's memory, threads and child processes sampled
at every scene change: the end must look like the start.

    python bench/demo_soak.py [--minutes 10] [--scene-seconds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_grid.ui.app import TuiGridApp  # noqa: E402
from tui_grid.ui.settings import Settings  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children() -> int:
    me = str(os.getpid())
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "stat").read_text().rsplit(") ", 1)[1].split()[1] == me:
                    count += 1
            except (OSError, IndexError):
                pass
    return count


async def soak(minutes: float, scene_seconds: float) -> list[tuple[float, int, int, float, int, int]]:
    app = TuiGridApp(settings=Settings(speed=9), demo={"scene_seconds": scene_seconds, "seed": 1})
    samples: list[tuple[float, int, int, float, int, int]] = []
    async with app.run_test(size=(100, 34)) as pilot:
        started = time.monotonic()
        last = (-1, -1)
        while time.monotonic() - started < minutes * 60:
            await pilot.pause(0.5)
            demo = app.demo
            if demo is not None and (demo.index, demo.cycle) != last:
                last = (demo.index, demo.cycle)
                samples.append((time.monotonic() - started, demo.cycle, demo.index, rss_mb(), threading.active_count(), children()))
        await pilot.press("q")
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--scene-seconds", type=float, default=4.0)
    args = parser.parse_args()
    os.environ["TUI_GRID_DATA"] = tempfile.mkdtemp(prefix="tui-grid-soak-")
    load = os.getloadavg()[0]
    samples = asyncio.run(soak(args.minutes, args.scene_seconds))
    print(f"demo soak: {args.minutes:g} min at speed 9, {args.scene_seconds:g} s scenes, load {load:.2f} at the start")
    print(f"{'t (s)':>8} {'cycle':>5} {'scene':>5} {'RSS MB':>8} {'threads':>7} {'children':>8}")
    shown = samples if len(samples) <= 12 else samples[:3] + samples[len(samples) // 2 : len(samples) // 2 + 2] + samples[-4:]
    for t, cycle, scene, rss, threads, kids in shown:
        print(f"{t:8.1f} {cycle:5d} {scene + 1:5d} {rss:8.1f} {threads:7d} {kids:8d}")
    if len(samples) > 6:
        first = samples[len(samples) // 6]  # after the first cycle warmed every game up
        last = samples[-1]
        print(f"RSS {first[3]:.1f} -> {last[3]:.1f} MB ({last[3] / first[3]:.2f}x), "
              f"threads {first[4]} -> {last[4]}, children {first[5]} -> {last[5]}, {len(samples)} scene changes")
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
