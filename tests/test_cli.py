from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tui_grid.cli import main
from tui_grid.core.boardfile import parse_board_text
from tui_grid.core.geometry import Direction
from tui_grid.games.ice.board import parse_ice
from tui_grid.games.ice.rules import replay as ice_replay
from tui_grid.games.jimmy.board import parse_jimmy
from tui_grid.games.jimmy.rules import Outcome, replay as jimmy_replay

SPIRAL = "    x \n  #   \n   E  \n #    \n    # \nS    #\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_ice_json_exact_format(capsys) -> None:
    code, out, err = run(capsys, "solve", "ice", "spiral", "--json")
    assert (code, err) == (0, "")
    assert out == '{"solvable": true, "path": "urdlur", "moves": 6, "distance": 16}\n'


def test_solve_many_boards_in_argument_order(capsys) -> None:
    code, out, _ = run(capsys, "solve", "ice", "kata-maze-6x6", "spiral", "one-way", "--json")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0] == {"solvable": False, "path": None}
    assert [r.get("path") for r in records[1:]] == ["urdlur", "lur"]


def test_solve_reads_stdin_and_raw_boards(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SPIRAL.encode())))
    code, out, _ = run(capsys, "solve", "ice", "-", "--json")
    assert code == 0 and json.loads(out)["path"] == "urdlur"


def test_solve_ice_drawing(capsys) -> None:
    code, out, _ = run(capsys, "solve", "ice", "spiral")
    assert code == 0
    assert "6 moves, distance 16: urdlur" in out
    assert "E" in out and "#" in out


def test_solve_jimmy_json(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "solve", "jimmy", "seed-1", "seed-5", "--json")
    assert code == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["escape"] is True and all(letter in "UDLR" for letter in first["path"])
    board = parse_jimmy(parse_board_text("##########\n......g...\n#.o.......\n#.....g...\n##########\n"))
    path = [Direction.from_letter(letter) for letter in first["path"]]
    assert jimmy_replay(board, path).outcome is Outcome.ESCAPED
    assert second == {"escape": False, "path": None}


def test_jimmy_on_the_border_escapes_with_empty_path(capsys, tmp_path) -> None:
    board = tmp_path / "border.txt"
    board.write_text("#.\nog\n")
    code, out, _ = run(capsys, "solve", "jimmy", str(board), "--json")
    assert (code, out) == (0, '{"escape": true, "path": []}\n')


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("S  q E\n", "{path}:1:4: unknown character 'q'"),
        ("title: t\n---\nS   \n  x \n", "{path}:3:1: "),
        ("S E S\n", "{path}:1:5: "),
        ("", "{path}:1:1: empty file"),
    ],
)
def test_bad_ice_files_fail_in_one_line_with_exit_2(capsys, tmp_path, content: str, expected: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(content)
    code, out, err = run(capsys, "solve", "ice", str(path), "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("tui-grid: error: " + expected.format(path=path))


def test_no_output_when_any_board_is_bad(capsys, tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("S\n")
    code, out, err = run(capsys, "solve", "ice", "spiral", str(path), "--json")
    assert code == 2 and out == "" and str(path) in err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "chess", "x"],
        ["solve", "ice", "no-such-board"],
        ["solve", "tron", "x"],
        ["generate", "ice", "--size", "banana"],
        ["generate", "jimmy", "--escape", "maybe"],
        ["play", "ice", "ice:3x3:m99#seed1"],
        ["frobnicate"],
    ],
)
def test_usage_errors_are_one_line_exit_2(capsys, argv) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("tui-grid: error: ") and err.count("\n") == 1


def test_boards_lists_names(capsys) -> None:
    code, out, _ = run(capsys, "boards", "ice")
    names = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and "spiral" in names and "mahogany-gym" in names
    code, out, _ = run(capsys, "boards")
    assert "jimmy/seed-1" in out and "ice/spiral" in out


def test_generate_ice_is_reproducible_and_solvable(capsys) -> None:
    code, first, _ = run(capsys, "generate", "ice", "--size", "12x9", "--min-moves", "5", "--seed", "7")
    _, second, _ = run(capsys, "generate", "ice", "--size", "12x9", "--min-moves", "5", "--seed", "7")
    assert code == 0 and first == second
    text = parse_board_text(first)
    assert text.meta["id"] == "ice:12x9:m5#seed7"
    board = parse_ice(text)
    assert (board.width, board.height) == (12, 9)
    assert int(text.meta["moves"]) >= 5
    assert ice_replay(board, text.meta["route"]).pos == board.end


def test_generate_jimmy_honours_escape(capsys) -> None:
    for wanted in ("yes", "no"):
        code, out, _ = run(capsys, "generate", "jimmy", "--size", "8x8", "--ghosts", "2", "--escape", wanted, "--seed", "3")
        text = parse_board_text(out)
        assert code == 0 and text.meta["escape"] == wanted
        assert text.meta["id"] == f"jimmy:8x8:g2:{wanted}#seed3"


def test_solving_a_game_id(capsys) -> None:
    code, out, _ = run(capsys, "solve", "ice", "ice:10x8:m4#seed3", "--json")
    assert code == 0 and json.loads(out)["moves"] >= 4


def test_python_dash_m_and_console_script_agree() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tui_grid", "solve", "ice", "spiral", "--json"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out)["path"] == "urdlur"
    bad = subprocess.run([sys.executable, "-m", "tui_grid", "solve", "ice", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


def test_bad_bytes_are_reported_where_they_are(capsys, monkeypatch, tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"S E\n \xff\n")
    code, _, err = run(capsys, "solve", "ice", str(path))
    assert code == 2 and err.strip() == f"tui-grid: error: {path}:2:2: not UTF-8 text (byte 0xff)"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"S E\n \xff\n")))
    code, _, err = run(capsys, "solve", "ice", "-")
    assert code == 2 and err.strip() == "tui-grid: error: <stdin>:2:2: not UTF-8 text (byte 0xff)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["watch", "ice", "spiral", "--delay", "nan"], "--delay must be between 0 and 60 seconds"),
        (["watch", "ice", "spiral", "--delay", "inf"], "--delay must be between 0 and 60 seconds"),
        (["watch", "ice", "spiral", "--delay", "1e308"], "--delay must be between 0 and 60 seconds"),
        (["generate", "ice", "--size", "-5x5"], "size: expected WxH"),
        (["solve", "ice", "jimmy:10x10:g3:yes#seed1"], "that is a jimmy game id"),
        (["generate", "chess"], "unknown game"),
        (["generate", "evasion"], "evasion cannot generate boards: Evasion has no generator"),
        (["solve", "ice", "."], "is a folder"),
    ],
)
def test_bad_arguments_get_one_clear_line(capsys, args, message) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_board_sizes_from_files_are_capped(capsys, tmp_path) -> None:
    for size in ("99999999999999999999x1", "100000x100000"):
        path = tmp_path / "big.txt"
        path.write_text(f"size: {size}\n---\nS E\n")
        code, _, err = run(capsys, "solve", "ice", str(path))
        assert code == 2 and ("width and height must be at most 10000" in err or "at most 4,000,000 cells" in err)


def test_play_without_a_terminal_says_so_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui_grid", "play", "ice", "spiral"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "needs a terminal" in done.stderr and "solve" in done.stderr


VERBS_WITH_A_GAME = ["solve", "generate", "match", "run", "serve", "client", "bot"]


@pytest.mark.parametrize("verb", VERBS_WITH_A_GAME)
def test_every_verb_has_help_before_its_game(verb: str, capsys) -> None:
    """`tui-grid VERB --help` with no game shows the verb's usage and exits 0."""
    assert main([verb, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: tui-grid {verb} GAME") and f"tui-grid {verb} GAME --help" in out


@pytest.mark.parametrize(("game", "verb"), [("ice", "solve"), ("jimmy", "generate"), ("bunny", "run"), ("tron", "match"),
                                            ("tron", "bot"), ("evasion", "serve"), ("evasion", "client"), ("bunny", "solve")])
def test_both_orders_give_the_same_help(game: str, verb: str, capsys) -> None:
    for argv in ([verb, game, "--help"], [game, verb, "--help"]):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 0
    first, second = capsys.readouterr().out.split("usage: ")[1:]
    assert first == second and first.startswith(f"tui-grid {verb} {game}")


def test_game_first_runs_the_common_verbs(capsys) -> None:
    assert main(["ice", "solve", "spiral", "--json"]) == 0
    assert '"moves": 6' in capsys.readouterr().out
    assert main(["bunny", "solve", "doodle-1-line", "--json"]) == 0
    assert '"tokens": 2' in capsys.readouterr().out


def test_one_move_reads_one_move(tmp_path, capsys) -> None:
    """A one-move solution says "1 move", never "1 moves"."""
    board = tmp_path / "one.txt"
    board.write_text("size: 3x1\n---\nS E\n")
    assert main(["solve", "ice", str(board)]) == 0
    out = capsys.readouterr().out
    assert "1 move," in out and "1 moves" not in out


def test_a_2000x2000_map_is_no_longer_refused(capsys, tmp_path) -> None:
    """A 2000x2000 ice map solves: boards are capped by cells (4,000,000), not by side;
    a map over the cap is refused with the line where it goes over."""
    rows = [" " * 2000 for _ in range(2000)]  # all ice: S slides right, then down onto E
    rows[0] = "S" + " " * 1999
    rows[-1] = " " * 1999 + "E"
    path = tmp_path / "huge.txt"
    path.write_text("\n".join(rows) + "\n")
    code, out, err = run(capsys, "solve", "ice", str(path), "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["solvable"] is True and record["path"] in ("rd", "dr")
    too_big = tmp_path / "too-big.txt"
    too_big.write_text(("x" * 2001 + "\n") * 2000)
    code, _, err = run(capsys, "solve", "ice", str(too_big))
    assert code == 2 and "more than 4,000,000 cells" in err and ":2000:1:" in err


def test_hint_is_the_solvers_next_move_from_the_board_or_the_save(capsys, tmp_path) -> None:
    """The hint key's headless twin: the first move of the solver's plan, as solve plays it."""
    code, out, _ = run(capsys, "solve", "ice", "spiral", "--json")
    path = json.loads(out)["path"]
    code, out, _ = run(capsys, "hint", "ice", "spiral")
    assert code == 0 and out.splitlines()[0] == f"A simple spiral: next move {path[0]}"
    assert out.splitlines()[1].startswith(f"Optimal from here: {len(path)} moves")
    saved = tmp_path / "spiral-saved.txt"
    saved.write_text("game: ice\ntitle: Spiral\nsize: 6x6\nplayed: u\n---\n    x\n  #\n   E\n #\n    #\nS    #\n")
    code, out, _ = run(capsys, "ice", "hint", str(saved))  # from the saved position, either order
    assert code == 0 and "next move r" in out and "rdlur" in out
    code, out, _ = run(capsys, "hint", "jimmy", "seed-1")
    assert code == 0 and "next move" in out and "Escape in 3 moves" in out
    code, out, _ = run(capsys, "hint", "tron", "standard")  # the hard bot's move for red
    assert code == 0 and "next move" in out and "The hard bot drives red" in out
    code, out, err = run(capsys, "hint", "evasion", "evasion:N10:M5#seed1")
    assert code == 2 and err.strip() == "tui-grid: error: evasion cannot give hints: Evasion has no solver"


def test_a_game_named_with_help_says_what_it_can_do(capsys) -> None:
    """`tui-grid GAME --help` lists that game's commands, and only those it can do."""
    code, out, err = run(capsys, "tron", "--help")
    assert (code, err) == (0, "") and out.startswith("usage: tui-grid tron COMMAND")
    assert "  bot " in out and "  match " in out and "  hint " in out
    code, out, err = run(capsys, "tron")
    assert code == 2 and "its commands: bot, match (and play, boards, solve, hint, watch" in err
    code, out, err = run(capsys, "evasion", "--help")  # only what it can do: it has no solver
    assert code == 0 and "  serve " in out and "  play " in out and "solve" not in out and "hint" not in out


@pytest.mark.parametrize("game", ["ice", "jimmy", "bunny", "tron"])
def test_a_long_bad_game_id_is_echoed_cut_short(capsys, game) -> None:
    """A long bad game id is echoed cut short, so the error stays one readable line."""
    bad = f"{game}:" + "9" * 200
    code, out, err = run(capsys, "play", game, bad)
    assert code == 2 and "game id: '" in err and bad not in err and "…" in err and len(err) < 250


@pytest.mark.parametrize("command", ["hint", "watch", "replay", "play", "boards", "demo"])
def test_every_command_with_its_own_options_has_help(command: str, capsys) -> None:
    """Every command with options of its own answers --help with its usage, never a traceback."""
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0 and capsys.readouterr().out.startswith(f"usage: tui-grid {command}")


def test_a_file_of_another_game_says_which_game_it_is(capsys, tmp_path) -> None:
    """A file of another game is refused with that game's name and how to open it."""
    path = tmp_path / "ice-saved.txt"
    path.write_text("game: ice\ntitle: x\n---\nS  E\n")
    code, out, err = run(capsys, "play", "tron", str(path))
    assert code == 2 and err.strip() == f"tui-grid: error: {path}:1:7: this file is an ice game, not a tron one: open it as ice"


def test_an_extra_argument_points_at_its_commands_help(capsys) -> None:
    """An extra argument points at the help of its own command, not the top-level help."""
    code, out, err = run(capsys, "hint", "bunny", "a", "b")
    assert code == 2 and err.strip() == "tui-grid: error: unrecognized arguments: b (see 'tui-grid hint --help')"
    code, out, err = run(capsys, "--bogus")
    assert code == 2 and "(see 'tui-grid --help')" in err
