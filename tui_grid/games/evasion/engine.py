"""Evasion as an `Engine`: seats ("hunter", "prey"), states, actions as data and as text.

Step t (1, 2, 3, ...) takes the hunter's action every step and the prey's on even steps.
Wall removals, then at most one creation, happen before anyone moves; then H moves one
diagonal unit with the bounce, and on even steps P makes its move with the bounce; then
capture is checked.

Action text (one word each, so a log line stays "step step ..." with "," between seats):

- hunter: `none`; `h` / `v` (a horizontal / vertical wall through H that extends both ways
  to the nearest obstacle, the 2016 server's request); `create:x1:y1:x2:y2`;
  `remove:i` (the i-th wall, 0-based, as the walls stood before this step) or
  `remove:x1:y1:x2:y2`; parts joined by `+`, removals first: `remove:0+create:5:9:5:80`.
  The 2023 wire form (`create 5 9 5 80`, `remove ... create ...`) is accepted too.
- prey: `dx:dy` with dx, dy in -1..1 sets its velocity and moves (`0:0` stays); `keep`
  moves with the velocity it has (what the 2023 protocol's `none` means). `change dx dy`
  and `dx dy` are accepted too.

A refused request (a wall the rules forbid, a removal of a wall that is not there) is an
Event of kind "refused" with the reason; the step goes on as if it had not been asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Union

from tui_grid.core.engine import (
    PLAYING,
    Engine,
    Event,
    IllegalAction,
    Outcome,
    Result,
    Step,
)
from tui_grid.core.outcome import Failure
from tui_grid.core.words import plural
from tui_grid.games.evasion.causes import SEAT_WORDS, EvasionCause
from tui_grid.games.evasion.rules import (
    Config,
    Grid,
    Wall,
    bounce,
    catches,
    extend_wall,
    grid_for,
    make_wall,
    wall_problem,
)

HUNTER, PREY = 0, 1
SEATS = ("hunter", "prey")

Build = Union[None, str, Wall]  # None, "h", "v" or an explicit wall
Removal = Union[int, Wall]


@dataclass(frozen=True)
class HunterAction:
    """Walls to remove (indices into the walls as they stood, or walls by coordinates) and
    at most one wall to build."""

    build: Build = None
    remove: tuple[Removal, ...] = ()

    @property
    def is_none(self) -> bool:
        return self.build is None and not self.remove


NO_WALLS = HunterAction()


@dataclass(frozen=True)
class PreyAction:
    """The prey's move: a new velocity, or None to keep the one it has."""

    velocity: tuple[int, int] | None = None


KEEP = PreyAction()
PREY_MOVES = tuple(PreyAction((dx, dy)) for dy in (-1, 0, 1) for dx in (-1, 0, 1))

Action = Union[HunterAction, PreyAction]


@dataclass(frozen=True, slots=True)
class State:
    """A position between steps. `tick`: steps played; `last_build`: the step of the last
    wall creation; `caught_at`: the capture step; `forfeit`: (seat, why it forfeited)."""

    tick: int
    hunter: tuple[int, int]
    hunter_velocity: tuple[int, int]
    prey: tuple[int, int]
    prey_velocity: tuple[int, int]
    walls: tuple[Wall, ...] = ()
    last_build: int | None = None
    caught_at: int | None = None
    forfeit: tuple[int, Failure] | None = None
    grid: Grid | None = field(default=None, compare=False, repr=False)

    @property
    def next_step(self) -> int:
        return self.tick + 1

    @property
    def prey_moves_next(self) -> bool:
        return (self.tick + 1) % 2 == 0


class EvasionEngine(Engine[State, Action]):
    seats = SEATS
    allows_undo = False
    tick_seconds = 0.05
    human_tick_seconds = 0.15  # about 7 steps a second with a human seat; bots alone: 20

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()

    def __repr__(self) -> str:
        return f"EvasionEngine({self.config!r})"

    # --- states ----------------------------------------------------------------------
    def initial_state(self) -> State:
        c = self.config
        return State(0, c.hunter_start, c.hunter_velocity, c.prey_start, c.prey_velocity, grid=self.grid(()))

    def make_state(self, **fields: object) -> State:
        """A state from fields (positions, walls, tick, ...), with its grid filled in."""
        walls = tuple(make_wall(*w) for w in fields.pop("walls", ()))  # type: ignore[union-attr]
        state = replace(self.initial_state(), walls=walls, **fields)  # type: ignore[arg-type]
        return replace(state, grid=self.grid(walls))

    def grid(self, walls: tuple[Wall, ...]) -> Grid:
        return grid_for(self.config.width, self.config.height, walls)

    def grid_of(self, state: State) -> Grid:
        grid = state.grid
        if grid is None or grid.walls != state.walls:
            grid = self.grid(state.walls)
        return grid

    def build_wait(self, state: State) -> int:
        """Steps until a wall may be built (0: in the next step)."""
        if state.last_build is None:
            return 0
        return max(0, state.last_build + self.config.n - state.next_step)

    # --- the game ----------------------------------------------------------------------
    def acting_seats(self, state: State) -> tuple[int, ...]:
        if self.outcome(state).over:
            return ()
        return (HUNTER, PREY) if state.prey_moves_next or self.config.prey_every_step else (HUNTER,)

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        """The prey's ten actions; for the hunter a useful subset (nothing, h, v, removals)."""
        if seat == PREY:
            return (KEEP,) + PREY_MOVES
        actions: list[Action] = [NO_WALLS, HunterAction("h"), HunterAction("v")]
        actions += [HunterAction(remove=(wall,)) for wall in state.walls]
        return actions

    def default_action(self, state: State, seat: int) -> Action:
        return NO_WALLS if seat == HUNTER else KEEP

    def queue_action(self, state: State, seat: int, queued: tuple[Action, ...], action: Action) -> tuple[Action, ...]:
        """A hunter's keys merge into one request for its next step (a wall and removals);
        the prey's latest order replaces the last, kept until its next move step."""
        if seat == HUNTER and queued and isinstance(queued[-1], HunterAction) and isinstance(action, HunterAction):
            pending = queued[-1]
            build = action.build if action.build is not None else pending.build
            remove = tuple(pending.remove) + tuple(r for r in action.remove if r not in pending.remove)
            return (HunterAction(build, remove),)
        return (action,)

    def forfeit(self, state: State, seat: int, failure: Failure) -> State:
        return replace(state, forfeit=(seat, failure))

    def elapsed(self, state: State) -> int:
        return state.tick

    def outcome(self, state: State) -> Outcome:
        if state.caught_at is not None:
            return Outcome(Result.WON, EvasionCause.CAUGHT, PREY, HUNTER, numbers=(state.caught_at,), seat_words=SEAT_WORDS)
        if state.forfeit is not None:
            seat, failure = state.forfeit
            return failure.outcome(seat, 1 - seat, SEAT_WORDS)
        limit = self.config.max_steps
        if limit is not None and state.tick >= limit:
            return Outcome(Result.WON, EvasionCause.TIME_UP, PREY, PREY, numbers=(limit,), seat_words=SEAT_WORDS)
        return PLAYING

    def step(self, state: State, actions: Mapping[int, Action]) -> Step[State]:
        if self.outcome(state).over:
            raise IllegalAction("the game is over")
        t = state.tick + 1
        prey_moves = t % 2 == 0
        if not prey_moves and actions.get(PREY) is not None and not self.config.prey_every_step:
            raise IllegalAction(f"the prey moves only on even steps, and step {t} is odd")
        hunter_action = actions.get(HUNTER) or NO_WALLS
        prey_action = (actions.get(PREY) or KEEP) if prey_moves else None
        if prey_action == NO_WALLS:  # a bare "none" decoded without knowing the seat
            prey_action = KEEP
        if not isinstance(hunter_action, HunterAction):
            raise IllegalAction(f"not a hunter action: {hunter_action!r}")
        if prey_action is not None and not isinstance(prey_action, PreyAction):
            raise IllegalAction(f"not a prey action: {prey_action!r}")

        grid = self.grid_of(state)
        walls = state.walls
        last_build = state.last_build
        events: tuple[Event, ...] = ()
        java_order = self.config.preset == "2016"
        if java_order:  # the 2016 server: removals, the hunter's move, then the wall from the cell it left
            if hunter_action.remove:
                walls, grid, events = self._remove(state, hunter_action, grid)
            hx, hy, hvx, hvy = bounce(grid, *state.hunter, *state.hunter_velocity)
            if hunter_action.build is not None:
                walls, last_build, grid, built = self._build(state, hunter_action.build, t, grid, walls, (hx, hy))
                events += built
        else:
            if not hunter_action.is_none:
                walls, last_build, grid, events = self._walls(state, hunter_action, t, grid)
            hx, hy, hvx, hvy = bounce(grid, *state.hunter, *state.hunter_velocity)
        if prey_action is not None:
            pvx, pvy = state.prey_velocity if prey_action.velocity is None else prey_action.velocity
            px, py, pvx, pvy = bounce(grid, *state.prey, pvx, pvy)
            prey, prey_velocity = (px, py), (pvx, pvy)
        else:
            (px, py), prey, prey_velocity = state.prey, state.prey, state.prey_velocity
        caught = t if catches(grid, hx, hy, px, py, self.config.strict_capture) else None
        new = State(t, (hx, hy), (hvx, hvy), prey, prey_velocity, walls, last_build, caught, None, grid)
        if caught is not None:
            events += (Event(f"caught at step {t}", kind="caught", seat=HUNTER, cells=((hx, hy), (px, py))),)
        return Step(new, events)

    def _walls(
        self, state: State, action: HunterAction, t: int, grid: Grid
    ) -> tuple[tuple[Wall, ...], int | None, Grid, tuple[Event, ...]]:
        walls, grid, events = self._remove(state, action, grid) if action.remove else (state.walls, grid, ())
        if action.build is None:
            return walls, state.last_build, grid, events
        walls, last_build, grid, built = self._build(state, action.build, t, grid, walls, None)
        return walls, last_build, grid, events + built

    def _remove(self, state: State, action: HunterAction, grid: Grid) -> tuple[tuple[Wall, ...], Grid, tuple[Event, ...]]:
        """The removals asked for; refused ones are counted in one event, not one each (a
        client may ask for thousands)."""
        walls = list(state.walls)
        refused = 0
        first = ""
        for removal in action.remove:
            if isinstance(removal, int):
                wall = state.walls[removal] if 0 <= removal < len(state.walls) else None
                what = f"number {removal}" if wall is None else ""
            else:
                wall, what = removal, ""
            if wall is not None and wall in walls:
                walls.remove(wall)
                continue
            refused += 1
            if refused == 1:
                first = what or (f"{wall.text()}" if wall is not None else "")
        if len(walls) != len(state.walls):
            grid = self.grid(tuple(walls))
        events: tuple[Event, ...] = ()
        if refused:
            more = f" (and {refused - 1} more removals refused)" if refused > 1 else ""
            events = (_refused(f"no wall {first} to remove ({plural(len(state.walls), 'wall')} standing){more}"),)
        return tuple(walls), grid, events

    def _build(
        self, state: State, build: object, t: int, grid: Grid, walls: tuple[Wall, ...], moved_to: tuple[int, int] | None
    ) -> tuple[tuple[Wall, ...], int | None, Grid, tuple[Event, ...]]:
        """A wall request through the hunter's cell before its move; `moved_to` is where it
        went when it has moved already (the 2016 order)."""
        last_build = state.last_build
        wait = 0 if last_build is None else last_build + self.config.n - t
        if wait > 0:
            return walls, last_build, grid, (_refused(f"no wall yet: {self.config.n} steps must pass between walls (wait {wait} more)"),)
        if len(walls) >= self.config.m:
            return walls, last_build, grid, (_refused(f"no wall built: at most {plural(self.config.m, 'wall')} may stand; remove one first"),)
        wall = extend_wall(grid, *state.hunter, horizontal=build == "h") if isinstance(build, str) else build
        assert isinstance(wall, Wall)
        problem = wall_problem(grid, wall, state.hunter, state.hunter_velocity, state.prey, moved_to)
        if problem is not None:
            return walls, last_build, grid, (_refused(problem),)
        walls = walls + (wall,)
        return walls, t, self.grid(walls), (Event(f"wall {wall.text()} built", kind="built", seat=HUNTER),)

    def observation(self, state: State, seat: int) -> str:
        """The 2023 protocol's state line: what a course client is sent."""
        return state_line(state)

    # --- actions as text ---------------------------------------------------------------
    def encode_action(self, action: Action) -> str:
        return encode_action(action)

    def decode_action(self, text: str) -> Action:
        return decode_action(text)


def state_line(state: State) -> str:
    """A state as the 2023 course protocol's line (protocol2023 sends it)."""
    last = "null" if state.last_build is None else str(state.last_build - 1)
    (hx, hy), (hvx, hvy) = state.hunter, state.hunter_velocity
    (px, py), (pvx, pvy) = state.prey, state.prey_velocity
    words = [str(state.tick), str(hx), str(hy), str(hvx), str(hvy), last, str(px), str(py), str(pvx), str(pvy)]
    words.append(str(len(state.walls)))
    words += [str(v) for wall in state.walls for v in wall]
    return " ".join(words)



def _refused(text: str) -> Event:
    return Event(text, kind="refused", seat=HUNTER)


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"{what}: {word!r} is not a whole number") from None


def _wall_of(words: Sequence[str], what: str) -> Wall:
    if len(words) != 4:
        raise ValueError(f"{what} needs x1 y1 x2 y2, got {' '.join(words) or 'nothing'}")
    return make_wall(*(_int(w, what) for w in words))


def encode_action(action: Action) -> str:
    if isinstance(action, PreyAction):
        if action.velocity is None:
            return "keep"
        return f"{action.velocity[0]}:{action.velocity[1]}"
    parts = []
    for removal in action.remove:
        parts.append(f"remove:{removal}" if isinstance(removal, int) else "remove:{}:{}:{}:{}".format(*removal))
    if isinstance(action.build, str):
        parts.append(action.build)
    elif action.build is not None:
        parts.append("create:{}:{}:{}:{}".format(*action.build))
    return "+".join(parts) or "none"


def decode_action(text: str) -> Action:
    """Parse our one-word forms, or the 2023 wire forms; raises ValueError saying why."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action")
    if len(words) > 1:
        if words[0] in ("create", "remove"):
            return decode_2023_hunter(" ".join(words))
        if words[0] == "change":
            words = words[1:]
        if len(words) == 2:
            return prey_move(_int(words[0], "prey move"), _int(words[1], "prey move"))
        raise ValueError(f"cannot read action {text.strip()!r}")
    word = words[0]
    if word in ("keep",):
        return KEEP
    if word in ("none", "-"):
        return NO_WALLS
    if ":" in word and word.split(":")[0].lstrip("+-").isdigit():
        parts = word.split(":")
        if len(parts) != 2:
            raise ValueError(f"a prey move is dx:dy, not {word!r}")
        return prey_move(_int(parts[0], "prey move"), _int(parts[1], "prey move"))
    build: Build = None
    removals: list[Removal] = []
    for part in word.split("+"):
        kind, _, rest = part.partition(":")
        args = rest.split(":") if rest else []
        if kind in ("h", "v") and not args:
            if build is not None:
                raise ValueError(f"{word!r} builds more than one wall")
            build = kind
        elif kind == "create":
            if build is not None:
                raise ValueError(f"{word!r} builds more than one wall")
            build = _wall_of(args, "create")
        elif kind == "remove":
            if build is not None:
                raise ValueError(f"{word!r}: removals come before the creation")
            removals.append(_int(args[0], "remove") if len(args) == 1 else _wall_of(args, "remove"))
        else:
            raise ValueError(
                f"unknown action {part!r} (hunter: none, h, v, create:x1:y1:x2:y2, remove:i; prey: dx:dy or keep)"
            )
    return HunterAction(build, tuple(removals))


def prey_move(dx: int, dy: int) -> PreyAction:
    if dx not in (-1, 0, 1) or dy not in (-1, 0, 1):
        raise ValueError(f"a prey move is -1, 0 or 1 on each axis, not {dx} {dy}")
    return PreyAction((dx, dy))


def decode_2023_hunter(text: str) -> HunterAction:
    """`none`, `create x1 y1 x2 y2`, or `remove x1 y1 x2 y2 [remove ...] [create ...]`."""
    words = text.split()
    if words == ["none"]:
        return NO_WALLS
    build: Wall | None = None
    removals: list[Removal] = []
    i = 0
    while i < len(words):
        kind = words[i]
        if kind not in ("create", "remove"):
            raise ValueError(f"expected create or remove, got {kind!r}")
        wall = _wall_of(words[i + 1 : i + 5], kind)
        if kind == "create":
            if build is not None:
                raise ValueError("at most one create per step")
            build = wall
        else:
            if build is not None:
                raise ValueError("removals come before the create")
            removals.append(wall)
        i += 5
    return HunterAction(build, tuple(removals))
