"""The lobby's protocol: every message between a player's app, a publisher (the Evasion
architect) and the hub, as a frozen dataclass with its wire form.

On the wire a message is one JSON object per line (online.wire), its type in "t". `to_wire`
gives that object; `from_wire` reads one back and checks every field (type, length, range)
before anything trusts it, raising ProtocolError when one is wrong. Text from a peer stays
text here: whoever shows it shows it through core.text. A round's end crosses as data (its
cause by key, the seat, the raw detail; `outcome_fields`, `read_outcome`), so every
receiver says it in its own words, with its own players' names.

    app -> hub        Hello, Doing, Challenge, Answer, Withdraw, Queue, Unqueue, Watch, Key, Leave,
                      Rematch, Top, Games, Replay, AddKey, Solved, Bests, Concede
    publisher -> hub  Hello (with the token), Publish, Step, Forfeit, Result, Round, Note, End
    hub -> app        Welcome, Lobby, Error, MatchStart, Step, Forfeit, Round, Note, End, Leaders,
                      GameList, Recorded, SolveKept, BestList, Bye
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Union

from tui_grid.core.outcome import Failure, Fault, Outcome
from tui_grid.core.outcome import Result as Standing
from tui_grid.core.session import ChangeKind
from tui_grid.games.registry import outcome_cause

#: Bounds on what a peer may send.
MAX_NAME = 40
MAX_GAME = 20
MAX_BOARD = 80
MAX_TEXT = 400
MAX_JOINT = 400
MAX_LOG = 1 << 19
MAX_SEATS = 8
MAX_LISTED = 200
MAX_ID = 1 << 31
MAX_STEPS = 10_000_000
MAX_CAUSE = 60
MAX_NUMBERS = 4
MAX_CELLS = 16
MAX_COORD = 1 << 16
MAX_RATING = 10_000
#: An OpenSSH public key line, at most (an RSA key of 16384 bits fits).
MAX_KEY = 4096
#: A puzzle board's key (a digest of its rows), and the largest solve value.
MAX_BOARD_KEY = 32
MAX_SOLVE = 10_000_000
MAX_TIME = 1 << 40
#: Rows of a leaderboard or a list of games, at most.
MAX_ROWS = 50
#: A quick match's rounds (two: each player plays both seats), and the most a challenge may ask.
QUICK_ROUNDS = 2
MAX_ROUNDS = 9


class ProtocolError(ValueError):
    """A message that is not one of ours, or a field of the wrong shape."""


# --- reading fields --------------------------------------------------------------------------
def _text(data: dict[str, Any], key: str, most: int, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > most:
        raise ProtocolError(f"{key!r} is not a text of at most {most} characters")
    return value


def _int(data: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(f"{key!r} is not a whole number from {low} to {high}")
    return value


def _optional_int(data: dict[str, Any], key: str, low: int, high: int) -> int | None:
    return None if data.get(key) is None else _int(data, key, low, high)


def _list(data: dict[str, Any], key: str, most: int) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > most:
        raise ProtocolError(f"{key!r} is not a list of at most {most}")
    return value


def _texts(data: dict[str, Any], key: str, most_items: int, most: int) -> tuple[str, ...]:
    items = _list(data, key, most_items)
    if not all(isinstance(item, str) and len(item) <= most for item in items):
        raise ProtocolError(f"{key!r} holds something other than short texts")
    return tuple(items)


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(f"{what} is not an object")
    return value


def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _numbers(data: dict[str, Any], key: str) -> tuple[float, ...]:
    items = _list(data, key, MAX_NUMBERS)
    if not all(isinstance(item, (int, float)) and not isinstance(item, bool) and math.isfinite(item) for item in items):
        raise ProtocolError(f"{key!r} holds something other than numbers")
    return tuple(items)


def _cells(data: dict[str, Any], key: str) -> tuple[tuple[int, int], ...]:
    items = _list(data, key, MAX_CELLS)
    if not all(isinstance(item, list) and len(item) == 2 and all(_is_int(n, 0, MAX_COORD) for n in item) for item in items):
        raise ProtocolError(f"{key!r} holds something other than cells")
    return tuple((item[0], item[1]) for item in items)


# --- a round's end, as data ------------------------------------------------------------------
def failure_fields(failure: Failure) -> dict[str, Any]:
    """A failure's wire fields; outside text is cut to what a peer may send, never escaped."""
    return {"fault": failure.fault.value, "detail": failure.detail[:MAX_TEXT], "note": failure.note[:MAX_TEXT],
            "numbers": list(failure.numbers)}


def read_failure(data: dict[str, Any]) -> Failure:
    fault = data.get("fault")
    if fault not in {member.value for member in Fault}:
        raise ProtocolError("'fault' is not one of the faults")
    return Failure(Fault(fault), _text(data, "detail", MAX_TEXT, ""), _text(data, "note", MAX_TEXT, ""), _numbers(data, "numbers"))


def outcome_fields(outcome: Outcome) -> dict[str, Any]:
    """An outcome's wire form: its cause by key ("tron:wall"), the rest as data."""
    return {"result": outcome.result.value, "cause": None if outcome.cause is None else outcome.cause.key,
            "seat": outcome.seat, "winner": outcome.winner, "detail": outcome.detail[:MAX_TEXT],
            "note": outcome.note[:MAX_TEXT], "numbers": list(outcome.numbers), "cells": [list(cell) for cell in outcome.cells],
            "parts": [outcome_fields(part) for part in outcome.parts], "places": list(outcome.places)}


def read_outcome(value: Any, *, parts: bool = True) -> Outcome:
    """An outcome from its wire form, every field checked: its cause must be one a game
    (or core) declares, and its parts (one level deep) outcomes too."""
    data = _object(value, "an outcome")
    result = data.get("result")
    if result not in {member.value for member in Standing}:
        raise ProtocolError("an outcome's 'result' is not a result")
    cause = data.get("cause")
    if cause is not None:
        if not isinstance(cause, str) or len(cause) > MAX_CAUSE:
            raise ProtocolError("an outcome's 'cause' is not a cause")
        try:
            cause = outcome_cause(cause)
        except KeyError:
            raise ProtocolError(f"an outcome's cause {cause[:MAX_CAUSE]!r} is none this app knows") from None
    inner = _list(data, "parts", MAX_SEATS)
    if inner and not parts:
        raise ProtocolError("an outcome's part has parts")
    return Outcome(Standing(result), cause, _optional_int(data, "seat", 0, MAX_SEATS - 1),
                   _optional_int(data, "winner", 0, MAX_SEATS - 1), _text(data, "detail", MAX_TEXT, ""),
                   _text(data, "note", MAX_TEXT, ""), _numbers(data, "numbers"), _cells(data, "cells"),
                   tuple(read_outcome(part, parts=False) for part in inner), _places(data))


def _places(data: dict[str, Any]) -> tuple[int, ...]:
    """Finishing places, one per seat, each 1..MAX_SEATS."""
    items = _list(data, "places", MAX_SEATS)
    if not all(isinstance(item, int) and not isinstance(item, bool) and 1 <= item <= MAX_SEATS for item in items):
        raise ProtocolError("'places' holds something other than places")
    return tuple(items)


# --- the messages ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Hello:
    """A link's first message: an app's (its link is bound to its player already) or a
    publisher's (with the hub's publishing token)."""

    TYPE: ClassVar[str] = "hello"
    token: str = ""

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Hello:
        return cls(_text(data, "token", 64, ""))


@dataclass(frozen=True)
class Doing:
    """What the player is doing outside any match ("in the lobby", "in the menu")."""

    TYPE: ClassVar[str] = "doing"
    doing: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Doing:
        return cls(_text(data, "doing", 200))


@dataclass(frozen=True)
class Challenge:
    """Play `to` (a player's name, or "bot:LEVEL"), as yourself or, with `seat_as`
    "bot:LEVEL", let two bots play while you watch. Empty board: the game's usual one."""

    TYPE: ClassVar[str] = "challenge"
    to: str
    game: str
    board: str = ""
    rounds: int = QUICK_ROUNDS
    seat_as: str = ""
    rated: bool = True  # False: a casual match, which changes no rating

    def to_fields(self) -> dict[str, Any]:
        return {"to": self.to, "game": self.game, "board": self.board, "rounds": self.rounds, "as": self.seat_as,
                "rated": self.rated}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Challenge:
        return cls(_text(data, "to", MAX_NAME), _text(data, "game", MAX_GAME), _text(data, "board", MAX_BOARD, ""),
                   _int(data, "rounds", 1, MAX_ROUNDS, QUICK_ROUNDS), _text(data, "as", MAX_NAME, ""),
                   data.get("rated", True) is not False)


@dataclass(frozen=True)
class Answer:
    TYPE: ClassVar[str] = "answer"
    id: int
    accept: bool

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Answer:
        return cls(_int(data, "id", 0, MAX_ID), data.get("accept") is True)


@dataclass(frozen=True)
class Withdraw:
    TYPE: ClassVar[str] = "withdraw"
    id: int

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Withdraw:
        return cls(_int(data, "id", 0, MAX_ID))


@dataclass(frozen=True)
class Queue:
    """Join the game's quick-match queue."""

    TYPE: ClassVar[str] = "queue"
    game: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Queue:
        return cls(_text(data, "game", MAX_GAME))


@dataclass(frozen=True)
class Unqueue:
    TYPE: ClassVar[str] = "unqueue"

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Unqueue:
        return cls()


@dataclass(frozen=True)
class Arena:
    """Ride in the Tron arena room from its next round (watching the round under way)."""

    TYPE: ClassVar[str] = "arena"

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Arena:
        return cls()


@dataclass(frozen=True)
class Watch:
    TYPE: ClassVar[str] = "watch"
    id: int

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Watch:
        return cls(_int(data, "id", 0, MAX_ID))


@dataclass(frozen=True)
class Key:
    """A player's action for their seat, in the game's text encoding."""

    TYPE: ClassVar[str] = "key"
    action: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Key:
        return cls(_text(data, "action", MAX_NAME))


@dataclass(frozen=True)
class Leave:
    """The player leaves what they are in: the queue, a match they watch, or play (forfeited)."""

    TYPE: ClassVar[str] = "leave"

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Leave:
        return cls()


@dataclass(frozen=True)
class Publish:
    """A publisher's match, announced once its rules are known."""

    TYPE: ClassVar[str] = "publish"
    game: str
    board: str
    names: tuple[str, ...]
    rounds: int

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Publish:
        names = _texts(data, "names", MAX_SEATS, MAX_NAME)
        if not names:
            raise ProtocolError("'names' is empty")
        return cls(_text(data, "game", MAX_GAME), _text(data, "board", MAX_BOARD), names, _int(data, "rounds", 1, MAX_ROUNDS))


@dataclass(frozen=True)
class Step:
    """One joint action of the match's current round, in the engine's log encoding."""

    TYPE: ClassVar[str] = "step"
    joint: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Step:
        return cls(_text(data, "joint", MAX_JOINT))


@dataclass(frozen=True)
class Forfeit:
    """A seat lost the round without its move: why, as the failure whoever decided saw.
    `at`: in a game of more seats that plays on (an arena), the steps played when it did."""

    TYPE: ClassVar[str] = "forfeit"
    seat: int
    failure: Failure
    at: int | None = None

    def to_fields(self) -> dict[str, Any]:
        return {"seat": self.seat, **failure_fields(self.failure), "at": self.at}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Forfeit:
        return cls(_int(data, "seat", 0, MAX_SEATS - 1), read_failure(data), _optional_int(data, "at", 0, MAX_STEPS))


@dataclass(frozen=True)
class Result:
    """A finished round: the winning participant (None: a draw), its outcome (by seat), who
    sat where, its length."""

    TYPE: ClassVar[str] = "result"
    winner: int | None
    outcome: Outcome
    seating: tuple[int, ...]
    steps: int
    forfeit_seat: int | None = None

    def to_fields(self) -> dict[str, Any]:
        return {"result": [self.winner, outcome_fields(self.outcome), list(self.seating), self.steps, self.forfeit_seat]}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Result:
        return cls.from_list(data.get("result"))

    @classmethod
    def from_list(cls, value: Any) -> Result:
        if not isinstance(value, list) or len(value) not in (4, 5):
            raise ProtocolError("a result is [winner, outcome, seating, steps, forfeit seat]")
        winner, outcome, seating, steps = value[:4]
        forfeit_seat = value[4] if len(value) == 5 else None
        if forfeit_seat is not None and (isinstance(forfeit_seat, bool) or not isinstance(forfeit_seat, int)
                                         or not 0 <= forfeit_seat < MAX_SEATS):
            raise ProtocolError("a result's forfeit seat is not a seat")
        if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < MAX_SEATS):
            raise ProtocolError("a result's winner is not a participant")
        if (not isinstance(seating, list) or not 1 <= len(seating) <= MAX_SEATS
                or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < MAX_SEATS for s in seating)):
            raise ProtocolError("a result's seating is not a list of participants")
        if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= MAX_STEPS:
            raise ProtocolError("a result's steps is not a count")
        return cls(winner, read_outcome(outcome), tuple(seating), steps, forfeit_seat)


@dataclass(frozen=True)
class Round:
    """A new round began (its index; a publisher need not say it, the hub counts)."""

    TYPE: ClassVar[str] = "round"
    round: int = 0

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Round:
        return cls(_int(data, "round", 0, MAX_ROUNDS, 0))


@dataclass(frozen=True)
class Note:
    """A line to show outside any game's own messages (a countdown, what comes next)."""

    TYPE: ClassVar[str] = "note"
    text: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Note:
        return cls(_text(data, "text", MAX_TEXT))


@dataclass(frozen=True)
class End:
    """The match is over: its verdict in words."""

    TYPE: ClassVar[str] = "end"
    text: str = "The match is over."

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> End:
        return cls(_text(data, "text", MAX_TEXT, "The match is over."))


@dataclass(frozen=True)
class GameRating:
    """A player's rating in one game, rounded, and whether it is still provisional."""

    game: str
    rating: int
    provisional: bool
    games: int = 0

    @classmethod
    def from_wire(cls, value: Any) -> GameRating:
        data = _object(value, "a rating")
        return cls(_text(data, "game", MAX_GAME), _int(data, "rating", 0, MAX_RATING), data.get("provisional") is True,
                   _int(data, "games", 0, MAX_ID, 0))


def _ratings(data: dict[str, Any]) -> tuple[GameRating, ...]:
    return tuple(GameRating.from_wire(r) for r in _list(data, "ratings", 16))


def _rated_fields(item: Any) -> dict[str, Any]:
    """An item's plain fields with its ratings as objects."""
    body = _plain(item)
    body["ratings"] = [_plain(r) for r in item.ratings]
    return body


@dataclass(frozen=True)
class Welcome:
    """The hub's greeting: the player's name, the games played online, whether they are a
    guest (this connection only) or an account seen before, and their ratings."""

    TYPE: ClassVar[str] = "welcome"
    name: str
    games: tuple[str, ...]
    guest: bool = False
    returning: bool = False
    ratings: tuple[GameRating, ...] = ()

    def to_fields(self) -> dict[str, Any]:
        return _rated_fields(self)

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Welcome:
        return cls(_text(data, "name", MAX_NAME), _texts(data, "games", 16, MAX_GAME), data.get("guest") is True,
                   data.get("returning") is True, _ratings(data))


@dataclass(frozen=True)
class Error:
    """Why the hub did not do what was asked."""

    TYPE: ClassVar[str] = "error"
    text: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Error:
        return cls(_text(data, "text", MAX_TEXT))


@dataclass(frozen=True)
class LobbyPlayer:
    name: str
    doing: str
    guest: bool = False
    ratings: tuple[GameRating, ...] = ()

    @classmethod
    def from_wire(cls, value: Any) -> LobbyPlayer:
        data = _object(value, "a player")
        return cls(_text(data, "name", MAX_NAME), _text(data, "doing", MAX_TEXT), data.get("guest") is True, _ratings(data))


@dataclass(frozen=True)
class LobbyChallenge:
    id: int
    by: str
    to: str
    game: str
    board: str
    rounds: int
    rated: bool = True
    rematch: bool = False  # offered after a match the two just played

    @classmethod
    def from_wire(cls, value: Any) -> LobbyChallenge:
        data = _object(value, "a challenge")
        return cls(_int(data, "id", 0, MAX_ID), _text(data, "by", MAX_NAME), _text(data, "to", MAX_NAME),
                   _text(data, "game", MAX_GAME), _text(data, "board", MAX_BOARD), _int(data, "rounds", 1, MAX_ROUNDS),
                   data.get("rated", True) is not False, data.get("rematch") is True)


@dataclass(frozen=True)
class LobbyMatch:
    id: int
    game: str
    board: str
    names: tuple[str, ...]
    score: str
    round: int
    rounds: int
    watchers: int

    @classmethod
    def from_wire(cls, value: Any) -> LobbyMatch:
        data = _object(value, "a match")
        return cls(_int(data, "id", 0, MAX_ID), _text(data, "game", MAX_GAME), _text(data, "board", MAX_BOARD),
                   _texts(data, "names", MAX_SEATS, MAX_NAME), _text(data, "score", MAX_TEXT),
                   _int(data, "round", 0, MAX_ROUNDS), _int(data, "rounds", 1, MAX_ROUNDS), _int(data, "watchers", 0, MAX_ID))


@dataclass(frozen=True)
class Lobby:
    """Who is online and what they do, open challenges, matches to watch."""

    TYPE: ClassVar[str] = "lobby"
    players: tuple[LobbyPlayer, ...] = ()
    challenges: tuple[LobbyChallenge, ...] = ()
    matches: tuple[LobbyMatch, ...] = ()

    def to_fields(self) -> dict[str, Any]:
        return {"players": [_rated_fields(player) for player in self.players],
                "challenges": [_plain(challenge) for challenge in self.challenges],
                "matches": [_plain(match) for match in self.matches]}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Lobby:
        return cls(tuple(LobbyPlayer.from_wire(p) for p in _list(data, "players", MAX_LISTED)),
                   tuple(LobbyChallenge.from_wire(c) for c in _list(data, "challenges", MAX_LISTED)),
                   tuple(LobbyMatch.from_wire(m) for m in _list(data, "matches", MAX_LISTED)))


@dataclass(frozen=True)
class MatchStart:
    """A match joined, as a player (`you`: the participant) or a spectator (None): everything
    to mirror it from here: the rounds done, this round's index and its steps so far, the
    forfeit that ended it if there was one, and (`earlier`) the forfeits the round played on
    after (an arena's, each with its `at`)."""

    TYPE: ClassVar[str] = "match"
    id: int
    game: str
    board: str
    rounds: int
    names: tuple[str, ...]
    you: int | None
    results: tuple[Result, ...] = ()
    round: int = 0
    log: str = ""
    forfeit: Forfeit | None = None
    rematch: bool = False  # two people play it: either may offer the other a rematch after it
    earlier: tuple[Forfeit, ...] = ()

    def to_fields(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "board": self.board, "rounds": self.rounds, "names": list(self.names),
                "you": self.you, "results": [result.to_fields()["result"] for result in self.results], "round": self.round,
                "log": self.log, "forfeit": self.forfeit.to_fields() if self.forfeit else None, "rematch": self.rematch,
                "earlier": [forfeit.to_fields() for forfeit in self.earlier]}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> MatchStart:
        names = _texts(data, "names", MAX_SEATS, MAX_NAME)
        forfeit = data.get("forfeit")
        if forfeit is not None:
            forfeit = Forfeit.from_fields(_object(forfeit, "a forfeit"))
        return cls(_int(data, "id", 0, MAX_ID), _text(data, "game", MAX_GAME), _text(data, "board", MAX_BOARD),
                   _int(data, "rounds", 1, MAX_ROUNDS), names, _optional_int(data, "you", 0, max(0, len(names) - 1)),
                   tuple(Result.from_list(item) for item in _list(data, "results", MAX_ROUNDS)),
                   _int(data, "round", 0, MAX_ROUNDS, 0), _text(data, "log", MAX_LOG, ""), forfeit, data.get("rematch") is True,
                   tuple(Forfeit.from_fields(_object(item, "a forfeit")) for item in _list(data, "earlier", MAX_SEATS)))


# --- accounts: leaderboards, finished games, replays, rematches ------------------------------------
@dataclass(frozen=True)
class Bye:
    """Why the hub closes this link (the player logged in again elsewhere)."""

    TYPE: ClassVar[str] = "bye"
    text: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Bye:
        return cls(_text(data, "text", MAX_TEXT))


@dataclass(frozen=True)
class Concede:
    """The player gives up the round under way (the match goes on to the next)."""

    TYPE: ClassVar[str] = "concede"

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Concede:
        return cls()


@dataclass(frozen=True)
class Rematch:
    """After a match: offer the last opponent a rematch (seats swapped), or take theirs."""

    TYPE: ClassVar[str] = "rematch"

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Rematch:
        return cls()


@dataclass(frozen=True)
class AddKey:
    """Let another public key (an OpenSSH `authorized_keys` line) log in as this account."""

    TYPE: ClassVar[str] = "addkey"
    key: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> AddKey:
        return cls(_text(data, "key", MAX_KEY))


@dataclass(frozen=True)
class BestLine:
    """A puzzle board's best, as the store keeps it for the player (lower is better)."""

    board: str
    value: int
    optimum: int | None
    solves: int

    @classmethod
    def from_wire(cls, value: Any) -> BestLine:
        data = _object(value, "a best")
        board = _text(data, "board", MAX_BOARD_KEY)
        if not board or any(c not in "0123456789abcdef" for c in board):
            raise ProtocolError("'board' is not a board key")
        return cls(board, _int(data, "value", 0, MAX_SOLVE), _optional_int(data, "optimum", 0, MAX_SOLVE),
                   _int(data, "solves", 1, MAX_ID))


@dataclass(frozen=True)
class Solved:
    """The player solved a puzzle board with their own moves: `value` (lower is better) and
    the proven `optimum` where the game knows it. Kept for an account, by the server."""

    TYPE: ClassVar[str] = "solved"
    game: str
    board: str
    value: int
    optimum: int | None = None

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Solved:
        line = BestLine.from_wire({"board": data.get("board"), "value": data.get("value"), "optimum": data.get("optimum"),
                                   "solves": 1})
        return cls(_text(data, "game", MAX_GAME), line.board, line.value, line.optimum)


@dataclass(frozen=True)
class SolveKept:
    """A solve kept: the board's best before it (None: the first solve) and after it."""

    TYPE: ClassVar[str] = "kept"
    game: str
    before: BestLine | None
    after: BestLine

    def to_fields(self) -> dict[str, Any]:
        return {"game": self.game, "before": _plain(self.before) if self.before else None, "after": _plain(self.after)}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> SolveKept:
        before = data.get("before")
        return cls(_text(data, "game", MAX_GAME), BestLine.from_wire(before) if before is not None else None,
                   BestLine.from_wire(data.get("after")))


@dataclass(frozen=True)
class Bests:
    """Ask for the player's bests of a puzzle game."""

    TYPE: ClassVar[str] = "bests"
    game: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Bests:
        return cls(_text(data, "game", MAX_GAME))


@dataclass(frozen=True)
class BestList:
    TYPE: ClassVar[str] = "bestlist"
    game: str
    rows: tuple[BestLine, ...]

    def to_fields(self) -> dict[str, Any]:
        return {"game": self.game, "rows": [_plain(row) for row in self.rows]}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> BestList:
        return cls(_text(data, "game", MAX_GAME), tuple(BestLine.from_wire(r) for r in _list(data, "rows", MAX_LISTED)))


@dataclass(frozen=True)
class Top:
    """Ask for a game's leaderboard."""

    TYPE: ClassVar[str] = "top"
    game: str

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Top:
        return cls(_text(data, "game", MAX_GAME))


@dataclass(frozen=True)
class LeaderLine:
    rank: int
    name: str
    rating: int
    provisional: bool
    games: int

    @classmethod
    def from_wire(cls, value: Any) -> LeaderLine:
        data = _object(value, "a leader")
        return cls(_int(data, "rank", 1, MAX_ID), _text(data, "name", MAX_NAME), _int(data, "rating", 0, MAX_RATING),
                   data.get("provisional") is True, _int(data, "games", 0, MAX_ID))


@dataclass(frozen=True)
class Leaders:
    TYPE: ClassVar[str] = "leaders"
    game: str
    rows: tuple[LeaderLine, ...]

    def to_fields(self) -> dict[str, Any]:
        return {"game": self.game, "rows": [_plain(row) for row in self.rows]}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Leaders:
        return cls(_text(data, "game", MAX_GAME), tuple(LeaderLine.from_wire(r) for r in _list(data, "rows", MAX_ROWS)))


@dataclass(frozen=True)
class Games:
    """Ask for finished games: your own (`mine`), or the server's most recent."""

    TYPE: ClassVar[str] = "games"
    mine: bool

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Games:
        return cls(data.get("mine") is True)


@dataclass(frozen=True)
class GameLine:
    id: int
    game: str
    board: str
    names: tuple[str, ...]
    verdict: str
    rated: bool
    ended: float  # seconds since the epoch

    @classmethod
    def from_wire(cls, value: Any) -> GameLine:
        data = _object(value, "a game")
        ended = data.get("ended")
        if not isinstance(ended, (int, float)) or isinstance(ended, bool) or not 0 <= ended < MAX_TIME:
            raise ProtocolError("'ended' is not a time")
        return cls(_int(data, "id", 0, MAX_ID), _text(data, "game", MAX_GAME), _text(data, "board", MAX_BOARD),
                   _texts(data, "names", MAX_SEATS, MAX_NAME), _text(data, "verdict", MAX_TEXT), data.get("rated") is True,
                   float(ended))


@dataclass(frozen=True)
class GameList:
    TYPE: ClassVar[str] = "gamelist"
    mine: bool
    rows: tuple[GameLine, ...]

    def to_fields(self) -> dict[str, Any]:
        return {"mine": self.mine, "rows": [_plain(row) for row in self.rows]}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> GameList:
        return cls(data.get("mine") is True, tuple(GameLine.from_wire(r) for r in _list(data, "rows", MAX_ROWS)))


@dataclass(frozen=True)
class Replay:
    """Ask for a finished game, to replay it."""

    TYPE: ClassVar[str] = "replay"
    id: int

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Replay:
        return cls(_int(data, "id", 0, MAX_ID))


@dataclass(frozen=True)
class RecordedRound:
    """A finished round as replayed: who sat where, its joint actions, and the seat that
    forfeited it (by `cause`) when its log ends before the game does."""

    seating: tuple[int, ...]
    log: str
    forfeit_seat: int | None = None
    cause: str = ""

    @classmethod
    def from_wire(cls, value: Any) -> RecordedRound:
        data = _object(value, "a round")
        seating = _list(data, "seating", MAX_SEATS)
        if not all(_is_int(p, 0, MAX_SEATS - 1) for p in seating):
            raise ProtocolError("'seating' holds something other than participants")
        return cls(tuple(seating), _text(data, "log", MAX_LOG), _optional_int(data, "forfeit_seat", 0, MAX_SEATS - 1),
                   _text(data, "cause", MAX_CAUSE, ""))


@dataclass(frozen=True)
class Recorded:
    """A finished game, whole: everything to replay it."""

    TYPE: ClassVar[str] = "recorded"
    id: int
    game: str
    board: str
    names: tuple[str, ...]
    rounds: tuple[RecordedRound, ...]
    verdict: str

    def to_fields(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "board": self.board, "names": list(self.names),
                "rounds": [_plain(r) for r in self.rounds], "verdict": self.verdict}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Recorded:
        names = _texts(data, "names", MAX_SEATS, MAX_NAME)
        rounds = tuple(RecordedRound.from_wire(r) for r in _list(data, "rounds", MAX_ROUNDS))
        if not names or not rounds or any(len(r.seating) > len(names) or max(r.seating, default=0) >= len(names) for r in rounds):
            raise ProtocolError("its rounds do not fit its players")
        return cls(_int(data, "id", 0, MAX_ID), _text(data, "game", MAX_GAME), _text(data, "board", MAX_BOARD), names,
                   rounds, _text(data, "verdict", MAX_TEXT))


Message = Union[Hello, Doing, Challenge, Answer, Withdraw, Queue, Unqueue, Arena, Watch, Key, Leave, Publish, Step, Forfeit,
                Result, Round, Note, End, Welcome, Error, Lobby, MatchStart, Rematch, Top, Leaders, Games, GameList,
                Replay, Recorded, AddKey, Solved, SolveKept, Bests, BestList, Concede, Bye]
MESSAGES: dict[str, Any] = {kind.TYPE: kind for kind in (
    Hello, Doing, Challenge, Answer, Withdraw, Queue, Unqueue, Arena, Watch, Key, Leave, Publish, Step, Forfeit, Result, Round,
    Note, End, Welcome, Error, Lobby, MatchStart, Rematch, Top, Leaders, Games, GameList, Replay, Recorded, AddKey,
    Solved, SolveKept, Bests, BestList, Concede, Bye)}


def change_message(session: Any, change: Any) -> Step | Forfeit | None:
    """What a session's change is on the wire, if anything: a step as its joint action in
    the engine's log encoding, a forfeit as its seat and the failure its outcome keeps. The
    one encoder of a change: the hub's matches and the publisher both send it."""
    if change.kind is ChangeKind.STEP and session.log:
        return Step(session.engine.format_log([session.log[-1]]))
    if change.kind is ChangeKind.FORFEIT and change.events:
        outcome = session.engine.outcome(change.state)
        if not outcome.over and change.failure is not None and change.events[0].seat is not None:
            return Forfeit(change.events[0].seat, change.failure, len(session.log))  # the others play on
        failure = outcome.failure
        if failure is None or outcome.seat is None:
            return None
        return Forfeit(outcome.seat, failure)
    return None


def _plain(item: Any) -> dict[str, Any]:
    return {f.name: list(value) if isinstance(value := getattr(item, f.name), tuple) else value for f in fields(item)}


def to_wire(message: Message) -> dict[str, Any]:
    """The message as its JSON object."""
    to_fields = getattr(message, "to_fields", None)
    body = to_fields() if to_fields is not None else _plain(message)
    return {"t": message.TYPE, **body}


def from_wire(data: dict[str, Any]) -> Message:
    """The message a JSON object is (its type in "t"), every field checked; ProtocolError
    when it is not one of ours."""
    kind = MESSAGES.get(data.get("t"))  # type: ignore[arg-type]
    if kind is None:
        raise ProtocolError(f"no message of type {str(data.get('t'))[:20]!r}")
    try:
        return kind.from_fields(data)  # type: ignore[no-any-return]
    except ProtocolError as exc:
        raise ProtocolError(f"a {kind.TYPE} message: {exc}") from None


