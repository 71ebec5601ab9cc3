"""Evasion's bots: the builtin hunter and prey, a random prey, a hunter that never builds.

A policy is a callable `policy(engine, state) -> action`; `make_agent(role, kind, seed)`
wraps one as an Agent. Policies may keep memory between calls but only as a cache: given
the same state they give the same action, so a game replays exactly from its seed.

Builtin hunter ("shrink the box"): the prey lives in a rectangle bounded by walls and the
board edge. Whenever the hunter moves toward the prey along one axis and is about to cross
the prey's row (or column), it builds a wall through itself across the whole rectangle,
so the prey's rectangle loses everything on the hunter's side; it removes walls that no
longer bound the prey's rectangle, and it never builds a wall that would leave it on the
other side from the prey (each candidate is checked by moving the hunter past it).

Builtin prey: simulates the hunter's bounces ahead (with the walls as they stand) and moves
to the cell that stays farthest out of reach over that horizon, counting that it can
still dodge later; among safe cells it keeps close to the hunter's side of its rectangle,
so the next wall cuts off as little as possible.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from tui_grid.core.agents import Agent, Ask, FunctionAgent
from tui_grid.games.evasion.engine import (
    HUNTER,
    KEEP,
    NO_WALLS,
    PREY,
    PREY_MOVES,
    EvasionEngine,
    HunterAction,
    PreyAction,
    State,
)
from tui_grid.games.evasion.rules import PAD, Grid, Wall, bounce, wall_problem

Policy = Callable[[EvasionEngine, State], Any]

HUNTER_KINDS = ("builtin", "random", "nowall")
PREY_KINDS = ("builtin", "random")


# --- geometry helpers ------------------------------------------------------------------


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


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def bounds_box(wall: Wall, box: tuple[int, int, int, int]) -> bool:
    """True when the wall lies along one side of the box (touching it from outside)."""
    left, top, right, bottom = box
    if wall.y1 == wall.y2 and wall.y1 in (top - 1, bottom + 1) and wall.x1 <= right and wall.x2 >= left:
        return True
    if wall.x1 == wall.x2 and wall.x1 in (left - 1, right + 1) and wall.y1 <= bottom and wall.y2 >= top:
        return True
    return False


# --- hunters ---------------------------------------------------------------------------


class NoWallHunter:
    """Never builds: bounces about and catches what it runs into."""

    def __call__(self, engine: EvasionEngine, state: State) -> HunterAction:
        return NO_WALLS


class RandomHunter:
    """A baseline that walls at random: when a wall may be built it asks for a horizontal
    or vertical one now and then, and sometimes removes a wall (a seeded generator). The
    engine refuses the requests the rules forbid; that costs nothing."""

    def __init__(self, seed: int | None = None, build: float = 0.1, remove: float = 0.02) -> None:
        self.rng = random.Random(seed)
        self.build = build
        self.remove = remove

    def __call__(self, engine: EvasionEngine, state: State) -> HunterAction:
        rng = self.rng
        removals: tuple[int, ...] = ()
        if state.walls and rng.random() < self.remove:
            removals = (rng.randrange(len(state.walls)),)
        build = None
        if engine.build_wait(state) == 0 and len(state.walls) - len(removals) < engine.config.m and rng.random() < self.build:
            build = rng.choice(("h", "v"))
        return HunterAction(build, removals)


class BoxHunter:
    """The builtin hunter: shrinks the prey's rectangle with walls across it (see module doc).

    `margin`: build when the prey's row (column) is at most this many cells ahead."""

    def __init__(self, margin: int = 2) -> None:
        self.margin = margin

    def __call__(self, engine: EvasionEngine, state: State) -> HunterAction:
        grid = engine.grid_of(state)
        hx, hy = state.hunter
        px, py = state.prey
        box = box_around(grid, px, py)
        left, top, right, bottom = box
        if not (left <= hx <= right and top <= hy <= bottom):
            # Walled off from the prey (not by us, or by a slip): open the sides facing it.
            facing = []
            for i, wall in enumerate(state.walls):
                if bounds_box(wall, box) and (
                    (wall.y1 == wall.y2 and (wall.y1 - py) * (hy - py) > 0)
                    or (wall.x1 == wall.x2 and (wall.x1 - px) * (hx - px) > 0)
                ):
                    facing.append(i)
            return HunterAction(None, tuple(facing)) if facing else NO_WALLS

        useless = [i for i, wall in enumerate(state.walls) if not bounds_box(wall, box)]
        cut = self._cut(engine, state, grid, box) if engine.build_wait(state) == 0 else None
        if cut is None:
            return HunterAction(None, tuple(useless)) if useless else NO_WALLS
        kind, new_box = cut
        removals = [i for i, wall in enumerate(state.walls) if not bounds_box(wall, new_box)]
        if len(state.walls) - len(removals) >= engine.config.m:
            return HunterAction(None, tuple(useless)) if useless else NO_WALLS
        return HunterAction(kind, tuple(removals))

    def _cut(
        self, engine: EvasionEngine, state: State, grid: Grid, box: tuple[int, int, int, int]
    ) -> tuple[str, tuple[int, int, int, int]] | None:
        hx, hy = state.hunter
        hvx, hvy = state.hunter_velocity
        px, py = state.prey
        left, top, right, bottom = box
        width, height = right - left + 1, bottom - top + 1
        n = engine.config.n
        best: tuple[int, str, tuple[int, int, int, int]] | None = None
        axes = (("h", py - hy, hvy, width), ("v", px - hx, hvx, height))
        # Steps until the hunter is `margin` from the prey's row / column, on each axis
        # it approaches on: an early wall is worth building only when no such close wall
        # falls due within the next N steps (it would be blocked by the wait).
        due = [abs(gap) - self.margin for _, gap, toward, _ in axes if gap and _sign(gap) == toward]
        early_ok = all(eta >= n for eta in due if eta > 0)
        for kind, gap, toward, along in axes:
            if gap == 0 or _sign(gap) != toward:
                continue
            distance = abs(gap)
            if distance > self.margin and not early_ok:
                continue
            if kind == "h":
                new_box = (left, hy + 1, right, bottom) if gap > 0 else (left, top, right, hy - 1)
                cut_off = (hy - top + 1 if gap > 0 else bottom - hy + 1) * along
                wall = Wall(left, hy, right, hy)
            else:
                new_box = (hx + 1, top, right, bottom) if gap > 0 else (left, top, hx - 1, bottom)
                cut_off = (hx - left + 1 if gap > 0 else right - hx + 1) * along
                wall = Wall(hx, top, hx, bottom)
            if best is not None and cut_off <= best[0]:
                continue
            if wall_problem(grid, wall, state.hunter, state.hunter_velocity, state.prey) is not None:
                continue
            nx, ny, _, _ = bounce(grid.with_wall(wall), hx, hy, hvx, hvy)
            nl, nt, nr, nb = new_box
            if not (nl <= nx <= nr and nt <= ny <= nb):
                continue  # the hunter would end up on the wrong side
            best = (cut_off, kind, new_box)
        if best is None:
            return None
        return best[1], best[2]


# --- prey ------------------------------------------------------------------------------


class RandomPrey:
    """Each move, one of the nine moves at random (a seeded generator)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, engine: EvasionEngine, state: State) -> PreyAction:
        return PREY_MOVES[self.rng.randrange(9)]


def hunter_path(grid: Grid, state: State, steps: int) -> list[tuple[int, int]]:
    """Where the hunter will be after each of the next `steps` steps if no wall changes."""
    x, y = state.hunter
    vx, vy = state.hunter_velocity
    path = []
    for _ in range(steps):
        x, y, vx, vy = bounce(grid, x, y, vx, vy)
        path.append((x, y))
    return path


class LookaheadPrey:
    """The builtin prey (see module doc). `horizon`: hunter steps simulated ahead;
    `dodge`: how much each later step counts as room to dodge; `safe`: the margin beyond
    reach that counts as safe enough to start caring about the rectangle."""

    def __init__(self, horizon: int = 48, dodge: float = 0.45, safe: float = 3.0) -> None:
        self.horizon = horizon
        self.dodge = dodge
        self.safe = safe

    def __call__(self, engine: EvasionEngine, state: State) -> PreyAction:
        grid = engine.grid_of(state)
        path = hunter_path(grid, state, self.horizon)
        px, py = state.prey
        hx, hy = state.hunter
        left, top, right, bottom = box_around(grid, px, py)
        hvx, hvy = state.hunter_velocity
        dodge = self.dodge
        best_key: tuple[float, float] | None = None
        best = KEEP
        for move in PREY_MOVES:
            cx, cy, _, _ = bounce(grid, px, py, *move.velocity)  # type: ignore[misc]
            margin = math.inf
            for t, (x, y) in enumerate(path):
                d = math.hypot(cx - x, cy - y) - 4.0 + dodge * t
                if d < margin:
                    margin = d
            safety = min(margin, self.safe)
            # Keep room on the side the hunter comes from: stay toward it along each axis
            # it approaches on, so a wall across the hunter's path cuts off little.
            room = 0.0
            if (py - hy) * hvy > 0:
                room -= abs(cy - hy)
            if (px - hx) * hvx > 0:
                room -= abs(cx - hx)
            room -= 0.05 * (abs(cx - (left + right) / 2) + abs(cy - (top + bottom) / 2))
            key = (safety, room)
            if best_key is None or key > best_key:
                best_key, best = key, move
        return best


# --- agents ----------------------------------------------------------------------------


def make_policy(role: str, kind: str, seed: int | None = None) -> Policy:
    if role == "hunter":
        if kind == "builtin":
            return BoxHunter()
        if kind == "nowall":
            return NoWallHunter()
        if kind == "random":
            return RandomHunter(seed)
        raise ValueError(f"unknown hunter {kind!r} (choose {', '.join(HUNTER_KINDS)})")
    if role == "prey":
        if kind == "builtin":
            return LookaheadPrey()
        if kind == "random":
            return RandomPrey(seed)
        raise ValueError(f"unknown prey {kind!r} (choose {', '.join(PREY_KINDS)})")
    raise ValueError(f"unknown role {role!r} (hunter or prey)")


def make_agent(role: str, kind: str, seed: int | None = None) -> Agent[Any, Any]:
    """A bot for a seat: role "hunter" (builtin, random, nowall) or "prey" (builtin, random)."""
    policy = make_policy(role, kind, seed)

    def choose(ask: Ask[Any, Any]) -> Any:
        return policy(ask.engine, ask.state)

    agent = FunctionAgent(choose, name=f"{kind} {role}")
    agent.kind = "bot"
    return agent


__all__ = [
    "BoxHunter",
    "HUNTER",
    "HUNTER_KINDS",
    "LookaheadPrey",
    "NoWallHunter",
    "PREY",
    "PREY_KINDS",
    "RandomHunter",
    "RandomPrey",
    "box_around",
    "hunter_path",
    "make_agent",
    "make_policy",
]

