"""The program being typed in Bunny's editor: items (tokens, loop openings with counts,
closings) and a cursor, every edit one method. UI-free: the screen keys call it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tui_grid.games.bunny.program import Loop, Node, Op, Program

#: Largest loop count the editor accepts.
MAX_COUNT = 999_999_999


# --- the program being typed ------------------------------------------------------------------
@dataclass
class Open:
    """A loop's opening bracket in the draft; None counts forever."""

    count: int | None = None


CLOSE = "]"
Item = Any  # "F" | "L" | "R" | Open | CLOSE


class Draft:
    """A program as a flat list of tokens and brackets with a cursor (an insert position).
    Brackets are always inserted in pairs, so the draft is always a valid program."""

    def __init__(self, items: list[Item] | None = None) -> None:
        self.items: list[Item] = items or []
        self.cursor = len(self.items)

    def copy(self) -> Draft:
        """An independent draft (loop openings are mutable) with the same cursor."""
        twin = Draft([Open(item.count) if isinstance(item, Open) else item for item in self.items])
        twin.cursor = self.cursor
        return twin

    @classmethod
    def of(cls, program: Program) -> Draft:
        items: list[Item] = []

        def flat(nodes: tuple[Node, ...]) -> None:
            for node in nodes:
                if isinstance(node, Op):
                    items.append(node.kind)
                else:
                    items.append(Open(node.count))
                    flat(node.body)
                    items.append(CLOSE)

        flat(program.body)
        return cls(items)

    # --- structure ---
    def _match(self, index: int) -> int:
        """The index of the bracket matching the one at `index`."""
        step = 1 if isinstance(self.items[index], Open) else -1
        depth = 0
        i = index
        while True:
            item = self.items[i]
            if isinstance(item, Open):
                depth += 1
            elif item == CLOSE:
                depth -= 1
            if depth == 0:
                return i
            i += step

    def enclosing(self) -> int | None:
        """The index of the innermost loop's opening bracket around the cursor."""
        depth = 0
        for i in range(self.cursor - 1, -1, -1):
            item = self.items[i]
            if item == CLOSE:
                depth += 1
            elif isinstance(item, Open):
                if depth == 0:
                    return i
                depth -= 1
        return None

    def program(self) -> tuple[Program, dict[tuple[int, ...], int]]:
        """The program, and the draft index of each token by its path (for highlighting)."""
        stack: list[tuple[list[Node], tuple[int, ...], int | None]] = [([], (), None)]
        index_of: dict[tuple[int, ...], int] = {}
        for i, item in enumerate(self.items):
            nodes, prefix, _ = stack[-1]
            if isinstance(item, Open):
                path = prefix + (len(nodes),)
                index_of[path] = i
                nodes.append(Op("F"))  # replaced when the loop closes
                stack.append(([], path, item.count))
            elif item == CLOSE:
                body, path, count = stack.pop()
                stack[-1][0][path[-1]] = Loop(tuple(body), count)
            else:
                index_of[prefix + (len(nodes),)] = i
                nodes.append(Op(item))
        return Program(tuple(stack[0][0])), index_of

    @property
    def tokens(self) -> int:
        return sum(1 for item in self.items if item != CLOSE)

    # --- edits: each returns an error message, or "" ---
    def insert(self, kind: str) -> str:
        self.items.insert(self.cursor, kind)
        self.cursor += 1
        return ""

    def open_loop(self) -> str:
        self.items[self.cursor : self.cursor] = [Open(), CLOSE]
        self.cursor += 1
        return ""

    def close_loop(self) -> str:
        opening = self.enclosing()
        if opening is None:
            return "No loop to close here: [ opens one."
        self.cursor = self._match(opening) + 1
        return ""

    def digit(self, value: int) -> str:
        """A digit of a loop's count: the loop that ends right before the cursor (typed
        after its `}`, as in `[ff]3`), else the loop the cursor is in."""
        if self.cursor and self.items[self.cursor - 1] == CLOSE:
            opening: int | None = self._match(self.cursor - 1)
        else:
            opening = self.enclosing()
        if opening is None:
            return "Digits set a loop's count: press [ first."
        loop: Open = self.items[opening]
        count = (loop.count or 0) * 10 + value
        if count == 0:
            return "A loop count is at least 1 (no count means forever)."
        if count > MAX_COUNT:
            return f"A loop count is at most {MAX_COUNT:,}."
        loop.count = count
        return ""

    def _remove_loop(self, opening: int) -> None:
        closing = self._match(opening)
        del self.items[closing]
        del self.items[opening]
        if self.cursor > closing:
            self.cursor -= 1
        if self.cursor > opening:
            self.cursor -= 1

    def backspace(self) -> str:
        if self.cursor == 0:
            return "Nothing before the cursor to delete."
        item = self.items[self.cursor - 1]
        if isinstance(item, Open) and item.count is not None:
            item.count = item.count // 10 or None  # a digit of the count first
        elif isinstance(item, Open) or item == CLOSE:
            self._remove_loop(self.cursor - 1 if isinstance(item, Open) else self._match(self.cursor - 1))
        else:
            del self.items[self.cursor - 1]
            self.cursor -= 1
        return ""

    def delete(self) -> str:
        if self.cursor >= len(self.items):
            return "Nothing after the cursor to delete."
        item = self.items[self.cursor]
        if isinstance(item, Open):
            self._remove_loop(self.cursor)
        elif item == CLOSE:
            self._remove_loop(self._match(self.cursor))
        else:
            del self.items[self.cursor]
        return ""

    def move(self, delta: int) -> str:
        self.cursor = max(0, min(len(self.items), self.cursor + delta))
        return ""

    def home(self) -> str:
        self.cursor = 0
        return ""

    def end(self) -> str:
        self.cursor = len(self.items)
        return ""


def item_text(item: Item) -> str:
    if isinstance(item, Open):
        return "LOOP{" if item.count is None else f"LOOP({item.count}){{"
    return "}" if item == CLOSE else item


def reveal_text(program: Program, count: int) -> str:
    """The first `count` tokens of `program` in reading order, loops closed once their
    whole body is shown, `…` where more follows."""
    out: list[str] = []
    left = [count]

    def walk(nodes: tuple[Node, ...]) -> bool:
        for node in nodes:
            if left[0] == 0:
                return False
            left[0] -= 1
            if isinstance(node, Op):
                out.append(node.kind)
            else:
                out.append(item_text(Open(node.count)))
                if not walk(node.body):
                    return False
                out.append("}")
        return True

    whole = walk(program.body)
    text = " ".join(out).replace("{ ", "{").replace(" }", "}")
    return text if whole else text + " …"
