"""The Tron search kernel (kernel.c), compiled with the machine's gcc and loaded by ctypes.

The hard bot's pure-Python search reaches a few plies at 100 ms; the same search in C
reaches far deeper (figures in bench/tron.py's output and the commit log). C is optional:
without gcc, with TUI_GRID_NO_KERNEL=1, or when anything about the build fails, `get()`
is None and bots.py searches in Python. A failure is logged once, never raised.

Build cache: `$XDG_CACHE_HOME/tui_grid` (else `~/.cache/tui_grid`), created 0700; the file
name holds a hash of the C source, the compiler flags and the machine, so a changed
source builds anew. The compiler writes a temporary file in that folder, renamed into
place atomically; a library not owned by this user, or writable by group or others, is
never loaded.

When the build happens: `get()` never compiles, it only loads a library already built.
`build()` compiles synchronously (with a timeout); `build_in_background()` compiles in a
daemon thread (persistent players: the app, a stream of states; the first moves are
searched in Python meanwhile); `spawn_build()` starts a detached build process for a
one-shot bot (HackerRank's fresh process per move), which cannot wait for a compile and
would lose a thread at exit: that move is searched in Python, later ones in C.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:  # the rest is imported when needed: a one-shot bot must start fast
    import ctypes

SOURCE = Path(__file__).with_name("kernel.c")
FLAGS = ("-O2", "-shared", "-fPIC", "-std=c99", "-D_POSIX_C_SOURCE=199309L")
#: Seconds a compile may take before it counts as failed.
COMPILE_TIMEOUT = 60.0
#: Set (to anything but "" or "0") to keep the search in Python.
DISABLE_ENV = "TUI_GRID_NO_KERNEL"

_lib: "ctypes.CDLL | None" = None
_tried = False
_lock = threading.Lock()
_logged = False


def disabled() -> bool:
    return os.environ.get(DISABLE_ENV, "") not in ("", "0")


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tui_grid"


_paths: dict[Path, Path] = {}


def library_path() -> Path:
    """Where the library for this source, these flags and this machine lives."""
    folder = cache_dir()
    path = _paths.get(folder)
    if path is None:
        import hashlib

        key = hashlib.sha256()
        key.update(SOURCE.read_bytes())
        key.update(" ".join(FLAGS).encode())
        machine = os.uname()
        key.update(f"{machine.sysname} {machine.machine} {sys.implementation.cache_tag}".encode())
        path = _paths[folder] = folder / f"tron_kernel_{key.hexdigest()[:16]}.so"
    return path


def _log(message: str) -> None:
    global _logged
    if not _logged:
        _logged = True
        print(f"tui-grid: tron kernel: {message}; searching in Python", file=sys.stderr)


def trusted(path: Path) -> bool:
    """Only a regular file of ours that nobody else may write, in a folder of ours that
    nobody else may write, is loaded."""
    import stat

    try:
        st = os.stat(path, follow_symlinks=False)
        folder = os.stat(path.parent)
    except OSError:
        return False
    ours = st.st_uid == os.getuid() and folder.st_uid == os.getuid()
    return stat.S_ISREG(st.st_mode) and ours and not (st.st_mode | folder.st_mode) & 0o022


def _load(path: Path) -> "ctypes.CDLL | None":
    import ctypes

    try:
        lib = ctypes.CDLL(str(path))
        lib.tron_best_move.restype = ctypes.c_int
        lib.tron_best_move.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int,
                                       ctypes.c_long, ctypes.c_long, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
        lib.tron_root_matrix.restype = ctypes.c_int
        lib.tron_root_matrix.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_long,
                                         ctypes.c_long, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                         ctypes.POINTER(ctypes.c_int)]
        lib.tron_contempt.restype = ctypes.c_int
        lib.tron_contempt.argtypes = []
        lib.tron_voronoi.restype = ctypes.c_int
        lib.tron_voronoi.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
        lib.tron_space.restype = ctypes.c_int
        lib.tron_space.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_int, ctypes.POINTER(ctypes.c_long)]
    except (OSError, AttributeError) as exc:
        _log(f"cannot load {path.name} ({exc})")
        return None
    return lib


def get() -> "ctypes.CDLL | None":
    """The loaded kernel, or None (disabled, not built yet, or not loadable). Never compiles."""
    global _lib, _tried
    if _lib is not None or disabled():
        return None if disabled() else _lib
    with _lock:
        if _lib is None and not _tried:
            try:
                path = library_path()
            except OSError:
                _tried = True
                return None
            if path.exists():
                _tried = True
                if trusted(path):
                    _lib = _load(path)
                else:
                    _log(f"{path} is not ours alone (owner or mode), not loaded")
    return _lib


def build() -> bool:
    """Compile the kernel if it is not built yet (synchronous, with a timeout); True when
    a library is then loadable. Any failure is False and one log line."""
    global _tried
    import subprocess

    if disabled():
        return False
    try:
        path = library_path()
        folder = path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not path.exists():
            _compile(path)
    except (OSError, subprocess.SubprocessError) as exc:
        _log(f"build failed ({exc.__class__.__name__}: {str(exc)[:120]})")
        return False
    with _lock:
        _tried = False
    return get() is not None


def _compile(path: Path) -> None:
    import subprocess
    import tempfile

    compiler = os.environ.get("CC", "gcc")
    fd, temp = tempfile.mkstemp(prefix=".build-", suffix=".so", dir=path.parent)
    os.close(fd)
    try:
        done = subprocess.run([compiler, *FLAGS, "-o", temp, str(SOURCE)], capture_output=True, text=True,
                              timeout=COMPILE_TIMEOUT, check=False)
        if done.returncode != 0:
            raise subprocess.SubprocessError(f"{compiler} exit {done.returncode}: {done.stderr.strip()[:200]}")
        os.chmod(temp, 0o700)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


_background: threading.Thread | None = None


def build_in_background() -> None:
    """Start `build` in a daemon thread once (the caller searches in Python meanwhile)."""
    global _background
    if disabled() or _lib is not None or _background is not None:
        return
    _background = threading.Thread(target=build, name="tron-kernel-build", daemon=True)
    _background.start()


def spawn_build() -> None:
    """For a one-shot process: start `python -m tui_grid.games.tron.kernel` detached, so
    that later processes find the library; skipped when a build is already under way."""
    import subprocess

    if disabled():
        return
    try:
        path = library_path()
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        marker = path.with_suffix(".building")
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            import time

            if time.time() - os.stat(marker).st_mtime < COMPILE_TIMEOUT + 10:
                return
            os.unlink(marker)  # a stale marker of a build that died
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        os.close(fd)
        subprocess.Popen([sys.executable, "-m", "tui_grid.games.tron.kernel", "--marker", str(marker)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)
    except OSError:
        pass


def main(argv: list[str]) -> int:
    """`python -m tui_grid.games.tron.kernel [--marker PATH]`: build, then remove the marker."""
    try:
        return 0 if build() else 1
    finally:
        if len(argv) == 2 and argv[0] == "--marker":
            try:
                os.unlink(argv[1])
            except OSError:
                pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
