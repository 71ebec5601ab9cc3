"""The session, agents and matches, on a fake two-seat ticking engine with an injected clock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pytest

from tui_grid.core.agents import Ask, FunctionAgent
from tui_grid.core.engine import Engine, Event, IllegalAction, Joint, Outcome, PLAYING, Result, Step
from tui_grid.core.headless import play_out
from tui_grid.core.live import LiveMatch
from tui_grid.core.match import seating_for, wilson_interval
from tui_grid.core.outcome import Failure, Rule
from tui_grid.core.session import Session


@dataclass(frozen=True)
class Race:
    """Two runners on a line; each step both move 0..2; first to reach 6 wins, both: draw."""

    pos: tuple[int, int] = (0, 0)
    forfeited: int | None = None
    failure: Failure | None = None


class RaceEngine(Engine[Race, int]):
    seats = ("red", "green")
    allows_undo = False
    tick_seconds = 0.1

    def initial_state(self) -> Race:
        return Race()

    def legal_actions(self, state: Race, seat: int) -> Sequence[int]:
        return (0, 1, 2)

    def step(self, state: Race, actions: Joint) -> Step[Race]:
        for seat, action in actions.items():
            if action not in (0, 1, 2):
                raise IllegalAction(f"{self.seats[seat]} cannot run {action}")
        pos = tuple(state.pos[seat] + actions.get(seat, 0) for seat in (0, 1))
        return Step(Race(pos), (Event(f"now at {pos}"),))

    def outcome(self, state: Race) -> Outcome:
        if state.forfeited is not None and state.failure is not None:
            return state.failure.outcome(state.forfeited, 1 - state.forfeited, self.seats)
        done = [p >= 6 for p in state.pos]
        if all(done):
            return Outcome(Result.DRAW, Rule.DRAW, seat_words=self.seats)
        if any(done):
            winner = done.index(True)
            return Outcome(Result.WON, Rule.WON, winner=winner, seat_words=self.seats)
        return PLAYING

    def default_action(self, state: Race, seat: int) -> int:
        return 1

    def forfeit(self, state: Race, seat: int, failure: Failure) -> Race:
        return Race(state.pos, seat, failure)

    def encode_action(self, action: int) -> str:
        return str(action)

    def decode_action(self, text: str) -> int:
        return int(text)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_tick_takes_queued_keys_and_defaults_for_the_rest() -> None:
    session = Session(RaceEngine())
    session.submit(0, 2)
    session.submit(0, 0)  # the latest key replaces what is queued (the engine's default queue)
    assert session.agents[0].queued == (0,)
    step = session.tick({0: session.agents[0].act(Ask(session.engine, session.state, 0))})
    assert step is not None and session.state.pos == (0, 1)
    assert session.log == [{0: 0, 1: 1}]
    assert session.played_text() == "0,1"


def test_simultaneous_steps_decide_wins_and_draws() -> None:
    session = Session(RaceEngine())
    for _ in range(3):
        session.tick({0: 2, 1: 2})
    assert session.over and session.outcome.result is Result.DRAW
    assert session.tick() is None


def test_undo_is_offered_only_where_the_game_allows_it() -> None:
    race = Session(RaceEngine())
    race.tick()
    assert not race.can_undo and not race.undo()
    puzzle = Session(RaceEngine(), undo=True)
    puzzle.tick({0: 2, 1: 0})
    puzzle.tick({0: 2, 1: 0})
    assert puzzle.undo() and puzzle.state.pos == (2, 0)
    assert puzzle.redo() and puzzle.state.pos == (4, 0)
    assert puzzle.restart() and puzzle.state.pos == (0, 0) and puzzle.undo() and puzzle.state.pos == (4, 0)


def test_observers_see_steps_and_refusals() -> None:
    session = Session(RaceEngine())
    seen = []
    session.subscribe(lambda s, change: seen.append((change.kind, change.message)))
    session.tick({1: 7})  # a refused action costs that seat its action, not the game
    assert seen[0] == ("refused", "green cannot run 7") and seen[1][0] == "step"
    assert session.state.pos == (1, 1)


def test_log_round_trips_through_its_text() -> None:
    engine = RaceEngine()
    steps = engine.parse_log("2,1 0,2 1,1")
    assert engine.format_log(steps) == "2,1 0,2 1,1"
    with pytest.raises(ValueError, match="step 2"):
        engine.parse_log("2,1 0")
    session = Session(engine, log=steps)
    assert session.state.pos == (3, 4)


def test_rounds_swap_seats_and_score_participants() -> None:
    fast = FunctionAgent(lambda ask: 2, "fast")
    slow = FunctionAgent(lambda ask: 1, "slow")
    feed = LiveMatch(lambda index: RaceEngine(), [fast, slow], 4, names=["fast", "slow"], timeout=1.0, step_seconds=0.0)
    seatings = []
    ended = play_out(feed, on_round=lambda r: seatings.append(r.seating))
    score = feed.match.score
    assert ended is not None and ended.verdict.winner == 0 and ended.text.startswith("Match over: fast wins")
    assert seatings == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert score.wins(0) == 4 and score.wdl(0) == "4-0-0" and score.wdl(1) == "0-0-4"
    assert seating_for(1, 2, 2) == (1, 0)


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson_interval(95, 100)
    assert low < 0.95 < high and 0.88 < low and high < 0.99
