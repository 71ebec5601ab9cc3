"""Random bunny boards that the solver proves optimal quickly.

Everything comes from `random.Random(seed)`, so the same (width, height, squares, seed)
always gives the same board; the game id `bunny:8x6:n14#seed42` names it.

A try grows a connected shape of `squares` squares inside the width x height box: it
starts from a random cell and keeps adding a random cell next to the shape, preferring
cells that continue a straight line (boards made of lines have short programs). The
start `S` goes on a random square of the shape. Then the solver runs with a budget of
`PROOF_POSITIONS` search positions; if it does not prove the optimum within it, the next
try follows with the same random stream (the "next internal seed"). The budget counts
work, not seconds, so an id gives the same board on a slow or loaded machine, with or
without the compiled kernel.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from tui_grid.core.control import SearchControl
from tui_grid.core.text import echo
from tui_grid.games.bunny.board import SQUARE, START, VOID, BunnyBoard, make_board
from tui_grid.games.bunny.solver import Solution, solve

#: Top-level positions a try's proof may take: about 2-12 s of this machine at rest (the
#: cost of a position grows with the board), 0.1-0.2 s for typical 8x6 to 12x10 boards.
PROOF_POSITIONS = 100_000
MAX_TRIES = 50
MAX_SIDE = 60

_GAME_ID = re.compile(r"^bunny:(\d+)x(\d+):n(\d+)#seed(-?\d+)$")


def game_id(width: int, height: int, squares: int, seed: int) -> str:
    return f"bunny:{width}x{height}:n{squares}#seed{seed}"


def parse_game_id(text: str) -> tuple[int, int, int, int]:
    """`bunny:WxH:nN#seedS` to (width, height, squares, seed); ValueError when malformed."""
    match = _GAME_ID.match(text.strip())
    if not match:
        raise ValueError(f"not a bunny game id: '{echo(text)}' (expected e.g. bunny:8x6:n14#seed42)")
    width, height, squares, seed = (int(group) for group in match.groups())
    return width, height, squares, seed


def check(width: int, height: int, squares: int) -> None:
    if width < 1 or height < 1:
        raise ValueError(f"width and height must be at least 1, got {width}x{height}")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ValueError(f"width and height must be at most {MAX_SIDE}, got {width}x{height}")
    if squares < 2:
        raise ValueError(f"a board needs at least 2 squares, got {squares}")
    if squares > width * height:
        raise ValueError(f"{squares} squares do not fit in {width}x{height}")


@dataclass(frozen=True)
class Generated:
    board: BunnyBoard
    solution: Solution
    tries: int


def _shape(rng: random.Random, width: int, height: int, squares: int) -> list[str]:
    cells = {(rng.randrange(height), rng.randrange(width))}
    last: dict[tuple[int, int], tuple[int, int]] = {}
    while len(cells) < squares:
        frontier = []
        for r, c in cells:
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                q = (r + dr, c + dc)
                if 0 <= q[0] < height and 0 <= q[1] < width and q not in cells:
                    straight = last.get((r, c)) == (dr, dc)
                    frontier.append((q, (dr, dc), 4 if straight else 1))
        frontier.sort()
        weights = [w for _, _, w in frontier]
        q, step, _ = rng.choices(frontier, weights)[0]
        cells.add(q)
        last[q] = step
    start = rng.choice(sorted(cells))
    rows = []
    for r in range(height):
        row = "".join(START if (r, c) == start else SQUARE if (r, c) in cells else VOID for c in range(width))
        rows.append(row)
    return rows


def generate(
    width: int,
    height: int,
    squares: int,
    seed: int,
    control: SearchControl | None = None,
    proof_positions: int = PROOF_POSITIONS,
) -> Generated:
    """A random board whose optimal program the solver proves within `proof_positions`
    search positions; the same arguments give the same board on any machine. Cancelling
    through `control` raises Cancelled."""
    check(width, height, squares)
    rng = random.Random(seed)
    for tries in range(1, MAX_TRIES + 1):
        if control is not None:
            control.checkpoint()
        board = make_board(_shape(rng, width, height, squares))
        solution = solve(board, None, control, max_positions=proof_positions)
        if solution.proven_optimal and solution.program is not None:
            return Generated(board, solution, tries)
    raise ValueError(f"no {width}x{height} board with {squares} squares was proven within {MAX_TRIES} tries; try fewer squares")


def board_file_meta(width: int, height: int, squares: int, seed: int, generated: Generated) -> dict[str, str]:
    """Header keys for a generated board's file."""
    return {
        "title": f"Random {width}x{height}, {squares} squares",
        "id": game_id(width, height, squares, seed),
        "tokens": str(generated.solution.tokens),
    }
