"""The shortest bunny program, by iterative deepening on the token count, with a proof.

`solve(board)` tries every program of 1 token, then 2, ... and returns the first one
that marks every square. Because every shorter size was searched *exhaustively* (for
every loop count, not just small ones), the answer is proven optimal; when the time
limit stops the search first, the best program known so far is returned unproven.

How the search stays exhaustive and fast:

**Trajectories ignore marks.** Where the bunny goes depends only on its square and
heading, never on the marks, so the effect of any piece of program from a state
`(square, heading)` is a pair (end state, set of squares it stood on). States are ints
`square * 4 + heading`; sets of squares are int bitmasks. A program completes the board
iff the union of its marks (with the board's own) is everything, whether or not the run
stops early.

**Loop counts are not guessed: they are split lazily (the count-class argument).**
A loop's count is an unknown n drawn from a *class*: an arithmetic progression
`{m, m+q, m+2q, ...}` (q = 0 means the single value m). Every loop starts in the class
`n >= 2` (count 1 is redundant, see `PRUNES`). A run is evaluated with all classes fixed;
when a loop's behaviour would depend on which member is meant, evaluation stops and the
class is split into sub-classes that cover it exactly, and each is run again:

- At the start of iteration i, if i is the class's least member m, the loop may exit
  here (n = m) or go on (n in {m+q, m+2q, ...}): split into those two.
- If the state at the start of iteration i equals the one at iteration j < i (period
  p = i - j) while i < m, then the body, which is deterministic for fixed classes,
  repeats for ever: every later iteration start is the state of iteration
  j + ((k - j) mod p), and all squares it will ever mark are marked already. So every
  member n of the class gives the same marks and the end state of iteration
  j + ((n - j) mod p). If p divides q this is one state for the whole class and the loop
  is resolved; otherwise the class splits into the lcm(p, q)/q progressions with step
  lcm(p, q), on each of which it is one state.

Each split is a partition of the class, and within a class the run is identical for
every member, so the search covers *every* positive count exactly, with no upper bound
guessed. In particular, from one start state with tail t and period p a loop's counts
collapse to n < t + p one by one, and for n >= t + p the p classes of n mod p, each
behaving like `LOOP{...}` for marks: that is the bound "a count past the tail plus the
period is forever". Splits only narrow classes; there are finitely many states, so each
loop splits finitely often and every exploration ends. The witness count printed for a
class is its least member.

**Caching.** The effect of a loop from a state, under the classes of the loops inside
it, is cached per (loop shape, state, classes): shapes are shared between all programs,
so `LOOP(n){F}` from a state is computed once for the whole search.

**Pruning.** Only programs in a normal form are generated; see `PRUNES`. At the top
level a node that failed with some marks also fails with fewer (same square, heading,
budget and recent items), and a forever-loop body that failed from a state for some
needed squares fails for any superset of them. A finite loop followed by the last token
is only asked whether it and one `F` complete the board, with no outcome lists.

**The compiled kernel** (`kernel.py`, optional): the forever-loop check, the top-level
finite-loop outcomes and the loop-then-`F` check run in C built with gcc at run time,
with the very same class splitting in the same order, so both paths return the same
programs. The kernel first tries each body (and its first class split) on an
over-approximation (state sets, every loop invocation free to take any count >= 2) and
skips it when even that cannot mark every needed square. On bench/bunny.py (12 seed and
24 random boards) pure Python takes 4-15x the C reference's CPU time per board (and
over 60 s on the hardest), and with the kernel about half of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import gcd
from typing import Any

from tui_grid.core.control import SearchControl, unlimited
from tui_grid.games.bunny import kernel
from tui_grid.games.bunny.board import DELTAS, BunnyBoard
from tui_grid.games.bunny.program import F, L, R, Loop, Node, Op, Program

PRUNES = """\
Every pruned shape can be rewritten into a program that marks at least the same squares
and is smaller in the order (tokens, F tokens, loops, finite loops, tokens inside loop
bodies, R tokens), compared left to right. That order is well founded, so among the
programs that complete the board a least one exists and it is pruned by no rule; and the
least ones have the fewest tokens. So the pruned search finds the true optimum.

1. `L R`, `R L` (anywhere in a sequence): both removed, same trajectory, 2 tokens fewer.
2. `L L L` is `R`: 2 tokens fewer. `R R` is `L L`: same size, fewer R.
   (So at most `L L`: three turns in a row never happen.)
3. `LOOP(1){B}` is `B`: one token fewer. (Counts start at 2.)
4. A loop whose body has no `F`: it never moves or marks, it only turns the bunny by a
   multiple of 90 degrees, which at most two turn tokens do (`L`, `R` or `L L`); the
   loop has at least two tokens, so the turns are no bigger and have one loop fewer. A
   forever loop with no `F` never ends and marks nothing: drop it and all after it.
   Empty loop bodies are a case of this.
5. A loop whose body is a single loop: `LOOP(a){LOOP(b){B}}` is `LOOP(a*b){B}` and
   `LOOP{LOOP(b){B}}` is `LOOP{B}`: one token fewer.
6. A trailing turn at the end of the program changes no mark: drop it.
7. Code after a forever loop never runs: drop it. A forever loop that is the last item
   of a loop body runs its enclosing loop's body once: drop the enclosing loop. So a
   forever loop only ever comes last in the program.
8. A finite loop that is the last item of the program: `LOOP{B}` runs the same
   iterations and more, so it marks a superset: same size, one finite loop fewer.
   So the program ends with `F` or with a forever loop.
9. Hops: `F F` is `LOOP(2){F}` (same size, fewer F); `F LOOP(n){F}`, `LOOP(n){F} F`
   and `LOOP(a){F} LOOP(b){F}` are `LOOP(n+1){F}` / `LOOP(a+b){F}`: fewer tokens.
10. A loop next to its own body, B with no loops: `LOOP(a){B} B` and `B LOOP(a){B}`
    are `LOOP(a+1){B}`, and `LOOP(a){B} LOOP(b){B}` is `LOOP(a+b){B}`: fewer tokens.
    (With loops inside, the two copies of B may have different counts, so this and
    rules 11 and 13 only compare loop-free code.)
11. A periodic loop-free body: `LOOP(n){Y Y ... Y}` (k >= 2 copies) is
    `LOOP(k*n){Y}`: fewer tokens. (`LOOP{Y Y}` is `LOOP{Y}` likewise.)
12. Turn conjugation: `(L X R)` repeated n times is `L X^n R`, because each `R L`
    between copies cancels. So `LOOP(n){L X R}` is `L LOOP(n){X} R` (same size, two
    tokens moved out of the loop body), and `LOOP{L X R}` is `L LOOP{X}` (two tokens
    fewer); the same with `R ... L`.
13. Rotation: for a primitive x, `x LOOP{B x}` runs `x B x B x ...`, which is
    `LOOP{x B}`: fewer tokens. So the primitive just before the final forever loop
    never equals its body's last item.
14. A top-level item (run once) that leaves the square, the heading and the marks as
    they were (an `F` into void, a finite loop back to where it started marking nothing
    new) can be dropped: fewer tokens. (This rule looks at the board, not only at the
    program; the argument above holds all the same, since the least completing program
    has no such item.)
"""

INITIAL_CLASS = (2, 1)  # every count n >= 2 (rule 3)

Shape = Any  # "F" | "L" | "R" | ("loop", tuple of shapes)


class Split(Exception):
    """A loop's count class must be split: `index` into the class vector, and the parts."""

    def __init__(self, index: int, parts: tuple[tuple[int, int], ...]) -> None:
        self.index = index
        self.parts = parts


class _OutOfTime(Exception):
    pass


# --- shapes and their normal form ------------------------------------------------------


def is_loop(item: Shape) -> bool:
    return type(item) is tuple


def _has_hop(items: tuple) -> bool:
    return any(item == "F" or (is_loop(item) and _has_hop(item[1])) for item in items)


def _is_hop_run(item: Shape) -> bool:
    return item == "F" or (is_loop(item) and item[1] == ("F",))


def shape_size(items: tuple) -> int:
    return sum(1 + shape_size(item[1]) if is_loop(item) else 1 for item in items)


def valid_body(body: tuple) -> bool:
    """Rules 4, 5, 11 and 12 for a loop body (finite or forever)."""
    if not body or not _has_hop(body):
        return False
    if len(body) == 1 and is_loop(body[0]):
        return False
    n = len(body)
    if n >= 2 and _plain(body):
        for period in range(1, n // 2 + 1):
            if n % period == 0 and body[:period] * (n // period) == body:
                return False
    if (body[0], body[-1]) in (("L", "R"), ("R", "L")):
        return False
    return True


def valid_last(items: tuple) -> bool:
    """Rules 1, 2, 9 and 10 for the last item of a sequence, given the items before it."""
    if len(items) < 2:
        return True
    a, b = items[-2], items[-1]
    if (a, b) in (("L", "R"), ("R", "L"), ("R", "R")):
        return False
    if b == "L" and a == "L" and len(items) >= 3 and items[-3] == "L":
        return False
    if _is_hop_run(a) and _is_hop_run(b):
        return False
    if is_loop(a) and is_loop(b) and a[1] == b[1] and _plain(a[1]):
        return False
    if is_loop(b):
        body = b[1]
        k = len(body)
        if len(items) - 1 >= k and items[-1 - k : -1] == body and _plain(body):
            return False
    # a loop followed by its body: does the sequence end with LOOP{B} B?
    for i in range(len(items) - 2, max(-1, len(items) - 10), -1):
        item = items[i]
        if is_loop(item):
            body = item[1]
            if len(items) - 1 - i == len(body) and items[i + 1 :] == body and _plain(body):
                return False
    return True


def _plain(items: tuple) -> bool:
    """True for a sequence with no loops. Rules 10, 11 and 13 compare copies of code, and
    two copies of a shape with loops may get different counts, so they only apply here."""
    return not any(is_loop(item) for item in items)


HOP_BODY = ("F",)


class ShapeBank:
    """Every normal-form loop body of each size, built once and shared."""

    def __init__(self) -> None:
        self._bodies: dict[int, list[tuple]] = {}
        self._seqs: dict[int, list[tuple]] = {0: [()]}
        self.plain: set[tuple] = set()  # the bodies with no loops inside

    def sequences(self, size: int) -> list[tuple]:
        """Sequences of exactly `size` tokens obeying the sequence rules (not yet a body)."""
        if size in self._seqs:
            return self._seqs[size]
        out = []
        for first in range(1, size + 1):
            for prefix in self.sequences(size - first):
                for item in self.items(first):
                    seq = prefix + (item,)
                    if valid_last(seq):
                        out.append(seq)
        self._seqs[size] = out
        return out

    def items(self, size: int) -> list[Shape]:
        if size == 1:
            return ["F", "L", "R"]
        return [("loop", body) for body in self.bodies(size - 1)]

    def bodies(self, size: int) -> list[tuple]:
        if size not in self._bodies:
            self._bodies[size] = [seq for seq in self.sequences(size) if valid_body(seq)]
            self.plain.update(body for body in self._bodies[size] if _plain(body))
        return self._bodies[size]


def _count_loops(items: tuple) -> int:
    return sum(1 + _count_loops(item[1]) for item in items if is_loop(item))


def build_program(top: tuple, classes: tuple, forever: tuple | None = None) -> Program:
    """A concrete program from shapes, taking counts (least class members) in pre-order."""
    counts = iter(c[0] for c in classes)

    def nodes(items: tuple) -> tuple[Node, ...]:
        out: list[Node] = []
        for item in items:
            if is_loop(item):
                count = next(counts)
                out.append(Loop(nodes(item[1]), count))
            else:
                out.append(Op(item))
        return tuple(out)

    body = nodes(top)
    if forever is not None:
        body += (Loop(nodes(forever), None),)
    return Program(body)


# --- evaluation --------------------------------------------------------------------------


class _LoopCode:
    """A compiled finite-loop shape: its body as segments, and how many loops it holds."""

    __slots__ = ("sid", "body", "size")

    def __init__(self, sid: int, body: tuple, size: int) -> None:
        self.sid = sid
        self.body = body  # segments: (0, table, 0) primitives | (1, _LoopCode, offset)
        self.size = size  # loops in this subtree, itself included



#: Entries per effect cache (a few hundred bytes each): past it the cache starts over,
#: so a long solve's memory stays under roughly a gigabyte.
CACHE_ENTRIES = 2_000_000

class Evaluator:
    """Effects of shapes on one board, with class splitting and caches."""

    def __init__(self, board: BunnyBoard) -> None:
        self.board = board
        squares = board.squares
        index = board.index
        n = len(squares)
        self.n_states = n * 4
        fwd = [0] * (n * 4)
        bit = [0] * (n * 4)
        for i, p in enumerate(squares):
            for h in range(4):
                dr, dc = DELTAS[h]
                j = index.get((p[0] + dr, p[1] + dc))
                fwd[i * 4 + h] = (i if j is None else j) * 4 + h
                bit[i * 4 + h] = 1 << i
        self.fwd = fwd
        self.bit = bit
        self.full = (1 << n) - 1
        self.init_marks = sum(1 << index[p] for p in board.initially_marked)
        self.start = index[board.start] * 4
        self._prims: dict[str, list[tuple[int, int]]] = {}
        self._codes: dict[tuple, _LoopCode] = {}
        self._seq_codes: dict[tuple, tuple] = {}
        self.loop_cache: dict[tuple, tuple] = {}
        self.forever_cache: dict[tuple, int] = {}
        self.finite_outcomes: dict[tuple, list] = {}
        self.evaluations = 0

    # compiled forms
    def prim_table(self, run: str) -> list[tuple[int, int]]:
        table = self._prims.get(run)
        if table is None:
            fwd, bit = self.fwd, self.bit
            table = []
            for st in range(self.n_states):
                s, marks = st, 0
                for op in run:
                    if op == "F":
                        s = fwd[s]
                        marks |= bit[s]
                    elif op == "L":
                        s = s - (s & 3) + ((s + 3) & 3)
                    else:
                        s = s - (s & 3) + ((s + 1) & 3)
                table.append((s, marks))
            self._prims[run] = table
        return table

    def seq_code(self, items: tuple) -> tuple:
        code = self._seq_codes.get(items)
        if code is None:
            segs = []
            run = ""
            offset = 0
            for item in items:
                if is_loop(item):
                    if run:
                        segs.append((0, self.prim_table(run), 0))
                        run = ""
                    sub = self.loop_code(item)
                    segs.append((1, sub, offset))
                    offset += sub.size
                else:
                    run += item
            if run:
                segs.append((0, self.prim_table(run), 0))
            code = tuple(segs)
            self._seq_codes[items] = code
        return code

    def loop_code(self, item: tuple) -> _LoopCode:
        code = self._codes.get(item)
        if code is None:
            body = self.seq_code(item[1])
            code = _LoopCode(len(self._codes), body, 1 + _count_loops(item[1]))
            self._codes[item] = code
        return code

    # running
    def run_seq(self, segs: tuple, st: int, classes: tuple, base: int) -> tuple[int, int]:
        marks = 0
        for kind, payload, offset in segs:
            if kind == 0:
                st, mk = payload[st]
            else:
                st, mk = self.run_loop(payload, st, classes, base + offset)
            marks |= mk
        return st, marks

    def run_loop(self, code: _LoopCode, st: int, classes: tuple, lo: int) -> tuple[int, int]:
        key = (code.sid, st, classes[lo : lo + code.size])
        cache = self.loop_cache
        if len(cache) >= CACHE_ENTRIES:
            cache.clear()  # a cache: what it forgets is recomputed, so memory stays bounded
        hit = cache.get(key)
        if hit is not None:
            if hit[0] is None:
                raise Split(lo, hit[1])
            return hit
        m, q = classes[lo]
        body = code.body
        inner = lo + 1
        run_seq = self.run_seq
        marks = 0
        s = st
        if q == 0 and m <= 4:
            for _ in range(m):
                s, mk = run_seq(body, s, classes, inner)
                marks |= mk
        else:
            seen: dict[int, int] = {}
            starts: list[int] = []
            i = 0
            while True:
                j = seen.get(s)
                if j is not None:
                    p = i - j
                    if q == 0 or q % p == 0:
                        s = starts[j + (m - j) % p]
                        break
                    step = q * p // gcd(p, q)
                    parts = tuple((m + t * q, step) for t in range(step // q))
                    cache[key] = (None, parts)
                    raise Split(lo, parts)
                if i == m:
                    if q == 0:
                        break
                    parts = ((m, 0), (m + q, q))
                    cache[key] = (None, parts)
                    raise Split(lo, parts)
                seen[s] = i
                starts.append(s)
                s, mk = run_seq(body, s, classes, inner)
                marks |= mk
                i += 1
        result = (s, marks)
        cache[key] = result
        return result

    def forever_marks(self, segs: tuple, sid: Any, st: int, classes: tuple, need: int) -> int:
        """Marks of `LOOP{body}` from `st` (all of them, or enough to cover `need`)."""
        key = (sid, st, classes)
        if len(self.forever_cache) >= CACHE_ENTRIES:
            self.forever_cache.clear()
        hit = self.forever_cache.get(key)
        if hit is not None:
            return hit
        run_seq = self.run_seq
        seen = set()
        marks = 0
        s = st
        while s not in seen:
            seen.add(s)
            s, mk = run_seq(segs, s, classes, 0)
            marks |= mk
            if marks & need == need:
                return marks
        self.forever_cache[key] = marks
        return marks


# --- the search ---------------------------------------------------------------------------


@dataclass
class Solution:
    """The search's answer. `program` is None only when no program can complete the board."""

    program: Program | None
    proven_optimal: bool
    seconds: float
    message: str = ""
    searched_tokens: int = 0  # every program with fewer tokens than this was ruled out
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def tokens(self) -> int | None:
        return None if self.program is None else self.program.tokens


class _Search:
    def __init__(self, board: BunnyBoard, control: SearchControl, deadline: float | None, max_positions: int | None = None) -> None:
        self.ev = Evaluator(board)
        #: Top-level positions searched, and how many may be: a budget of work that is the
        #: same on every machine and on both paths (the kernel's node counts differ).
        self.positions = 0
        self.max_positions = max_positions
        self.bank = ShapeBank()
        self.control = control
        self.deadline = deadline
        self.next_check = time.monotonic() + 0.02
        self.failed: dict[tuple, list[int]] = {}
        self.found: Program | None = None
        self.forever_memo: dict[tuple, list] = {}
        self.kernel = kernel.Kernel(self.ev.fwd, len(board.squares)) if kernel.available() else None

    def poll(self) -> None:
        self.control.tick()
        now = time.monotonic()
        if now >= self.next_check:
            self.next_check = now + 0.02
            self.control.checkpoint()
            if self.deadline is not None and now >= self.deadline:
                raise _OutOfTime()

    def finite_outcomes(self, item: tuple, st: int) -> list:
        """Every distinct (end state, marks, classes) of a top-level finite loop from `st`,
        keeping, per end state, only marks not strictly inside another's."""
        key = (item, st)
        got = self.ev.finite_outcomes.get(key)
        if got is not None:
            return got
        if self.kernel is not None and self.kernel.fits(item[1]):
            self.poll()
            got, leaves = self.kernel.finite_outcomes(item, st)
            if leaves > 1:
                self.control.tick(leaves - 1)
            self.ev.finite_outcomes[key] = got
            return got
        by_state: dict[int, list] = {}
        for s, marks, classes in self._finite_leaves(item, st):
            kept = by_state.setdefault(s, [])
            if any(marks | other == other for other, _ in kept):
                continue
            kept[:] = [(other, c) for other, c in kept if other | marks != marks]
            kept.append((marks, classes))
        got = [(s, marks, classes) for s, kept in by_state.items() for marks, classes in kept]
        self.ev.finite_outcomes[key] = got
        return got

    def finite_then_hop(self, item: tuple, st: int, need: int) -> tuple[int, tuple, bool] | None:
        """(end state, classes, whether the loop alone marks all) of the first count class
        for which the top-level finite loop `item` from `st`, then one `F`, marks all of
        `need`; None when none does. Only existence matters here, so no outcomes are kept
        or compared."""
        if self.kernel is not None and self.kernel.fits(item[1]):
            self.poll()
            hit, leaves = self.kernel.finite_then_hop(item, st, need)
            if leaves > 1:
                self.control.tick(leaves - 1)
            return hit
        fwd, bit = self.ev.fwd, self.ev.bit
        for s, mk, cls in self._finite_leaves(item, st):
            if s == st and not mk & need:
                continue  # rule 14
            left = need & ~mk
            if not left or (fwd[s] != s and left == bit[fwd[s]]):
                return s, cls, not left
        return None

    def _finite_leaves(self, item: tuple, st: int):
        """(end state, marks, classes) of `item` from `st` for each count class."""
        ev = self.ev
        code = ev.loop_code(item)
        stack = [(INITIAL_CLASS,) * code.size]
        while stack:
            classes = stack.pop()
            self.poll()
            try:
                s, marks = ev.run_loop(code, st, classes, 0)
            except Split as split:
                i = split.index
                for part in reversed(split.parts):
                    stack.append(classes[:i] + (part,) + classes[i + 1 :])
                continue
            yield s, marks, classes

    def forever_covers(self, body: tuple, st: int, need: int) -> tuple | None:
        """Classes for which `LOOP{body}` from `st` marks all of `need`, or None.

        Remembered per (body, state): an answer for the same `need`, and every `need` it
        failed for, since a failure for some need is a failure for any superset of it
        (different prefixes often leave the bunny in the same state wanting more)."""
        memo = self.forever_memo.get((body, st))
        if memo is None:
            if len(self.forever_memo) >= CACHE_ENTRIES:
                self.forever_memo.clear()
            memo = self.forever_memo[(body, st)] = [{}, []]
        answers, failed = memo
        if need in answers:
            return answers[need]
        for other in failed:
            if other & need == other:
                return None
        found = self._forever_covers(body, st, need)
        if found is None:
            failed[:] = [other for other in failed if other & need != need]
            failed.append(need)
        else:
            answers[need] = found
        return found

    def _forever_covers(self, body: tuple, st: int, need: int) -> tuple | None:
        if self.kernel is not None and self.kernel.fits(body):
            self.poll()
            found, leaves = self.kernel.forever_covers(body, st, need)
            if leaves > 1:
                self.control.tick(leaves - 1)
            return found
        ev = self.ev
        segs = ev.seq_code(body)
        stack = [(INITIAL_CLASS,) * _count_loops(body)]
        while stack:
            classes = stack.pop()
            self.poll()
            try:
                marks = ev.forever_marks(segs, body, st, classes, need)
            except Split as split:
                i = split.index
                for part in reversed(split.parts):
                    stack.append(classes[:i] + (part,) + classes[i + 1 :])
                continue
            if marks & need == need:
                return classes
        return None

    def top(self, st: int, marks: int, budget: int, prefix: tuple, classes: tuple) -> bool:
        """Complete `prefix` with exactly `budget` more tokens (rules 6, 7, 8, 13 for the
        top level); on success sets `self.found`."""
        self.positions += 1
        if self.max_positions is not None and self.positions > self.max_positions:
            raise _OutOfTime()
        full = self.ev.full
        if marks == full:
            self.found = build_program(prefix, classes)
            return True
        if budget <= 0:
            return False
        # failed from here with more marks: fails with these (any continuation that
        # completes from fewer marks completes from more)
        key = (st, budget, prefix[-(budget + 2) :])
        failed = self.failed.get(key)
        if failed is not None:
            for other in failed:
                if marks | other == other:
                    return False
        self.poll()
        ev = self.ev
        need = full & ~marks
        # the final forever loop, using every remaining token
        if budget >= 2:
            for body in self.bank.bodies(budget - 1):
                if prefix and prefix[-1] == body[-1] and not is_loop(body[-1]):
                    continue  # rule 13
                if len(prefix) >= len(body) and prefix[-len(body) :] == body and _plain(body):
                    continue  # rule 10 (B LOOP{B} is LOOP{B})
                found = self.forever_covers(body, st, need)
                if found is not None:
                    self.found = build_program(prefix, classes + found, body)
                    return True
        # a hop (not into void: at the top level that changes nothing, rule 14)
        seq = prefix + ("F",)
        s = ev.fwd[st]
        if s != st and valid_last(seq):
            if self.top(s, marks | ev.bit[s], budget - 1, seq, classes):
                return True
        if budget >= 2:  # a turn or a finite loop must be followed by at least one more token
            for turn in ("L", "R"):
                seq = prefix + (turn,)
                if valid_last(seq):
                    s = st - (st & 3) + ((st + (3 if turn == "L" else 1)) & 3)
                    if self.top(s, marks, budget - 1, seq, classes):
                        return True
            before = prefix[-1] if prefix else None
            after_hops = before is not None and _is_hop_run(before)
            plain = self.bank.plain
            for size in range(1, budget - 1):
                last = size == budget - 2  # then only one F can follow
                for body in self.bank.bodies(size):
                    # valid_last(prefix + (item,)) for a loop item, the rules that can apply
                    if body in plain:
                        if body == HOP_BODY:
                            if after_hops or last:
                                continue  # rule 9 (last: the F after it)
                        elif is_loop(before) and before[1] == body:
                            continue  # rule 10
                        if len(prefix) >= len(body) and prefix[-len(body) :] == body:
                            continue  # rule 10
                    item = ("loop", body)
                    seq = prefix + (item,)
                    if last:
                        hit = self.finite_then_hop(item, st, need)
                        if hit is not None:
                            s, cls, alone = hit
                            after = full if alone else full & ~ev.bit[ev.fwd[s]]
                            if self.top(s, after, 1, seq, classes + cls):
                                return True
                        continue
                    for s, mk, cls in self.finite_outcomes(item, st):
                        if s == st and mk | marks == marks:
                            continue  # rule 14: changes nothing
                        if self.top(s, marks | mk, budget - 1 - size, seq, classes + cls):
                            return True
        if failed is None:
            self.failed[key] = [marks]
        else:
            failed[:] = [other for other in failed if other | marks != marks]
            failed.append(marks)
        return False

    def search(self, tokens: int) -> Program | None:
        self.failed = {}
        self.found = None
        ev = self.ev
        if self.top(ev.start, ev.init_marks, tokens, (), ()):
            return self.found
        return None


def fallback_program(board: BunnyBoard) -> Program | None:
    """A plain (long) program that completes the board: walk to the nearest unmarked
    square again and again. None when some square cannot be reached at all."""
    if board.cut_off:
        return None
    marks = set(board.initially_marked)
    pos, heading = board.start, 0
    ops: list[Op] = []
    while not board.unmarked <= marks:
        # breadth-first search over squares for the nearest unmarked one
        parent = {pos: None}
        queue = [pos]
        target = None
        for p in queue:
            if p not in marks:
                target = p
                break
            for h in range(4):
                q = board.hop(p, h)
                if q not in parent:
                    parent[q] = (p, h)
                    queue.append(q)
        assert target is not None
        route = []
        p = target
        while parent[p] is not None:
            p, h = parent[p]
            route.append(h)
        for h in reversed(route):
            turn = (h - heading) % 4
            ops.extend({0: [], 1: [R], 2: [L, L], 3: [L]}[turn])
            heading = h
            ops.append(F)
            pos = board.hop(pos, h)
            marks.add(pos)
    # compress runs of hops into loops
    nodes: list[Node] = []
    i = 0
    while i < len(ops):
        j = i
        while j < len(ops) and ops[j] == F:
            j += 1
        if j - i >= 2:
            nodes.append(Loop((F,), j - i))
            i = j
        else:
            nodes.append(ops[i])
            i += 1
    return Program(tuple(nodes))


def solve(
    board: BunnyBoard,
    time_limit: float | None = None,
    control: SearchControl | None = None,
    max_tokens: int = 64,
    max_positions: int | None = None,
) -> Solution:
    """The shortest program for `board`, proven optimal unless `time_limit` runs out first,
    or the search visits more than `max_positions` top-level positions (then the best
    program found so far, unproven). Cancelling through `control` raises `Cancelled`."""
    started = time.monotonic()
    control = control or unlimited()
    fallback = fallback_program(board)
    if fallback is None:
        return Solution(None, True, time.monotonic() - started, "No program completes this board: some squares cannot be reached.")
    deadline = None if time_limit is None else started + time_limit
    search = _Search(board, control, deadline, max_positions)
    if search.ev.init_marks == search.ev.full:
        return Solution(Program(()), True, time.monotonic() - started, "the board is already complete")
    limit = min(max_tokens, fallback.tokens)
    tokens = 1
    try:
        while tokens <= limit:
            found = search.search(tokens)
            if found is not None:
                return _finish(search, found, True, started, tokens)
            tokens += 1
        return _finish(search, fallback, tokens > fallback.tokens, started, tokens)
    except _OutOfTime:
        return _finish(search, fallback, False, started, tokens)


def _finish(search: _Search, program: Program, proven: bool, started: float, tokens: int) -> Solution:
    ev = search.ev
    stats = {"loop_cache": len(ev.loop_cache), "forever_cache": len(ev.forever_cache), "nodes": search.control.nodes, "positions": search.positions}
    message = f"{program.tokens} tokens, proven optimal" if proven else f"{program.tokens} tokens; no program under {tokens} tokens exists"
    return Solution(program, proven, time.monotonic() - started, message, tokens, stats)


def solve_record(board: BunnyBoard, time_limit: float | None = None, control: SearchControl | None = None) -> dict:
    """What `tui-grid solve bunny BOARD --json` prints for one board."""
    solution = solve(board, time_limit, control)
    return {
        "solvable": solution.program is not None,  # as Ice says it (false: some square cannot be reached)
        "program": None if solution.program is None else str(solution.program),
        "tokens": solution.tokens,
        "proven_optimal": solution.proven_optimal,
        "seconds": round(solution.seconds, 3),
    }
