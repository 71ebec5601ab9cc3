"""A memory cgroup for all of a server's sessions, where the server may make one: the
kernel then holds every session's app together to the memory budget (pages shared between
sessions counted once). cgroup v2 (`memory.max`) or v1 (`memory.limit_in_bytes`); where
neither can be written, the per-session hard limits alone apply."""

from __future__ import annotations

import os
from pathlib import Path

PREFIX = "tui-grid-sessions-"


def _own_cgroups() -> dict[str, str]:
    """controller (or "" for v2) -> this process's cgroup path."""
    found: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(",") if parts[1] else [""]:
                found[controller] = parts[2]
    return found


def _v2_root() -> Path | None:
    for candidate in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")):
        if (candidate / "cgroup.controllers").is_file():
            return candidate
    return None


class SessionsCgroup:
    """Made by `make`; `procs` is the file a session's process writes "0" to join it."""

    def __init__(self, folder: Path, limit_file: str) -> None:
        self.folder = folder
        self.limit_file = limit_file
        self.procs = str(folder / "cgroup.procs")

    @classmethod
    def make(cls, budget_bytes: int) -> SessionsCgroup | None:
        own = _own_cgroups()
        attempts: list[tuple[Path, str]] = []
        root = _v2_root()
        if root is not None and "" in own:
            attempts.append((root / own[""].lstrip("/"), "memory.max"))
        if "memory" in own:
            attempts.append((Path("/sys/fs/cgroup/memory") / own["memory"].lstrip("/"), "memory.limit_in_bytes"))
        for parent, limit_file in attempts:
            made = cls._try(parent, limit_file, budget_bytes)
            if made is not None:
                return made
        return None

    @classmethod
    def _try(cls, parent: Path, limit_file: str, budget_bytes: int) -> SessionsCgroup | None:
        cls.remove_stale(parent)
        folder = parent / f"{PREFIX}{os.getpid()}"
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            return None
        if limit_file == "memory.max" and not (folder / limit_file).exists():
            try:
                (parent / "cgroup.subtree_control").write_text("+memory")
            except OSError:
                pass
        try:
            (folder / limit_file).write_text(str(budget_bytes))
            return cls(folder, limit_file)
        except OSError:
            try:
                folder.rmdir()
            except OSError:
                pass
            return None

    @staticmethod
    def remove_stale(parent: Path) -> None:
        """Empty sessions cgroups of servers that are gone."""
        try:
            folders = list(parent.glob(f"{PREFIX}*"))
        except OSError:
            return
        for folder in folders:
            try:
                pid = int(folder.name[len(PREFIX):])
                os.kill(pid, 0)
            except ProcessLookupError:
                try:
                    folder.rmdir()  # only an empty cgroup goes
                except OSError:
                    pass
            except (ValueError, PermissionError):
                continue

    def limit(self) -> int | None:
        try:
            text = (self.folder / self.limit_file).read_text().strip()
        except OSError:
            return None
        return None if text == "max" else int(text)

    def close(self) -> None:
        try:
            self.folder.rmdir()
        except OSError:
            pass
