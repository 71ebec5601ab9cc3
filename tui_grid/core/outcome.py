"""How a game ends, as data: a result, a cause (an Enum), the seat it concerns and what goes
with it, put into words only when it is shown.

An engine says how a state stands with an `Outcome`. Its `cause` is a member of a cause
family. Core declares the game-free families: `Rule` (won, lost or drawn by the rules, no
more said) and `Fault` (a seat forfeits: its program could not start, crashed, gave no
answer in time or printed no move; its player left, disconnected, idled or conceded).
Each game declares its own family for its rules (Tron's crashes, Evasion's catch, a
puzzle solved): a subclass of `Cause` named by its key, `class TronCause(Cause,
family="tron")`, which says its own sentences (`Cause.sentence`), so every outcome reads
right wherever it is shown, headless or on a screen.

Outside text (a program's output, its command, its stderr) stays raw in `detail` and is
never rewritten: a sentence quotes it through `core.text.echo`, so control characters
show as escapes and long output is cut (its start, with its length: `quoted`), and no
markup is ever made of it. Who plays each seat comes in when the sentence is made
(`describe(outcome, names)`): one outcome reads "red crashed into a wall" headless and
"red (ann) crashed into a wall" on a screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Sequence

from tui_grid.core.text import ECHO_LIMIT, echo, printable

#: Characters of a player's name in a sentence, at most.
NAME_LIMIT = 40
#: Characters of a note (an error message that may quote outside text), at most.
NOTE_LIMIT = 200

Cell = tuple[int, int]


class Result(Enum):
    """How a game stands. WON/LOST are from the puzzle player's view; a multi-seat game
    names the winner in `Outcome.winner` and uses WON, or DRAW."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    DRAW = "draw"


# --- wording ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Wording:
    """How a sentence calls each seat: its word ("red", "the hunter") and, where known, the
    name of whoever plays it ("red (ann)")."""

    seat_words: tuple[str, ...] = ()
    names: tuple[str | None, ...] = ()

    def word(self, seat: int | None) -> str:
        """The seat's own word, never a player's name ("green's trail")."""
        if seat is None:
            return "nobody"
        if 0 <= seat < len(self.seat_words):
            return self.seat_words[seat]
        return f"seat {seat + 1}"

    def who(self, seat: int | None) -> str:
        """The seat's word with its player's name, when there is one to add."""
        word = self.word(seat)
        name = self.names[seat] if seat is not None and 0 <= seat < len(self.names) else None
        if not name or name == word:
            return word
        return f"{word} ({printable(name, limit=NAME_LIMIT)})"

    @property
    def named(self) -> bool:
        """Whether any seat's player is named."""
        return any(self.names)


def quote(text: str) -> str:
    """Outside text quoted in a sentence: one line, escaped, cut at `ECHO_LIMIT`."""
    return f"'{echo(text)}'"


def quoted(text: str) -> str:
    """Outside text quoted from its start, with its length when it is cut:
    "'LEFTLEFT…' (400 characters)"."""
    size = f" ({len(text):,} characters)" if len(text) > ECHO_LIMIT else ""
    return f"{quote(text)}{size}"


def said(text: str) -> str:
    """A note in a sentence: escaped, since it may quote outside text, and cut."""
    return echo(text, NOTE_LIMIT)


def number(value: float) -> str:
    """A number as a sentence says it: 3, 0.3, 2.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


# --- cause families -----------------------------------------------------------------------------
_FAMILIES: dict[str, type[Cause]] = {}
_KEYS: dict[type[Cause], str] = {}


class Cause(Enum):
    """Why a game ended: one member of a family. A family is a subclass with members, given
    its key (`class Crash(Cause, family="tron")`), and says its sentences (`sentence`)."""

    def __init_subclass__(cls, family: str = "", **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if not family or ":" in family:
            raise TypeError(f"{cls.__name__}: a cause family needs a key without ':' (family=...)")
        known = _FAMILIES.get(family)
        if known is not None and (known.__module__, known.__qualname__) != (cls.__module__, cls.__qualname__):
            raise TypeError(f"{cls.__name__}: the cause family {family!r} is {known.__qualname__}'s already")
        _FAMILIES[family] = cls
        _KEYS[cls] = family

    @property
    def key(self) -> str:
        """The cause as one word on the wire: "family:value" ("fault:crashed")."""
        return f"{_KEYS[type(self)]}:{self.value}"

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        """The outcome in words; a family says its own. This fallback names the result and
        the cause's value."""
        return f"{rule_sentence(outcome, words)}: {self.value}"


def cause_families() -> frozenset[str]:
    """The family keys declared so far (a game's, once its rules are imported)."""
    return frozenset(_FAMILIES)


def cause_named(key: str) -> Cause:
    """The cause a key names ("fault:crashed", "tron:wall"); KeyError when there is none
    (an unknown family, or a value the family does not have)."""
    family, _, value = key.partition(":")
    kind = _FAMILIES.get(family)
    if kind is None:
        raise KeyError(f"no cause family {family!r}")
    try:
        return kind(value)
    except ValueError:
        raise KeyError(f"no cause {value!r} in {family!r}") from None


class Rule(Cause, family="rule"):
    """Won, lost or drawn by the rules, with nothing more to say."""

    WON = "won"
    LOST = "lost"
    DRAW = "draw"

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        return rule_sentence(outcome, words)


def rule_sentence(outcome: Outcome, words: Wording) -> str:
    """The result alone: "red wins", "Won", "A draw"."""
    if outcome.result is Result.DRAW:
        return "A draw"
    if outcome.winner is not None:
        return f"{words.who(outcome.winner)} wins"
    if outcome.result is Result.LOST and outcome.seat is not None:
        return f"{words.who(outcome.seat)} loses"
    return "Won" if outcome.result is Result.WON else "Lost"


class Fault(Cause, family="fault"):
    """Why a seat forfeits: what its program or its player did."""

    COULD_NOT_START = "could_not_start"  # detail: the command; note: the system's error
    CRASHED = "crashed"  # numbers: (exit code,); note: when; detail: its last non-empty stderr line
    EXITED = "exited"  # as CRASHED, with code 0 or none known
    NO_ANSWER = "no_answer"  # numbers: (seconds,)
    LATE = "late"  # an answer past the deadline: detail: the answer as sent; numbers: (seconds taken, seconds allowed)
    OUT_OF_TIME = "out_of_time"  # a thinking clock ran out; numbers: (seconds in all,)
    # A program's: detail: the line; note: why it is no action. A line longer than the
    # reader reads has numbers: (that bound in bytes,), and detail holds only its start.
    BAD_OUTPUT = "bad_output"
    GARBAGE = "garbage"  # a network player's answer: detail: the line; note: why
    ILLEGAL = "illegal"  # detail: the action; note: why the rules refuse it
    LEFT = "left"
    DISCONNECTED = "disconnected"  # note: the system's error, when there was one
    IDLE = "idle"  # numbers: (seconds without a key,)
    CONCEDED = "conceded"
    FAILED = "failed"  # note: what went wrong, in our own words

    def sentence(self, outcome: Outcome, words: Wording) -> str:
        failure = Failure(self, outcome.detail, outcome.note, outcome.numbers)
        return f"{words.who(outcome.seat)} forfeits: {failure.phrase()}"


@dataclass(frozen=True)
class Failure:
    """Why a seat cannot go on: its fault and what goes with it. An agent raises it (in an
    `AgentError`), a session forfeits the seat with it, and the outcome keeps it whole."""

    fault: Fault
    detail: str = ""  # outside text, raw: a program's output, its command, its stderr
    note: str = ""  # what is wrong with it, or when
    numbers: tuple[float, ...] = ()

    def phrase(self) -> str:
        """What the seat did, after its name: "printed 'UP!', not one of LEFT RIGHT UP DOWN"."""
        return _PHRASES[self.fault](self)

    def outcome(self, seat: int, winner: int | None, seat_words: Sequence[str] = ()) -> Outcome:
        """The outcome in which `seat` has lost by this failure (and `winner` won)."""
        result = Result.LOST if winner is None else Result.WON
        return Outcome(result, self.fault, seat, winner, self.detail, self.note, self.numbers, seat_words=tuple(seat_words))

    @classmethod
    def of(cls, outcome: Outcome) -> Failure | None:
        """The failure an outcome ended by, if it ended by a forfeit."""
        if not isinstance(outcome.cause, Fault):
            return None
        return cls(outcome.cause, outcome.detail, outcome.note, outcome.numbers)


def _first(failure: Failure) -> float | None:
    return failure.numbers[0] if failure.numbers else None


def _ended(failure: Failure) -> str:
    """A program that crashed or exited: with what code, when, and its last words (its
    last stderr line, quoted as output is)."""
    verb = "crashed" if failure.fault is Fault.CRASHED else "exited"
    code = _first(failure)
    with_code = "" if code is None else f" with code {number(code)}"
    when = said(failure.note) if failure.note else "without answering"
    stderr = f"; stderr: {quoted(failure.detail)}" if failure.detail else ""
    return f"{verb}{with_code} {when}{stderr}"


def _printed(failure: Failure, verb: str) -> str:
    """Output that is no action: quoted when there is a line, with why. A line the reader
    stopped reading at its bound (`numbers`) is said to be longer than that, and its start
    quoted."""
    if not failure.detail:
        return f"{verb} {said(failure.note)}"
    bound = _first(failure)
    if bound is not None:
        return f"{verb} an output line longer than {number(bound)} bytes: {quote(failure.detail)}"
    why = f", {said(failure.note)}" if failure.note else ""
    return f"{verb} {quoted(failure.detail)}{why}"


def _within(failure: Failure) -> str:
    seconds = _first(failure)
    return "gave no answer in time" if seconds is None else f"gave no answer within {seconds:.3g} s"


def _late(failure: Failure) -> str:
    if len(failure.numbers) < 2:
        return f"answered {quote(failure.detail)} too late"
    taken, allowed = failure.numbers[:2]
    return f"answered {quote(failure.detail)} after {taken:.3g} s, past its {allowed:.3g} s"


def _out_of_time(failure: Failure) -> str:
    total = _first(failure)
    return "ran out of thinking time" + ("" if total is None else f" ({total:g} s in all)")


def _idle(failure: Failure) -> str:
    seconds = _first(failure)
    return "idled too long" if seconds is None else f"idled for {seconds:.0f} s"


def _illegal(failure: Failure) -> str:
    why = said(failure.note) if failure.note else "the rules refuse it"
    return f"played {quote(failure.detail)}: {why}" if failure.detail else f"played an illegal action: {why}"


_PHRASES: dict[Fault, Callable[[Failure], str]] = {
    Fault.COULD_NOT_START: lambda f: f"could not start {quote(f.detail)}: {said(f.note)}" if f.note else f"could not start {quote(f.detail)}",
    Fault.CRASHED: _ended,
    Fault.EXITED: _ended,
    Fault.NO_ANSWER: _within,
    Fault.LATE: _late,
    Fault.OUT_OF_TIME: _out_of_time,
    Fault.BAD_OUTPUT: lambda f: _printed(f, "printed"),
    Fault.GARBAGE: lambda f: _printed(f, "sent garbage:"),
    Fault.ILLEGAL: _illegal,
    Fault.LEFT: lambda f: "left the match",
    Fault.DISCONNECTED: lambda f: f"disconnected ({said(f.note)})" if f.note else "disconnected",
    Fault.IDLE: _idle,
    Fault.CONCEDED: lambda f: "conceded",
    Fault.FAILED: lambda f: said(f.note) if f.note else "failed",
}


# --- the outcome ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """How a game stands and, once over, why: the cause, the seat it concerns (who crashed,
    forfeited, was caught), and what goes with it for the sentence (`describe`).

    `seat_words` are how the engine's sentences call its seats ("red", "the hunter"); they
    say nothing about what happened, so they take no part in comparing two outcomes."""

    result: Result = Result.PLAYING
    cause: Cause | None = None
    seat: int | None = None
    winner: int | None = None  # seat index, for multi-seat games
    detail: str = ""  # outside text, raw (see the module docstring)
    note: str = ""
    numbers: tuple[float, ...] = ()  # what the sentence counts: moves, steps, seconds, an exit code
    cells: tuple[Cell, ...] = ()  # (row, col) cells the sentence names, in its order
    parts: tuple[Outcome, ...] = ()  # the ends it joins (both players crashing, each its own way)
    #: Each seat's finishing place (1 the best, ties share) where a game ranks more than two
    #: seats; empty where the result and winner say it all.
    places: tuple[int, ...] = ()
    seat_words: tuple[str, ...] = field(default=(), compare=False)

    @property
    def over(self) -> bool:
        return self.result is not Result.PLAYING

    def returns(self, seat: int, seats: int = 1) -> float:
        """+1 for a win, -1 for a loss, 0 for a draw or a game still going (OpenSpiel's `returns`)."""
        if self.result is Result.DRAW or self.result is Result.PLAYING:
            return 0.0
        if seats == 1:
            return 1.0 if self.result is Result.WON else -1.0
        return 1.0 if self.winner == seat else -1.0

    @property
    def failure(self) -> Failure | None:
        """The failure this outcome ended by, if a seat forfeited."""
        return Failure.of(self)

    @property
    def reason(self) -> str:
        """The sentence with the seats' own words and no names (`describe`)."""
        return describe(self)


PLAYING = Outcome()


def describe(outcome: Outcome, names: Sequence[str | None] | None = None, seat_words: Sequence[str] | None = None) -> str:
    """The outcome in one sentence, by its cause's family: `names` (per seat; None or a
    missing name: the seat's word alone) say who played, `seat_words` how the seats are
    called (the outcome's own by default). "" while the game is on."""
    if not outcome.over:
        return ""
    words = Wording(tuple(seat_words or outcome.seat_words), tuple(names or ()))
    cause = outcome.cause
    if cause is None:
        return rule_sentence(outcome, words)
    return cause.sentence(outcome, words)
