"""The Tron screen: the shared match shell (rounds, seats swapped, tick clock with pause,
step and speed) plus the arena, two sets of steering keys, a live hint from the hard bot,
and the setup dialog that seats the players.

Keys belong to participants, not seats: player 1 steers with the arrows and player 2 with
W A S D in every round, whichever colour they drive; a lone human may use either set.
Turns pressed within one tick queue up (at most three) and are played one per tick; a key
straight back the way the cycle came is ignored, since it could only crash.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import asdict, dataclass, replace
from typing import Any, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from tui_grid.core.agents import Agent
from tui_grid.core.control import SearchControl
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.geometry import Direction, Pos
from tui_grid.core.players import LOCAL_KINDS, PlayerContext, dialog_choices, is_program, join_player, split_player, takes_text
from tui_grid.games.registry import GameDefinition, LoadedBoard, parse_count
from tui_grid.games.tron.definition import DEFAULT_TIME_MS, check_player
from tui_grid.games.tron.definition import GAME as TRON
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.rules import SEAT_NAMES, TronState
from tui_grid.ui.board_view import BoardView
from tui_grid.ui.game_screen import Hint
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.keys import Key
from tui_grid.ui.match_screen import TICK_FACTOR, MatchScreen, match_keymap
from tui_grid.ui.settings import MAX_SPEED, MIN_SPEED, Settings

SETUP_FILE = "tron-setup.json"
#: Seconds an external program may take per move in the app, whatever the tick.
PROGRAM_TIMEOUT = 2.0
#: Seconds a builtin bot may run over its thinking time before its seat drives straight on.
BOT_SLACK = 0.5
#: Seconds before a match of bots goes on to its next round by itself.
AUTO_NEXT_SECONDS = 3.0
MAX_ROUNDS = 99

TILES = {"-": ("  ", "floor"), "#": ("██", "wall"), "r": ("░░", "red-trail"), "g": ("▒▒", "green-trail")}
HEAD_KINDS = ("red-head", "green-head")
HEAD_LETTERS = ("R", "G")
CRASH = ("X ", "crash")
HINT_MARK = ("◆ ", "hint")

ARROW_KEYS = (("up", "u"), ("down", "d"), ("left", "l"), ("right", "r"))
WASD_KEYS = (("w", "u"), ("s", "d"), ("a", "l"), ("d", "r"))
OWN_KEYS = tuple(
    Key(name, f"drive({letter!r}, 0)", "Steer" if index == 0 else f"Steer {name}", "player 1: steer (a lone human may use either set)",
        display="←↑↓→", show=index == 0)
    for index, (name, letter) in enumerate(ARROW_KEYS)
) + tuple(
    Key(name, f"drive({letter!r}, 1)", "Steer" if index == 0 else f"Steer {name}", "player 2: steer with W A S D", display="WASD", show=index == 0)
    for index, (name, letter) in enumerate(WASD_KEYS)
) + (Key("n", "setup", "New", "new match: choose the players, the board, the rounds and the speed"),)


# --- the setup, remembered between runs ------------------------------------------------------------
BOARD_MODES = ("this", "new", "each")


@dataclass(frozen=True)
class TronSetup:
    """What the setup dialog chooses; saved as JSON in the data folder."""

    players: tuple[str, str] = ("human", "easy")
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
        if isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players):
            try:
                for player in players:
                    check_player(player)
                out = replace(out, players=(players[0], players[1]))
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


def save_setup(setup: TronSetup) -> None:
    from tui_grid.core.saves import write

    try:
        write(setup_path(), json.dumps({**asdict(setup), "players": list(setup.players)}, indent=1) + "\n")
    except OSError:
        pass  # a read-only data folder only costs the memory of the choices


class TronSetupDialog(ModalScreen[TronSetup | None]):
    """Seats, board, rounds and speed for a new match; fits 80x24."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    TronSetupDialog { align: center middle; }
    TronSetupDialog > Vertical {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    TronSetupDialog Grid { grid-size: 2; grid-columns: 17 1fr; grid-rows: 1; grid-gutter: 1 0; height: auto; margin: 1 0 0 0; }
    TronSetupDialog Grid Horizontal { height: 1; }
    TronSetupDialog .kind { width: 30; }
    TronSetupDialog .command { width: 1fr; margin-left: 1; }
    TronSetupDialog #board { width: 1fr; }
    TronSetupDialog .short { width: 9; }
    TronSetupDialog .gap { width: auto; padding: 0 1 0 2; color: $text-muted; }
    TronSetupDialog #about { color: $text-muted; height: auto; margin: 1 0 0 0; }
    TronSetupDialog #error { color: $error; height: auto; }
    TronSetupDialog #buttons { height: 1; margin-top: 1; }
    TronSetupDialog #keys { width: 1fr; color: $text-muted; }
    """

    def __init__(self, setup: TronSetup, board_title: str) -> None:
        super().__init__()
        self.setup = setup
        self.board_title = board_title

    def compose(self) -> ComposeResult:
        setup = self.setup
        title = self.board_title if len(self.board_title) <= 40 else self.board_title[:39] + "…"
        with Vertical():
            yield Static("[b]New Tron match[/b]")
            with Grid():
                for index, keys in enumerate(("←↑↓→", "WASD")):
                    kind, command = split_player(TRON, setup.players[index])
                    yield Label(f"Player {index + 1} ({keys})")
                    with Horizontal():
                        yield Select(dialog_choices(TRON, LOCAL_KINDS), value=kind, allow_blank=False, compact=True, id=f"kind-{index}", classes="kind")
                        yield Input(value=command, placeholder="command line, e.g. python3 bot.py", compact=True, id=f"command-{index}", classes="command")
                yield Label("Board")
                yield Select(
                    [(f"this board: {title}", "this"), ("a new random map", "new"), ("a new random map every round", "each")],
                    value=setup.board,
                    allow_blank=False,
                    compact=True,
                    id="board",
                )
                yield Label("Random map")
                with Horizontal():
                    yield Static("size", classes="gap")
                    yield Input(value=setup.size, compact=True, id="size", classes="short")
                    yield Static("walls %", classes="gap")
                    yield Input(value=setup.walls, compact=True, id="walls", classes="short")
                yield Label("Rounds")
                with Horizontal():
                    yield Input(value=str(setup.rounds), compact=True, id="rounds", classes="short")
                    yield Static("speed 1-9", classes="gap")
                    yield Input(value=str(setup.speed), compact=True, id="speed", classes="short")
                    yield Static("bot ms/move", classes="gap")
                    yield Input(value=str(setup.time_ms), compact=True, id="time-ms", classes="short")
            yield Static("Player 1 drives red in round 1; the seats swap every round. Programs speak HackerRank's Tron protocol (see ? help).", id="about")
            yield Static(id="error")
            with Horizontal(id="buttons"):
                yield Static("enter starts · esc cancels · tab moves", id="keys")
                yield Button("Start", variant="primary", compact=True, id="start")

    def on_mount(self) -> None:
        self._sync()
        self.query_one("#start", Button).focus()

    def on_select_changed(self) -> None:
        self._sync()

    def _sync(self) -> None:
        """Command fields only for programs, map fields only for random maps."""
        for index in (0, 1):
            kind = self.query_one(f"#kind-{index}", Select).value
            self.query_one(f"#command-{index}", Input).display = takes_text(str(kind))
        random_map = self.query_one("#board", Select).value != "this"
        for name in ("size", "walls"):
            self.query_one(f"#{name}", Input).disabled = not random_map

    def on_input_submitted(self) -> None:
        self._start()

    def on_button_pressed(self) -> None:
        self._start()

    def _start(self) -> None:
        try:
            setup = self.chosen()
        except UsageError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        self.dismiss(setup)

    def chosen(self) -> TronSetup:
        """The setup as filled in; UsageError names the first bad field."""
        players = []
        for index in (0, 1):
            kind = str(self.query_one(f"#kind-{index}", Select).value)
            try:
                player = check_player(join_player(kind, self.query_one(f"#command-{index}", Input).value))
            except UsageError as exc:
                raise UsageError(f"Player {index + 1}: {exc}") from None
            players.append(player)
        board = str(self.query_one("#board", Select).value)
        size = self.query_one("#size", Input).value.strip()
        walls = self.query_one("#walls", Input).value.strip()
        if board != "this":
            TRON.game_id_from_options({"size": size, "walls": walls}, 1)
        rounds = parse_count("rounds", self.query_one("#rounds", Input).value.strip())
        if rounds > MAX_ROUNDS:
            raise UsageError(f"rounds must be at most {MAX_ROUNDS}, got {rounds}")
        speed = parse_count("speed", self.query_one("#speed", Input).value.strip())
        if speed > MAX_SPEED:
            raise UsageError(f"speed must be 1 to {MAX_SPEED}, got {speed}")
        time_ms = parse_count("bot ms/move", self.query_one("#time-ms", Input).value.strip())
        if time_ms > 60_000:
            raise UsageError(f"bot ms/move must be at most 60000, got {time_ms}")
        return TronSetup((players[0], players[1]), board, size, walls, rounds, speed, time_ms)

    def action_cancel(self) -> None:
        self.dismiss(None)


def name_seats(reason: str, names: dict[str, str]) -> str:
    """The engine's reason with each seat's player named at its first mention:
    "red crashed into green's trail: green wins" -> "red (you) crashed into green's
    trail: green (easy bot) wins"."""
    done: set[str] = set()

    def name(match: re.Match[str]) -> str:
        seat = match.group(1)
        if seat in done or seat not in names:
            return seat
        done.add(seat)
        return f"{seat} ({names[seat]})"

    return re.sub(r"\b(red|green)\b(?!')", name, reason)


# --- the arena ---------------------------------------------------------------------------------------
class TronBoardView(BoardView):
    #: This game's colours; each kind also has a glyph, so NO_COLOR stays playable.
    DEFAULT_CSS = """
    TronBoardView > .board--floor       { background: #14171f; color: #2a3040; }
    TronBoardView > .board--wall        { background: #6b7385; color: #9aa3b5; }
    TronBoardView > .board--red-trail   { background: #7a1f2b; color: #c0485a; }
    TronBoardView > .board--green-trail { background: #1d5e36; color: #44b06e; }
    TronBoardView > .board--red-head    { background: #ff4d5e; color: #ffffff; text-style: bold; }
    TronBoardView > .board--green-head  { background: #3ddc84; color: #000000; text-style: bold; }
    TronBoardView > .board--crash       { background: #ffd23f; color: #000000; text-style: bold; }
    TronBoardView > .board--hint        { background: #fff3b0; color: #9a6700; text-style: bold; }
    """
    #: From the most important down: in the whole-board zoom a block shows its first kind.
    KINDS = ("crash", "hint", "red-head", "green-head", "red-trail", "green-trail", "wall", "floor")
    COMPONENT_CLASSES = {f"board--{kind}" for kind in KINDS}
    #: Kept as glyphs in the half-block zooms (big boards), so heads stay findable.
    MARKERS = {"crash": "X", "hint": "◆", "red-head": "R", "green-head": "G"}

    def cell(self, row: int, col: int) -> tuple[str, str]:
        return self.row_cells(row, col, col + 1)[0]

    def row_cells(self, row: int, first: int, last: int) -> list[tuple[str, str]]:
        state: TronState = self.state
        cells = [TILES.get(ch, TILES["#"]) for ch in state.rows[row][first:last]]

        def put(pos: Pos | None, mark: tuple[str, str]) -> None:
            if pos is not None and pos.row == row and first <= pos.col < last:
                cells[pos.col - first] = mark

        for seat, head in enumerate(state.heads):
            heading = state.headings[seat]
            put(head, (HEAD_LETTERS[seat] + (heading.arrow if heading is not None else " "), HEAD_KINDS[seat]))
        for pos, mark in self.overlay.marks.items():
            put(pos, mark)
        for crash in state.crashes:
            put(crash, CRASH)
        return cells


class TronScreen(MatchScreen[TronState]):
    KEYMAP = match_keymap(OWN_KEYS)
    DEFAULT_CSS = """
    TronScreen #message { height: auto; min-height: 2; max-height: 3; }
    """

    def __init__(
        self,
        game: GameDefinition,
        loaded: LoadedBoard,
        settings: Settings | None = None,
        players: Sequence[str] | None = None,
        rounds: int | None = None,
        *,
        setup: TronSetup | None = None,
        ask_setup: bool | None = None,
    ) -> None:
        """Opened by the app (no players), it asks the setup dialog first, starting from
        the remembered choices; given players (tests, scripts), it starts at once."""
        fresh = TronSetup(speed=(settings or Settings()).speed)
        remembered = setup or (load_setup(fresh) if players is None else fresh)
        if players is not None:
            remembered = replace(remembered, players=(players[0], players[1]))
        if rounds is not None:
            remembered = replace(remembered, rounds=rounds)
        self.setup = remembered
        self.ask_setup = players is None if ask_setup is None else ask_setup
        self.opened = loaded
        self._setting_up = self.ask_setup
        self._hint_on = False
        self._auto_timer: Any = None
        self._started = not self.ask_setup
        super().__init__(game, loaded, settings, self.setup.players, self.setup.rounds)

    # --- the match ---------------------------------------------------------------------------------
    def make_participant(self, player: str, index: int) -> Agent[TronState, Any]:
        """Builtin bots think within the tick (the driver owns the pace)."""
        return self.game.make_agent(player, PlayerContext(index, time_ms=self.bot_budget_ms()), LOCAL_KINDS)

    def bot_budget_ms(self) -> float:
        """A builtin bot's thinking time: the setup's, but no more than most of a tick."""
        return max(10.0, min(float(self.setup.time_ms), self.tick_seconds() * 600))

    def round_engine(self, index: int) -> TronEngine:
        if index > 0 and self.setup.board == "each":
            self.loaded = self._random_map()
        return TronEngine(self.loaded.board)

    def _random_map(self) -> LoadedBoard:
        game = self.game
        game_id = game.game_id_from_options({"size": self.setup.size, "walls": self.setup.walls}, random.randrange(1, 1_000_000))  # type: ignore[attr-defined]
        return game.load_id(game_id)  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        # No super().on_mount(): Textual calls every class's on_mount in the MRO itself.
        if self.ask_setup:
            self.action_setup()

    def holds_clock(self) -> bool:
        return self.ask_setup

    def tick_seconds(self) -> float:
        return TronEngine.tick_seconds * TICK_FACTOR[self.settings.speed]

    def action_setup(self) -> None:
        """Open the setup dialog; the match waits meanwhile."""
        self._setting_up = True
        self._was_paused = self.paused
        if self.feed is not None:
            self.feed.pause(True)
        self.app.push_screen(TronSetupDialog(self.setup, self.opened.title), self._setup_chosen)

    def _setup_chosen(self, setup: TronSetup | None) -> None:
        first = not self._started
        if setup is None:
            self._setting_up = False
            if first and self.ask_setup:
                self.app.pop_screen()  # cancelled before any match: back to the boards
            elif self.feed is not None:
                self.feed.pause(self._was_paused)
            return
        save_setup(setup)
        self.apply_setup(setup)

    def apply_setup(self, setup: TronSetup) -> None:
        """Start a new match with these choices (the old one's players are closed)."""
        try:
            loaded = self.opened if setup.board == "this" else None
            self.setup = setup
            if loaded is None:
                loaded = self._random_map()
        except (BoardError, UsageError) as exc:
            self._setting_up = False
            self.notify(str(exc), title="Cannot make the map", severity="error")
            return
        self.close_feed()
        self.players = setup.players
        self.rounds = setup.rounds
        self.settings = replace(self.settings, speed=setup.speed)
        self.app.settings = self.settings
        self._start(loaded)
        self._started = True
        self._setting_up = False
        self._hint_on = False
        self.hint = None
        assert self.feed is not None
        self.feed.start()
        self.message = ""
        self.view.set_grid_size(*self.grid_size())
        self._refresh_all()
        self.query_one(KeyBar).refresh(layout=True)  # the hint key comes and goes with humans
        if not self._humans():
            self.say("Watching: space pauses, . steps one tick, + and - change the speed.")

    def _humans(self) -> list[int]:
        """Participants played by people."""
        return [index for index, agent in enumerate(self.match.participants) if agent.human]

    def agent_timeout(self) -> float:
        """A program has PROGRAM_TIMEOUT per move and forfeits when late; a builtin bot
        that overruns its thinking time drives straight on."""
        tick = self.tick_seconds()
        if any(is_program(self.game, player) for player in self.players):
            return max(tick, PROGRAM_TIMEOUT)
        return max(tick, BOT_SLACK + self.bot_budget_ms() / 1000)

    # --- what the driver did ------------------------------------------------------------------------
    def _on_change(self, session: Any, change: Any) -> None:
        """As the shell, but a message stays up while the round goes on (the shell clears
        it at every step, which in a real-time game is several times a second)."""
        kept = self.message
        super()._on_change(session, change)
        if change.kind == "step" and not session.engine.outcome(change.state).over and self.message != kept:
            self.say(kept)

    def stepped(self) -> None:
        self._request_hint()

    def round_over(self) -> None:
        session = self.session
        result = self.match.score.rounds[-1]
        score = self.match.score
        names = {SEAT_NAMES[seat]: score.names[participant] for seat, participant in enumerate(result.seating)}
        reason = session.outcome.reason
        for agent in self.match.participants:  # the seat is named already: drop the command line
            label = getattr(agent, "label", "")
            if label:
                reason = reason.replace(f" ({label})", "")
        line1 = f"Round {result.index + 1}: {name_seats(reason, names)}."
        if result.winner is None:
            line1 += " A draw."
        if self.match.finished:
            line2 = f"Match over: {self.score_text()}. n new match · esc back."
        elif self._humans():
            line2 = f"Score: {self.score_text()}. enter: round {result.index + 2} (seats swap)."
        else:
            line2 = f"Score: {self.score_text()}. Round {result.index + 2} in {AUTO_NEXT_SECONDS:g} s (enter now, space holds)."
            self._auto_timer = self.set_timer(AUTO_NEXT_SECONDS, self._auto_next)
        self.say(f"{line1}\n{line2}")

    def _auto_next(self) -> None:
        self._auto_timer = None
        if not self.paused and not self._setting_up and self.session.over and not self.match.finished and not self._humans():
            self.action_next_round()

    def action_next_round(self) -> None:
        if self.session.over and not self.match.finished:
            if self._auto_timer is not None:
                self._auto_timer.stop()
                self._auto_timer = None
        super().action_next_round()
        self._request_hint()

    def action_pause(self) -> None:
        super().action_pause()
        self._show_status()

    # --- keys -------------------------------------------------------------------------------------------
    def action_drive(self, letter: str, keyset: int) -> None:
        """An arrow (keyset 0) or WASD (keyset 1) key: a turn for its participant's cycle."""
        humans = self._humans()
        if not humans:
            self.say("No human drives in this match: n sets one up.")
            return
        participant = keyset if len(humans) == 2 else humans[0]
        if self.session.over:
            if self.match.finished:
                self.say(f"The match is over: {self.score_text()}. n: new match.")
            else:
                self.say("The round is over: enter plays the next one.")
            return
        seat = self.match.seating.index(participant)
        self.session.submit(seat, Direction.from_letter(letter))  # queued: TronEngine.queue_action

    def action_act(self, text: str, participant: int = 0) -> None:
        self.action_drive(text, participant)

    def action_hint(self) -> None:
        """Toggle the live hint: each tick, where the hard bot would drive each human."""
        if not self._humans():
            self.say("The hint is for human players.")
            return
        self._hint_on = not self._hint_on
        text = "Hint on: ◆ marks where the hard bot would drive you, every tick. h turns it off." if self._hint_on else "Hint off."
        if not self._hint_on:
            self.hint = None
        if self.session.over:  # keep the round's verdict on screen
            self.notify(text, timeout=3)
            return
        self.say(text)
        self._request_hint()

    def _request_hint(self) -> None:
        if not self._hint_on or self.session.over:
            return
        seats = tuple(seat for seat, agent in enumerate(self.session.agents) if agent.human)
        if not seats:
            return
        # A quarter of a tick or so: the mark must arrive well before the next tick.
        seconds = max(15.0, min(150.0, self.tick_seconds() * 300)) / 1000
        state = self.session.state

        def plan(control: SearchControl) -> dict[int, Direction]:
            control.seconds = seconds
            return {seat: self.find_plan(state, control, seat).actions[0] for seat in seats}

        self.run_in_worker("Hint", plan, lambda moves: self._hint_ready(state, moves), quiet=True)

    def _hint_ready(self, state: TronState, moves: dict[int, Direction]) -> None:
        if not self._hint_on or state is not self.session.state:
            return
        marks = {state.heads[seat].step(direction): HINT_MARK for seat, direction in moves.items()}
        words = ", ".join(f"{SEAT_NAMES[seat]} {direction.name}" for seat, direction in moves.items())
        self.hint = Hint(f"Hint: the hard bot would drive {words}.", marks)

    # --- drawing hooks ------------------------------------------------------------------------------------
    def make_board_view(self) -> BoardView:
        return TronBoardView(id="board")

    def grid_size(self) -> tuple[int, int]:
        board = self.session.engine.board  # type: ignore[attr-defined]
        return board.width, board.height

    def seat_label(self, seat: int) -> str:
        names = self.match.score.names
        return names[self.match.seating[seat]]

    def _keys_of(self, participant: int) -> str:
        humans = self._humans()
        if participant not in humans:
            return ""
        if len(humans) == 1:
            return " (arrows/WASD)"
        return " (arrows)" if participant == 0 else " (WASD)"

    def _refresh_all(self) -> None:
        super()._refresh_all()
        red, green = (self.match.seating[0], self.match.seating[1])
        names = self.match.score.names
        title = f"Tron — {self.loaded.title}  ·  R {names[red]}  vs  G {names[green]}"
        if self.loaded.game_id and self.loaded.game_id != self.loaded.title:
            title += f"  ·  {self.loaded.game_id}"
        self.query_one("#title", Static).update(title)
        self.query_one("#legend", Static).update(self.legend())

    def _show_status(self) -> None:
        """The shell's status line without the game id (the title has it): one line at 80
        columns even with long player names."""
        self.query_one("#status", Static).update(f"{self.status_text(self.shown)}  ·  speed {self.settings.speed}")
        self.query_one("#message", Static).update(self.message)

    def score_text(self) -> str:
        """Wins per player and draws, short enough for the status line."""
        score = self.match.score
        text = " · ".join(f"{name} {score.wins(index)}" for index, name in enumerate(score.names))
        return text + (f" · {score.draws} drawn" if score.draws else "")

    def status_text(self, state: TronState) -> str:
        index = min(self.match.round_index + (0 if self.session.over else 1), self.rounds)
        parts = [f"round {max(1, index)}/{self.rounds}", f"tick {state.turn}", self.score_text()]
        if self.paused:
            parts.append("PAUSED")
        return " · ".join(parts)

    def legend(self) -> str:
        red, green = self.match.seating[0], self.match.seating[1]
        names = self.match.score.names
        return (
            f"R red: {names[red]}{self._keys_of(red)}   G green: {names[green]}{self._keys_of(green)}\n"
            "░ red  ▒ green  █ wall  X crash  ◆ hint  │  space pause  . step  +/- speed"
        )

