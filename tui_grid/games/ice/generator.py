"""Random solvable ice maps whose optimal route needs at least a given number of moves.

Everything comes from `random.Random(seed)`, so the same (width, height, min_moves,
seed) always gives the same map; the game id `ice:16x12:m10#seed42` names it.

A try scatters obstacles and rough tiles at a random density, puts S on a random
cell, explores every cell reachable from S and puts E on one of the cells that take
the most moves to reach (E only adds a stop, so that can only shorten the route;
the solver measures the real optimum). If random tries fall short, the best map so
far is improved by hill climbing: change a few random tiles and keep the change when
the optimal route does not get shorter.
"""

from __future__ import annotations

import random
import re

from tui_grid.core.boardfile import MAX_CELLS, check_side
from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Pos
from tui_grid.core.text import echo
from tui_grid.core.words import plural
from tui_grid.games.ice.board import END, ICE, OBSTACLE, ROUGH, START, IceBoard, make_board, make_lanes
from tui_grid.games.ice.solver import layered_search, solve

#: Roughly how many cells all tries of one generation may search, to bound the time.
WORK_BUDGET = 2_000_000
MAX_TRIES = 1500
E_CANDIDATES = 4

_GAME_ID = re.compile(r"^ice:(\d+)x(\d+):m(\d+)#seed(-?\d+)$")


def game_id(width: int, height: int, min_moves: int, seed: int) -> str:
    return f"ice:{width}x{height}:m{min_moves}#seed{seed}"


def parse_game_id(text: str) -> tuple[int, int, int, int]:
    """`ice:WxH:mN#seedS` to (width, height, min_moves, seed); ValueError when malformed."""
    match = _GAME_ID.match(text.strip())
    if not match:
        raise ValueError(f"not an ice game id: '{echo(text)}' (expected e.g. ice:16x12:m10#seed42)")
    width, height, min_moves, seed = (int(group) for group in match.groups())
    return width, height, min_moves, seed


def _noop(count: int) -> None:
    pass


def check_request(width: int, height: int, min_moves: int, max_cells: int = MAX_CELLS) -> None:
    """Raise ValueError when no map of this shape can need `min_moves` moves, or it has
    more than `max_cells` cells."""
    check_side(width, height, max_cells)
    if width * height < 2:
        raise ValueError(f"a {width}x{height} map is too small: it needs room for S and E")
    if min_moves < 0:
        raise ValueError(f"min moves must not be negative, got {min_moves}")
    if min_moves > width * height - 1:
        raise ValueError(
            f"no {width}x{height} map needs {min_moves} moves: a route stops on each cell at most once, "
            f"so it has at most {plural(width * height - 1, 'move')}"
        )


class _Attempt:
    """One candidate map (without E yet) and the best E placement found for it."""

    def __init__(self, grid: list[list[str]], start: Pos) -> None:
        self.grid = grid
        self.start = start
        self.moves = -1
        self.board: IceBoard | None = None

    def evaluate(self, rng: random.Random, target: int, control: SearchControl | None = None) -> int:
        """Place E where the optimal route is longest among a few of the farthest cells.

        Stops trying places as soon as one gives a route of `target` moves or more. Every
        search ticks `control`, so cancel stops a try on a 1000x1000 map at once.
        """
        tick = control.tick if control is not None else _noop
        _, layers = layered_search(make_lanes(["".join(line) for line in self.grid]), self.start, -1, tick)
        self.moves, self.board = -1, None
        tried = 0
        for depth in range(len(layers) - 1, 0, -1):
            if depth <= self.moves:
                break
            layer = layers[depth]
            picks = rng.sample(layer, min(len(layer), E_CANDIDATES - tried))
            for row, col, _ in picks:
                board = self._with_end(Pos(row, col))
                solution = solve(board, control=control)
                tried += 1
                if solution is not None and solution.moves > self.moves:
                    self.moves, self.board = solution.moves, board
                    if self.moves >= target:
                        return self.moves
            if tried >= E_CANDIDATES:
                break
        return self.moves

    def _with_end(self, end: Pos) -> IceBoard:
        lines = [line[:] for line in self.grid]
        lines[self.start.row][self.start.col] = START
        lines[end.row][end.col] = END
        return make_board(["".join(line) for line in lines])


def _random_attempt(rng: random.Random, width: int, height: int) -> _Attempt:
    obstacles = rng.uniform(0.12, 0.30)
    rough = rng.uniform(0.02, 0.07)
    grid = []
    for _ in range(height):
        line = []
        for _ in range(width):
            u = rng.random()
            line.append(OBSTACLE if u < obstacles else ROUGH if u < obstacles + rough else ICE)
        grid.append(line)
    start = Pos(rng.randrange(height), rng.randrange(width))
    grid[start.row][start.col] = ICE
    return _Attempt(grid, start)


def _mutate(rng: random.Random, attempt: _Attempt) -> _Attempt:
    grid = [line[:] for line in attempt.grid]
    height, width = len(grid), len(grid[0])
    for _ in range(rng.randint(1, 3)):
        row, col = rng.randrange(height), rng.randrange(width)
        if (row, col) != attempt.start:
            grid[row][col] = rng.choice((OBSTACLE, OBSTACLE, ICE, ICE, ROUGH))
    return _Attempt(grid, attempt.start)


def generate(width: int, height: int, min_moves: int, seed: int, control: SearchControl | None = None) -> IceBoard:
    """A random solvable map whose optimal route needs at least `min_moves` moves.

    Reproducible: the same arguments always give the same map. Raises ValueError
    when the request is impossible, or when no such map turned up within the budget.
    `control` is checked (cancel, progress in tries) before every try.
    """
    check_request(width, height, min_moves, control.max_cells if control is not None and control.max_cells else MAX_CELLS)
    rng = random.Random(seed)
    tries = max(4, min(MAX_TRIES, WORK_BUDGET // (width * height)))
    best: _Attempt | None = None
    for index in range(tries):
        if control is not None:
            control.checkpoint()
        if best is None or index < tries // 2 or best.moves < 1:
            attempt = _random_attempt(rng, width, height)
        else:
            attempt = _mutate(rng, best)
        attempt.evaluate(rng, max(min_moves, 1), control)
        if attempt.board is not None and attempt.moves >= max(min_moves, 1):
            return attempt.board
        if best is None or attempt.moves >= best.moves:
            best = attempt
    found = f"the best had {plural(best.moves, 'move')}" if best is not None and best.moves > 0 else "none was solvable"
    advice = "try fewer moves" if width * height >= MAX_CELLS else "try a bigger map or fewer moves"
    raise ValueError(f"could not make a {width}x{height} map needing at least {plural(min_moves, 'move')} in {tries} tries ({found}); {advice}")
