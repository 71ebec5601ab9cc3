"""Games in progress kept between runs: one board file per board, with a `played:` header,
in the user's data folder (`$TUI_GRID_DATA` overrides it, for tests)."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

from tui_grid.core.session import Session


def data_dir() -> Path:
    override = os.environ.get("TUI_GRID_DATA")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("tui_grid", appauthor=False))


def save_path(game: Any, loaded: Any) -> Path:
    """Where the autosave of this board lives: by game, readable name and a digest of the
    board itself, so two boards with one name never share a save."""
    rows = "\n".join(game.board_rows(loaded.board))
    digest = hashlib.sha1(f"{loaded.game_id}\n{rows}".encode()).hexdigest()[:10]
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", loaded.name or "board").strip("-")[:40] or "board"
    return data_dir() / "autosave" / game.key / f"{slug}-{digest}.txt"


def save_text(game: Any, loaded: Any, session: Session[Any, Any]) -> str:
    return game.save_text(loaded, session.played_text())


def autosave(game: Any, loaded: Any, session: Session[Any, Any]) -> Path | None:
    """Save a game in progress; drop the save of a game that is over or untouched."""
    path = save_path(game, loaded)
    if not session.log or session.over:
        path.unlink(missing_ok=True)
        return None
    write(path, save_text(game, loaded, session))
    return path


def pending(game: Any, loaded: Any) -> Path | None:
    """The autosave of this board, if there is one to offer."""
    path = save_path(game, loaded)
    return path if path.is_file() else None


def write(path: Path, text: str) -> None:
    """Write through a temporary file, so a crash never leaves half a save."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
