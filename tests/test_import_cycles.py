"""No import cycle anywhere in the package, counting imports inside functions (they run
too, only later); core imports nothing from games, ui or online. Annotations-only imports
(`if TYPE_CHECKING:`) never run and are not counted."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tui_grid"


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in PACKAGE.rglob("*.py")}


def _annotation_only(tree: ast.Module) -> set[int]:
    """Ids of the nodes inside `if TYPE_CHECKING:` blocks."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skipped.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return skipped


def _within(name: str) -> str | None:
    """The package's module `name` names (a name from a module: that module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> set[str]:
    """The package's modules `module` imports, anywhere in it."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _annotation_only(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: len(module.split(".")) - node.level + (path.name == "__init__.py")]
                base = ".".join(package + ([node.module] if node.module else []))
            # `from package import submodule` imports the submodule (the package is its parent)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        for target in targets:
            within = _within(target) if target.startswith("tui_grid") else None
            if within is not None and within != module:
                found.add(within)
    return found


def cycles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    graph = {module: imports(module) for module in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_there_is_no_import_cycle() -> None:
    assert cycles() == []


def test_a_cycle_hidden_in_a_function_is_found() -> None:
    """The check itself sees an import inside a function, where a cycle can hide."""
    assert "tui_grid.games.evasion.sparring" in imports("tui_grid.games.evasion.ai")


def test_core_imports_nothing_above_it() -> None:
    above = ("tui_grid.games", "tui_grid.ui", "tui_grid.online", "tui_grid.cli")
    offenders = {module: sorted(name for name in imports(module) if name.startswith(above))
                 for module in MODULES if module.startswith("tui_grid.core")}
    assert {module: names for module, names in offenders.items() if names} == {}
