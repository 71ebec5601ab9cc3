"""Evasion's bots: the builtin hunter and prey, a random prey, a hunter that never builds.

A policy is a callable `policy(engine, state) -> action`; `make_agent(role, kind, seed)`
wraps one as an Agent. Policies keep memory between calls only as a cache, except the
builtin prey's one bit of the game so far (whether the hunter still plays as our builtin
one; the first state and the seed decide the rest), so a game replays exactly from its
seed. Hunters of other styles, to measure the prey against, are in `sparring.py`.

Builtin hunter ("shrink the box"): the prey lives in a rectangle bounded by walls and the
board edge. Whenever the hunter moves toward the prey along one axis and is about to cross
the prey's row (or column), it builds a wall through itself across the whole rectangle,
so the prey's rectangle loses everything on the hunter's side; it removes walls that no
longer bound the prey's rectangle, and it never builds a wall that would leave it on the
other side from the prey (each candidate is checked by moving the hunter past it).

Builtin prey: recognises the hunter's style among the ones it models (our builtin hunter,
and the issue's halver, rectangle and level styles: `model_cut`), dropping each style the
hunter is seen not to play; plays plans forward against an exact model of the styles left
in the prey's rectangle (its bounce and its wall rule): the plan in hand, each of its nine
moves (some held a few moves: `PLANS`), and seeded variations of the plan in hand (a move
held a while from some point on), each followed by a simple chase (meet the hunter on the
axes it approaches on, since what it crosses it walls off; follow it on the axes it leaves
on, so its next approach is short; step off its diagonal); it keeps the plan that is
caught latest (else keeps the most room), the plan in hand unless another does strictly
better. The models are exact, so the prey lives at least as long as any plan it has held
(`promise`), and the variations make that plan a better one search after search. In the
endgame (a small rectangle) a beam search over its moves against the same model
(`beam_plan`) adds a line no small change of the plan reaches. Walls the model does not describe, and a hunter
seen to wall otherwise than the builtin one (another style: the model would mislead), fall
back to a dodge over the hunter's bounce path. Its choices depend only on the state and its seed
(small seeded tie-breaks and a seeded style), so games over seeds differ and each
replays from its seed.
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
from tui_grid.games.evasion.boxes import bounds_box, box_around, rectangle_side
from tui_grid.games.evasion.rules import PAD, Grid, Wall, bounce, wall_problem

Policy = Callable[[EvasionEngine, State], Any]

HUNTER_KINDS = ("builtin", "random", "nowall", "halver", "rectangle", "level")  # the last three: sparring.py
PREY_KINDS = ("builtin", "random")


# --- geometry helpers ------------------------------------------------------------------




def _sign(v: int) -> int:
    return (v > 0) - (v < 0)




# --- hunters ---------------------------------------------------------------------------

MARGIN = 2  # the builtin hunter walls when the prey's row (column) is this close ahead


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

    def __init__(self, margin: int = MARGIN) -> None:
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


HORIZON = 1200
#: Hunter models (margin, keep) to hedge the rollouts over once the hunter is seen not to be
#: the builtin one, e.g. ((MARGIN, 0.0), (MARGIN, 0.5)): the builtin rule and a greedy
#: cutter. None by default: against the sparring hunters the plain dodge did as well or
#: better at N=10 M=5 (halver 757 vs 704, rectangle 1279 vs 946, level uncaught vs 1046).
OTHER_MODELS: tuple[tuple[int, float], ...] = ()
#: The prey's plans: hold its first move this many moves, then chase with (uu, gg).
PLANS: tuple[tuple[int, int | None, int | None], ...] = ((1, None, None), (4, None, None), (12, None, None))
#: A plan: segments (a move, how many moves it is held), then the chase with (uu, gg).
Plan = tuple[tuple[tuple[tuple[int, int] | None, int], ...], int, int]  # a move None: the chase
BRANCHES = 27  # seeded variations of the plan in hand tried at each search
BRANCH_HOLDS = (2, 4, 8, 16, 32)
BRANCH_AHEAD = 100  # a variation may start up to this many moves past the plan's segments
MAX_SEGMENTS = 6
#: The endgame search (`beam_plan`): once the prey's rectangle is at most BEAM_AREA cells
#: and one style is left, a beam of BEAM_WIDTH positions a move searches the prey's moves
#: against the exact model, again each time the rectangle has lost BEAM_AGAIN of its area
#: since (a search costs seconds); its line is a candidate plan.
BEAM_AREA = 1500
BEAM_WIDTH = 1000
BEAM_AGAIN = 0.5
BEAM_LAYERS = 1500  # moves searched at most (3000 steps)


def beam_layers(tick: int, max_steps: int | None) -> int:
    """The endgame search's depth in moves: BEAM_LAYERS, but never past the game's step
    cap (a line alive at the cap has won; searching beyond it is work for nothing)."""
    if max_steps is None:
        return BEAM_LAYERS
    return max(1, min(BEAM_LAYERS, (max_steps - tick) // 2 + 1))


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
    """The builtin prey (see module doc): plays each of its nine moves forward against a
    model of the builtin hunter and picks the one that survives longest.

    When the prey's region is a clean rectangle with the hunter inside (always so against
    the builtin hunter), the model is exact: a rectangle, the hunter's bounce, and the
    builtin hunter's wall rule (a wall through the hunter across the rectangle when it
    approaches the prey, at most one every N steps). Each of the nine first moves is
    followed by `chase_move` (meet the hunter on the axes it approaches on, follow it on
    the axes it leaves on, step sideways off its diagonal) for up to `horizon` steps; a
    move is scored by the step the model catches the prey at, or, if it survives, the area
    left and the closest approach. It searches on every `every`-th move and plays its plan
    in between (so nothing is lost; the cost halves). The plan in hand is a candidate of
    every search and wins its ties (so its promise holds); other ties go to a seeded
    perturbation (from `seed` and the step), as do the variations tried, so games with
    different seeds differ while one seed always plays the same game.

    Otherwise (walls the model does not describe, a hunter that has built nothing long
    after it could, or a hunter seen to wall other than the builtin one: `recognise`) it
    falls back to `dodge_move`: keep out of reach of the hunter's simulated bounce path,
    near its side of the rectangle."""

    def __init__(self, seed: int | None = None, horizon: int = HORIZON, every: int = 2,
                 uu: int | None = None, gg: int | None = None,
                 models: tuple[tuple[int, float], ...] = OTHER_MODELS,
                 plans: tuple[tuple[int, int | None, int | None], ...] | None = None,
                 beam_width: int | None = None) -> None:
        self.seed = 0 if seed is None else seed
        self.horizon = horizon
        self.every = every
        # Seeded style: how far off the hunter's diagonal to step aside, how close a
        # receding hunter may pass before backing away.
        mixed = _mix(self.seed)
        self.uu = UU - 1 + mixed % 3 if uu is None else uu
        self.gg = GG if gg is None else gg
        self.models = models
        # Whether the hunter has played as the builtin one so far this game, and our last
        # state and move, to check the next state against (see `recognise`).
        self.styles = list(MODEL_STYLES)
        # The continuations searched: (moves the first move is held for, uu, gg) of the
        # chase after it (None: the seeded style); the plan chosen (move, holds left, uu, gg).
        self.plans = PLANS if plans is None else plans
        self.plan: Plan = ((), self.uu, self.gg)
        # The step the model catches the plan in hand at (None: it outlives the horizon).
        self.promise: int | None = None
        self.next_search = 0
        # The endgame search's positions a move (tests narrow it; the bench's probe reads the
        # module's BEAM_WIDTH and BEAM_AREA when the prey is made).
        self.beam_width = BEAM_WIDTH if beam_width is None else beam_width
        self.beam_area = BEAM_AREA / BEAM_AGAIN  # the area at the last endgame search
        # The step the plan in hand is known to live to past the rollouts' horizon (an
        # endgame line that outlived its search), else None.
        self.known: int | None = None
        self.beam_tick = NEVER
        self.searched_walls: tuple[Wall, ...] = ()
        self.last_move: tuple[State, PreyAction] | None = None
        #: Set by a client whose game clock runs low (`hurry`): no variations are tried,
        #: which saves about two thirds of the thinking.
        self.hurried = False
        #: Cleared by a player asked for an answer within a tick (the app's real-time
        #: match, `quick_answers`): the endgame search takes seconds, the rest milliseconds.
        self.endgame_search = True

    def __call__(self, engine: EvasionEngine, state: State) -> PreyAction:
        self.recognise(engine, state)
        move = self.choose(engine, state)
        if state.prey_moves_next:  # asked every step (2016), only a move that is played counts
            self.last_move = (state, move)
        return move

    @property
    def builtin_seen(self) -> bool:
        """Whether the hunter has played as our builtin one so far this game."""
        return "builtin" in self.styles

    def recognise(self, engine: EvasionEngine, state: State) -> None:
        """Replay the steps since our last move with each hunter style still in `styles`
        (`model_cut`, in the clean rectangle the prey was in): a style that would have
        built or not built otherwise than the hunter did is dropped for the rest of the
        game. With none left the prey dodges. (A model of the wrong style misleads: tuned
        to our own hunter, the prey lasted 548 steps against a halver, 921 dodging.)"""
        if not self.styles or self.last_move is None:
            return
        before, move = self.last_move
        if state.tick - before.tick != 2 or not before.prey_moves_next:
            return
        grid = engine.grid_of(before)
        box = box_around(grid, *before.prey)
        if not (box[0] <= before.hunter[0] <= box[2] and box[1] <= before.hunter[1] <= box[3]) or not clean_box(grid, box):
            return
        c = engine.config
        velocity = move.velocity if move.velocity is not None else before.prey_velocity
        observed = box_around(engine.grid_of(state), *state.prey)
        observed_last = state.last_build if state.last_build is not None else NEVER
        kept = []
        for style in self.styles:
            sim = model_advance(style, box, *before.hunter, *before.hunter_velocity, *before.prey, velocity, before.tick,
                                before.last_build if before.last_build is not None else NEVER, 2, c.n, c.m, c.width, c.height)
            if sim[3] != state.prey:
                return  # someone else moved for us in between (a hint taken, a human): no verdict
            if sim[0] == observed and sim[1] == state.hunter and sim[4] == observed_last:
                kept.append(style)
        self.styles = kept

    def choose(self, engine: EvasionEngine, state: State) -> PreyAction:
        grid = engine.grid_of(state)
        px, py = state.prey
        hx, hy = state.hunter
        box = box_around(grid, px, py)
        left, top, right, bottom = box
        c = engine.config
        if (
            not (left <= hx <= right and top <= hy <= bottom)
            or not self.styles
            or not clean_box(grid, box)
            or (state.last_build is None and state.tick > 2 * c.n + 20)  # not a hunter that walls
        ):
            return dodge_move(engine, state, grid, box, salt=_mix(self.seed * 1_000_003 + state.tick))
        last = state.last_build if state.last_build is not None else NEVER
        hvx, hvy = state.hunter_velocity
        if not state.prey_moves_next or (state.tick < self.next_search and state.walls == self.searched_walls):
            # Follow the plan (asked every step, 2016: no move now).
            return self.follow_plan(hx, hy, hvx, hvy, px, py, state.prey_moves_next)
        salt = _mix(self.seed * 1_000_003 + state.tick)
        models = [(style, MARGIN, 0.0) for style in self.styles]
        if self.builtin_seen:
            models += [("builtin", margin, keep) for margin, keep in self.models]
        # While several styles are left (the first steps), the chase alone and no
        # variations keep it cheap.
        few = len(models) > 1
        best_key: tuple[int, int, int, int] = (-1, 0, 0, 0)
        best = self.plan
        best_i = 0
        candidates = self.fixed_plans(self.plans[:1] if few else self.plans)
        known: dict[int, int] = {0: self.known} if self.known is not None else {}
        if not few:
            candidates += self.variations(salt)
            line = self.endgame_line(models[0][0], box, state, last, c, salt)
            if line:
                moves = sum(count for _, count in line)
                if moves >= beam_layers(state.tick, c.max_steps):  # alive at the end of the search: it lives at least that long
                    known[len(candidates)] = state.tick + 2 * moves
                candidates.append((line, self.uu, self.gg))
        for i, plan in enumerate(candidates):
            segments, uu, gg = plan
            key = (2, 0, 0, 0)
            for style, margin, keep in models:  # the worst case over the hunter models
                caught, area, closest = rollout(
                    box, hx, hy, hvx, hvy, px, py, segments[0][0], state.tick, last,
                    c.n, c.m, c.width, c.height, c.strict_capture, self.horizon, margin, uu, gg, keep, style,
                    segments[0][1], segments[1:],
                )
                key = min(key, (0, caught, 0, 0) if caught else (1, area, closest, 0))
            if key[0] == 1 and known.get(i, 0) > state.tick + self.horizon:
                key = (2, known[i], 0, 0)  # known to outlive what the others are seen to
            # The plan in hand (first) wins ties, so what it promised is kept; others by a seeded jitter.
            key = (key[0], key[1], key[2], 0x10000 if i == 0 else _mix(salt + i) & 0xFFFF)
            if key > best_key:
                best_key, best, best_i = key, plan, i
        self.plan = best
        self.known = known.get(best_i)
        self.promise = state.tick + best_key[1] if best_key[0] == 0 else None
        # Search again after `every` moves, four times that while the plan survives the
        # horizon (the plan is what the rollouts played), or as soon as a wall changes.
        self.next_search = state.tick + 2 * self.every * (1 if best_key[0] == 0 else 4)
        self.searched_walls = state.walls
        return self.follow_plan(hx, hy, hvx, hvy, px, py, True)

    def endgame_line(self, style: str, box: tuple[int, int, int, int], state: State, last: int, c: Any,
                     salt: int) -> tuple[tuple[tuple[int, int], int], ...]:
        """The endgame search's line (`beam_plan`) when it is due: the rectangle is at most
        BEAM_AREA and has lost BEAM_AGAIN of its area since the last one, or the line in hand
        that outlived its search is within half the horizon of its end; else ()."""
        area = (box[2] - box[0] + 1) * (box[3] - box[1] + 1)
        renew = (self.known is not None and self.known - state.tick < self.horizon // 2
                 and state.tick - self.beam_tick >= self.horizon // 2)
        shrunk = area <= BEAM_AGAIN * self.beam_area
        if self.hurried or not self.endgame_search or not (shrunk or renew):
            return ()
        # Renewing a line in a rectangle that no longer shrinks: a narrow beam mostly finds
        # one (against the rectangle hunter at N=10: 1 s a renewal instead of 5), else a wider.
        wide = self.beam_width
        widths = (wide,) if shrunk or area < self.beam_area else (max(1, wide // 20), max(1, wide // 4))
        self.beam_area = area
        self.beam_tick = state.tick
        layers = beam_layers(state.tick, c.max_steps)
        for width in widths:
            line = beam_plan(style, box, *state.hunter, *state.hunter_velocity, *state.prey, state.tick, last,
                             c.n, c.m, c.width, c.height, c.strict_capture, layers, width, salt)
            if sum(count for _, count in line) >= layers:
                break
        return line

    def fixed_plans(self, plans: tuple[tuple[int, int | None, int | None], ...]) -> list[Plan]:
        """The plan in hand first (so the prey never trades it for a worse one: against an
        exact model it lives at least as long as any plan it has held), then each move held
        as `plans` says, then the chase."""
        segments, uu, gg = self.plan
        out: list[Plan] = [(segments or (((0, 0), 0),), uu, gg)]  # an empty plan: the chase alone
        for hold, puu, pgg in plans:
            puu = self.uu if puu is None else puu
            pgg = self.gg if pgg is None else pgg
            out += [(((move.velocity, hold),), puu, pgg) for move in PREY_MOVES]
        return out

    def variations(self, salt: int) -> list[Plan]:
        """`BRANCHES` seeded variations of the plan in hand: it as far as a random point (up
        to `BRANCH_AHEAD` moves of chase past its segments), then one move held a while,
        then the chase. Kept when they do better, they make the plan a longer one over the
        searches (a stochastic search over plans, bounded by `MAX_SEGMENTS`)."""
        segments, uu, gg = self.plan
        length = sum(count for _, count in segments)
        out: list[Plan] = []
        for j in range(0 if self.hurried else BRANCHES):
            r = _mix(salt ^ (0x9E3779B1 * (j + 1)) & 0xFFFFFFFF)
            at = r % (length + BRANCH_AHEAD)
            kept: list[tuple[tuple[int, int] | None, int]] = []
            for velocity, count in segments:
                if at <= 0:
                    break
                kept.append((velocity, min(count, at)))
                at -= count
            if at > 0:
                kept.append((None, at))  # chase that many moves first
            move = PREY_MOVES[(r >> 8) % 9].velocity
            hold = BRANCH_HOLDS[(r >> 16) % len(BRANCH_HOLDS)]
            if len(kept) < MAX_SEGMENTS:
                out.append((tuple(kept) + ((move, hold),), uu, gg))
        return out

    def follow_plan(self, hx: int, hy: int, hvx: int, hvy: int, px: int, py: int, moves: bool) -> PreyAction:
        """The plan's next move: its segments in turn (a move held a number of moves), then
        the chase; a move played (`moves`) is taken off the plan."""
        segments, uu, gg = self.plan
        while segments and segments[0][1] <= 0:
            segments = segments[1:]
        if not segments:
            self.plan = ((), uu, gg)
            return PreyAction(chase_move(hx, hy, hvx, hvy, px, py, uu, gg))
        velocity, count = segments[0]
        if moves:
            self.plan = (((velocity, count - 1),) + segments[1:], uu, gg)
        if velocity is None:
            return PreyAction(chase_move(hx, hy, hvx, hvy, px, py, uu, gg))
        return PreyAction(velocity)


NEVER = -(10**9)  # the step of the last wall when none was built

#: A position in the beam: the rectangle, the hunter, its velocity, the prey, the step of
#: the last wall (clamped to N steps back, so equal futures compare equal).
BeamState = tuple[int, int, int, int, int, int, int, int, int, int, int]


def _beam_children(
    state: BeamState, moves: list[tuple[int, int]], t: int, style: str, n: int, m: int, edge_r: int, edge_b: int,
    reach: int,
) -> list[tuple[BeamState, int]]:
    """Steps t+1 (the prey moves) and t+2 of the model, as `rollout` plays them, for each
    of the prey's moves: (position after, move index) of the moves not caught. The hunter's
    first step does not depend on the move, so it is played once."""
    left, top, right, bottom, hx, hy, vx, vy, px, py, last = state
    first = t + 1
    if first >= last + n and ((px - hx) * vx > 0 or (py - hy) * vy > 0):
        new = model_cut(style, left, top, right, bottom, hx, hy, vx, vy, px, py, n, m, edge_r, edge_b)
        if new is not None:
            left, top, right, bottom = new
            last = first
    hx, hy, vx, vy = _rect_bounce(left, top, right, bottom, hx, hy, vx, vy)
    second = t + 2
    ready = second >= last + n
    # The hunter's second step when it builds nothing then (the same for every move).
    plain = _rect_bounce(left, top, right, bottom, hx, hy, vx, vy)
    floor = t + 2 - n
    out = []
    for j, (dx, dy) in enumerate(moves):
        qx, qy = px + dx, py + dy
        if not (left <= qx <= right and top <= qy <= bottom):
            qx, qy, _, _ = _rect_bounce(left, top, right, bottom, px, py, dx, dy)
        ex, ey = qx - hx, qy - hy
        if ex * ex + ey * ey <= reach:
            continue
        box = (left, top, right, bottom)
        built = last
        hunter = plain
        if ready and (ex * vx > 0 or ey * vy > 0):
            new = model_cut(style, left, top, right, bottom, hx, hy, vx, vy, qx, qy, n, m, edge_r, edge_b)
            if new is not None:
                box = new
                built = second
                hunter = _rect_bounce(*new, hx, hy, vx, vy)
        ex, ey = qx - hunter[0], qy - hunter[1]
        if ex * ex + ey * ey <= reach:
            continue
        out.append(((*box, *hunter, qx, qy, max(built, floor)), j))
    return out


def _beam_rank(state: BeamState, salt: int) -> tuple[int, int, int]:
    """Which positions the beam keeps: the most room, then farthest from the hunter up to
    10 cells (a larger cap did worse: 8 endgames against the halver, median caught at 2570
    with 20 cells, 2779 with 10), then a seeded tie-break."""
    left, top, right, bottom, hx, hy, _, _, px, py, _ = state
    ex, ey = px - hx, py - hy
    return (right - left + 1) * (bottom - top + 1), min(ex * ex + ey * ey, 100), _mix(salt ^ (px << 9 | py) ^ (hx << 20 | hy << 10)) & 0xFFFF


def beam_plan(
    style: str, box: tuple[int, int, int, int], hx: int, hy: int, vx: int, vy: int, px: int, py: int,
    tick: int, last: int, n: int, m: int, width: int, height: int, strict: bool, layers: int, beam: int, salt: int,
) -> tuple[tuple[tuple[int, int], int], ...]:
    """The endgame search: the prey's moves against a hunter of `style` in the clean
    rectangle (the exact model of `rollout`), breadth first a move at a time, equal
    positions merged, the `beam` best kept (`_beam_rank`); returns the line to a position
    of the last move any survives (at most `layers`), as plan segments. The random
    variations only bend the plan in hand; this finds lines that no small change of it
    reaches (from a 20x57 rectangle against the halver: caught at 2456, the plan in hand 1994)."""
    if not tick & 1:  # the prey moves on even steps: searched from a state just before one
        return ()
    reach = 15 if strict else 16
    moves: list[tuple[int, int]] = [move.velocity for move in PREY_MOVES]  # type: ignore[misc]
    frontier: list[BeamState] = [(*box, hx, hy, vx, vy, px, py, max(last, tick - n))]
    links: list[list[int]] = []  # per move: parent index * 9 + move index, of each kept position
    for layer in range(layers):
        t = tick + 2 * layer
        seen: set[BeamState] = set()
        children: list[tuple[BeamState, int]] = []
        for i, state in enumerate(frontier):
            for child, j in _beam_children(state, moves, t, style, n, m, width - 1, height - 1, reach):
                if child not in seen:
                    seen.add(child)
                    children.append((child, i * 9 + j))
        if not children:
            break
        if len(children) > beam:
            children.sort(key=lambda pair: _beam_rank(pair[0], salt), reverse=True)
            del children[beam:]
        links.append([link for _, link in children])
        frontier = [child for child, _ in children]
    line: list[int] = []
    index = 0
    for kept in reversed(links):
        line.append(kept[index] % 9)
        index = kept[index] // 9
    line.reverse()
    segments: list[tuple[tuple[int, int], int]] = []
    for j in line:
        if segments and segments[-1][0] == moves[j]:
            segments[-1] = (segments[-1][0], segments[-1][1] + 1)
        else:
            segments.append((moves[j], 1))  # type: ignore[arg-type]
    return tuple(segments)


def model_advance(
    style: str, box: tuple[int, int, int, int], hx: int, hy: int, vx: int, vy: int, px: int, py: int,
    move: tuple[int, int], tick: int, last: int, steps: int, n: int, m: int, width: int, height: int,
) -> tuple[tuple[int, int, int, int], tuple[int, int], tuple[int, int], tuple[int, int], int]:
    """`steps` steps of a hunter of `style` in the clean rectangle `box` (the course's
    order), the prey making `move` on the first even step and staying after; returns
    (box, hunter, its velocity, prey, step of the last wall)."""
    left, top, right, bottom = box
    moved = False
    for k in range(1, steps + 1):
        t = tick + k
        if t >= last + n:
            new = model_cut(style, left, top, right, bottom, hx, hy, vx, vy, px, py, n, m, width - 1, height - 1)
            if new is not None:
                left, top, right, bottom = new
                last = t
        hx, hy, vx, vy = _rect_bounce(left, top, right, bottom, hx, hy, vx, vy)
        if not t & 1 and not moved:
            moved = True
            px, py, _, _ = _rect_bounce(left, top, right, bottom, px, py, *move)
    return (left, top, right, bottom), (hx, hy), (vx, vy), (px, py), last


#: An answer due sooner than this leaves out the endgame search (1 to 15 s of CPU).
ENDGAME_SECONDS = 15.0


def quick_answers(policy: Any, seconds_left: float | None) -> None:
    """Tell a policy how soon its answer is due: the builtin prey leaves its endgame search
    out when that is sooner than ENDGAME_SECONDS (a late builtin bot's move is lost, and its
    search would run on beside the next ask); other policies have no such knob."""
    if isinstance(policy, LookaheadPrey):
        policy.endgame_search = seconds_left is None or seconds_left >= ENDGAME_SECONDS


def _mix(x: int) -> int:
    """A cheap 32-bit integer hash (deterministic across runs, unlike hash())."""
    x = (x ^ (x >> 16)) * 0x45D9F3B & 0xFFFFFFFF
    x = (x ^ (x >> 16)) * 0x45D9F3B & 0xFFFFFFFF
    return x ^ (x >> 16)


def clean_box(grid: Grid, box: tuple[int, int, int, int]) -> bool:
    """True when the free region around the box is exactly the box: no wall crosses it,
    and every cell just outside its four sides is blocked."""
    left, top, right, bottom = box
    for wall in grid.walls:
        if wall.x1 <= right and wall.x2 >= left and wall.y1 <= bottom and wall.y2 >= top:
            return False
    cells, stride = grid.cells, grid.stride
    above = (top - 1 + PAD) * stride + PAD
    below = (bottom + 1 + PAD) * stride + PAD
    first = (top + PAD) * stride + PAD
    last = (bottom + PAD) * stride + PAD
    return (
        all(cells[above + left : above + right + 1])
        and all(cells[below + left : below + right + 1])
        and all(cells[first + left - 1 : last + left : stride])
        and all(cells[first + right + 1 : last + right + 2 : stride])
    )


def _rect_bounce(left: int, top: int, right: int, bottom: int, x: int, y: int, vx: int, vy: int) -> tuple[int, int, int, int]:
    """`rules.bounce` inside an empty rectangle (everything outside it blocked)."""
    nx = x + vx
    ny = y + vy
    if left <= nx <= right and top <= ny <= bottom:
        return nx, ny, vx, vy
    if vx == 0 or vy == 0:
        return x, y, -vx, -vy
    a = not (left <= nx <= right and top <= y <= bottom)
    b = not (left <= x <= right and top <= ny <= bottom)
    if a == b:  # a corner, or (only off the rectangle) both sides free
        return x, y, -vx, -vy
    if a:
        return x, ny, -vx, vy
    return nx, y, vx, -vy


UU = 8  # step sideways when the hunter's diagonal passes within this (|dx - dy|) of the prey
GG = 6  # on an axis the hunter leaves, back away instead of following when this close


def chase_move(hx: int, hy: int, hvx: int, hvy: int, px: int, py: int, uu: int = UU, gg: int = GG) -> tuple[int, int]:
    """The rollouts' default prey move. On an axis the hunter approaches on, go to meet it
    (its walls cut off what it crosses, so meeting it early loses least); on an axis it
    moves away on, follow it (so its next approach is short), unless it passes close;
    when it heads straight at the prey, step off its diagonal first."""
    gx = px - hx
    gy = py - hy
    toward_x = gx * hvx > 0
    toward_y = gy * hvy > 0
    if toward_x and toward_y:
        u = gx * hvx - gy * hvy
        if -uu < u < uu:
            s = 1 if u >= 0 else -1
            return s * hvx, -s * hvy
        return -hvx, -hvy
    if toward_x:
        return -hvx, (-hvy if -gg < gy < gg else hvy)
    if toward_y:
        return (-hvx if -gg < gx < gg else hvx), -hvy
    return hvx, hvy

#: The hunter styles the prey can model in a clean rectangle (`model_cut`): our builtin
#: hunter and the three styles of the issue that sparring.py plays.
MODEL_STYLES = ("builtin", "halver", "rectangle", "level")
LEVEL_BAND = 6  # the level style: it walls this many rows from the prey's row


def _cut_box(left: int, top: int, right: int, bottom: int, hx: int, hy: int, vx: int, vy: int,
             gap: int, horizontal: bool) -> tuple[int, int, int, int] | None:
    """The prey's rectangle after a wall through the hunter across it (the prey `gap` away
    on that axis), or None when the hunter would not end on the prey's side."""
    if horizontal:
        nb = (left, hy + 1, right, bottom) if gap > 0 else (left, top, right, hy - 1)
    else:
        nb = (hx + 1, top, right, bottom) if gap > 0 else (left, top, hx - 1, bottom)
    nx, ny, _, _ = _rect_bounce(*nb, hx, hy, vx, vy)
    if nb[0] <= nx <= nb[2] and nb[1] <= ny <= nb[3]:
        return nb
    return None




def model_cut(
    style: str, left: int, top: int, right: int, bottom: int, hx: int, hy: int, vx: int, vy: int,
    px: int, py: int, n: int, m: int, edge_r: int, edge_b: int, margin: int = MARGIN, keep: float = 0.0,
) -> tuple[int, int, int, int] | None:
    """The prey's rectangle after the wall a hunter of `style` builds now (its wait over),
    or None when it builds none; the hunter is inside the clean rectangle. Styles:
    "builtin" (`BoxHunter(margin)`; with `keep` > 0 a greedy cutter instead), "halver",
    "rectangle" and "level" (the styles of sparring.py, as the issue describes them)."""
    gy = py - hy
    gx = px - hx
    new = None
    if style == "builtin" or style == "halver":
        if style == "halver":
            keep = 0.5
        ay = gy * vy > 0
        ax = gx * vx > 0
        if not (ay or ax):
            return None
        if keep:  # the greedy cutter: a cut leaving at most `keep` of the area
            area_now = (right - left + 1) * (bottom - top + 1)
            early_y = (hy - top + 1 if gy > 0 else bottom - hy + 1) * (right - left + 1) >= (1 - keep) * area_now
            early_x = (hx - left + 1 if gx > 0 else right - hx + 1) * (bottom - top + 1) >= (1 - keep) * area_now
        else:
            early = True
            if ay and 0 < abs(gy) - margin < n:
                early = False
            if ax and 0 < abs(gx) - margin < n:
                early = False
            early_y = early_x = early
        best = -1
        if ay and (abs(gy) <= margin or early_y):
            nb = _cut_box(left, top, right, bottom, hx, hy, vx, vy, gy, True)
            if nb is not None:
                best = (hy - top + 1 if gy > 0 else bottom - hy + 1) * (right - left + 1)
                new = nb
        if ax and (abs(gx) <= margin or early_x):
            cut = (hx - left + 1 if gx > 0 else right - hx + 1) * (bottom - top + 1)
            if cut > best:
                nb = _cut_box(left, top, right, bottom, hx, hy, vx, vy, gx, False)
                if nb is not None:
                    new = nb
    elif style == "rectangle":
        horizontal = rectangle_side(left, top, right, bottom, hx, hy, vx, vy, px, py)
        if horizontal is not None:
            new = _cut_box(left, top, right, bottom, hx, hy, vx, vy, gy if horizontal else gx, horizontal)
    elif style == "level":
        if gy * vy <= 0 or abs(gy) > LEVEL_BAND or (py - top if gy > 0 else bottom - py) <= LEVEL_BAND:
            return None
        new = _cut_box(left, top, right, bottom, hx, hy, vx, vy, gy, True)
    # At most m walls: the sides of the new rectangle off the board's edge.
    if new is not None and (new[0] > 0) + (new[1] > 0) + (new[2] < edge_r) + (new[3] < edge_b) <= m:
        return new
    return None


def rollout(
    box: tuple[int, int, int, int],
    hx: int, hy: int, vx: int, vy: int,
    px: int, py: int,
    first: tuple[int, int] | None,
    tick: int, last: int, n: int, m: int, width: int, height: int, strict: bool, steps: int,
    margin: int = MARGIN, uu: int = UU, gg: int = GG, keep: float = 0.0, style: str = "builtin", hold: int = 1,
    then: tuple[tuple[tuple[int, int] | None, int], ...] = (),
) -> tuple[int, int, int]:
    """Play `steps` steps of the builtin hunter (`BoxHunter(margin)`) in the empty
    rectangle `box` against a prey that makes move `first` and then `chase_move`.
    Returns (steps until caught or 0, area of the rectangle at the end, closest squared
    distance). Mirrors BoxHunter and the engine step for step (tests check this).

    With `keep` > 0 the hunter is a greedier cutter instead (`sparring.HalvingHunter`'s
    style): it cuts on an axis it approaches on whenever the prey would keep at most
    `keep` of its rectangle, or at the pass (`margin`), as soon as the wait allows.
    `style` names another hunter model (`model_cut`). After `first` (held `hold` moves)
    the prey plays the segments `then` (a move, how many moves), then the chase."""
    left, top, right, bottom = box
    reach = 15 if strict else 16
    closest = 1 << 30
    dx, dy = first or (0, 0)
    pending = hold
    queue = list(then)
    edge_r, edge_b = width - 1, height - 1
    for k in range(1, steps + 1):
        t = tick + k
        even = not t & 1
        if even:
            while not pending and queue:
                first, pending = queue.pop(0)
            held = pending > 0 and first is not None
            if pending:
                pending -= 1
            if held:
                dx, dy = first
            else:  # chase_move, inlined (also a chase segment: `first` None)
                gx = px - hx
                gy = py - hy
                if gx * vx > 0:
                    if gy * vy > 0:
                        u = gx * vx - gy * vy
                        if -uu < u < uu:
                            s = 1 if u >= 0 else -1
                            dx, dy = s * vx, -s * vy
                        else:
                            dx, dy = -vx, -vy
                    else:
                        dx, dy = -vx, (-vy if -gg < gy < gg else vy)
                elif gy * vy > 0:
                    dx, dy = (-vx if -gg < gx < gg else vx), -vy
                else:
                    dx, dy = vx, vy
        # Every style walls only when the hunter heads toward the prey on some axis.
        if t >= last + n and ((px - hx) * vx > 0 or (py - hy) * vy > 0):
            new = model_cut(style, left, top, right, bottom, hx, hy, vx, vy, px, py, n, m, edge_r, edge_b, margin, keep)
            if new is not None:
                left, top, right, bottom = new
                last = t
        nx = hx + vx
        ny = hy + vy
        if left <= nx <= right and top <= ny <= bottom:
            hx, hy = nx, ny
        else:
            hx, hy, vx, vy = _rect_bounce(left, top, right, bottom, hx, hy, vx, vy)
        if even:
            nx = px + dx
            ny = py + dy
            if left <= nx <= right and top <= ny <= bottom:
                px, py = nx, ny
            else:
                px, py, dx, dy = _rect_bounce(left, top, right, bottom, px, py, dx, dy)
        ex = px - hx
        ey = py - hy
        d2 = ex * ex + ey * ey
        if d2 <= reach:
            return k, 0, d2
        if d2 < closest:
            closest = d2
    return 0, (right - left + 1) * (bottom - top + 1), closest


def dodge_move(engine: EvasionEngine, state: State, grid: Grid, box: tuple[int, int, int, int],
               horizon: int = 48, dodge: float = 0.45, safe: float = 3.0, follow: float = 0.0,
               salt: int | None = None, noise: float = 0.2) -> PreyAction:
    """The fallback prey move: simulate the hunter's bounces ahead (walls as they stand)
    and move to the cell that stays farthest out of reach over that horizon, counting that
    it can still dodge later (`dodge` per step); among cells at least `safe` beyond reach,
    keep close to the hunter's side of the rectangle, so its next wall cuts off little.
    `follow` weighs closeness on the axes the hunter moves away on; a `salt` (from the
    seed and the step) adds up to `noise` cells of tie-break, so seeds play different games."""
    path = hunter_path(grid, state, horizon)
    px, py = state.prey
    hx, hy = state.hunter
    left, top, right, bottom = box
    hvx, hvy = state.hunter_velocity
    best_key: tuple[float, float] | None = None
    best = KEEP
    for i, move in enumerate(PREY_MOVES):
        cx, cy, _, _ = bounce(grid, px, py, *move.velocity)  # type: ignore[misc]
        margin = math.inf
        for t, (x, y) in enumerate(path):
            d = math.hypot(cx - x, cy - y) - 4.0 + dodge * t
            if d < margin:
                margin = d
        safety = min(margin, safe)
        room = 0.0
        room -= abs(cy - hy) * (1.0 if (py - hy) * hvy > 0 else follow)
        room -= abs(cx - hx) * (1.0 if (px - hx) * hvx > 0 else follow)
        room -= 0.05 * (abs(cx - (left + right) / 2) + abs(cy - (top + bottom) / 2))
        if salt is not None:
            room += noise * (_mix(salt + i) & 0xFFFF) / 0x10000
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
        from tui_grid.games.evasion.sparring import SPARRING_KINDS, make_sparring

        if kind in SPARRING_KINDS:
            return make_sparring(kind)
        raise ValueError(f"unknown hunter {kind!r} (choose {', '.join(HUNTER_KINDS)})")
    if role == "prey":
        if kind == "builtin":
            return LookaheadPrey(seed)
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
    "MARGIN",
    "box_around",
    "chase_move",
    "clean_box",
    "dodge_move",
    "hunter_path",
    "make_agent",
    "make_policy",
    "rollout",
]

