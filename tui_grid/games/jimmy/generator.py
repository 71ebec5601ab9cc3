"""Random Jimmy boards with a known answer, reproducible from a game id like `jimmy:10x10:g3:yes#seed42`."""

from __future__ import annotations

import random
import re

from tui_grid.core.control import SearchControl
from tui_grid.core.geometry import Pos
from tui_grid.core.text import echo
from tui_grid.games.jimmy.board import JimmyBoard
from tui_grid.games.jimmy.rules import Outcome, initial_state
from tui_grid.games.jimmy.solver import solve_limited

MIN_SIDE = 3
MAX_SIDE = 60
ATTEMPTS = 400
#: Boards whose exact answer needs more search than this are skipped (keeps generation quick).
NODE_BUDGET = 60_000

_ID = re.compile(r"^jimmy:(\d+)[xX](\d+):g(\d+):(yes|no|any)#seed(-?\d+)$")
_ESCAPE_TEXT = {True: "yes", False: "no", None: "any"}
_ESCAPE_VALUE = {"yes": True, "no": False, "any": None}


def max_ghosts(width: int, height: int) -> int:
    """At most a quarter of the cells may hold ghosts."""
    return max(1, (width * height) // 4)


def check_request(width: int, height: int, ghosts: int) -> None:
    """Raise ValueError when no interesting board of this shape can exist."""
    if width < MIN_SIDE or height < MIN_SIDE:
        raise ValueError(
            f"a generated board must be at least {MIN_SIDE}x{MIN_SIDE} (got {width}x{height}): "
            "Jimmy needs a cell off the border"
        )
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ValueError(f"a generated board can be at most {MAX_SIDE}x{MAX_SIDE} (got {width}x{height})")
    if ghosts < 1:
        raise ValueError(f"a board needs at least 1 ghost (got {ghosts})")
    most = max_ghosts(width, height)
    if ghosts > most:
        raise ValueError(f"too many ghosts: a {width}x{height} board takes at most {most} (got {ghosts})")


def game_id(width: int, height: int, ghosts: int, escape: bool | None, seed: int) -> str:
    """The id that `generate` reproduces a board from, e.g. `jimmy:10x10:g3:yes#seed42`."""
    return f"jimmy:{width}x{height}:g{ghosts}:{_ESCAPE_TEXT[escape]}#seed{seed}"


def parse_game_id(text: str) -> tuple[int, int, int, bool | None, int]:
    """(width, height, ghosts, escape, seed) from a game id; ValueError when malformed or impossible."""
    match = _ID.match(text.strip())
    if not match:
        raise ValueError(f"not a Jimmy game id: '{echo(text)}' (expected e.g. jimmy:10x10:g3:yes#seed42)")
    width, height, ghosts = int(match.group(1)), int(match.group(2)), int(match.group(3))
    check_request(width, height, ghosts)
    return width, height, ghosts, _ESCAPE_VALUE[match.group(4)], int(match.group(5))


def random_board(
    rng: random.Random,
    width: int,
    height: int,
    ghosts: int,
    density: float,
    border_density: float,
    margin: int = 2,
) -> JimmyBoard | None:
    """Solids scattered at `density` inside and `border_density` on the border, Jimmy at least
    `margin` cells from the border when the board allows it, ghosts at least 2 steps from him."""
    margin = max(1, min(margin, (min(width, height) - 1) // 2))
    inner = [
        Pos(r, c)
        for r in range(margin, height - margin)
        for c in range(margin, width - margin)
    ]
    if not inner:
        return None
    jimmy = rng.choice(inner)
    solid: set[Pos] = set()
    for r in range(height):
        for c in range(width):
            p = Pos(r, c)
            if p == jimmy:
                continue
            on_border = r in (0, height - 1) or c in (0, width - 1)
            if rng.random() < (border_density if on_border else density):
                solid.add(p)
    # Keep at least one open neighbour so the board is not decided before the first move.
    around = [Pos(jimmy.row + dr, jimmy.col + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    if all(p in solid for p in around):
        solid.discard(rng.choice(around))
    spots = [
        Pos(r, c)
        for r in range(height)
        for c in range(width)
        if Pos(r, c) not in solid and abs(r - jimmy.row) + abs(c - jimmy.col) >= 2
    ]
    if len(spots) < ghosts:
        return None
    placed = tuple(sorted(rng.sample(spots, ghosts)))
    return JimmyBoard(width, height, frozenset(solid), jimmy, placed)


def generate(width: int, height: int, ghosts: int, escape: bool | None, seed: int, control: SearchControl | None = None) -> JimmyBoard:
    """A board of this size and ghost count whose exact answer is `escape` (None: either).

    Reproducible: the same arguments always give the same board. Jimmy starts off the
    border (at least two cells in when the board is 5x5 or more), the first ghost step
    never decides the game, and escapable boards need at least two moves.
    """
    check_request(width, height, ghosts)
    if escape is False and width == 3 and height == 3:
        raise ValueError(
            "a 3x3 board with no escape is lost before Jimmy's first move (every cell next to "
            "him is on the border); ask for 3x4 or larger"
        )
    rng = random.Random(game_id(width, height, ghosts, escape, seed))
    for attempt in range(ATTEMPTS):
        if control is not None:
            control.checkpoint()
        density = rng.uniform(0.08, 0.3)
        if escape is False:
            # Trapped boards need a mostly closed border; ease it off if the seed is stubborn.
            border_density = rng.uniform(0.7, 0.97) - 0.3 * attempt / ATTEMPTS
        elif escape is True:
            border_density = rng.uniform(0.3, 0.9)
        else:
            border_density = rng.uniform(0.3, 0.97)
        board = random_board(rng, width, height, ghosts, density, border_density)
        if board is None or initial_state(board).outcome is not Outcome.PLAYING:
            continue
        result = solve_limited(board, max_nodes=NODE_BUDGET, control=control)
        if result is None:
            continue
        if escape is not None and result.escape != escape:
            continue
        if result.escape and len(result.path or ()) < 2 and min(width, height) >= 5:
            continue
        return board
    wanted = {True: "an escapable", False: "a no-escape", None: "a"}[escape]
    raise ValueError(
        f"could not make {wanted} {width}x{height} board with {ghosts} ghost{'s' if ghosts != 1 else ''} "
        f"in {ATTEMPTS} tries; try another seed, size or ghost count"
    )
