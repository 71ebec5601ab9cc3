"""What the server keeps, as plain records: players, finished matches (everything needed
to replay them), ratings' leaderboard rows and puzzle bests; the `Store` interface every
database behind the server implements (online.store: SQLite); and how a match is rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, Sequence

from tui_grid.core.match import Ending, RoundResult
from tui_grid.online.ratings import BOT_RATINGS, Rating, rate

Kind = Literal["player", "guest", "bot"]
KINDS: tuple[Kind, ...] = ("player", "guest", "bot")


# --- records ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Player:
    id: int
    name: str

    @property
    def folder(self) -> str:
        """The player's folder under the server's `players/`: by id, never by a name."""
        return f"p{self.id}"


class NameTaken(Exception):
    """The name, or one like it, is another player's."""


class KeyTaken(Exception):
    """The key is another player's."""


class SchemaTooNew(RuntimeError):
    """The file was written by a newer version of the server than this one."""


@dataclass(frozen=True)
class Participant:
    """Who played a participant's part: an account (`player_id`), a guest, or a builtin
    bot (`level`, which names its fixed rating; a bot without one makes the match unrated)."""

    name: str
    kind: Kind
    player_id: int | None = None
    level: str | None = None


@dataclass(frozen=True)
class RoundRecord:
    """One finished round as stored: enough to list it and to replay it from its log."""

    seating: tuple[int, ...]  # seating[seat] = participant
    winner: int | None  # a participant; None: a draw
    result: str  # core.outcome.Result's value: "won", "lost", "draw"
    cause: str  # the cause's key: "tron:wall", "fault:left"; "" when the engine gave none
    outcome: str  # the round's end in words, as it was shown
    steps: int
    log: str  # the joint actions, as `Session.played_text` writes them
    forfeit_seat: int | None = None

    @classmethod
    def of(cls, result: RoundResult, outcome: str) -> RoundRecord:
        """The record of a match's round; `outcome` is its end in words (the game's
        `describe_outcome`)."""
        cause = result.outcome.cause
        return cls(result.seating, result.winner, result.outcome.result.value, cause.key if cause else "", outcome,
                   result.steps, result.log, result.forfeit_seat)


@dataclass(frozen=True)
class MatchRecord:
    """A finished match, to store. `rated` asks for ratings; the store rates it only when it
    `counts` (false: aborted before it started), was not stopped, and every participant is
    a distinct account or a bot with a fixed rating (never with a guest)."""

    game: str
    board: str
    participants: tuple[Participant, ...]
    rounds: tuple[RoundRecord, ...]
    planned_rounds: int
    ending: Ending
    winner: int | None  # a participant; None: nobody (a draw, or stopped)
    verdict: str  # the verdict in words (MatchVerdict.text)
    started: float
    ended: float
    ended_by: int | None = None  # the participant who left, idled or disconnected
    rated: bool = False
    counts: bool = True


@dataclass(frozen=True)
class StoredParticipant:
    index: int
    name: str
    kind: Kind
    player_id: int | None
    level: str | None
    before: Rating | None  # set when the match was rated (a bot's stays as it was)
    after: Rating | None


@dataclass(frozen=True)
class MatchSummary:
    """A stored match without its rounds: what a list of matches shows."""

    id: int
    game: str
    board: str
    rated: bool
    counts: bool
    started: float
    ended: float
    planned_rounds: int
    ending: Ending
    winner: int | None
    ended_by: int | None
    verdict: str
    participants: tuple[StoredParticipant, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.participants)


@dataclass(frozen=True)
class StoredMatch(MatchSummary):
    """A stored match with its rounds, in order: everything needed to replay it."""

    rounds: tuple[RoundRecord, ...] = ()


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    player_id: int
    name: str
    rating: float
    rd: float
    games: int
    provisional: bool


@dataclass(frozen=True)
class Best:
    """An owner's best solve of one board; lower values are better (moves, slides, tokens)."""

    board: str
    value: int
    optimum: int | None  # the best possible, when a solver knows it
    solves: int
    first_solved: float
    best_at: float


# --- the interface ------------------------------------------------------------------------------
class Store(Protocol):
    """What the server asks of its store, whatever database stands behind it."""

    def player_of(self, fingerprint: str) -> Player | None: ...
    def claim(self, fingerprint: str, wanted: str) -> Player: ...
    def claimed(self, name: str) -> bool: ...
    def add_key(self, player_id: int, fingerprint: str) -> None: ...
    def rating(self, player_id: int, game: str) -> Rating: ...
    def ratings(self, player_id: int) -> dict[str, Rating]: ...
    def record_match(self, record: MatchRecord) -> int: ...
    def match(self, match_id: int) -> StoredMatch | None: ...
    def recent_matches(self, limit: int = 20, game: str | None = None) -> list[MatchSummary]: ...
    def matches_of(self, player_id: int, limit: int = 20) -> list[MatchSummary]: ...
    def leaderboard(self, game: str, limit: int = 20) -> list[LeaderRow]: ...
    def record_solve(self, owner: str, game: str, board: str, value: int, optimum: int | None = None) -> Best: ...
    def bests(self, owner: str, game: str) -> dict[str, Best]: ...


# --- rating a match -----------------------------------------------------------------------------
def rateable(record: MatchRecord) -> bool:
    """Whether the record's match changes ratings (see MatchRecord)."""
    people = record.participants
    accounts = [p.player_id for p in people if p.kind == "player"]
    return (record.rated and record.counts and record.ending is not Ending.STOPPED and len(people) >= 2 and bool(accounts)
            and len(set(accounts)) == len(accounts)
            and all(p.kind == "player" or (p.kind == "bot" and (record.game, p.level or "") in BOT_RATINGS) for p in people))


def _score(winner: int | None, me: int, other: int) -> float:
    """One participant's score against another in a match won by `winner`."""
    return 1.0 if winner == me else 0.0 if winner == other else 0.5


def match_ratings(record: MatchRecord, before: Sequence[Rating]) -> list[Rating]:
    """Every participant's rating after the match, one rating period, from everyone's
    rating before it: each account against every other participant, bots unchanged."""
    return [before[i] if p.kind == "bot" else
            rate(before[i], [(before[j], _score(record.winner, i, j)) for j in range(len(before)) if j != i])
            for i, p in enumerate(record.participants)]


def check_record(record: MatchRecord) -> None:
    """Refuse a record that contradicts itself (ValueError), before anything is written."""
    count = len(record.participants)
    for p in record.participants:
        if p.kind not in KINDS:
            raise ValueError(f"participant {p.name!r}: no kind {p.kind!r} (one of {', '.join(KINDS)})")
        if (p.kind == "player") != (p.player_id is not None):
            raise ValueError(f"participant {p.name!r}: a {p.kind} {'needs' if p.kind == 'player' else 'has no'} player id")
    for index in (record.winner, record.ended_by, *(r.winner for r in record.rounds)):
        if index is not None and not 0 <= index < count:
            raise ValueError(f"no participant {index} among {count}")
    for r in record.rounds:
        if any(not 0 <= p < count for p in r.seating):
            raise ValueError(f"a seating names a participant not among {count}: {r.seating}")
