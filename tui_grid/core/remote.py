"""Whether this app serves a stranger (`tui-grid serve ssh` sets TUI_GRID_REMOTE=1 for each
session's process): then nothing can start a program or name a file path on the server,
and what the player keeps on the server is bounded. The limits a session's app applies to
itself are named here; the server's own are in online.limits."""

from __future__ import annotations

import errno
import os
from pathlib import Path

MiB = 1024 * 1024
#: What a remote player's folder may hold in all: saves, stills, settings.
QUOTA_BYTES = 4 * MiB
#: Stills (f12) a remote player keeps (older ones go), and how often one may be taken.
STILLS_KEPT = 5
STILL_SECONDS = 3.0
#: The largest board a remote player may make (cells), so a session stays within its
#: share of the server's memory.
MAX_CELLS = 250_000


def remote_session() -> bool:
    return bool(os.environ.get("TUI_GRID_REMOTE"))


def folder_name(folder: Path) -> str:
    """How a folder is named to the player: a remote player is never shown a server path."""
    return "your folder on the server" if remote_session() else str(folder)


#: What a file costs at least, however small (a block: so the quota bounds how many files
#: there are too, empty ones included).
FILE_BYTES_AT_LEAST = 4096


def folder_bytes(folder: Path) -> int:
    """What the files and folders under `folder` cost (links not followed)."""
    total = 0
    for root, folders, files in os.walk(folder):
        total += FILE_BYTES_AT_LEAST * len(folders)
        for name in files:
            try:
                total += max(FILE_BYTES_AT_LEAST, os.lstat(os.path.join(root, name)).st_size)
            except OSError:
                continue
    return total


def ensure_room(folder: Path, adding: int, replacing: Path | None = None) -> None:
    """In a remote session: OSError (EDQUOT) when `adding` bytes (in place of `replacing`)
    would take the player's folder past QUOTA_BYTES. Elsewhere nothing is counted."""
    if not remote_session():
        return
    used = folder_bytes(folder)
    if replacing is not None:
        try:
            used -= os.lstat(replacing).st_size
        except OSError:
            pass
    if used + adding > QUOTA_BYTES:
        raise OSError(errno.EDQUOT, f"your folder on the server is full ({QUOTA_BYTES // MiB} MiB)")


def still_refused(folder: Path, now: float) -> str | None:
    """In a remote session, why a still may not be taken now: one every STILL_SECONDS, and
    none in a full folder. None elsewhere."""
    if not remote_session():
        return None
    stills = _stills(folder)
    if stills and now - stills[-1][0] < STILL_SECONDS:
        return f"One still every {STILL_SECONDS:g} s on this server."
    try:
        ensure_room(folder.parent, 1)
    except OSError as exc:
        return f"No still saved: {exc.strerror}."
    return None


def keep_stills(folder: Path, newest: Path) -> str | None:
    """In a remote session, after a still is saved: only the last STILLS_KEPT stay, and
    the new one goes too if the folder is past its quota (then why). None elsewhere."""
    if not remote_session():
        return None
    for _, old in _stills(folder)[:-STILLS_KEPT]:
        if old != newest:
            old.unlink(missing_ok=True)
    try:
        ensure_room(folder.parent, 0)
    except OSError as exc:
        newest.unlink(missing_ok=True)
        return f"No still saved: {exc.strerror}."
    return None


def _stills(folder: Path) -> list[tuple[float, Path]]:
    """The stills in `folder`, oldest first."""
    try:
        found = [(path.lstat().st_mtime, path) for path in folder.glob("*.svg") if path.is_file()]
    except OSError:
        return []
    return sorted(found)
