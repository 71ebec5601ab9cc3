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

from tui_grid.core.text import echo
from tui_grid.games.evasion.engine import EvasionEngine, HunterAction, PreyAction, State
from tui_grid.games.evasion.rules import Wall, check_on_board, extend_wall, make_wall

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
    time_left, game_num, tick, _m, n, width, height, timer = nums[:8]
    walls = []
    for i in range(nums[14]):
        kind, a, b, c = nums[15 + 4 * i : 19 + 4 * i]
        walls.append(make_wall(b, a, c, a) if kind == 0 else make_wall(a, b, a, c))
    check_on_board(width, height, tuple(walls), (nums[8], nums[9]), (nums[12], nums[13]))
    # wallTimer counts down to the next allowed build: 0 means "now", not "never built".
    # The latest last build it allows is the one the server had (a build N steps ago at
    # most); only on a board with no wall yet at the first step was there none.
    last_build = None if timer == 0 and tick == 0 and not walls else tick + 1 + timer - n
    state = engine.make_state(
        tick=tick,
        hunter=(nums[8], nums[9]),
        hunter_velocity=(nums[10], nums[11]),
        prey=(nums[12], nums[13]),
        walls=tuple(walls),
        last_build=last_build,
    )
    return time_left, game_num, state


#: Most removal indices read from one answer (more are ignored: M is at most 10).
MAX_REMOVALS = 64
STAY = PreyAction((0, 0))


def _numbers(line: str, who: str) -> list[int]:
    try:
        return [int(w) for w in line.split()]
    except ValueError:
        raise ValueError(f"{who} answer has a non-number: '{echo(line.strip())}'") from None


def _current(nums: list[int], game_num: int, tick: int) -> bool:
    """Whether an answer is for this game and tick. The 2016 server ignores one that is
    not (a lagging client's late answer) instead of ending its game."""
    return len(nums) >= 2 and nums[0] == game_num and nums[1] == tick


def parse_hunter_reply(line: str, game_num: int, tick: int, state: State) -> HunterAction:
    """As the 2016 server reads it: type 1 builds a horizontal wall, 2 a vertical one, any
    other number none; the rest are walls to remove. An answer for another game or tick
    does nothing."""
    nums = _numbers(line, "hunter")
    if not nums:
        raise ValueError("empty hunter answer")
    if not _current(nums, game_num, tick) or len(nums) < 3:
        return HunterAction(None, ())
    build = {1: "h", 2: "v"}.get(nums[2])
    removals = tuple(dict.fromkeys(nums[3 : 3 + MAX_REMOVALS]))
    return HunterAction(build, removals)


def parse_prey_reply(line: str, game_num: int, tick: int) -> PreyAction:
    """As the 2016 server reads it: each component clamped to -1..1 (a client's `-3` is
    `-1`); an answer for another game or tick, or a short one, stays put."""
    nums = _numbers(line, "prey")
    if not nums:
        raise ValueError("empty prey answer")
    if not _current(nums, game_num, tick) or len(nums) < 4:
        return STAY
    dx, dy = (max(-1, min(1, v)) for v in nums[2:4])
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
