"""The property and fuzz tests at their full example counts.

The suite draws a share of each property test's examples (`tests/examples.py`) to stay
within its time budget; this runs the same tests twice in one go, at the suite's share and
thorough (`TUI_GRID_THOROUGH=1`), and prints both with their CPU seconds.

    python bench/properties.py [pytest -k expression]
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ["tests/test_jimmy_solver.py", "tests/test_fuzz_parsers.py", "tests/test_fuzz_cli.py", "tests/test_ice_solver.py",
         "tests/test_bunny_program.py", "tests/test_board_view_cache.py"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(path: str, thorough: bool, extra: list[str]) -> tuple[str, float, float]:
    """pytest on one file; returns (outcome, wall s, CPU s)."""
    env = {**os.environ, "TUI_GRID_THOROUGH": "1" if thorough else "0"}
    cpu, wall = children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:benchmark", "-p", "no:cacheprovider",
                           path, *extra], cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
    last = (proc.stdout.strip().splitlines() or ["?"])[-1]
    outcome = last.split(" in ")[0] if proc.returncode == 0 else f"FAILED ({last[:60]})"
    return outcome, wall, cpu


def main() -> int:
    extra = ["-k", sys.argv[1]] if len(sys.argv) > 1 else []
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'file':<30} {'suite share':>24} {'thorough':>24} {'CPU ratio':>9}")
    failed = False
    for path in FILES:
        short = run(path, False, extra)
        full = run(path, True, extra)
        failed |= short[0].startswith("FAILED") or full[0].startswith("FAILED")
        ratio = full[2] / short[2] if short[2] else float("nan")
        print(f"{Path(path).name:<30} {short[0][:12]:>12} {short[2]:>8.1f} s CPU {full[0][:12]:>12} {full[2]:>8.1f} s CPU {ratio:>8.1f}x")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
