"""Every key a key bar or footer shows, pressed as a user would, with its effect asserted.

One test per screen that shows keys: the menu and the board picker (their footers), and
each game's screen (its KeyBar). Each test first checks that the bar shows exactly the
keys it covers; `test_every_shown_key_is_covered` checks the same against every game's
keymap, so a key added to a bar later without a test here fails.

Deterministic: animation off, the watch clock at its slowest (nothing ticks between two
key presses), real-time matches paused at once and stepped with `.`, generated boards
from fixed game ids, and the data folder (autosaves, Tron's remembered setup) in tmp_path.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections import deque
from pathlib import Path

import pytest

from tests.conftest import make_app, settle, status, until, wait_idle
from tui_grid.core import saves
from tui_grid.core.engine import IllegalAction
from tui_grid.core.geometry import Direction
from tui_grid.games.registry import all_games, get_game
from tui_grid.ui.confirm_dialog import ConfirmDialog
from tui_grid.ui.game_screen import GameScreen
from tui_grid.ui.help_screen import HelpScreen, key_rows
from tui_grid.ui.key_bar import KeyBar
from tui_grid.ui.menu import BoardPickerScreen, MenuScreen
from tui_grid.ui.new_board import NewBoardDialog
from tui_grid.ui.settings import WATCH_SECONDS

#: What each bar shows, as (key shown, label): the keys the tests below press.
COVERED: dict[str, set[tuple[str, str]]] = {
    "menu": set(),
    "picker": {("escape", "Back"), ("b", "Back"), ("n", "New random"), ("q", "Quit")},
    "ice": {("←↑↓→", "Move"), ("u", "Undo"), ("y", "Redo"), ("r", "Restart"), ("n", "New"), ("h", "Hint"), ("s", "Solve"),
            ("w", "Watch"), ("?", "Help"), ("esc", "Back"), ("q", "Quit")},
    "jimmy": {("←↑↓→", "Move"), ("u", "Undo"), ("y", "Redo"), ("r", "Restart"), ("n", "New"), ("h", "Hint"), ("s", "Solve"),
              ("w", "Watch"), ("?", "Help"), ("esc", "Back"), ("q", "Quit")},
    "bunny": {("f l r", "Token"), ("[", "Loop"), ("]", "Close"), ("⌫", "Delete"), ("◀▶", "Cursor"), ("enter", "Run"), (".", "Step"),
              ("u", "Undo"), ("y", "Redo"), ("n", "New"), ("h", "Hint"), ("s", "Solve"), ("w", "Watch"), ("?", "Help"),
              ("esc", "Back"), ("q", "Quit")},
    "evasion": {("j", "H-wall"), ("k", "V-wall"), ("tab", "Select"), ("⌫", "Remove"), ("n", "New"), ("g", "Concede"), ("wer/sdf/xcv", "Prey"),
                ("h", "Hint"), ("?", "Help"), ("esc", "Back"), ("q", "Quit")},
    "tron": {("←↑↓→", "Steer"), ("WASD", "Steer"), ("n", "New"), ("h", "Hint"), ("?", "Help"), ("esc", "Back"), ("q", "Quit")},
}
#: What a bar shows only after an online match, pressed in test_lobby_ui.py (a real hub).
COVERED_ONLINE: dict[str, set[tuple[str, str]]] = {"evasion": {("m", "Rematch")}, "tron": {("m", "Rematch")}}


# --- hygiene: a data folder per test, and nothing left running --------------------------------------
def _children() -> set[int]:
    """Live (not zombie) child processes of this one."""
    me = str(os.getpid())
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == me and fields[0] != "Z":
            out.add(int(entry.name))
    return out


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("TUI_GRID_DATA", str(folder))
    monkeypatch.setattr(get_game("bunny"), "_solutions", {})  # no answer known from another test
    threads, children = set(threading.enumerate()), _children()
    yield folder
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and (set(threading.enumerate()) - threads or _children() - children):
        time.sleep(0.02)
    assert not {t for t in set(threading.enumerate()) - threads if t.is_alive()}, "a thread outlived its test"
    assert not _children() - children, "a process outlived its test"


# --- helpers ---------------------------------------------------------------------------------------
def message(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#message").content)


def bar(app) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    items = app.screen.query_one(KeyBar).items
    assert len(items) == len(set(items)), "a key bar entry shown twice"
    return set(items)


def footer(app) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """What a Footer shows, as (key, description)."""
    return {(key.key, key.description) for key in app.screen.query("FooterKey")}


def shown_bindings(app) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """Every binding of the screen a footer may show (show=True), as (key, description)."""
    return {(key, active.binding.description) for key, active in app.screen.active_bindings.items() if active.binding.show}


async def help_then_close(pilot, screen) -> None:  # type: ignore[no-untyped-def]
    """`?` opens the game's help with its rules and a row for every offered key; esc closes it."""
    app = pilot.app
    await pilot.press("question_mark")
    assert isinstance(app.screen, HelpScreen)
    text = app.screen.source
    assert screen.game.help_markdown().strip().splitlines()[0] in text
    for _, what in key_rows(screen.KEYMAP, screen.offers):
        assert what in text
    await pilot.press("escape")
    assert app.screen is screen
    await pilot.press("f1")  # help's second key
    assert isinstance(app.screen, HelpScreen)
    await pilot.press("question_mark")
    assert app.screen is screen


async def new_board_by_id(pilot, game_id: str) -> None:  # type: ignore[no-untyped-def]
    """In the new-board dialog `n` opened: paste a game id and press enter."""
    dialog = pilot.app.screen
    assert isinstance(dialog, NewBoardDialog)
    dialog.query_one("#field-id").value = game_id
    await pilot.press("enter")
    await settle(pilot)
    await pilot.pause()


def fixed_id(game_key: str, seed: int = 7, **options: str) -> str:
    game = get_game(game_key)
    values = {spec.key: spec.default for spec in game.options} | options
    return game.game_id_from_options(values, seed)


# --- the menu and the board picker -----------------------------------------------------------------------
async def test_menu_names_its_keys_and_q_quits() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        assert footer(app) == shown_bindings(app) == COVERED["menu"] == set()  # no key bar: the about line says them
        assert "enter picks a game" in str(app.screen.query_one("#about").content) and "q quits" in str(app.screen.query_one("#about").content)
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_board_picker_footer_keys() -> None:
    app = make_app("ice")
    async with app.run_test(size=(80, 24)) as pilot:
        picker = app.screen
        assert isinstance(picker, BoardPickerScreen)
        assert shown_bindings(app) == COVERED["picker"]
        assert footer(app) == COVERED["picker"] - {("b", "Back")}  # b shares esc's entry
        # n: the new-board dialog; a game id makes that board and opens it.
        await pilot.press("n")
        assert isinstance(app.screen, NewBoardDialog)
        await new_board_by_id(pilot, "ice:14x10:m6#seed42")
        assert isinstance(app.screen, GameScreen) and app.screen.loaded.game_id == "ice:14x10:m6#seed42"
        assert not [n for n in app._notifications if "Generating" in n.message]  # no toast over the board
        await pilot.press("escape")
        assert app.screen is picker
        assert "Generating" not in str(picker.query_one("#preview").content)  # the preview is back
        # esc and b: back to the menu.
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("down", "enter")  # ice again
        assert isinstance(app.screen, BoardPickerScreen)
        await pilot.press("b")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("down", "enter")
        assert isinstance(app.screen, BoardPickerScreen)
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


# --- the solo puzzles: ice and jimmy share a bar -------------------------------------------------------------
ARROWS = {"up": Direction.UP, "down": Direction.DOWN, "left": Direction.LEFT, "right": Direction.RIGHT}


def arrow_action(screen: GameScreen, key: str) -> str:
    match = re.fullmatch(r"act\('(.+)'\)", screen.KEYMAP.action_of(key) or "")
    assert match, f"{key} is not a move key"
    return match.group(1)


def keys_to_allow(screen: GameScreen, key: str) -> list[str]:
    """The shortest arrow presses from the start after which `key` is a legal move."""
    engine = screen.engine
    texts = {name: arrow_action(screen, name) for name in ARROWS}

    def legal(state, name: str):  # type: ignore[no-untyped-def]
        try:
            step = engine.step(state, {0: engine.decode_action(texts[name])})
        except IllegalAction:
            return None
        return step.state

    start = engine.initial_state()
    queue: deque = deque([(start, [])])
    seen = {start}
    while queue:
        state, path = queue.popleft()
        if legal(state, key) is not None:
            return path
        if len(path) >= 6:
            continue
        for name in ARROWS:
            after = legal(state, name)
            if after is not None and after not in seen and not engine.outcome(after).over:
                seen.add(after)
                queue.append((after, path + [name]))
    raise AssertionError(f"{key} is never legal near the start")


@pytest.mark.parametrize(("game", "board"), [("ice", "spiral"), ("jimmy", "seed-1")])
async def test_every_key_of_a_puzzle_bar(game: str, board: str, data_dir: Path, monkeypatch) -> None:
    # The watch clock at an hour a move: `w` plays its first move at once, and none ticks
    # between two presses however slow the machine (1.6 s, speed 1's own, can pass under load).
    monkeypatch.setitem(WATCH_SECONDS, 1, 3600.0)
    app = make_app(game, board, speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        assert bar(app) == COVERED[game]
        start = screen.state

        # ←↑↓→ Move: each arrow moves that way (from a position where the rules allow it).
        for key, direction in ARROWS.items():
            screen.session.restart()
            await pilot.press(*keys_to_allow(screen, key))
            before, moves = screen.focus_of(screen.state), len(screen.session.log)
            await pilot.press(key)
            after = screen.focus_of(screen.state)
            assert len(screen.session.log) == moves + 1, f"{key}: {screen.message}"
            steps = (after.row - before.row, after.col - before.col)
            distance = max(abs(steps[0]), abs(steps[1]))
            assert distance >= 1 and steps == (direction.dr * distance, direction.dc * distance), key
        screen.session.restart()
        await pilot.pause()
        first = next(k for k in ARROWS if not keys_to_allow(screen, k))  # legal at the start

        # u Undo, y Redo, r Restart (undoable).
        await pilot.press(first)
        moved = screen.state
        await pilot.press("u")
        assert screen.state == start and not screen.session.log
        await pilot.press("y")
        assert screen.state == moved
        await pilot.press("r")
        assert screen.state == start and not screen.session.log
        await pilot.press("u")
        assert screen.state == moved  # restart is one undo step
        await pilot.press("ctrl+z")  # undo's second key
        assert screen.state == start
        await pilot.press("ctrl+y")  # redo's second key
        assert screen.state == moved
        await pilot.press("ctrl+r")  # restart's second key (Bunny's only one: r is a token there)
        assert screen.state == start and not screen.session.log

        # h Hint: the solver's next move is marked.
        await pilot.press("h")
        await settle(pilot)
        assert screen.hint is not None and screen.hint.marks and screen.message.startswith("Hint")
        assert screen.state == start  # a hint plays nothing

        # s Solve: the solver's answer is played to the end, as one undo step.
        await pilot.press("s")
        await settle(pilot)
        assert screen.session.over and screen.engine.outcome(screen.state).result.value == "won", status(app)
        await pilot.press("u")
        assert screen.state == start
        await pilot.press(first, "s")  # from here, not from the start
        await settle(pilot)
        assert screen.session.over and screen.session.log[0] == {0: screen.engine.decode_action(arrow_action(screen, first))}
        await pilot.press("u")
        assert screen.state == moved
        await pilot.press("r")

        # w Watch: the solver plays a move; w again stops it.
        await pilot.press("w")
        await settle(pilot)
        assert screen.watching and len(screen.session.log) == 1
        await pilot.press("w")
        assert not screen.watching and screen.message == "Stopped watching."
        # esc Back, first meaning: it stops a watch and stays.
        await pilot.press("w")
        await settle(pilot)
        assert screen.watching
        await pilot.press("escape")
        assert app.screen is screen and not screen.watching and screen.message == "Stopped watching."
        await pilot.press("r")

        # n New: the dialog, then the board of the id typed in it.
        game_id = fixed_id(game)
        await pilot.press("n")
        await new_board_by_id(pilot, game_id)
        assert app.screen is screen and screen.loaded.game_id == game_id and game_id in str(screen.query_one("#title").content)

        # ? Help.
        await help_then_close(pilot, screen)

        # esc Back: to the boards, the game in progress autosaved.
        legal = next(k for k in ARROWS if not keys_to_allow(screen, k))
        await pilot.press(legal)
        assert len(screen.session.log) == 1
        loaded = screen.loaded
        await pilot.press("escape")
        assert isinstance(app.screen, BoardPickerScreen)
        assert saves.pending(screen.game, loaded) is not None


@pytest.mark.parametrize("quit_key", ["q", "ctrl+c"])
@pytest.mark.parametrize(("game", "board", "keys"), [("ice", "spiral", ["up"]), ("jimmy", "seed-1", ["left"]), ("bunny", "doodle-4-two-rings", ["f", "enter"])])
async def test_q_quits_and_keeps_the_game_in_progress(game: str, board: str, keys: list[str], quit_key: str) -> None:
    app = make_app(game, board)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: GameScreen = app.screen
        assert ("q", "Quit") in bar(app)
        await pilot.press(*keys)
        assert screen.session.log and not screen.session.over
        await pilot.press(quit_key)
        await pilot.pause()
    assert not app.is_running
    path = saves.pending(screen.game, screen.loaded)
    assert path is not None and "played:" in path.read_text()


# --- bunny: a program editor ---------------------------------------------------------------------------------
async def test_every_key_of_the_bunny_bar(data_dir: Path) -> None:
    from tui_grid.games.bunny.draft import Open
    from tui_grid.games.bunny.screen import BunnyScreen

    def program(screen: BunnyScreen) -> str:
        return str(screen.draft.program()[0])

    def panel(app) -> str:  # type: ignore[no-untyped-def]
        return str(app.screen.query_one("#program").content)

    app = make_app("bunny", "doodle-4-two-rings", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: BunnyScreen = app.screen
        assert bar(app) == COVERED["bunny"]

        # f l r Token: each inserts its token at the cursor.
        await pilot.press("f")
        assert program(screen) == "F"
        await pilot.press("l")
        assert program(screen) == "F L"
        await pilot.press("r")
        assert program(screen) == "F L R" and "3 tokens" in panel(app)
        assert screen.state.runs == 0  # r is the token, not restart

        # [ Loop: opens a loop with the cursor inside; ] Close: the cursor steps out of it.
        await pilot.press("left_square_bracket")
        assert program(screen) == "F L R LOOP{}" and isinstance(screen.draft.items[screen.draft.cursor - 1], Open)
        await pilot.press("f", "right_square_bracket", "f")
        assert program(screen) == "F L R LOOP{F} F"

        # ⌫ Delete: the token before the cursor.
        await pilot.press("backspace")
        assert program(screen) == "F L R LOOP{F}"

        # ◀▶ Cursor: left and right move the insert position.
        cursor = screen.draft.cursor
        await pilot.press("left")
        assert screen.draft.cursor == cursor - 1
        await pilot.press("right")
        assert screen.draft.cursor == cursor
        await pilot.press("left", "left", "left", "backspace")  # the R goes: F L LOOP{F}
        assert program(screen) == "F L LOOP{F}"

        # enter Run: the program runs from S and the run is recorded.
        await pilot.press("enter")
        assert screen.state.runs == 1 and screen.state.program is not None
        assert str(screen.state.program) == "F L LOOP{F}"

        # . Step: one token of the program, shown, not recorded.
        await pilot.press("full_stop")
        assert screen.shown.steps == 1 and screen.state.runs == 1 and "Step 1" in message(app)
        await pilot.press("full_stop")
        assert screen.shown.steps == 2

        # u Undo, y Redo.
        await pilot.press("u")
        assert screen.state.runs == 0
        await pilot.press("y")
        assert screen.state.runs == 1

        # h Hint: one token of the optimal program per press.
        await pilot.press("h")
        await settle(pilot)
        assert screen.revealed == 1 and "Hint 1/5" in panel(app)
        await pilot.press("h")
        assert screen.revealed == 2 and "Hint 2/5" in panel(app)

        # s Solve: the optimal program, shown and run, as one undo step.
        await pilot.press("s")
        await settle(pilot)
        assert screen.session.over and "Complete in 5 tokens" in status(app)
        assert program(screen) == "LOOP{LOOP(7){L F} F}"
        await pilot.press("u")
        assert not screen.session.over and screen.state.runs == 1

        # w Watch: the solver's program runs, and the watch ends with the game.
        await pilot.press("w")
        assert await until(pilot, lambda: screen.session.over and not screen.watching)
        assert str(screen.state.program) == "LOOP{LOOP(7){L F} F}"
        # w again stops watching (the solver held in its planning, so the stop comes first).
        await pilot.press("u")
        hold = threading.Event()
        plan = screen.table.planner
        screen.table.planner = lambda engine, state, seat, control: (hold.wait(5), plan(engine, state, seat, control))[1]
        await pilot.press("w")
        assert screen.watching
        await pilot.press("w")
        assert not screen.watching and screen.message == "Stopped watching."
        hold.set()
        screen.table.planner = plan

        # n New: a generated board from its id.
        game_id = fixed_id("bunny", size="5x4", squares="6")
        await pilot.press("n")
        await new_board_by_id(pilot, game_id)
        assert app.screen is screen and screen.loaded.game_id == game_id and program(screen) == ""

        # ? Help.
        await help_then_close(pilot, screen)

        # esc Back: to the boards, the game in progress autosaved.
        await pilot.press("l", "enter")
        assert screen.state.runs == 1 and not screen.session.over
        loaded = screen.loaded
        await pilot.press("escape")
        assert isinstance(app.screen, BoardPickerScreen)
        assert saves.pending(screen.game, loaded) is not None


async def test_bunny_step_the_last_step_records_the_run() -> None:
    app = make_app("bunny", "doodle-4-two-rings")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.press("l", "f")  # L F: two tokens, the board is not complete after them
        await pilot.press("full_stop")
        assert screen.shown.steps == 1 and screen.state.runs == 0
        await pilot.press("full_stop")  # executes F, the last token
        assert screen.shown.steps == 2
        assert screen.state.runs == 1, f"not recorded; the message says: {message(app)!r}"


# --- evasion: two humans on one keyboard, hunter and prey ---------------------------------------------------------
async def evasion_step(pilot, times: int = 1) -> None:  # type: ignore[no-untyped-def]
    for _ in range(times):
        await pilot.press("full_stop")
        await wait_idle(pilot)


async def test_every_key_of_the_evasion_bar(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tui_grid.games.evasion.engine import HUNTER, PREY
    from tui_grid.games.evasion.screen import PREY_KEYS, EvasionScreen

    # Both roles human, so both sets of keys act (and no bot thinks between steps).
    from tui_grid.games.evasion.definition import EvasionGame

    monkeypatch.setattr(EvasionGame, "default_players", ("human", "human"))
    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: EvasionScreen = app.screen
        assert isinstance(screen, EvasionScreen) and screen.is_human(HUNTER) and screen.is_human(PREY)
        await pilot.press("space")
        await wait_idle(pilot)
        assert screen.paused
        assert bar(app) == COVERED["evasion"]

        async def wall_ready() -> None:
            for _ in range(60):
                if screen.engine.build_wait(screen.state) == 0:
                    return
                await evasion_step(pilot)
            raise AssertionError("the wall never became ready")

        # k V-wall, tab Select, ⌫ Remove (backspace).
        await wall_ready()
        hunter = screen.state.hunter
        await pilot.press("k")
        await evasion_step(pilot)
        (wall,) = screen.state.walls
        assert not wall.horizontal and wall.x1 == wall.x2 == hunter[0] and " built." in message(app)
        await pilot.press("tab")
        assert screen.selected_wall() == wall and "Selected wall 1/1" in message(app)
        await pilot.press("backspace")
        await evasion_step(pilot)
        assert screen.state.walls == ()

        # wer/sdf/xcv Prey: each of the nine keys sets the prey going that way (d stays);
        # the 18 steps also make the next wall ready.
        for keys, dx, dy, name in PREY_KEYS:
            key = keys.split(",")[0]
            before = screen.state.prey
            await pilot.press(key)
            await evasion_step(pilot, 2)  # the prey moves on every other step
            state = screen.state
            assert state.prey_velocity == (dx, dy), f"{key} ({name})"
            assert state.prey == (before[0] + dx, before[1] + dy), f"{key} ({name})"
            assert not screen.session.over

        # j H-wall; ⌫'s second key, delete, removes it too.
        await wall_ready()
        hunter = screen.state.hunter
        await pilot.press("j")
        await evasion_step(pilot)
        (wall,) = screen.state.walls
        assert wall.horizontal and wall.y1 == wall.y2 == hunter[1]
        await pilot.press("tab", "delete")
        await evasion_step(pilot)
        assert screen.state.walls == ()

        # h Hint: what the builtin bot would do, for each human role.
        await pilot.press("h")
        await wait_idle(pilot)
        assert "Hint: hunter:" in message(app) and "prey: go" in message(app)

        # ? Help.
        await help_then_close(pilot, screen)

        # g Concede: asked first (the clock stops meanwhile), then the round is given up
        # (the hunter's seat, a human plays it).
        await pilot.press("g")
        assert isinstance(app.screen, ConfirmDialog) and not screen.session.over
        await pilot.press("y")
        await wait_idle(pilot)
        assert screen.session.over and "the hunter forfeits: conceded" in message(app)

        # n New: a new match, its players chosen (two bots: watched from the start).
        from textual.widgets import Select

        from tui_grid.games.evasion.setup_dialog import EvasionSetupDialog

        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, EvasionSetupDialog)
        dialog.query_one("#kind-0", Select).value = "random"
        dialog.query_one("#kind-1", Select).value = "builtin"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.players == ("random", "builtin") and screen.match.round_index == 0
        assert not screen.session.over and not screen.is_human(HUNTER) and not screen.is_human(PREY)
        assert "H random bot · P builtin bot" in str(screen.query_one("#title").content)

        # esc Back: to the boards.
        await pilot.press("escape")
        assert isinstance(app.screen, BoardPickerScreen)


async def test_evasion_hint_does_what_its_help_row_says(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tui_grid.games.evasion.screen import EvasionScreen

    app = make_app("evasion", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen: EvasionScreen = app.screen
        await pilot.press("space")
        await wait_idle(pilot)
        (row,) = [what for keys, what in key_rows(screen.KEYMAP, screen.offers) if keys == "h"]
        await pilot.press("h")
        marked = screen.hint is not None and bool(screen.hint.marks)
        assert marked or "mark" not in row, f"help row: {row!r}; after h: hint={screen.hint!r}, message={message(app)!r}"


async def test_every_key_of_the_served_evasion_bar() -> None:
    """`tui-grid serve evasion` without --headless: the architect's game live, its server in
    a thread, both roles human (no TCP seat); `.` releases the held server for one step."""
    from tui_grid.games.evasion.definition import GAME
    from tui_grid.games.evasion.rules import Config
    from tui_grid.games.evasion.screen import PREY_KEYS
    from tui_grid.games.evasion.serve_app import ServeApp
    from tui_grid.games.evasion.server import EvasionServer

    for closing_key in ("escape", "q"):
        server = EvasionServer(Config(max_steps=400), "2023", 0, "human", "human", 400)
        app = ServeApp(GAME, registry_board(Config(max_steps=400)), server)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen_shown
            await pilot.pause(0.1)
            await pilot.press("space")
            await pilot.pause(0.2)
            assert screen.paused and app.feed.thread.is_alive()
            assert bar(app) == COVERED["evasion"] - {("n", "New")}  # the server sets who plays

            async def step(times: int = 1) -> None:
                for _ in range(times):
                    tick = screen.shown.tick
                    await pilot.press("full_stop")
                    deadline = time.monotonic() + 3
                    while screen.shown.tick == tick and time.monotonic() < deadline:
                        await pilot.pause(0.02)
                    assert screen.shown.tick == tick + 1

            if closing_key == "escape":
                for _ in range(30):
                    if screen.engine.build_wait(screen.state) == 0:
                        break
                    await step()
                hunter = screen.state.hunter
                await pilot.press("k")
                await step()
                (wall,) = screen.state.walls
                assert not wall.horizontal and wall.x1 == hunter[0]
                await pilot.press("tab")
                assert screen.selected_wall() == wall
                await pilot.press("backspace")
                await step()
                assert screen.state.walls == ()
                for keys, dx, dy, name in PREY_KEYS:
                    key = keys.split(",")[0]
                    before = screen.state.prey
                    await pilot.press(key)
                    await step(2)
                    assert screen.state.prey_velocity == (dx, dy), f"{key} ({name})"
                    assert screen.state.prey == (before[0] + dx, before[1] + dy), f"{key} ({name})"
                for _ in range(30):
                    if screen.engine.build_wait(screen.state) == 0:
                        break
                    await step()
                hunter = screen.state.hunter
                await pilot.press("j")
                await step()
                (wall,) = screen.state.walls
                assert wall.horizontal and wall.y1 == hunter[1]
                await pilot.press("tab", "delete")
                await step()
                assert screen.state.walls == ()
                await pilot.press("h")
                await wait_idle(pilot)
                # the prey bot leaves its endgame search out when its answer is due soon (a busy
                # machine): then staying put is its answer here, and as much a hint
                assert "Hint: hunter:" in message(app) and ("prey: go" in message(app) or "prey: stay where you are" in message(app))
                await help_then_close(pilot, screen)
                await pilot.press("g", "y")  # concede (confirmed): the served game ends, forfeited by the hunter's seat
                for _ in range(100):
                    if app.feed.result is not None:
                        break
                    await pilot.pause(0.02)
                assert app.feed.result is not None and app.feed.result["forfeit"] == "hunter"
            # esc: nothing is behind the served game, so back quits; q quits.
            await pilot.press(closing_key)
            await pilot.pause()
        assert not app.is_running, closing_key
        assert not app.feed.thread.is_alive()


def registry_board(config):  # type: ignore[no-untyped-def]
    from tui_grid.games.registry import LoadedBoard

    return LoadedBoard(config, "served", f"N={config.n} M={config.m}")


async def test_q_quits_a_real_time_match(data_dir: Path) -> None:
    remember_tron(data_dir, players=["human", "easy"], rounds=1)
    for game in ("evasion", "tron"):
        app = make_app(game, "standard", speed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            if game == "tron":
                await pilot.press("enter")  # the setup dialog
                await pilot.pause()
            assert ("q", "Quit") in bar(app)
            await pilot.press("space")
            await wait_idle(pilot)
            await pilot.press("q")
            await pilot.pause()
        assert not app.is_running


# --- tron: two humans, arrows and WASD ------------------------------------------------------------------------------
def remember_tron(folder: Path, **choices) -> None:  # type: ignore[no-untyped-def]
    from tui_grid.games.tron.setup_dialog import SETUP_FILE

    folder.mkdir(parents=True, exist_ok=True)
    (folder / SETUP_FILE).write_text(json.dumps(choices))


async def tron_step(pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*keys, "full_stop")
    await wait_idle(pilot)


async def test_every_key_of_the_tron_bar(data_dir: Path) -> None:
    from tui_grid.games.tron.screen import TronScreen
    from tui_grid.games.tron.setup_dialog import SETUP_FILE, TronSetupDialog

    remember_tron(data_dir, players=["human", "human"], rounds=2)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, TronSetupDialog)
        await pilot.press("enter")
        await pilot.pause()
        screen: TronScreen = app.screen
        assert isinstance(screen, TronScreen)
        await pilot.press("space")
        await wait_idle(pilot)
        assert screen.paused and screen.match.seating == (0, 1)  # player 1 drives red
        assert bar(app) == COVERED["tron"]

        # ←↑↓→ Steer (player 1, red) and WASD Steer (player 2, green): every key turns its
        # cycle; a tick with no key goes straight on.
        plan = [("up", "w"), ("right", "a"), (None, None), ("down", "s"), (None, None), ("left", "d")]
        arrows = {"up": Direction.UP, "down": Direction.DOWN, "left": Direction.LEFT, "right": Direction.RIGHT}
        wasd = {"w": Direction.UP, "s": Direction.DOWN, "a": Direction.LEFT, "d": Direction.RIGHT}
        for red_key, green_key in plan:
            before = screen.state
            await tron_step(pilot, *[k for k in (red_key, green_key) if k])
            state = screen.state
            assert state.turn == before.turn + 1 and not screen.session.over, message(app)
            for seat, key, keys in ((0, red_key, arrows), (1, green_key, wasd)):
                heading = keys[key] if key else before.headings[seat]
                assert state.headings[seat] == heading, key
                assert state.heads[seat] == before.heads[seat].step(heading), key

        # h Hint: on, the hard bot's move is marked for each human every tick; h again: off.
        await pilot.press("h")
        await wait_idle(pilot)
        assert screen.hint is not None and len(screen.hint.marks) == 2
        for seat, cell in enumerate(screen.hint.marks):
            head = screen.state.heads[seat]
            assert abs(cell.row - head.row) + abs(cell.col - head.col) == 1
        await pilot.press("h")
        assert screen.hint is None and "Hint off" in message(app)

        # n New: the setup dialog; its choices start a new match.
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, TronSetupDialog)
        dialog.query_one("#rounds").value = "1"
        await pilot.press("enter")  # the Start button has the focus
        await pilot.pause()
        assert app.screen is screen and screen.rounds == 1 and screen.state.turn == 0
        assert json.loads((data_dir / SETUP_FILE).read_text())["rounds"] == 1
        await pilot.press("space")
        await wait_idle(pilot)

        # ? Help.
        await help_then_close(pilot, screen)

        # esc Back: a match with a human in it asks first (it is not saved); yes: to the boards.
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDialog) and "Leave the match?" in str(app.screen.query_one("#question").content)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape", "y")
        await pilot.pause()
        assert isinstance(app.screen, BoardPickerScreen)


async def test_a_lone_human_steers_with_either_set(data_dir: Path) -> None:
    """Tron's help: 'player 1: steer (a lone human may use either set)'."""
    from tui_grid.games.tron.screen import TronScreen

    remember_tron(data_dir, players=["human", "easy"], rounds=1)
    app = make_app("tron", "standard", speed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen: TronScreen = app.screen
        await pilot.press("space")
        await wait_idle(pilot)
        assert bar(app) == COVERED["tron"]
        for key, direction in (("w", Direction.UP), ("right", Direction.RIGHT), ("s", Direction.DOWN), ("left", Direction.LEFT)):
            before = screen.state
            await tron_step(pilot, key)
            assert screen.state.heads[0] == before.heads[0].step(direction), key
            if key == "s":
                await tron_step(pilot)  # one more tick down, so left does not cross the trail


@pytest.mark.parametrize("game", ["tron", "evasion"])
async def test_help_holds_a_running_match(game: str, data_dir: Path) -> None:
    remember_tron(data_dir, players=["human", "easy"], rounds=1)
    app = make_app(game, "standard", speed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        if game == "tron":
            await pilot.press("enter")  # the setup dialog
            await pilot.pause()
        screen = app.screen
        assert not screen.paused and not screen.session.over
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await wait_idle(pilot)
        shown = screen.state
        assert not screen.session.over
        await pilot.pause(0.6)  # 2 Tron ticks, 12 Evasion steps at speed 5, were the clock running
        await wait_idle(pilot)
        assert screen.state == shown and not screen.session.over, f"the match went on behind the help: {screen.message!r}"
        await pilot.press("escape")
        assert app.screen is screen and not screen.paused  # closing the help resumes the match
        await pilot.press("space")
        await wait_idle(pilot)


# --- the bars and the tests agree ---------------------------------------------------------------------------------
def test_every_shown_key_is_covered() -> None:
    """Every entry any game's bar can show (all common actions offered) is pressed above;
    and the menu's and picker's shown bindings too."""
    for game in all_games():
        keymap = game.screen_class().KEYMAP
        shown = {(key.bar_key, key.label) for key in keymap.keys if key.show}
        assert shown == COVERED[game.key] | COVERED_ONLINE.get(game.key, set()), game.key
    assert {(b.key, b.description) for b in MenuScreen.BINDINGS if b.show} == COVERED["menu"]
    picker = {(key.strip(), b.description) for b in BoardPickerScreen.BINDINGS if b.show for key in b.key.split(",")}
    assert picker == COVERED["picker"]
