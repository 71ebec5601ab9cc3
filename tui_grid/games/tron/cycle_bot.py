"""A Tron bot level as one agent for any number of cycles: the duel bot (`agent.make_bot`)
with two, the free-for-all bot (`arena_bots.ArenaBot`) with more, in the same time."""

from __future__ import annotations

from tui_grid.core.agents import Agent, Ask
from tui_grid.core.engine import Engine
from tui_grid.core.geometry import DIRECTIONS, Direction
from tui_grid.games.tron.agent import budget_ms, make_bot
from tui_grid.games.tron.arena_bots import ArenaBot
from tui_grid.games.tron.bots import DEFAULT_TIME_MS
from tui_grid.games.tron.rules import TronState

#: UP DOWN LEFT RIGHT, the bots' move indices.
_BY_INDEX = (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)
assert set(_BY_INDEX) == set(DIRECTIONS)


class CycleBot(Agent[TronState, Direction]):
    """`level` within `time_ms` a move (less when the ask's deadline is nearer)."""

    def __init__(self, level: str = "hard", time_ms: float = DEFAULT_TIME_MS) -> None:
        self.duel = make_bot(level, time_ms)
        super().__init__(self.duel.name)
        self.arena = ArenaBot(level)
        self.time_ms = float(time_ms)

    def start(self, engine: Engine[TronState, Direction], seat: int) -> None:
        self.duel.start(engine, seat)

    def act(self, ask: Ask[TronState, Direction]) -> Direction:
        state = ask.state
        if state.cycles == 2:
            return self.duel.act(ask)
        return arena_move(self.arena, state, ask.seat, budget_ms(ask, self.time_ms))

    def close(self) -> None:
        self.duel.close()


def arena_move(bot: ArenaBot, state: TronState, seat: int, time_ms: float) -> Direction:
    """`bot`'s move for `seat` in an arena of three or more cycles."""
    heads = tuple((head.row, head.col) for head in state.heads)
    return _BY_INDEX[bot.choose(state.rows, heads, state.riders(), seat, time_ms)]
