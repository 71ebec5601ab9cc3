"""Random point-symmetric Tron maps, reproducible from a game id like `tron:15x15:w12#seed42`.

`wN` is the share of inner cells turned into walls, in percent (0 to 40). Walls come as
short random strokes; every wall has its mirror image through the board's centre, so
both players face the same map. Red starts at (H//2, 1), green at its mirror image
(for 15x15: (7, 1) and (7, 13), HackerRank's starts). Cells neither player can reach are
filled with walls, both heads share one open region, and the cells next to each head
toward the centre are kept open, so no map is decided before the first move.
"""

from __future__ import annotations

import random
import re

from tui_grid.core.geometry import Pos
from tui_grid.core.text import echo
from tui_grid.games.tron.board import EMPTY, GREEN, RED, WALL, TronBoard

MIN_WIDTH, MAX_WIDTH = 10, 40
MIN_HEIGHT, MAX_HEIGHT = 10, 40
MAX_WALLS = 40
ATTEMPTS = 200

_ID = re.compile(r"^tron:(\d+)[xX](\d+):w(\d+)#seed(-?\d+)$")


def check_request(width: int, height: int, walls: int) -> None:
    """Raise ValueError for a size or wall share the generator does not make."""
    if not (MIN_WIDTH <= width <= MAX_WIDTH and MIN_HEIGHT <= height <= MAX_HEIGHT):
        raise ValueError(
            f"a generated board is {MIN_WIDTH}x{MIN_HEIGHT} to {MAX_WIDTH}x{MAX_HEIGHT} including its border (got {width}x{height})"
        )
    if not 0 <= walls <= MAX_WALLS:
        raise ValueError(f"walls is a percentage of inner cells from 0 to {MAX_WALLS} (got {walls})")


def game_id(width: int, height: int, walls: int, seed: int) -> str:
    return f"tron:{width}x{height}:w{walls}#seed{seed}"


def parse_game_id(text: str) -> tuple[int, int, int, int]:
    """(width, height, walls, seed) from a game id; ValueError when malformed or out of range."""
    match = _ID.match(text.strip())
    if not match:
        raise ValueError(f"not a Tron game id: '{echo(text)}' (expected e.g. tron:15x15:w12#seed42)")
    width, height, walls, seed = (int(match.group(i)) for i in range(1, 5))
    check_request(width, height, walls)
    return width, height, walls, seed


def starts(width: int, height: int) -> tuple[Pos, Pos]:
    red = Pos(height // 2, 1)
    return red, Pos(height - 1 - red.row, width - 1 - red.col)


def _attempt(rng: random.Random, width: int, height: int, walls: int) -> TronBoard | None:
    grid = [[WALL if r in (0, height - 1) or c in (0, width - 1) else EMPTY for c in range(width)] for r in range(height)]
    red, green = starts(width, height)
    inner = (width - 2) * (height - 2)
    target = inner * walls // 100
    keep = {red, green}
    for head in (red, green):
        toward = 1 if head.col < width // 2 else -1
        keep.add(Pos(head.row, head.col + toward))
        keep.add(Pos(head.row, head.col + 2 * toward))
    placed = 0
    guard = 0
    while placed < target and guard < target * 20 + 50:
        guard += 1
        r, c = rng.randrange(1, height - 1), rng.randrange(1, width - 1)
        dr, dc = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
        for _ in range(rng.randint(1, 5)):
            if not (0 < r < height - 1 and 0 < c < width - 1):
                break
            mirror = (height - 1 - r, width - 1 - c)
            if (r, c) not in keep and mirror not in keep and grid[r][c] == EMPTY:
                grid[r][c] = WALL
                if grid[mirror[0]][mirror[1]] == EMPTY:
                    grid[mirror[0]][mirror[1]] = WALL
                    placed += 2 if mirror != (r, c) else 1
                else:
                    placed += 1
            r, c = r + dr, c + dc
    # Flood from red's head; green must be reachable, and unreachable cells become walls.
    seen = {red}
    todo = [red]
    while todo:
        r, c = todo.pop()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if grid[nr][nc] == EMPTY and (nr, nc) not in seen:
                seen.add((nr, nc))
                todo.append((nr, nc))
    if green not in seen:
        return None
    for r in range(1, height - 1):
        for c in range(1, width - 1):
            if grid[r][c] == EMPTY and (r, c) not in seen:
                grid[r][c] = WALL
    grid[red.row][red.col] = RED
    grid[green.row][green.col] = GREEN
    rows = tuple("".join(row) for row in grid)
    if any(rows[r] == WALL * width for r in range(1, height - 1)):
        return None
    return TronBoard(rows, (red, green), game_id(width, height, walls, 0))


def generate(width: int, height: int, walls: int, seed: int) -> TronBoard:
    """A point-symmetric map; the same arguments always give the same map."""
    check_request(width, height, walls)
    ident = game_id(width, height, walls, seed)
    rng = random.Random(ident)
    for _ in range(ATTEMPTS):
        board = _attempt(rng, width, height, walls)
        if board is not None:
            return TronBoard(board.rows, board.heads, ident)
    raise ValueError(f"could not make a {width}x{height} map with {walls}% walls; try another seed or fewer walls")


def generate_id(text: str) -> TronBoard:
    return generate(*parse_game_id(text))
