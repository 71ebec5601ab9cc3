"""Free-for-all bots for an arena of three to eight cycles, on int bitsets (as `bots`).

Every level looks at every cycle still riding:

* easy: the longest straight run of free cells, among the moves that do not shut it into
  a pocket much smaller than the room it has.
* medium: Voronoi over N heads: for each safe move, the cells it reaches strictly before
  every other cycle (the others move at the same time, so they start a step ahead of its
  new head); a cell another head can enter too this tick counts as a likely head-on
  crash. Once no cycle can reach its region it fills that region (parity and chamber
  bound, `room`), hugging walls on ties; a dead end ranks below a likely head-on.
* hard: a search of its own moves, deepened until the deadline (at most MAX_DEPTH), in
  which every cycle that can still meet it (`interacting`) moves as the medium would
  (`predict`, re-predicted at every step), or as the easy bot would (`predict_run`) for a
  cycle whose past moves of the round matched that more often (`ArenaBot._watch`). The
  leaves score the territory, or the room once no cycle can meet it, plus the steps
  taken. Entering a cell another head can enter this tick still costs a likely head-on,
  whatever the prediction. It stops at the deadline (checked at every node) and answers
  the deepest finished search, or the medium's choice before the first.

Stdlib only, like `bots`.
"""

from __future__ import annotations

import random
import time

from tui_grid.games.tron.bots import even_mask, fill_estimate, flood, free_neighbours, parity_bound

#: Moves in the order of `bots.WORDS`: UP DOWN LEFT RIGHT.
LEVELS = ("easy", "medium", "hard")
#: A likely head-on crash: worse than any region but better than a certain crash.
HEAD_ON = -1000
CRASH = -10_000
#: A move into a pocket with no free cell: a crash next step, worse than a likely head-on.
DEAD_END = -5000
#: A room no other cycle can enter counts this many times its fillable cells, against the
#: cells of a territory still contested (which the others may yet take).
SEPARATE = 2
#: The hard bot's deepest search (in moves of its own).
MAX_DEPTH = 8
#: The largest room whose fill is estimated by its chambers (see `room`).
CHAMBER_ROOM = 150


class ArenaField:
    """An arena as bitsets: free cells, every riding head as a bit index, the stride."""

    __slots__ = ("S", "free", "heads", "even")

    def __init__(self, rows: tuple[str, ...], heads: tuple[tuple[int, int], ...]) -> None:
        width = len(rows[0])
        self.S = S = width + 1
        free = 0
        for r, row in enumerate(rows):
            bits = "".join("1" if ch == "-" else "0" for ch in row)[::-1]
            free |= int(bits, 2) << (r * S)
        self.free = free
        self.even = even_mask(width, len(rows))
        self.heads = tuple(int(r) * S + int(c) for r, c in heads)


def _grow(cells: int, S: int) -> int:
    return (cells << 1) | (cells >> 1) | (cells << S) | (cells >> S)


def _steps(S: int) -> tuple[int, int, int, int]:
    return (-S, S, -1, 1)


def safe_moves(free: int, head: int, S: int) -> list[int]:
    return [i for i, d in enumerate(_steps(S)) if head + d >= 0 and (free >> (head + d)) & 1]


def room(free: int, head: int, S: int, even: int) -> int:
    """Cells a cycle at `head` can still fill on its own: `fill_estimate` (chambers and
    parity) in a room of up to CHAMBER_ROOM cells, the parity bound alone in a larger one,
    where the chamber search costs tens of ms and seldom changes the choice."""
    region = flood(free, head, S)
    if region.bit_count() > CHAMBER_ROOM:
        return parity_bound(region, head, even)
    return fill_estimate(free, head, S, even)


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
    UP DOWN LEFT RIGHT. `seed` fixes the easy bot's tie-breaks (the others have none). The
    hard bot learns from the calls of one round how each other cycle plays, so it wants
    one ArenaBot per seat and round (a new round, seen by heads that jumped, resets it)."""

    def __init__(self, level: str = "hard", seed: int | None = 0) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
        self.level = level
        self.random = random.Random(seed)
        #: The hard bot's record of the others: per seat its head last move, the cells
        #: `predict` and `predict_run` expected it to enter, and how often each was right.
        self.last: dict[int, tuple[int, int, int]] = {}
        self.hits: dict[int, list[int]] = {}

    def _watch(self, field: ArenaField, riders: tuple[int, ...], seat: int) -> frozenset[int]:
        """The heads of the cycles that have moved like the easy bot more often than like
        the medium one (scored against what each predicted last move); a head that did not
        move one step since (a new round) starts the record afresh."""
        S = field.S
        others = [other for other in riders if other != seat]
        if any(other in self.last and abs(field.heads[other] - self.last[other][0]) not in (1, S) for other in others):
            self.last, self.hits = {}, {}
        for other in others:
            if other in self.last:
                _, medium, run = self.last[other]
                hits = self.hits.setdefault(other, [0, 0])
                hits[0] += field.heads[other] == medium
                hits[1] += field.heads[other] == run
        heads = [field.heads[other] for other in riders]
        self.last = {}
        for other in others:
            at = field.heads[other]
            rivals = tuple(head for head in heads if head != at)
            self.last[other] = (at, predict(field.free, at, rivals, S), predict_run(field.free, at, S))
        return frozenset(field.heads[other] for other, (medium, run) in self.hits.items() if run > medium and other in others)

    def choose(self, rows: tuple[str, ...], heads: tuple[tuple[int, int], ...], riders: tuple[int, ...], seat: int,
               time_ms: float = 100.0) -> int:
        deadline = time.perf_counter() + time_ms / 1000.0
        field = ArenaField(rows, heads)
        others = tuple(field.heads[other] for other in riders if other != seat)
        head = field.heads[seat]
        moves = safe_moves(field.free, head, field.S)
        # The hard bot watches every move of the others, forced ones of its own included.
        runners = self._watch(field, riders, seat) if self.level == "hard" else frozenset()
        if not moves:
            return 0
        if len(moves) == 1:
            return moves[0]
        if self.level == "easy":
            return self._easy(field, head, moves)
        scores = {move: self._score(field, head + _steps(field.S)[move], others) for move in moves}
        if self.level == "hard":
            scores = self._hard(field, head, others, moves, scores, runners, deadline)
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
            fill = room(free, cell, S, field.even)
            return SEPARATE * fill if fill else DEAD_END
        return count

    def _hard(self, field: ArenaField, head: int, others: tuple[int, ...], moves: list[int], scores: dict[int, float],
              runners: frozenset[int], deadline: float) -> dict[int, float]:
        """Each move's value by a search of our own moves, deepened until the deadline, the
        cycles that can meet us moving as `predict` says; the medium scores stand until the
        first depth is done."""
        S = field.S
        rivals = interacting(field.free, head, others, S)
        if not rivals:
            return scores
        judged = dict(scores)
        targets = _predictions(field, field.free, head, rivals, runners)
        for depth in range(1, MAX_DEPTH + 1):
            try:
                found = {}
                for move in moves:
                    cell = head + _steps(S)[move]
                    value = _after(field, field.free, cell, rivals, targets, runners, depth, deadline)
                    if any(cell in (other - S, other + S, other - 1, other + 1) for other in rivals):
                        value += HEAD_ON
                    found[move] = value
            except _Timeout:
                break
            judged = found
        return judged


class _Timeout(Exception):
    """The hard bot's deadline passed mid-search."""


def interacting(free: int, head: int, others: tuple[int, ...], S: int) -> tuple[int, ...]:
    """The heads next to the room our head can reach: no other cycle can ever meet us."""
    region = flood(free, head, S) | (1 << head)
    grown = _grow(region, S)
    return tuple(other for other in others if (grown >> other) & 1)


def predict(free: int, head: int, rivals: tuple[int, ...], S: int) -> int:
    """The cell a cycle at `head` most likely enters (-1 when it has none): the medium's
    choice, with its room counted in cells instead of by `fill_estimate` (cheaper)."""
    best, best_key = -1, None
    for d in _steps(S):
        cell = head + d
        if cell < 0 or not (free >> cell) & 1:
            continue
        rest = free & ~(1 << cell)
        count, met = territory(rest, cell, rivals, S)
        if not met:
            count = SEPARATE * flood(rest, cell, S).bit_count() or DEAD_END
        if any(cell in (rival - S, rival + S, rival - 1, rival + 1) for rival in rivals):
            count += HEAD_ON
        key = (count, -free_neighbours(rest, cell, S))
        if best_key is None or key > best_key:
            best, best_key = cell, key
    return best


def predict_run(free: int, head: int, S: int) -> int:
    """The cell an easy bot at `head` enters (-1 when it has none): the longest straight
    run among the moves with at least half the most room (the first on a tie)."""
    cells = [head + d for d in _steps(S) if head + d >= 0 and (free >> (head + d)) & 1]
    if not cells:
        return -1
    rooms = [flood(free, cell, S).bit_count() for cell in cells]
    best, best_run = -1, -1
    for cell, size in zip(cells, rooms):
        if size * 2 < max(rooms):
            continue
        step, run, at = cell - head, 0, cell
        while at >= 0 and (free >> at) & 1:
            run += 1
            at += step
        if run > best_run:
            best, best_run = cell, run
    return best


def _predictions(field: ArenaField, free: int, me: int, rivals: tuple[int, ...], runners: frozenset[int]) -> list[int]:
    """Each rival's next cell: `predict_run` for those seen to play like the easy bot, else `predict`."""
    return [predict_run(free, rival, field.S) if rival in runners
            else predict(free, rival, tuple(other for other in rivals if other != rival) + (me,), field.S) for rival in rivals]


def _after(field: ArenaField, free: int, cell: int, rivals: tuple[int, ...], targets: list[int], runners: frozenset[int],
           depth: int, deadline: float) -> float:
    """The value of entering `cell` while the rivals enter `targets`, searched `depth` - 1
    more moves: one for the step plus the value of the position reached."""
    if time.perf_counter() > deadline:
        raise _Timeout
    if cell in targets:
        return float(HEAD_ON)
    free &= ~(1 << cell)
    alive = []
    moved = set()
    for rival, target in zip(rivals, targets):
        if target >= 0 and targets.count(target) == 1:
            free &= ~(1 << target)
            alive.append(target)
            if rival in runners:
                moved.add(target)
    return 1 + _value(field, free, cell, tuple(alive), frozenset(moved), depth - 1, deadline)


def _value(field: ArenaField, free: int, me: int, rivals: tuple[int, ...], runners: frozenset[int], depth: int,
           deadline: float) -> float:
    """A position where every cycle is about to move: territory at depth 0 (fillable room
    once no rival can meet us), else the best move's value."""
    S = field.S
    rivals = interacting(free, me, rivals, S)
    if not rivals:
        fill = room(free, me, S, field.even)
        return SEPARATE * fill if fill else DEAD_END
    if depth == 0:
        return territory(free, me, rivals, S, ahead=False)[0]
    targets = _predictions(field, free, me, rivals, runners)
    best = float(CRASH)
    for d in _steps(S):
        cell = me + d
        if cell >= 0 and (free >> cell) & 1:
            best = max(best, _after(field, free, cell, rivals, targets, runners, depth, deadline))
    return best
