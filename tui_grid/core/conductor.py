"""The round conductor: one rule for a match's rounds, whoever hosts it. A countdown before
each round, the round, then the next (by itself after a pause, or when asked), the
match's end and its verdict; and a player who leaves, disconnects or idles at any moment
(mid-round, between rounds, in a countdown) forfeits the match to the others.

A conductor runs on its owner's thread (a table's: a screen, the hub's loop, a headless
loop) and keeps time with the owner's timers (`later`), so a test runs it on a loop with
a fake clock. It drives a match feed (core.live): it starts it, holds and releases its
clock and begins its rounds; it hears that a round ended from its table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Sequence, Union

from tui_grid.core.countdown import Countdown
from tui_grid.core.live import MatchFeed
from tui_grid.core.loop import Clock, Later, Stoppable
from tui_grid.core.match import Ending, MatchScore, MatchVerdict, RoundResult
from tui_grid.core.outcome import Failure, Fault

#: Seconds between the rounds of a match that goes on by itself (nobody here plays it).
AUTO_NEXT_SECONDS = 3.0

#: The game's verdict on a match (GameDefinition.match_verdict): the verdict and its sentence.
Decide = Callable[[MatchScore, Ending, "int | None", str], tuple[MatchVerdict, str]]


@dataclass(frozen=True)
class RoundPacing:
    """`countdown` counts of `beat` seconds before each round (0: it starts at once);
    `between_rounds` seconds before the next round comes by itself (None: `next_round`
    brings it); `idle_seconds`: a watched player who presses no key this long in a round
    forfeits the match (None: nobody is watched)."""

    countdown: int = 0
    beat: float = 1.0
    between_rounds: float | None = None
    idle_seconds: float | None = None

    @classmethod
    def at_board(cls, advances: bool, humans: bool, countdown: int, beat: float) -> RoundPacing:
        """Rounds conducted where the match is watched (a screen): a countdown before each
        when a human plays there; the next round by itself after a break when nobody does,
        else when asked. A feed whose server begins its rounds (`advances` False) is
        conducted by that server: nothing here."""
        if not advances:
            return cls()
        return cls(countdown=countdown if humans else 0, beat=beat, between_rounds=None if humans else AUTO_NEXT_SECONDS)


class Phase(Enum):
    READY = "ready"  # the feed is not started
    COUNTING = "counting"  # a countdown runs; the clock is held
    HELD = "held"  # a player held the countdown: the round waits for them
    PLAYING = "playing"
    BETWEEN = "between"  # a round ended and another follows
    OVER = "over"


class Paused(Enum):
    """What the pause key did."""

    COUNTDOWN_HELD = "countdown held"
    COUNTING_AFRESH = "counting afresh"
    MATCH_OVER = "match over"
    NEXT_HELD = "next round held"
    NEXT_RELEASED = "next round released"
    PAUSED = "paused"
    RESUMED = "resumed"


# --- events -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CountdownSaid:
    """The countdown's words now: "Get ready: 3…" and so on, then "Go!"."""

    words: str


@dataclass(frozen=True)
class RoundEnded:
    """A round ended (recorded in the match's score). Unless it was the `last`, another
    follows: in `next_in` seconds by itself, or when asked (None)."""

    result: RoundResult
    next_in: float | None
    last: bool = False


@dataclass(frozen=True)
class MatchEnded:
    verdict: MatchVerdict
    text: str


ConductorEvent = Union[CountdownSaid, RoundEnded, MatchEnded]

#: What a player's leaving is called in a verdict, and the fault their seat forfeits by.
_LEFT_WORDS = {Ending.LEFT: "{name} left the match", Ending.DISCONNECTED: "{name} disconnected",
               Ending.IDLE: "{name} idled for {seconds:.0f} s"}


class Conductor:
    """Conducts `feed`'s rounds by `pacing`; `decide` is the game's match verdict, `emit`
    hears its events, `watched` are the participants whose idling is checked."""

    def __init__(self, feed: MatchFeed[Any, Any], pacing: RoundPacing, *, later: Later, clock: Clock,
                 decide: Decide, emit: Callable[[ConductorEvent], None], watched: Sequence[int] = ()) -> None:
        self.feed = feed
        self.pacing = pacing
        self.later = later
        self.clock = clock
        self.decide = decide
        self.emit = emit
        self.watched = list(watched)
        self.phase = Phase.READY
        self.ending = Ending.PLAYED
        self.ended_by: int | None = None
        self.detail = ""
        self.verdict: MatchEnded | None = None
        self._countdown = Countdown(0)
        self._timer: Stoppable | None = None
        self._idle_timer: Stoppable | None = None
        self._last_key: dict[int, float] = {}

    # --- the clock ------------------------------------------------------------------------------
    def begin(self) -> None:
        """Start the feed: after a countdown when the pacing has one."""
        if self.pacing.countdown > 0:
            self.feed.pause(True)
            self.feed.start()
            self.count_down()
        else:
            self.feed.start()
            self._play(release=False)

    def count_down_if_running(self) -> None:
        """A person was just seated mid-round: a running clock counts down first (when the
        pacing has a countdown), so they find their seat before it moves."""
        if self.pacing.countdown > 0 and self.phase is Phase.PLAYING and not self.feed.paused:
            self.count_down()

    def count_down(self) -> None:
        """From the top: the clock is held, a count per beat, then "Go!" and it runs."""
        self._stop_timer()
        if not self.feed.paused:
            self.feed.pause(True)
        self.phase = Phase.COUNTING
        self._countdown = Countdown(self.pacing.countdown)
        self.emit(CountdownSaid(self._countdown.start()))
        self._timer = self.later(self.pacing.beat, self._beat)

    def _beat(self) -> None:
        self._timer = None
        if self.phase is Phase.COUNTING:
            self.beat()

    def beat(self) -> None:
        """One count of the countdown now (its timer's call): the next count, or "Go!"."""
        if self.phase is not Phase.COUNTING:
            return
        self._stop_timer()
        words = self._countdown.beat()
        if self._countdown.running:
            self._timer = self.later(self.pacing.beat, self._beat)
        else:
            self._play(release=True)
        self.emit(CountdownSaid(words))

    def _play(self, release: bool) -> None:
        """The round is on; `release`: the countdown held the clock, and lets it go (a
        clock the player paused stays paused: a held next round starts paused)."""
        self.phase = Phase.PLAYING
        now = self.clock()
        self._last_key = {participant: now for participant in self.watched}
        self._arm_idle(self.pacing.idle_seconds)
        if release and self.feed.paused:
            self.feed.pause(False)

    @property
    def counting(self) -> bool:
        return self.phase is Phase.COUNTING

    def pause(self) -> Paused:
        """The pause key: holds a countdown (and the next press counts afresh), holds the
        next round between rounds, else pauses or resumes the clock."""
        if self.phase is Phase.COUNTING:
            self._stop_timer()
            self.phase = Phase.HELD
            return Paused.COUNTDOWN_HELD
        if self.phase is Phase.HELD:
            self.count_down()
            return Paused.COUNTING_AFRESH
        if self.phase is Phase.OVER:
            return Paused.MATCH_OVER
        paused = self.feed.pause()
        if self.phase is Phase.BETWEEN:
            if paused:
                self._stop_timer()
            else:
                self._arm_next()
            return Paused.NEXT_HELD if paused else Paused.NEXT_RELEASED
        return Paused.PAUSED if paused else Paused.RESUMED

    def hold(self) -> Callable[[], None]:
        """Hold the clock (a dialog or help opens over the match); the call returned lets it
        go as it was: a countdown counts afresh, a running clock runs."""
        phase, was_running = self.phase, not self.feed.paused
        if phase is Phase.COUNTING:
            self._stop_timer()
            self.phase = Phase.HELD
        elif was_running:
            self.pause()

        def release() -> None:
            if phase is Phase.COUNTING and self.phase is Phase.HELD:
                self.count_down()  # from the top: nobody is caught unready
            elif was_running and self.feed.paused and self.phase is not Phase.OVER:
                self.pause()

        return release

    # --- rounds ---------------------------------------------------------------------------------
    def round_ended(self) -> None:
        """The table saw the current round end (the feed has recorded it)."""
        if self.phase is Phase.OVER:
            return
        self._stop_idle()
        match = self.feed.match
        if self.ending is not Ending.PLAYED or match.finished:
            self.emit(RoundEnded(match.score.rounds[-1], None, last=True))
            self._finish()
            return
        self.phase = Phase.BETWEEN
        self._arm_next()
        self.emit(RoundEnded(match.score.rounds[-1], self.pacing.between_rounds))

    def _arm_next(self) -> None:
        self._stop_timer()
        if self.pacing.between_rounds is not None and not self.feed.paused:
            self._timer = self.later(self.pacing.between_rounds, self._next_by_itself)

    def _next_by_itself(self) -> None:
        self._timer = None
        if self.phase is Phase.BETWEEN and not self.feed.paused:
            self.next_round()

    def next_round(self) -> bool:
        """Begin the next round (after its countdown); False when none follows now."""
        if self.phase is not Phase.BETWEEN:
            return False
        self._stop_timer()
        counting = self.pacing.countdown > 0
        if counting:
            self.feed.pause(True)  # before the new round exists, so its first tick waits too
        if not self.feed.next_round():
            return False
        if counting:
            self.count_down()
        else:
            self._play(release=False)
        return True

    # --- leaving ----------------------------------------------------------------------------------
    def pressed(self, participant: int) -> None:
        """A player pressed a key (any thread): they are not idle."""
        self._last_key[participant] = self.clock()

    def _arm_idle(self, seconds: float | None) -> None:
        self._stop_idle()
        if seconds is not None and self.watched:
            self._idle_timer = self.later(seconds, self._check_idle)

    def _check_idle(self) -> None:
        self._idle_timer = None
        limit = self.pacing.idle_seconds
        if self.phase is not Phase.PLAYING or limit is None:
            return
        now = self.clock()
        for participant in self.watched:
            if now - self._last_key.get(participant, now) >= limit:
                self.leave(participant, Ending.IDLE)
                return
        soonest = min(self._last_key.get(p, now) + limit for p in self.watched) - now
        self._arm_idle(max(soonest, 0.01))

    def leave(self, participant: int, ending: Ending) -> None:
        """`participant` left, disconnected or idled: their seat forfeits the round under
        way and the match is the others'. The first to go decides it."""
        if self.phase is Phase.OVER:
            return
        if participant in self.watched:
            self.watched.remove(participant)
        name = self.feed.match.score.names[participant]
        seconds = self.pacing.idle_seconds or 0.0
        if self.ending is Ending.PLAYED:
            self.ending, self.ended_by = ending, participant
            self.detail = _LEFT_WORDS[ending].format(name=name, seconds=seconds)
        fault = {Ending.LEFT: Failure(Fault.LEFT), Ending.DISCONNECTED: Failure(Fault.DISCONNECTED),
                 Ending.IDLE: Failure(Fault.IDLE, numbers=(seconds,))}[ending]
        session, seating = self.feed.match.session, self.feed.match.seating
        if session is not None and participant in seating and not session.over:
            session.forfeit(seating.index(participant), fault)  # the table hears the round end
        self._finish()

    def stop(self, why: str) -> None:
        """End the match with nobody winning (the server stops; nobody watches its bots)."""
        if self.phase is Phase.OVER:
            return
        if self.ending is Ending.PLAYED:
            self.ending, self.detail = Ending.STOPPED, why
        self._finish()

    def _finish(self) -> None:
        if self.phase is Phase.OVER:
            return
        self.phase = Phase.OVER
        self._stop_timer()
        self._stop_idle()
        verdict, text = self.decide(self.feed.match.score, self.ending, self.ended_by, self.detail)
        self.verdict = MatchEnded(verdict, text)
        self.emit(self.verdict)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    # --- timers ---------------------------------------------------------------------------------
    def _stop_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.stop()

    def _stop_idle(self) -> None:
        timer, self._idle_timer = self._idle_timer, None
        if timer is not None:
            timer.stop()

    def close(self) -> None:
        self._stop_timer()
        self._stop_idle()
