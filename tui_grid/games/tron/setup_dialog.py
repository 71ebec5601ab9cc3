"""Tron's setup: who plays (from the player table), the board, rounds, speed and the bots'
thinking time, chosen in a dialog that fits 80x24 and remembered between runs as JSON;
and the setup a screen opens with (`starting_setup`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Input, Select

from tui_grid.core.policy import Policy
from tui_grid.core.errors import UsageError
from tui_grid.core.players import check_player, split_player
from tui_grid.games.registry import parse_count
from tui_grid.games.tron.arena import MIN_CYCLES
from tui_grid.games.tron.board import MAX_CYCLES
from tui_grid.games.tron.definition import DEFAULT_TIME_MS
from tui_grid.games.tron.definition import GAME as TRON
from tui_grid.ui.plain import Plain, PlainInput, PlainLabel, styled
from tui_grid.ui.player_fields import KEYS_LINE, MatchSetupDialog, chosen_players, player_rows, show_command_fields, starting_player
from tui_grid.ui.settings import MAX_SPEED, MIN_SPEED

SETUP_FILE = "tron-setup.json"
MAX_ROUNDS = 99


BOARD_MODES = ("this", "new", "each")
#: People at one keyboard: the arrows and W A S D.
MAX_HUMANS = 2


@dataclass(frozen=True)
class TronSetup:
    """What the setup dialog chooses; saved as JSON in the data folder."""

    players: tuple[str, ...] = ("human", "easy")  # two to MAX_CYCLES: more than two ride an arena
    board: str = "this"  # "this" board, a "new" random map, a new map "each" round
    size: str = "15x15"
    walls: str = "12"
    rounds: int = 3
    speed: int = 5
    time_ms: int = DEFAULT_TIME_MS

    @classmethod
    def from_json(cls, data: Any) -> TronSetup:
        """A setup from saved JSON; anything missing or broken keeps its default."""
        default = cls()
        if not isinstance(data, dict):
            return default
        out = default
        players = data.get("players")
        if (isinstance(players, list) and MIN_CYCLES <= len(players) <= MAX_CYCLES and all(isinstance(p, str) for p in players)
                and sum(1 for p in players if p == "human") <= MAX_HUMANS):
            try:
                for player in players:
                    check_player(TRON, player)
                out = replace(out, players=tuple(players))
            except UsageError:
                pass
        if data.get("board") in BOARD_MODES:
            out = replace(out, board=data["board"])
        for key in ("size", "walls"):
            if isinstance(data.get(key), str):
                out = replace(out, **{key: data[key]})
        for key, low, high in (("rounds", 1, MAX_ROUNDS), ("speed", MIN_SPEED, MAX_SPEED), ("time_ms", 1, 60_000)):
            value = data.get(key)
            if isinstance(value, int) and low <= value <= high:
                out = replace(out, **{key: value})
        return out


def setup_path():  # type: ignore[no-untyped-def]
    from tui_grid.core.saves import data_dir

    return data_dir() / SETUP_FILE


def load_setup(default: TronSetup | None = None) -> TronSetup:
    """The remembered setup, or `default` when there is none (or it cannot be read)."""
    default = default or TronSetup()
    try:
        data = json.loads(setup_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default
    if not isinstance(data, dict):
        return default
    return replace(TronSetup.from_json(data), **({} if "speed" in data else {"speed": default.speed}))


def starting_setup(speed: int, players: Sequence[str] | None = None, rounds: int | None = None,
                   given: TronSetup | None = None) -> TronSetup:
    """The setup a Tron screen opens with: `given`, else without `players` (the app's, which
    asks the dialog next) the remembered one, else the defaults at `speed`; the `players`
    and `rounds` given override it. A remembered setup plays the board opened: one chosen
    from the list or on the command line is the one played, never a random map instead."""
    fresh = TronSetup(speed=speed)
    setup = given or (replace(load_setup(fresh), board="this") if players is None else fresh)
    if players is not None:
        setup = replace(setup, players=tuple(players))
    if rounds is not None:
        setup = replace(setup, rounds=rounds)
    return setup


def fit_players(setup: TronSetup, cycles: int) -> TronSetup:
    """`setup` with a player for each of `cycles` cycles: the last ones dropped, or bots of
    the last bot's level (else easy) added."""
    players = setup.players[:cycles]
    if len(players) < cycles:
        bots = [player for player in players if player in TRON.bot_levels]
        players += (bots[-1] if bots else "easy",) * (cycles - len(players))
    return replace(setup, players=players)


def save_setup(setup: TronSetup, policy: Policy) -> None:
    from tui_grid.core.saves import write

    try:
        write(setup_path(), json.dumps({**asdict(setup), "players": list(setup.players)}, indent=1) + "\n", policy=policy)
    except OSError:
        pass  # a read-only data folder only costs the memory of the choices


class TronSetupDialog(MatchSetupDialog[TronSetup | None]):
    """Cycles, seats, board, rounds and speed for a new match; fits 80x24 with eight.

    It opens with a row for each remembered player and adds rows when more cycles are
    chosen (a row hidden again keeps what was chosen in it): eight rows of lists cost
    Textual about 0.4 s of CPU to lay out, more than the rest of the dialog, and a duel
    needs two."""

    DEFAULT_CSS = """
    TronSetupDialog > Vertical { width: 100%; max-width: 130; }
    TronSetupDialog Grid { grid-columns: 17 1fr; }
    TronSetupDialog.-arena Grid { grid-gutter: 0 0; }
    TronSetupDialog .kind { width: 1fr; max-width: 30; }
    TronSetupDialog #board { width: 1fr; }
    """

    def __init__(self, setup: TronSetup, board_title: str) -> None:
        super().__init__()
        self.setup = setup
        self.board_title = board_title
        #: Each row's player before it is touched: the remembered ones, then bots (a row
        #: added never copies a person: two at most share the keyboard).
        self.seats = fit_players(setup, MAX_CYCLES).players
        self.rows = len(setup.players)  # the rows mounted so far
        self.rows_asked = self.rows  # the rows mounted or being mounted

    def player_row_count(self) -> int:
        return self.rows

    def _player_rows(self, first: int, stop: int) -> Iterator[Widget]:
        """Rows labelled "Player N"; `_sync_map_fields` adds the keys once they are mounted."""
        labels = [f"Player {index + 1}" for index in range(first, stop)]
        return player_rows(TRON, self.seats[first:stop], labels, self.app.policy.player_kinds, first=first)

    @staticmethod
    def _row_labels(kinds: Sequence[str]) -> list[str]:
        """"Player N" for each row, with the keys it steers with when one of the first two
        people plays it (a lone person may use either set: the about line says so)."""
        humans = [seat for seat, kind in enumerate(kinds) if kind == "human"][:MAX_HUMANS]
        keys = dict(zip(humans, (" (←↑↓→)", " (WASD)")))
        return [f"Player {index + 1}{keys.get(index, '')}" for index in range(len(kinds))]

    def compose(self) -> ComposeResult:
        setup = self.setup
        title = self.board_title if len(self.board_title) <= 40 else self.board_title[:39] + "…"
        with Vertical():
            yield Plain(styled(("New Tron match", "b")))
            with Grid():
                yield PlainLabel("Cycles")
                yield Select([("2, a duel", 2), *((f"{count}, an arena", count) for count in range(3, MAX_CYCLES + 1))],
                             value=len(setup.players), allow_blank=False, compact=True, id="cycles", classes="kind")
                yield from self._player_rows(0, self.rows)
                yield PlainLabel("Board", id="board-label")
                yield Select(
                    [(f"this board: {title}", "this"), ("a new random map", "new"), ("a new random map every round", "each")],
                    value=setup.board,
                    allow_blank=False,
                    compact=True,
                    id="board",
                )
                yield PlainLabel("Random map")
                with Horizontal():
                    yield Plain("size", classes="gap")
                    yield PlainInput(value=setup.size, compact=True, id="size", classes="short")
                    yield Plain("walls %", classes="gap")
                    yield PlainInput(value=setup.walls, compact=True, id="walls", classes="short")
                yield PlainLabel("Rounds")
                with Horizontal():
                    yield PlainInput(value=str(setup.rounds), compact=True, id="rounds", classes="short")
                    yield Plain("speed 1-9", classes="gap")
                    yield PlainInput(value=str(setup.speed), compact=True, id="speed", classes="short")
                    yield Plain("bot ms/move", classes="gap")
                    yield PlainInput(value=str(setup.time_ms), compact=True, id="time-ms", classes="short")
            yield Plain(id="about")
            yield Plain(id="error")
            with Horizontal(id="buttons"):
                yield Plain(KEYS_LINE, id="keys")
                yield Button("Start", variant="primary", compact=True, id="start")

    def on_mount(self) -> None:
        self._sync_map_fields()

    def on_select_changed(self) -> None:
        self._sync_map_fields()

    def _cycles(self) -> int:
        return int(self.query_one("#cycles", Select).value)  # type: ignore[arg-type]

    def _sync_map_fields(self) -> None:
        """A player row per cycle; the board and map fields only for a duel, the map's only
        for random maps; the bots' time only where a bot plays (the command fields are
        MatchSetupDialog's)."""
        cycles = self._cycles()
        if cycles > self.rows_asked:
            self._add_rows(cycles)
        for index in range(self.rows):
            for widget in self.query(f".player-{index}"):
                widget.display = index < cycles
        self.set_class(cycles > 2, "-arena")
        self.query_one("#board", Select).disabled = cycles > 2
        random_map = self.query_one("#board", Select).value != "this" and cycles == 2
        for name in ("size", "walls"):
            self.query_one(f"#{name}", Input).disabled = not random_map
        self.query_one("#time-ms", Input).disabled = not self._bot_plays()
        for index, label in enumerate(self._row_labels(self._kinds())[:self.rows]):
            self.query_one(f"PlainLabel.player-{index}", PlainLabel).update(label)
        about = ("Player 1 drives red in round 1; the seats swap every round." if cycles == 2 else
                 f"An arena for {cycles}: an open board that grows with the cycles, not the board above; the last one riding wins the round, and each "
                 "cycle it outlasted is a point. The seats turn every round.")
        self.query_one("#about", Plain).update(f"{about} The first human steers with ←↑↓→, a second with WASD. "
                                               "Programs speak HackerRank's Tron protocol (see ? help).")

    def _add_rows(self, cycles: int) -> None:
        """Mount the rows up to `cycles` above the board's; shown once they are."""
        first, self.rows_asked = self.rows_asked, cycles
        mounting = self.query_one(Grid).mount_all(list(self._player_rows(first, cycles)), before="#board-label")

        async def shown() -> None:
            await mounting
            self.rows = max(self.rows, cycles)
            self._sync_map_fields()
            show_command_fields(self, self.rows)

        self.call_later(shown)

    def _waiting_players(self) -> tuple[str, ...]:
        """The players of the cycles whose rows are still being mounted: each row's first."""
        kinds = self.app.policy.player_kinds
        return tuple(starting_player(TRON, seat, kinds) for seat in self.seats[self.rows:self._cycles()])

    def _players(self) -> tuple[str, ...]:
        """Each cycle's player as chosen; a row still being mounted holds its first player."""
        mounted = min(self._cycles(), self.rows)
        return chosen_players(self, TRON, mounted, self.app.policy.player_kinds) + self._waiting_players()

    def _kinds(self) -> list[str]:
        """Each cycle's kind of player as chosen (a row still being mounted: its first)."""
        chosen = [str(self.query_one(f"#kind-{index}", Select).value) for index in range(min(self._cycles(), self.rows))]
        return chosen + [split_player(TRON, player)[0] for player in self._waiting_players()]

    def _bot_plays(self) -> bool:
        """Whether a builtin bot is seated: only it has a thinking time to set."""
        return any(kind in TRON.bot_levels for kind in self._kinds())

    def chosen(self) -> TronSetup:
        """The setup as filled in; UsageError names the first bad field."""
        players = self._players()
        if sum(1 for player in players if player == "human") > MAX_HUMANS:
            raise UsageError(f"At most {MAX_HUMANS} humans share one keyboard (the arrows and WASD): make the others bots or programs.")
        board = str(self.query_one("#board", Select).value)
        size = self.query_one("#size", Input).value.strip()
        walls = self.query_one("#walls", Input).value.strip()
        if board != "this" and len(players) == 2:
            TRON.game_id_from_options({"size": size, "walls": walls}, 1)
        rounds = parse_count("rounds", self.query_one("#rounds", Input).value.strip(), 1, MAX_ROUNDS)
        speed = parse_count("speed", self.query_one("#speed", Input).value.strip())
        if speed > MAX_SPEED:
            raise UsageError(f"speed must be 1 to {MAX_SPEED}, got {speed}")
        time_ms = self.setup.time_ms  # no bot plays: a field that does nothing is never refused
        if self._bot_plays():
            time_ms = parse_count("bot ms/move", self.query_one("#time-ms", Input).value.strip(), 1, 60_000)
        return TronSetup(players, board, size, walls, rounds, speed, time_ms)
