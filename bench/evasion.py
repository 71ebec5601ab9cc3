"""Evasion benchmark: engine speed, and catch steps of our bots beside plain baselines.

    python bench/evasion.py [--quick] [--games K] [--seed S]

1. Headless engine steps/s on an empty board and with 10 walls standing (the hunter
   bouncing, the prey moving at random), target >= 50,000 steps/s with walls.
2. Median catch steps of the builtin hunter against the random prey and against the
   builtin prey, over N in {1, 10, 25, 50} and M in {2, 5, 10}; uncaught games count as
   the step limit (24,000). Baseline in the same run: the nowall hunter (it never builds)
   against the random prey, shown as a ratio. The last column is the wall time of the
   builtin-vs-builtin games of the cell (the builtin prey's search dominates it).
3. The prey against every hunter style (issue #17): the builtin prey and the random prey,
   same seeds, same run, against our builtin hunter, the random-wall hunter and the
   sparring hunters of `sparring.py` (halver, rectangle, level), at N=10 M=5 and N=50
   M=10: median and worst (fewest) catch steps, uncaught counting as the step limit, and
   the ratio builtin/random (the goal is at least 5x on the median), and the builtin
   prey's process time per game (the 2016 protocol gives 120 s a game).
   `--part prey` runs only this table. `--beam-from-start W` is a probe of how far an
   exact-model search can get: the prey runs its endgame search (a beam W positions wide)
   from its first move on the whole board, not only in the last 1500 cells.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_grid.games.evasion import ai  # noqa: E402
from tui_grid.games.evasion.engine import HUNTER, NO_WALLS, PREY, PREY_MOVES, EvasionEngine  # noqa: E402
from tui_grid.games.evasion.headless import DEFAULT_MAX_STEPS, run_match  # noqa: E402
from tui_grid.games.evasion.rules import Config  # noqa: E402

TEN_WALLS = [
    (20, 40, 120, 40), (150, 10, 150, 90), (200, 120, 290, 120), (60, 150, 60, 260), (100, 280, 250, 280),
    (270, 150, 270, 250), (10, 100, 40, 100), (120, 180, 180, 180), (220, 20, 280, 20), (90, 60, 90, 110),
]


def steps_per_second(walls: list[tuple[int, int, int, int]], steps: int) -> float:
    engine = EvasionEngine(Config(n=10, m=10))
    start = engine.make_state(walls=walls, hunter=(1, 3), prey=(170, 150))
    rng = random.Random(1)
    moves = [PREY_MOVES[rng.randrange(9)] for _ in range(1024)]
    state = start
    step = engine.step
    began = time.perf_counter()
    for i in range(steps):
        if state.prey_moves_next:
            state = step(state, {HUNTER: NO_WALLS, PREY: moves[i & 1023]}).state
        else:
            state = step(state, {HUNTER: NO_WALLS}).state
        if state.caught_at is not None:
            state = start
    return steps / (time.perf_counter() - began)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and only N=10, M=5 for the builtin prey")
    parser.add_argument("--games", type=int, default=None, help="games per cell (default 9, quick 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--part", choices=("all", "speed", "grid", "prey"), default="all", help="which tables (default all)")
    parser.add_argument("--hunters", default=",".join(STYLES), help=f"hunters of the prey table (default {','.join(STYLES)})")
    parser.add_argument("--setups", default="10:5,50:10", help="N:M pairs of the prey table (default 10:5,50:10)")
    parser.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS,
                        help=f"step limit of the prey table (default {DEFAULT_MAX_STEPS}, the course's)")
    parser.add_argument("--beam-from-start", type=int, default=0, metavar="W",
                        help="probe: the builtin prey runs its endgame search, W positions a move, from its first move")
    args = parser.parse_args(argv)
    if args.beam_from_start:
        ai.BEAM_AREA = 10**9  # any rectangle
        ai.BEAM_WIDTH = args.beam_from_start
        print(f"probe: the builtin prey's endgame search runs from its first move, {args.beam_from_start} positions a move")
    if args.part == "prey":
        setups = [tuple(int(v) for v in pair.split(":")) for pair in args.setups.split(",")]
        prey_table(args.hunters.split(","), setups, args.games or (3 if args.quick else 10), args.seed, args.max_steps)
        return 0
    games = args.games or (3 if args.quick else 9)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# evasion bench: {games} games per cell, seeds {args.seed}..{args.seed + games - 1}, "
          f"step limit {DEFAULT_MAX_STEPS}, load average {load:.2f} on {os.cpu_count()} CPUs")

    count = 60_000 if args.quick else 300_000
    empty = steps_per_second([], count)
    walled = steps_per_second(TEN_WALLS, count)
    print("\n## engine speed (headless steps/s)\n")
    print("| board | steps/s |\n|---|---:|")
    print(f"| no walls | {empty:,.0f} |")
    print(f"| 10 walls | {walled:,.0f} |")

    ns = (1, 10, 25, 50)
    ms = (2, 5, 10)
    print("\n## median catch steps (builtin hunter)\n")
    print("| N | M | vs random prey | vs builtin prey | builtin/random prey | nowall hunter vs random | nowall/builtin hunter | caught (rnd, bltn) | bltn s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for n in ns:
        for m in ms:
            full = not args.quick or (n, m) == (10, 5)
            rnd = run_match("builtin", "random", n, m, games=games, seed=args.seed)
            base = run_match("nowall", "random", n, m, games=games, seed=args.seed)
            began = time.perf_counter()
            smart = run_match("builtin", "builtin", n, m, games=games, seed=args.seed) if full else None
            seconds = time.perf_counter() - began
            rmed, bmed = rnd["median"], base["median"]
            smed = smart["median"] if smart else None
            cells = [
                str(n), str(m), f"{rmed:g}", f"{smed:g}" if smed is not None else "-",
                f"{smed / rmed:.1f}x" if smed is not None else "-",
                f"{bmed:g}", f"{bmed / rmed:.1f}x",
                f"{rnd['caught']}/{games}, " + (f"{smart['caught']}/{games}" if smart else "-"),
                f"{seconds:.1f}" if smart else "-",
            ]
            print("| " + " | ".join(cells) + " |", flush=True)
            if smart and (n, m) == (10, 5):
                worst = max((s if s is not None else DEFAULT_MAX_STEPS) for s in smart["catch_steps"])
                note = (f"builtin vs builtin at N=10 M=5: {smart['catch_steps']} (worst {worst}; "
                        f"caught {smart['caught']}/{games} within {DEFAULT_MAX_STEPS})")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n{note}\nload average at the end: {load:.2f}")
    if args.part == "all":
        prey_table(STYLES, [(10, 5), (50, 10)], args.games or (3 if args.quick else 10), args.seed)
    return 0


#: The hunter styles the prey is measured against: ours, random walls, and sparring.py's.
STYLES = ("builtin", "random", "halver", "rectangle", "level")
GOAL = 5.0


def _loads() -> str:
    return "/".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"


def prey_table(hunters: list[str] | tuple[str, ...], setups: list[tuple[int, ...]], games: int, seed: int,
               limit: int = DEFAULT_MAX_STEPS) -> None:
    """The builtin prey beside the random prey against each hunter style, same seeds. A
    ratio is capped at limit / the random prey's median: where that is under 5, the row
    says so (raise --max-steps to measure it)."""
    print(f"\n## prey against every hunter style: {games} seeds ({seed}..{seed + games - 1}), "
          f"step limit {limit} (uncaught count as the limit), load {_loads()} (1/5/15 min)\n")
    print("| N | M | hunter | random prey median | worst | builtin prey median | worst | caught | median ratio | worst ratio | goal 5x | s | cpu s/game | load 1/5/15 |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|")
    met = 0
    rows = 0
    for n, m in setups:
        for hunter in hunters:
            rnd = run_match(hunter, "random", n, m, games=games, seed=seed, max_steps=limit)
            began, cpu_began = time.perf_counter(), time.process_time()
            ours = run_match(hunter, "builtin", n, m, games=games, seed=seed, max_steps=limit)
            seconds = time.perf_counter() - began
            cpu_per_game = (time.process_time() - cpu_began) / games
            r_scores = [s if s is not None else limit for s in rnd["catch_steps"]]
            o_scores = [s if s is not None else limit for s in ours["catch_steps"]]
            ratio = ours["median"] / rnd["median"]
            worst_ratio = min(o_scores) / min(r_scores)
            ok = ratio >= GOAL
            capped = not ok and ours["median"] >= limit  # the limit, not the prey, stopped it
            met += ok
            rows += 1
            cells = [
                str(n), str(m), hunter, f"{rnd['median']:g}", str(min(r_scores)), f"{ours['median']:g}", str(min(o_scores)),
                f"{ours['caught']}/{games}", f"{ratio:.1f}x", f"{worst_ratio:.1f}x",
                "met" if ok else f"capped at {limit}" if capped else "NOT met",
                f"{seconds:.0f}", f"{cpu_per_game:.1f}", _loads(),
            ]
            print("| " + " | ".join(cells) + " |", flush=True)
    print(f"\ngoal (builtin prey median >= {GOAL:g}x the random prey's) met in {met} of {rows} pairings; load {_loads()}")


if __name__ == "__main__":
    raise SystemExit(main())
