"""Boxes on the Evasion board, shared by the builtin AI and the sparring hunters: the free
rectangle around a cell, whether a wall bounds one, and the rectangle hunter's rule."""

from __future__ import annotations

from tui_grid.games.evasion.rules import PAD, Grid, Wall

RECT_REACH = 40  # the rectangle style: its sides at most this far from the prey


def box_around(grid: Grid, x: int, y: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the free run through (x, y) along its row and column:
    the prey's rectangle when every wall spans the space it was built in."""
    cells, stride = grid.cells, grid.stride
    row = (y + PAD) * stride
    i = row + x + PAD
    left = cells.rfind(1, row, i) - row - PAD + 1
    right = cells.find(1, i, row + stride) - row - PAD - 1
    column = bytes(cells[x + PAD :: stride])
    top = column.rfind(1, 0, y + PAD) - PAD + 1
    bottom = column.find(1, y + PAD) - PAD - 1
    return left, top, right, bottom


def bounds_box(wall: Wall, box: tuple[int, int, int, int]) -> bool:
    """True when the wall lies along one side of the box (touching it from outside)."""
    left, top, right, bottom = box
    if wall.y1 == wall.y2 and wall.y1 in (top - 1, bottom + 1) and wall.x1 <= right and wall.x2 >= left:
        return True
    if wall.x1 == wall.x2 and wall.x1 in (left - 1, right + 1) and wall.y1 <= bottom and wall.y2 >= top:
        return True
    return False


def rectangle_side(
    left: int, top: int, right: int, bottom: int, hx: int, hy: int, vx: int, vy: int, px: int, py: int,
    reach: int = RECT_REACH, closest: int = 2,
) -> bool | None:
    """The rectangle style's rule (`sparring.RectangleHunter`, and the prey's model of it):
    the prey's sides by slack, most first (ties: top, bottom, left, right); the first side the
    hunter heads in from, between it and the prey, is walled (True: a horizontal wall) when
    the hunter is within half its slack (at most `reach`) of the prey; else None."""
    gx, gy = px - hx, py - hy
    if not (0 < gy * vy <= reach or 0 < gx * vx <= reach):
        return None  # heading in from no side within reach (the quick answer: rollouts ask often)
    sides = (
        (py - top, True, py - hy if top <= hy < py and vy > 0 else None),
        (bottom - py, True, hy - py if py < hy <= bottom and vy < 0 else None),
        (px - left, False, px - hx if left <= hx < px and vx > 0 else None),
        (right - px, False, hx - px if px < hx <= right and vx < 0 else None),
    )
    for slack, horizontal, distance in sorted(sides, key=lambda side: -side[0]):
        if distance is None or slack <= closest:
            continue
        return horizontal if closest <= distance <= max(closest, min(reach, slack // 2)) else None
    return None
