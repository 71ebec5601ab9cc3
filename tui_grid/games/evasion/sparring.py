"""Sparring hunters for Evasion: other hunters' styles, for the prey to be measured against.

Our prey is tuned against our own hunter (`ai.BoxHunter`); these play the styles met on
the course server, so the bench can check that the prey holds up against styles it does
not model. Each is a policy `hunter(engine, state) -> HunterAction` that depends only on
the state (deterministic, no seed needed) and only asks for what the rules allow: every
wall is an explicit segment through the hunter, checked with `rules.wall_problem` on the
walls left after its removals, with the wait N and the count M respected, so the engine
never refuses one of their requests (a test checks this).

- `HalvingHunter` ("halver"): whenever it may build, it builds the wall through itself
  (across the prey's region) that leaves the prey at most half of it, and at each pass of
  the prey's row or column it builds that cut whatever its size; walls no longer on the
  region's boundary are removed.
- `RectangleHunter` ("rectangle"): builds a rectangle around the prey (sides at most
  `reach` away), then shrinks it side by side, the side with the most slack first, each
  new side halfway to the prey; the side it replaces is removed.
- `LevelHunter` ("level"): stays level with the prey: it walls above and below itself
  when it is `band` rows from the prey's row heading toward it, so it bounces up and down
  in a corridor around the prey's row while it sweeps along it.
"""

from __future__ import annotations

from tui_grid.games.evasion.boxes import bounds_box, box_around, rectangle_side
from tui_grid.games.evasion.engine import NO_WALLS, EvasionEngine, HunterAction, State
from tui_grid.games.evasion.rules import Grid, Wall, bounce, extend_wall, grid_for, wall_problem

SPARRING_KINDS = ("halver", "rectangle", "level")

Box = tuple[int, int, int, int]


def _inside(box: Box, x: int, y: int) -> bool:
    left, top, right, bottom = box
    return left <= x <= right and top <= y <= bottom


def _area(box: Box) -> int:
    left, top, right, bottom = box
    return (right - left + 1) * (bottom - top + 1)


def reopen(state: State, box: Box) -> HunterAction:
    """Walled off from the prey: remove the walls on the sides of its box that face us."""
    (hx, hy), (px, py) = state.hunter, state.prey
    facing = tuple(
        i for i, wall in enumerate(state.walls)
        if bounds_box(wall, box) and (
            (wall.y1 == wall.y2 and (wall.y1 - py) * (hy - py) > 0)
            or (wall.x1 == wall.x2 and (wall.x1 - px) * (hx - px) > 0)
        )
    )
    return HunterAction(None, facing) if facing else NO_WALLS


class SparringHunter:
    """What the three styles share: the prey's region (its box), removals of walls off its
    boundary, and a legality check that also keeps the hunter on the prey's side."""

    def __call__(self, engine: EvasionEngine, state: State) -> HunterAction:
        grid = engine.grid_of(state)
        box = box_around(grid, *state.prey)
        if not _inside(box, *state.hunter):
            return reopen(state, box)
        useless = tuple(i for i, wall in enumerate(state.walls) if not bounds_box(wall, box))
        idle = HunterAction(None, useless) if useless else NO_WALLS
        if engine.build_wait(state) > 0:
            return idle
        kept = tuple(w for i, w in enumerate(state.walls) if i not in useless)
        rest = grid_for(grid.width, grid.height, kept) if useless else grid
        wall = self.choose(engine, state, rest, box)
        if wall is None:
            return idle
        # The wall replaces the sides it makes useless (the old side of a shrunk rectangle).
        new_box = box_around(rest.with_wall(wall), *state.prey)
        removals = tuple(i for i, w in enumerate(state.walls) if i in useless or not bounds_box(w, new_box))
        if len(state.walls) - len(removals) >= engine.config.m:
            return idle
        return HunterAction(wall, removals)

    def choose(self, engine: EvasionEngine, state: State, grid: Grid, box: Box) -> Wall | None:
        raise NotImplementedError

    @staticmethod
    def cut(engine: EvasionEngine, state: State, grid: Grid, horizontal: bool) -> tuple[Wall, Box] | None:
        """The wall through the hunter across its free run, and the prey's box after it,
        when the rules allow it and the hunter ends on the prey's side; else None."""
        hx, hy = state.hunter
        wall = extend_wall(grid, hx, hy, horizontal)
        moved_to = None
        if engine.config.preset == "2016":  # it moves first, then the wall is built
            moved_to = bounce(grid, hx, hy, *state.hunter_velocity)[:2]
        if wall_problem(grid, wall, state.hunter, state.hunter_velocity, state.prey, moved_to) is not None:
            return None
        walled = grid.with_wall(wall)
        nx, ny = moved_to if moved_to is not None else bounce(walled, hx, hy, *state.hunter_velocity)[:2]
        new_box = box_around(walled, *state.prey)
        if not _inside(new_box, nx, ny):
            return None
        return wall, new_box


class HalvingHunter(SparringHunter):
    """Builds the cut that leaves the prey at most `keep` of its region, or any cut when it
    passes the prey's row or column (at most `margin` cells before it)."""

    def __init__(self, keep: float = 0.5, margin: int = 2) -> None:
        self.keep = keep
        self.margin = margin

    def choose(self, engine: EvasionEngine, state: State, grid: Grid, box: Box) -> Wall | None:
        (hx, hy), (hvx, hvy), (px, py) = state.hunter, state.hunter_velocity, state.prey
        area = _area(box)
        best: tuple[int, Wall] | None = None
        for horizontal, gap, toward in ((True, py - hy, hvy), (False, px - hx, hvx)):
            found = self.cut(engine, state, grid, horizontal)
            if found is None:
                continue
            wall, new_box = found
            kept = _area(new_box)
            passing = gap * toward > 0 and abs(gap) <= self.margin
            if (kept <= self.keep * area or passing) and kept < area and (best is None or kept < best[0]):
                best = (kept, wall)
        return None if best is None else best[1]


class RectangleHunter(SparringHunter):
    """Builds a rectangle around the prey and shrinks it side by side (see module doc)."""

    def __init__(self, reach: int = 40, closest: int = 2) -> None:
        self.reach = reach
        self.closest = closest

    def choose(self, engine: EvasionEngine, state: State, grid: Grid, box: Box) -> Wall | None:
        horizontal = rectangle_side(*box, *state.hunter, *state.hunter_velocity, *state.prey, self.reach, self.closest)
        if horizontal is None:
            return None
        found = self.cut(engine, state, grid, horizontal)
        return found[0] if found is not None else None


class LevelHunter(SparringHunter):
    """Walls above and below itself `band` rows from the prey's row (see module doc)."""

    def __init__(self, band: int = 6) -> None:
        self.band = band

    def choose(self, engine: EvasionEngine, state: State, grid: Grid, box: Box) -> Wall | None:
        hy, hvy, py = state.hunter[1], state.hunter_velocity[1], state.prey[1]
        _, top, _, bottom = box
        gap = py - hy
        if gap * hvy <= 0 or abs(gap) > self.band:
            return None
        side_slack = py - top if gap > 0 else bottom - py
        if side_slack <= self.band:
            return None  # already level on that side
        found = self.cut(engine, state, grid, True)
        return None if found is None else found[0]


def make_sparring(kind: str) -> SparringHunter:
    if kind == "halver":
        return HalvingHunter()
    if kind == "rectangle":
        return RectangleHunter()
    if kind == "level":
        return LevelHunter()
    raise ValueError(f"unknown sparring hunter {kind!r} (choose {', '.join(SPARRING_KINDS)})")
