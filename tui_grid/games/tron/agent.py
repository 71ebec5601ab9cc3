"""A Tron bot level as a core agent: its move within the time it is given (less when the
ask's deadline is nearer), and for the hard bot a memory of the opponent for each game
(opponent_model.GameMemory), renewed when a game starts."""

from __future__ import annotations

import time

from tui_grid.core.agents import Agent, FunctionAgent
from tui_grid.core.geometry import Direction
from tui_grid.games.tron import kernel
from tui_grid.games.tron.bots import DEFAULT_TIME_MS, LEVELS, choose_index
from tui_grid.games.tron.opponent_model import GameMemory

#: Milliseconds kept back from an ask's deadline for the answer to travel.
MARGIN_MS = 15


def budget_ms(ask, time_ms: float) -> float:  # type: ignore[no-untyped-def]
    """Milliseconds to think: `time_ms`, or less when the ask's deadline is nearer (MARGIN_MS
    kept back for the answer to travel), never under 1."""
    remaining = ask.remaining()
    if remaining is None:
        return float(time_ms)
    return max(1.0, min(float(time_ms), remaining * 1000.0 - MARGIN_MS))


def make_bot(level: str = "hard", time_ms: float = DEFAULT_TIME_MS) -> Agent:  # type: ignore[type-arg]
    """A core agent playing Tron at `level` within `time_ms` per move (less if the ask's
    deadline is nearer). The hard bot's agent keeps an opponent_model.GameMemory for the
    game, renewed when a game starts."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    memory = None
    if level == "hard":
        kernel.build_in_background()
        memory = GameMemory()

    def choose(ask) -> object:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        budget = budget_ms(ask, time_ms)
        if memory is not None:
            memory.see(ask.state, ask.seat)
        index = choose_index(ask.state, ask.seat, budget, ask.control, level, start, memory)
        return (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)[index]

    class LevelBot(FunctionAgent):  # type: ignore[type-arg]
        """The bot's choice as an agent; a new game clears the hard bot's memory."""

        def start(self, engine, seat: int) -> None:  # type: ignore[no-untyped-def]
            if memory is not None:
                memory.reset()

    return LevelBot(choose, name=f"{level} bot")
