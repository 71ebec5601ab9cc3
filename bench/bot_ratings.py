"""Are the bots' published ratings (tui_grid.online.ratings.BOT_RATINGS) about right?

    python bench/bot_ratings.py                 # Tron levels against each other, 12 games a pairing
    python bench/bot_ratings.py --games 30 --time-ms 100

Each pairing of Tron bot levels plays a headless match on random point-symmetric maps,
both seats of each map (`tui_grid.games.tron.definition.run_match`, the table and round
conductor `tui-grid match` uses). From the score p of the stronger level (draws count as
halves, p clipped to 1/(2n)..1-1/(2n)) the rating gap it implies is 400·log10(p/(1-p)), the
Elo and Glicko expectation; the table sets it beside the published gap, with the score's
95% Wilson interval turned into gaps the same way. Evasion's levels play asymmetric roles
(hunter and prey) and are not measured here.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_grid.core.match import wilson_interval  # noqa: E402
from tui_grid.games.tron.definition import GAME, run_match  # noqa: E402
from tui_grid.games.tron.generator import game_id  # noqa: E402
from tui_grid.online.ratings import BOT_RATINGS  # noqa: E402

PAIRINGS = (("medium", "easy"), ("hard", "medium"), ("hard", "easy"))


def gap(score: float, games: int) -> float:
    """The rating difference a score implies, with the score clipped away from 0 and 1."""
    low = 1 / (2 * games)
    p = min(max(score, low), 1 - low)
    return 400 * math.log10(p / (1 - p))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games per pairing (even: both seats of each map)")
    parser.add_argument("--time-ms", type=float, default=50.0, help="each bot's thinking time per move")
    parser.add_argument("--seed", type=int, default=1, help="the first map's seed")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"Tron bot ratings: {args.games} games a pairing, {args.time_ms:g} ms a move, 15x15 maps with 12% walls, "
          f"seed {args.seed}; load average {load:.2f} at the start")
    print(f"{'pairing':<16} {'W-D-L':>8} {'score':>6} {'implied gap (95%)':>22} {'published gap':>14} {'seconds':>8}")
    for strong, weak in PAIRINGS:
        started = time.monotonic()
        record = run_match((strong, weak), args.games,
                           lambda index: GAME.load_id(game_id(15, 15, 12, args.seed + index // 2)), args.time_ms, 5.0)
        played = len(record["games"])
        points = record["wins"] + record["draws"] / 2
        low, high = wilson_interval(points, played)
        published = BOT_RATINGS[("tron", strong)].rating - BOT_RATINGS[("tron", weak)].rating
        implied = f"{gap(points / played, played):+.0f} ({gap(low, played):+.0f}..{gap(high, played):+.0f})"
        print(f"{strong + ' v ' + weak:<16} {record['wins']}-{record['draws']}-{record['losses']:>2} {points / played:>6.0%} "
              f"{implied:>22} {published:>+14.0f} {time.monotonic() - started:>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
