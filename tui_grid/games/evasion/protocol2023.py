"""The 2023 course protocol's lines, both ways (RULES.md section 3).

Server to client: `hunter N M` or `prey N M` once; then state lines
`T Hx Hy Hvx Hvy HunterLastWall|null Px Py Pvx Pvy NumWalls x1 y1 x2 y2 ...`; `end` last.
T is the number of steps played (the 2023 ticker: the prey moves when it is odd), and
HunterLastWall is the ticker at which the last wall was created, or `null`.
Client to server: its name first; then per state line the hunter answers `none`,
`create x1 y1 x2 y2` or `remove x1 y1 x2 y2 [remove ...] [create ...]`, the prey
`change vx vy` or `none` (keep its velocity).
"""

from __future__ import annotations

from tui_grid.games.evasion.engine import (
    KEEP,
    NO_WALLS,
    EvasionEngine,
    HunterAction,
    PreyAction,
    State,
    decode_2023_hunter,
    state_line,
)
from tui_grid.games.evasion.rules import Config, Wall, check_on_board, extend_wall, make_wall

END = "end"


def role_line(role: str, config: Config) -> str:
    return f"{role} {config.n} {config.m}"


def parse_role_line(line: str) -> tuple[str, int, int]:
    words = line.split()
    if len(words) < 3 or words[0] not in ("hunter", "prey"):
        raise ValueError(f"expected 'hunter N M' or 'prey N M', got {line!r}")
    return words[0], int(words[1]), int(words[2])


def parse_state_line(line: str, engine: EvasionEngine) -> State:
    """The state a 2023 state line describes (raises ValueError on a malformed line)."""
    words = line.split()
    try:
        nums = [None if w == "null" else int(w) for w in words]
    except ValueError:
        raise ValueError(f"not a 2023 state line: {line!r}") from None
    if len(nums) < 11 or any(v is None for i, v in enumerate(nums) if i != 5):
        raise ValueError(f"not a 2023 state line: {line!r}")
    count = nums[10]
    assert count is not None
    if len(nums) != 11 + 4 * count:
        raise ValueError(f"state line says {count} walls but has {len(nums) - 11} wall numbers")
    walls = tuple(make_wall(*nums[11 + 4 * i : 15 + 4 * i]) for i in range(count))  # type: ignore[arg-type]
    config = engine.config
    check_on_board(config.width, config.height, walls, (nums[1], nums[2]), (nums[6], nums[7]))  # type: ignore[arg-type]
    last = nums[5]
    return engine.make_state(
        tick=nums[0],
        hunter=(nums[1], nums[2]),
        hunter_velocity=(nums[3], nums[4]),
        last_build=None if last is None else last + 1,
        prey=(nums[6], nums[7]),
        prey_velocity=(nums[8], nums[9]),
        walls=walls,
    )


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def parse_hunter_reply(line: str) -> HunterAction:
    """A hunter's answer; raises ValueError for garbage."""
    text = line.strip().lower()
    if not text:
        raise ValueError("empty answer")
    return decode_2023_hunter(text)


def parse_prey_reply(line: str) -> PreyAction:
    """`change vx vy` (components taken by sign, as the course's client does) or `none`."""
    words = line.strip().lower().split()
    if words == ["none"]:
        return KEEP
    if len(words) == 3 and words[0] == "change":
        try:
            return PreyAction((_sign(int(words[1])), _sign(int(words[2]))))
        except ValueError:
            pass
    raise ValueError(f"expected 'change vx vy' or 'none', got {line.strip()!r}")


def hunter_reply(action: HunterAction, state: State, engine: EvasionEngine) -> str:
    """Our hunter action as a 2023 answer: h/v resolved to explicit walls, indices to walls."""
    if action.is_none:
        return "none"
    removed: list[Wall] = []
    for removal in action.remove:
        wall = state.walls[removal] if isinstance(removal, int) else removal
        if wall not in removed:
            removed.append(wall)
    words = [f"remove {wall.text()}" for wall in removed]
    build = action.build
    if isinstance(build, str):
        grid = engine.grid(tuple(w for w in state.walls if w not in removed))
        build = extend_wall(grid, *state.hunter, horizontal=build == "h")
    if build is not None:
        words.append(f"create {build.text()}")
    return " ".join(words) or "none"


def prey_reply(action: PreyAction) -> str:
    if action.velocity is None:
        return "none"
    return f"change {action.velocity[0]} {action.velocity[1]}"


__all__ = [
    "END",
    "NO_WALLS",
    "hunter_reply",
    "parse_hunter_reply",
    "parse_prey_reply",
    "parse_role_line",
    "parse_state_line",
    "prey_reply",
    "role_line",
    "state_line",
]
