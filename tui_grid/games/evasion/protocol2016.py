"""The 2016 course protocol's lines, both ways (RULES.md section 3).

Server to client: `sendname` (the client answers its name), then before each of the two
games `hunter` or `prey`, then state lines
`timeLeftMs gameNum tick maxWalls wallDelay W H wallTimer hx hy hvx hvy px py numWalls {walls}`
with a horizontal wall as `0 y x1 x2` and a vertical one as `1 x y1 y2`; `done` at the end.
The hunter answers `gameNum tick {0|1|2} [wallIdx ...]` (1: horizontal wall, 2: vertical,
each extending both ways to the nearest obstacle; the indices name walls to delete), the
prey `gameNum tick dx dy`. `tick` is the number of steps played; `wallTimer` the steps
until a wall may be built (0: now).
"""

from __future__ import annotations

from tui_grid.games.evasion.engine import EvasionEngine, HunterAction, PreyAction, State
from tui_grid.games.evasion.rules import Wall, extend_wall, make_wall

SENDNAME = "sendname"
DONE = "done"


def wall_words(wall: Wall) -> str:
    if wall.horizontal:
        return f"0 {wall.y1} {wall.x1} {wall.x2}"
    return f"1 {wall.x1} {wall.y1} {wall.y2}"


def state_line(state: State, engine: EvasionEngine, game_num: int, time_left_ms: int) -> str:
    c = engine.config
    (hx, hy), (hvx, hvy), (px, py) = state.hunter, state.hunter_velocity, state.prey
    head = (
        f"{max(0, int(time_left_ms))} {game_num} {state.tick} {c.m} {c.n} {c.width} {c.height} "
        f"{engine.build_wait(state)} {hx} {hy} {hvx} {hvy} {px} {py} {len(state.walls)}"
    )
    return " ".join([head] + [wall_words(w) for w in state.walls])


def parse_state_line(line: str, engine: EvasionEngine) -> tuple[int, int, State]:
    """(timeLeftMs, gameNum, state) from a state line; raises ValueError when malformed."""
    try:
        nums = [int(w) for w in line.split()]
    except ValueError:
        raise ValueError(f"not a 2016 state line: {line!r}") from None
    if len(nums) < 15 or len(nums) != 15 + 4 * nums[14]:
        raise ValueError(f"not a 2016 state line: {line!r}")
    time_left, game_num, tick, _m, n, _w, _h, timer = nums[:8]
    walls = []
    for i in range(nums[14]):
        kind, a, b, c = nums[15 + 4 * i : 19 + 4 * i]
        walls.append(make_wall(b, a, c, a) if kind == 0 else make_wall(a, b, a, c))
    # wallTimer counts down to the next allowed build; any last build that gives it will do.
    last_build = None if timer == 0 else tick + 1 + timer - n
    state = engine.make_state(
        tick=tick,
        hunter=(nums[8], nums[9]),
        hunter_velocity=(nums[10], nums[11]),
        prey=(nums[12], nums[13]),
        walls=tuple(walls),
        last_build=last_build,
    )
    return time_left, game_num, state


def _head(words: list[str], game_num: int, tick: int, line: str) -> None:
    if len(words) < 2:
        raise ValueError(f"answer too short: {line.strip()!r}")
    try:
        g, t = int(words[0]), int(words[1])
    except ValueError:
        raise ValueError(f"answer must start 'gameNum tick', got {line.strip()!r}") from None
    if (g, t) != (game_num, tick):
        raise ValueError(f"answer is for game {g} tick {t}, expected game {game_num} tick {tick}")


def parse_hunter_reply(line: str, game_num: int, tick: int, state: State) -> HunterAction:
    words = line.split()
    _head(words, game_num, tick, line)
    try:
        nums = [int(w) for w in words[2:]]
    except ValueError:
        raise ValueError(f"hunter answer has a non-number: {line.strip()!r}") from None
    if not nums or nums[0] not in (0, 1, 2):
        raise ValueError(f"hunter answer needs a wall type 0, 1 or 2: {line.strip()!r}")
    build = {0: None, 1: "h", 2: "v"}[nums[0]]
    removals = tuple(dict.fromkeys(nums[1:]))
    return HunterAction(build, removals)


def parse_prey_reply(line: str, game_num: int, tick: int) -> PreyAction:
    words = line.split()
    _head(words, game_num, tick, line)
    if len(words) != 4:
        raise ValueError(f"prey answer is 'gameNum tick dx dy', got {line.strip()!r}")
    try:
        dx, dy = int(words[2]), int(words[3])
    except ValueError:
        raise ValueError(f"prey answer has a non-number: {line.strip()!r}") from None
    if dx not in (-1, 0, 1) or dy not in (-1, 0, 1):
        raise ValueError(f"prey move must be -1, 0 or 1 on each axis, got {dx} {dy}")
    return PreyAction((dx, dy))


def hunter_reply(action: HunterAction, state: State, engine: EvasionEngine, game_num: int) -> str:
    """Our hunter action in 2016 form: explicit walls become 1/2 when they are what the
    extension would build (else the build is dropped), walls by coordinates become indices."""
    indices: list[int] = []
    for removal in action.remove:
        index = removal if isinstance(removal, int) else state.walls.index(removal)
        if index not in indices:
            indices.append(index)
    kind = 0
    build = action.build
    if build == "h":
        kind = 1
    elif build == "v":
        kind = 2
    elif isinstance(build, Wall):
        remaining = tuple(w for i, w in enumerate(state.walls) if i not in indices)
        grid = engine.grid(remaining)
        for code, horizontal in ((1, True), (2, False)):
            if extend_wall(grid, *state.hunter, horizontal=horizontal) == build:
                kind = code
                break
    return " ".join(str(v) for v in [game_num, state.tick, kind] + indices)


def prey_reply(action: PreyAction, state: State, game_num: int) -> str:
    dx, dy = action.velocity if action.velocity is not None else state.prey_velocity
    return f"{game_num} {state.tick} {dx} {dy}"
