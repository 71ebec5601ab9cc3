"""C compiled at run time by the machine's compiler and loaded with ctypes: the one place
that builds, caches and trusts such a library (the Bunny solver's and the Tron search's
kernels). No dependency to install; without a compiler, callers take their Python path.

Cache: `$XDG_CACHE_HOME/tui_grid` (else `~/.cache/tui_grid`; else a private folder in
the temp dir), created 0700. A library's file name holds a hash of its source, its flags
and the machine, so a changed source builds anew (older builds of it are removed). The
compiler writes a temporary file in that folder, renamed into place atomically, so a
parallel build never loads half a file. We load code from there, so a file or folder not
owned by this user, or writable by group or others, or a symlink, is never used.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

# subprocess, shutil, tempfile and hashlib are imported where needed: a one-shot bot
# process loads a library already built and must start in a few milliseconds.

#: Seconds a compile may take before it counts as failed.
COMPILE_TIMEOUT = 60.0


def cache_folders() -> Iterator[Path]:
    """Where libraries may live, best first (the second only when the first will not do)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    yield Path(base) / "tui_grid"
    import tempfile

    yield Path(tempfile.gettempdir()) / f"tui_grid-{os.getuid() if hasattr(os, 'getuid') else 'user'}"


def private(path: Path) -> bool:
    """True for a regular file or folder (not a symlink) of ours that nobody else may write."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    if stat.S_ISLNK(info.st_mode) or not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return mine and not info.st_mode & 0o022


class CompiledLibrary:
    """One C source, built once per machine and version, loaded at most once per process."""

    def __init__(self, name: str, source: str, flags: tuple[str, ...] = ("-O2", "-shared", "-fPIC")) -> None:
        self.name = name
        self.source = source
        self.flags = flags
        #: Why the last build or load failed ("" when it did not).
        self.error = ""
        self._lib: Any = None
        self._lock = threading.Lock()
        self._file_name = ""

    def file_name(self) -> str:
        if not self._file_name:
            self._file_name = self._hashed_name()
        return self._file_name

    def _hashed_name(self) -> str:
        import hashlib

        key = hashlib.sha256(self.source.encode())
        key.update(" ".join(self.flags).encode())
        machine = os.uname() if hasattr(os, "uname") else None
        key.update(f"{machine and machine.sysname} {machine and machine.machine} {sys.implementation.cache_tag}".encode())
        return f"{self.name}_{key.hexdigest()[:16]}.so"

    def built(self) -> Path | None:
        """The library's path when a trusted build of this version exists; never compiles."""
        name = self.file_name()
        for folder in cache_folders():
            path = folder / name
            if private(folder) and private(path):
                return path
        return None

    def load(self, build: bool = True) -> Any:
        """The loaded library (a ctypes.CDLL), building it first when `build`; None when
        there is none (no compiler, a failed build, or not built and `build` is False)."""
        if self._lib is not None:
            return self._lib
        with self._lock:
            if self._lib is None:
                path = self.built() or (self._build() if build else None)
                if path is not None:
                    try:
                        import ctypes

                        self._lib = ctypes.CDLL(str(path))
                    except OSError as exc:
                        self.error = f"cannot load {path.name}: {exc}"
        return self._lib

    def _build(self) -> Path | None:
        import shutil
        import subprocess

        compiler = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            self.error = "no C compiler (gcc or cc) on PATH"
            return None
        name = self.file_name()
        for folder in cache_folders():
            try:
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                if not private(folder):
                    self.error = f"{folder} is not private to this user"
                    continue
                target = folder / name
                if not target.exists():
                    self._compile(compiler, target)
                    for old in folder.glob(f"{self.name}_*.so"):
                        if old != target:
                            old.unlink(missing_ok=True)
                if private(target):
                    return target
                self.error = f"{target} is not private to this user"
            except (OSError, subprocess.SubprocessError) as exc:
                self.error = f"build failed ({exc.__class__.__name__}: {str(exc)[:200]})"
        return None

    def _compile(self, compiler: str, target: Path) -> None:
        import subprocess
        import tempfile

        with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
            src = Path(tmp) / f"{self.name}.c"
            src.write_text(self.source)
            out = Path(tmp) / f"{self.name}.so"
            done = subprocess.run([compiler, *self.flags, "-o", str(out), str(src)], capture_output=True, text=True,
                                  timeout=COMPILE_TIMEOUT, stdin=subprocess.DEVNULL, check=False)
            if done.returncode != 0:
                raise subprocess.SubprocessError(f"{compiler} exit {done.returncode}: {done.stderr.strip()[:200]}")
            os.chmod(out, 0o700)
            os.replace(out, target)
