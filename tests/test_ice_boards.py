"""Ice sliding: every shipped board parses, and its metadata is what the solvers find."""

from __future__ import annotations

import pytest

from tui_grid.core.boardfile import parse_board_text
from tui_grid.core.catalog import list_boards
from tui_grid.games.ice.baseline import bfs_baseline
from tui_grid.games.ice.board import parse_ice
from tui_grid.games.ice.rules import IceState, replay
from tui_grid.games.ice.solver import solve

ENTRIES = list_boards("ice")
NAMES = [entry.name for entry in ENTRIES]

#: The kata's expected answers (example and real-life tests of kata 58f4cc4e43251b1be6000082).
KATA_ROUTES = {
    "spiral": "urdlur",
    "one-way": "lur",
    "tiebreak-moves": "rulu",
    "tiebreak-distance": "lurur",
    "all-x": "uuuullddddlluuuu",
    "kata-maze-6x6": None,
    "kata-box-3x3": None,
    "ice-path": "ulururdluldrdrur",
    "mahogany-gym": "uuuulurdlur",
    "undertale-tic-tac-toe": "ruldrrdlurur",
    "orbox-b-level-5": "dlulurdldrdrurdldlu",
}


def test_the_kata_boards_are_shipped() -> None:
    assert set(KATA_ROUTES) <= set(NAMES)


@pytest.mark.parametrize("entry", ENTRIES, ids=NAMES)
def test_board_metadata_matches_the_solvers(entry) -> None:
    text = entry.load()
    for key in ("title", "size", "route", "source"):
        assert text.meta.get(key), f"{entry.name}: missing header {key!r}"
    board = parse_ice(text)
    assert text.declared_size == (board.width, board.height)
    solution = solve(board)
    baseline = bfs_baseline(board)
    if text.meta["route"] == "none":
        assert solution is None and baseline is None
        assert "moves" not in text.meta and "distance" not in text.meta
        return
    moves, distance = int(text.meta["moves"]), int(text.meta["distance"])
    assert solution is not None and baseline is not None
    assert (solution.moves, solution.distance) == (moves, distance)
    assert (baseline.moves, baseline.distance) == (moves, distance)
    assert replay(board, text.meta["route"]) == IceState(board.end, moves, distance)
    assert replay(board, solution.route_string()) == IceState(board.end, moves, distance)


@pytest.mark.parametrize("name", list(KATA_ROUTES))
def test_kata_boards_carry_the_kata_answers(name: str) -> None:
    text = next(entry for entry in ENTRIES if entry.name == name).load()
    expected = KATA_ROUTES[name]
    assert text.meta["route"] == (expected or "none")
    assert "58f4cc4e43251b1be6000082" in text.meta["source"]
    solution = solve(parse_ice(text))
    assert (solution and solution.route_string()) == expected


@pytest.mark.parametrize("entry", ENTRIES, ids=NAMES)
def test_stripping_trailing_whitespace_changes_no_board(entry) -> None:
    content = entry.path.read_text(encoding="utf-8")
    stripped = "\n".join(line.rstrip() for line in content.splitlines()).rstrip("\n \t") + "\n"
    assert parse_ice(parse_board_text(stripped, "stripped.txt")) == parse_ice(entry.load())
