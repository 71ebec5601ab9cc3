"""Puzzle bests: each board the player solved with their own moves, their best value on it
(lower is better: Ice slides, Bunny tokens, Jimmy moves) and the proven optimum where the
game's solver knows it.

They are online.store's puzzle bests: here, owner "local" in one SQLite file in the data
folder (`saves.data_dir()`); in a `tui-grid serve ssh` session, the server's store, by
account, asked for through the hub (online.remote_bests, set with `use`). A guest's are
not kept.

Solved with help: a solve counts as the player's only when no move on the way to it was
the solver's (`s`, or any move of `w`): such a board is "solved with help" and not
recorded. Undoing the solver's moves and finishing by hand counts again. A hint (`h`)
only shows a move that the player then makes, so a hinted solve counts. Moves resumed
from a saved game count as the player's: a save does not say who made them.

Nothing here may stop a game: the store is written off the UI thread, a store that
cannot be read shows no marks, and one that cannot be written (read-only, full, over the
folder's quota) costs one line in the game's message. This module imports no Textual;
the screens call it.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tui_grid.core import saves
from tui_grid.core.control import SearchControl
from tui_grid.core.policy import Policy
from tui_grid.core.session import Change, ChangeKind, Session
from tui_grid.core.text import clip
from tui_grid.core.words import plural
from tui_grid.online.records import Best, SchemaTooNew
from tui_grid.online.store import SQLiteStore

OWNER = "local"
STORE_FILE = "bests.sqlite3"
#: What one solve may add to the data folder, counted against a remote player's quota:
#: the store's file when it is new (72 KiB: the whole store schema), and its write-ahead
#: log while it is written.
ROOM_BYTES = 128 * 1024
#: Seconds the board picker waits for another process writing the store: past them it
#: shows no marks rather than keep the player waiting.
READ_TIMEOUT = 0.2
#: Seconds the search for a board's optimum may take before the solve is kept without it.
OPTIMUM_SECONDS = 5.0
#: The mark of a solved board in the picker: a glyph, so it shows without colour too.
SOLVED_MARK = "✓"
STORE_ERRORS = (OSError, sqlite3.Error, SchemaTooNew)


# --- the store ----------------------------------------------------------------------------------
def store_path() -> Path:
    return saves.data_dir() / STORE_FILE


def board_key(game: Any, board: Any) -> str:
    """The board's id in the store: a digest of its rows, so the same board is one entry
    however it was opened (by name, from a file, by its game id)."""
    rows = "\n".join(game.board_rows(board))
    return hashlib.sha1(rows.encode()).hexdigest()[:16]


def _quick(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=READ_TIMEOUT)


class BestsSource(Protocol):
    """Where bests are kept: this machine's store, or the server's for an account."""

    def read(self, game_key: str) -> dict[str, Best]: ...
    def record(self, game_key: str, board: str, value: int, optimum: int | None, policy: Policy) -> tuple[Best | None, Best]: ...


class LocalBests:
    """The store in the data folder, owner "local"."""

    def read(self, game_key: str) -> dict[str, Best]:
        """Empty when there is no store yet or it cannot be read (a store is never made by
        looking)."""
        path = store_path()
        try:
            if not path.is_file():
                return {}
            return SQLiteStore(path, connect=_quick).bests(OWNER, game_key)
        except STORE_ERRORS:
            return {}

    def record(self, game_key: str, board: str, value: int, optimum: int | None, policy: Policy) -> tuple[Best | None, Best]:
        path = store_path()
        policy.ensure_room(path.parent, ROOM_BYTES)
        store = SQLiteStore(path)
        before = store.bests(OWNER, game_key).get(board)
        return before, store.record_solve(OWNER, game_key, board, value, optimum)


_source: BestsSource = LocalBests()


def use(source: BestsSource) -> None:
    """Keep bests in `source` from here on (a `serve ssh` session: the server's store)."""
    global _source
    _source = source


def read_bests(game_key: str) -> dict[str, Best]:
    """The player's best of each board of the game they solved, by board key; empty when
    none can be read."""
    return _source.read(game_key)


def record(game_key: str, board: str, value: int, optimum: int | None, policy: Policy) -> tuple[Best | None, Best]:
    """Count a solve; the board's best before it (None: a first solve) and after it.
    Raises one of STORE_ERRORS when it cannot be kept."""
    return _source.record(game_key, board, value, optimum, policy)


# --- words --------------------------------------------------------------------------------------
def _against_optimum(value: int, optimum: int | None, unit: str, joiner: str) -> str:
    words = plural(value, unit)
    if optimum is None:
        return words
    return f"{words}{joiner}optimal" if value <= optimum else f"{words}{joiner}optimum {optimum}"


def best_words(best: Best, unit: str) -> str:
    """A solved board's best against the optimum, as the picker shows it after the mark:
    "7 slides · optimum 6", "6 slides · optimal", or "5 moves" when none is known."""
    return _against_optimum(best.value, best.optimum, unit, " · ")


def solve_note(before: Best | None, after: Best, value: int, unit: str) -> str:
    """What a recorded solve adds to the game's message."""
    shown = _against_optimum(after.value, after.optimum, unit, " (")
    shown += ")" if after.optimum is not None else ""
    if before is None or value < before.value:
        return f"New best: {shown}."
    return f"Your best: {shown}."


def failed_note(error: BaseException) -> str:
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return clip(f"Your best could not be kept: {reason.rstrip('.')}.", 78)


def with_note(message: str, note: str, width: int, lines: int) -> str:
    """The message with the note on a line of its own below it, when both fit in `lines`
    lines of `width` columns; else the message alone: the note never cuts it."""
    if not note:
        return message
    if not message:
        return note
    width = max(width, 1)
    needed = sum(max(1, -(-len(line) // width)) for line in f"{message}\n{note}".split("\n"))
    return f"{message}\n{note}" if needed <= lines else message


# --- who hears that bests changed ---------------------------------------------------------------
_listeners: dict[int, tuple[str, Callable[[], None]]] = {}
_listeners_lock = threading.Lock()


def listen(game_key: str, heard: Callable[[], None]) -> Callable[[], None]:
    """Call `heard` (from any thread) whenever a solve of the game is recorded; returns
    the call that stops it. A board picker listens while it is mounted."""
    token = id(heard)
    with _listeners_lock:
        _listeners[token] = (game_key, heard)

    def stop() -> None:
        with _listeners_lock:
            _listeners.pop(token, None)

    return stop


def changed(game_key: str) -> None:
    with _listeners_lock:
        calls = [heard for key, heard in _listeners.values() if key == game_key]
    for heard in calls:
        try:
            heard()
        except RuntimeError:  # a picker whose app has ended
            pass


# --- the keeper of one puzzle screen's solves ---------------------------------------------------
class KeeperHost(Protocol):
    """What the keeper asks of its puzzle screen."""

    game: Any
    app: Any  # its `policy` says what the player's folder may hold
    in_demo: bool

    def to_owner(self, call: Callable[[], None]) -> None: ...
    def solve_value(self, engine: Any, state: Any) -> int | None: ...
    def optimum(self, board: Any, value: int, control: SearchControl) -> int | None: ...
    def show_status(self) -> None: ...


@dataclass(frozen=True)
class Note:
    """Words about the solve that reached `state`, shown while the board shows it."""

    state: Any
    text: str


class SolveKeeper:
    """Hears one puzzle screen's session, tells the player's solves from the solver's, and
    records the player's in the store. A step is the player's when the screen makes it
    inside `own()` on the UI thread (a key); every other step (solve, watch, a demo) is
    the solver's, and the log entries it added are remembered by identity, so the same
    entries brought back by redo or by undoing a restart are the solver's still."""

    def __init__(self, host: KeeperHost, unit: str | None) -> None:
        self.host = host
        self.unit = unit  # None: this game keeps no bests
        self.note: Note | None = None
        self._own = False
        self._ui_thread = threading.get_ident()
        self._unsubscribe: Callable[[], None] | None = None
        self._solver_moves: list[Any] = []  # held, so their ids stay theirs
        self._solver_ids: set[int] = set()
        self._seen = 0
        self._cancel = threading.Event()
        self._writers: list[threading.Thread] = []

    @contextmanager
    def own(self) -> Iterator[None]:
        """The steps made inside are the player's own (a key on the UI thread)."""
        self._own = True
        try:
            yield
        finally:
            self._own = False

    def follow(self, session: Session[Any, Any], loaded: Any) -> None:
        """Hear `session`, played on `loaded`, from here on (a new board's, or the first)."""
        self.stop_following()
        if self.unit is None:
            return
        self._ui_thread = threading.get_ident()
        self._solver_moves, self._solver_ids = [], set()
        self._seen = len(session.log)
        self.note = None
        self._unsubscribe = session.subscribe(lambda session, change: self._observe(session, change, loaded))

    def stop_following(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def close(self) -> None:
        """The app quits: a search for an optimum stops (the solve is kept without it)."""
        self.stop_following()
        self._cancel.set()

    def note_for(self, state: Any) -> str:
        note = self.note
        return note.text if note is not None and note.state is state else ""

    def wait(self, timeout: float | None = None) -> None:
        """Until every solve heard so far is written (tests, and nothing else, wait)."""
        for writer in list(self._writers):
            writer.join(timeout)

    # --- on the session's thread, inside its lock -------------------------------------------
    def _observe(self, session: Session[Any, Any], change: Change[Any], loaded: Any) -> None:
        log = session.log
        if change.kind is ChangeKind.STEP:
            if not (self._own and threading.get_ident() == self._ui_thread):
                added = log[self._seen:]
                self._solver_moves += added
                self._solver_ids.update(id(entry) for entry in added)
            value = self.host.solve_value(session.engine, change.state)
            if value is not None:
                helped = any(id(entry) in self._solver_ids for entry in log)
                state = change.state
                self.host.to_owner(lambda: self._solved(state, value, helped, loaded))
        self._seen = len(log)

    # --- on the UI thread ---------------------------------------------------------------------
    def _solved(self, state: Any, value: int, helped: bool, loaded: Any) -> None:
        if self.host.in_demo or self.unit is None:
            return  # a demo's scene is nobody's game
        if helped:
            return  # solved with help: not the player's, and nothing to add to the watch's words
        policy = self.host.app.policy
        writer = threading.Thread(target=self._write, args=(state, value, loaded, self.unit, policy), name="tui-grid-bests")
        self._writers = [w for w in self._writers if w.is_alive()] + [writer]
        writer.start()

    def _show(self, note: Note) -> None:
        self.note = note
        self.host.show_status()

    # --- on a writer's thread -----------------------------------------------------------------
    def _write(self, state: Any, value: int, loaded: Any, unit: str, policy: Policy) -> None:
        game = self.host.game
        try:
            optimum = self.host.optimum(loaded.board, value, SearchControl(cancel=self._cancel, time_limit=OPTIMUM_SECONDS))
        except Exception:  # a search that fails or runs out of time loses the optimum, never the solve
            optimum = None
        try:
            before, after = record(game.key, board_key(game, loaded.board), value, optimum, policy)
            text = solve_note(before, after, value, unit)
        except STORE_ERRORS as exc:
            text = failed_note(exc)
        try:
            self.host.to_owner(lambda: self._show(Note(state, text)))
        except RuntimeError:  # the app has ended meanwhile: the solve is kept, nobody is told
            pass
        changed(game.key)
