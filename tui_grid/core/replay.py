"""A finished match played back: every participant's moves, round by round, from the
match's logs, by a live match (core.live) whose agents answer from the record. Any match
screen shows it with its usual keys (pause, step, speed, zoom).

A round whose log ends before its game did was forfeited: the seat that forfeited raises
its recorded fault when its moves run out, and the round ends as it did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from tui_grid.core.agents import Agent, AgentError, Ask
from tui_grid.core.engine import Engine
from tui_grid.core.live import LiveMatch
from tui_grid.core.match import seating_for
from tui_grid.core.outcome import Failure, Fault


@dataclass(frozen=True)
class PlayedRound:
    """A finished round: who sat where (`seating[seat]` = participant), its log, and the
    seat that forfeited it with its fault (None: the game ended by its rules)."""

    seating: tuple[int, ...]
    log: str
    forfeit_seat: int | None = None
    fault: Fault = Fault.LEFT


class ScriptAgent(Agent[Any, Any]):
    """Plays one participant's recorded moves: each round's, in order, from its seat."""

    instant = True

    def __init__(self, name: str, rounds: Sequence[tuple[Sequence[Any], Fault | None]]) -> None:
        super().__init__(name)
        self.rounds = list(rounds)
        self._round = -1
        self._next = 0

    def start(self, engine: Engine[Any, Any], seat: int) -> None:
        self._round += 1
        self._next = 0

    def act(self, ask: Ask[Any, Any]) -> Any:
        actions, fault = self.rounds[self._round] if 0 <= self._round < len(self.rounds) else ((), None)
        if self._next < len(actions):
            self._next += 1
            return actions[self._next - 1]
        if fault is not None:
            raise AgentError(f"{self.name} forfeited here", failure=Failure(fault))
        default = ask.engine.default_action(ask.state, ask.seat)
        if default is None:
            raise AgentError("the record ends here", forfeit=False)
        return default


def replay_match(make_engine: Callable[[int], Engine[Any, Any]], names: Sequence[str], rounds: Sequence[PlayedRound]) -> LiveMatch[Any, Any]:
    """A live match that plays `rounds` back (ValueError when a log does not parse, or
    the seats of a round are not those a match swaps to)."""
    if not rounds:
        raise ValueError("a match with no round to play back")
    moves: list[list[tuple[Sequence[Any], Fault | None]]] = [[] for _ in names]
    for index, played in enumerate(rounds):
        engine = make_engine(index)
        if played.seating != seating_for(index, len(names), len(engine.seats)):
            raise ValueError(f"round {index + 1}: seats {played.seating} are not a match's")
        joints = engine.parse_log(played.log)
        for seat, participant in enumerate(played.seating):
            actions = [joint[seat] for joint in joints if seat in joint]
            moves[participant].append((actions, played.fault if played.forfeit_seat == seat else None))
    agents = [ScriptAgent(name, moves[participant]) for participant, name in enumerate(names)]
    feed: LiveMatch[Any, Any] = LiveMatch(make_engine, agents, len(rounds), names=names, timeout=None, step_seconds=None)
    feed.chosen_here = False  # its players were the record's: no new match is set up from a replay
    return feed
