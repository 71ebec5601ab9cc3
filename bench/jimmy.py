"""Benchmark of the Jimmy solver against the plain DFS baseline, and a hunter for hard boards.

    python bench/jimmy.py                 # the table (about two minutes at most)
    python bench/jimmy.py --quick         # fewer boards, smaller baseline budget
    python bench/jimmy.py --hunt 10 --seconds 300 --seed 1
                                          # hill-climb 10x10 boards that cost our solver
                                          # the most; the worst go to bench/jimmy_hard/

Run from the repository root. Our time is the median of three runs (board tables rebuilt
every run); the baseline runs once and stops after a node budget (shown as `>`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tui_grid.core.boardfile import format_board_file, read_board_file  # noqa: E402
from tui_grid.core.geometry import Pos  # noqa: E402
from tui_grid.games.jimmy import solver as solver_module  # noqa: E402
from tui_grid.games.jimmy.baseline import BudgetExceeded, dfs_escape  # noqa: E402
from tui_grid.games.jimmy.board import JimmyBoard, parse_jimmy  # noqa: E402
from tui_grid.games.jimmy.generator import generate, random_board  # noqa: E402
from tui_grid.games.jimmy.rules import Outcome, replay  # noqa: E402
from tui_grid.games.jimmy.solver import solve  # noqa: E402

HARD_DIR = ROOT / "bench" / "jimmy_hard"
HARD_FOR_BASELINE = 10_000
BOARDS_DIR = ROOT / "boards" / "jimmy"


@dataclass
class Case:
    kind: str
    name: str
    board: JimmyBoard
    hard: bool = False


# --- board families -------------------------------------------------------------------
def room(rng: random.Random, width: int, height: int, ghosts: int, doors: int, density: float) -> JimmyBoard:
    """A walled room with a few doors in its wall, a little clutter inside, ghosts anywhere."""
    while True:
        solid = set()
        border = [Pos(r, c) for r in range(height) for c in range(width) if r in (0, height - 1) or c in (0, width - 1)]
        corners = {Pos(0, 0), Pos(0, width - 1), Pos(height - 1, 0), Pos(height - 1, width - 1)}
        opened = set(rng.sample([p for p in border if p not in corners], doors))
        solid.update(p for p in border if p not in opened)
        for r in range(1, height - 1):
            for c in range(1, width - 1):
                if rng.random() < density:
                    solid.add(Pos(r, c))
        free = [Pos(r, c) for r in range(2, height - 2) for c in range(2, width - 2) if Pos(r, c) not in solid]
        if not free:
            continue
        jimmy = rng.choice(free)
        spots = [
            Pos(r, c)
            for r in range(height)
            for c in range(width)
            if Pos(r, c) not in solid and abs(r - jimmy.row) + abs(c - jimmy.col) >= 2
        ]
        spots += [p for p in border if p in solid and rng.random() < 0.3]
        placed = rng.sample(spots, ghosts)
        solid.difference_update(placed)
        return JimmyBoard(width, height, frozenset(solid), jimmy, tuple(sorted(placed)))


def serpentine(width: int, height: int, ghosts: list[Pos]) -> JimmyBoard:
    """A corridor that snakes down the board; Jimmy at its top end, the exit at its bottom end."""
    solid = set()
    for c in range(width):
        solid.add(Pos(0, c))
    for r in range(height):
        solid.add(Pos(r, 0))
        solid.add(Pos(r, width - 1))
    gap_right = True
    for r in range(2, height - 1, 2):
        for c in range(1, width - 1):
            solid.add(Pos(r, c))
        solid.discard(Pos(r, width - 2 if gap_right else 1))
        gap_right = not gap_right
    for c in range(width):
        solid.add(Pos(height - 1, c))
    exit_row = height - 2 if height % 2 == 0 else height - 3
    solid.discard(Pos(height - 1, 1))
    solid.discard(Pos(exit_row + 1, 1))
    jimmy = Pos(1, 2)
    placed = tuple(g for g in ghosts if g != jimmy)
    solid.difference_update(placed)
    return JimmyBoard(width, height, frozenset(solid), jimmy, placed)


def distant(width: int, height: int, ghosts: int, walls: float, seed: int) -> JimmyBoard:
    """Jimmy in the middle of a mostly walled board, ghosts in the far corners."""
    rng = random.Random(seed)
    corners = [Pos(1, 1), Pos(1, width - 2), Pos(height - 2, 1), Pos(height - 2, width - 2)]
    jimmy = Pos(height // 2, width // 2)
    solid = set()
    for r in range(height):
        for c in range(width):
            p = Pos(r, c)
            on_border = r in (0, height - 1) or c in (0, width - 1)
            if p != jimmy and p not in corners and rng.random() < (walls if on_border else 0.12):
                solid.add(p)
    return JimmyBoard(width, height, frozenset(solid), jimmy, tuple(corners[:ghosts]))


def open_board(rng: random.Random, width: int, height: int, ghosts: int) -> JimmyBoard:
    board = None
    while board is None:
        board = random_board(rng, width, height, ghosts, 0.05, rng.uniform(0.85, 1.0), margin=width // 3)
    return board


def load_dir(folder: Path, pattern: str = "*.txt") -> list[tuple[str, JimmyBoard]]:
    out = []
    for path in sorted(folder.glob(pattern)):
        out.append((path.stem, parse_jimmy(read_board_file(path))))
    return out


def cases(quick: bool) -> list[Case]:
    out: list[Case] = []
    for name, board in load_dir(BOARDS_DIR, "seed-*.txt"):
        out.append(Case("seed", name, board))
    n = 4 if quick else 10
    rng = random.Random(2024)
    for i in range(n):
        board = None
        while board is None:
            board = random_board(rng, 10, 10, rng.randint(1, 4), rng.uniform(0.05, 0.35), rng.uniform(0.4, 0.95))
        out.append(Case("random", f"random10-{i}", board))
    for i in range(n):
        out.append(Case("room", f"room10-{i}", room(rng, 10, 10, rng.randint(1, 3), rng.randint(1, 3), 0.08), hard=True))
    out.append(Case("corridor", "serpent10", serpentine(10, 10, [Pos(9, 9)])))
    out.append(Case("corridor", "serpent10-g2", serpentine(10, 10, [Pos(1, 8), Pos(8, 8)]), hard=True))
    out.append(Case("corridor", "serpent20", serpentine(20, 20, [Pos(19, 19)])))
    for i in range(2 if quick else 4):
        out.append(Case("distant", f"distant10-{i}", distant(10, 10, 2 + i % 3, 0.9, i), hard=True))
    for i in range(n):
        out.append(Case("noescape", f"noescape10-{i}", generate(10, 10, 1 + i % 4, False, i), hard=True))
    for name, board in load_dir(HARD_DIR):
        if quick and not name.endswith("-1"):
            continue
        out.append(Case("hunted", name, board, hard=True))
    for i in range(2 if quick else 4):
        out.append(Case("random", f"random20-{i}", generate(20, 20, 2 + i, None, 100 + i)))
        out.append(Case("noescape", f"noescape20-{i}", generate(20, 20, 2 + i, False, 200 + i), hard=True))
        out.append(Case("room", f"room20-{i}", room(rng, 20, 20, 2 + i, 2, 0.06), hard=True))
        out.append(Case("open", f"open20-{i}", open_board(rng, 20, 20, 2 + i), hard=True))
    out.append(Case("noescape", "noescape30-0", generate(30, 30, 5, False, 300), hard=True))
    out.append(Case("noescape", "noescape50-0", generate(50, 50, 8, False, 500), hard=True))
    for i in range(1 if quick else 2):
        out.append(Case("random", f"random30-{i}", generate(30, 30, 4, None, 300 + i)))
        out.append(Case("room", f"room30-{i}", room(rng, 30, 30, 4, 3, 0.05)))
        out.append(Case("random", f"random50-{i}", generate(50, 50, 6, None, 500 + i)))
        out.append(Case("room", f"room50-{i}", room(rng, 50, 50, 5, 3, 0.05)))
    return out


# --- measuring ----------------------------------------------------------------------
def time_ours(board: JimmyBoard, runs: int = 3):
    times = []
    result = None
    for _ in range(runs):
        solver_module._LAYOUTS.clear()
        start = time.perf_counter()
        result = solve(board)
        times.append(time.perf_counter() - start)
    assert result is not None
    if result.escape:
        assert replay(board, result.path).outcome is Outcome.ESCAPED, "solver path does not replay"
    return result, statistics.median(times)


def time_baseline(board: JimmyBoard, budget: int):
    start = time.perf_counter()
    try:
        answer, nodes = dfs_escape(board, max_nodes=budget)
        capped = False
    except BudgetExceeded as exc:
        answer, nodes, capped = None, exc.nodes, True
    return answer, nodes, capped, time.perf_counter() - start


def run_bench(quick: bool) -> int:
    budget = 200_000 if quick else 1_000_000
    rows = []
    print(f"{'size':>6} {'kind':9} {'board':18} {'ans':>3} {'ours ms':>9} {'ours nodes':>10} "
          f"{'base ms':>10} {'base nodes':>11} {'speedup':>9}")
    started = time.perf_counter()
    worst_10 = 0.0
    worst_20 = 0.0
    mismatches = 0
    for case in cases(quick):
        board = case.board
        result, ours = time_ours(board)
        answer, nodes, capped, base = time_baseline(board, budget)
        if answer is not None and answer != result.escape:
            mismatches += 1
        size = f"{board.width}x{board.height}"
        cap = ">" if capped else " "
        ratio = base / ours if ours > 0 else float("inf")
        print(f"{size:>6} {case.kind:9} {case.name:18} {'yes' if result.escape else 'no':>3} {ours * 1000:9.2f} "
              f"{result.nodes:10d} {cap}{base * 1000:9.1f} {cap}{nodes:10d} {cap}{ratio:8.1f}x", flush=True)
        if board.width <= 10 and board.height <= 10:
            worst_10 = max(worst_10, ours)
        elif board.width <= 20 and board.height <= 20:
            worst_20 = max(worst_20, ours)
        rows.append((case, ours, base, capped, nodes))
    print()
    print(f"worst 10x10: {worst_10 * 1000:.1f} ms (target < 50 ms)")
    print(f"worst 20x20: {worst_20 * 1000:.1f} ms (target < 1000 ms)")
    groups = [
        ("hard set (rooms, distant ghosts, no-escape, hunted, open 20x20)", [r for r in rows if r[0].hard]),
        (f"hard for the baseline (>= {HARD_FOR_BASELINE} baseline nodes)", [r for r in rows if r[4] >= HARD_FOR_BASELINE]),
        ("hunted (hard for ours)", [r for r in rows if r[0].kind == "hunted"]),
    ]
    for label, group in groups:
        if not group:
            continue
        ours_total = sum(r[1] for r in group)
        base_total = sum(r[2] for r in group)
        capped = ">" if any(r[3] for r in group) else ""
        lowest = min(r[2] / r[1] for r in group)
        print(f"{label}, {len(group)} boards: ours {ours_total * 1000:.1f} ms, baseline {capped}{base_total * 1000:.0f} ms, "
              f"speedup {capped}{base_total / ours_total:.0f}x (lowest single board {lowest:.1f}x)")
    print("target: >= 20x on the hard set")
    print(f"answers that differ from the baseline: {mismatches}")
    print(f"bench time: {time.perf_counter() - started:.0f} s")
    return 1 if mismatches else 0


# --- hunting adversarial boards ----------------------------------------------------------
def cost(board: JimmyBoard, cap: int = 3_000_000) -> float:
    """Deterministic work estimate of our solver: search nodes (weighted 2) plus relaxed states.

    Capped at `cap` nodes so that one monster board does not stall the hunt."""
    search = solver_module._Search(board, None, max_nodes=cap)
    state = solver_module._start(board, None)
    if state.outcome is not Outcome.PLAYING:
        return 0.0
    j, ghosts, visited = solver_module._encode(search.lay, state)
    try:
        search.run(j, ghosts, visited)
    except solver_module._Stop:
        pass
    return 2.0 * search.dfs_nodes + search.relax_states


def mutate(rng: random.Random, board: JimmyBoard) -> JimmyBoard | None:
    width, height = board.width, board.height
    solid = set(board.solid)
    ghosts = list(board.ghosts)
    jimmy = board.jimmy
    cell = Pos(rng.randrange(height), rng.randrange(width))
    roll = rng.random()
    if roll < 0.6:
        if cell == jimmy or cell in ghosts:
            return None
        solid ^= {cell}
    elif roll < 0.72:
        if cell in solid or cell in ghosts or board.is_border(cell):
            return None
        jimmy = cell
    elif roll < 0.9:
        if cell in solid or cell == jimmy or cell in ghosts:
            return None
        ghosts[rng.randrange(len(ghosts))] = cell
    elif roll < 0.95:
        if cell in solid or cell == jimmy or cell in ghosts or len(ghosts) >= 6:
            return None
        ghosts.append(cell)
    else:
        if len(ghosts) < 2:
            return None
        ghosts.pop(rng.randrange(len(ghosts)))
    return JimmyBoard(width, height, frozenset(solid), jimmy, tuple(sorted(ghosts)))


def hunt(size: int, seconds: float, seed: int, keep: int, save: int = 1) -> None:
    rng = random.Random(seed)
    pool: list[tuple[float, JimmyBoard]] = []
    for _ in range(40):
        if rng.random() < 0.5:
            board = room(rng, size, size, rng.randint(1, 4), rng.randint(1, 3), rng.uniform(0, 0.2))
        else:
            board = None
            while board is None:
                board = random_board(rng, size, size, rng.randint(1, 4), rng.uniform(0, 0.3), rng.uniform(0.5, 1.0))
        pool.append((cost(board), board))
    pool.sort(key=lambda item: -item[0])
    pool = pool[:keep]
    best_score, best = pool[0]
    deadline = time.time() + seconds
    iterations = 0
    while time.time() < deadline:
        iterations += 1
        # Climb from a random member of the pool; restart from the pool keeps diversity.
        base_score, base = pool[rng.randrange(len(pool))] if rng.random() < 0.3 else (best_score, best)
        candidate = mutate(rng, base)
        for _ in range(rng.randint(0, 2)):
            if candidate is not None:
                candidate = mutate(rng, candidate) or candidate
        if candidate is None:
            continue
        score = cost(candidate)
        if score >= base_score:
            pool.append((score, candidate))
            pool.sort(key=lambda item: -item[0])
            del pool[keep:]
            if score > best_score:
                print(f"{iterations:6d} cost {score:9.0f}", flush=True)
                print("\n".join(candidate.rows()), flush=True)
            if score >= best_score:
                best_score, best = score, candidate
    HARD_DIR.mkdir(parents=True, exist_ok=True)
    seen = set()
    saved = 0
    for score, board in pool:
        if board in seen or score in seen:
            continue
        seen.update((board, score))
        saved += 1
        result = solve(board)
        name = f"hunt{size}-s{seed}-{saved}"
        meta = {
            "title": f"Hunted {size}x{size} (seed {seed}, rank {saved})",
            "escape": "yes" if result.escape else "no",
            "source": f"bench/jimmy.py --hunt {size} --seed {seed}: work {score:.0f}",
        }
        (HARD_DIR / f"{name}.txt").write_text(format_board_file(board.rows(), meta))
        print(f"saved {name}: cost {score:.0f}, escape {result.escape}")
        if saved >= save:
            break


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer boards and a smaller baseline budget")
    parser.add_argument("--hunt", type=int, metavar="SIZE", help="hill-climb SIZExSIZE boards that are hard for our solver")
    parser.add_argument("--seconds", type=float, default=120, help="how long to hunt (default 120)")
    parser.add_argument("--seed", type=int, default=1, help="hunter random seed (default 1)")
    parser.add_argument("--keep", type=int, default=8, help="hunter pool size (default 8)")
    parser.add_argument("--save", type=int, default=1, help="how many of the worst boards to save (default 1)")
    args = parser.parse_args(argv)
    if args.hunt:
        hunt(args.hunt, args.seconds, args.seed, args.keep, args.save)
        return 0
    return run_bench(args.quick)


if __name__ == "__main__":
    sys.exit(main())
