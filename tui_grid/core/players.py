"""Who may fill a seat: one table of player kinds, for every game and every front end.

A player is written as text, the same on the command line, in a setup dialog and in a
saved setup: `human`, `bot:LEVEL` (or just `LEVEL`), `cmd:COMMAND` (one process per game),
`oneshot:COMMAND` (one process per move), `tcp` (a client of the architect's socket).
Each kind is one row of `PLAYER_KINDS` and makes one agent class; a game contributes only
its bots (`Roster.bot_levels`, `Roster.make_bot`), how a program talks to it
(`Roster.program_codec`) and its default players. A new kind of player is one class and
one row here, with no edit in any game.
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from tui_grid.core.policy import ALL_KINDS
from tui_grid.core.agents import Agent, Ask, HumanAgent
from tui_grid.core.errors import UsageError
from tui_grid.core.text import echo

#: How a program is sent a state and how its answer line is read (ValueError: garbage).
ProgramCodec = tuple[Callable[[Ask[Any, Any]], str], Callable[[str], Any]]


class Roster(Protocol):
    """What a game says about its players (GameDefinition implements it)."""

    key: str
    bot_levels: tuple[str, ...]

    def make_bot(self, level: str, context: "PlayerContext") -> Agent[Any, Any]: ...

    def program_codec(self) -> ProgramCodec | None: ...


@dataclass(frozen=True)
class PlayerContext:
    """Where a player is made: its participant number, a builtin bot's thinking time, a
    seed for bots that roll dice, and for network seats the agent the server connected."""

    participant: int = 0
    time_ms: float = 100.0
    seed: int | None = None  # None: the participant's number, so two bots differ
    network: Callable[[], Agent[Any, Any]] | None = None


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player: its kind's row, the value after the prefix, and the text as typed."""

    kind: str
    value: str
    text: str


class PlayerKind:
    """One row of the table: how its text looks, the agent it makes, its short name, and
    how a setup dialog offers it (`choice`; `takes_text`: a field for the value)."""

    name: str = ""
    prefix: str = ""  # "cmd:"; "" for a kind written as one word
    example: str = ""
    choice: str = ""
    takes_text: bool = False

    def value_of(self, text: str, game: Roster) -> str | None:
        """The value if `text` is this kind, else None; UsageError if it is but malformed."""
        return text[len(self.prefix) :].strip() if self.prefix and text.startswith(self.prefix) else None

    def make(self, spec: PlayerSpec, game: Roster, context: PlayerContext) -> Agent[Any, Any]:
        raise NotImplementedError

    def label(self, spec: PlayerSpec) -> str:
        return spec.text


class HumanKind(PlayerKind):
    name = "human"
    example = "human"
    choice = "human"

    def value_of(self, text: str, game: Roster) -> str | None:
        return "" if text == "human" else None

    def make(self, spec: PlayerSpec, game: Roster, context: PlayerContext) -> Agent[Any, Any]:
        return HumanAgent("you")

    def label(self, spec: PlayerSpec) -> str:
        return "you"


class BotKind(PlayerKind):
    name = "bot"
    prefix = "bot:"
    example = "bot:LEVEL"

    def value_of(self, text: str, game: Roster) -> str | None:
        level = super().value_of(text, game)
        if level is None:
            return text if text in game.bot_levels else None
        if level not in game.bot_levels:
            raise UsageError(f"{game.key} has no bot '{echo(level)}'; its bots: {', '.join(game.bot_levels)}")
        return level

    def make(self, spec: PlayerSpec, game: Roster, context: PlayerContext) -> Agent[Any, Any]:
        return game.make_bot(spec.value, context)

    def label(self, spec: PlayerSpec) -> str:
        return f"{spec.value} bot"


class ProgramKind(PlayerKind):
    """An external program on stdin/stdout, `cmd:` for a game, `oneshot:` for a move."""

    takes_text = True

    def __init__(self, prefix: str, mode: str, choice: str) -> None:
        self.name = prefix.rstrip(":")
        self.prefix = prefix
        self.mode = mode
        self.example = f"{prefix}COMMAND"
        self.choice = choice

    def value_of(self, text: str, game: Roster) -> str | None:
        command = super().value_of(text, game)
        if command is None:
            return None
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise UsageError(f"'{echo(text)}': bad command line: {exc}") from None
        if not argv:
            raise UsageError(f"{self.prefix} needs a command line, e.g. {self.prefix}python3 mybot.py")
        if game.program_codec() is None:
            raise UsageError(f"{game.key} does not run programs on stdin/stdout")
        return command

    def make(self, spec: PlayerSpec, game: Roster, context: PlayerContext) -> Agent[Any, Any]:
        from tui_grid.core.external import ExternalProgramAgent

        codec = game.program_codec()
        assert codec is not None
        encode, parse = codec
        try:
            return ExternalProgramAgent(spec.value, self.mode, encode, parse, name=self.label(spec))
        except ValueError as exc:
            raise UsageError(f"'{echo(spec.text)}': {exc}") from None

    def label(self, spec: PlayerSpec) -> str:
        return program_label(spec.value)


class NetworkKind(PlayerKind):
    """A client on the server's socket; the server makes the agent once it connects."""

    name = "tcp"
    example = "tcp"

    def value_of(self, text: str, game: Roster) -> str | None:
        return "" if text == "tcp" else None

    def make(self, spec: PlayerSpec, game: Roster, context: PlayerContext) -> Agent[Any, Any]:
        if context.network is None:
            raise UsageError("a tcp player joins through a server: tui-grid serve")
        return context.network()

    def label(self, spec: PlayerSpec) -> str:
        return "tcp client"


#: The table. Order matters only for help texts.
PLAYER_KINDS: tuple[PlayerKind, ...] = (
    HumanKind(),
    BotKind(),
    ProgramKind("cmd:", "persistent", "program (one run per round)"),
    ProgramKind("oneshot:", "oneshot", "program (one run per move)"),
    NetworkKind(),
)
KINDS_BY_NAME = {kind.name: kind for kind in PLAYER_KINDS}
def check_player(game: Roster, text: str, kinds: Sequence[str] = ALL_KINDS) -> str:
    """A player text this app may seat, stripped (UsageError names the choices)."""
    parse_player(game, text, kinds)
    return text.strip()


def dialog_choices(game: Roster, kinds: Sequence[str]) -> list[tuple[str, str]]:
    """(label, choice) pairs for a setup dialog's list: each bot level, each other kind."""
    out: list[tuple[str, str]] = []
    for kind in PLAYER_KINDS:
        if kind.name not in kinds:
            continue
        if kind.name == "bot":
            out.extend((f"{level} bot", level) for level in game.bot_levels)
        elif not (isinstance(kind, ProgramKind) and game.program_codec() is None):
            out.append((kind.choice, kind.name))
    return out


def split_player(game: Roster, text: str) -> tuple[str, str]:
    """A player text as (dialog choice, text field): ("hard", ""), ("cmd", "python3 b.py")."""
    spec = parse_player(game, text)
    if spec.kind == "bot":
        return spec.value, ""
    return spec.kind, spec.value


def join_player(choice: str, text: str) -> str:
    """The player text for a dialog's choice and text field (UsageError when it needs text)."""
    kind = KINDS_BY_NAME.get(choice)
    if kind is None or not kind.takes_text:
        return choice
    if not text.strip():
        raise UsageError("type the program's command line")
    return f"{kind.prefix}{text.strip()}"


def takes_text(choice: str) -> bool:
    kind = KINDS_BY_NAME.get(choice)
    return kind is not None and kind.takes_text


def player_choices(game: Roster, kinds: Sequence[str] | None = None) -> str:
    """The players a game takes, for help and error texts."""
    words = []
    for kind in PLAYER_KINDS:
        if kinds is not None and kind.name not in kinds:
            continue
        if kind.name == "bot":
            words.extend(game.bot_levels)
        elif isinstance(kind, ProgramKind) and game.program_codec() is None:
            continue
        else:
            words.append(kind.example)
    return ", ".join(words)


def parse_player(game: Roster, text: str, kinds: Sequence[str] | None = None) -> PlayerSpec:
    """A player text as a spec; `kinds` limits which rows are allowed here (the app has no
    tcp seats). UsageError names the choices."""
    text = text.strip()
    for kind in PLAYER_KINDS:
        if kinds is not None and kind.name not in kinds:
            continue
        value = kind.value_of(text, game)
        if value is not None:
            return PlayerSpec(kind.name, value, text)
    raise UsageError(f"unknown {game.key} player '{echo(text)}'; use {player_choices(game, kinds)}")


def make_player(game: Roster, text: str, context: PlayerContext | None = None, kinds: Sequence[str] | None = None) -> Agent[Any, Any]:
    """The agent for a player text."""
    spec = parse_player(game, text, kinds)
    return KINDS_BY_NAME[spec.kind].make(spec, game, context or PlayerContext())


def check_program_found(game: Roster, text: str) -> None:
    """Headless, a program player whose program is not there is a mistake in the command
    line, said before any game (UsageError); a screen seats it and shows its forfeit."""
    spec = parse_player(game, text)
    if not isinstance(KINDS_BY_NAME[spec.kind], ProgramKind):
        return
    program = shlex.split(spec.value)[0]
    if shutil.which(program) is None:
        where = "not an executable file" if os.sep in program else "not found on PATH"
        raise UsageError(f"'{echo(text)}': no program '{echo(program)}' ({where})")


def player_label(game: Roster, text: str) -> str:
    """A short name for a player: "you", "easy bot", "mybot.py"..."""
    spec = parse_player(game, text)
    return KINDS_BY_NAME[spec.kind].label(spec)


def is_program(game: Roster, text: str) -> bool:
    return isinstance(KINDS_BY_NAME[parse_player(game, text).kind], ProgramKind)


def participant_names(game: Roster, players: Sequence[str]) -> list[str]:
    """Names for the participants of a match; those alike are told apart by their number."""
    specs = [parse_player(game, text) for text in players]
    humans = sum(1 for spec in specs if spec.kind == "human")
    names = []
    for index, spec in enumerate(specs):
        if spec.kind == "human" and humans > 1:
            names.append(f"player {index + 1}")
        else:
            names.append(KINDS_BY_NAME[spec.kind].label(spec))
    return told_apart(names)


def told_apart(names: Sequence[str]) -> list[str]:
    """Names alike (two "easy bot"s) with their seat's number after them."""
    return [f"{name} ({index + 1})" if names.count(name) > 1 else name for index, name in enumerate(names)]


def program_label(command: str) -> str:
    """A program's short name from its command line: the script, not the interpreter."""
    argv = shlex.split(command)
    if _base(argv[0]) == "env" and len(argv) > 1:
        argv = argv[1:]
    name = _base(argv[0])
    if _is_interpreter(argv[0]) and len(argv) > 1:
        if "-m" in argv[1:-1]:
            name = argv[argv.index("-m", 1) + 1].rsplit(".", 1)[-1]
        elif "-c" in argv[1:]:
            name = f"{name} -c"
        else:
            name = _base(next((arg for arg in argv[1:] if not arg.startswith("-")), argv[0]))
    return name if len(name) <= 24 else name[:23] + "…"


def _base(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1] or path


def _is_interpreter(program: str) -> bool:
    base = program.rsplit("/", 1)[-1]
    return base.startswith(("python", "pypy", "node", "ruby", "perl", "java", "bash", "sh")) or base in ("env", "uv", "deno")
