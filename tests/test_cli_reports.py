"""What the command line reports on bad input: one line naming the option or the file,
exit code 2, outside text escaped once and cut short, and nothing started or written
before the input is checked."""

from __future__ import annotations

import io
import re
import socket
from pathlib import Path

import pytest

from tui_grid.cli import main
from tui_grid.core import recording
from tui_grid.core.text import ECHO_LIMIT, SafeStream, echo, printable
from tui_grid.games.bunny.board import make_board
from tui_grid.games.bunny.engine import BunnyEngine
from tui_grid.games.tron import botmain

PACKAGE = Path(__file__).resolve().parent.parent / "tui_grid"
GAMES = ("bunny", "evasion", "ice", "jimmy", "tron")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(code: int, err: str) -> str:
    """The error line of a refused command (exit 2, one line on stderr)."""
    assert code == 2 and err.startswith("tui-grid: error: ") and err.count("\n") == 1, (code, err)
    return err


@pytest.fixture
def recorded(monkeypatch) -> list[tuple[Path, int, int]]:
    """`record` replaced by a stand-in that writes the file at once: no terminal, no app."""
    calls: list[tuple[Path, int, int]] = []

    def fake(argv, path: Path, width: int, height: int, seconds: float, title: str) -> int:
        calls.append((path, width, height))
        path.write_text("recorded\n")
        return 1

    monkeypatch.setattr(recording, "record", fake)
    return calls


# --- record -o FILE: an existing file needs --force ----------------------------------------------
@pytest.mark.parametrize("argv", [["record", "ice", "spiral", "-o"], ["demo", "--games", "ice", "--record"]])
def test_an_existing_recording_is_not_overwritten_without_force(capsys, tmp_path, recorded, argv) -> None:
    saved = tmp_path / "saved.cast"
    saved.write_text("a saved game\n")
    err = one_error(*run(capsys, *argv, str(saved))[::2])
    assert str(saved) in err and "exists" in err and "--force" in err
    assert saved.read_text() == "a saved game\n" and recorded == []


@pytest.mark.parametrize("argv", [["record", "ice", "spiral", "-o"], ["demo", "--games", "ice", "--record"]])
def test_force_overwrites_an_existing_recording(capsys, tmp_path, recorded, argv) -> None:
    saved = tmp_path / "saved.cast"
    saved.write_text("a saved game\n")
    code, _, err = run(capsys, *argv, str(saved), "--force")
    assert code == 0 and saved.read_text() == "recorded\n" and [call[0] for call in recorded] == [saved]


def test_a_new_recording_needs_no_force(capsys, tmp_path, recorded) -> None:
    cast = tmp_path / "new.cast"
    assert run(capsys, "record", "ice", "spiral", "-o", str(cast))[0] == 0 and cast.read_text() == "recorded\n"


# --- record --size: a terminal size the app can draw in ------------------------------------------
@pytest.mark.parametrize("size", ["10x5", "5000x5000", "39x24", "80x11", "501x24", "80x201", "3x", "", "9" * 5000 + "x9"])
def test_a_terminal_size_out_of_range_is_one_line_naming_the_range(capsys, tmp_path, recorded, size) -> None:
    err = one_error(*run(capsys, "record", "ice", "spiral", "-o", str(tmp_path / "x.cast"), f"--size={size}")[::2])
    assert "--size" in err and "40x12" in err and "500x200" in err and len(err) < 250
    assert "board" not in err and "cells" not in err and recorded == []


@pytest.mark.parametrize(("size", "expected"), [("40x12", (40, 12)), ("500x200", (500, 200)), ("80x24", (80, 24))])
def test_terminal_sizes_in_range_are_recorded_at_that_size(capsys, tmp_path, recorded, size, expected) -> None:
    assert run(capsys, "record", "ice", "spiral", "-o", str(tmp_path / "x.cast"), "--size", size)[0] == 0
    assert recorded[0][1:] == expected


def test_the_demo_recording_checks_its_size_too(capsys, tmp_path, recorded) -> None:
    err = one_error(*run(capsys, "demo", "--record", str(tmp_path / "x.cast"), "--size", "10x5")[::2])
    assert "--size" in err and "40x12" in err and recorded == []


# --- serve on a busy port --------------------------------------------------------------------------
@pytest.fixture
def busy_port():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


@pytest.mark.parametrize("what", ["web", "evasion"])
def test_serving_on_a_busy_port_says_so_in_one_line_before_any_url(capsys, busy_port, what) -> None:
    code, out, err = run(capsys, "serve", what, "--port", str(busy_port))
    assert (code, out) == (2, "")
    assert err == f"tui-grid: error: port {busy_port} is in use: choose another with --port\n"


# --- serve --help: every serve subcommand ---------------------------------------------------------
def test_serve_help_lists_every_thing_it_serves(capsys) -> None:
    code, out, err = run(capsys, "serve", "--help")
    assert (code, err) == (0, "")
    listed = re.findall(r"^  (\S+)  ", out, re.MULTILINE)
    assert listed == ["web", "ssh", "evasion"]
    assert "tui-grid serve web --help" in out and "tui-grid serve ssh --help" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    row = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("serve "))
    assert "web" in row and "ssh" in row and "evasion" in row


@pytest.mark.parametrize("argv", [["serve"], ["serve", "nope"]])
def test_serving_nothing_known_names_what_can_be_served(capsys, argv) -> None:
    err = one_error(*run(capsys, *argv)[::2])
    assert "web, ssh, evasion" in err and "tui-grid serve --help" in err


# --- demo --games: an empty or unknown list ------------------------------------------------------
@pytest.mark.parametrize("games", ["", ",", " , ", "chess", "chess,go"])
def test_a_demo_of_no_known_game_is_a_usage_error_naming_the_games(capsys, games) -> None:
    err = one_error(*run(capsys, "demo", "--games", games)[::2])
    assert "--games" in err and all(game in err for game in GAMES)


# --- outside text is escaped once ------------------------------------------------------------------
@pytest.mark.parametrize(("argv", "shown"), [
    (["generate", "ice", "--seed", "a\x1b"], "'a\\x1b'"),
    (["play", "ice", "ice:a\x1b"], "'ice:a\\x1b'"),
    (["serve", "ssh", "--auth", "a\x1b"], "'a\\x1b'"),
    (["demo", "--seed", "a\x1b"], "'a\\x1b'"),
    (["match", "tron", "easy", "hard", "--time-ms", "a\x1b"], "'a\\x1b'"),
    (["match", "tron", "a\x1b", "hard"], "'a\\x1b'"),
    (["play", "\x1b"], "'\\x1b'"),
    (["bot", "tron", "--level", "a\x1b"], "'a\\x1b'"),
])
def test_an_escape_typed_in_a_name_is_shown_escaped_once(capsys, argv, shown) -> None:
    err = one_error(*run(capsys, *argv)[::2])
    assert shown in err and "\\\\" not in err and "\x1b" not in err


def test_no_message_puts_repr_on_top_of_the_escaper() -> None:
    """`{echo(x)!r}` shows each escape's backslash twice: quote with '{echo(x)}'."""
    doubled = re.compile(r"(echo|printable|clip)\((?:[^()]|\([^()]*\))*\)!r|repr\((echo|printable|clip)\(")
    offenders = [f"{path.relative_to(PACKAGE)}:{number}" for path in sorted(PACKAGE.rglob("*.py"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if doubled.search(line)]
    assert offenders == []


# --- undecodable bytes show as \xNN ---------------------------------------------------------------
def test_an_undecodable_byte_is_shown_as_that_byte() -> None:
    text = b"a\xab\xff".decode("utf-8", "surrogateescape")
    assert printable(text) == "a\\xab\\xff" and echo(text) == "a\\xab\\xff"
    assert printable("\ud800\udc00") == "\\ud800\\udc00"  # lone surrogates that are no byte
    sink = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # strict: a surrogate would raise
    SafeStream(sink).write(text)


def _bytes_in(data: bytes) -> io.TextIOWrapper:
    """Standard input as a C or C.UTF-8 locale opens it: bad bytes become surrogates."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")


@pytest.mark.parametrize(("data", "shown"), [
    (b"\xab\n1 1 2 2\n####\n", "got '\\xab'"),
    (b"r\n1 \xab 2 2\n####\n", "got '1 \\xab 2 2'"),
    (b"r\n1 1 2 2\n##\xab#\n", "unknown grid character '\\xab'"),
])
def test_the_tron_bot_shows_binary_input_as_bytes(capsys, data, shown) -> None:
    assert botmain.run(_bytes_in(data), io.StringIO(), "easy", 10) == 2
    err = capsys.readouterr().err
    assert shown in err and "\\udc" not in err and err.count("\n") == 1


def test_the_tron_bot_command_shows_binary_input_as_bytes(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", _bytes_in(b"r\n1 1 2 2\n##\xab#\n"))
    code, out, err = run(capsys, "tron", "bot", "--level", "easy")
    assert (code, out) == (2, "") and "'\\xab'" in err and "\\udc" not in err


def test_the_standalone_bot_escapes_its_arguments(capsys) -> None:
    assert botmain.main(["--level", "\udcab" + "x" * 500]) == 2
    err = capsys.readouterr().err
    assert "'\\xab" in err and "\\udc" not in err and "…" in err and len(err) < 300


# --- long input is cut short ----------------------------------------------------------------------
PROGRAM = "LOOP{F F R} " * 17_000  # about 200 KB


@pytest.mark.parametrize("argv", [
    ["run", "bunny", "--program", "F", PROGRAM],  # the program where the board goes
    ["run", "bunny", "--program", PROGRAM + "Q", "doodle-1-line"],
    ["run", "bunny", "--program", "F", "doodle-1-line", PROGRAM],
    ["run", "bunny", "--programme", PROGRAM, "doodle-1-line"],
    ["match", "tron", PROGRAM, "hard"],
    ["bot", "tron", "--level", PROGRAM],
    ["play", "evasion", PROGRAM],
    [PROGRAM],
])
def test_a_long_input_is_echoed_as_a_short_excerpt(capsys, argv) -> None:
    err = one_error(*run(capsys, *argv)[::2])
    assert len(err) < 2 * ECHO_LIMIT + 200 and PROGRAM[:ECHO_LIMIT + 1] not in err
    assert "…" in err or PROGRAM[:12] not in err  # quoted, it is an excerpt


def test_a_saved_runs_long_program_is_cut_in_its_error() -> None:
    with pytest.raises(ValueError) as refused:
        BunnyEngine(make_board(["S  "])).parse_log(f"F ; {PROGRAM}Q")
    assert "…" in str(refused.value) and len(str(refused.value)) < 2 * ECHO_LIMIT + 100
