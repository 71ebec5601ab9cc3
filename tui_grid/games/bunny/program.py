"""Bunny programs: the model, a forgiving parser and a canonical printer.

Notation: `F` hop, `L` / `R` turn, `LOOP(n){...}` repeat n times (n >= 1), `LOOP{...}`
repeat forever; or as the editor's keys type them, `[3 f f r]` and `[f r]`. The parser
takes letters in either case, and tokens separated by spaces, commas or nothing at all
(`FFR`, `loop ( 3 ) { f, f, r }`, `[3ffr]`). The printer writes
one canonical form, tokens separated by single spaces: `LOOP(3){F F R} L LOOP{F R}`,
and `parse_program(format_program(p)) == p` for every program.

Size is counted in tokens: each `F`, `L`, `R` and `LOOP` is one token; counts are free.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union

from tui_grid.core.text import echo


@dataclass(frozen=True)
class Op:
    """A primitive token: `F` (hop forward), `L` or `R` (turn left or right)."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in ("F", "L", "R"):
            raise ValueError(f"not a primitive token: {self.kind!r}")

    def __str__(self) -> str:
        return self.kind


F = Op("F")
L = Op("L")
R = Op("R")


@dataclass(frozen=True)
class Loop:
    """`LOOP(count){body}`, or `LOOP{body}` (forever) when `count` is None."""

    body: tuple["Node", ...]
    count: int | None = None

    def __post_init__(self) -> None:
        if self.count is not None and self.count < 1:
            raise ValueError(f"a loop count must be at least 1, got {self.count}")

    @property
    def forever(self) -> bool:
        return self.count is None

    def __str__(self) -> str:
        return format_nodes((self,))


Node = Union[Op, Loop]


@dataclass(frozen=True)
class Program:
    body: tuple[Node, ...] = ()

    @property
    def tokens(self) -> int:
        return token_count(self.body)

    def __str__(self) -> str:
        return format_nodes(self.body)

    def node_at(self, path: tuple[int, ...]) -> Node:
        """The token at `path`: an index into the top level, then into loop bodies."""
        nodes: tuple[Node, ...] = self.body
        node: Node | None = None
        for index in path:
            node = nodes[index]
            nodes = node.body if isinstance(node, Loop) else ()
        if node is None:
            raise IndexError("empty path")
        return node

    def paths(self) -> Iterator[tuple[int, ...]]:
        """Every token's path, in reading order (a loop before its body)."""

        def walk(nodes: tuple[Node, ...], prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            for i, node in enumerate(nodes):
                yield prefix + (i,)
                if isinstance(node, Loop):
                    yield from walk(node.body, prefix + (i,))

        return walk(self.body, ())


def token_count(nodes: tuple[Node, ...]) -> int:
    return sum(1 + token_count(node.body) if isinstance(node, Loop) else 1 for node in nodes)


def format_nodes(nodes: tuple[Node, ...]) -> str:
    parts = []
    for node in nodes:
        if isinstance(node, Op):
            parts.append(node.kind)
        else:
            head = "LOOP" if node.count is None else f"LOOP({node.count})"
            parts.append(f"{head}{{{format_nodes(node.body)}}}")
    return " ".join(parts)


def format_program(program: Program) -> str:
    """The canonical text: tokens separated by single spaces."""
    return format_nodes(program.body)


class ProgramError(ValueError):
    """A syntax error at a 1-based `column` of the program text."""

    def __init__(self, column: int, message: str) -> None:
        self.column = column
        self.message = message
        super().__init__(f"column {column}: {message}")


_SEPARATORS = " \t\r\n,"


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.depth = 0

    def error(self, message: str, at: int | None = None) -> ProgramError:
        return ProgramError((self.i if at is None else at) + 1, message)

    def skip(self, commas: bool = True) -> None:
        chars = _SEPARATORS if commas else " \t\r\n"
        while self.i < len(self.text) and self.text[self.i] in chars:
            self.i += 1

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def found(self) -> str:
        ch = self.peek()
        return f"found '{echo(ch)}'" if ch else "found the end of the program"

    def expect(self, ch: str) -> None:
        self.skip(commas=False)
        if self.peek() != ch:
            raise self.error(f"expected {ch!r}, {self.found()}")
        self.i += 1

    def items(self, closer: str = "") -> tuple[Node, ...]:
        """Tokens up to `closer` ('}' or ']', left for the caller), or to the end."""
        nodes: list[Node] = []
        while True:
            self.skip()
            ch = self.peek()
            if not ch:
                if closer:
                    raise self.error(f"expected {closer!r}")
                return tuple(nodes)
            if ch in "}]":
                if ch != closer:
                    raise self.error(f"expected {closer!r}, found {ch!r}" if closer else f"unexpected {ch!r} with no open loop")
                return tuple(nodes)
            if self.text[self.i : self.i + 4].upper() == "LOOP":
                nodes.append(self.loop())
            elif ch == "[":
                nodes.append(self.bracket_loop())
            elif ch.upper() in ("F", "L", "R"):
                nodes.append(Op(ch.upper()))
                self.i += 1
            else:
                raise self.error(f"unexpected '{echo(ch)}' (expected F, L, R, LOOP or [)")

    def enter(self, width: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"loops nest at most {MAX_DEPTH} deep")
        self.i += width

    def count(self, required: bool) -> int | None:
        """A loop count's digits here (None when there are none and none are required)."""
        self.skip(commas=False)
        begin = self.i
        while self.peek() in ASCII_DIGITS:
            self.i += 1
        if begin == self.i:
            if required:
                raise self.error(f"expected a loop count, {self.found()}")
            return None
        if self.i - begin > MAX_COUNT_DIGITS:
            raise self.error(f"a loop count has at most {MAX_COUNT_DIGITS} digits", at=begin)
        count = int(self.text[begin : self.i])
        if count < 1:
            raise self.error("a loop count must be at least 1", at=begin)
        return count

    def loop(self) -> Loop:
        self.enter(4)
        self.skip(commas=False)
        count: int | None = None
        if self.peek() == "(":
            self.i += 1
            count = self.count(required=True)
            self.expect(")")
        self.skip(commas=False)
        if self.peek() != "{":
            raise self.error(f"expected '{{', {self.found()}")
        self.i += 1
        body = self.items("}")
        self.i += 1  # the closing brace
        self.depth -= 1
        return Loop(body, count)

    def bracket_loop(self) -> Loop:
        """The editor's keys as text: `[` opens a loop, a count may follow it at once, `]`
        closes it (`[f[7lf]]` is `LOOP{F LOOP(7){L F}}`)."""
        self.enter(1)
        count = self.count(required=False)
        body = self.items("]")
        self.i += 1
        self.depth -= 1
        return Loop(body, count)


ASCII_DIGITS = frozenset("0123456789")
#: Limits that keep a parse bounded: counts past 9 digits and nesting past 64 loops are
#: far beyond any board (a count past a body's tail and period behaves like forever).
MAX_COUNT_DIGITS = 9
MAX_DEPTH = 64


def parse_program(text: str) -> Program:
    """Parse the program notation; raises ProgramError (a ValueError) naming the column."""
    return Program(_Parser(text).items())
