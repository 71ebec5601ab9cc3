"""Outside text is text: markup and terminal escapes pushed through every path from outside
(board titles and ids, dialog fields, program output and stderr, client names, live and
headless) show literally, crash nothing, and never reach a screen or a stream raw."""

from __future__ import annotations

import re
import shlex
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import make_app, until, wait_idle
from tui_grid.cli import main
from tui_grid.core.text import SafeStream, echo, printable
from tui_grid.games import registry

PACKAGE = Path(__file__).resolve().parent.parent / "tui_grid"
OSC_TITLE = "\x1b]0;PWNED\x07"
CLEAR = "\x1b[2J"
EVIL = f"[/x] evil [bold]loud{OSC_TITLE}{CLEAR}\x00\x9b\u202e"
#: What EVIL looks like once escaped: every markup bracket kept, every control visible.
EVIL_SHOWN = "[/x] evil [bold]loud\\x1b]0;PWNED\\x07\\x1b[2J\\x00\\x9b\\u202e"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def test_printable_keeps_markup_and_escapes_every_control() -> None:
    assert printable(EVIL) == EVIL_SHOWN
    assert printable("a\nb\tc") == "a\\x0ab\\x09c"  # one name is one line
    assert printable("a\nb\tc", multiline=True) == "a\nb\tc"
    assert printable("x" * 10_000_000, limit=80) == "x" * 79 + "…"  # never scans megabytes for 80 characters
    assert len(echo("\x1b" * 1000)) == 80 and not RAW.search(echo("\x1b" * 1000))


def test_safe_stream_escapes_all_but_our_own_controls() -> None:
    import io

    sink = io.StringIO()
    stream = SafeStream(sink)  # type: ignore[arg-type]
    stream.write(f"name {EVIL}\n")
    stream.control("\r\x1b[K")
    assert sink.getvalue() == f"name {EVIL_SHOWN}\n\r\x1b[K"


def test_no_widget_or_notification_bypasses_the_plain_path() -> None:
    """One path: Static, Label, Input, notify and Option appear only in ui/plain.py, and no
    module parses markup."""
    forbidden = re.compile(r"\b(Static|Label|Input|Option)\(|\(Static\)|\(Label\)|\.notify\(|rich\.markup|from_markup|markup=True")
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "plain.py" and path.parent.name == "ui":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if forbidden.search(line):
                offenders.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert offenders == []


def _texts(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The plain text of every text widget on the current screen, and any toasts."""
    from textual.widgets import Static

    texts = [str(getattr(widget, "content", "")) for widget in app.screen.query(Static)]
    texts += [str(getattr(toast, "_notification").message) for toast in app.query("Toast")]
    texts += [str(n.message) + str(n.title) for n in app._notifications]
    return texts


def _assert_safe(app) -> None:  # type: ignore[no-untyped-def]
    for text in _texts(app):
        assert not RAW.search(text), text
    assert "PWNED\x07" not in app.export_screenshot()


def _hostile_ice_board(folder: Path) -> Path:
    path = folder / "evil.txt"
    path.write_text(f"title: Evil {EVIL} board\nsource: {EVIL}\n---\nSxx\nx#x\nxxE\n", encoding="utf-8")
    return path


async def test_a_hostile_board_title_opens_and_shows_literally(tmp_path: Path) -> None:
    path = _hostile_ice_board(tmp_path)
    app = make_app("ice", str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")
        await wait_idle(pilot)
        title = str(app.screen.query_one("#title").content)
        assert f"Evil {EVIL_SHOWN} board" in title
        _assert_safe(app)


async def test_the_board_picker_previews_a_hostile_board_literally(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "ice").mkdir()
    _hostile_ice_board(tmp_path / "ice")
    monkeypatch.setenv("TUI_GRID_BOARDS", str(tmp_path))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "enter")  # Ice sliding: its board list
        await pilot.pause()
        preview = str(app.screen.query_one("#preview").content)
        assert f"Evil {EVIL_SHOWN} board" in preview and f"source: {EVIL_SHOWN}" in preview
        _assert_safe(app)


async def test_markup_typed_into_the_new_board_dialog_keeps_the_game(tmp_path: Path) -> None:
    app = make_app("ice", "spiral")
    async with app.run_test(size=(100, 30)) as pilot:
        game = app.screen
        await pilot.press("up")
        await wait_idle(pilot)
        moves = len(game.session.log)
        assert moves == 1
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        field = dialog.query_one("#field-id")
        field.focus()
        await pilot.press(*"ice:[/x]")
        field.insert_text_at_cursor(OSC_TITLE)  # a paste of escapes: refused by the field
        assert field.value == "ice:[/x]"
        await pilot.press("enter")
        await wait_idle(pilot)
        await pilot.pause()
        assert any("[/x]" in text for text in _texts(app))  # refused: inline, or in a notification
        _assert_safe(app)
        if app.screen is dialog:
            await pilot.press("escape")
            await pilot.pause()
        assert app.screen is game and len(game.session.log) == moves


async def test_a_program_printing_markup_and_escapes_is_shown_literally(data_dir) -> None:
    from tests.test_ui_tron import remember

    program = "import sys; sys.stderr.write('[/x] \\x1b]0;PWNED\\x07 boom\\n'); print('[LEFT]')"
    remember(data_dir, players=["easy", f"oneshot:{sys.executable} -c {shlex.quote(program)}"], rounds=1)
    app = make_app("tron", "standard", speed=9)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        screen = app.screen
        assert await until(pilot, lambda: screen.session.over)
        await pilot.pause()
        message = str(screen.query_one("#message").content)
        assert "printed '[LEFT]'" in message
        _assert_safe(app)


def test_headless_output_never_carries_a_raw_control(tmp_path: Path, capfd) -> None:
    path = _hostile_ice_board(tmp_path)
    program = "import sys; sys.stderr.write('\\x1b]0;PWNED\\x07\\x1b[2J[/x]\\n'); sys.exit(3)"
    assert main(["watch", "ice", str(path), "--delay", "0"]) == 0
    assert main(["boards", "ice"]) == 0
    code = main(["match", "tron", "easy", f"oneshot:{sys.executable} -c {shlex.quote(program)}", "--games", "1"])
    assert code == 0
    assert main(["solve", "ice", str(tmp_path / f"no{OSC_TITLE}such")]) == 2
    assert main(["solve", "ice", f"ice:{OSC_TITLE}{CLEAR}[/x]"]) == 2  # a hostile game id
    assert main(["play", "jimmy", f"jimmy:3x3:g1:{EVIL}"]) == 2
    out, err = capfd.readouterr()
    assert EVIL_SHOWN in out and "\\x1b]0;PWNED" in err + out
    assert "\x1b" not in out + err and "\x07" not in out + err


def test_a_hostile_client_name_headless_reaches_no_stream_raw(capfd) -> None:
    """The architect's log names each client: a name with escapes is printed escaped."""
    from tests.test_cli_evasion import Raw
    from tui_grid.games.evasion.server import run_server

    bound = threading.Event()
    box: dict = {}

    def listening(port: int) -> None:
        box["port"] = port
        bound.set()

    def serve() -> None:
        box["code"] = main_with_port(listening)

    def main_with_port(on_port) -> dict:  # type: ignore[no-untyped-def]
        from tui_grid.games.evasion.rules import Config

        return run_server(Config(max_steps=20), "2023", 0, "tcp", "builtin", 20, on_listening=on_port,
                          log=lambda text: print(text, file=SafeStream(sys.stderr)))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert bound.wait(10)
    client = Raw(box["port"], f"name{EVIL}")
    try:
        client.play()
    finally:
        client.close()
    thread.join(20)
    assert not thread.is_alive()
    out, err = capfd.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err
    result = box["code"]
    assert "\x1b" not in result["hunter"] and len(result["hunter"]) <= 80


async def test_a_hostile_client_name_live_shows_literally() -> None:
    from tests.test_cli_evasion import Raw
    from tui_grid.games.evasion.definition import GAME
    from tui_grid.games.evasion.rules import Config
    from tui_grid.games.evasion.serve_app import ServeApp
    from tui_grid.games.evasion.server import EvasionServer

    server = EvasionServer(Config(max_steps=30), "2023", 0, "tcp", "builtin", 30, accept_timeout=10)
    app = ServeApp(GAME, registry.LoadedBoard(Config(max_steps=30), "served", "N=10 M=5"), server)
    async with app.run_test(size=(120, 30)) as pilot:
        holder: dict = {}

        def connect() -> None:
            holder["client"] = client = Raw(server.port, f"[/x]{OSC_TITLE}")
            client.play()

        thread = threading.Thread(target=connect, daemon=True)
        thread.start()
        assert await until(pilot, lambda: app.feed.result is not None, limit=20)
        await pilot.pause(0.1)
        shown = " ".join(_texts(app))
        assert "[/x]\\x1b]0;PWNED\\x07" in shown
        _assert_safe(app)
        thread.join(10)
        holder["client"].close()
    assert not app.feed.thread.is_alive()


async def test_a_plain_line_asks_for_layout_only_when_its_size_may_change() -> None:
    """A status line that changes every tick (a match's) costs a repaint, not a layout
    pass of the whole screen; a text with more lines, or one too long for the line, does."""
    from textual.app import App, ComposeResult

    from tui_grid.ui.plain import Plain

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Plain("tick 1", id="status")

    from textual.widgets import Static

    layouts: list[bool] = []
    original = Static.update

    def update(self, content="", *, layout: bool = True):  # type: ignore[no-untyped-def]
        layouts.append(layout)
        return original(self, content, layout=layout)

    app = One()
    async with app.run_test(size=(40, 10)) as pilot:
        status = app.query_one("#status", Plain)
        Static.update = update  # type: ignore[method-assign]
        try:
            for text in ("tick 2", "tick 2", "tick 3\nand more", "x" * 60, "[b]tick[/b] 4"):
                status.update(text)
                await pilot.pause()
        finally:
            Static.update = original  # type: ignore[method-assign]
    assert layouts == [False, True, True, True]  # the same words twice: nothing to draw
