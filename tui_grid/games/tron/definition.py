"""Tron light cycles as the CLI and the app see it: boards, random maps, who may fill a
seat, the hard bot as a solver (`tui-grid solve tron STATE`), and the verbs `bot` (a
HackerRank bot on stdin/stdout) and `match` (bots and programs headless, seats swapped).

UI-free: the screen (`screen.py`) is imported by the app only; the bots, the external
program agent and the match loop are imported when a command needs them.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

from tui_grid.core.agents import Agent
from tui_grid.core.boardfile import BoardText
from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Plan
from tui_grid.core.errors import UsageError
from tui_grid.core.match import MatchScore, most_points
from tui_grid.core.policy import ALL_KINDS
from tui_grid.core.players import (
    PlayerContext,
    ProgramCodec,
    check_program_found,
    make_player,
    parse_player,
    participant_names,
    player_choices,
)
from tui_grid.core.text import echo, write_control
from tui_grid.core.words import plural
from tui_grid.games.registry import (
    DemoScene, OnlinePlay,
    BoardFiles,
    GameDefinition,
    GameOption,
    Generated,
    LoadedBoard,
    Solvable,
    Verb,
    parse_count,
    parse_seconds,
    parse_seed,
    parse_size_option,
    usage_errors,
)
from tui_grid.games.tron.arena import arena_board
from tui_grid.games.tron.board import LETTERS, MAX_CYCLES, TronBoard, parse_tron
from tui_grid.games.tron.engine import TronEngine
from tui_grid.games.tron.rules import SEAT_NAMES, TronState

#: A board name for the arena of N cycles.
ARENA_NAME = re.compile(r"^arena(\d+)$")

#: Builtin bot levels, weakest first.
LEVELS = ("easy", "medium", "hard")
DEFAULT_TIME_MS = 100
#: Seconds an external program may take per move in a headless match, by default.
DEFAULT_PROGRAM_TIMEOUT = 2.0
MAX_GAMES = 100_000
MAX_TIME_MS = 60_000

HELP = """\
# Tron light cycles

Two light cycles, **red** and **green**, race on a walled arena and leave a trail
behind them. Both move **at the same time**, one cell per tick.

- A cycle that drives into a wall, any trail (its own included) or off the board
  **crashes**. The other one wins.
- If both crash in the same tick, or both enter the same cell (a head-on meeting),
  the round is a **draw**.
- A cycle with no free cell around it has no move: it crashes on the next tick.
- A cycle whose player gives no move keeps going straight (on its first move it heads
  for the centre).

**Arena.** With three to eight cycles (the setup's *Cycles*, or the boards `arena3` to
`arena8`) every cycle still riding moves at once; a cycle that crashes is out and its trail
stays; cycles entering one cell all crash. The last cycle riding wins the round, and each
cycle it outlasted is a point: a match is won on points. The board grows with the
cycles, and each colour has its own trail glyph (`░ ▒ ▓ : + = ~ *`) and head letter
(`R G B Y M C W O`).

A match is several rounds; the seats swap after each round, so each player drives red
and green in turn. The score line counts each player's wins and the draws. When a round
ends the message says who crashed, where and why, and the crash cell is marked `X`.

| Glyph | Meaning |
|---|---|
| `R↑` `G←` | red's and green's heads, with the way they last moved |
| `░░` | red's trail |
| `▒▒` | green's trail |
| `██` | wall |
| `X` | where a cycle crashed (or the two met head-on) |
| `◆` | hint: the cell the hard bot would drive to for you |

**Keys.** Player 1 steers with the **arrow keys**, player 2 with **W A S D**. A player
keeps his keys when the seats swap. A lone human may use either set. A key straight back
the way you came is ignored (it would crash into your own trail), and up to three turns
pressed within one tick are played on the following ticks in order. Keys pressed while
the game is paused or counting down are one intention: space, or `.` for one tick, plays
the last of them.

**Who plays.** On opening a board, the setup dialog (`n` reopens it) chooses each
player: a human, a builtin bot (*easy* goes where the longest straight run is, *medium*
looks one move ahead at the territory each side reaches first, *hard* searches many moves
ahead with alpha-beta), or an external program given as a command line. It also picks the
board (this one, a new random map, or a new random map every round), the number of
rounds and the tick speed. The last choices are remembered.

**Programs** speak HackerRank's Tron protocol: each move they read line 1 the player to
move (`r` or `g`), line 2 `r_row r_col g_row g_col` (counted from 0; the messages count
rows and columns from 1, as people do), then the grid rows (`#` wall, `-` empty, `r` `g`
trails), and print one of `LEFT RIGHT UP DOWN`. A *one-shot* program is
started afresh for each move and reads one state. A *persistent* program (`cmd:`) runs
for the whole round and reads one state after another on the same stdin; it must answer
each state with one line and flush its output. A state ends at its all-`#` bottom row.
A program that crashes, exits, answers late or prints anything else loses the round,
and the message says why. No program outlives its round's end, the screen or the app.

**Pace.** With a human driving, each round starts after a 3-2-1 countdown (*space*
during it holds the round), and the clock runs at 2.5 ticks a second at speed 5, so a
quarter-second reaction can steer; bots alone play at 4 a second.

**Watching.** *space* pauses and resumes, *.* plays one tick (and pauses), *+* and *-*
change the speed, *enter* starts the next round (a match of bots goes on by itself).
*h* turns the hint on or off: each tick it marks `◆` where the hard bot would drive
for each human player.

**Boards** are text files: a full `#` border, `-` empty cells, `#` inner walls, one `r`
and one `g` for the starting heads (10x10 to 40x40, the generator's range; up to 80x80 loads).
A board with trails already drawn takes a `heads: R_ROW R_COL G_ROW G_COL` header, and a
pasted HackerRank state (player line, heads line, grid) loads as it is. *New* maps are
random and point-symmetric, so both players face the same arena; a game id such as
`tron:15x15:w12#seed42` (size, percent of inner walls, seed) makes the same map again.

From the command line: `tui-grid tron bot` is the hard bot on stdin/stdout,
`tui-grid match tron hard oneshot:./mybot` plays a match headless, and
`tui-grid solve tron STATE --json` prints the hard bot's move for a state file.
"""


# --- the game ------------------------------------------------------------------------------------
class TronGame(BoardFiles, Generated, Solvable, GameDefinition):
    key = "tron"
    order = 50
    online = OnlinePlay("standard", "Tron")
    demo_scenes = (
        DemoScene("Tron: hard bot against medium", "standard",
                  "Minimax over the fight for space, then it fills its own chamber to the end.", ("hard", "medium")),
        DemoScene("Tron: a six-bot arena", "arena6",
                  "Free-for-all: each bot weighs the cells it reaches before every other cycle; the last one riding wins.",
                  ("hard", "medium", "easy", "hard", "medium", "easy")),
    )
    title = "Tron light cycles"
    tagline = "Human or bot: a duel, or an arena of up to eight."
    screen_path = "tui_grid.games.tron.screen:TronScreen"
    options = (
        GameOption("size", "Size (WxH)", "15x15", "map size including the border, 10x10 to 40x40", metavar="WxH"),
        GameOption("walls", "Walls (%)", "12", "percent of inner cells that are walls, 0 to 40", metavar="P"),
    )
    bot_levels = LEVELS
    default_players = ("human", "easy")
    seat_words = SEAT_NAMES

    def help_markdown(self) -> str:
        return HELP

    def match_winner(self, score: MatchScore) -> int | None:
        """Most points: cycles finished behind, summed over the rounds (in a duel, wins)."""
        return most_points(score)

    def make_engine(self, loaded: LoadedBoard) -> TronEngine:
        return TronEngine(loaded.board)

    def make_bot(self, level: str, context: PlayerContext) -> Agent[Any, Any]:
        from tui_grid.games.tron.cycle_bot import CycleBot

        return CycleBot(level, context.time_ms)

    def prepare(self) -> None:
        from tui_grid.games.tron import kernel

        super().prepare()
        kernel.build()

    def program_codec(self) -> ProgramCodec:
        from tui_grid.games.tron.engine import encode_for_program, parse_program_answer

        return encode_for_program, parse_program_answer

    # --- board files ------------------------------------------------------------------------
    def load(self, arg: str) -> LoadedBoard:
        """A board file, name or game id; `arena3` to `arena8` name the arena for so many cycles."""
        match = ARENA_NAME.match(arg.strip())
        if match:
            cycles = int(match.group(1))
            try:
                return LoadedBoard(arena_board(cycles), f"arena{cycles}", f"Arena for {cycles}")
            except ValueError as exc:
                raise UsageError(f"{echo(arg)}: {exc}") from None
        return super().load(arg)

    def parse(self, text: BoardText) -> TronBoard:
        return parse_tron(text)

    def board_rows(self, board: TronBoard) -> tuple[str, ...]:
        return board.rows

    def file_meta(self, board: TronBoard, meta: dict[str, str]) -> dict[str, str]:
        out = {**meta, "size": f"{board.width}x{board.height}"}
        if sum(row.count("r") + row.count("g") for row in board.rows) > 2:
            out["heads"] = f"{board.red.row} {board.red.col} {board.green.row} {board.green.col}"
        return out

    # --- generator --------------------------------------------------------------------------
    def board_from_id(self, game_id: str, control: SearchControl | None = None) -> TronBoard:
        from tui_grid.games.tron.generator import generate_id

        try:
            return generate_id(game_id)
        except ValueError as exc:
            raise UsageError(f"{echo(game_id)}: {exc}") from None

    def check_game_id(self, game_id: str) -> None:
        from tui_grid.games.tron.generator import parse_game_id

        with usage_errors():
            parse_game_id(game_id)  # checks the request too

    def game_id_from_options(self, values: Mapping[str, str], seed: int) -> str:
        from tui_grid.games.tron.generator import check_request, game_id

        width, height = parse_size_option(values.get("size", "15x15"))
        walls = parse_count("walls", values.get("walls", "12"), 0)
        try:
            check_request(width, height, walls)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return game_id(width, height, walls, seed)

    # --- the hard bot as a solver --------------------------------------------------------------
    def add_solve_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--player", choices=("r", "g"), default=None, help="the player to move (default: the state's line 1, else r)")
        parser.add_argument("--time-ms", dest="time_ms", default=str(DEFAULT_TIME_MS), metavar="MS", help=f"the bot's thinking time (default {DEFAULT_TIME_MS})")

    def solve_record(self, engine: TronEngine, state: TronState, control: SearchControl | None = None, **options: Any) -> dict[str, Any]:
        from tui_grid.games.tron.bots import analyse

        seat = _seat_to_move(engine, options.get("player"))
        time_ms = parse_time_ms(str(options.get("time_ms", DEFAULT_TIME_MS)))
        record = analyse(state, seat, time_ms, control)
        return {"move": record["move"], "score": record["score"], "depth": record["depth"], "player": "rg"[seat], "mode": record["mode"], "nodes": record["nodes"]}

    def solve_drawing(self, engine: TronEngine, state: TronState, record: dict[str, Any], control: SearchControl | None = None) -> str:
        from tui_grid.games.tron.engine import direction_of

        seat = "rg".index(record.get("player", "r"))
        head = state.heads[seat]
        target = head.step(direction_of(record["move"]))
        grid = _grid(state)
        if 0 <= target.row < state.height and 0 <= target.col < state.width and grid[target.row][target.col] == "-":
            grid[target.row][target.col] = "*"
        score = "forced" if record["score"] is None else f"score {record['score']}"
        caption = f"{SEAT_NAMES[seat]} moves {record['move']} (to *): hard bot, depth {record['depth']}, {score}"
        return "\n".join("".join(row) for row in grid) + "\n" + caption

    def plan(self, engine: TronEngine, state: TronState, seat: int, control: SearchControl) -> Plan[Any]:
        from tui_grid.games.tron.bots import analyse
        from tui_grid.games.tron.engine import direction_of

        time_ms = DEFAULT_TIME_MS if control.seconds is None else control.seconds * 1000
        if state.cycles > 2:
            from tui_grid.games.tron.arena_bots import ArenaBot
            from tui_grid.games.tron.cycle_bot import arena_move
            from tui_grid.games.tron.engine import word

            move = word(arena_move(ArenaBot("hard"), state, seat, time_ms))
            return Plan((direction_of(move),), f"The hard bot drives {SEAT_NAMES[seat]} {move}.", {"seat": seat, "move": move})
        record = analyse(state, seat, time_ms, control)
        direction = direction_of(record["move"])
        return Plan((direction,), f"The hard bot drives {SEAT_NAMES[seat]} {record['move']}.", {"seat": seat, **record})

    def draw(self, engine: TronEngine, state: TronState) -> str:
        grid = _grid(state)
        caption = f"tick {state.turn}"
        if state.outcome.over:
            caption += f": {self.describe_outcome(state.outcome)}"
        return "\n".join("".join(row) for row in grid) + "\n" + caption

    # --- verbs ----------------------------------------------------------------------------
    def verbs(self) -> tuple[Verb, ...]:
        return (
            Verb("bot", "a HackerRank Tron bot on stdin/stdout", _configure_bot, _run_bot),
            Verb("match", "play bots and programs against each other headless", _configure_match, _run_match),
        )


def _grid(state: TronState) -> list[list[str]]:
    """The rows with the heads of the cycles riding in capitals."""
    grid = [list(row) for row in state.rows]
    for seat in state.riders():
        head = state.heads[seat]
        grid[head.row][head.col] = LETTERS[seat].upper()
    return grid


def _seat_to_move(engine: TronEngine, player: str | None) -> int:
    if player in ("r", "g"):
        return "rg".index(player)
    return engine.board.to_move


def parse_time_ms(text: str, name: str = "--time-ms") -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{name} must be a number of milliseconds, got '{echo(text)}'") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_TIME_MS:
        raise UsageError(f"{name} must be more than 0 and at most {MAX_TIME_MS}, got {text}")
    return value




# --- tui-grid tron bot ---------------------------------------------------------------------------
def _configure_bot(parser: argparse.ArgumentParser) -> None:
    parser.description = "Answer HackerRank Tron states on stdin, one line (UP DOWN LEFT RIGHT) each, until end of input."
    parser.add_argument("--level", choices=LEVELS, default="hard", help="bot strength (default hard)")
    parser.add_argument("--time-ms", dest="time_ms", default=str(DEFAULT_TIME_MS), metavar="MS", help=f"thinking time per move (default {DEFAULT_TIME_MS})")


def _run_bot(args: argparse.Namespace) -> int:
    from tui_grid.games.tron import botmain

    time_ms = parse_time_ms(args.time_ms)
    try:
        return botmain.run(sys.stdin, sys.stdout, args.level, time_ms)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


# --- tui-grid match tron RED GREEN ---------------------------------------------------------------
#: Who can play a headless match: everyone local but a human.
HEADLESS_KINDS = tuple(kind for kind in ALL_KINDS if kind != "human")


def _configure_match(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Play a match headless, as fast as the players answer; the seats swap every game. "
                          "Two players play a duel; three to eight an arena, on a board that grows with them.")
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help=f"who drives red, green, blue... in game 1 (two to {MAX_CYCLES}): {player_choices(GAME, HEADLESS_KINDS)} "
                             "(cmd: one process per game, oneshot: one per move)")
    parser.add_argument("--games", default="2", metavar="N", help="games to play (default 2)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--board", default=None, metavar="B", help="a duel's board: file, name or game id (default standard)")
    where.add_argument("--random-maps", dest="random_maps", action="store_true", help="a duel on a new random map for every pair of games")
    parser.add_argument("--size", default="15x15", metavar="WxH", help="random maps' size (default 15x15)")
    parser.add_argument("--walls", default="12", metavar="P", help="random maps' percent of walls (default 12)")
    parser.add_argument("--seed", default=None, metavar="S", help="the first random map's seed (default: a new one)")
    parser.add_argument("--time-ms", dest="time_ms", default=str(DEFAULT_TIME_MS), metavar="MS", help=f"builtin bots' thinking time per move (default {DEFAULT_TIME_MS})")
    parser.add_argument("--timeout", default=str(DEFAULT_PROGRAM_TIMEOUT), metavar="SECONDS", help=f"each move's deadline: a program that misses it forfeits (default {DEFAULT_PROGRAM_TIMEOUT:g}); builtin bots think within it too")
    parser.add_argument("--json", action="store_true", help="end with one JSON line: the games, each naming every player's place, and the totals")


def _run_match(args: argparse.Namespace) -> int:
    import random

    players = tuple(args.players)
    if not 2 <= len(players) <= MAX_CYCLES:
        raise UsageError(f"a match takes 2 to {MAX_CYCLES} players, got {len(players)}")
    if len(players) > 2 and (args.board is not None or args.random_maps):
        raise UsageError(f"an arena of {len(players)} plays on its own board: --board and --random-maps are for a duel")
    for text in players:
        if text.strip() == "human":
            raise UsageError("a headless match has no humans: use tui-grid play tron to play")
        parse_player(GAME, text, HEADLESS_KINDS)  # an unknown player's error names only these choices
        check_program_found(GAME, text)
    if args.seed is not None and not args.random_maps:
        raise UsageError("--seed picks the random maps: use it with --random-maps")
    games = parse_count("--games", args.games, 1, MAX_GAMES)
    time_ms = parse_time_ms(args.time_ms)
    timeout = parse_seconds("--timeout", args.timeout, 3600)
    seed: int | None = None
    if args.random_maps:
        seed = parse_seed(args.seed) if args.seed is not None else random.randrange(1, 1_000_000)
        from tui_grid.games.tron.generator import game_id, parse_game_id

        width, height, walls, _ = parse_game_id(GAME.game_id_from_options({"size": args.size, "walls": args.walls}, seed))

        def board_for(index: int) -> LoadedBoard:
            # Both games of a pair share a map, so each player drives it from both sides.
            return GAME.load_id(game_id(width, height, walls, seed + index // 2))

    elif len(players) > 2:
        loaded = GAME.load(f"arena{len(players)}")

        def board_for(index: int) -> LoadedBoard:
            return loaded

    else:
        loaded = GAME.load(args.board or "standard")

        def board_for(index: int) -> LoadedBoard:
            return loaded

    progress = _Progress(games) if sys.stderr.isatty() else None

    def emit(line: str) -> None:
        if progress is not None:
            progress.clear()
        print(line, flush=True)

    record = run_match(players, games, board_for, time_ms, timeout, emit, progress.update if progress else None)
    if progress is not None:
        progress.clear()
    record["seed"] = seed
    emit(summary_line(record))
    if args.json:
        print(json.dumps(record), flush=True)
    return 0


def run_match(
    players: tuple[str, ...],
    games: int,
    board_for: Callable[[int], LoadedBoard],
    time_ms: float = DEFAULT_TIME_MS,
    timeout: float = DEFAULT_PROGRAM_TIMEOUT,
    emit: Callable[[str], None] = lambda line: None,
    on_game: Callable[[int, str], None] | None = None,
) -> dict[str, Any]:
    """Play `games` games, the seats turned every game, through the table and round
    conductor every front end uses (core.headless). A duel's record is from the first
    player's (RED's) side; every game names each player's place (1 the best). Every agent
    is closed at the end."""
    from tui_grid.core.headless import play_out
    from tui_grid.core.live import LiveMatch
    from tui_grid.core.match import wilson_interval

    names = participant_names(GAME, players)
    agents = [make_player(GAME, text, PlayerContext(index, time_ms), ALL_KINDS) for index, text in enumerate(players)]
    boards: dict[int, LoadedBoard] = {}

    def engine_for(index: int) -> TronEngine:
        boards[index] = board_for(index)
        return GAME.make_engine(boards[index])

    # One deadline for every seat, the session's: a program that misses it forfeits; a
    # builtin bot thinks within time_ms, or less when the deadline is nearer.
    feed: LiveMatch[TronState, Any] = LiveMatch(engine_for, agents, games, names=names, timeout=timeout, step_seconds=0.0)
    match = feed.match
    rows: list[dict[str, Any]] = []

    def on_round(result: Any) -> None:
        loaded = boards[result.index]
        seated = [names[p] for p in result.seating]
        outcome = "D" if result.winner is None else ("W" if result.winner == 0 else "L")
        reason = GAME.describe_outcome(result.outcome, seated)
        row = {"game": result.index + 1, "board": loaded.game_id or loaded.name,
               **{SEAT_NAMES[seat]: name for seat, name in enumerate(seated)},
               "result": outcome, "winner": None if result.winner is None else names[result.winner],
               "places": {name: place_of(result, index) for index, name in enumerate(names)},
               "reason": reason, "steps": result.steps, "moves": result.log}
        rows.append(row)
        seat = SEAT_NAMES[result.seating.index(0)]
        placed = outcome if len(names) == 2 else f"place {row['places'][names[0]]}"
        emit(f"game {row['game']}: {names[0]} {placed} as {seat} · {reason} · {plural(result.steps, 'step')} · {row['board']}")
        if on_game is not None:
            on_game(len(rows), match.score.wdl(0) if len(names) == 2 else f"{match.score.points(0)} points")

    play_out(feed, GAME.match_verdict, on_round=on_round)
    score = match.score
    wins, draws, losses = score.wins(0), score.draws, score.losses(0)
    low, high = wilson_interval(wins + draws / 2, len(rows))
    record: dict[str, Any] = {
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "games": rows,
        **{SEAT_NAMES[seat]: text for seat, text in enumerate(players)},
        "names": names,
        "points": [score.points(index) for index in range(len(names))],
        "score": round((wins + draws / 2) / len(rows), 4) if rows else None,
        "ci95": [round(low, 4), round(high, 4)],
        "time_ms": time_ms,
    }
    if len(names) > 2:
        # An arena: first places (wins and shared) and the mean place, per player.
        record["firsts"] = [sum(1 for row in rows if row["places"][name] == 1) for name in names]
        record["mean_place"] = [round(sum(row["places"][name] for row in rows) / len(rows), 3) if rows else None for name in names]
    return record


def place_of(result: Any, participant: int) -> int:
    """A participant's place in a round: from the ranking in an arena; in a duel 1 for the
    winner and for both in a draw, else 2."""
    if result.places:
        return int(result.places[participant])
    return 1 if result.winner in (None, participant) else 2


def summary_line(record: Mapping[str, Any]) -> str:
    names = record["names"]
    played = len(record["games"])
    games = f"{played} game{'s' if played != 1 else ''}"
    if len(names) > 2:
        standings = sorted(range(len(names)), key=lambda index: -record["points"][index])
        return f"points in {games}: " + " · ".join(
            f"{names[index]} {record['points'][index]} ({record['firsts'][index]} first)" for index in standings)
    text = f"{names[0]}: {record['wins']}-{record['draws']}-{record['losses']} (W-D-L) against {names[1]} in {games}"
    if record["score"] is not None:
        low, high = record["ci95"]
        text += f"; score {record['score']:.0%} (95% CI {low:.0%} to {high:.0%})"
    return text


class _Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    WIDTH = 30

    def __init__(self, total: int) -> None:
        self.total = total
        self.update(0, "0-0-0")

    def update(self, done: int, wdl: str) -> None:
        filled = self.WIDTH * done // max(1, self.total)
        write_control(sys.stderr, "\r")
        sys.stderr.write(f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total} games  {wdl}")
        sys.stderr.flush()

    def clear(self) -> None:
        write_control(sys.stderr, "\r\x1b[K")
        sys.stderr.flush()


GAME = TronGame()
