"""The Tron search kernel (kernel.c), compiled with the machine's gcc and loaded by ctypes.

The hard bot's pure-Python search reaches a few plies at 100 ms; the same search in C
runs about 4x the nodes (figures in bench/tron.py's output and the commit log). C is
optional: without gcc, with TUI_GRID_NO_KERNEL=1, or when anything about the build fails,
`get()` is None and bots.py searches in Python. A failure is logged once, never raised.
Building, caching and trusting the library is core/compiled.py's.

When the build happens: `get()` never compiles, it only loads a library already built.
`build()` compiles synchronously; `build_in_background()` compiles in a daemon thread
(the app's hard bots: their first moves are searched in Python meanwhile). A one-shot bot
(HackerRank's fresh process per move) never builds: it cannot wait for a compile, and a
build left running after its answer would outlive its move and take the opponent's CPU.
It searches in C once anything else built the library (the app, a bench, or
`python -m tui_grid.games.tron.kernel`).
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from tui_grid.core.compiled import CompiledLibrary

TYPE_CHECKING = False
if TYPE_CHECKING:  # ctypes is imported when a library is loaded: a one-shot bot must start fast
    import ctypes

SOURCE = Path(__file__).with_name("kernel.c")
FLAGS = ("-O2", "-shared", "-fPIC", "-std=c99", "-D_POSIX_C_SOURCE=199309L")
#: Set (to anything but "" or "0") to keep the search in Python.
DISABLE_ENV = "TUI_GRID_NO_KERNEL"

_library: CompiledLibrary | None = None
_lib: "ctypes.CDLL | None" = None
_lock = threading.Lock()
_logged = False


def disabled() -> bool:
    return os.environ.get(DISABLE_ENV, "") not in ("", "0")


def library() -> CompiledLibrary:
    """The kernel's library (its source read once per process)."""
    global _library
    if _library is None:
        _library = CompiledLibrary("tron_kernel", SOURCE.read_text(), FLAGS)
    return _library


def _log(message: str) -> None:
    global _logged
    if not _logged:
        _logged = True
        print(f"tui-grid: tron kernel: {message}; searching in Python", file=sys.stderr)


def _typed(lib: "ctypes.CDLL") -> "ctypes.CDLL | None":
    """`lib` with its functions' signatures declared; None when one is missing."""
    import ctypes

    c_int, c_long, c_char_p, int_p = ctypes.c_int, ctypes.c_long, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)
    double_p = ctypes.POINTER(ctypes.c_double)
    signatures = {
        "tron_best_move": [c_int, c_int, c_char_p, c_int, c_int, c_long, c_long, int_p, int_p],
        "tron_root_matrix": [c_int, c_int, c_char_p, c_int, c_int, c_long, c_long, int_p, int_p, int_p],
        "tron_root_scores": [c_int, c_int, c_char_p, c_int, c_int, c_long, c_long, int_p, c_int, int_p, int_p],
        "tron_line_values": [c_int, c_int, c_char_p, c_int, c_int, c_int, double_p, c_int, c_long, c_long, int_p,
                             double_p, int_p],
        "tron_contempt": [],
        "tron_voronoi": [c_int, c_int, c_char_p, c_int, c_int, int_p],
        "tron_space": [c_int, c_int, c_char_p, c_int, c_int, c_int, c_int, ctypes.POINTER(c_long)],
    }
    try:
        for name, argtypes in signatures.items():
            function = getattr(lib, name)
            function.restype, function.argtypes = c_int, argtypes
    except AttributeError as exc:
        _log(f"the library lacks a function ({exc})")
        return None
    return lib


def _load(build: bool) -> "ctypes.CDLL | None":
    global _lib
    if disabled():
        return None
    # A search asking while a build runs (the lock held for seconds) takes Python at once.
    if _lib is None and _lock.acquire(blocking=build):
        try:
            if _lib is None:
                loaded = library().load(build)
                if loaded is not None:
                    _lib = _typed(loaded)
                elif build:
                    _log(library().error or "no library")
        except OSError as exc:  # the source unreadable
            _log(f"cannot read {SOURCE.name} ({exc})")
        finally:
            _lock.release()
    return _lib


def get() -> "ctypes.CDLL | None":
    """The loaded kernel, or None (disabled, not built yet, or not loadable). Never compiles."""
    return _load(build=False)


def build() -> bool:
    """Compile the kernel if it is not built yet (synchronous, with a timeout) and load it;
    False (and one log line) when that fails."""
    return _load(build=True) is not None


_background: threading.Thread | None = None


def build_in_background() -> None:
    """Start `build` in a daemon thread once (the caller searches in Python meanwhile)."""
    global _background
    if disabled() or _lib is not None or _background is not None:
        return
    _background = threading.Thread(target=build, name="tron-kernel-build", daemon=True)
    _background.start()


def main(argv: list[str]) -> int:
    """`python -m tui_grid.games.tron.kernel`: build the kernel now (exit 1 when it fails)."""
    if build():
        print(f"tron kernel: {library().built()}")
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
