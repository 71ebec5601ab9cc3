"""Tron bots benchmark: match results with 95% Wilson intervals, move times, bot startup.

    python bench/tron.py            # full run (several minutes)
    python bench/tron.py --quick    # a smoke run
    nice python bench/tron.py --jobs 2

Pairings (each game's seats alternate, so every pairing plays both sides):
  hard vs the seed article's bot, run as an external one-shot program (a fresh
  `python3 tron_seed_bot.py` per move, like HackerRank), on the empty 15x15 board and on
  random point-symmetric maps; hard vs medium; medium vs easy.
The bots are deterministic, so each game starts with a few random safe moves for both
players (the opening, from the game's seed); random maps are `tron:WxH:wN#seedS` ids.
Games are driven by a plain loop over `engine.step`.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_grid.core.agents import AgentError, Ask  # noqa: E402
from tui_grid.core.external import ExternalProgramAgent  # noqa: E402
from tui_grid.games.tron import bots  # noqa: E402
from tui_grid.games.tron.board import standard_board  # noqa: E402
from tui_grid.games.tron.engine import TronEngine, encode_for_program, parse_program_answer  # noqa: E402
from tui_grid.games.tron.generator import generate  # noqa: E402

SEED_BOT = Path("/work/shared/opponents/tron_seed_bot.py")
BUDGET_MS = bots.DEFAULT_TIME_MS


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def board_for(kind: str, game: int):  # type: ignore[no-untyped-def]
    if kind == "empty":
        return standard_board()
    rng = random.Random(f"bench-map-{game}")
    width, height = rng.choice([(15, 15), (15, 15), (20, 20), (25, 15)])
    return generate(width, height, rng.choice([5, 10, 15]), game)


def play(job: tuple[str, str, str, int]) -> dict:
    """One game: `a` plays red on even games, green on odd ones. Returns a result row."""
    a, b, kind, game = job
    board = board_for(kind, game)
    engine = TronEngine(board)
    state = engine.initial_state()
    seat_a = game % 2
    levels = {seat_a: a, 1 - seat_a: b}
    rng = random.Random(f"bench-opening-{kind}-{game}")
    opening = rng.randint(0, 4) if kind == "empty" else rng.randint(0, 2)
    external = {}
    for seat, level in levels.items():
        if level == "seed":
            external[seat] = ExternalProgramAgent(f"{sys.executable} {SEED_BOT}", "oneshot", encode_for_program, parse_program_answer)
    times: dict[str, list[float]] = {a: [], b: []}
    forfeit = ""
    try:
        while not state.outcome.over:
            moves = {}
            for seat in (0, 1):
                if state.turn < opening:
                    safe = state.safe_moves(seat)
                    moves[seat] = rng.choice(safe) if safe else engine.default_action(state, seat)
                    continue
                level = levels[seat]
                if seat in external:
                    try:
                        moves[seat] = external[seat].act(Ask(engine, state, seat, deadline=time.monotonic() + 5.0))
                    except AgentError as exc:
                        forfeit = exc.reason
                        state = engine.forfeit(state, seat, exc.reason)
                        break
                    continue
                start = time.perf_counter()
                moves[seat] = bots.choose_move(state, seat, BUDGET_MS, level=level)
                times[level].append(time.perf_counter() - start)
            if state.outcome.over:
                break
            state = engine.step(state, moves).state
    finally:
        for agent in external.values():
            agent.close()
    outcome = state.outcome
    if outcome.winner is None:
        result = "D"
    else:
        result = "W" if outcome.winner == seat_a else "L"
    return {"a": a, "b": b, "kind": kind, "game": game, "result": result, "turns": state.turn, "times": times[a], "b_times": times[b], "forfeit": forfeit, "reason": outcome.reason, "size": f"{board.width}x{board.height}"}


def largest_board_times(moves: int) -> list[float]:
    engine = TronEngine(generate(40, 30, 10, 3))
    state = engine.initial_state()
    out = []
    while not state.outcome.over and state.turn < moves:
        step = {}
        for seat in (0, 1):
            start = time.perf_counter()
            step[seat] = bots.choose_move(state, seat, BUDGET_MS, level="hard")
            out.append(time.perf_counter() - start)
        state = engine.step(state, step).state
    return out


def startup_times(repeats: int) -> tuple[list[float], list[float]]:
    state_text = TronEngine().observation(TronEngine().initial_state(), 0)
    bot, base = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        base.append(time.perf_counter() - start)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "tui_grid.games.tron.botmain"], input=state_text, capture_output=True, text=True, check=True, cwd=ROOT)
        bot.append(time.perf_counter() - start)
        assert out.stdout.strip() in ("UP", "DOWN", "LEFT", "RIGHT"), out
    return bot, base


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="few games (a smoke run)")
    parser.add_argument("--games", type=int, default=0, help="games per pairing and board kind")
    parser.add_argument("--only", default="", help="run only pairings whose name contains this, e.g. 'seed'")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args(argv)
    games = args.games or (6 if args.quick else 40)
    pairings = [("hard", "seed", "empty"), ("hard", "seed", "maps"), ("hard", "medium", "empty"), ("hard", "medium", "maps"), ("medium", "easy", "empty"), ("medium", "easy", "maps")]
    targets = {("hard", "seed"): 0.95, ("hard", "medium"): 0.75, ("medium", "easy"): 0.80}
    pairings = [p for p in pairings if args.only in f"{p[0]} vs {p[1]}"]
    jobs = [(a, b, kind, g) for a, b, kind in pairings for g in range(games)]
    began = time.perf_counter()
    load_start = os.getloadavg()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(play, jobs))
    load_end = os.getloadavg()
    print(f"Tron bench: {games} games per line, seats alternating, {BUDGET_MS} ms per move, {args.jobs} job(s), "
          f"{os.cpu_count()} cores shared with other work ({time.perf_counter() - began:.0f} s; "
          f"load average {load_start[0]:.2f} at the start, {load_end[0]:.2f} / {load_end[1]:.2f} / {load_end[2]:.2f} (1/5/15 min) at the end)\n")
    print(f"{'pairing':<18} {'board':<6} {'W-D-L':>9} {'win %':>6} {'95% interval':>14} {'target':>7} {'turns':>6} {'slowest ms':>10}")
    slowest_all = 0.0
    for a, b, kind in pairings:
        mine = [r for r in rows if (r["a"], r["b"], r["kind"]) == (a, b, kind)]
        w = sum(r["result"] == "W" for r in mine)
        d = sum(r["result"] == "D" for r in mine)
        l = sum(r["result"] == "L" for r in mine)
        lo, hi = wilson(w, len(mine))
        times = [t for r in mine for t in r["times"] + r["b_times"]]
        slow = max(times) * 1000 if times else 0.0
        slowest_all = max(slowest_all, slow)
        turns = statistics.mean(r["turns"] for r in mine)
        print(f"{a + ' vs ' + b:<18} {kind:<6} {f'{w}-{d}-{l}':>9} {100 * w / len(mine):>5.0f}% {f'[{100 * lo:.0f}%, {100 * hi:.0f}%]':>14} {100 * targets[(a, b)]:>6.0f}% {turns:>6.1f} {slow:>10.1f}")
        forfeits = sum(bool(r["forfeit"]) for r in mine)
        if forfeits:
            print(f"    {forfeits} game(s) ended by a forfeit of the external bot (e.g. it printed 'None' when boxed in)")
        for r in mine:
            if r["result"] != "W":
                print(f"    {'draw' if r['result'] == 'D' else 'loss'} in game {r['game']} ({r['size']}): {r['reason'][:90]}")
    over = sum(t * 1000 > BUDGET_MS for r in rows for t in r["times"] + r["b_times"])
    print(f"\nslowest builtin move: {slowest_all:.1f} ms (budget {BUDGET_MS} ms); moves over budget: {over}")
    large = largest_board_times(10 if args.quick else 40)
    print(f"hard on 40x30 (tron:40x30:w10#seed3), {len(large)} moves: median {1000 * statistics.median(large):.1f} ms, max {1000 * max(large):.1f} ms")
    bot, base = startup_times(3 if args.quick else 10)
    print(f"bot startup, one state answered (python -m tui_grid.games.tron.botmain): median {1000 * statistics.median(bot):.0f} ms; "
          f"python3 -c pass: median {1000 * statistics.median(base):.0f} ms (the bot's own search is up to {bots.USE * BUDGET_MS:.0f} ms of it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
