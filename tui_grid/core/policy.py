"""What this process may do for whoever is at its keys, decided once (`Policy.for_environment`
in the command line's main) and passed down: a person at their own terminal may do
everything; a stranger in a `serve ssh` session (TUI_GRID_REMOTE=1) may start no program,
name no file path, keep a bounded folder and make bounded boards. The limits a session's
app holds itself to are named here; the server's own are in online.limits.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from tui_grid.core.boardfile import MAX_CELLS

MiB = 1024 * 1024
#: Who may fill a seat: everyone, or in a remote session no program.
ALL_KINDS = ("human", "bot", "cmd", "oneshot")
REMOTE_KINDS = ("human", "bot")
#: What a remote player's folder may hold in all: saves, stills, settings.
REMOTE_QUOTA_BYTES = 4 * MiB
#: Stills (f12) a remote player keeps (older ones go), and how often one may be taken.
REMOTE_STILLS_KEPT = 5
REMOTE_STILL_SECONDS = 3.0
#: The largest board a remote player may make (cells), so a session stays within its
#: share of the server's memory.
REMOTE_MAX_CELLS = 250_000
#: What a file costs at least, however small (a block: so the quota bounds how many files
#: there are too, empty ones included).
FILE_BYTES_AT_LEAST = 4096


@dataclass(frozen=True)
class Policy:
    remote: bool = False
    player_kinds: tuple[str, ...] = ALL_KINDS
    #: Whether the player may name files: open a board or a saved game, save to a path.
    file_paths: bool = True
    quota_bytes: int | None = None
    stills_kept: int | None = None
    still_seconds: float = 0.0
    max_cells: int = MAX_CELLS

    @classmethod
    def for_environment(cls, environ: Mapping[str, str] = os.environ) -> Policy:
        """The one place the environment decides: `serve ssh` marks its sessions remote."""
        return REMOTE if environ.get("TUI_GRID_REMOTE") else LOCAL

    def folder_name(self, folder: Path) -> str:
        """How a folder is named to the player: a remote player is never shown a server path."""
        return "your folder on the server" if self.remote else str(folder)

    def ensure_room(self, folder: Path, adding: int, replacing: Path | None = None) -> None:
        """OSError (EDQUOT) when `adding` bytes (in place of `replacing`) would take `folder`
        past the quota; without a quota nothing is counted."""
        if self.quota_bytes is None:
            return
        used = folder_bytes(folder)
        if replacing is not None:
            try:
                used -= max(FILE_BYTES_AT_LEAST, os.lstat(replacing).st_size)
            except OSError:
                pass
        if used + max(FILE_BYTES_AT_LEAST, adding) > self.quota_bytes:
            raise OSError(errno.EDQUOT, f"your folder on the server is full ({self.quota_bytes // MiB} MiB)")

    def still_refused(self, folder: Path, now: float) -> str | None:
        """Why a still may not be taken now (too soon after the last, or no room), or None."""
        if self.stills_kept is None:
            return None
        stills = _stills(folder)
        if stills and now - stills[-1][0] < self.still_seconds:
            return f"One still every {self.still_seconds:g} s on this server."
        try:
            self.ensure_room(folder.parent, 1)
        except OSError as exc:
            return f"No still saved: {exc.strerror}."
        return None

    def keep_stills(self, folder: Path, newest: Path) -> str | None:
        """After a still is saved: only the last `stills_kept` stay, and the new one goes too
        if the folder is past its quota (then why). None when all is well."""
        if self.stills_kept is None:
            return None
        for _, old in _stills(folder)[: -self.stills_kept]:
            if old != newest:
                old.unlink(missing_ok=True)
        try:
            self.ensure_room(folder.parent, 0)
        except OSError as exc:
            newest.unlink(missing_ok=True)
            return f"No still saved: {exc.strerror}."
        return None


LOCAL = Policy()
REMOTE = Policy(remote=True, player_kinds=REMOTE_KINDS, file_paths=False, quota_bytes=REMOTE_QUOTA_BYTES,
                stills_kept=REMOTE_STILLS_KEPT, still_seconds=REMOTE_STILL_SECONDS, max_cells=REMOTE_MAX_CELLS)


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


def _stills(folder: Path) -> list[tuple[float, Path]]:
    """The stills in `folder`, oldest first."""
    try:
        found = [(path.lstat().st_mtime, path) for path in folder.glob("*.svg") if path.is_file()]
    except OSError:
        return []
    return sorted(found)
