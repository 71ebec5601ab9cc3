"""The `tui-grid` command line: the app, and headless twins of everything its solvers do.

Common verbs work on any game that has the capability they need (`solve` needs a solver,
`generate` a generator); a game's own verbs are reachable both as `tui-grid VERB GAME`
and `tui-grid GAME VERB`, so a new game adds commands without touching this file.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from tui_grid import __version__
from tui_grid.core.control import DEFAULT_TIME_LIMIT, OutOfTime, SearchControl
from tui_grid.core.policy import Policy
from tui_grid.core.errors import BoardError, UsageError, listen_error
from tui_grid.core.text import SafeStream, echo, write_control
from tui_grid.games.registry import (
    BoardFiles,
    GameDefinition,
    Generated,
    LoadedBoard,
    Solvable,
    Verb,
    all_games,
    game_keys,
    get_game,
    online_games,
    parse_count,
    parse_seconds,
)

EXIT_BAD_INPUT = 2
#: `solve` answered, but a solver hit its memory budget on the way (see the README).
EXIT_MEMORY_CAPPED = 3
#: `solve`, `watch` or `generate` gave up at its time limit (`--time-limit`).
EXIT_GAVE_UP = 4
MAX_TIME_LIMIT = 7 * 24 * 3600.0
MAX_DELAY = 60.0
BOARD_HELP = "file path, board name, game id, or - for stdin"


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line, as every other error, quoting
    what was typed cut short (`echo`)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            self.error(_unrecognized(extra))
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(str, action.choices))
            raise argparse.ArgumentError(action, f"invalid choice: '{echo(value)}' (choose from {choices})")


def _unrecognized(extra: list[str]) -> str:
    return f"unrecognized arguments: {echo(' '.join(extra))}"


def _game_verbs() -> dict[str, list[tuple[GameDefinition, Verb]]]:
    verbs: dict[str, list[tuple[GameDefinition, Verb]]] = {}
    for game in all_games():
        for verb in game.verbs():
            verbs.setdefault(verb.name, []).append((game, verb))
    return verbs


COMMON = ("play", "boards", "solve", "hint", "watch", "generate", "replay", "demo")
#: What `tui-grid serve` serves besides a game's own server (a game's `serve` verb).
SERVE_APP = {
    "web": "the whole app to web browsers: each tab gets its own app",
    "ssh": "the app over SSH: each connection gets its own app on its own terminal",
}


@functools.lru_cache(maxsize=1)
def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, built once per process (a serve ssh session is forked
    from a process that has built it)."""
    parser = _Parser(
        prog="tui-grid",
        description="Grid games for the terminal with real solvers. With no command, opens the menu.",
    )
    parser.add_argument("--version", action="version", version=f"tui-grid {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    games = ", ".join(game_keys())

    play = commands.add_parser("play", help="start a game, optionally on a given board")
    play.add_argument("game", metavar="GAME", help=f"one of: {games}")
    play.add_argument("board", metavar="BOARD", nargs="?", help=BOARD_HELP)
    play.add_argument("--record", default=None, metavar="FILE.cast", help="record your play as an asciicast v2 file")
    play.add_argument("--force", action="store_true", help="with --record, overwrite FILE.cast if it exists")

    boards = commands.add_parser("boards", help="list the shipped boards by name")
    boards.add_argument("game", metavar="GAME", nargs="?", help=f"one of: {games} (default: all)")

    for name, text in (
        ("solve", "solve boards headless (tui-grid solve GAME --help for its options)"),
        ("generate", "print a new random board in file format (tui-grid generate GAME --help)"),
    ):
        sub = commands.add_parser(name, help=text, add_help=False)
        sub.add_argument("game", metavar="GAME", nargs="?", help=f"one of: {games}")
        sub.add_argument("rest", nargs=argparse.REMAINDER)

    hint = commands.add_parser("hint", help="the solver's next move from a board or a saved game (the h key's twin)")
    hint.add_argument("game", metavar="GAME", help=f"one of: {games}")
    hint.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    add_time_limit(hint, "planning")

    watch = commands.add_parser("watch", help="print the solver playing a board, move by move")
    watch.add_argument("game", metavar="GAME", help=f"one of: {games}")
    watch.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    watch.add_argument("--delay", default="0.4", metavar="SECONDS", help="pause between moves (default 0.4)")
    add_time_limit(watch, "planning")

    demo = commands.add_parser("demo", help="attract mode: every game's solver or bots at work, scene after scene",
                               description=textwrap.fill(
                                   "Attract mode: each game's solver or bots at work, one scene after another. Keys: space "
                                   "pauses, n the next scene, p the previous one, + and - the speed, enter plays the scene's "
                                   "game from there (a match: your seat, after a countdown), esc leaves.", 78),
                               epilog="scenes:\n" + "\n".join(f"  {game.key}: {scene.title}" for game in all_games()
                                                                for scene in game.demo_scenes),
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    demo.add_argument("--games", default=None, metavar="LIST", help="which games, e.g. ice,tron (default: all)")
    demo.add_argument("--scene-seconds", default="25", metavar="S", help="seconds per scene (default 25)")
    demo.add_argument("--seed", default="1", metavar="S", help="the same seed gives the same demo (default 1)")
    demo.add_argument("--record", default=None, metavar="FILE.cast", help="record the demo as an asciicast v2 file instead")
    demo.add_argument("--duration", default="60", metavar="S", help="seconds to record (default 60)")
    demo.add_argument("--size", default="80x24", metavar="WxH", help="the recording's terminal size (default 80x24)")
    demo.add_argument("--force", action="store_true", help="with --record, overwrite FILE.cast if it exists")
    demo.add_argument("--only", default=None, help=argparse.SUPPRESS)  # GAME=BOARD: one scene, no banner (record)

    online = commands.add_parser("online", help="the Online lobby of the 'tui-grid serve ssh' this session runs in; "
                                 "'online top GAME' and 'online replay ID' read a server's store on its host")
    online.add_argument("words", metavar="GAME | arena | top GAME | replay ID", nargs="*",
                        help=f"GAME joins its quick-match queue at once ({' or '.join(online_games())}); 'arena' rides in the Tron arena; 'top GAME' prints its "
                             "leaderboard, 'replay ID' a finished game move by move, from the server's data folder")
    online.add_argument("--data", default=None, metavar="DIR", help="with top or replay: the folder of the server's players.db (default: this user's data folder's ssh/, where 'serve ssh' keeps it)")
    online.add_argument("--limit", default="20", metavar="N", help="with top: how many players (default 20)")
    online.add_argument("--round", default=None, metavar="N", help="with replay: only this round (default: every round)")
    online.add_argument("--delay", default="0.25", metavar="S", help="with replay: seconds between moves on a terminal (default 0.25)")
    online.add_argument("--save", default=None, metavar="FILE", help="with replay: write the round (--round, default 1) as a game file")
    online.add_argument("--record", default=None, metavar="FILE.cast", help="with replay: write it as an asciicast v2 file")
    online.add_argument("--force", action="store_true", help="with --save or --record: overwrite an existing file")

    record = commands.add_parser("record", help="record the solver or bots playing a board as an asciicast v2 file")
    record.add_argument("game", metavar="GAME", help=f"one of: {games}")
    record.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    record.add_argument("-o", "--output", required=True, metavar="FILE.cast", help="the recording to write")
    record.add_argument("--duration", default="20", metavar="S", help="seconds to record (default 20)")
    record.add_argument("--size", default="80x24", metavar="WxH", help="the terminal size (default 80x24)")
    record.add_argument("--force", action="store_true", help="overwrite FILE.cast if it exists")

    replay = commands.add_parser("replay", help="print a saved game move by move")
    replay.add_argument("file", metavar="FILE", help="a saved game (a board file with a 'played:' header)")
    replay.add_argument("--game", metavar="GAME", help="the game, when the file has no 'game:' header")
    replay.add_argument("--delay", default="0", metavar="SECONDS", help="pause between moves (default 0)")

    for name, entries in sorted(_game_verbs().items()):
        if name in COMMON:
            continue
        owners = ", ".join(game.key for game, _ in entries)
        text = f"serve the app ({', '.join(SERVE_APP)}) or a game's server ({owners})" if name == "serve" else f"{entries[0][1].help} ({owners})"
        sub = commands.add_parser(name, help=text, add_help=False)
        sub.add_argument("game", metavar="GAME", nargs="?", help=f"one of: {owners}")
        sub.add_argument("rest", nargs=argparse.REMAINDER)
    return parser


#: Commands that take a GAME first and parse the rest with that game's own options.
GAME_FIRST = ("solve", "generate")


def main(argv: Sequence[str] | None = None) -> int:
    with _safe_streams():
        return _main(argv, Policy.for_environment())


@contextmanager
def _safe_streams() -> Iterator[None]:
    """Everything the command line prints goes through `SafeStream`: a name, a title or a
    program's stderr never reaches the operator's terminal as a control sequence."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _main(argv: Sequence[str] | None, policy: Policy) -> int:
    try:
        words = _glue_negative_values(list(sys.argv[1:] if argv is None else argv))
        if len(words) == 2 and words[0] in game_keys() and words[1] in ("-h", "--help"):
            return _game_help(get_game(words[0]))
        words = _verb_first(words)
        if _asks_for_help(words):
            return _command_help(words[0])
        args, extra = build_parser().parse_known_args(words)
        if extra:  # named against the command's own help, where its options are listed
            command = words[0] if words and words[0] in _commands() else ""
            see = f"tui-grid {command} --help" if command else "tui-grid --help"
            raise UsageError(f"{_unrecognized(extra)} (see '{see}')")
        return _dispatch(args, policy)
    except (BoardError, UsageError) as exc:
        print(f"tui-grid: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("tui-grid: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _commands() -> list[str]:
    return [*COMMON, *(name for name in _game_verbs() if name not in COMMON)]


def _verb_first(argv: list[str]) -> list[str]:
    """Both orders work for every command: `tui-grid ice solve spiral` is `tui-grid solve
    ice spiral`. A game named alone says what it can do."""
    if argv and argv[0] in game_keys():
        game = get_game(argv[0])
        if len(argv) > 1 and argv[1] in _commands():
            return [argv[1], argv[0], *argv[2:]]
        asked = f"{game.key} has no '{argv[1]}' command" if len(argv) > 1 and not argv[1].startswith("-") else f"tui-grid {game.key} needs a command"
        raise _no_such_command(game, asked)
    return argv


SHARED_COMMANDS = (
    ("play", "start it, optionally on a given board"),
    ("boards", "list its shipped boards"),
    ("solve", "solve boards headless"),
    ("hint", "the solver's next move from a board or a saved game"),
    ("watch", "print the solver playing a board, move by move"),
    ("generate", "print a new random board in file format"),
    ("replay", "print a saved game move by move"),
)


def _shared_commands(game: GameDefinition) -> list[tuple[str, str]]:
    """The shared commands this game can do (Evasion's help listed solve, which it refuses)."""
    needs = {"boards": BoardFiles, "replay": BoardFiles, "solve": Solvable, "hint": Solvable, "watch": Solvable, "generate": Generated}
    return [(name, text) for name, text in SHARED_COMMANDS if name not in needs or isinstance(game, needs[name])]


def _game_help(game: GameDefinition) -> int:
    """`tui-grid tron --help`: what the game can do, rather than an error asking for a command."""
    rows = [(verb.name, verb.help) for verb in game.verbs()] + _shared_commands(game)
    width = max(len(name) for name, _ in rows)
    print(f"usage: tui-grid {game.key} COMMAND ...   (or tui-grid COMMAND {game.key} ...)\n")
    print(f"{game.title}: {game.tagline}\n\ncommands (tui-grid {game.key} COMMAND --help for each one's options):")
    for name, text in rows:
        print(f"  {name:<{width}}  {text}")
    return 0


def _no_such_command(game: GameDefinition, what: str) -> UsageError:
    """What a game can do, when asked for what it cannot: its own commands and the shared
    ones (ice has no verbs of its own, yet it solves and generates)."""
    own = ", ".join(verb.name for verb in game.verbs())
    shared = ", ".join(name for name, _ in _shared_commands(game))
    return UsageError(f"{what}; its commands: {own or 'none of its own'} (and {shared})")


def _asks_for_help(argv: list[str]) -> bool:
    """`tui-grid solve --help` (no game yet): the command's own help, not an error."""
    return len(argv) >= 2 and argv[0] in _commands() and argv[1] in ("-h", "--help") and argv[0] not in ("play", "boards", "hint", "watch", "replay", "demo")


def _command_help(command: str) -> int:
    """Help for a command that takes a GAME first: which games offer it, and where the
    rest of its options are."""
    if command == "serve":
        return _serve_help()
    owners = [game.key for game in all_games() if command in GAME_FIRST or any(verb.name == command for verb in game.verbs())]
    about = {"solve": "solve boards headless", "generate": "print a new random board in file format"}.get(command)
    if about is None:
        about = next(verb.help for game in all_games() for verb in game.verbs() if verb.name == command)
    print(f"usage: tui-grid {command} GAME ...  (or tui-grid GAME {command} ...)\n\n{about}.\n\n"
          f"GAME: one of {', '.join(owners)}\nSee 'tui-grid {command} GAME --help' for that game's options.")
    return 0


def _serve_rows() -> list[tuple[str, str]]:
    """Everything `tui-grid serve` serves: the app (SERVE_APP), then each game's server."""
    games = [(game.key, f"{verb.help} (or tui-grid {game.key} serve)") for game in all_games() for verb in game.verbs() if verb.name == "serve"]
    return [*SERVE_APP.items(), *games]


def _serve_help() -> int:
    rows = _serve_rows()
    width = max(len(name) for name, _ in rows)
    print(f"usage: tui-grid serve GAME|{'|'.join(SERVE_APP)} ...\n\nServe to others over the network:")
    for name, text in rows:
        print(f"  {name:<{width}}  {text}")
    pages = ", ".join(f"'tui-grid serve {name} --help'" for name in SERVE_APP)
    print(f"\nSee {pages} or 'tui-grid serve GAME --help' for the options of each.")
    return 0


def _glue_negative_values(argv: list[str]) -> list[str]:
    """`--size -5x5` becomes `--size=-5x5`, so argparse reports the bad value itself
    rather than "expected one argument"."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1].startswith("--") and "=" not in out[-1] and arg.startswith("-") and len(arg) > 1 and (arg[1].isdigit() or arg[1] == "."):
            out[-1] = f"{out[-1]}={arg}"
        else:
            out.append(arg)
    return out


def _dispatch(args: argparse.Namespace, policy: Policy) -> int:
    command = args.command
    if command is None:
        return _run_app(policy)
    if command == "play":
        game = get_game(args.game)
        loaded = game.load(args.board) if args.board else None
        if args.record:
            return _play_recorded(game, args.board, OutputFile("--record", args.record, args.force))
        return _run_app(policy, game.key, loaded)
    if command == "boards":
        return _list_boards(args.game)
    if command == "serve":
        return _serve(args.game, args.rest)
    if command == "solve":
        return _solve(_need_game("solve", args.game), args.rest)
    if command == "generate":
        return _generate(_need_game("generate", args.game), args.rest)
    if command == "hint":
        return _hint(get_game(args.game), args.board, _time_limit(args.time_limit))
    if command == "watch":
        return _watch(get_game(args.game), args.board, _delay(args.delay), _time_limit(args.time_limit))
    if command == "replay":
        return _replay(args.file, args.game, _delay(args.delay))
    if command == "demo":
        options = _demo_options(args)
        if args.record:
            argv = ["demo", "--scene-seconds", args.scene_seconds, "--seed", args.seed] + (["--games", args.games] if args.games else [])
            return _record(argv, OutputFile("--record", args.record, args.force), args.size, args.duration, "tui-grid demo")
        return _run_app(policy, demo=options)
    if command == "online":
        return _online(args, policy)
    if command == "record":
        game = get_game(args.game)
        game.load(args.board)  # a bad board is one line here, before any terminal is made
        output = OutputFile("-o", args.output, args.force)
        return _record(["demo", "--only", f"{game.key}={args.board}"], output, args.size, args.duration, f"tui-grid {game.key} {args.board}")
    return _run_verb(_need_game(command, args.game), command, args.rest, f"tui-grid {command}")


def _serve(what: str | None, rest: list[str]) -> int:
    """`tui-grid serve WHAT`: the app (SERVE_APP) or a game's own server."""
    if what == "web":
        return _serve_web(rest)
    if what == "ssh":
        return _serve_ssh(rest)
    if what in game_keys():
        return _run_verb(get_game(what), "serve", rest, "tui-grid serve")
    asked = "serve needs what to serve" if what is None else f"cannot serve '{echo(what)}'"
    raise UsageError(f"{asked}: choose from {', '.join(name for name, _ in _serve_rows())} (see 'tui-grid serve --help')")


def _serve_web(rest: list[str]) -> int:
    """The whole app in a browser (textual-serve): each tab runs its own app."""

    def configure(parser: argparse.ArgumentParser) -> None:
        parser.description = "Serve the app to web browsers: each tab gets its own app."
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
        parser.add_argument("--port", default="8000", metavar="PORT", help="port to listen on (default 8000)")
        parser.add_argument("--public-url", default=None, metavar="URL", help="the address browsers use, behind a proxy")

    args = _sub_parser("tui-grid serve web", configure).parse_args(rest)
    port = parse_count("--port", args.port, 1, 65535)
    from tui_grid.ui.web import serve_web

    serve_web(args.host, port, args.public_url)
    return 0


def _online(args: argparse.Namespace, policy: Policy) -> int:
    """`online [GAME]`: the lobby of the server this session runs in; `online top GAME`: a
    leaderboard from a server's data folder, on its host."""
    words = list(args.words)
    if words[:1] == ["top"]:
        if len(words) != 2 or words[1] not in online_games():
            raise UsageError(f"online top needs one GAME: {' or '.join(online_games())}")
        if policy.remote:
            raise UsageError("online top is for the server's host: the lobby's l key shows the leaderboard here")
        return _online_top(words[1], args.data, parse_count("--limit", args.limit, 1, 1000))
    if words[:1] == ["replay"]:
        if len(words) != 2 or not words[1].isdigit():
            raise UsageError("online replay needs the number of a finished game (the lobby's m and h list them)")
        if policy.remote:
            raise UsageError("online replay is for the server's host: the lobby's m and h replay games here")
        return _online_replay(int(words[1]), args)
    if len(words) > 1 or (words and words[0] not in (*online_games(), "arena")):
        raise UsageError(f"online takes at most one GAME: {' or '.join(online_games())} (or 'arena', 'top GAME', 'replay ID')")
    from tui_grid.online.client import hub_available

    if not hub_available():
        raise UsageError("online play is for sessions of 'tui-grid serve ssh': connect with ssh -p PORT HOST")
    return _run_app(policy, online=words[0] if words else "")


def _server_store(data: str | None) -> Any:
    """The store of the server whose data folder is `data` (default: this user's)."""
    from pathlib import Path

    from tui_grid.core import saves
    from tui_grid.online.store import SQLiteStore

    folder = Path(data).expanduser() if data else saves.data_dir() / "ssh"
    path = folder / "players.db"
    if not path.is_file():
        raise UsageError(f"{echo(str(path))}: no server store here (run 'tui-grid serve ssh', or name its folder with --data)")
    return SQLiteStore(path)


def _online_replay(game_id: int, args: argparse.Namespace) -> int:
    """A finished online game from the server's store: printed move by move, a round saved
    as a game file (--save), or the whole of it as an asciicast (--record)."""
    from tui_grid.core.recording import write_frames

    stored = _server_store(args.data).match(game_id)
    if stored is None:
        raise UsageError(f"no finished game {game_id} in this server's store")
    game = get_game(stored.game)
    loaded = game.load(stored.board)
    chosen = range(len(stored.rounds)) if args.round is None else [parse_count("--round", args.round, 1, len(stored.rounds)) - 1]
    if args.save:
        files: BoardFiles = _capability(game, BoardFiles, "keep games in files")
        path = OutputFile("--save", args.save, args.force).checked()
        round_ = stored.rounds[chosen[0]]
        path.write_text(files.save_text(loaded, round_.log))  # the log as the session wrote it
        print(f"tui-grid: round {chosen[0] + 1} of game {game_id} saved to {echo(str(path), limit=PATH_ECHO)} "
              f"(tui-grid replay {echo(str(path), limit=PATH_ECHO)})")
        return 0
    frames: list[str] = []
    for index in chosen:
        round_ = stored.rounds[index]
        engine = game.make_engine(loaded)
        steps = engine.parse_log(round_.log)
        seats = " vs ".join(stored.names[p] for p in round_.seating)
        captions = [f"game {game_id}, round {index + 1}: {seats}"] + [
            f"round {index + 1}, step {i + 1}: {engine.format_log([joint])}" for i, joint in enumerate(steps)]
        captions[-1] += f"\n{round_.outcome}"
        frames += _frames(game, engine, engine.replay(steps), captions)
    frames[-1] += f"\n{stored.verdict}"
    title = f"{game.title} game {game_id}: {' vs '.join(stored.names)}"
    if args.record:
        path = OutputFile("--record", args.record, args.force).checked()
        count = write_frames(path, title, frames, _delay(args.delay))
        print(f"tui-grid: {count} frames of game {game_id} written to {echo(str(path), limit=PATH_ECHO)} "
              f"(asciinema play {echo(str(path), limit=PATH_ECHO)})")
        return 0
    _print_frames(title, frames, _delay(args.delay))
    return 0


def _online_top(game: str, data: str | None, limit: int) -> int:
    """The leaderboard of `game`, kept in the server's store: rank, name, rating (with '?'
    while provisional), its deviation and the games played."""
    rows = _server_store(data).leaderboard(game, limit)
    title = get_game(game).title
    if not rows:
        print(f"{title}: nobody has a rating on this server yet.")
        return 0
    print(f"{title} leaderboard\n{'#':>3}  {'player':<24} {'rating':>7} {'±':>4} {'games':>6}")
    for row in rows:
        mark = "?" if row.provisional else " "
        print(f"{row.rank:>3}  {echo(row.name, limit=24):<24} {round(row.rating):>6}{mark} {round(row.rd):>4} {row.games:>6}")
    if any(row.provisional for row in rows):
        print("? provisional: fewer games than a settled rating needs (deviation above 110)")
    return 0


def _serve_ssh(rest: list[str]) -> int:
    """The app over SSH for strangers: each connection its own app on its own terminal,
    under the limits of online.limits (online.ssh_server)."""
    from dataclasses import replace
    from pathlib import Path

    from tui_grid.core import saves
    from tui_grid.online.limits import ServerLimits
    from tui_grid.ui.web import is_loopback

    defaults = ServerLimits()

    def configure(parser: argparse.ArgumentParser) -> None:
        parser.description = ("Serve the app over SSH: ssh -t -p PORT HOST opens the menu; ssh -t -p PORT HOST tron "
                              "opens a game. See README, 'Running a public server'.")
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
        parser.add_argument("--port", default="2222", metavar="PORT", help="port (default 2222; 0: any free one)")
        parser.add_argument("--host-key", default=None, metavar="PATH", help="the host key (default: made once in the data folder)")
        parser.add_argument("--auth", default=None, metavar="none|keys", help="none: anyone, as a guest; keys: only --authorized-keys "
                            "(the default unless the address is loopback)")
        parser.add_argument("--authorized-keys", default=None, metavar="FILE", help="public keys allowed in with --auth keys")
        parser.add_argument("--max-sessions", default=str(defaults.max_sessions), metavar="N",
                            help=f"sessions at once (default {defaults.max_sessions})")
        parser.add_argument("--max-per-host", "--max-per-address", dest="max_per_host", default=str(defaults.per_host), metavar="N",
                            help=f"sessions from one host (an IPv4 address, an IPv6 /64) at once (default {defaults.per_host})")
        parser.add_argument("--max-connections-per-host", default=str(defaults.connections_per_host), metavar="N",
                            help=f"logged-in connections from one host, with or without a session (default {defaults.connections_per_host})")
        parser.add_argument("--max-logins-per-host", default=str(defaults.unauthenticated_per_host), metavar="N",
                            help=f"connections from one host still logging in (default {defaults.unauthenticated_per_host})")
        parser.add_argument("--connections-per-minute", default=str(defaults.connections_per_minute), metavar="N",
                            help=f"new connections one host may open a minute (default {defaults.connections_per_minute})")
        parser.add_argument("--sessions-per-minute", default=str(defaults.sessions_per_minute), metavar="N",
                            help=f"new sessions one host may start a minute (default {defaults.sessions_per_minute})")
        parser.add_argument("--memory", default=str(defaults.memory_budget_bytes // 2**20), metavar="MiB",
                            help="memory for all sessions together (default: half of this machine's)")
        parser.add_argument("--session-user", default=None, metavar="USER",
                            help="with a server running as root, the user sessions run as (default nobody)")
        parser.add_argument("--arena-cycles", default="6", metavar="N",
                            help="cycles in each round of the Tron arena room, riders and bots (3 to 8, default 6)")
        parser.add_argument("--hub", default=None, metavar="redis://HOST[:PORT]",
                            help="share one lobby with the other servers at this Redis: presence, quick-match queues, "
                                 "matches across servers (pip install 'tui_grid[servers]')")
        parser.add_argument("--store", default=None, metavar="postgresql://…",
                            help="keep accounts, ratings and games in this PostgreSQL database (shared by the servers), "
                                 "not in the data folder's SQLite file")

    args = _sub_parser("tui-grid serve ssh", configure).parse_args(rest)
    port = parse_count("--port", args.port, 0, 65535)
    auth = args.auth or ("none" if is_loopback(args.host) else "keys")
    if auth not in ("none", "keys"):
        raise UsageError(f"--auth must be none or keys, got '{echo(args.auth)}'")
    keys = Path(args.authorized_keys).expanduser() if args.authorized_keys else None
    if auth == "keys" and (keys is None or not keys.is_file()):
        raise UsageError("--auth keys needs --authorized-keys FILE (an OpenSSH authorized_keys file)")
    limits = replace(defaults, max_sessions=parse_count("--max-sessions", args.max_sessions, 1, 10_000),
                     per_host=parse_count("--max-per-host", args.max_per_host, 1, 10_000),
                     connections_per_host=parse_count("--max-connections-per-host", args.max_connections_per_host, 1, 10_000),
                     unauthenticated_per_host=parse_count("--max-logins-per-host", args.max_logins_per_host, 1, 10_000),
                     connections_per_minute=parse_count("--connections-per-minute", args.connections_per_minute, 1, 1_000_000),
                     sessions_per_minute=parse_count("--sessions-per-minute", args.sessions_per_minute, 1, 1_000_000),
                     memory_budget_bytes=parse_count("--memory", args.memory, 64, 1 << 30) * 2**20)
    data = saves.data_dir() / "ssh"
    key_path = Path(args.host_key).expanduser() if args.host_key else data / "ssh_host_ed25519_key"
    arena_cycles = parse_count("--arena-cycles", args.arena_cycles, 3, 8)
    if args.hub is not None and not args.hub.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--hub must be a Redis URL (redis://HOST[:PORT]), got '{echo(args.hub)}'")
    if args.store is not None and not args.store.startswith(("postgresql://", "postgres://")):
        raise UsageError(f"--store must be a PostgreSQL URL (postgresql://…), got '{echo(args.store)}'")
    return serve_ssh(args.host, port, key_path, data, auth, keys, limits, args.session_user, arena_cycles,
                     federation=args.hub, store=args.store)


def serve_ssh(host: str, port: int, key_path: Any, data: Any, auth: str, keys: Any, limits: Any, user: str | None,
              arena_cycles: int = 6, *, federation: str | None = None, store: str | None = None) -> int:
    """Run `serve ssh` until SIGINT, SIGTERM or SIGHUP: then every client is told."""
    import asyncio
    import signal

    from tui_grid.online.ssh_server import GameServer, ServerConfig

    import threading

    lock = threading.Lock()

    def log(text: str) -> None:
        """One line, whole: the hub's threads and the loop log at once."""
        with lock:
            sys.stderr.write(f"tui-grid: {text}\n")
            sys.stderr.flush()

    config = ServerConfig(data, auth, keys, tuple(game.key for game in all_games()), limits, session_user=user,
                          arena_cycles=arena_cycles, federation=federation, store=store)
    try:
        server = GameServer(config, log)
    except ValueError as exc:
        raise UsageError(str(exc)) from None

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        stopping = asyncio.Event()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, stopping.set)
        try:
            await server.start(host, port, key_path)
            log(f"serving ssh on {host}:{server.port} (auth {auth}): ssh -t -p {server.port} {host}")
            await stopping.wait()
            log("stopping: every session is told")
            await server.stop()
        finally:
            server.close()

    from tui_grid.online.federation import FederationError

    try:
        asyncio.run(serve())
    except FederationError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise listen_error(host, port, exc) from None
    return 0


def _need_game(command: str, key: str | None) -> GameDefinition:
    if key is None or key.startswith("-"):
        raise UsageError(f"{command} needs a GAME: one of {', '.join(game_keys())}")
    return get_game(key)


def _sub_parser(prog: str, configure: Callable[[argparse.ArgumentParser], None]) -> argparse.ArgumentParser:
    parser = _Parser(prog=prog)
    configure(parser)
    return parser


def _run_verb(game: GameDefinition, name: str | None, rest: list[str], prog: str) -> int:
    verbs = {verb.name: verb for verb in game.verbs()}
    if name is None or name not in verbs:
        raise _no_such_command(game, f"{game.key} has no '{name}' command" if name else f"{prog} needs a command")
    verb = verbs[name]
    args = _sub_parser(f"tui-grid {name} {game.key}", verb.configure).parse_args(rest)
    return verb.run(args)


def _delay(text: str) -> float:
    return parse_seconds("--delay", text, MAX_DELAY, zero=True)


NEEDS_TERMINAL = "the app needs a terminal; for headless work use 'tui-grid solve', 'watch' or 'replay'"


def _run_app(policy: Policy, game_key: str | None = None, loaded: LoadedBoard | None = None, demo: dict[str, Any] | None = None,
             online: str | None = None) -> int:
    _attach_terminal()
    from tui_grid.ui.app import TuiGridApp

    TuiGridApp(game_key=game_key, loaded=loaded, demo=demo, online=online, policy=policy).run()
    return 0


class OutputFile(NamedTuple):
    """A file a command writes: the option that named it, its path, and whether an
    existing file may be replaced (`--force`)."""

    option: str
    path: str
    force: bool

    def checked(self) -> Path:
        """The path to write, or a UsageError naming the option: a folder, a missing
        folder, or a file that exists without --force."""
        path = Path(self.path)
        if path.is_dir() or not path.parent.is_dir():
            raise UsageError(f"{self.option}: {echo(self.path, limit=PATH_ECHO)} is not a file in an existing folder")
        if os.path.lexists(path) and not self.force:
            raise UsageError(f"{self.option}: {echo(self.path, limit=PATH_ECHO)} exists: add --force to overwrite it")
        return path


#: A path the user typed is quoted whole in an error, up to Linux's PATH_MAX.
PATH_ECHO = 4096


#: The largest terminal a recording may have: past any real screen. The smallest is the
#: app's own minimum (ui.too_small): below it the app draws only its "too small" notice.
MAX_TERMINAL_WIDTH, MAX_TERMINAL_HEIGHT = 500, 200


def _terminal_size(text: str) -> tuple[int, int]:
    """A recording's `--size`: WxH from the app's minimum to the largest terminal, or a
    one-line UsageError that says the range."""
    from tui_grid.core.boardfile import parse_size
    from tui_grid.ui.too_small import MIN_HEIGHT, MIN_WIDTH

    try:
        width, height = parse_size(text)  # the one WxH reader; it refuses runaway digits early
    except ValueError:
        width = height = 0
    if MIN_WIDTH <= width <= MAX_TERMINAL_WIDTH and MIN_HEIGHT <= height <= MAX_TERMINAL_HEIGHT:
        return width, height
    raise UsageError(f"--size must be a terminal size WxH from {MIN_WIDTH}x{MIN_HEIGHT} (the smallest the app draws in) "
                     f"to {MAX_TERMINAL_WIDTH}x{MAX_TERMINAL_HEIGHT}, got '{echo(text)}'")


def _record(argv: list[str], output: OutputFile, size: str, duration: str, title: str) -> int:
    """Run the app (`python -m tui_grid ARGV`) on a pseudo-terminal and record it; every
    option is checked before the terminal is made."""
    from tui_grid.core.recording import record

    width, height = _terminal_size(size)
    seconds = parse_seconds("--duration", duration, 24 * 3600)
    path = output.checked()
    count = record([sys.executable, "-m", "tui_grid", *argv], path, width, height, seconds, title)
    print(f"tui-grid: recorded {count} frames to {output.path} ({width}x{height}, {seconds:g} s): asciinema play {output.path}", file=sys.stderr)
    return 0


def _play_recorded(game: GameDefinition, board: str | None, output: OutputFile) -> int:
    """`play --record`: the app plays on a pseudo-terminal relayed to this one and
    recorded (core.recording.record_play); the board and the file are checked first."""
    from tui_grid.core.recording import check_writable, record_play

    if board == "-":
        raise UsageError("--record: a board from standard input cannot be recorded; give its file instead")
    path = output.checked()
    try:
        check_writable(path)
    except OSError as exc:
        raise UsageError(f"--record: {echo(output.path, limit=PATH_ECHO)}: {exc.strerror or exc}") from None
    _attach_terminal()
    title = f"tui-grid play {game.key}" + (f" {board}" if board else "")
    count = record_play([sys.executable, "-m", "tui_grid", "play", game.key, *([board] if board else [])], path, title)
    print(f"tui-grid: recorded {count} frames to {output.path}: asciinema play {output.path}", file=sys.stderr)
    return 0


def _demo_options(args: argparse.Namespace) -> dict[str, Any]:
    """`tui-grid demo`'s choices, checked before any terminal is touched."""
    from tui_grid.ui.demo import scene_of, scenes_for

    games = None if args.games is None else tuple(part.strip() for part in args.games.split(",") if part.strip())
    try:
        scenes = scenes_for(games) if args.only is None else (scene_of(*args.only.split("=", 1)),)
    except ValueError as exc:
        raise UsageError(f"--games: {exc}") from None
    if args.only is not None:
        return {"scenes": scenes, "scene_seconds": 24 * 3600.0, "seed": 1, "banner": False}
    seconds = parse_seconds("--scene-seconds", args.scene_seconds, 3600)
    try:
        seed = int(args.seed)
    except ValueError:
        raise UsageError(f"--seed must be a whole number, got '{echo(args.seed)}'") from None
    return {"scenes": scenes, "scene_seconds": seconds, "seed": seed}


def _attach_terminal() -> None:
    """Keys come from the terminal even when the board came down a pipe (as `less` does):
    standard input is replaced by /dev/tty. Without a terminal, say so in one line."""
    import os

    if os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver"):
        return  # served to a browser (tui-grid serve web): the web driver is the terminal
    if not sys.stdout.isatty():
        raise UsageError(f"output is not a terminal: {NEEDS_TERMINAL}")
    if sys.stdin.isatty():
        return
    try:
        tty = os.open("/dev/tty", os.O_RDONLY)
    except OSError:
        raise UsageError(f"no terminal to read keys from: {NEEDS_TERMINAL}") from None
    os.dup2(tty, 0)
    os.close(tty)
    sys.stdin = sys.__stdin__ = open(0, "r", closefd=False)


def _list_boards(game_key: str | None) -> int:
    games = [get_game(game_key)] if game_key else all_games()
    for game in games:
        if not isinstance(game, BoardFiles):
            if game_key:
                raise UsageError(f"{game.key} has no board files")
            continue
        entries = game.boards()
        width = max((len(entry.name) for entry in entries), default=0)
        for entry in entries:
            prefix = "" if game_key else f"{game.key}/"
            print(f"{prefix}{entry.name.ljust(width)}  {entry.title()}")
    return 0


CAPABILITY_NAMES = {BoardFiles: "board files", Generated: "generator", Solvable: "solver"}


def _capability(game: GameDefinition, kind: type, verb: str) -> Any:
    if not isinstance(game, kind):
        raise UsageError(f"{game.key} cannot {verb}: {game.title} has no {CAPABILITY_NAMES[kind]}")
    return game


def _solve(game: GameDefinition, rest: list[str]) -> int:
    solver: Solvable = _capability(game, Solvable, "solve boards")

    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("boards", metavar="BOARD", nargs="+", help=BOARD_HELP)
        parser.add_argument("--json", action="store_true", help="print one JSON object per board, in argument order")
        add_time_limit(parser, "on a board")
        solver.add_solve_arguments(parser)

    args = _sub_parser(f"tui-grid solve {game.key}", configure).parse_args(rest)
    if args.boards.count("-") > 1:
        raise UsageError("'-' (stdin) may be given only once")
    time_limit = _time_limit(args.time_limit)
    extra = {key: value for key, value in vars(args).items() if key not in ("boards", "json", "time_limit")}
    # Every board (and its saved moves) is checked before any is solved.
    started = []
    for arg in args.boards:
        loaded = game.load(arg)
        engine, state = game.state_after(loaded)
        started.append((loaded, engine, state))
    capped = gave_up = False
    for index, (loaded, engine, state) in enumerate(started):
        try:
            with stderr_progress(f"solving {loaded.title}", time_limit) as control:
                record = solver.solve_record(engine, state, control, **extra)
                # The drawing may search too (Jimmy's longest line): within the same limit.
                drawing = None if args.json else solver.solve_drawing(engine, state, record, control)
        except OutOfTime as exc:
            gave_up = True
            print(f"tui-grid: {loaded.title}: {exc}", file=sys.stderr, flush=True)
            if args.json:
                print(json.dumps({"gave_up": True, "time_limit": exc.limit, "nodes": exc.nodes}), flush=True)
            continue
        capped = capped or bool(record.get("memory_capped"))
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            if len(started) > 1:
                print(("\n" if index else "") + f"== {loaded.title} ==")
            print(drawing, flush=True)
    return EXIT_GAVE_UP if gave_up else EXIT_MEMORY_CAPPED if capped else 0


def _generate(game: GameDefinition, rest: list[str]) -> int:
    generator: Generated = _capability(game, Generated, "generate boards")

    def configure(parser: argparse.ArgumentParser) -> None:
        for option in generator.options:
            option.add_to(parser)
        parser.add_argument("--seed", default=None, metavar="S", help="random seed (default: a new one)")
        add_time_limit(parser, "generating")

    args = _sub_parser(f"tui-grid generate {game.key}", configure).parse_args(rest)
    game_id = generator.id_from_args(args)
    try:
        with stderr_progress(f"generating {game_id}", _time_limit(args.time_limit)) as control:
            text = generator.generate_file(game_id, control)
    except OutOfTime as exc:
        print(f"tui-grid: {game_id}: {exc}; try a smaller board or other options", file=sys.stderr)
        return EXIT_GAVE_UP
    sys.stdout.write(text)
    return 0


#: Seconds between progress lines when stderr is a pipe or a log.
LOG_PROGRESS_SECONDS = 10.0


@contextmanager
def stderr_progress(label: str, time_limit: float | None = DEFAULT_TIME_LIMIT) -> Iterator[SearchControl]:
    """A SearchControl for a headless search: it gives up past `time_limit` seconds
    (`OutOfTime`), and shows progress on stderr: a live line on a terminal (cleared at the
    end), else a plain line every LOG_PROGRESS_SECONDS, so a log shows the search is alive."""
    live = sys.stderr.isatty()
    started = time.monotonic()
    shown = [0.0]
    every = 0.2 if live else LOG_PROGRESS_SECONDS
    limit = f" of {time_limit:g} s" if time_limit else ""

    def show(nodes: int, total: int | None) -> None:
        now = time.monotonic()
        if now - (shown[0] or started) < every:
            return
        shown[0] = now
        part = f"{nodes:,}/{total:,}" if total else f"{nodes:,}"
        line = f"{label}: {part} nodes, {now - started:.1f} s{limit}"
        if live:
            write_control(sys.stderr, "\r\x1b[K")
            sys.stderr.write(f"{line} (ctrl+c stops)")
        else:
            sys.stderr.write(f"tui-grid: {line}\n")
        sys.stderr.flush()

    try:
        yield SearchControl(on_progress=show, every=4096, time_limit=time_limit)
    finally:
        if shown[0] and live:
            write_control(sys.stderr, "\r\x1b[K")
            sys.stderr.flush()


def add_time_limit(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--time-limit", default=str(DEFAULT_TIME_LIMIT), metavar="SECONDS",
                        help=f"give up {what} after this many seconds, 0 for no limit (default {DEFAULT_TIME_LIMIT:g})")


def _time_limit(text: str) -> float | None:
    return parse_seconds("--time-limit", text, MAX_TIME_LIMIT, zero=True) or None


def _print_frames(title: str, frames: list[str], delay: float) -> None:
    """One frame after another; on a terminal each redraws in place."""
    redraw = sys.stdout.isatty()
    for index, frame in enumerate(frames):
        if index:
            time.sleep(delay)
        if redraw:
            write_control(sys.stdout, "\x1b[H\x1b[2J")
        prefix = "" if redraw else ("\n" if index else "")
        print(f"{prefix}{title}  ({index}/{len(frames) - 1})\n{frame}", flush=True)


def _frames(game: GameDefinition, engine: Any, states: list[Any], captions: list[str]) -> list[str]:
    return [f"{game.draw(engine, state)}\n{caption}" if caption else game.draw(engine, state) for state, caption in zip(states, captions)]


def _hint(game: GameDefinition, board_arg: str, time_limit: float | None = DEFAULT_TIME_LIMIT) -> int:
    """The headless twin of the hint key: the solver's next move from the (saved) position,
    in the game's action encoding, and what the solver says of the position. Exit 1 when
    there is no move to give (the game is over, or the solver has none)."""
    solver: Solvable = _capability(game, Solvable, "give hints")
    loaded = game.load(board_arg)
    engine, state = game.state_after(loaded)
    outcome = engine.outcome(state)
    if outcome.over and not engine.plays_on_after_end:
        print(f"{loaded.title}: the game is over ({outcome.reason}): no move to give")
        return 1
    with stderr_progress(f"planning {loaded.title}", time_limit) as control:
        try:
            plan = solver.plan(engine, state, 0, control)
        except OutOfTime as exc:
            print(f"tui-grid: {loaded.title}: {exc}", file=sys.stderr)
            return EXIT_GAVE_UP
    if not plan.actions:
        print(f"{loaded.title}: {plan.message or 'the solver has no move from here'}")
        return 1
    print(f"{loaded.title}: next move {engine.encode_action(plan.actions[0])}")
    if plan.message:
        print(plan.message)
    return 0


def _watch(game: GameDefinition, board_arg: str, delay: float, time_limit: float | None = DEFAULT_TIME_LIMIT) -> int:
    """The headless twin of the watch key: the same table (core.table) seats the solver in
    the player's seat and its driver plays from the (saved) position, as in the app."""
    import queue

    from tui_grid.core.session import ChangeKind, Session
    from tui_grid.core.table import Changed, Table, TableEvent, WatchStopped

    solver: Solvable = _capability(game, Solvable, "be watched")
    loaded = game.load(board_arg)
    engine, state = game.state_after(loaded)
    session: Session[Any, Any] = Session(engine, start=state, undo=False)
    played_before = len(session.log)
    with stderr_progress(f"planning {loaded.title}", time_limit) as control:
        plans: list[Any] = []
        gave_up: list[OutOfTime] = []

        def planned(engine: Any, state: Any, seat: int, _: Any) -> Any:
            try:
                plans.append(solver.plan(engine, state, seat, control))
            except OutOfTime as exc:
                gave_up.append(exc)
                raise
            return plans[-1]

        steps: list[Any] = []
        ended: list[WatchStopped] = []

        def heard(event: TableEvent) -> None:
            if isinstance(event, Changed) and event.change.kind is ChangeKind.STEP:
                steps.extend(event.change.steps)
            elif isinstance(event, WatchStopped):
                ended.append(event)

        calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        table: Table[Any] = Table(session, loaded, to_owner=calls.put, on_event=heard, planner=planned)
        table.watch(0.0, ready=lambda: True)
        while not ended:
            calls.get()()
        table.close()
    if gave_up:
        print(f"tui-grid: {loaded.title}: {gave_up[0]}", file=sys.stderr)
        return EXIT_GAVE_UP
    states, captions = [state], ["start"]
    for joint, step in zip(session.log[played_before:], steps):
        move = engine.encode_action(joint[0])
        if game.watch_frames:
            for number, frame in enumerate(step.frames[:-1], 1):
                states.append(frame)
                captions.append(f"move {move}: frame {number} of {len(step.frames)}")
        states.append(step.state)
        captions.append(f"move {move}")
    # A solver's one plan says what was watched ("Optimal from here: …"); a bot's plans
    # (a new one each move) say only their move: the last of those is no summary.
    message = plans[0].message if len(plans) == 1 else ""
    if message:
        captions[-1] += ("\n" if captions[-1] else "") + message
    _print_frames(loaded.title, _frames(game, engine, states, captions), delay)
    return 0


def _replay(path: str, game_key: str | None, delay: float) -> int:
    from tui_grid.core.boardfile import read_board_file

    text = read_board_file(path)
    key = game_key or text.meta.get("game")
    if not key:
        raise BoardError(text.source, 1, 1, "no 'game:' header: say which game with --game")
    game = get_game(key)
    files: BoardFiles = _capability(game, BoardFiles, "replay files")
    loaded = files.loaded_from_text(text, path)
    engine, steps = game.start(loaded)
    if not steps:
        raise BoardError(text.source, text.meta_lines.get("played", 1), 1, "no moves to replay: the file has no 'played:' header")
    states = engine.replay(steps)
    captions = ["start"] + [f"step {i + 1}: {engine.format_log([joint])}" for i, joint in enumerate(steps)]
    outcome = engine.outcome(states[-1])
    if outcome.over:
        captions[-1] += f"\n{outcome.reason}"
    _print_frames(loaded.title, _frames(game, engine, states, captions), delay)
    return 0
