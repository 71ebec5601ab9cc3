"""Evasion's rules as plain functions: the board, walls, the bounce, capture.

The board is `width` x `height` cells, coordinates 0..width-1 and 0..height-1. Walls are
horizontal or vertical runs of cells, stored normalised as `Wall(x1, y1, x2, y2)` with
x1 <= x2 and y1 <= y2. Which cells are blocked lives in a `Grid`: a padded bytearray
(the board edge and a two-cell margin count as wall, so the bounce can look two cells
ahead without bounds checks), built once per tuple of walls and shared by every state
that has those walls.

Everything here follows shared/RULES.md section 3; the docstrings say where a choice was
made.
"""

from __future__ import annotations

import math

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

PRESETS = ("course", "2016")


#: Steps after which an uncaught game ends, as in the course's matches.
DEFAULT_MAX_STEPS = 24_000


def hunting_score(steps: int, hunter_gave_up: bool) -> float:
    """What a hunter's round scores, as the 2016 server counts it (less is better): the
    steps the chase took (caught, a prey that gave up, or the step limit reached), and a
    hunter that gave up scores endless."""
    return math.inf if hunter_gave_up else float(steps)

@dataclass(frozen=True)
class Config:
    """One game's parameters. `n`: steps between wall creations; `m`: most walls at once.

    `preset` "course" follows RULES.md; "2016" follows the 2016 course server (Java) where
    it differs: capture at distance < 4, its Bresenham cells for the line of sight, and its
    order within a step (the hunter moves, then a wall is built from the cell it left).
    `max_steps` ends an uncaught game (None: no limit). `prey_every_step` asks the prey
    every step, its answer counting only on its move steps (the 2016 protocol)."""

    n: int = 10
    m: int = 5
    width: int = 300
    height: int = 300
    hunter_start: tuple[int, int] = (0, 0)
    hunter_velocity: tuple[int, int] = (1, 1)
    prey_start: tuple[int, int] = (230, 200)
    prey_velocity: tuple[int, int] = (0, 0)
    preset: str = "course"
    max_steps: int | None = None
    prey_every_step: bool = False

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError(f"N (steps between walls) must be >= 0, not {self.n}")
        if self.m < 0:
            raise ValueError(f"M (most walls) must be >= 0, not {self.m}")
        if self.width < 1 or self.height < 1:
            raise ValueError(f"the board must be at least 1x1, not {self.width}x{self.height}")
        if self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r} (choose {' or '.join(PRESETS)})")
        for name in ("hunter_start", "prey_start"):
            x, y = getattr(self, name)
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise ValueError(f"{name.replace('_', ' ')} {x},{y} is off the board")
        for name in ("hunter_velocity", "prey_velocity"):
            vx, vy = getattr(self, name)
            if vx not in (-1, 0, 1) or vy not in (-1, 0, 1):
                raise ValueError(f"{name.replace('_', ' ')} components must be -1, 0 or 1")
        hvx, hvy = self.hunter_velocity
        if hvx == 0 or hvy == 0:
            raise ValueError("the hunter moves diagonally: both velocity components must be +-1")
        if self.max_steps is not None and self.max_steps < 1:
            raise ValueError(f"max steps must be positive, not {self.max_steps}")

    @property
    def strict_capture(self) -> bool:
        return self.preset == "2016"


class Wall(NamedTuple):
    """A wall of cells from (x1, y1) to (x2, y2) inclusive; one of the axes is constant."""

    x1: int
    y1: int
    x2: int
    y2: int

    @property
    def horizontal(self) -> bool:
        return self.y1 == self.y2

    @property
    def vertical(self) -> bool:
        return self.x1 == self.x2

    @property
    def cells(self) -> int:
        return (self.x2 - self.x1) + (self.y2 - self.y1) + 1

    def contains(self, x: int, y: int) -> bool:
        return self.x1 <= x <= self.x2 and self.y1 <= y <= self.y2

    def text(self) -> str:
        return f"{self.x1} {self.y1} {self.x2} {self.y2}"


def make_wall(x1: int, y1: int, x2: int, y2: int) -> Wall:
    """A normalised wall; raises ValueError when it is neither horizontal nor vertical."""
    if x1 != x2 and y1 != y2:
        raise ValueError(f"wall {x1} {y1} {x2} {y2} is neither horizontal nor vertical")
    return Wall(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))


PAD = 2
#: The largest board side a server may announce to our client (the course's is 300).
MAX_BOARD_SIDE = 2000


def check_on_board(width: int, height: int, walls: tuple[Wall, ...], *points: tuple[int, int]) -> None:
    """Refuse geometry from outside (a server's state line) before anything is allocated
    for it: a wall `5 0 5 1000000000` must be an error, not 2 GB of grid."""
    if not (1 <= width <= MAX_BOARD_SIDE and 1 <= height <= MAX_BOARD_SIDE):
        raise ValueError(f"a {width}x{height} board is not one this client plays (at most {MAX_BOARD_SIDE} a side)")
    for x, y in points:
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"position {x},{y} is off the {width}x{height} board")
    for wall in walls:
        if wall.x1 < 0 or wall.y1 < 0 or wall.x2 >= width or wall.y2 >= height:
            raise ValueError(f"wall {wall.text()} leaves the {width}x{height} board")


class Grid:
    """Blocked cells of a board with some walls, padded by PAD cells of wall all round.

    `cells[(y + PAD) * stride + x + PAD]` is 1 when (x, y) is a wall or off the board."""

    __slots__ = ("cells", "height", "stride", "walls", "width")

    def __init__(self, width: int, height: int, walls: tuple[Wall, ...] = ()) -> None:
        self.width = width
        self.height = height
        stride = self.stride = width + 2 * PAD
        rows = height + 2 * PAD
        cells = bytearray(b"\x01") * (stride * rows)
        blank = bytes(width)
        for y in range(height):
            start = (y + PAD) * stride + PAD
            cells[start : start + width] = blank
        for wall in walls:
            mark(cells, stride, wall, 1)
        self.cells = cells
        self.walls = walls

    def blocked(self, x: int, y: int) -> bool:
        """True for a wall cell or off the board (only for points within PAD of the board)."""
        return self.cells[(y + PAD) * self.stride + x + PAD] == 1

    def with_wall(self, wall: Wall) -> Grid:
        """A copy with one more wall (not cached)."""
        grid = Grid.__new__(Grid)
        grid.width, grid.height, grid.stride = self.width, self.height, self.stride
        grid.cells = bytearray(self.cells)
        mark(grid.cells, self.stride, wall, 1)
        grid.walls = self.walls + (wall,)
        return grid


def mark(cells: bytearray, stride: int, wall: Wall, value: int) -> None:
    x1, y1, x2, y2 = wall
    start = (y1 + PAD) * stride + x1 + PAD
    if y1 == y2:
        cells[start : start + x2 - x1 + 1] = bytes([value]) * (x2 - x1 + 1)
    else:
        end = (y2 + PAD) * stride + x1 + PAD + 1
        cells[start:end:stride] = bytes([value]) * (y2 - y1 + 1)


_GRIDS: OrderedDict[tuple[int, int, tuple[Wall, ...]], Grid] = OrderedDict()
_GRID_CACHE_SIZE = 64


def grid_for(width: int, height: int, walls: tuple[Wall, ...]) -> Grid:
    """The shared grid for these walls (a small LRU cache: states share their grids)."""
    key = (width, height, walls)
    grid = _GRIDS.get(key)
    if grid is None:
        grid = Grid(width, height, walls)
        _GRIDS[key] = grid
        if len(_GRIDS) > _GRID_CACHE_SIZE:
            _GRIDS.popitem(last=False)
    else:
        _GRIDS.move_to_end(key)
    return grid


# --- movement --------------------------------------------------------------------------


def bounce(grid: Grid, x: int, y: int, vx: int, vy: int) -> tuple[int, int, int, int]:
    """One unit step from (x, y) at velocity (vx, vy) under RULES.md's four-case bounce.

    Returns (x, y, vx, vy) after the step. The position must be free and the velocity's
    components in -1..1; (0, 0) stays put."""
    cells = grid.cells
    stride = grid.stride
    base = (y + PAD) * stride + x + PAD
    if not cells[base + vy * stride + vx]:
        return x + vx, y + vy, vx, vy
    if vx == 0 or vy == 0:
        return x, y, -vx, -vy
    a = cells[base + vx]  # A = (x+vx, y)
    b = cells[base + vy * stride]  # B = (x, y+vy)
    if not a and not b:
        a = cells[base + 2 * vy * stride + vx]  # C = (x+vx, y+2vy), in A's role
        b = cells[base + vy * stride + 2 * vx]  # D = (x+2vx, y+vy), in B's role
        if a == b:
            return x, y, -vx, -vy
    elif a and b:
        return x, y, -vx, -vy
    if a:
        return x, y + vy, -vx, vy
    return x + vx, y, vx, -vy


def line_cells(x0: int, y0: int, x1: int, y1: int) -> Iterator[tuple[int, int]]:
    """The integer cells of a Bresenham line from (x0, y0) to (x1, y1), both ends included."""
    dx = abs(x1 - x0)
    dy = -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    while True:
        yield x0, y0
        if x0 == x1 and y0 == y1:
            return
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def line_cells_2016(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    """The 2016 server's Bresenham cells: the steep axis swapped in, ends ordered by x, the
    error started at half the run and stepped when it goes below zero. They differ from
    `line_cells` for offsets such as (1, 2) and (2, 1)."""
    steep = abs(y1 - y0) > abs(x1 - x0)
    if steep:
        x0, y0, x1, y1 = y0, x0, y1, x1
    if x0 > x1:
        x0, x1, y0, y1 = x1, x0, y1, y0
    run, rise = x1 - x0, abs(y1 - y0)
    error = run // 2
    y = y0
    step = 1 if y0 < y1 else -1
    out = []
    for x in range(x0, x1 + 1):
        out.append((y, x) if steep else (x, y))
        error -= rise
        if error < 0:
            y += step
            error += run
    return out


def line_clear(grid: Grid, x0: int, y0: int, x1: int, y1: int, java: bool = False) -> bool:
    """True when no wall cell lies on the Bresenham line between the two points (the 2016
    server's variant when `java`)."""
    cells, stride = grid.cells, grid.stride
    line = line_cells_2016(x0, y0, x1, y1) if java else line_cells(x0, y0, x1, y1)
    return not any(cells[(y + PAD) * stride + x + PAD] for x, y in line)


def catches(grid: Grid, hx: int, hy: int, px: int, py: int, strict: bool = False) -> bool:
    """H catches P: Euclidean distance <= 4 and a clear line of sight; `strict` is the
    2016 server's rule: distance < 4, and its own Bresenham cells."""
    dx = px - hx
    dy = py - hy
    d2 = dx * dx + dy * dy
    if d2 > 16 or (strict and d2 == 16):
        return False
    return line_clear(grid, hx, hy, px, py, java=strict)


# --- walls -------------------------------------------------------------------------------


def extend_wall(grid: Grid, x: int, y: int, horizontal: bool) -> Wall:
    """The wall through (x, y) that extends both ways up to (not into) the nearest blocked
    cell or board edge: the 2016 server's `1`/`2` wall requests (and our `h`/`v`)."""
    blocked = grid.blocked
    if horizontal:
        x1 = x
        while not blocked(x1 - 1, y):
            x1 -= 1
        x2 = x
        while not blocked(x2 + 1, y):
            x2 += 1
        return Wall(x1, y, x2, y)
    y1 = y
    while not blocked(x, y1 - 1):
        y1 -= 1
    y2 = y
    while not blocked(x, y2 + 1):
        y2 += 1
    return Wall(x, y1, x, y2)


def wall_problem(
    grid: Grid,
    wall: Wall,
    hunter: tuple[int, int],
    hunter_velocity: tuple[int, int],
    prey: tuple[int, int],
    moved_to: tuple[int, int] | None = None,
) -> str | None:
    """Why `wall` may not be built on `grid` (the walls after this step's removals), or None.

    Delay and count limits are the caller's; this checks the geometry in RULES.md order:
    on the board, contains H before its move, not P, no overlap, not H after its move."""
    width, height = grid.width, grid.height
    x1, y1, x2, y2 = wall
    if x1 != x2 and y1 != y2:
        return f"wall {wall.text()} is neither horizontal nor vertical"
    if x1 < 0 or y1 < 0 or x2 >= width or y2 >= height:
        return f"wall {wall.text()} leaves the {width}x{height} board"
    hx, hy = hunter
    if not wall.contains(hx, hy):
        return f"wall {wall.text()} does not contain the hunter's position {hx},{hy}"
    if wall.contains(*prey):
        return f"wall {wall.text()} would contain the prey at {prey[0]},{prey[1]}"
    cells, stride = grid.cells, grid.stride
    if y1 == y2:
        start = (y1 + PAD) * stride + x1 + PAD
        overlap = any(cells[start : start + x2 - x1 + 1])
    else:
        start = (y1 + PAD) * stride + x1 + PAD
        overlap = any(cells[start : (y2 + PAD) * stride + x1 + PAD + 1 : stride])
    if overlap:
        for other in grid.walls:
            if other.x1 <= x2 and x1 <= other.x2 and other.y1 <= y2 and y1 <= other.y2:
                return f"wall {wall.text()} overlaps wall {other.text()}"
        return f"wall {wall.text()} overlaps another wall"
    if moved_to is not None:  # the 2016 order: the hunter has moved already, then the wall is built
        nx, ny = moved_to
    else:
        nx, ny, _, _ = bounce(grid.with_wall(wall), hx, hy, *hunter_velocity)
    if wall.contains(nx, ny):
        return f"wall {wall.text()} would still hold the hunter after its move (it cannot move off it)"
    return None

