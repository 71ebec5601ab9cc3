"""What the server keeps, as plain records: players, finished matches (everything needed
to replay them), ratings' leaderboard rows and puzzle bests; the `Store` interface every
database behind the server implements (online.store: SQLite, online.store_pg:
PostgreSQL); how a match is rated; and how records map to the rows both stores keep.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, Callable, Literal, Protocol, Sequence

from tui_grid.core.match import Ending, RoundResult
from tui_grid.online.ratings import BOT_RATINGS, Rating, provisional, rate

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


class StoreUnreachable(RuntimeError):
    """The database behind the store cannot be reached, or did not answer in time."""


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


# --- rows: how both stores lay records out in their tables ---------------------------------------
Row = Sequence[Any]


def rating_columns(rating: Rating | None) -> tuple[float | None, float | None, float | None]:
    return (None, None, None) if rating is None else (rating.rating, rating.rd, rating.volatility)


def rating_of_columns(row: Row) -> Rating | None:
    rating, rd, volatility = row
    return None if rating is None or rd is None or volatility is None else Rating(rating, rd, volatility)


def ratings_around(record: MatchRecord, rated: bool,
                   rating_of: Callable[[int], Rating]) -> tuple[list[Rating | None], list[Rating | None]]:
    """Every participant's rating before and after the match (None throughout when it is
    not rated); `rating_of` reads an account's rating inside the recording transaction."""
    if not rated:
        return [None] * len(record.participants), [None] * len(record.participants)
    known = [rating_of(p.player_id) if p.player_id is not None else BOT_RATINGS[(record.game, p.level or "")]
             for p in record.participants]
    return list(known), list(match_ratings(record, known))


def match_row(record: MatchRecord, rated: bool) -> tuple[Any, ...]:
    """The `matches` columns after the id: game, board, rated, counts, started, ended,
    planned_rounds, ending, winner, ended_by, verdict."""
    return (record.game, record.board, rated, record.counts, record.started, record.ended, record.planned_rounds,
            record.ending.value, record.winner, record.ended_by, record.verdict)


def participant_rows(match_id: int, record: MatchRecord, before: Sequence[Rating | None],
                     after: Sequence[Rating | None]) -> list[tuple[Any, ...]]:
    """The `match_players` rows: match, participant, player, name, kind, level, then the
    rating, RD and volatility before and after."""
    return [(match_id, index, p.player_id, p.name, p.kind, p.level, *rating_columns(before[index]),
             *rating_columns(after[index])) for index, p in enumerate(record.participants)]


def round_rows(match_id: int, record: MatchRecord) -> list[tuple[Any, ...]]:
    """The `rounds` rows: match, idx, seating (JSON), winner, result, cause, outcome,
    steps, forfeit_seat, log."""
    return [(match_id, index, json.dumps(list(r.seating)), r.winner, r.result, r.cause, r.outcome, r.steps,
             r.forfeit_seat, r.log) for index, r in enumerate(record.rounds)]


def round_of_row(row: Row) -> RoundRecord:
    """A round from its columns: seating, winner, result, cause, outcome, steps, log, forfeit_seat."""
    seating, winner, result, cause, outcome, steps, log, forfeit = row
    return RoundRecord(tuple(json.loads(seating)), winner, result, cause, outcome, steps, log, forfeit)


def summaries_of_rows(rows: Sequence[Row], people: Sequence[Row]) -> list[MatchSummary]:
    """Matches from their `matches` rows (id first) and their participants' rows (match,
    participant, name, kind, player, level, six rating columns), in order."""
    by_match: dict[int, list[StoredParticipant]] = {row[0]: [] for row in rows}
    for row in people:
        match_id, index, name, kind, player, level = row[:6]
        by_match[match_id].append(StoredParticipant(index, name, kind, player, level, rating_of_columns(row[6:9]),
                                                    rating_of_columns(row[9:12])))
    return [MatchSummary(match_id, game, board, bool(rated), bool(counts), started, ended, planned, Ending(ending), winner,
                         ended_by, verdict, tuple(by_match[match_id]))
            for match_id, game, board, rated, counts, started, ended, planned, ending, winner, ended_by, verdict in rows]


def stored_match(summary: MatchSummary, rounds: Sequence[Row]) -> StoredMatch:
    return StoredMatch(**{f.name: getattr(summary, f.name) for f in fields(summary)},
                       rounds=tuple(round_of_row(row) for row in rounds))


def leader_rows(rows: Sequence[Row]) -> list[LeaderRow]:
    """Leaderboard rows from (player, name, rating, rd, games), best first."""
    return [LeaderRow(rank, player, name, rating, rd, games, provisional(Rating(rating, rd)))
            for rank, (player, name, rating, rd, games) in enumerate(rows, start=1)]
