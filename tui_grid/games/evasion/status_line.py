"""Evasion's status line in words: the facts of a step, the most useful first, cut to the
terminal's width by dropping the least useful parts (no Textual here: the screen gives the
facts and the room)."""

from __future__ import annotations

import math
from collections.abc import Callable

from tui_grid.games.evasion.engine import State

#: The room when the width is not known yet (the screen is not mounted): nothing is dropped.
UNLIMITED = 10_000

#: The arrow from one player towards the other, by the signs of (dx, dy).
ARROWS = {(0, -1): "↑", (0, 1): "↓", (-1, 0): "←", (1, 0): "→", (1, 1): "↘", (1, -1): "↗", (-1, 1): "↙", (-1, -1): "↖"}


def status_line(state: State, *, pointer: str, paused: bool, wall_wait: int, max_walls: int, n: int,
                outcome: str, room: int) -> str:
    """The status of `state` in at most `room` columns. `pointer`: where the other player
    is when off screen (or ""); `wall_wait`: steps until the hunter may build; `outcome`:
    the round's end in words (or "" while it is on)."""
    (hx, hy), (px, py) = state.hunter, state.prey
    # (text, rank): the lowest ranks go first when the line is too long.
    parts = [
        (pointer, 9),
        (f"step {state.tick}", 9),
        ("PAUSED" if paused else "", 9),  # between rounds too: the next one waits
        (f"next wall {'now' if wall_wait == 0 else f'in {wall_wait}'}", 8),
        (f"walls {len(state.walls)}/{max_walls}", 7),
        (f"dist {math.hypot(px - hx, py - hy):.0f}", 6),  # the pointer, when shown, says more
        (f"N={n}", 2),
        (outcome, 1),  # the message line says it too
    ]
    return fit([(text, rank) for text, rank in parts if text], room)


def fit(parts: list[tuple[str, int]], room: int) -> str:
    """The parts joined with ` · `, dropping the lowest ranked (the last of equals) until
    the line fits in `room` columns; the order stays."""
    parts = list(parts)
    while len(parts) > 1 and len(" · ".join(text for text, _ in parts)) > room:
        lowest = min(rank for _, rank in parts)
        drop = max(index for index, (_, rank) in enumerate(parts) if rank == lowest)
        del parts[drop]
    return " · ".join(text for text, _ in parts)


def status_room(width: int, speed: int) -> int:
    """Columns the status text may take on a screen `width` wide: less the status bar's
    padding and what the shell adds after the text (`  ·  speed N`); UNLIMITED when the
    width is not known (0)."""
    if width <= 0:
        return UNLIMITED
    return width - 2 - len(f"  ·  speed {speed}")


def pointer_text(state: State, focus: tuple[int, int], visible: Callable[[int, int], bool]) -> str:
    """Where the player not at `focus` (x, y) is when `visible(x, y)` says it is scrolled
    off screen: its letter, a direction and how far across and down, e.g.
    `P ↘ 120,40 off screen`; "" while it is visible."""
    other = state.hunter if focus == tuple(state.prey) else state.prey
    other_x, other_y = other
    if visible(other_x, other_y):
        return ""
    dx, dy = other_x - focus[0], other_y - focus[1]
    sign = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    letter = "H" if (other_x, other_y) == tuple(state.hunter) else "P"
    return f"{letter} {ARROWS.get(sign, '·')} {abs(dx)},{abs(dy)} off screen"
