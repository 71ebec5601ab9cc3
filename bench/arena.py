"""Tron arena benchmark: one focus bot among N-1 copies of another level, 3 to 8 cycles.

    python bench/arena.py                 # full run (many minutes)
    python bench/arena.py --quick         # a smoke run
    nice python bench/arena.py --sizes 3,4 --games 24 --ms 50 --jobs 2
    python bench/arena.py --only "hard among"

Fields, on the arena boards of `arena.arena_board` (3, 4, 6 and 8 cycles by default):
  hard among mediums, hard among easies, medium among easies, and the baseline measured in
  the same run: `random` (a uniformly random safe mover) among mediums and among easies.
The focus bot's seat moves round the board one seat per game (game g seats it at g mod N),
so with a multiple of N games every seat position is played equally often. The bots are
deterministic, so every cycle first plays OPENING random safe moves (from the game's seed),
and each bot's own seed is the game number.

Per line: games, the focus bot's share of first places (a first place shared by k cycles
counts 1/k) with its 95% Wilson interval, the fair share 1/N, the share over the random
mover's share in the same field (`x random`), its mean place (1 the best), the mean number
of steps, its mean and worst move time in ms (wall clock, which counts the time the
process waits for a core on a loaded machine) and its worst move in CPU time (the
thread's own). Games are driven by a plain loop over
`engine.step`; the bots are called through `arena_bots.ArenaBot.choose` directly, each with
`--ms` per move (the hard bot stops at that deadline; medium and easy take what they need).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_grid.core.geometry import Direction  # noqa: E402
from tui_grid.core.match import wilson_interval  # noqa: E402
from tui_grid.games.tron.arena import arena_board  # noqa: E402
from tui_grid.games.tron.arena_bots import ArenaBot  # noqa: E402
from tui_grid.games.tron.engine import TronEngine  # noqa: E402
from tui_grid.games.tron.rules import TronState  # noqa: E402

#: The bots' move indices: UP DOWN LEFT RIGHT.
BY_INDEX = (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)
#: Random safe moves every cycle plays before the bots take over (the games would repeat otherwise).
OPENING = 2
#: (focus, the others); `random` is the baseline mover.
FIELDS = (("hard", "medium"), ("hard", "easy"), ("medium", "easy"), ("random", "medium"), ("random", "easy"))
SIZES = (3, 4, 6, 8)


def plural(level: str) -> str:
    return level[:-1] + "ies" if level.endswith("y") else level + "s"


def random_move(state: TronState, seat: int, rng: random.Random) -> Direction:
    safe = state.safe_moves(seat)
    return rng.choice(safe) if safe else Direction.UP


def play(job: tuple[int, str, str, int, float]) -> dict:
    """One game: `focus` at seat `game % cycles`, `other` everywhere else."""
    cycles, focus, other, game, ms = job
    engine = TronEngine(arena_board(cycles))
    state = engine.initial_state()
    seat_of_focus = game % cycles
    levels = [focus if seat == seat_of_focus else other for seat in range(cycles)]
    rng = random.Random(f"{cycles}:{game}")
    bots = {seat: ArenaBot(level, seed=game) for seat, level in enumerate(levels) if level != "random"}
    times: list[float] = []
    cpu: list[float] = []
    while not state.outcome.over:
        heads = tuple((head.row, head.col) for head in state.heads)
        riders = state.riders()
        moves = {}
        for seat in riders:
            if state.turn < OPENING or levels[seat] == "random":
                moves[seat] = random_move(state, seat, rng)
                continue
            start, start_cpu = time.perf_counter(), time.thread_time()
            moves[seat] = BY_INDEX[bots[seat].choose(state.rows, heads, riders, seat, ms)]
            if seat == seat_of_focus:
                times.append(time.perf_counter() - start)
                cpu.append(time.thread_time() - start_cpu)
        state = engine.step(state, moves).state
    places = state.outcome.places
    mine = places[seat_of_focus]
    firsts = sum(1 for place in places if place == 1)
    return {"cycles": cycles, "focus": focus, "other": other, "game": game, "place": mine,
            "first": 1.0 / firsts if mine == 1 else 0.0, "turns": state.turn, "times": times, "cpu": cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="few games (a smoke run)")
    parser.add_argument("--games", type=int, default=0, help="games per line (default 48, --quick 8); best a multiple of every size")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="numbers of cycles (default %(default)s)")
    parser.add_argument("--only", default="", help="run only the fields whose name contains this, e.g. 'hard among'")
    parser.add_argument("--ms", type=float, default=50.0, help="time per move of every bot, in ms (default %(default)s)")
    parser.add_argument("--first", type=int, default=0, help="first game number (to run other games than the default ones)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args(argv)
    games = args.games or (8 if args.quick else 48)
    sizes = [int(size) for size in args.sizes.split(",") if size]
    fields = [(focus, other) for focus, other in FIELDS if args.only in f"{focus} among {plural(other)}"]
    lines = [(cycles, focus, other) for cycles in sizes for focus, other in fields]
    jobs = [(cycles, focus, other, game, args.ms) for cycles, focus, other in lines for game in range(args.first, args.first + games)]
    began = time.perf_counter()
    load_start = os.getloadavg()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(play, jobs, chunksize=1))
    load_end = os.getloadavg()
    print(f"Tron arena bench: {games} games per line, focus seat rotating, {OPENING} random opening moves, {args.ms:g} ms per move, "
          f"{args.jobs} job(s), {os.cpu_count()} cores shared with other work ({time.perf_counter() - began:.0f} s; load average "
          f"{load_start[0]:.2f} at the start, {load_end[0]:.2f} / {load_end[1]:.2f} / {load_end[2]:.2f} (1/5/15 min) at the end)\n")
    print(f"{'N':>2} {'field':<20} {'games':>5} {'1st %':>6} {'95% interval':>14} {'fair':>5} {'x random':>8} {'place':>6} "
          f"{'steps':>6} {'ms mean/max':>12} {'cpu max':>7}")
    shares: dict[tuple[int, str], float] = {}
    for cycles, focus, other in lines:
        mine = [r for r in rows if (r["cycles"], r["focus"], r["other"]) == (cycles, focus, other)]
        wins = sum(r["first"] for r in mine)
        shares[(cycles, focus + other)] = wins / len(mine)
    slowest: dict[str, float] = {}
    for cycles, focus, other in lines:
        mine = [r for r in rows if (r["cycles"], r["focus"], r["other"]) == (cycles, focus, other)]
        wins = sum(r["first"] for r in mine)
        share = wins / len(mine)
        lo, hi = wilson_interval(wins, len(mine))
        baseline = shares.get((cycles, "random" + other))
        ratio = f"{share / baseline:.1f}" if baseline else ("-" if baseline is None or not share else "inf")
        ms = [1000 * t for r in mine for t in r["times"]]
        span = f"{statistics.mean(ms):.1f}/{max(ms):.0f}" if ms else "-"
        cpu = f"{1000 * max(t for r in mine for t in r['cpu']):.0f}" if ms else "-"
        if ms:
            slowest[focus] = max(slowest.get(focus, 0.0), max(ms))
        print(f"{cycles:>2} {focus + ' among ' + plural(other):<20} {len(mine):>5} {100 * share:>5.0f}% "
              f"{f'[{100 * lo:.0f}%, {100 * hi:.0f}%]':>14} {100 / cycles:>4.0f}% {ratio:>8} "
              f"{statistics.mean(r['place'] for r in mine):>6.2f} {statistics.mean(r['turns'] for r in mine):>6.1f} {span:>12} {cpu:>7}")
    print("\nslowest focus move: " + ", ".join(f"{level} {ms:.1f} ms" for level, ms in slowest.items()) + f" (budget {args.ms:g} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
