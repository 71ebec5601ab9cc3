"""The round conductor (core.conductor) on a table and a loop with a fake clock: countdowns,
rounds by themselves or asked, the pause key's rules, and one rule for leaving, at every
moment of a match. No thread runs the match: the test plays each round's steps itself."""

from __future__ import annotations

from typing import Any

import pytest

from tui_grid.core.agents import HumanAgent
from tui_grid.core.conductor import CountdownSaid, MatchEnded, Paused, Phase, RoundEnded, RoundPacing
from tui_grid.core.geometry import Direction
from tui_grid.core.live import MatchFeed
from tui_grid.core.loop import Loop
from tui_grid.core.match import Ending, Match
from tui_grid.core.table import RoundBegan, Table, TableEvent
from tui_grid.games.registry import get_game

GAME = get_game("tron")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class SteppedFeed(MatchFeed[Any, Any]):
    """A feed whose rounds the test plays itself (no driver thread)."""

    def __init__(self, rounds: int) -> None:
        loaded = GAME.load("standard")
        super().__init__(Match(lambda index: GAME.make_engine(loaded), [HumanAgent("ann"), HumanAgent("bob")], rounds,
                               names=["ann", "bob"]))
        self._begin(self.match.new_session())
        self.started = False

    def start(self) -> None:
        self.started = True

    def next_round(self) -> bool:
        if not self.session.over or self.match.finished:
            return False
        self._begin(self.match.new_session())
        return True

    def crash_seat(self, seat: int) -> None:
        """The cycle in `seat` drives into the wall beside it; the other drives inwards."""
        outwards = (Direction.LEFT, Direction.RIGHT)  # red starts by the left wall, green by the right
        self.session.play_steps([{seat: outwards[seat], 1 - seat: outwards[seat]}])


class Harness:
    def __init__(self, pacing: RoundPacing, rounds: int = 2, watched: tuple[int, ...] = ()) -> None:
        self.clock = FakeClock()
        self.loop = Loop(self.clock)
        self.feed = SteppedFeed(rounds)
        self.events: list[TableEvent] = []
        self.table: Table[Any] = Table(self.feed.session, None, to_owner=self.loop.call_soon, on_event=self.events.append,
                                       follow=False)
        self.conductor = self.table.conduct(self.feed, pacing, later=self.loop.later, clock=self.clock,
                                            decide=GAME.match_verdict, watched=watched)

    def wait(self, seconds: float) -> None:
        """Let `seconds` pass, each timer running at its own time."""
        target = self.clock.now + seconds
        while (due := self.loop.next_due()) is not None and due <= target:
            self.clock.now = max(self.clock.now, due)
            self.loop.run_due()
        self.clock.now = target
        self.loop.run_due()

    def said(self) -> list[str]:
        return [event.words for event in self.events if isinstance(event, CountdownSaid)]

    def of(self, kind: type) -> list[Any]:
        return [event for event in self.events if isinstance(event, kind)]


def test_a_countdown_holds_the_clock_a_beat_per_count_then_go_releases_it() -> None:
    h = Harness(RoundPacing(countdown=3, beat=1.0))
    h.conductor.begin()
    assert h.feed.started and h.feed.paused and h.said() == ["Get ready: 3…"]
    h.wait(0.99)
    assert h.said() == ["Get ready: 3…"]  # no beat before its time
    h.wait(0.01)
    h.wait(1.0)
    assert h.feed.paused and h.conductor.phase is Phase.COUNTING
    h.wait(1.0)
    assert h.said() == ["Get ready: 3…", "Get ready: 2…", "Get ready: 1…", "Go!"]
    assert not h.feed.paused and h.conductor.phase is Phase.PLAYING


def test_the_pause_key_holds_a_countdown_and_pressed_again_counts_afresh() -> None:
    h = Harness(RoundPacing(countdown=3))
    h.conductor.begin()
    h.wait(1.0)
    assert h.conductor.pause() is Paused.COUNTDOWN_HELD
    h.wait(10.0)
    assert h.feed.paused and h.said()[-1] == "Get ready: 2…"  # held: no more counts
    assert h.conductor.pause() is Paused.COUNTING_AFRESH
    assert h.said()[-1] == "Get ready: 3…"
    h.wait(3.0)
    h.wait(0)
    assert not h.feed.paused and h.said()[-1] == "Go!"


def test_a_dialog_holds_the_clock_and_lets_it_go_as_it_was() -> None:
    h = Harness(RoundPacing(countdown=2))
    h.conductor.begin()
    release = h.conductor.hold()
    h.wait(5.0)
    assert h.said() == ["Get ready: 2…"]
    release()
    assert h.said()[-1] == "Get ready: 2…" and h.conductor.phase is Phase.COUNTING  # from the top
    h.wait(2.0)
    release = h.conductor.hold()  # a running clock stops...
    assert h.feed.paused
    release()
    assert not h.feed.paused  # ...and runs again


def test_rounds_come_by_themselves_after_the_pause_between_them_unless_held() -> None:
    h = Harness(RoundPacing(between_rounds=3.0), rounds=2)
    h.conductor.begin()
    first = h.feed.session
    h.feed.crash_seat(0)
    h.loop.run_due()
    (ended,) = h.of(RoundEnded)
    assert ended.next_in == 3.0 and ended.result.winner == 1 and h.conductor.phase is Phase.BETWEEN
    assert h.conductor.pause() is Paused.NEXT_HELD
    h.wait(10.0)
    assert h.feed.session is first  # held: no next round
    assert h.conductor.pause() is Paused.NEXT_RELEASED
    h.wait(2.9)
    assert h.feed.session is first
    h.wait(0.1)
    assert h.feed.session is not first and h.of(RoundBegan) and h.table.session is h.feed.session
    assert h.conductor.phase is Phase.PLAYING


def test_without_a_pause_between_rounds_the_next_one_waits_to_be_asked() -> None:
    h = Harness(RoundPacing(countdown=1), rounds=2)
    h.conductor.begin()
    h.wait(1.0)
    h.feed.crash_seat(1)
    h.loop.run_due()
    assert h.of(RoundEnded)[0].next_in is None
    h.wait(100.0)
    assert h.feed.match.round_index == 1 and h.conductor.phase is Phase.BETWEEN
    assert h.conductor.next_round()
    assert h.feed.paused and h.said()[-1] == "Get ready: 1…"  # each round has its countdown


def test_a_match_played_out_ends_with_the_games_verdict() -> None:
    h = Harness(RoundPacing(), rounds=2)
    h.conductor.begin()
    h.feed.crash_seat(1)  # round 1: ann (red) wins
    h.loop.run_due()
    h.conductor.next_round()
    h.feed.crash_seat(0)  # round 2: seats swap, ann is green: ann wins again
    h.loop.run_due()
    (ended,) = h.of(MatchEnded)
    assert ended.verdict.winner == 0 and ended.verdict.ending is Ending.PLAYED
    assert ended.text.startswith("Match over: ann wins") and h.conductor.over
    assert not h.conductor.next_round()


@pytest.mark.parametrize("moment", ["countdown", "mid-round", "between rounds"])
@pytest.mark.parametrize("ending", [Ending.LEFT, Ending.DISCONNECTED])
def test_leaving_at_any_moment_hands_the_match_to_the_other(moment: str, ending: Ending) -> None:
    h = Harness(RoundPacing(countdown=3, between_rounds=3.0), rounds=3)
    h.conductor.begin()
    if moment != "countdown":
        h.wait(3.0)
    if moment == "between rounds":
        h.feed.crash_seat(1)  # ann won round 1
        h.loop.run_due()
    h.conductor.leave(0, ending)
    h.loop.run_due()
    (ended,) = h.of(MatchEnded)
    assert ended.verdict.winner == 1 and ended.verdict.ending is ending and ended.verdict.by == 0
    words = "left the match" if ending is Ending.LEFT else "disconnected"
    assert ended.text.startswith("Match over: bob wins") and words in ended.text
    h.conductor.leave(1, Ending.LEFT)  # the first to go decides it
    h.wait(10.0)
    assert len(h.of(MatchEnded)) == 1 and h.feed.match.round_index == 1  # the round under way is forfeited; none begins after


def test_a_watched_player_who_presses_no_key_for_the_limit_forfeits() -> None:
    h = Harness(RoundPacing(idle_seconds=60.0), rounds=2, watched=(0, 1))
    h.conductor.begin()
    h.wait(30.0)
    h.conductor.pressed(1)
    h.wait(30.0)
    (ended,) = h.of(MatchEnded)
    assert ended.verdict.winner == 1 and ended.verdict.ending is Ending.IDLE and "ann idled for 60 s" in ended.text


def test_a_player_who_keeps_pressing_is_never_idle() -> None:
    h = Harness(RoundPacing(idle_seconds=60.0), rounds=2, watched=(0, 1))
    h.conductor.begin()
    for _ in range(10):
        h.wait(59.0)
        h.conductor.pressed(0)
        h.conductor.pressed(1)
    assert not h.of(MatchEnded) and h.conductor.phase is Phase.PLAYING


def test_a_stop_gives_the_match_to_nobody() -> None:
    h = Harness(RoundPacing(), rounds=2)
    h.conductor.begin()
    h.conductor.stop("nobody was watching")
    (ended,) = h.of(MatchEnded)
    assert ended.verdict.winner is None and "stopped (nobody was watching)" in ended.text
