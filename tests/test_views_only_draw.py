"""Views draw what they are given: no view assigns a session's state or keeps a queue of
actions of its own (the session's human agent holds the one queue of keys, in core), and
no board view reads its screen (the screen pushes state and overlay with `show`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "tui_grid"
VIEWS = sorted([*ROOT.glob("ui/*.py"), *ROOT.glob("games/*/screen.py"), *ROOT.glob("games/*/view.py")])


def _names(node: ast.AST) -> list[str]:
    """The dotted names of an expression, innermost first: self.session.state -> [self, session, state]."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts[::-1]


def offences(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.AST] = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            names = _names(target)
            if len(names) >= 2 and names[-1] == "state" and names[-2] == "session":
                found.append(f"line {node.lineno}: assigns {'.'.join(names)}")
            if names and "queue" in names[-1].lower():
                found.append(f"line {node.lineno}: keeps a queue {'.'.join(names)}")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if "queue" in modules:
                found.append(f"line {node.lineno}: imports queue")
        if isinstance(node, ast.Attribute) and node.attr == "pending" and "session" in _names(node.value):
            found.append(f"line {node.lineno}: reads the session's pending actions")
        if isinstance(node, ast.Attribute) and node.attr == "game_screen":
            found.append(f"line {node.lineno}: a board view reads its screen")
    return found


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_view_assigns_state_or_queues_actions(path: Path) -> None:
    assert offences(path.read_text(encoding="utf-8")) == []


def test_the_check_finds_what_it_forbids() -> None:
    bad = "import queue\nself.session.state = s\nself._queues = {}\nx = self.session.pending\ny = self.game_screen.shown\n"
    assert len(offences(bad)) == 5
    assert offences("self.shown = state\nself._frames = deque()\n") == []
