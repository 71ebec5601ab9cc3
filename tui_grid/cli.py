"""The `tui-grid` command line: the app, and headless twins of everything its solvers do."""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn, Sequence

from tui_grid import __version__
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.games.registry import PLANNED, all_games, game_keys, get_game

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line, as every other error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tui-grid",
        description="Grid games for the terminal with real solvers. With no command, opens the menu.",
    )
    parser.add_argument("--version", action="version", version=f"tui-grid {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    games = ", ".join(game_keys())

    play = commands.add_parser("play", help="start a game, optionally on a given board")
    play.add_argument("game", metavar="GAME", help=f"one of: {games}")
    play.add_argument("board", metavar="BOARD", nargs="?", help="file path, board name, game id, or - for stdin")

    boards = commands.add_parser("boards", help="list the shipped boards by name")
    boards.add_argument("game", metavar="GAME", nargs="?", help=f"one of: {games} (default: all)")

    solve = commands.add_parser("solve", help="solve boards headless")
    solve.add_argument("game", metavar="GAME", help=f"one of: {games}")
    solve.add_argument("boards", metavar="BOARD", nargs="+", help="file path, board name, game id, or - for stdin")
    solve.add_argument("--json", action="store_true", help="print one JSON object per board, in argument order")

    watch = commands.add_parser("watch", help="print the solver playing a board, move by move")
    watch.add_argument("game", metavar="GAME", help=f"one of: {games}")
    watch.add_argument("board", metavar="BOARD", help="file path, board name, game id, or - for stdin")
    watch.add_argument("--delay", type=float, default=0.4, metavar="SECONDS", help="pause between moves (default 0.4)")

    generate = commands.add_parser("generate", help="print a new random board in file format")
    per_game = generate.add_subparsers(dest="game", metavar="GAME", required=True, parser_class=_Parser)
    for game in all_games():
        sub = per_game.add_parser(game.key, help=f"generate a {game.title} board")
        game.add_generate_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return _dispatch(args)
    except (BoardError, UsageError) as exc:
        print(f"tui-grid: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("tui-grid: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _dispatch(args: argparse.Namespace) -> int:
    if args.command is None:
        return _run_app()
    if args.command == "play":
        game = get_game(args.game)
        loaded = game.load(args.board) if args.board else None
        return _run_app(game.key, loaded)
    if args.command == "boards":
        return _list_boards(args.game)
    if args.command == "solve":
        return _solve(args.game, args.boards, args.json)
    if args.command == "watch":
        return _watch(args.game, args.board, args.delay)
    if args.command == "generate":
        game = get_game(args.game)
        sys.stdout.write(game.generate_file(game.generate_id(args)))
        return 0
    raise UsageError(f"unknown command {args.command!r}")


def _run_app(game_key: str | None = None, loaded=None) -> int:
    from tui_grid.ui.app import TuiGridApp

    TuiGridApp(game_key=game_key, loaded=loaded).run()
    return 0


def _list_boards(game_key: str | None) -> int:
    games = [get_game(game_key)] if game_key else all_games()
    for game in games:
        entries = game.boards()
        width = max((len(entry.name) for entry in entries), default=0)
        for entry in entries:
            prefix = "" if game_key else f"{game.key}/"
            print(f"{prefix}{entry.name.ljust(width)}  {entry.title()}")
    if not game_key:
        for planned in PLANNED:
            print(f"{planned.key}/  (not playable yet)")
    return 0


def _watch(game_key: str, board_arg: str, delay: float) -> int:
    """Replay the solver's play; on a terminal each frame redraws in place."""
    import time

    if delay < 0:
        raise UsageError(f"--delay must be zero or more, got {delay}")
    game = get_game(game_key)
    loaded = game.load(board_arg)
    record = game.solve_record(loaded.board)
    frames = game.watch_frames(loaded.board, record)
    redraw = sys.stdout.isatty()
    for index, frame in enumerate(frames):
        if index:
            time.sleep(delay)
        prefix = "\x1b[H\x1b[2J" if redraw else ("\n" if index else "")
        print(f"{prefix}{loaded.title}  ({index}/{len(frames) - 1})\n{frame}", flush=True)
    return 0


def _solve(game_key: str, board_args: list[str], as_json: bool) -> int:
    game = get_game(game_key)
    if board_args.count("-") > 1:
        raise UsageError("'-' (stdin) may be given only once")
    loaded = [game.load(arg) for arg in board_args]  # all boards are checked before any is solved
    for index, item in enumerate(loaded):
        record = game.solve_record(item.board)
        if as_json:
            print(json.dumps(record), flush=True)
        else:
            if len(loaded) > 1:
                print(("\n" if index else "") + f"== {item.title} ==")
            print(game.solve_drawing(item.board, record), flush=True)
    return 0
