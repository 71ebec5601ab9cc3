"""Free-for-all bots for an arena of three to eight cycles, on int bitsets (as `bots`).

Every level looks at every cycle still riding:

* easy: the longest straight run of free cells, among the moves that do not shut it into
  a pocket much smaller than the room it has.
* medium: Voronoi over N heads: for each safe move, the cells it reaches strictly before
  every other cycle (the others move at the same time, so they start a step ahead of its
  new head); a cell another head can enter too this tick counts as a likely head-on
  crash. Once no cycle can reach its region it fills that region (parity and chamber
  bound, `bots.fill_estimate`), hugging walls on ties.
* hard: medium's score against every joint reply of the cycles near enough to touch its
  next cell or its region's entrance (within REPLY_RANGE), worst case first, with the
  average as the tie-break; it stops at the deadline and answers the best so far.

Stdlib only, like `bots`.
"""

from __future__ import annotations

import itertools
import random
import time

from tui_grid.games.tron.bots import fill_estimate, flood, free_neighbours

#: Moves in the order of `bots.WORDS`: UP DOWN LEFT RIGHT.
LEVELS = ("easy", "medium", "hard")
#: A likely head-on crash: worse than any region but better than a certain crash.
HEAD_ON = -1000
CRASH = -10_000
#: Cycles within this many steps of our head take part in the hard bot's replies.
REPLY_RANGE = 4
#: At most this many nearby cycles are searched jointly (the nearest), to bound the work.
MOST_NEAR = 3


class ArenaField:
    """An arena as bitsets: free cells, every riding head as a bit index, the stride."""

    __slots__ = ("S", "free", "heads", "even")

    def __init__(self, rows: tuple[str, ...], heads: tuple[tuple[int, int], ...]) -> None:
        width = len(rows[0])
        self.S = S = width + 1
        free = 0
        even = 0
        for r, row in enumerate(rows):
            bits = "".join("1" if ch == "-" else "0" for ch in row)[::-1]
            free |= int(bits, 2) << (r * S)
            parity = "".join("1" if (r + c) % 2 == 0 else "0" for c in range(width))[::-1]
            even |= int(parity, 2) << (r * S)
        self.free = free
        self.even = even
        self.heads = tuple(int(r) * S + int(c) for r, c in heads)


def _grow(cells: int, S: int) -> int:
    return (cells << 1) | (cells >> 1) | (cells << S) | (cells >> S)


def _steps(S: int) -> tuple[int, int, int, int]:
    return (-S, S, -1, 1)


def safe_moves(free: int, head: int, S: int) -> list[int]:
    return [i for i, d in enumerate(_steps(S)) if head + d >= 0 and (free >> (head + d)) & 1]


def territory(free: int, mine: int, theirs: tuple[int, ...], S: int, *, ahead: bool = True) -> tuple[int, bool]:
    """Cells our head at `mine` reaches strictly before every other cycle, and whether any
    of them can reach our region at all. `ahead`: the heads at `theirs` move this same
    tick, so they start a step ahead (False once everyone has moved)."""
    me = 1 << mine
    them = 0
    for head in theirs:
        them |= 1 << head
    avail = free & ~me & ~them
    front_them = them
    if ahead:
        front_them = _grow(them, S) & avail
        avail &= ~front_them
    front_me = me
    count = 0
    while front_me:
        grown_me = _grow(front_me, S) & avail
        grown_them = _grow(front_them, S) & avail
        tied = grown_me & grown_them
        front_me = grown_me & ~tied
        front_them = grown_them & ~tied
        avail &= ~(grown_me | grown_them)
        count += front_me.bit_count()
    region = flood(free & ~me & ~them, mine, S) | me
    return count, bool(_grow(region, S) & them)


class ArenaBot:
    """One level's choice for a seat: `choose(state, seat, time_ms)` gives an index into
    UP DOWN LEFT RIGHT. `seed` fixes the easy bot's tie-breaks and the hard bot's none."""

    def __init__(self, level: str = "hard", seed: int | None = 0) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
        self.level = level
        self.random = random.Random(seed)

    def choose(self, rows: tuple[str, ...], heads: tuple[tuple[int, int], ...], riders: tuple[int, ...], seat: int,
               time_ms: float = 100.0) -> int:
        deadline = time.perf_counter() + time_ms / 1000.0
        field = ArenaField(rows, heads)
        others = tuple(field.heads[other] for other in riders if other != seat)
        head = field.heads[seat]
        moves = safe_moves(field.free, head, field.S)
        if not moves:
            return 0
        if len(moves) == 1:
            return moves[0]
        if self.level == "easy":
            return self._easy(field, head, moves)
        scores = {move: self._score(field, head + _steps(field.S)[move], others) for move in moves}
        if self.level == "hard":
            scores = self._hard(field, head, others, moves, scores, deadline)
        best = max(scores.values())
        tied = [move for move in moves if scores[move] == best]
        # On a tie hug the walls: the cell with the fewest free neighbours wastes least room.
        return min(tied, key=lambda move: (free_neighbours(field.free, head + _steps(field.S)[move], field.S), move))

    def _easy(self, field: ArenaField, head: int, moves: list[int]) -> int:
        S = field.S
        rooms = {move: flood(field.free, head + _steps(S)[move], S).bit_count() for move in moves}
        roomy = [move for move in moves if rooms[move] * 2 >= max(rooms.values())]
        runs = {}
        for move in roomy:
            cell, run = head + _steps(S)[move], 0
            while cell >= 0 and (field.free >> cell) & 1:
                run += 1
                cell += _steps(S)[move]
            runs[move] = run
        best = max(runs.values())
        return self.random.choice([move for move in roomy if runs[move] == best])

    def _score(self, field: ArenaField, cell: int, others: tuple[int, ...]) -> float:
        """A move to `cell`, the other heads where they are now: its territory, or once no
        one can reach it its fillable room; a cell another head can enter is a likely
        head-on crash."""
        S = field.S
        free = field.free & ~(1 << cell)
        if any(cell in (other - S, other + S, other - 1, other + 1) for other in others):
            return HEAD_ON + territory(free, cell, others, S)[0]
        count, met = territory(free, cell, others, S)
        if not met:
            return 2 * fill_estimate(free, cell, S, field.even)
        return count

    def _hard(self, field: ArenaField, head: int, others: tuple[int, ...], moves: list[int], scores: dict[int, float],
              deadline: float) -> dict[int, float]:
        """Each move's worst case (and its average, a tenth as much) over the joint replies
        of the nearby cycles; the medium scores stand for any move not finished in time."""
        S = field.S
        distance = lambda a, b: abs(a // S - b // S) + abs(a % S - b % S)  # noqa: E731
        near = sorted((other for other in others if distance(head, other) <= REPLY_RANGE), key=lambda other: distance(head, other))
        near = near[:MOST_NEAR]
        if not near:
            return scores
        far = tuple(other for other in others if other not in near)
        replies = [safe_moves(field.free, other, S) or [0] for other in near]
        judged = dict(scores)
        for move in moves:
            cell = head + _steps(S)[move]
            results = []
            for joint in itertools.product(*replies):
                if time.perf_counter() > deadline:
                    return judged
                targets = [other + _steps(S)[reply] for other, reply in zip(near, joint)]
                if cell in targets:
                    results.append(float(HEAD_ON))
                    continue
                free = field.free & ~(1 << cell)
                alive = []
                for target in targets:
                    if (free >> target) & 1 and targets.count(target) == 1:
                        free &= ~(1 << target)
                        alive.append(target)
                count, met = territory(free, cell, tuple(alive) + far, S, ahead=False)
                results.append(count if met else 2 * fill_estimate(free, cell, S, field.even))
            judged[move] = min(results) + sum(results) / len(results) / 10
        return judged

