"""The shape of the screens: a game's screen is a puzzle or a match screen, each a Textual
Screen of its own (two levels of our screens, never three), and screens stay small."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from tui_grid.games.registry import all_games
from tui_grid.ui.match_screen import MatchScreen
from tui_grid.ui.puzzle_screen import PuzzleScreen

PACKAGE = Path(__file__).resolve().parent.parent / "tui_grid"


def our_screens(cls: type) -> list[type]:
    return [base for base in cls.__mro__ if issubclass(base, Screen) and base.__module__.startswith("tui_grid")]


def test_every_game_screen_is_a_puzzle_or_match_screen_two_levels_deep() -> None:
    for game in all_games():
        screen = game.screen_class()
        assert our_screens(screen) in ([screen, PuzzleScreen], [screen, MatchScreen]), game.key
    assert our_screens(PuzzleScreen) == [PuzzleScreen] and our_screens(MatchScreen) == [MatchScreen]  # siblings


def test_game_screens_and_views_stay_under_250_lines_and_shared_screens_350() -> None:
    long = [f"{path.relative_to(PACKAGE)}: {lines}" for path in sorted(PACKAGE.glob("games/*/*.py"))
            if path.name in ("screen.py", "view.py") and (lines := len(path.read_text().splitlines())) >= 250]
    shared = ("game_screen.py", "game_shell.py", "match_screen.py", "puzzle_screen.py")
    long += [f"ui/{name}: {lines}" for name in shared if (lines := len((PACKAGE / "ui" / name).read_text().splitlines())) > 350]
    assert long == []
