"""Evasion as the CLI and the app see it: setups (N, M) as ids, seats, help, and its verbs
`match` (bots headless), `serve` (the architect course clients connect to) and `client`
(our bots against any architect).

Evasion has no board files, no generator and no solver: `tui-grid solve evasion` and
`generate evasion` get the CLI's one-line "cannot" error. A setup is an id:
`evasion:N10:M5` (optionally `:2016` for the 2016 server's strict capture, `#seed7` for the
random players' seed) or the name `standard` (N=10, M=5).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import replace
from typing import Any, Mapping

from tui_grid.core.agents import Agent, Ask
from tui_grid.core.control import SearchControl
from tui_grid.core.engine import Engine, Plan
from tui_grid.core.errors import UsageError, listen_error
from tui_grid.core.match import MatchScore, most_wins
from tui_grid.core.players import PlayerContext, check_program_found, parse_player
from tui_grid.core.text import echo
from tui_grid.games.evasion.causes import SEAT_WORDS
from tui_grid.games.evasion.engine import HUNTER, PREY, SEATS, EvasionEngine, State
from tui_grid.games.evasion.rules import DEFAULT_MAX_STEPS, Config, hunting_score
from tui_grid.games.registry import (
    DemoScene, OnlinePlay,
    GameDefinition,
    GameOption,
    LoadedBoard,
    Plannable,
    Verb,
    parse_seconds,
    parse_seed,
)

N_RANGE = (1, 50)  # the course's ranges (RULES.md section 3)
M_RANGE = (2, 10)
DEFAULT_N, DEFAULT_M = 10, 5
MAX_STEPS_LIMIT = 10_000_000
MAX_GAMES = 10_000
#: What may fill a participant (each plays both roles over a match's two rounds).
BOTS = ("builtin", "random", "nowall")
#: The bots that mean something in each role ("nowall" is a hunter's way of playing).
MATCH_HUNTERS = BOTS + ("halver", "rectangle", "level")  # and the sparring hunters (sparring.py)
MATCH_PREYS = ("builtin", "random")
NAMED = {"standard": (DEFAULT_N, DEFAULT_M), "course": (DEFAULT_N, DEFAULT_M)}

HELP = """\
# Evasion

A hunter **H** chases a prey **P** on a 300x300 board (coordinates 0..299, x to the
right, y down). H starts at (0,0) moving (+1,+1); P starts at (230,200).

- Time steps go 1, 2, 3, ... H moves one diagonal unit **every** step; P moves only on
  **even** steps, one unit in any of the 8 directions, or stays.
- Wall removals and creation happen before anyone moves.
- Walls are horizontal or vertical runs of cells, 1 unit thick. A new wall must contain
  H's position before its move, must contain neither H after its move nor P, and must
  not overlap another wall (touching is fine). At most **M** walls stand at once and at
  least **N** steps pass between two creations. Removal is free, at any time. A refused
  request is only a message.
- Here a wall request is the 2016 server's: a horizontal or vertical wall through H that
  extends both ways to the nearest wall or the board edge.
- Bounce, with target t = (x+vx, y+vy): t free: move. Axis-aligned velocity: reverse and
  stay. Otherwise test A = (x+vx, y) and B = (x, y+vy): both blocked: reverse both and
  stay; only A: flip vx and take the y step; only B: flip vy and take the x step.
  Neither: test C = (x+vx, y+2vy) in A's role and D = (x+2vx, y+vy) in B's; both or
  neither blocked: reverse both and stay. The board edge is wall.
- P's step uses the same bounce with its chosen direction: a straight step into a wall
  leaves it in place, a diagonal one slides along the wall. Its direction persists: P
  keeps moving until told otherwise (stay stops it).
- H catches P when they are at most 4 apart (Euclidean) with no wall cell on the
  Bresenham line between them (the `:2016` setups use the 2016 server's strict < 4).
- Score: the steps until the catch; fewer is better for the hunter. A match is two
  rounds with roles swapped: whose hunter caught sooner wins.

| Glyph | Meaning |
|---|---|
| `H` | the hunter |
| `↗ ↘ ↙ ↖` | the hunter's heading: the cell it moves to next |
| `P` | the prey |
| `█` | a wall |
| `▒` | the wall selected for removal (hunter keys) |
| blank | free floor |

The whole board shows at once: each half block stands for a square of cells and
shows the most important thing in it (P, then H, then walls). *z* cycles to full
resolution, following your piece.

Settled choices: the menu's match is you (participant 1) against the builtin bots,
you hunt first, then the roles swap. Keys belong to the roles: whoever hunts uses the
wall keys, whoever flees the movement keys, so two people can share one keyboard. A
prey key pressed on an odd step waits for the next prey step. *Hint* says what the
builtin bot would do in your seat. Players: `builtin` (the box-shrinking hunter and a
look-ahead prey), `random` (random walls / random steps), `nowall` (a hunter that never
builds; as prey, random). N ranges over 1..50 and M over 2..10, as in the course.
"""


# --- setups ---------------------------------------------------------------------------
def setup_id(n: int, m: int, preset: str = "course", seed: int | None = None, max_steps: int | None = None,
             prey_every_step: bool = False) -> str:
    text = f"evasion:N{n}:M{m}" + (":2016" if preset == "2016" else "") + (f":S{max_steps}" if max_steps is not None else "")
    text += ":E" if prey_every_step else ""
    return text + (f"#seed{seed}" if seed is not None else "")


#: The new-board dialog's N field, and its errors: one name, so the player meets one.
N_LABEL = "N (wall delay)"


def check_range(name: str, text: Any, low: int, high: int) -> int:
    """A whole number in low..high, or a one-line UsageError."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise UsageError(f"{name} must be a whole number, got '{echo(text)}'") from None
    if not low <= value <= high:
        raise UsageError(f"{name} must be between {low} and {high}, got {value}")
    return value


def parse_setup(arg: str) -> tuple[Config, int | None]:
    """`standard`, `course` or `evasion:N10:M5[:2016][:S<step cap>][:E][#seedS]` -> (config, seed);
    E: the prey may move every step (the 2016 architect with a bot prey)."""
    text = arg.strip()
    if text in NAMED:
        n, m = NAMED[text]
        return Config(n=n, m=m), None
    if not text.startswith("evasion:") and text != "evasion":
        if re.match(r"^[a-z]+:", text):
            raise UsageError(f"{echo(arg)}: that is a {text.split(':', 1)[0]} game id, not an evasion setup")
        raise UsageError(f"'{echo(arg)}': an evasion setup is 'standard' or an id like evasion:N10:M5 (N 1..50, M 2..10)")
    body, _, seed_text = text.partition("#")
    seed = None
    if seed_text:
        if not seed_text.startswith("seed"):
            raise UsageError(f"{echo(arg)}: the part after # is seedS, e.g. #seed7")
        seed = parse_seed(seed_text[4:])
    n, m, preset, cap, every = DEFAULT_N, DEFAULT_M, "course", None, False
    for part in body.split(":")[1:]:
        if re.fullmatch(r"[Nn]-?\d+", part):
            n = check_range("N (steps between walls)", part[1:], *N_RANGE)
        elif re.fullmatch(r"[Mm]-?\d+", part):
            m = check_range("M (most walls)", part[1:], *M_RANGE)
        elif part in ("2016", "course"):
            preset = part
        elif re.fullmatch(r"[Ss]-?\d+", part):
            cap = check_range("S (the step cap)", part[1:], 1, MAX_STEPS_LIMIT)
        elif part in ("E", "e"):
            every = True
        else:
            raise UsageError(f"{echo(arg)}: unknown part '{echo(part)}' (expected N<steps>, M<walls>, 2016, S<step cap>, E)")
    return Config(n=n, m=m, preset=preset, max_steps=cap, prey_every_step=every), seed


def config_id(config: Config) -> str:
    """The setup id that loads exactly this config (what a mirror of the game needs)."""
    return setup_id(config.n, config.m, config.preset, None, config.max_steps, config.prey_every_step)


class RoleAgent(Agent[State, Any]):
    """A bot participant that can sit in either seat (roles swap between rounds): a fresh
    policy for its role every round, seeded for replays."""

    def __init__(self, kind: str, seed: int = 0) -> None:
        super().__init__(kind)
        self.kind_name = kind
        self.seed = seed
        self.policy: Any = None

    def start(self, engine: Engine[Any, Any], seat: int) -> None:
        from tui_grid.games.evasion.ai import make_policy

        role = SEATS[seat]
        kind = self.kind_name
        if role == "prey" and kind == "nowall":
            kind = "random"
        self.policy = make_policy(role, kind, self.seed)

    def act(self, ask: Ask[State, Any]) -> Any:
        from tui_grid.games.evasion.ai import quick_answers

        if self.policy is None:
            self.start(ask.engine, ask.seat)
        quick_answers(self.policy, ask.remaining())
        return self.policy(ask.engine, ask.state)


class EvasionGame(Plannable, GameDefinition):
    key = "evasion"
    order = 40
    online = OnlinePlay("evasion:N10:M5", "Evasion")
    demo_scenes = (
        DemoScene("Evasion: hunter against prey", "standard",
                  "The hunter walls the prey into smaller rooms; the prey runs for the biggest.", ("builtin", "builtin")),
    )
    title = "Evasion"
    tagline = "Hunter builds walls to trap the prey on a 300x300 board."
    screen_path = "tui_grid.games.evasion.screen:EvasionScreen"
    options = (
        GameOption("n", N_LABEL, str(DEFAULT_N), "steps between two wall creations, 1..50", metavar="N"),
        GameOption("m", "M (most walls)", str(DEFAULT_M), "walls standing at once, 2..10", metavar="M"),
    )
    #: Each participant plays both roles: "builtin", "random" (random walls as hunter,
    #: random steps as prey), "nowall" (never builds; as prey, random steps).
    bot_levels = BOTS
    default_players = ("human", "builtin")
    seat_words = SEAT_WORDS

    def match_winner(self, score: MatchScore) -> int | None:
        """The sooner catch wins (the course's rule): each participant's round as hunter
        scores `hunting_score`, the lower wins; a tie is a draw. Before both have hunted, the
        round winner leads."""
        hunted = {result.seating[HUNTER]: hunting_score(result.steps, result.forfeit_seat == HUNTER)
                  for result in score.rounds}
        if len(hunted) < 2:
            return most_wins(score)
        (first, a), (second, b) = list(hunted.items())[:2]
        return first if a < b else second if b < a else None

    def match_summary(self, score: MatchScore) -> str:
        """Each round by its hunter: how long the chase took, or how it ended otherwise."""
        parts = []
        for result in score.rounds:
            hunter = score.names[result.seating[HUNTER]]
            if result.forfeit_seat == PREY:
                parts.append(f"{hunter} caught in {result.steps} (the prey gave up)")
            elif result.forfeit_seat == HUNTER:
                parts.append(f"{hunter} gave up hunting at step {result.steps}")
            elif result.winner == result.seating[HUNTER]:
                parts.append(f"{hunter} caught in {result.steps}")
            else:
                parts.append(f"{hunter} did not catch ({result.steps} steps)")
        return ", ".join(parts)

    def help_markdown(self) -> str:
        return HELP

    def make_engine(self, loaded: LoadedBoard) -> EvasionEngine:
        """The rules of this setup; a game in the app ends at the course's step cap when
        the setup names none, so the roles always get to swap."""
        config = loaded.board if isinstance(loaded.board, Config) else Config()
        if config.max_steps is None:
            config = replace(config, max_steps=DEFAULT_MAX_STEPS)
        return EvasionEngine(config)

    def plan(self, engine: Engine[Any, Any], state: State, seat: int, control: SearchControl) -> Plan[Any]:
        """The builtin bot's next action for `seat` (the hint)."""
        from tui_grid.games.evasion.ai import BoxHunter, LookaheadPrey

        action = BoxHunter()(engine, state) if seat == HUNTER else LookaheadPrey()(engine, state)
        return Plan((action,), f"The builtin {SEATS[seat]} would play {engine.encode_action(action)}.")

    def make_bot(self, level: str, context: PlayerContext) -> Agent[Any, Any]:
        return RoleAgent(level, seed=context.participant if context.seed is None else context.seed)

    def load(self, arg: str) -> LoadedBoard:
        config, seed = parse_setup(arg)
        game_id = setup_id(config.n, config.m, config.preset, seed, config.max_steps, config.prey_every_step)
        title = f"N={config.n} M={config.m}" + (" (2016 capture)" if config.preset == "2016" else "")
        title += f", {config.max_steps} steps at most" if config.max_steps is not None else ""
        meta = {"seed": str(seed)} if seed is not None else {}
        # No game_id: the title already says N and M, and the status line stays short.
        return LoadedBoard(config, game_id, title, meta=meta)

    # The menu's board picker and "new board" dialog (duck-typed: Evasion has no board files
    # and no generator capability, so the CLI's `generate` and `boards` refuse it).
    def boards(self) -> list[Any]:
        return []

    def is_game_id(self, arg: str) -> bool:
        return arg.startswith(f"{self.key}:")

    def game_id_from_options(self, values: Mapping[str, str], seed: int) -> str:
        n = check_range(N_LABEL, values.get("n", DEFAULT_N), *N_RANGE)  # named as its field is
        m = check_range("M (most walls)", values.get("m", DEFAULT_M), *M_RANGE)
        return setup_id(n, m, seed=seed)

    def load_id(self, game_id: str, control: SearchControl | None = None) -> LoadedBoard:
        return self.load(game_id)

    def check_game_id(self, game_id: str) -> None:
        self.load(game_id)  # a setup is only parsed: nothing to generate

    def draw(self, engine: Engine[Any, Any], state: State) -> str:
        return draw_state(engine, state)  # type: ignore[arg-type]

    def verbs(self) -> tuple[Verb, ...]:
        return (
            Verb("match", "play bots against each other headless", _configure_match, _run_match),
            Verb("serve", "be the architect: course clients connect over TCP", _configure_serve, _run_serve),
            Verb("client", "play our bots against an architect over TCP", _configure_client, _run_client),
        )


def draw_state(engine: EvasionEngine, state: State, columns: int = 75, rows: int = 30) -> str:
    """The board shrunk to `columns` x `rows` characters (H, P, # wall, . floor) and a caption."""
    config = engine.config
    kx, ky = -(-config.width // columns), -(-config.height // rows)
    grid = engine.grid_of(state)
    lines = []
    for by in range(-(-config.height // ky)):
        line = []
        for bx in range(-(-config.width // kx)):
            cells = [(x, y) for y in range(by * ky, min(config.height, (by + 1) * ky)) for x in range(bx * kx, min(config.width, (bx + 1) * kx))]
            if state.prey in cells:
                line.append("P")
            elif state.hunter in cells:
                line.append("H")
            elif any(grid.blocked(x, y) for x, y in cells):
                line.append("#")
            else:
                line.append(".")
        lines.append("".join(line))
    border = "+" + "-" * len(lines[0]) + "+"
    return "\n".join([border, *(f"|{line}|" for line in lines), border, status_line(engine, state)])


def status_line(engine: EvasionEngine, state: State) -> str:
    config = engine.config
    (hx, hy), (px, py) = state.hunter, state.prey
    outcome = engine.outcome(state)
    text = (
        f"step {state.tick} · H {hx},{hy} P {px},{py} · walls {len(state.walls)}/{config.m}"
        f" · wall wait {engine.build_wait(state)}/{config.n} · distance {math.hypot(px - hx, py - hy):.1f}"
    )
    return f"{text} · {GAME.describe_outcome(outcome)}" if outcome.over else text


# --- verbs -----------------------------------------------------------------------------
def _add_setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-N", dest="n", default=str(DEFAULT_N), metavar="N", help=f"steps between wall creations, 1..50 (default {DEFAULT_N})")
    parser.add_argument("-M", dest="m", default=str(DEFAULT_M), metavar="M", help=f"most walls at once, 2..10 (default {DEFAULT_M})")


def _setup(args: argparse.Namespace) -> tuple[int, int]:
    return check_range("-N (steps between walls)", args.n, *N_RANGE), check_range("-M (most walls)", args.m, *M_RANGE)


def _choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise UsageError(f"{name} must be one of {', '.join(choices)}, got '{echo(value)}'")
    return value


def _seat(name: str, text: str, role: str) -> str:
    """A served seat: any player the table knows (core.players), a bot fit for its role."""
    spec = parse_player(GAME, text)
    if spec.kind == "bot" and role == "prey" and spec.value not in MATCH_PREYS:
        raise UsageError(f"{name}: '{spec.value}' is a hunter's bot; a prey is {', '.join(MATCH_PREYS)}")
    check_program_found(GAME, text)
    return spec.text


def _configure_match(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hunter", default="builtin", metavar="KIND", help=f"the hunter: {', '.join(MATCH_HUNTERS)} (default builtin)")
    parser.add_argument("--prey", default="builtin", metavar="KIND", help=f"the prey: {', '.join(MATCH_PREYS)} (default builtin)")
    _add_setup(parser)
    parser.add_argument("--games", default="1", metavar="K", help="games to play, seeds S, S+1, ... (default 1)")
    parser.add_argument("--seed", default="0", metavar="S", help="seed of the first game (default 0)")
    parser.add_argument("--max-steps", dest="max_steps", default=str(DEFAULT_MAX_STEPS), metavar="K", help=f"an uncaught game ends after K steps (default {DEFAULT_MAX_STEPS})")
    parser.add_argument("--json", action="store_true", help="end with one JSON line: catch_steps, median, hunter, prey, ...")


def _run_match(args: argparse.Namespace) -> int:
    from tui_grid.games.evasion.headless import run_match

    hunter = _choice("--hunter", args.hunter, MATCH_HUNTERS)
    prey = _choice("--prey", args.prey, MATCH_PREYS)
    n, m = _setup(args)
    games = check_range("--games", args.games, 1, MAX_GAMES)
    seed = parse_seed(args.seed)
    max_steps = check_range("--max-steps", args.max_steps, 1, MAX_STEPS_LIMIT)
    record = run_match(hunter, prey, n, m, games=games, seed=seed, max_steps=max_steps, emit=lambda line: print(line, flush=True))
    if args.json:
        first = {key: record[key] for key in ("catch_steps", "median", "hunter", "prey")}
        print(json.dumps({**first, **record}), flush=True)
    else:
        print(f"caught {record['caught']} of {games}; median catch steps {record['median']} (uncaught count as {max_steps})")
    return 0


def _add_port(parser: argparse.ArgumentParser, default: str | None) -> None:
    kwargs: dict[str, Any] = {"default": default} if default is not None else {"required": True}
    parser.add_argument("--port", metavar="P", help="TCP port, 0..65535" + (f" (default {default}; 0 picks a free one)" if default is not None else ""), **kwargs)


def _port(text: str) -> int:
    return check_range("--port", text, 0, 65535)


def _protocol(text: str) -> str:
    return _choice("--protocol", text, ("2023", "2016"))


def _configure_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--protocol", default="2023", metavar="YEAR", help="2023 (one game) or 2016 (two games, roles swapped) (default 2023)")
    parser.add_argument("--host", default="127.0.0.1", metavar="H", help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
    _add_port(parser, "5000")
    _add_setup(parser)
    parser.add_argument("--hunter", default="tcp", metavar="KIND", help="the hunter (2016: player 1): tcp, human or a bot: builtin, random, nowall (default tcp)")
    parser.add_argument("--prey", default="tcp", metavar="KIND", help="the prey (2016: player 2): tcp, human or a bot: builtin, random (default tcp)")
    parser.add_argument("--headless", action="store_true", help="no display: print one JSON result line and exit")
    parser.add_argument("--max-steps", dest="max_steps", default=None, metavar="K", help="end an uncaught game after K steps (default: no limit)")
    parser.add_argument("--clock", default="120", metavar="SECONDS", help="each TCP player's thinking time per game (default 120)")
    parser.add_argument("--seed", default="0", metavar="S", help="seed of the random players (default 0)")
    parser.add_argument("--online", action="store_true", help="also show the games in the Online lobby of the 'serve ssh' "
                        "running for this data folder, for its players to watch")


def _publisher(protocol: str, kinds: tuple[str, str]) -> Any:
    """The link that shows the architect's games in the Online lobby of the `serve ssh`
    running for this data folder (online.publish)."""
    from tui_grid.core import saves
    from tui_grid.online.publish import HubPublisher, find_hub

    folder = saves.data_dir() / "ssh" / "hub"
    found = find_hub(folder)
    if found is None:
        raise UsageError(f"--online: no 'tui-grid serve ssh' is running for {saves.data_dir()}")
    names = [f"{kind} ({index + 1})" for index, kind in enumerate(kinds)]
    try:
        return HubPublisher(found[0], found[1], "evasion", lambda engine: config_id(engine.config), names, 2 if protocol == "2016" else 1)
    except OSError as exc:
        raise UsageError(f"--online: cannot reach the lobby at {found[0]}: {exc.strerror or exc}") from None


def _run_serve(args: argparse.Namespace) -> int:
    from tui_grid.games.evasion.server import EvasionServer

    protocol = _protocol(args.protocol)
    port = _port(args.port)
    n, m = _setup(args)
    hunter = _seat("--hunter", args.hunter, "hunter")
    prey = _seat("--prey", args.prey, "prey")
    max_steps = None if args.max_steps is None else check_range("--max-steps", args.max_steps, 1, MAX_STEPS_LIMIT)
    clock = parse_seconds("--clock", args.clock, 86_400)
    seed = parse_seed(args.seed)
    if args.headless and "human" in (hunter, prey):
        raise UsageError("a human seat needs the display: drop --headless, or seat tcp, builtin or random")
    if args.headless and max_steps is None and "tcp" not in (hunter, prey):
        raise UsageError("bots alone may never end: give --max-steps K with --headless")
    config = Config(n=n, m=m)

    def log(text: str) -> None:
        print(f"tui-grid: {text}", file=sys.stderr, flush=True)

    options = dict(clock_seconds=clock, seed=seed, host=args.host)
    publisher = _publisher(protocol, (hunter, prey)) if args.online else None
    if not args.headless:
        from tui_grid.games.evasion.serve_app import serve_live

        result = serve_live(GAME, config, protocol, port, hunter, prey, max_steps, options, publisher)
        if result is not None:
            print(json.dumps(result), flush=True)
        return 0
    try:
        server = EvasionServer(config, protocol, port, hunter, prey, max_steps, log=log, **options)
    except OSError as exc:
        raise listen_error(args.host, port, exc) from None
    if server.listener is not None:
        log(f"evasion architect ({protocol} protocol, N={n} M={m}) listening on {args.host}:{server.port}")
    if publisher is not None:
        publisher.attach(server)
    try:
        result = server.run()
    except KeyboardInterrupt:
        server.stop.set()
        server.close()
        raise
    finally:
        if publisher is not None:
            publisher.close()
    print(json.dumps(result), flush=True)
    return 0




def _configure_client(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--protocol", default="2023", metavar="YEAR", help="2023 or 2016 (default 2023)")
    parser.add_argument("--host", default="127.0.0.1", metavar="H", help="the architect's address (default 127.0.0.1)")
    _add_port(parser, None)
    parser.add_argument("--name", default="tui_grid", metavar="NAME", help="the name sent to the architect (default tui_grid)")
    parser.add_argument("--level", default="builtin", metavar="LEVEL", help="the bots: builtin (default)")
    parser.add_argument("--timeout", default=None, metavar="SECONDS", help="longest wait for one server line (default: none)")


def _run_client(args: argparse.Namespace) -> int:
    from tui_grid.core.agents import AgentError
    from tui_grid.games.evasion.client import LEVELS, run_client

    protocol = _protocol(args.protocol)
    port = _port(args.port)
    level = _choice("--level", args.level, LEVELS)
    name = args.name.strip()
    if not name or "\n" in name or len(name) > 60:
        raise UsageError("--name must be 1 to 60 characters on one line")
    timeout = None if args.timeout is None else parse_seconds("--timeout", args.timeout, 86_400)
    try:
        summary = run_client(protocol, args.host, port, name, level, timeout=timeout, log=lambda text: print(text, flush=True))
    except OSError as exc:
        raise UsageError(f"cannot reach the architect at {args.host}:{port}: {exc.strerror or exc}") from None
    except (AgentError, ValueError) as exc:
        raise UsageError(f"the architect at {args.host}:{port} broke the protocol: {exc}") from None
    print(json.dumps(summary), flush=True)
    return 0


GAME = EvasionGame()
