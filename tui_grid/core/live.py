"""A live match: rounds of sessions played by the driver on its own thread, that any number
of views watch. It is UI-free, so the same object serves the app's match screens and a
server whose players sit at other terminals.

A feed tells its watchers two things: every change of the current round's session
(`subscribe`), and that a new round began (`on_round`). It records each finished round
in its `match` before its watchers hear of the end, so every watcher reads one score.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Generic, Sequence, TypeVar

from tui_grid.core.agents import Agent, HumanAgent
from tui_grid.core.driver import Driver
from tui_grid.core.engine import Engine
from tui_grid.core.match import Match
from tui_grid.core.outcome import Failure
from tui_grid.core.session import Change, Observer, Session

S = TypeVar("S")
A = TypeVar("A")

RoundObserver = Callable[[Session[Any, Any]], None]


class MatchFeed(Generic[S, A]):
    """What a view of a match needs: the match (names, seating, score), the current
    session, the driver that paces it (None until there is one), and the two kinds of news."""

    #: Whether `next_round` is the watchers' to call (a server starts its games itself).
    advances: bool = True
    #: Who starts each round when the watchers do not.
    starter: str = "The architect"
    #: Whether a watcher may pause, single-step or speed the clock (not an online match's:
    #: the hub keeps one clock for both players).
    steerable: bool = True
    #: The match's verdict, once the feed's server has said it (an online match's end);
    #: "" while it runs, or where the watchers decide it themselves.
    ended: str = ""
    #: Whether a player may offer the other a rematch once it is over (`offer_rematch`).
    rematches: bool = False
    #: Whether the players were chosen where it is watched, so a new match may be set up
    #: there (a local match; not a server's, nor a replay of one).
    chosen_here: bool = False

    def __init__(self, match: Match[S, A]) -> None:
        self.match = match
        self.driver: Driver[S, A] | None = None
        self._observers: list[Observer] = []
        self._round_observers: list[RoundObserver] = []
        self._lock = threading.Lock()
        self._begun = 0
        self._note_observers: list[Callable[[str], None]] = []
        self._paused = False
        self._step_seconds: float | None = None

    @property
    def session(self) -> Session[S, A]:
        assert self.match.session is not None
        return self.match.session

    def subscribe(self, observer: Observer) -> None:
        self._observers.append(observer)

    def on_round(self, observer: RoundObserver) -> None:
        self._round_observers.append(observer)

    def unsubscribe_all(self) -> None:
        self._observers.clear()
        self._round_observers.clear()
        self._note_observers.clear()

    def _relay(self, session: Session[S, A], change: Change[S]) -> None:
        """A session's change, on whatever thread made it: the round is recorded first."""
        if session is not self.match.session:
            return
        if change.ends_game(session.engine):
            with self._lock:
                if self.match.round_index < self._begun:  # not recorded yet
                    self.match.finish_round()
        for observer in list(self._observers):
            observer(session, change)

    def _begin(self, session: Session[S, A]) -> None:
        session.subscribe(self._relay)
        self._begun = self.match.round_index + 1
        for observer in list(self._round_observers):
            observer(session)

    def on_note(self, observer: Callable[[str], None]) -> None:
        """Lines the feed has to say outside any game (a server's log, its result). A
        watcher that arrives late hears the last one said (a countdown already under way)."""
        self._note_observers.append(observer)
        if self._last_note:
            observer(self._last_note)

    _last_note = ""

    def note(self, text: str) -> None:
        self._last_note = text
        for observer in list(self._note_observers):
            observer(text)

    # --- pace: the driver's, kept here so a wish made before there is a driver holds ---------
    @property
    def paused(self) -> bool:
        return self._paused

    def pause(self, paused: bool | None = None) -> bool:
        """Hold or release the clock. Held, the keys queued so far are dropped (what a player
        meant before the pause is no plan for after it); released (after a pause or a
        countdown), each player's keys pressed meanwhile come down to the last, their one
        intention: a burst of keys typed while waiting is not played a key a tick."""
        was = self._paused
        self._paused = (not self._paused) if paused is None else paused
        if self._paused and not was:
            self._human_keys(lambda agent, seat: agent.clear())
        elif was and not self._paused:
            self._keys_to_last()
        if self.driver is not None:
            self.driver.pause(self._paused)
        return self._paused

    def single_step(self) -> None:
        """One step while held: like a release for one tick, the keys pressed since the last
        step come down to the last."""
        self._paused = True
        self._keys_to_last()
        if self.driver is not None:
            self.driver.single_step()

    def _keys_to_last(self) -> None:
        session = self.match.session
        if session is not None:
            self._human_keys(lambda agent, seat: agent.keep_last(session.engine, session.state, seat))

    def _human_keys(self, change: Callable[[HumanAgent[Any, Any], int], None]) -> None:
        """`change(agent, seat)` for each human's queue of keys."""
        session = self.match.session  # None before the first round (an architect's)
        for seat, agent in enumerate(session.agents if session is not None else ()):
            if isinstance(agent, HumanAgent):
                change(agent, seat)

    def pace(self, step_seconds: float, timeout: float | None) -> None:
        """The beat between steps, and each step's deadline where the feed sets it."""
        self._step_seconds = step_seconds
        if self.driver is not None:
            self.driver.step_seconds = step_seconds
            if self.sets_deadline:
                self.driver.timeout = timeout

    #: Whether the watchers' speed sets the deadline (a server keeps its own clocks).
    sets_deadline: bool = True

    def _apply_pace(self) -> None:
        if self.driver is not None:
            self.driver.pause(self._paused)
            if self._step_seconds is not None:
                self.driver.step_seconds = self._step_seconds

    def describe(self) -> str | None:
        """What a title should say of where the games come from (None: nothing special)."""
        return None

    def seat_label(self, participant: int) -> str | None:
        """A participant's name as the feed knows it (a client's own), or None."""
        return None

    def offer_rematch(self) -> None:
        """Offer the other player a rematch, or take theirs (where `rematches`)."""

    def concede(self, seat: int, failure: Failure) -> None:
        """A human concedes this round: `seat` loses it by `failure` (where the match is
        played elsewhere, its server is asked to)."""
        session = self.match.session
        if session is not None and not session.over:
            session.forfeit(seat, failure)

    def start(self) -> None:
        """Start playing (the driver's thread, or a server's)."""

    def next_round(self) -> bool:
        """Begin the next round once this one is over; False when there is none to begin."""
        return False

    def close(self) -> None:
        """Stop playing and vacate every seat."""


class LiveMatch(MatchFeed[S, A]):
    """A match played here: `Match` rounds with seats swapped, one driver across them."""

    chosen_here = True

    def __init__(
        self,
        make_engine: Callable[[int], Engine[S, A]],
        participants: Sequence[Agent[S, A]],
        rounds: int,
        *,
        names: Sequence[str],
        timeout: float | None,
        step_seconds: float | None,
    ) -> None:
        super().__init__(Match(make_engine, participants, rounds, names=names))
        session = self.match.new_session()
        self.driver = Driver(session, timeout=timeout, step_seconds=step_seconds)
        self._begin(session)

    def start(self) -> None:
        assert self.driver is not None
        self.driver.start()

    def next_round(self) -> bool:
        if not self.session.over or self.match.finished:
            return False
        self.session.close()
        session = self.match.new_session()
        assert self.driver is not None
        self.driver.attach(session)
        self._begin(session)
        return True

    def close(self) -> None:
        if self.driver is not None:
            self.driver.stop(join=None)
        self.match.close()
