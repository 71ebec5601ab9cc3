"""Matches: rounds of sessions between participants, with a running score and the seats
swapped between rounds, played by core.headless with no view or driven by a view.

Scores belong to participants, not seats: in round k participant i sits in seat
(i + k) mod seats, so over an even number of two-seat rounds each plays both sides.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Generic, Sequence, TypeVar

from tui_grid.core.agents import Agent, Clock
from tui_grid.core.engine import Engine, Outcome, Result
from tui_grid.core.session import Session

S = TypeVar("S")
A = TypeVar("A")


#: Participants an arena's score names in one line, the most points first.
SUMMARY_RANKED = 3

@dataclass(frozen=True)
class RoundResult:
    """One finished round, from the participants' point of view."""

    index: int
    seating: tuple[int, ...]  # seating[seat] = participant index
    winner: int | None  # participant index, None for a draw
    outcome: Outcome  # the round's end, by seat (say it with `GameDefinition.describe_outcome`)
    steps: int
    log: str = ""
    forfeit_seat: int | None = None  # the seat that lost by forfeit, if one did
    #: Each participant's place (1 the best) where the game ranks more than two seats.
    places: tuple[int, ...] = ()

    def beaten(self, participant: int) -> int:
        """How many participants finished behind this one: the round's winner beat one
        in a duel; in a ranked round, everyone with a worse place."""
        if self.places:
            mine = self.places[participant]
            return sum(1 for place in self.places if place > mine)
        return 1 if self.winner == participant else 0


class Ending(Enum):
    """How a match ended: every round played, or a participant left it (said so), idled
    past the limit or disconnected (each hands the match to the other), or it was stopped
    (by the server or the architect: nobody wins)."""

    PLAYED = "played"
    LEFT = "left"
    IDLE = "idle"
    DISCONNECTED = "disconnected"
    STOPPED = "stopped"


@dataclass(frozen=True)
class MatchVerdict:
    """Who won a match (a participant; None: nobody), how it ended, and who ended it."""

    winner: int | None
    ending: Ending = Ending.PLAYED
    by: int | None = None  # the participant who left, idled or disconnected
    detail: str = ""  # why a match was stopped

    def text(self, names: tuple[str, ...], summary: str) -> str:
        """The verdict in words, the winner first (where a message line may cut the rest),
        then how it ended, then the rounds (`summary`): "Match over: ann wins: bob left.
        ann 1 · bob 0 · draws 0." """
        if self.winner is not None:
            name = names[self.winner]
            head = f"{name} {'win' if name == 'you' else 'wins'}"
        else:
            head = f"stopped ({self.detail})" if self.ending is Ending.STOPPED else "a draw"
        who = names[self.by] if self.by is not None else ""
        why = {Ending.LEFT: f"{who} left", Ending.IDLE: f"{who} pressed no key in time",
               Ending.DISCONNECTED: f"{who} disconnected"}.get(self.ending, "")
        if self.detail and self.ending is not Ending.STOPPED:
            why = self.detail  # the words of whoever saw it end ("ann idled for 60 s")
        return f"Match over: {head}{': ' + why if why else ''}. {summary}."


def most_wins(score: MatchScore) -> int | None:
    """The participant with the most round wins; None on a tie."""
    wins = [score.wins(index) for index in range(len(score.names))]
    best = max(wins, default=0)
    return wins.index(best) if wins.count(best) == 1 else None


def most_points(score: MatchScore) -> int | None:
    """The participant with the most points (`MatchScore.points`); None on a tie. With two
    participants a point is a round won, so this is `most_wins`."""
    points = [score.points(index) for index in range(len(score.names))]
    best = max(points, default=0)
    return points.index(best) if points.count(best) == 1 else None


def verdict(score: MatchScore, winner_of: Callable[[MatchScore], int | None], ending: Ending = Ending.PLAYED,
            by: int | None = None, detail: str = "") -> MatchVerdict:
    """The match's verdict: by the game's rule when it was played out (`winner_of`); to the
    other participant of two when one left, idled or disconnected; to nobody when stopped."""
    if ending is Ending.PLAYED:
        return MatchVerdict(winner_of(score))
    if ending is Ending.STOPPED or by is None:
        return MatchVerdict(None, Ending.STOPPED, by, detail)
    others = [index for index in range(len(score.names)) if index != by]
    return MatchVerdict(others[0] if len(others) == 1 else None, ending, by, detail)


def most_wins_verdict(score: MatchScore, ending: Ending = Ending.PLAYED, by: int | None = None,
                      detail: str = "") -> tuple[MatchVerdict, str]:
    """The verdict by most round wins, and its sentence (a game's own rule may differ:
    GameDefinition.match_verdict)."""
    found = verdict(score, most_wins, ending, by, detail)
    return found, found.text(score.names, score.summary())


@dataclass
class MatchScore:
    """Wins per participant and draws, in round order."""

    names: tuple[str, ...]
    rounds: list[RoundResult] = field(default_factory=list)

    def wins(self, participant: int) -> int:
        return sum(1 for r in self.rounds if r.winner == participant)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.rounds if r.winner is None)

    def losses(self, participant: int) -> int:
        return len(self.rounds) - self.wins(participant) - self.draws

    def points(self, participant: int) -> int:
        """Participants finished behind, summed over the rounds (`RoundResult.beaten`)."""
        return sum(r.beaten(participant) for r in self.rounds)

    @property
    def ranked(self) -> bool:
        """Whether the rounds rank more than two participants (an arena)."""
        return len(self.names) > 2

    def wdl(self, participant: int = 0) -> str:
        return f"{self.wins(participant)}-{self.draws}-{self.losses(participant)}"

    def summary(self) -> str:
        """Wins and draws; in an arena the points of the first few, the most first (a
        screen's legend and a headless match's last lines give everyone's)."""
        if self.ranked:
            order = sorted(range(len(self.names)), key=lambda i: -self.points(i))
            shown = " · ".join(f"{self.names[i]} {self.points(i)}" for i in order[:SUMMARY_RANKED])
            rest = len(order) - SUMMARY_RANKED
            return f"{shown} points" + (f" (and {rest} more)" if rest > 0 else "")
        parts = [f"{name} {self.wins(i)}" for i, name in enumerate(self.names)]
        return " · ".join(parts) + f" · draws {self.draws}"


def places_by_participant(outcome: Outcome, seating: Sequence[int]) -> tuple[int, ...]:
    """The outcome's places (by seat) by participant, given who sat where; () without them."""
    if not outcome.places:
        return ()
    places = [0] * len(seating)
    for seat, place in enumerate(outcome.places):
        places[seating[seat]] = place
    return tuple(places)


def seating_for(round_index: int, participants: int, seats: int, swap: bool = True) -> tuple[int, ...]:
    """seating[seat] = participant: rotated by one seat each round when `swap`."""
    shift = round_index % seats if swap else 0
    return tuple((seat - shift) % participants for seat in range(seats))


class Match(Generic[S, A]):
    """Rounds between participants (agents). `make_engine(k)` gives round k's engine, so a
    match may change maps between rounds. A view drives rounds itself through
    `new_session` / `finish_round`; core.headless plays a whole match with no view."""

    def __init__(
        self,
        make_engine: Callable[[int], Engine[S, A]],
        participants: Sequence[Agent[S, A]],
        rounds: int,
        *,
        swap: bool = True,
        clock: Clock = time.monotonic,
        names: Sequence[str] | None = None,
    ) -> None:
        if rounds < 1:
            raise ValueError("a match needs at least one round")
        self.make_engine = make_engine
        self.participants = list(participants)
        self.rounds = rounds
        self.swap = swap
        self.clock = clock
        self.score = MatchScore(tuple(names or (agent.name for agent in self.participants)))
        self.session: Session[S, A] | None = None
        self.seating: tuple[int, ...] = ()

    @property
    def round_index(self) -> int:
        return len(self.score.rounds)

    @property
    def finished(self) -> bool:
        return self.round_index >= self.rounds

    def new_session(self) -> Session[S, A]:
        engine = self.make_engine(self.round_index)
        self.seating = seating_for(self.round_index, len(self.participants), len(engine.seats), self.swap)
        agents = [self.participants[p] for p in self.seating]
        self.session = Session(engine, agents, clock=self.clock, undo=False)
        return self.session

    def adopt(self, session: Session[S, A]) -> None:
        """Record a session played elsewhere (an architect's game) as this round's, seated
        as `new_session` would seat it."""
        self.seating = seating_for(self.round_index, len(self.participants), len(session.engine.seats), self.swap)
        self.session = session

    def seat_instead(self, participant: int, agent: Agent[S, A], name: str) -> None:
        """`agent`, called `name`, takes `participant`'s place from here on: in this
        round's seat if they sit in it, and in every round after."""
        if self.session is not None and participant in self.seating:
            self.session.seat_agent(self.seating.index(participant), agent).close()
        else:
            self.participants[participant].close()
        self.participants[participant] = agent
        names = list(self.score.names)
        names[participant] = name
        self.score.names = tuple(names)

    def finish_round(self) -> RoundResult:
        """Record the current session's outcome (it must be over)."""
        session = self.session
        assert session is not None and session.over
        outcome = session.outcome
        winner = None
        if outcome.result is Result.WON and outcome.winner is not None:
            winner = self.seating[outcome.winner]
        elif outcome.result is Result.WON and len(self.seating) == 1:
            winner = self.seating[0]
        steps = session.engine.elapsed(session.state)
        result = RoundResult(self.round_index, self.seating, winner, outcome, len(session.log) if steps is None else steps,
                             session.played_text(), session.forfeited, places_by_participant(outcome, self.seating))
        self.score.rounds.append(result)
        return result

    def close(self) -> None:
        for agent in self.participants:
            agent.close()


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (draws may count as halves)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))
