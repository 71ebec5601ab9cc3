"""The games tui_grid knows, found by key; UI-free so the CLI never loads textual.

A game is a `GameDefinition`: a small required core (identity, help, an engine, the setup
options and who may fill each seat) plus optional capabilities, each a mixin: board files
(`BoardFiles`), a generator (`Generated`), a planner for hints (`Plannable`) and a full
solver (`Solvable`), and verbs of its own
(`verbs()`, e.g. `tui-grid tron bot`). The CLI and the menu offer only what a game has.
"""

from __future__ import annotations

from contextlib import contextmanager

import argparse
import importlib
import math
import pkgutil
import random
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from tui_grid.core.agents import Agent
from tui_grid.core.boardfile import BoardText, format_board_file
from tui_grid.core.catalog import BoardEntry, list_boards, read_board_arg
from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Engine, Plan
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.match import Ending, MatchScore, MatchVerdict, most_wins, verdict
from tui_grid.core.outcome import Cause, Outcome, cause_families, cause_named, describe
from tui_grid.core.players import PlayerContext, ProgramCodec, make_player
from tui_grid.core.text import echo
from tui_grid.core.words import article

PLAYED_KEY = "played"


@dataclass(frozen=True)
class GameOption:
    """One setup option, declared once: a field of the "new board" dialog and a flag of
    `tui-grid generate GAME`. `choices` makes it a fixed list."""

    key: str
    label: str
    default: str
    help: str = ""
    choices: tuple[str, ...] = ()
    metavar: str = "VALUE"

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        extra: dict[str, Any] = {"choices": self.choices} if self.choices else {"metavar": self.metavar}
        parser.add_argument(self.flag, dest=self.key, default=self.default, help=f"{self.help} (default {self.default})", **extra)


SEED_OPTION_HELP = "random seed (default: a new one)"


@dataclass(frozen=True)
class LoadedBoard:
    """A parsed board with its name for titles and, when generated, its game id; `played`
    holds the moves of a saved game in the game's action encoding."""

    board: Any
    name: str
    title: str
    game_id: str = ""
    meta: Mapping[str, str] = field(default_factory=dict)
    played: str = ""
    source: str = ""
    meta_lines: Mapping[str, int] = field(default_factory=dict)
    meta_columns: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class OnlinePlay:
    """How a game is played in the online lobby: its usual board (a quick match's), and
    its name where space is short."""

    default_board: str
    short_title: str


@dataclass(frozen=True)
class DemoScene:
    """A scene of the attract mode: a board (a game id, `{seed}` filled in per cycle), who
    plays (None: the solver watches; else the match's bots), a title and a caption."""

    title: str
    board: str
    caption: str
    players: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Verb:
    """A command of one game: `tui-grid VERB GAME ...` and `tui-grid GAME VERB ...`."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


class GameDefinition(ABC):
    """What every game offers the CLI and the app; the screen class is imported lazily."""

    key: str  # the name of the game's package under tui_grid.games
    title: str
    tagline: str
    screen_path: str  # "module:Class", imported only by the app
    #: Place in the menu and in listings, smallest first.
    order: int = 100
    #: Setup options: the "new board" dialog and `tui-grid generate` flags.
    options: tuple[GameOption, ...] = ()
    #: The game's builtin bots, weakest first (`bot:LEVEL` or `LEVEL` in a player text);
    #: every other kind of player comes from core.players.
    bot_levels: tuple[str, ...] = ()
    #: Who fills each participant when nobody chose.
    default_players: tuple[str, ...] = ("human",)
    #: Whether headless `watch` prints every animation frame of a move (Bunny: a run is one
    #: move of many steps), not only the state after each move.
    watch_frames: bool = False
    #: How the game is played online (None: it is not).
    online: OnlinePlay | None = None
    #: Its scenes in the attract mode (`tui-grid demo`).
    demo_scenes: tuple[DemoScene, ...] = ()
    #: How its sentences call the seats ("red", "the hunter"); a puzzle's one seat goes unnamed.
    seat_words: tuple[str, ...] = ()

    @abstractmethod
    def help_markdown(self) -> str:
        """Rules of the game, shown on its help screen above the keys."""

    @abstractmethod
    def make_engine(self, loaded: LoadedBoard) -> Engine[Any, Any]:
        """The rules on this board."""

    def make_bot(self, level: str, context: PlayerContext) -> Agent[Any, Any]:
        """One of `bot_levels` (core.players checked the level)."""
        raise UsageError(f"{self.title} has no bots")

    def describe_outcome(self, outcome: Outcome, names: Sequence[str | None] | None = None) -> str:
        """The outcome in one sentence, as every front end shows it. `names`: who plays each
        seat ("red (ann) crashed…"); without them, or for a seat without one, the seat's
        own word ("red crashed…"). By default the cause's family says it (`Cause.sentence`)."""
        return describe(outcome, names, self.seat_words or None)

    def match_winner(self, score: MatchScore) -> int | None:
        """Who wins a match played out (a participant; None: a draw): by default, whoever
        won the most rounds. The one rule the match screen, the hub and a server use."""
        return most_wins(score)

    def match_summary(self, score: MatchScore) -> str:
        """The match's rounds in a few words, after its verdict."""
        return score.summary()

    def match_verdict(self, score: MatchScore, ending: Ending = Ending.PLAYED, by: int | None = None,
                      detail: str = "") -> tuple[MatchVerdict, str]:
        """The verdict and its sentence."""
        found = verdict(score, self.match_winner, ending, by, detail)
        return found, found.text(score.names, self.match_summary(score))

    def program_codec(self) -> ProgramCodec | None:
        """How an external program is sent a state and read; None: no programs."""
        return None

    def make_agent(self, player: str, context: PlayerContext | None = None, kinds: Sequence[str] | None = None) -> Agent[Any, Any]:
        """The agent for a player text (core.players); UsageError for a bad one."""
        return make_player(self, player, context, kinds)

    def load(self, arg: str) -> LoadedBoard:
        """A BOARD argument; games without boards or ids say so."""
        raise UsageError(f"{self.title} has no boards to load")

    def verbs(self) -> tuple[Verb, ...]:
        return ()

    def draw(self, engine: Engine[Any, Any], state: Any) -> str:
        """The state as plain text, for `watch` and `replay`."""
        return engine.observation(state, 0)

    def screen_class(self) -> type:
        module, _, name = self.screen_path.partition(":")
        return getattr(importlib.import_module(module), name)

    def prepare(self) -> None:
        """Work done once, before a server forks sessions from this process: the screen
        imported, and whatever the game loads on first use (a compiled kernel) loaded, so
        every session shares it instead of loading its own."""
        self.screen_class()

    # --- saved games ------------------------------------------------------------------------
    def start(self, loaded: LoadedBoard) -> tuple[Engine[Any, Any], list[dict[int, Any]]]:
        """The engine and the saved moves to replay (checked: a bad `played:` is a BoardError)."""
        engine = self.make_engine(loaded)
        if not loaded.played:
            return engine, []
        try:
            return engine, engine.parse_log(loaded.played)
        except ValueError as exc:
            line = loaded.meta_lines.get(PLAYED_KEY, 1)
            column = loaded.meta_columns.get(PLAYED_KEY, 1) + getattr(exc, "offset", 0)  # at the bad step
            raise BoardError(loaded.source or loaded.name, line, column, f"played: {exc}") from None

    def state_after(self, loaded: LoadedBoard) -> tuple[Engine[Any, Any], Any]:
        engine, steps = self.start(loaded)
        return engine, engine.replay(steps)[-1]


class BoardFiles(ABC):
    """Capability: boards from files (a path, a shipped name, `-`), saved games included."""

    key: str

    @abstractmethod
    def parse(self, text: BoardText) -> Any:
        """Check and convert board rows; raises BoardError."""

    @abstractmethod
    def board_rows(self, board: Any) -> tuple[str, ...]:
        """The board in file characters, for previews, saves and `generate`."""

    def preview_rows(self, board: Any) -> tuple[str, ...]:
        """Rows for the board picker's preview; a game may make invisible cells visible."""
        return self.board_rows(board)

    #: Header keys that give an answer away: hidden from previews until asked.
    spoiler_keys: tuple[str, ...] = ()

    def boards(self) -> list[BoardEntry]:
        return list_boards(self.key)

    def load(self, arg: str) -> LoadedBoard:
        if isinstance(self, Generated) and self.is_game_id(arg):
            return self.load_id(arg)
        if re.match(r"^[a-z]+:", arg) and not arg.startswith(f"{self.key}:"):
            other = arg.split(":", 1)[0]
            raise UsageError(f"{echo(arg)}: that is {article(other)} game id; this wants {article(self.key)} board")
        text = read_board_arg(self.key, arg)
        return self.loaded_from_text(text, arg)

    def loaded_from_text(self, text: BoardText, arg: str = "") -> LoadedBoard:
        other = text.meta.get("game", self.key)
        if other != self.key:  # another game's file is named so, not refused by our parser
            raise BoardError(text.source, text.meta_lines.get("game", 1), text.meta_columns.get("game", 1),
                             f"this file is {article(echo(other))} game, not {article(self.key)} one: open it as {echo(other)}")
        board = self.parse(text)
        name = arg if arg == "-" else re.sub(r"\.txt$", "", (arg or text.source).rsplit("/", 1)[-1])
        meta = dict(text.meta)
        return LoadedBoard(
            board,
            name,
            text.title or name,
            game_id=meta.get("id", ""),
            meta=meta,
            played=meta.get(PLAYED_KEY, ""),
            source=text.source,
            meta_lines=dict(text.meta_lines),
            meta_columns=dict(text.meta_columns),
        )

    def save_text(self, loaded: LoadedBoard, played: str) -> str:
        """The board file of a game in progress: its board, its header, and its moves."""
        meta = {"game": self.key, **{key: value for key, value in loaded.meta.items() if key != PLAYED_KEY}}
        meta.setdefault("title", loaded.title)
        if loaded.game_id:
            meta.setdefault("id", loaded.game_id)
        if played:
            meta[PLAYED_KEY] = played
        return format_board_file(self.board_rows(loaded.board), self.file_meta(loaded.board, meta))

    def file_meta(self, board: Any, meta: dict[str, str]) -> dict[str, str]:
        """Header lines a board file needs to keep its meaning (ice: `size:`)."""
        return meta


@contextmanager
def usage_errors() -> Iterator[None]:
    """A generator's ValueError (a bad id, an impossible request) as the one-line
    UsageError every front end reports."""
    try:
        yield
    except ValueError as exc:
        raise UsageError(str(exc)) from None


class Generated(ABC):
    """Capability: random boards from the `options`, reproducible from a game id."""

    key: str
    title: str
    options: tuple[GameOption, ...]

    def is_game_id(self, arg: str) -> bool:
        return arg.startswith(f"{self.key}:")

    @abstractmethod
    def board_from_id(self, game_id: str, control: SearchControl | None = None) -> Any:
        """Regenerate a board from a game id; raises UsageError on a bad id."""

    @abstractmethod
    def game_id_from_options(self, values: Mapping[str, str], seed: int) -> str:
        """Validate option values (dialog or CLI) into a game id; raises UsageError."""

    def check_game_id(self, game_id: str) -> None:
        """Refuse a game id no board can come from, at once and without generating (the
        dialog keeps its fields and says why inline); raises UsageError."""

    def load_id(self, game_id: str, control: SearchControl | None = None) -> LoadedBoard:
        return LoadedBoard(self.board_from_id(game_id, control), game_id, game_id, game_id=game_id)

    def generated_meta(self, board: Any) -> dict[str, str]:
        """Extra header lines for generated boards (size, known answer...)."""
        return {}

    def generate_file(self, game_id: str, control: SearchControl | None = None) -> str:
        board = self.board_from_id(game_id, control)
        assert isinstance(self, BoardFiles)
        meta = {"title": game_id, "id": game_id, **self.generated_meta(board)}
        return format_board_file(self.board_rows(board), self.file_meta(board, meta))

    def id_from_args(self, args: argparse.Namespace) -> str:
        seed = parse_seed(args.seed) if args.seed is not None else random.randrange(1, 1_000_000)
        return self.game_id_from_options({option.key: getattr(args, option.key) for option in self.options}, seed)


class Plannable(ABC):
    """Capability: a solver or bot that plans for a seat: the hint key, and for a Solvable
    game solve and watch too."""

    @abstractmethod
    def plan(self, engine: Engine[Any, Any], state: Any, seat: int, control: SearchControl) -> Plan[Any]:
        """The actions the solver plays for `seat` from `state` (hint, solve, watch) and
        what to say of them."""


class Solvable(Plannable):
    """Capability: a solver, for `solve`, `watch`, hints and the solve key."""

    @abstractmethod
    def solve_record(self, engine: Engine[Any, Any], state: Any, control: SearchControl | None = None, **options: Any) -> dict[str, Any]:
        """The exact JSON object `tui-grid solve GAME BOARD --json` prints."""

    @abstractmethod
    def solve_drawing(self, engine: Engine[Any, Any], state: Any, record: dict[str, Any], control: SearchControl | None = None) -> str:
        """A readable picture of the answer, for `solve` without --json."""

    def add_solve_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Options of `tui-grid solve GAME` beyond --json."""


# --- the catalogue: games register themselves -------------------------------------------------
def _discover() -> dict[str, str]:
    """Every package under tui_grid.games with a `definition` module is a game (its `GAME`);
    found by looking, with nothing imported, so a new game is its folder."""
    import tui_grid.games as package

    found = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg and any((Path(root) / info.name / "definition.py").is_file() for root in package.__path__):
            found[info.name] = f"{package.__name__}.{info.name}.definition"
    return found


_modules: dict[str, str] = _discover()
_cache: dict[str, GameDefinition] = {}


def get_game(key: str) -> GameDefinition:
    if key not in _modules:
        raise UsageError(f"unknown game '{echo(key)}'; choose from: {', '.join(game_keys())}")
    if key not in _cache:
        _cache[key] = importlib.import_module(_modules[key]).GAME
    return _cache[key]


def all_games() -> list[GameDefinition]:
    """Every game, in the menu's order (each definition's `order`, then its key)."""
    return sorted((get_game(key) for key in _modules), key=lambda game: (game.order, game.key))


def game_keys() -> tuple[str, ...]:
    return tuple(game.key for game in all_games())


def outcome_cause(key: str) -> Cause:
    """The cause a key names ("fault:crashed", "tron:wall"), the game's rules loaded first
    when the family is a game's; KeyError when there is no such cause."""
    family = key.partition(":")[0]
    if family not in cause_families() and family in _modules:
        get_game(family)  # its rules declare its causes
    return cause_named(key)


def online_games() -> tuple[str, ...]:
    """The games played online, in the menu's order."""
    return tuple(game.key for game in all_games() if game.online is not None)


# --- option parsing, one place for every game ------------------------------------------------------
def parse_seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"seed must be a whole number, got '{echo(text)}'") from None


def parse_size_option(text: str) -> tuple[int, int]:
    """A `WxH` option or dialog field, as a usage error when malformed."""
    from tui_grid.core.boardfile import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise UsageError(f"size: {exc}") from None


def parse_seconds(name: str, text: str, most: float, *, zero: bool = False) -> float:
    """A duration option: a finite number of seconds up to `most` (zero only if allowed)."""
    try:
        value = float(text) if "_" not in text else float("nan")
    except ValueError:
        raise UsageError(f"{name} must be a number of seconds, got '{echo(text)}'") from None
    low_ok = value >= 0 if zero else value > 0
    if not math.isfinite(value) or not low_ok or value > most:
        low = "between 0 and" if zero else "more than 0 and at most"
        raise UsageError(f"{name} must be {low} {most:g} seconds, got {text}")
    return value


def parse_count(name: str, text: str, minimum: int = 1, maximum: int | None = None) -> int:
    """A whole-number option or dialog field of at least `minimum` (and at most `maximum`)."""
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{name} must be a whole number, got '{echo(text)}'") from None
    if value < minimum:
        raise UsageError(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise UsageError(f"{name} must be at most {maximum}, got {value}")
    return value
