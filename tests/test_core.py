from __future__ import annotations

import threading

import pytest

from tui_grid.core.boardfile import format_board_file, parse_board_text, parse_size
from tui_grid.core.catalog import find_board, list_boards, read_board_arg
from tui_grid.core.control import Cancelled, SearchControl
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.geometry import Direction, Pos, parse_route, route_string
from tui_grid.core.history import History


def test_positions_step_in_each_direction() -> None:
    assert Pos(3, 3).step(Direction.UP) == Pos(2, 3)
    assert Pos(3, 3).step(Direction.RIGHT, 4) == Pos(3, 7)
    assert Direction.LEFT.opposite is Direction.RIGHT
    assert route_string(parse_route("UrDl")) == "urdl"
    with pytest.raises(ValueError):
        Direction.from_letter("q")


def test_header_and_rows_are_split_with_line_numbers() -> None:
    text = parse_board_text("title: Spiral\nsize: 6x2\n---\n    x \nS  E\n\n\n", "a.txt")
    assert text.title == "Spiral"
    assert text.declared_size == (6, 2)
    assert text.rows == ("    x ", "S  E")
    assert text.first_line == 4
    assert str(text.error(1, 2, "boom")) == "a.txt:5:3: boom"


def test_raw_board_has_no_header_and_keeps_leading_blank_rows() -> None:
    text = parse_board_text("\n S E\n", "raw.txt")
    assert text.meta == {}
    assert text.rows == ("", " S E")
    assert text.first_line == 1


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("", "f.txt:1:1: empty file: no board rows"),
        ("\n  \n", "f.txt:1:1: empty file: no board rows"),
        ("title: a\n", "f.txt:1:1: header is not closed by a '---' line"),
        ("title: a\nnot a header\n---\nS\n", "f.txt:2:1: expected a 'key: value' header line or '---'"),
        ("title: a\ntitle: b\n---\nS\n", "f.txt:2:1: duplicate header key 'title'"),
        ("title: a\n---\n\n", "f.txt:3:1: no board rows after the header"),
        ("size: 3\n---\nS\n", "f.txt:1:1: size: expected WxH such as 16x12, got '3'"),
    ],
)
def test_bad_files_name_file_line_and_column(source: str, expected: str) -> None:
    with pytest.raises(BoardError) as info:
        parse_board_text(source, "f.txt")
    assert str(info.value) == expected


def test_format_round_trips() -> None:
    text = format_board_file(["S  ", "  E"], {"title": "t", "size": "3x2"})
    parsed = parse_board_text(text)
    assert parsed.rows == ("S  ", "  E")
    assert dict(parsed.meta) == {"title": "t", "size": "3x2"}
    assert parse_size("16x12") == (16, 12)


def test_history_undo_redo_restart() -> None:
    history = History(0)
    history.push(1)
    history.push(2)
    assert history.undo() == 1
    assert history.redo() == 2
    assert history.redo() is None
    history.undo()
    history.push(5)  # drops the redo branch
    assert not history.can_redo
    assert history.restart() == 0
    assert history.undo() == 5  # restart is undoable
    assert History(0).undo() is None


def test_search_control_cancels_and_reports() -> None:
    seen = []
    cancel = threading.Event()
    control = SearchControl(cancel=cancel, on_progress=lambda n, t: seen.append(n), every=10)
    for _ in range(25):
        control.tick()
    assert seen == [10, 20]
    cancel.set()
    with pytest.raises(Cancelled):
        for _ in range(10):
            control.tick()


def test_catalog_finds_shipped_boards_by_name_and_path(tmp_path) -> None:
    names = [entry.name for entry in list_boards("ice")]
    assert "spiral" in names
    assert find_board("ice", "spiral.txt") is not None
    assert read_board_arg("ice", "spiral").title
    board = tmp_path / "mine.txt"
    board.write_text("S E\n")
    assert read_board_arg("ice", str(board)).rows == ("S E",)
    with pytest.raises(UsageError):
        read_board_arg("ice", "no-such-board")


def test_games_register_themselves_from_their_folders() -> None:
    """A new game is its folder: every package with a definition module is found, in the
    menu's order, and its GAME is named after its folder."""
    from tui_grid.games import registry

    assert registry.game_keys() == ("jimmy", "ice", "bunny", "evasion", "tron")
    for key in registry.game_keys():
        assert registry.get_game(key).key == key
