"""Tron bots benchmark: match results with 95% Wilson intervals, move times, bot startup.

    python bench/tron.py                      # full run (several minutes)
    python bench/tron.py --quick              # a smoke run
    python bench/tron.py --only a1k0n --ms 300 --games 21
    nice python bench/tron.py --jobs 2

Pairings (each game's seats alternate, so every pairing plays both sides), on the empty
15x15 board and on random point-symmetric maps:
  hard vs the seed article's bot, run as an external one-shot program (a fresh
  `python3 tron_seed_bot.py` per move, like HackerRank); hard vs medium; hard vs three
  predictable programs the bench writes to a temporary folder and runs as persistent
  external programs (PROGRAMS: `straight` never turns, `random` moves at random,
  `hugger` hugs walls), which the hard bot's opponent model should beat every time;
  medium vs easy; and, when they are present, hard vs the strongest public bots of the 2010 Google AI
  Challenge, run as persistent external programs through the HackerRank protocol:
    a1k0n       the winner (github a1k0n/tronbot, cpp/MyTronBot.cc), env TRON_A1K0N
    simple      SimpleTronBot (github pablooliveira/SimpleTronBot), env TRON_SIMPLE
    wallhugger  WallHugger (example_bots/WallHugger.jar in either repository), env TRON_WALLHUGGER
  Each env var is a command line; `{ms}` in it is replaced by the time per move. Without
  the env var the bench looks for /tmp/opp/bin/a1k0n_{ms}, /tmp/opp/bin/simple_{ms} and
  /tmp/opp/bin/wallhugger, and skips (saying how to get it) a bot that is missing.
  Those bots speak the 2010 protocol (a map dump `W H` then rows of `#`, ` `, `1` = me,
  `2` = them, per move; answers 1..4 = N E S W), so they need an adapter outside the
  project. To set them up (never copy their code into this project):
    git clone https://github.com/a1k0n/tronbot /tmp/opp/tronbot
    sed -e 's/^#define TIMEOUT_USEC 990000/#define TIMEOUT_USEC (TMS*1000)/' \
        -e 's/^#define FIRSTMOVE_USEC 2950000/#define FIRSTMOVE_USEC (TMS*1000)/' \
        -e 's/^#define VERBOSE 2/#define VERBOSE 0/' /tmp/opp/tronbot/cpp/MyTronBot.cc > /tmp/opp/A.cc
    cp /tmp/opp/tronbot/cpp/artictbl.h /tmp/opp/
    g++ -O3 -DTMS=100 -o /tmp/opp/a1k0n_100 /tmp/opp/A.cc    # and -DTMS=300
  then a small adapter that reads HackerRank states from stdin, writes the map dump to
  the bot (a child process kept for the whole game) and prints its answer as a word, and
  TRON_A1K0N="python3 adapter.py /tmp/opp/a1k0n_{ms}". SimpleTronBot is Python 2 (pyenv
  has 2.7.18 here: ~/.pyenv/versions/2.7.18/bin/python; run it with -u) with its time
  limit (0.98 s) in the source: run a copy whose limit is the time per move less 15 ms
  (`> 0.98:` -> `> 0.085:`), and answer at once when it has no move: its
  `which_move` deepens forever when it has none (alphabeta returns before its clock
  check), so each of its lost games ended as a 5 s timeout (36 of 42 games once); add
  `if not list(board.moves(1)): return tron.NORTH` at the top of `which_move`.
The hard bot searches in the C kernel (built before the games; `--no-kernel` for the
pure-Python search); the first line of the table says which.
`--moves` prints the moves of each game not won (to replay it); `--reference a1k0n` seats
a1k0n where the hard bot plays, to see what the 2010 winner scores on the same games.
`points` is the score with a win 1 and a draw 1/2; the target is on points against a1k0n
(issue #29: at least 60% at 100 ms and at 300 ms a move) and on wins against the others.
The bots are deterministic, so each game starts with a few random safe moves for both
players (the opening, from the game's seed); random maps are `tron:WxH:wN#seedS` ids.
Games are driven by a plain loop over `engine.step`; the builtin bots play as agents
(`agent.make_bot`), started at each game's start as the app starts them, so the hard bot
learns its opponent during the game.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_grid.core.agents import AgentError, Ask  # noqa: E402
from tui_grid.core.external import ExternalProgramAgent  # noqa: E402
from tui_grid.games.tron import agent, bots, kernel  # noqa: E402
from tui_grid.games.tron.board import standard_board  # noqa: E402
from tui_grid.games.tron.engine import TronEngine, encode_for_program, parse_program_answer  # noqa: E402
from tui_grid.games.tron.generator import generate  # noqa: E402

SEED_BOT = Path("/work/shared/opponents/tron_seed_bot.py")
BUDGET_MS = bots.DEFAULT_TIME_MS
#: Outside programs: name -> (env var, default command; `{ms}` is the time per move).
OUTSIDE = {
    "a1k0n": ("TRON_A1K0N", "/tmp/opp/bin/a1k0n_{ms}"),
    "simple": ("TRON_SIMPLE", "/tmp/opp/bin/simple_{ms}"),
    "wallhugger": ("TRON_WALLHUGGER", "/tmp/opp/bin/wallhugger"),
}


#: Predictable opponents, written as small programs into a temporary folder when the bench
#: starts (TRON_BENCH_BOTS names it) and run as persistent external programs speaking the
#: HackerRank protocol: "straight" never turns (it answers the way it last moved, even into
#: a wall), "random" moves to a uniformly random free cell (seeded by the game number),
#: "hugger" takes the free cell with the most blocked neighbours (keeping its way on ties).
PROGRAMS_ENV = "TRON_BENCH_BOTS"
_BOT_COMMON = '''import sys

def states():
    """HackerRank states from stdin, one after another (the grid ends at its bottom border)."""
    while True:
        first = sys.stdin.readline()
        if not first:
            return
        if not first.strip():
            continue
        heads = [int(x) for x in sys.stdin.readline().split()]
        rows = []
        while True:
            row = sys.stdin.readline().strip()
            if not row:
                break
            rows.append(row)
            if len(rows) > 1 and set(row) == {"#"}:
                break
        seat = 0 if first.strip() == "r" else 1
        yield seat, (heads[2 * seat], heads[2 * seat + 1]), rows

DELTAS = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}

def free(rows, r, c):
    return 0 <= r < len(rows) and 0 <= c < len(rows[0]) and rows[r][c] == "-"

def heading(last, head, rows, seat):
    """The way the head last moved: from the previous head seen, else from its trail."""
    if last is not None:
        for word, (dr, dc) in DELTAS.items():
            if (last[0] + dr, last[1] + dc) == head:
                return word
    mark = "rg"[seat]
    behind = [w for w, (dr, dc) in DELTAS.items() if 0 <= head[0] - dr < len(rows) and 0 <= head[1] - dc < len(rows[0])
              and rows[head[0] - dr][head[1] - dc] == mark]
    if len(behind) == 1:
        return behind[0]
    return None
'''

_STRAIGHT = _BOT_COMMON + '''
last = None
for seat, head, rows in states():
    word = heading(last, head, rows, seat)
    if word is None:  # the first move: toward the centre, along the longer way
        dr, dc = (len(rows) - 1) / 2 - head[0], (len(rows[0]) - 1) / 2 - head[1]
        word = ("RIGHT" if dc > 0 else "LEFT") if abs(dc) >= abs(dr) else ("DOWN" if dr > 0 else "UP")
    last = head
    print(word, flush=True)
'''

_RANDOM = _BOT_COMMON + '''
import random
rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else 0)
for seat, head, rows in states():
    safe = [w for w, (dr, dc) in DELTAS.items() if free(rows, head[0] + dr, head[1] + dc)]
    print(rng.choice(safe) if safe else "UP", flush=True)
'''

_HUGGER = _BOT_COMMON + '''
last = None
for seat, head, rows in states():
    way = heading(last, head, rows, seat)
    last = head
    order = ([way] if way else []) + [w for w in ("UP", "RIGHT", "DOWN", "LEFT") if w != way]

    def walls(word):
        r, c = head[0] + DELTAS[word][0], head[1] + DELTAS[word][1]
        return sum(not free(rows, r + dr, c + dc) for dr, dc in DELTAS.values())

    safe = [w for w in order if free(rows, head[0] + DELTAS[w][0], head[1] + DELTAS[w][1])]
    print(max(safe, key=walls) if safe else "UP", flush=True)
'''

PROGRAMS = {"straight": _STRAIGHT, "random": _RANDOM, "hugger": _HUGGER}


def write_programs(folder: str) -> None:
    """The predictable opponents' programs, as `bot_<name>.py` in `folder` (not `<name>.py`:
    `random.py` would shadow the module it imports)."""
    for name, source in PROGRAMS.items():
        Path(folder, f"bot_{name}.py").write_text(source)


def outside_command(name: str, ms: int) -> str | None:
    """The command line of an outside bot at `ms` per move, or None when it is absent."""
    var, default = OUTSIDE[name]
    command = os.environ.get(var, default).replace("{ms}", str(ms))
    program = command.split()[0] if command.split() else ""
    return command if program and Path(program).exists() else None


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def board_for(kind: str, game: int):  # type: ignore[no-untyped-def]
    if kind == "empty":
        return standard_board()
    rng = random.Random(f"bench-map-{game}")
    width, height = rng.choice([(15, 15), (15, 15), (20, 20), (25, 15)])
    return generate(width, height, rng.choice([5, 10, 15]), game)


def play(job: tuple[str, str, str, int, int]) -> dict:
    """One game: `a` plays red on even games, green on odd ones. Returns a result row."""
    a, b, kind, game, ms = job
    board = board_for(kind, game)
    engine = TronEngine(board)
    state = engine.initial_state()
    seat_a = game % 2
    levels = {seat_a: a, 1 - seat_a: b}
    rng = random.Random(f"bench-opening-{kind}-{game}")
    opening = rng.randint(0, 4) if kind == "empty" else rng.randint(0, 2)
    external = {}
    for seat, level in levels.items():
        if level == "seed":
            external[seat] = ExternalProgramAgent(f"{sys.executable} {SEED_BOT}", "oneshot", encode_for_program, parse_program_answer)
        elif level in OUTSIDE:
            command = outside_command(level, ms)
            assert command is not None, level
            external[seat] = ExternalProgramAgent(command, "persistent", encode_for_program, parse_program_answer)
        elif level in PROGRAMS:
            program = Path(os.environ[PROGRAMS_ENV], f"bot_{level}.py")
            external[seat] = ExternalProgramAgent(f"{sys.executable} {program} {game}", "persistent", encode_for_program, parse_program_answer)
    # The builtin bots play as the app seats them: agents, started at the game's start
    # (the hard bot keeps what it learns of its opponent for the game).
    builtin = {seat: agent.make_bot(level, ms) for seat, level in levels.items() if seat not in external}
    for seat, bot in builtin.items():
        bot.start(engine, seat)
    times: dict[str, list[float]] = {a: [], b: []}
    steps: list[str] = []
    forfeit = ""
    try:
        while not state.outcome.over:
            moves = {}
            for seat in (0, 1):
                if state.turn < opening:
                    safe = state.safe_moves(seat)
                    moves[seat] = rng.choice(safe) if safe else engine.default_action(state, seat)
                    continue
                level = levels[seat]
                if seat in external:
                    start = time.perf_counter()
                    try:
                        moves[seat] = external[seat].act(Ask(engine, state, seat, deadline=time.monotonic() + 5.0 + ms / 1000))
                        times[level].append(time.perf_counter() - start)
                    except AgentError as exc:
                        forfeit = exc.reason
                        state = engine.forfeit(state, seat, exc.failure)
                        break
                    continue
                start = time.perf_counter()
                moves[seat] = builtin[seat].act(Ask(engine, state, seat))
                times[level].append(time.perf_counter() - start)
            if state.outcome.over:
                break
            steps.append("".join(moves[seat].name[0] for seat in (0, 1)))
            state = engine.step(state, moves).state
    finally:
        for program in external.values():
            program.close()
    outcome = state.outcome
    if outcome.winner is None:
        result = "D"
    else:
        result = "W" if outcome.winner == seat_a else "L"
    draw_head_on = result == "D" and "head-on" in outcome.reason
    return {"a": a, "b": b, "kind": kind, "game": game, "result": result, "turns": state.turn, "times": times[a], "b_times": times[b], "forfeit": forfeit, "reason": outcome.reason, "size": f"{board.width}x{board.height}", "head_on": draw_head_on,
            "moves": " ".join(steps)}


def largest_board_times(moves: int) -> list[float]:
    engine = TronEngine(generate(40, 30, 10, 3))
    state = engine.initial_state()
    out = []
    while not state.outcome.over and state.turn < moves:
        step = {}
        for seat in (0, 1):
            start = time.perf_counter()
            step[seat] = bots.choose_move(state, seat, BUDGET_MS, level="hard")
            out.append(time.perf_counter() - start)
        state = engine.step(state, step).state
    return out


def startup_times(repeats: int) -> tuple[list[float], list[float]]:
    state_text = TronEngine().observation(TronEngine().initial_state(), 0)
    bot, base = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        base.append(time.perf_counter() - start)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "tui_grid.games.tron.botmain"], input=state_text, capture_output=True, text=True, check=True, cwd=ROOT)
        bot.append(time.perf_counter() - start)
        assert out.stdout.strip() in ("UP", "DOWN", "LEFT", "RIGHT"), out
    return bot, base


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="few games (a smoke run)")
    parser.add_argument("--games", type=int, default=0, help="games per pairing and board kind")
    parser.add_argument("--only", default="", help="run only pairings whose name contains this, e.g. 'seed' or 'a1k0n'")
    parser.add_argument("--ms", type=int, default=BUDGET_MS, help="time per move of every bot, in ms (default %(default)s)")
    parser.add_argument("--kinds", default="empty,maps", help="board kinds: empty, maps (default %(default)s)")
    parser.add_argument("--first", type=int, default=0, help="first game number (to run other games than the default ones)")
    parser.add_argument("--no-extras", action="store_true", help="skip the 40x30 timing and the startup timing")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--moves", nargs="?", const="lost", choices=("lost", "all"),
                        help="print the moves (red then green, U D L R per step) of each non-win, or with 'all' of every game")
    parser.add_argument("--reference", choices=sorted(OUTSIDE),
                        help="an outside bot plays the hard bot's seat (same openings and maps): what a reference bot scores "
                             "against the same opponents, e.g. --reference a1k0n --only simple")
    parser.add_argument("--no-kernel", action="store_true", help="search in pure Python (TUI_GRID_NO_KERNEL=1), not the C kernel")
    args = parser.parse_args(argv)
    if args.no_kernel:
        os.environ[kernel.DISABLE_ENV] = "1"
    # Built before the games (a bot in a game would search in Python until it is).
    search = "C kernel" if kernel.build() else "pure Python"
    games = args.games or (6 if args.quick else 21)
    kinds = [k for k in args.kinds.split(",") if k]
    opponents = ["a1k0n", "simple", "wallhugger", "seed", "medium", "straight", "random", "hugger"]
    targets = {"seed": 0.95, "medium": 1.0, "easy": 0.80, "a1k0n": 0.60, "simple": 0.95, "wallhugger": 0.95,
               "straight": 1.0, "random": 1.0, "hugger": 1.0}
    first = args.reference or "hard"
    pairings = [(first, b, kind) for b in opponents if b != first for kind in kinds]
    if not args.reference:
        pairings += [("medium", "easy", kind) for kind in kinds]
    pairings = [p for p in pairings if args.only in f"{p[0]} vs {p[1]}"]
    missing = sorted({x for a, b, _ in pairings for x in (a, b) if x in OUTSIDE and outside_command(x, args.ms) is None})
    for name in missing:
        var, default = OUTSIDE[name]
        print(f"skipping {name}: not found (set {var} to its command, `{{ms}}` for the time per move, or build "
              f"{default.replace('{ms}', str(args.ms))}; see this file's docstring for how to get and build it)")
    pairings = [p for p in pairings if p[0] not in missing and p[1] not in missing]
    jobs = [(a, b, kind, g, args.ms) for a, b, kind in pairings for g in range(args.first, args.first + games)]
    began = time.perf_counter()
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="tron-bench-") as folder:
        write_programs(folder)
        os.environ[PROGRAMS_ENV] = folder  # the workers inherit it
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            rows = list(pool.map(play, jobs))
    load_end = os.getloadavg()
    print(f"Tron bench: hard bot's search in {search}; {games} games per line, seats alternating, {args.ms} ms per move for every bot, {args.jobs} job(s), "
          f"{os.cpu_count()} cores shared with other work ({time.perf_counter() - began:.0f} s; "
          f"load average {load_start[0]:.2f} at the start, {load_end[0]:.2f} / {load_end[1]:.2f} / {load_end[2]:.2f} (1/5/15 min) at the end)\n")
    print(f"{'pairing':<20} {'board':<6} {'W-D-L':>9} {'win %':>6} {'95% interval':>14} {'target':>7} {'points':>6} {'head-on':>7} {'turns':>6} "
          f"{'ours ms mean/max':>17} {'theirs ms mean/max':>19}")
    slowest_all = 0.0
    for a, b, kind in pairings:
        mine = [r for r in rows if (r["a"], r["b"], r["kind"]) == (a, b, kind)]
        w = sum(r["result"] == "W" for r in mine)
        d = sum(r["result"] == "D" for r in mine)
        l = sum(r["result"] == "L" for r in mine)
        lo, hi = wilson(w, len(mine))
        ours = [t * 1000 for r in mine for t in r["times"]]
        theirs = [t * 1000 for r in mine for t in r["b_times"]]
        if b not in OUTSIDE and b not in PROGRAMS and b != "seed":
            slowest_all = max([slowest_all] + ours + theirs)
        else:
            slowest_all = max([slowest_all] + ours)
        turns = statistics.mean(r["turns"] for r in mine)
        head_on = sum(r["head_on"] for r in mine)

        def span(xs: list[float]) -> str:
            return f"{statistics.mean(xs):.0f}/{max(xs):.0f}" if xs else "-"

        print(f"{a + ' vs ' + b:<20} {kind:<6} {f'{w}-{d}-{l}':>9} {100 * w / len(mine):>5.0f}% {f'[{100 * lo:.0f}%, {100 * hi:.0f}%]':>14} "
              f"{100 * targets[b]:>6.0f}% {100 * (w + d / 2) / len(mine):>5.0f}% {head_on:>7} {turns:>6.1f} {span(ours):>17} {span(theirs):>19}")
        forfeits = sum(bool(r["forfeit"]) for r in mine)
        if forfeits:
            reasons = sorted({r["forfeit"][:100] for r in mine if r["forfeit"]})
            print(f"    {forfeits} game(s) ended by a forfeit of the external bot: {'; '.join(reasons[:3])}")
        for r in mine:
            if args.moves == "all" and r["result"] == "W":
                print(f"    win in game {r['game']} (ours {'red' if r['game'] % 2 == 0 else 'green'}), {r['turns']} turns")
                print(f"      moves: {r['moves']}")
            if r["result"] != "W":
                print(f"    {'draw' if r['result'] == 'D' else 'loss'} in game {r['game']} ({r['size']}, ours {'red' if r['game'] % 2 == 0 else 'green'}): {r['reason'][:90]}")
                if args.moves:
                    print(f"      moves: {r['moves']}")
    over = sum(t * 1000 > args.ms for r in rows for t in r["times"])
    print(f"\nslowest builtin move: {slowest_all:.1f} ms (budget {args.ms} ms); our moves over budget: {over}")
    if args.no_extras:
        return 0
    large = largest_board_times(10 if args.quick else 40)
    print(f"hard on 40x30 (tron:40x30:w10#seed3), {len(large)} moves: median {1000 * statistics.median(large):.1f} ms, max {1000 * max(large):.1f} ms")
    bot, base = startup_times(3 if args.quick else 10)
    print(f"bot startup, one state answered (python -m tui_grid.games.tron.botmain): median {1000 * statistics.median(bot):.0f} ms, "
          f"max {1000 * max(bot):.0f} ms; python3 -c pass: median {1000 * statistics.median(base):.0f} ms "
          f"(the bot's own search is up to {bots.USE * BUDGET_MS:.0f} ms of it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
