"""The plain search the benchmark compares against: iterative deepening over every
program of each size, with no pruning and no caching, loop counts from 2 to a fixed
`max_count` (plus forever), each program run from scratch. Like the published search,
it cannot prove anything about counts above `max_count`."""

from __future__ import annotations

from itertools import product
from typing import Iterator

from tui_grid.core.control import SearchControl
from tui_grid.games.bunny.board import BunnyBoard
from tui_grid.games.bunny.program import F, L, R, Loop, Node, Program
from tui_grid.games.bunny.solver import Evaluator


def _shapes(size: int) -> Iterator[tuple]:
    """Every sequence of `size` tokens; loops as ("loop", body)."""
    if size == 0:
        yield ()
        return
    for first in range(1, size + 1):
        for rest in _shapes(size - first):
            if first == 1:
                for op in "FLR":
                    yield (op,) + rest
            else:
                for body in _shapes(first - 1):
                    yield (("loop", body),) + rest


def _loops(items: tuple) -> int:
    return sum(1 + _loops(item[1]) for item in items if type(item) is tuple)


def _build(items: tuple, counts: Iterator[int | None]) -> tuple[Node, ...]:
    out: list[Node] = []
    for item in items:
        if type(item) is tuple:
            count = next(counts)
            out.append(Loop(_build(item[1], counts), count))
        else:
            out.append({"F": F, "L": L, "R": R}[item])
    return tuple(out)


class _Forever(Exception):
    def __init__(self, marks: int) -> None:
        self.marks = marks


def _run(ev: Evaluator, nodes: tuple[Node, ...], st: int, marks: int) -> tuple[int, int]:
    fwd, bit = ev.fwd, ev.bit
    for node in nodes:
        if type(node) is Loop:
            if node.count is None:
                seen = set()
                while (st, marks) not in seen:
                    seen.add((st, marks))
                    st, marks = _run(ev, node.body, st, marks)
                    if marks == ev.full:
                        break
                raise _Forever(marks)
            for _ in range(node.count):
                st, marks = _run(ev, node.body, st, marks)
        elif node.kind == "F":
            st = fwd[st]
            marks |= bit[st]
        elif node.kind == "L":
            st = st - (st & 3) + ((st + 3) & 3)
        else:
            st = st - (st & 3) + ((st + 1) & 3)
    return st, marks


def completes(ev: Evaluator, program: Program) -> bool:
    try:
        _, marks = _run(ev, program.body, ev.start, ev.init_marks)
    except _Forever as stop:
        marks = stop.marks
    return marks == ev.full


def baseline_solve(board: BunnyBoard, control: SearchControl, max_count: int = 20, max_tokens: int = 12) -> Program | None:
    """The first program found, by size, or None; `control.checkpoint()` may cancel it."""
    ev = Evaluator(board)
    choices = [None] + list(range(2, max_count + 1))
    for size in range(1, max_tokens + 1):
        for shape in _shapes(size):
            for counts in product(choices, repeat=_loops(shape)):
                control.tick()
                program = Program(_build(shape, iter(counts)))
                if completes(ev, program):
                    return program
    return None
