"""The shipped bunny boards and the board parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_grid.core.boardfile import parse_board_text, read_board_file
from tui_grid.core.errors import BoardError
from tui_grid.core.geometry import Pos
from tui_grid.games.bunny.board import draw, parse_bunny

BOARDS = Path(__file__).resolve().parent.parent / "boards" / "bunny"


def test_twelve_seed_boards_with_metadata() -> None:
    paths = sorted(BOARDS.glob("*.txt"))
    assert len(paths) == 12
    published = 0
    for path in paths:
        text = read_board_file(path)
        board = parse_bunny(text)
        assert text.title
        published += int(text.meta["published"])
        assert board.unmarked <= board.reachable()
    assert published == 67


def test_ragged_rows_are_padded_with_void() -> None:
    board = parse_bunny(read_board_file(BOARDS / "doodle-6-halo.txt"))
    assert board.width == 5 and all(len(row) == 5 for row in board.rows)
    assert board.start == Pos(2, 2)
    assert not board.is_square(Pos(0, 4)) and not board.is_square(Pos(0, 0))
    assert len(board.initially_marked) == 9 and len(board.unmarked) == 12


@pytest.mark.parametrize(
    "text, where, words",
    [
        ("title: x\n---\nS#\n#x\n", "<t>:4:2:", "unknown character 'x'"),
        ("S#\n#S\n", "<t>:2:2:", "a second start"),
        ("##\n##\n", "<t>:1:1:", "missing start"),
        ("size: 2x1\n---\nS##\n", "<t>:3:3:", "longer than the declared width"),
    ],
)
def test_errors_give_file_line_column(text: str, where: str, words: str) -> None:
    with pytest.raises(BoardError) as info:
        parse_bunny(parse_board_text(text, "<t>"))
    assert str(info.value).startswith(where)
    assert words in str(info.value)


def test_draw() -> None:
    board = parse_bunny(parse_board_text("S##\n  #\n", "<t>"))
    assert draw(board) == ">##\n  #"
    assert draw(board, {Pos(0, 0), Pos(0, 1)}, (Pos(0, 2), 1)) == "OOv\n  #"
