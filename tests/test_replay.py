"""A finished match played back (core.replay): step by step the states of the match that
was played, rounds forfeited as they were, and records that do not fit refused."""

from __future__ import annotations

from typing import Any

import pytest

from tui_grid.core.headless import play_out
from tui_grid.core.live import LiveMatch
from tui_grid.core.outcome import Fault
from tui_grid.core.players import PlayerContext
from tui_grid.core.policy import ALL_KINDS
from tui_grid.core.replay import PlayedRound, replay_match
from tui_grid.core.session import Change, Session
from tui_grid.games.registry import get_game

TRON = get_game("tron")


def states_of(feed: LiveMatch[Any, Any]) -> list[list[Any]]:
    """Every round's states, as the feed's sessions went through them."""
    seen: list[list[Any]] = [[feed.session.state]]

    def step(session: Session[Any, Any], change: Change[Any]) -> None:
        seen[-1].append(change.state)

    feed.on_round(lambda session: seen.append([session.state]))
    feed.subscribe(step)
    return seen


def test_a_bot_match_played_back_goes_through_the_same_states() -> None:
    loaded = TRON.load("tron:12x12:w10#seed3")
    agents = [TRON.make_agent(level, PlayerContext(index, time_ms=5), ALL_KINDS) for index, level in enumerate(("easy", "medium"))]
    played = LiveMatch(lambda index: TRON.make_engine(loaded), agents, 3, names=["easy", "medium"], timeout=None, step_seconds=0.0)
    original = states_of(played)
    ended = play_out(played)
    rounds = [PlayedRound(r.seating, r.log) for r in played.match.score.rounds]
    again = replay_match(lambda index: TRON.make_engine(loaded), ["easy", "medium"], rounds)
    replayed = states_of(again)
    ended_again = play_out(again)
    assert replayed == original and len(original) == 3
    assert ended is not None and ended_again is not None and ended_again.text == ended.text
    assert [r.winner for r in again.match.score.rounds] == [r.winner for r in played.match.score.rounds]


def test_a_forfeited_round_ends_by_the_same_seats_fault() -> None:
    loaded = TRON.load("standard")
    rounds = [PlayedRound((0, 1), "u,d u,d", forfeit_seat=1, fault=Fault.LEFT)]
    feed = replay_match(lambda index: TRON.make_engine(loaded), ["ann", "bob"], rounds)
    ended = play_out(feed)
    (result,) = feed.match.score.rounds
    assert result.steps == 2 and result.forfeit_seat == 1 and result.winner == 0
    assert result.outcome.cause is Fault.LEFT and ended is not None and ended.text.startswith("Match over: ann wins")


@pytest.mark.parametrize("rounds, why", [
    ([], "no round"),
    ([PlayedRound((1, 0), "u,d")], "are not a match's"),
    ([PlayedRound((0, 1), "u,d sideways")], "step 2"),
])
def test_a_record_that_does_not_fit_is_refused(rounds: list[PlayedRound], why: str) -> None:
    loaded = TRON.load("standard")
    with pytest.raises(ValueError, match=why):
        replay_match(lambda index: TRON.make_engine(loaded), ["ann", "bob"], rounds)
