"""Games in progress kept between runs: one board file per board, with a `played:` header,
in the user's data folder (`$TUI_GRID_DATA` overrides it, for tests)."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tui_grid.core.policy import LOCAL, Policy
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


def autosave(game: Any, loaded: Any, session: Session[Any, Any], policy: Policy = LOCAL) -> Path | None:
    """Save a game in progress; drop the save of a game that is over or untouched."""
    path = save_path(game, loaded)
    # A game that plays on after its end (Bunny: a shorter program after a complete run)
    # is kept, so a program typed after the solve survives quitting.
    if not session.log or (session.over and not session.engine.plays_on_after_end):
        for same in [path, *_same_board(path)]:
            drop(same)
        return None
    refuse_planted_links(path)
    write(path, save_text(game, loaded, session), policy=policy)
    for older in _same_board(path):  # the same board saved under another name: this one now
        drop(older)
    return path


def _same_board(path: Path) -> list[Path]:
    """Other autosaves of the board `path` is for: the digest ends the name, the readable
    part before it may differ (a generated board opened by its id, or from the shipped
    file with the same id), and either way the game is offered back."""
    digest = path.stem.rsplit("-", 1)[-1]
    try:
        return sorted(other for other in path.parent.glob(f"*-{digest}.txt") if other != path and other.is_file())
    except OSError:
        return []


def refuse_planted_links(path: Path) -> None:
    """The folders the app makes inside the data folder (`autosave/<game>`) must be folders:
    a link planted in their place would send saves elsewhere. (The data folder itself may be
    a link: that is the user's own choice.)"""
    root = data_dir()
    folder = path.parent
    for part in [folder, *folder.parents]:
        if part == root or root not in part.parents:
            break
        if part.is_symlink():
            raise OSError(errno.ELOOP, f"{part} is a link, not the app's own folder")


def drop(path: Path) -> bool:
    """Remove a save that is no longer wanted; False when it cannot be (a read-only folder).
    Never raises: nothing is lost by a save that stays, it is only offered again."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        return False
    return True


def set_aside(path: Path) -> Path | None:
    """Move an autosave that cannot be read out of the way under a new name beside it
    (`<name>.unreadable[-k].txt`, never over another file), so the board can start fresh
    and nothing is lost; None when it cannot be moved (it is then left where it is)."""
    for k in range(100):
        target = path.with_name(f"{path.stem}.unreadable{f'-{k}' if k else ''}{path.suffix}")
        try:
            os.link(path, target, follow_symlinks=False)  # fails on a taken name, in one step
        except FileExistsError:
            continue
        except OSError:
            return None
        drop(path)
        return target
    return None


def pending(game: Any, loaded: Any) -> Path | None:
    """The autosave of this board, if there is one to offer (none where the folder cannot
    be looked into: a board still opens)."""
    path = save_path(game, loaded)
    try:
        if path.is_file():
            return path
    except OSError:
        return None
    others = _same_board(path)
    return others[0] if others else None


def write(path: Path, text: str, *, lock: bool = True, replace: bool = True, make_folder: bool = True,
          policy: Policy = LOCAL) -> None:
    """Write a save so that nothing can lose or leak it: the text goes to a new temporary
    file with a random name, created exclusively (a link planted in the folder is never
    followed), flushed to disk, then renamed over `path` in one step, so a reader sees the
    old save or the new one, never half of one. With `lock` (autosaves), a lock on the save's
    folder keeps two app instances from writing in it at once; without it (a file the player
    named, in a folder that is the player's) two writers still never mix: the last rename
    wins whole. Without `replace`, a file at `path` (even one made a moment ago by someone
    else) is never replaced: FileExistsError. Any failure (a read-only folder, a full disk)
    raises OSError, removes the temporary file and leaves the old save as it was. The app's
    own folders are made as needed (`make_folder`); a folder the player typed is not. The
    `policy`'s quota (a remote player's) is kept: OSError (EDQUOT) past it."""
    if make_folder:
        path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    policy.ensure_room(data_dir(), len(data), path)
    with _locked(path.parent) if lock else contextlib.nullcontext():
        fd, temporary = _new_temporary(path)
        try:
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            if replace:
                os.replace(temporary, path)
            else:
                _place_new(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        _sync_folder(path.parent)


def _new_temporary(path: Path) -> tuple[int, str]:
    """A new file beside `path` with a random name, made exclusively (never a link followed),
    0600. Its path is `path`'s folder as given: a session of `serve ssh` reaches its folder
    only as its working folder (`.`), never through the server's folders above it."""
    for _ in range(100):
        temporary = str(path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            return os.open(temporary, flags, 0o600), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free temporary name beside {path.name}")


def _place_new(temporary: str, path: Path) -> None:
    """Give the written file its name only if nothing has it: a hard link fails on an
    existing name, in one step (no gap between looking and writing)."""
    try:
        os.link(temporary, path, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: claim the name, then fill it
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644))
        os.replace(temporary, path)
        return
    os.unlink(temporary)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (a crash right after keeps the new save), where the OS
    lets a folder be synced; the save is already whole either way."""
    with contextlib.suppress(OSError, AttributeError):
        fd = _open_folder(folder)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    """Every byte, or OSError (ENOSPC on a full disk): tests replace it to fill a disk."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _open_folder(folder: Path) -> int:
    """A descriptor of the folder itself, read-only: enough to sync it or lock it."""
    return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))


#: Errors where a folder cannot be locked (file systems without locks; NFS locks only a
#: descriptor open for writing, EBADF): the rename alone is kept.
NO_LOCKS = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL, errno.EBADF})


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself, where the OS has flock: the folder is there
    anyway, so locking leaves no file behind. The lock belongs to the open descriptor:
    closing it releases the lock, and so does a crash."""
    try:
        import fcntl
    except ImportError:  # not on this OS: the rename alone still never leaves half a save
        yield
        return
    fd = _open_folder(folder)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            if exc.errno not in NO_LOCKS:
                raise
        yield
    finally:
        os.close(fd)
