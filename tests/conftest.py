from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_grid.core.policy import LOCAL, Policy
from tui_grid.games.registry import get_game
from tui_grid.ui.app import TuiGridApp
from tui_grid.ui.render_caches import release_render_caches
from tui_grid.ui.settings import Settings


#: pytest keeps each test module's assertion-rewritten bytecode only where bytecode may be
#: written; where the environment forbids it (PYTHONDONTWRITEBYTECODE) every process of the
#: run (each xdist worker) rewrote every test module again: 12.9 s to collect the suite, 3.5 s
#: with the rewritten modules kept. The suite's own processes write it (in __pycache__,
#: which git ignores); the environment of the programs the tests start is left as it is.
sys.dont_write_bytecode = False


def pytest_configure(config) -> None:
    """Compile the package's bytecode once for the run. The environment may forbid writing
    it (PYTHONDONTWRITEBYTECODE), and then every program the suite starts (CLI runs, one-shot
    bots) compiles the package again: 0.19 s of CPU per CLI start against 0.14 s."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        compileall.compile_dir(Path(__file__).resolve().parent.parent / "tui_grid", quiet=2)
        _build_kernels()


def _build_kernels() -> None:
    """Build the compiled kernels (where gcc is) before any test: a test's hard bot would
    otherwise start a compile that outlives it, and every worker would compile its own."""
    from tui_grid.games.bunny import kernel as bunny_kernel
    from tui_grid.games.tron import kernel as tron_kernel

    bunny_kernel.available()
    tron_kernel.build()


def make_app(game: str | None = None, board: str | None = None, policy: Policy = LOCAL, **settings) -> TuiGridApp:
    """An app with animation off by default so key presses land instantly and deterministically."""
    settings.setdefault("animate", False)
    settings.setdefault("countdown", 0)  # a real-time round starts at once: tests step by work, not seconds
    loaded = get_game(game).load(board) if game and board else None
    return TuiGridApp(game_key=game, loaded=loaded, settings=Settings(**settings), policy=policy)


async def settle(pilot) -> None:
    """Let solver threads finish and their results reach the UI thread."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def wait_idle(pilot, limit: float = 5.0) -> None:
    """Wait until no worker runs (a timer may start new ones, so poll rather than join)."""
    import time

    deadline = time.monotonic() + limit
    def busy() -> bool:
        return any(worker.is_running for worker in pilot.app.workers) or getattr(pilot.app.screen, "driving", False)

    while busy() and time.monotonic() < deadline:
        await pilot.pause(0.02)
    await pilot.pause()


async def until(pilot, condition, limit: float = 10.0) -> bool:
    """Poll the UI until `condition()` holds (a driver's thread plays in real time); the
    bound is generous and only there so a broken test ends."""
    import time

    deadline = time.monotonic() + limit
    while not condition() and time.monotonic() < deadline:
        await pilot.pause(0.02)
    await pilot.pause()
    return condition()


def status(app) -> str:
    """The game screen's status line as shown."""
    return str(app.screen.query_one("#status").content)


@pytest.fixture
def app_factory():
    return make_app


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Autosaves and remembered setups go to a fresh folder per test, never the user's."""
    monkeypatch.setenv("TUI_GRID_DATA", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _closed_widgets_go() -> Iterator[None]:
    """Each test's closed widgets (and the lines they drew) are let go after it: Textual's
    render cache would keep up to 1024 of them, about 12,000 objects an app, and every full
    garbage collection of a worker walks them all (at the run's end too)."""
    yield
    release_render_caches()


@pytest.fixture
def short_tmpdir() -> Iterator[Path]:
    """A temporary folder with a short path (a server's TMPDIR), removed after the test: a
    server killed outright leaves what it made there (its hub's socket folder, made when
    its data folder's path is too long for a Unix socket) to the test, not to /tmp."""
    folder = Path(tempfile.mkdtemp(prefix="tg-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def plain_chase_prey(monkeypatch) -> None:
    """The builtin Evasion prey searching only its plain chase, not the held moves nor the
    variations of its plan (a fifth of its thinking): for tests about protocols and
    displays, not the prey's play."""
    from tui_grid.games.evasion import ai

    monkeypatch.setattr(ai, "PLANS", ai.PLANS[:1])
    monkeypatch.setattr(ai, "BRANCHES", 0)
