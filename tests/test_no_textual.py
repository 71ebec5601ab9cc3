"""Engines, solvers, generators, core and the online server must stay importable without textual."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tui_grid"
#: A game's own UI: its screen, its keymap, its board view and widgets, its dialogs and apps.
UI_MODULES = {"screen.py", "view.py", "keymap.py", "setup_dialog.py", "serve_app.py"}


def _headless_modules() -> list[Path]:
    # The session starter (online/zygote.py) loads the app on purpose: it forks sessions of it.
    online = [p for p in sorted((PACKAGE / "online").glob("*.py")) if p.name != "zygote.py"]
    paths = sorted((PACKAGE / "core").glob("*.py")) + online
    for game in sorted((PACKAGE / "games").iterdir()):
        if game.is_dir():
            paths += [p for p in sorted(game.glob("*.py")) if p.name not in UI_MODULES]
    return paths + [PACKAGE / "games" / "registry.py"]


def _module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_there_are_engine_modules_to_check() -> None:
    names = {path.name for path in _headless_modules()}
    assert {"geometry.py", "boardfile.py", "rules.py", "solver.py", "generator.py"} <= names


def test_no_headless_module_names_textual_in_an_import() -> None:
    offenders = []
    for path in _headless_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {name}" for name in names if name.split(".")[0] in {"textual", "tui_grid"} and (name.startswith("textual") or name.startswith("tui_grid.ui"))]
    assert offenders == []


def test_importing_every_headless_module_loads_no_textual() -> None:
    modules = [_module_name(path) for path in _headless_modules()] + ["tui_grid.cli"]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "from tui_grid.cli import main\n"
        "main(['solve', 'ice', 'spiral', '--json'])\n"
        "main(['solve', 'jimmy', 'seed-1', '--json'])\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print('LOADED', loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "LOADED []" in out
